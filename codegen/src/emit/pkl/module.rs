//! The data of each kind of module of a minor's subtree: a types module
//! (classes and typealiases), a resource module and an object module. The
//! builder that collects its imports is `builder.rs`; its items are
//! written by `items.rs`.

use super::builder::{spec_error, Builder};
use super::definition_modules::Location;
use super::escape::pkl_string;
use super::gate::Gate;
use super::items::{ClassData, Items, PropertyData, TypeAliasData};
use super::paths::relative_path;
use super::subtree::{ModuleData, Subtree};
use crate::error::Result;
use crate::model::{Definition, Schema};
use vergate_core::alias::{can_quote_pkl_identifier, pkl_identifier};

/// The pkl:base names the emitted types use; a definition of that name would
/// shadow them in its module.
const BASE_TYPES: &[&str] = &[
    "Any", "Boolean", "Dynamic", "Int", "Int32", "Listing", "Mapping", "Number", "String",
];

impl<'a> Subtree<'a> {
    /// The data of the types module `module`.
    pub fn types_module(&self, module: &str, definitions: &[&Definition]) -> Result<ModuleData> {
        let mut builder = Builder::new(self, module);
        for definition in definitions {
            // A class written in another module is a typealias here: only
            // that module is imported for it.
            match self.layout.locations.get(definition.name.as_str()) {
                Some(location) if location.module() != module => {
                    builder.referenced.insert(location.module().to_owned());
                }
                _ => builder.collect_definition(definition)?,
            }
        }
        builder.finish_imports(definitions.iter().map(|d| d.short_name().to_owned()));
        let mut classes = Vec::new();
        let mut typealiases = Vec::new();
        for definition in definitions {
            let lifecycle = &self.model.types[&definition.name].lifecycle;
            let gate = Gate::of(lifecycle, self.version, &self.model.versions);
            let doc = definition.description.clone().unwrap_or_default();
            let name = definition.short_name().to_owned();
            check_name(&name, definition)?;
            if let Some(Location::Module { module: path }) =
                self.layout.locations.get(definition.name.as_str())
            {
                // A class that is a module of its own: the old name stays.
                typealiases.push(TypeAliasData {
                    doc: format!("`{name}` is the module `{path}.pkl`."),
                    gate,
                    name,
                    ty: builder.alias(path),
                    deprecated: None,
                });
                continue;
            }
            if let Some(Location::Member {
                module: path,
                name: member,
            }) = self.layout.locations.get(definition.name.as_str())
            {
                if path != module {
                    // A class pkl-k8s keeps inside another's module.
                    typealiases.push(TypeAliasData {
                        doc: format!("`{name}` is `{member}` of the module `{path}.pkl`."),
                        gate,
                        name,
                        ty: format!("{}.{}", builder.alias(path), pkl_identifier(member)),
                        deprecated: None,
                    });
                    continue;
                }
            }
            match &definition.schema {
                Schema::Object(object) if !object.properties.is_empty() => {
                    classes.push(ClassData {
                        doc,
                        gate,
                        name,
                        properties: builder.properties(definition)?,
                    });
                }
                schema => typealiases.push(TypeAliasData {
                    doc,
                    gate,
                    name,
                    ty: builder.alias_target(schema, &definition.enum_values, definition)?,
                    deprecated: None,
                }),
            }
        }
        let namespace = crate::model::naming::namespace_of(&definitions[0].name);
        let lifecycle = crate::model::Lifecycle {
            presence: self.paths.presence(namespace),
            ..Default::default()
        };
        Ok(ModuleData {
            doc: format!(
                "The types of `{namespace}` in {} {}.",
                self.model.api, self.version
            ),
            gate: Gate::of(&lifecycle, self.version, &self.model.versions),
            ..builder.into_data(&Items {
                typealiases,
                classes,
                ..Items::default()
            })
        })
    }

    /// The data of the resource module `module`.
    pub fn resource_module(&self, module: &str, definition: &Definition) -> Result<ModuleData> {
        let resource = &self.layout.resources[module];
        let mut builder = Builder::new(self, module);
        builder.collect_definition(definition)?;
        // At pkl-k8s's path, the classes pkl-k8s keeps inside the module
        // are typealiases of it (`Deployment.DeploymentSpec`).
        let members: Vec<(&str, &str, &str)> = if resource.short.is_some() {
            self.layout
                .nested_in(self.owners, &definition.name)
                .collect()
        } else {
            Vec::new()
        };
        let moved = self.import_members_and_moved(&mut builder, module, definition, &members)?;
        let (classes, typealiases) =
            self.nested_items(&builder, module, definition, members, &moved)?;
        let mut properties = builder.properties(definition)?;
        refuse_output(&properties, definition, "resource")?;
        for property in &mut properties {
            let fixed = match property.name.as_str() {
                name if Some(name) == self.document_version_field => Some(self.version.to_string()),
                "apiVersion" => Some(resource.kind.api_version()),
                "kind" => Some(resource.kind.kind.clone()),
                _ => None,
            };
            if let Some(value) = fixed {
                property.ty = pkl_string(&value);
                property.fixed = true;
            }
        }
        // A kind its API server warns about in this minor: the same
        // warning, traced whenever the module renders (its apiVersion is
        // always written).
        let warning = vergate_core::gates::warning_in(
            &self.model.types[&definition.name].api_lifecycle,
            resource.kind,
            self.version,
        );
        if let Some(warning) = warning {
            if let Some(api_version) = properties.iter_mut().find(|p| p.name == "apiVersion") {
                api_version.ty = format!(
                    "{}(trace({}) != null)",
                    api_version.ty,
                    pkl_string(&format!("warning: {warning}"))
                );
            }
        }
        let (open, extends) = if self.k8s_base {
            (
                true,
                Some(relative_path(module, super::paths::K8S_RESOURCE)),
            )
        } else {
            (false, None)
        };
        let lifecycle = &self.model.types[&definition.name].lifecycle;
        let mut doc = definition.description.clone().unwrap_or_default();
        if !resource.preferred {
            doc.push_str(&format!(
                "\n\nServed as `{}`; not the preferred version of {} in {}.",
                resource.kind.api_version(),
                resource.kind.kind,
                self.version
            ));
        }
        Ok(ModuleData {
            doc,
            gate: Gate::of(lifecycle, self.version, &self.model.versions),
            open,
            extends,
            ..builder.into_data(&Items {
                properties,
                typealiases,
                classes,
            })
        })
    }

    /// What a module at pkl-k8s's path holds for the classes pkl-k8s keeps
    /// inside it (`members`) and the ones it moved out (`moved`): the
    /// classes written there, and typealiases of the rest.
    fn nested_items(
        &self,
        builder: &Builder,
        module: &str,
        definition: &Definition,
        members: Vec<(&str, &str, &str)>,
        moved: &[(&'static str, &Location)],
    ) -> Result<(Vec<ClassData>, Vec<TypeAliasData>)> {
        let classes = self.nested_classes(builder, module, &members)?;
        let mut typealiases = self.member_aliases(builder, module, definition, members);
        typealiases.extend(self.moved_aliases(builder, module, moved));
        Ok((classes, typealiases))
    }

    /// The classes pkl-k8s keeps inside `module` that are written there
    /// (`members`: each (definition name, its module, member name)).
    fn nested_classes(
        &self,
        builder: &Builder,
        module: &str,
        members: &[(&str, &str, &str)],
    ) -> Result<Vec<ClassData>> {
        let minor = &self.model.minors[&self.version];
        let mut classes = Vec::new();
        for (name, home, member) in members {
            if *home != module {
                continue;
            }
            let definition = &minor.definitions[*name];
            check_name(member, definition)?;
            classes.push(ClassData {
                doc: definition.description.clone().unwrap_or_default(),
                gate: Gate::of(
                    &self.model.types[*name].lifecycle,
                    self.version,
                    &self.model.versions,
                ),
                name: (*member).to_owned(),
                properties: builder.properties(definition)?,
            });
        }
        Ok(classes)
    }

    /// The typealiases of the classes pkl-k8s keeps inside `definition`'s
    /// module that are written elsewhere (their types module), each
    /// (definition name, that module, member name).
    fn member_aliases(
        &self,
        builder: &Builder,
        module: &str,
        definition: &Definition,
        members: Vec<(&str, &str, &str)>,
    ) -> Vec<TypeAliasData> {
        members
            .into_iter()
            .filter(|(_, types, _)| *types != module)
            .map(|(name, types, member)| TypeAliasData {
                doc: format!("pkl-k8s's `{}.{member}`.", definition.short_name()),
                gate: Gate::of(
                    &self.model.types[name].lifecycle,
                    self.version,
                    &self.model.versions,
                ),
                name: member.to_owned(),
                ty: format!("{}.{}", builder.alias(types), pkl_identifier(member)),
                deprecated: None,
            })
            .collect()
    }

    /// Imports what a module of `definition` (an object) refers to beyond
    /// its properties: the types modules of its `members` (classes pkl-k8s
    /// keeps inside it) and the modules of the classes pkl-k8s's old paths
    /// moved into it; returns the latter, for their typealiases.
    fn import_members_and_moved(
        &self,
        builder: &mut Builder<'_, 'a>,
        module: &str,
        definition: &Definition,
        members: &[(&str, &str, &str)],
    ) -> Result<Vec<(&'static str, &'a Location)>> {
        let minor = &self.model.minors[&self.version];
        for (name, types, _) in members {
            if *types == module {
                builder.collect_definition(&minor.definitions[*name])?;
            } else {
                builder.referenced.insert((*types).to_owned());
            }
        }
        let object = definition.object().expect("modules are of objects");
        let own_names: Vec<String> = object
            .properties
            .keys()
            .cloned()
            .chain(members.iter().map(|(_, _, member)| (*member).to_owned()))
            .collect();
        let moved = self.moved_names(module, &own_names);
        for (_, location) in &moved {
            if location.module() != module {
                builder.referenced.insert(location.module().to_owned());
            }
        }
        builder.finish_imports(
            own_names
                .into_iter()
                .chain(moved.iter().map(|(name, _)| (*name).to_owned())),
        );
        Ok(moved)
    }

    /// pkl-k8s's old names for classes it moved out of `module`
    /// (`moved.rs`) that this minor can give, each with where its class is
    /// now; names the module already holds (`taken`) are left out.
    fn moved_names(&self, module: &str, taken: &[String]) -> Vec<(&'static str, &'a Location)> {
        crate::model::kubernetes::pkl_k8s_moved_into(module)
            .filter(|(name, _)| !taken.iter().any(|t| t == name))
            .filter_map(|(name, target)| Some((name, self.layout.locations.get(target)?)))
            .collect()
    }

    /// The deprecated typealiases of `moved` ([`Subtree::moved_names`]).
    fn moved_aliases(
        &self,
        builder: &Builder,
        module: &str,
        moved: &[(&'static str, &Location)],
    ) -> Vec<TypeAliasData> {
        moved
            .iter()
            .map(|(name, location)| {
                let ty = match location {
                    Location::Module { module: target } if target == module => "module".to_owned(),
                    Location::Module { module: target } => builder.alias(target),
                    Location::Member {
                        module: target,
                        name,
                    } if target == module => pkl_identifier(name).into_owned(),
                    Location::Member {
                        module: target,
                        name,
                    } => {
                        format!("{}.{}", builder.alias(target), pkl_identifier(name))
                    }
                };
                TypeAliasData {
                    doc: format!("pkl-k8s's old name of `{ty}`."),
                    gate: Gate::default(),
                    name: (*name).to_owned(),
                    deprecated: Some(format!("`{name}` has moved; use `{ty}`.")),
                    ty,
                }
            })
            .collect()
    }

    /// The data of the object module `module`: a class that is a module of
    /// its own at pkl-k8s's path, extending the minor's `K8sObject.pkl`,
    /// with typealiases for the classes pkl-k8s keeps inside it
    /// (`PodSpec.Container`).
    pub fn object_module(&self, module: &str, definition: &Definition) -> Result<ModuleData> {
        let mut builder = Builder::new(self, module);
        builder.collect_definition(definition)?;
        let members: Vec<(&str, &str, &str)> = self
            .layout
            .nested_in(self.owners, &definition.name)
            .collect();
        let moved = self.import_members_and_moved(&mut builder, module, definition, &members)?;
        let properties = builder.properties(definition)?;
        refuse_output(&properties, definition, "class")?;
        let (classes, typealiases) =
            self.nested_items(&builder, module, definition, members, &moved)?;
        let lifecycle = &self.model.types[&definition.name].lifecycle;
        Ok(ModuleData {
            doc: definition.description.clone().unwrap_or_default(),
            gate: Gate::of(lifecycle, self.version, &self.model.versions),
            open: true,
            extends: Some(relative_path(module, super::paths::K8S_OBJECT)),
            ..builder.into_data(&Items {
                properties,
                typealiases,
                classes,
            })
        })
    }
}

/// Refuses a module whose properties include `output`: it would replace
/// the Pkl module's own output.
fn refuse_output(properties: &[PropertyData], definition: &Definition, what: &str) -> Result<()> {
    if properties.iter().any(|property| property.name == "output") {
        return Err(spec_error(
            definition,
            format!(
                "a {what} property named `output` would replace the Pkl module's output; \
                 vergate cannot emit this {what} as a module"
            ),
        ));
    }
    Ok(())
}

fn check_name(name: &str, definition: &Definition) -> Result<()> {
    if BASE_TYPES.contains(&name) {
        return Err(spec_error(
            definition,
            format!("a type named `{name}` would shadow Pkl's own `{name}` in its module"),
        ));
    }
    if !can_quote_pkl_identifier(name) {
        return Err(spec_error(
            definition,
            "the type's name holds a backtick or a line break, which no Pkl identifier can".into(),
        ));
    }
    Ok(())
}
