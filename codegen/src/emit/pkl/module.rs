//! One Pkl module of a minor's subtree as template data: its imports (with
//! collision-aware aliases), classes, typealiases and, for a resource
//! module, its own properties.

use super::escape::pkl_string;
use super::gate::Gate;
use super::layout::{Location, MinorLayout, NamespacePaths};
use super::owners::Owners;
use crate::error::{Error, Result};
use crate::model::{Definition, GatedModel, Property, Schema};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};
use vergate_core::alias::{can_quote_pkl_identifier, import_aliases, pkl_identifier, sanitize};
use vergate_core::Version;

/// What every module of one minor's subtree shares.
pub struct Subtree<'a> {
    pub model: &'a GatedModel,
    pub version: Version,
    pub layout: &'a MinorLayout<'a>,
    pub paths: &'a NamespacePaths,
    /// The Pkl package name (`k8s`).
    pub package: &'a str,
    /// The annotation class in shared.pkl (`K8sVersion`).
    pub annotation_class: &'a str,
    /// When documents carry their own minor (api.toml's
    /// `document_version_field`), the field that holds it: a resource module
    /// fixes it to this minor instead of the group/version.
    pub document_version_field: Option<&'a str>,
    /// Kubernetes-style objects (the minor has ObjectMeta): resource modules
    /// are open and extend the minor's `K8sResource.pkl` (`k8s_base.rs`).
    pub k8s_base: bool,
    /// Which module each class lives in, as pkl-k8s has it (empty unless
    /// `k8s_base`).
    pub owners: &'a Owners,
}

/// The template data of one module.
#[derive(Debug, Hash, Serialize)]
pub struct ModuleData {
    pub api: String,
    pub version: String,
    pub doc: String,
    pub gate: Gate,
    /// The `module` clause's name (`k8s.v1_34.core.Service`).
    pub name: String,
    /// `open module`: users may extend it.
    pub open: bool,
    /// The module it extends (a relative path), if any.
    pub extends: Option<String>,
    pub imports: Vec<Import>,
    /// The annotation to write gates with (`shared.K8sVersion`).
    pub annotation: String,
    /// The module's properties, typealiases and classes as Pkl text
    /// ([`Items::text`]): the template writes the head and imports, and
    /// this after them.
    pub items: String,
}

/// What a module declares after its imports, before it is written out.
#[derive(Debug, Default)]
pub struct Items {
    /// A resource or object module's own properties.
    pub properties: Vec<PropertyData>,
    pub typealiases: Vec<TypeAliasData>,
    pub classes: Vec<ClassData>,
}

/// `import "<path>" as <alias>`.
#[derive(Debug, Hash, Serialize)]
pub struct Import {
    pub path: String,
    pub alias: String,
}

#[derive(Debug)]
pub struct ClassData {
    pub doc: String,
    pub gate: Gate,
    pub name: String,
    pub properties: Vec<PropertyData>,
}

#[derive(Debug)]
pub struct TypeAliasData {
    pub doc: String,
    pub gate: Gate,
    pub name: String,
    pub ty: String,
}

#[derive(Debug)]
pub struct PropertyData {
    pub doc: String,
    pub gate: Gate,
    /// The wire name (quoted as a Pkl identifier when written).
    pub name: String,
    pub ty: String,
    /// `fixed` (a resource's `apiVersion` and `kind`).
    pub fixed: bool,
}

/// The pkl:base names the emitted types use; a definition of that name would
/// shadow them in its module.
const BASE_TYPES: &[&str] = &[
    "Any", "Boolean", "Dynamic", "Int", "Int32", "Listing", "Mapping", "Number", "String",
];

impl<'a> Subtree<'a> {
    /// The path every import header names a module by (`@k8s/v1.34/core/v1.pkl`),
    /// which the aliases are computed from.
    fn canonical(&self, module: &str) -> String {
        format!("@{}/{}/{module}.pkl", self.package, self.version.dir_name())
    }

    /// The data of the types module `module`.
    pub fn types_module(&self, module: &str, definitions: &[&Definition]) -> Result<ModuleData> {
        let mut builder = Builder::new(self, module);
        for definition in definitions {
            builder.collect_definition(definition)?;
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
                });
                continue;
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
        let object = definition.object().expect("resources are objects");
        builder.finish_imports(object.properties.keys().cloned());
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
                Some(relative_path(module, super::k8s_base::K8S_RESOURCE)),
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
                ..Items::default()
            })
        })
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
        for (_, types, _) in &members {
            builder.referenced.insert((*types).to_owned());
        }
        let object = definition.object().expect("object modules are classes");
        let own_names = object
            .properties
            .keys()
            .cloned()
            .chain(members.iter().map(|(_, _, member)| (*member).to_owned()));
        builder.finish_imports(own_names);
        let properties = builder.properties(definition)?;
        refuse_output(&properties, definition, "class")?;
        let typealiases = members
            .into_iter()
            .map(|(name, types, member)| TypeAliasData {
                doc: format!("pkl-k8s's `{}.{member}`.", definition.short_name()),
                gate: Gate::of(
                    &self.model.types[name].lifecycle,
                    self.version,
                    &self.model.versions,
                ),
                name: member.to_owned(),
                ty: format!("{}.{}", builder.alias(types), pkl_identifier(member)),
            })
            .collect();
        let lifecycle = &self.model.types[&definition.name].lifecycle;
        Ok(ModuleData {
            doc: definition.description.clone().unwrap_or_default(),
            gate: Gate::of(lifecycle, self.version, &self.model.versions),
            open: true,
            extends: Some(relative_path(module, super::k8s_base::K8S_OBJECT)),
            ..builder.into_data(&Items {
                properties,
                typealiases,
                ..Items::default()
            })
        })
    }
}

impl ModuleData {
    fn with_items(mut self, items: &Items) -> ModuleData {
        self.items = items.text(&self.annotation);
        self
    }
}

impl Items {
    /// The items as Pkl text, written in Rust rather than in the template:
    /// a module is mostly items, and tera's per-item lookups and filters
    /// were most of the Pkl emitter's time. Each item follows a blank line;
    /// class properties are indented by two.
    fn text(&self, annotation: &str) -> String {
        let mut out = String::new();
        for property in &self.properties {
            push_property(&mut out, property, annotation, 0);
        }
        for alias in &self.typealiases {
            out.push('\n');
            item_head(&mut out, &alias.doc, &alias.gate, annotation, 0);
            out.push_str("typealias ");
            out.push_str(&pkl_identifier(&alias.name));
            out.push_str(" = ");
            out.push_str(&alias.ty);
            out.push('\n');
        }
        for class in &self.classes {
            out.push('\n');
            item_head(&mut out, &class.doc, &class.gate, annotation, 0);
            out.push_str("class ");
            out.push_str(&pkl_identifier(&class.name));
            out.push_str(" {");
            for property in &class.properties {
                push_property(&mut out, property, annotation, 2);
            }
            out.push_str("}\n");
        }
        out
    }
}

/// One property after a blank line, indented by `indent` spaces: its head,
/// then `[fixed ]name: type`.
fn push_property(out: &mut String, property: &PropertyData, annotation: &str, indent: usize) {
    out.push('\n');
    item_head(out, &property.doc, &property.gate, annotation, indent);
    out.extend(std::iter::repeat_n(' ', indent));
    if property.fixed {
        out.push_str("fixed ");
    }
    out.push_str(&pkl_identifier(&property.name));
    out.push_str(": ");
    out.push_str(&property.ty);
    out.push('\n');
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

/// An item's doc comment, gate annotation and `@Deprecated`, each line
/// indented by `indent` spaces.
fn item_head(out: &mut String, doc: &str, gate: &Gate, annotation: &str, indent: usize) {
    out.push_str(&super::escape::doc_comment(doc, indent));
    let pad = " ".repeat(indent);
    if !gate.entries.is_empty() {
        let entries: Vec<String> = gate
            .entries
            .iter()
            .map(|entry| format!("{} = {}", entry.key, pkl_string(&entry.value)))
            .collect();
        out.push_str(&format!(
            "{pad}@{annotation} {{ {} }}\n",
            entries.join("; ")
        ));
    }
    if let Some(since) = &gate.deprecated_since {
        out.push_str(&format!(
            "{pad}@Deprecated {{ since = {} }}\n",
            pkl_string(since)
        ));
    }
}

/// Collects a module's imports, then renders its type expressions.
struct Builder<'s, 'a> {
    subtree: &'s Subtree<'a>,
    module: String,
    /// Modules referenced, by module path ("" is shared.pkl).
    referenced: BTreeSet<String>,
    aliases: BTreeMap<String, String>,
}

const SHARED: &str = "";

impl<'s, 'a> Builder<'s, 'a> {
    fn new(subtree: &'s Subtree<'a>, module: &str) -> Self {
        let mut referenced = BTreeSet::new();
        referenced.insert(SHARED.to_owned());
        Builder {
            subtree,
            module: module.to_owned(),
            referenced,
            aliases: BTreeMap::new(),
        }
    }

    /// Notes the modules `definition` needs: where it lives itself (a types
    /// module's typealias to an object module) and what it refers to.
    fn collect_definition(&mut self, definition: &Definition) -> Result<()> {
        let names = std::iter::once(definition.name.as_str()).chain(definition.references());
        for name in names {
            let location = self.locate(name, definition)?;
            if location.module() != self.module {
                self.referenced.insert(location.module().to_owned());
            }
        }
        Ok(())
    }

    /// Computes the aliases; `members` are the names the module defines,
    /// which no alias may take: an alias that would is suffixed `Module`
    /// (`import "api/core/v1/PodSpec.pkl" as PodSpecModule` beside the
    /// typealias `PodSpec`), as pkl-k8s names such imports.
    fn finish_imports(&mut self, members: impl Iterator<Item = String>) {
        let modules: Vec<&String> = self.referenced.iter().collect();
        let canonical: Vec<String> = modules
            .iter()
            .map(|module| {
                if module.is_empty() {
                    format!("@{}/shared.pkl", self.subtree.package)
                } else {
                    self.subtree.canonical(module)
                }
            })
            .collect();
        let aliases = import_aliases(&canonical);
        let members: BTreeSet<String> = members.collect();
        let mut taken: BTreeSet<String> = aliases.iter().cloned().collect();
        for (module, alias) in modules.into_iter().zip(aliases) {
            let alias = if members.contains(&alias) {
                let mut candidate = format!("{alias}Module");
                let mut number = 2;
                while members.contains(&candidate) || taken.contains(&candidate) {
                    candidate = format!("{alias}Module{number}");
                    number += 1;
                }
                taken.insert(candidate.clone());
                candidate
            } else {
                alias
            };
            self.aliases.insert(module.clone(), alias);
        }
    }

    /// The module's data, its items written with the annotation its
    /// imports name.
    fn into_data(self, items: &Items) -> ModuleData {
        let imports = self
            .aliases
            .iter()
            .map(|(module, alias)| Import {
                path: relative_path(&self.module, module),
                alias: pkl_identifier(alias).into_owned(),
            })
            .collect();
        let version = self.subtree.version;
        let mut name = vec![sanitize(self.subtree.package), version.ident()];
        name.extend(self.module.split('/').map(sanitize));
        ModuleData {
            api: self.subtree.model.api.clone(),
            version: version.to_string(),
            doc: String::new(),
            gate: Gate::default(),
            name: name
                .iter()
                .map(|part| pkl_identifier(part).into_owned())
                .collect::<Vec<_>>()
                .join("."),
            open: false,
            extends: None,
            imports,
            annotation: format!(
                "{}.{}",
                pkl_identifier(&self.aliases[SHARED]),
                self.subtree.annotation_class
            ),
            items: String::new(),
        }
        .with_items(items)
    }

    fn locate(&self, name: &str, from: &Definition) -> Result<&'a Location> {
        self.subtree.layout.locations.get(name).ok_or_else(|| {
            spec_error(
                from,
                format!(
                    "refers to {name:?}, which minor {} does not define",
                    self.subtree.version
                ),
            )
        })
    }

    fn properties(&self, definition: &Definition) -> Result<Vec<PropertyData>> {
        let object = definition.object().expect("only objects have properties");
        let fields = &self.subtree.model.types[&definition.name].fields;
        object
            .properties
            .iter()
            .map(|(name, property)| {
                if !can_quote_pkl_identifier(name) {
                    return Err(spec_error(
                        definition,
                        if name.is_empty() {
                            "a property has the empty name, which no Pkl identifier can have; rename it".to_owned()
                        } else {
                            format!("property {name:?} holds a backtick or a line break, which no Pkl identifier can")
                        },
                    ));
                }
                let required = object.required.contains(name);
                let field = &fields[name];
                let mut doc = property.description.clone().unwrap_or_default();
                if let Some(rename) = &field.renamed_from {
                    if !doc.is_empty() {
                        doc.push_str("\n\n");
                    }
                    doc.push_str(&format!(
                        "Renamed from `{}` in {}.",
                        rename.from, rename.in_version
                    ));
                }
                Ok(PropertyData {
                    doc,
                    gate: Gate::of(
                        &field.lifecycle,
                        self.subtree.version,
                        &self.subtree.model.versions,
                    ),
                    name: name.clone(),
                    ty: self.property_type(
                        property,
                        required,
                        definition,
                        &self.stage_checks(name, &field.lifecycle),
                    )?,
                    fixed: false,
                })
            })
            .chain(
                fields
                    .iter()
                    .filter(|(name, _)| {
                        !object.properties.contains_key(*name) && can_quote_pkl_identifier(name)
                    })
                    .map(|(name, field)| Ok(self.absent_property(name, field))),
            )
            .collect()
    }

    /// A field of another minor, not of this one: a property that fails,
    /// when set, with a message naming the minor that introduces it (its
    /// stage and feature gate there) or removed it. Unset, it renders
    /// nothing, so the minor still accepts exactly its own fields.
    fn absent_property(&self, name: &str, field: &crate::model::FieldLifecycle) -> PropertyData {
        let version = self.subtree.version;
        let corpus = &self.subtree.model.versions;
        let reason = crate::model::wording::absence(&field.lifecycle, version, corpus);
        let message = crate::model::wording::not_available(name, &field.lifecycle, version, corpus);
        PropertyData {
            doc: format!("Not in {version}: {reason}. Setting it is an error naming that minor."),
            gate: Gate::default(),
            name: name.to_owned(),
            ty: format!("Any(throw({}))?", pkl_string(&message)),
            fixed: false,
        }
    }

    /// The checks a property's type makes, in this minor, beyond its value:
    /// a deprecated field traces a warning when set (Pkl 0.30 warns for
    /// deprecated methods only); a field whose feature gate a default
    /// cluster has off (alpha, or beta and off in the feature-gate table)
    /// fails unless the gate is on in the user's `vergate.featureGates`
    /// external property (`Name=true,…`, as `vergate check --feature-gates`
    /// and the API server's flag), since an API server with the gate off
    /// drops it. A field whose gate is on by default is never refused.
    fn stage_checks(&self, name: &str, lifecycle: &crate::model::Lifecycle) -> Vec<String> {
        let version = self.subtree.version;
        let model = self.subtree.model;
        let api = &model.api;
        let mut checks = Vec::new();
        if let Some(since) = lifecycle.deprecated_in.filter(|since| *since <= version) {
            let message = format!("warning: {name} is deprecated in {api} since {since}");
            checks.push(format!("trace({}) != null", pkl_string(&message)));
        }
        let Some(stage) = lifecycle.stage_in(version) else {
            return checks;
        };
        if stage == crate::model::Stage::Ga || model.enabled_by_default(lifecycle, version) {
            return checks;
        }
        let gate = lifecycle.feature_gate.as_deref();
        let all = if stage == crate::model::Stage::Alpha {
            "AllAlpha"
        } else {
            "AllBeta"
        };
        let on = gate.map_or_else(String::new, |gate| {
            format!(
                "gates.contains({}) || ",
                pkl_string(&format!("{gate}=true"))
            )
        });
        let setting = format!("{}=true", gate.unwrap_or(all));
        let published = gate.is_some_and(|gate| model.feature_gates.contains_key(gate));
        let why = if published {
            format!("off by default in {version}, per Kubernetes' feature-gate table")
        } else {
            "alpha gates are off by default".to_owned()
        };
        let message = format!(
            "{name} is {} in {api} {version}: the API server drops it unless {} is on ({why}). \
             If the cluster turns it on, say so in your PklProject: evaluatorSettings {{ externalProperties {{ [\"vergate.featureGates\"] = \"{setting}\" }} }} (or pkl eval -p vergate.featureGates={setting})",
            stage.name(),
            gate.map_or_else(|| "its feature gate".to_owned(), |gate| format!("feature gate {gate}")),
        );
        checks.push(format!(
            "let (gates = (read?(\"prop:vergate.featureGates\") ?? \"\").split(\",\")) if ({on}gates.contains(\"{all}=true\")) true else throw({})",
            pkl_string(&message)
        ));
        checks
    }

    fn property_type(
        &self,
        property: &Property,
        required: bool,
        from: &Definition,
        checks: &[String],
    ) -> Result<String> {
        let ty = match &property.schema {
            Schema::Array(item) if !property.element_enum_values.is_empty() => format!(
                "Listing<{}>",
                self.type_expr(item, &property.element_enum_values, from)?
            ),
            Schema::Map(value) if !property.element_enum_values.is_empty() => format!(
                "Mapping<String, {}>",
                self.type_expr(value, &property.element_enum_values, from)?
            ),
            schema => self.type_expr(schema, &property.enum_values, from)?,
        };
        // A reference to an int-or-string definition takes its constraints
        // as the int-or-string itself would.
        let minor = &self.subtree.model.minors[&self.subtree.version];
        let schema = match property.schema.referenced() {
            Some(name)
                if !property.keywords.is_empty()
                    && minor
                        .definitions
                        .get(name)
                        .is_some_and(|d| matches!(d.schema, Schema::IntOrString)) =>
            {
                &Schema::IntOrString
            }
            _ => &property.schema,
        };
        let ty = super::constraints::constrained(
            ty,
            schema,
            &crate::model::constraints::constraints_of(&property.keywords),
        );
        let ty = if checks.is_empty() {
            ty
        } else {
            format!("({ty})({})", checks.join(", "))
        };
        Ok(if required || ty == "Any" {
            ty
        } else if is_union(&ty) {
            format!("({ty})?")
        } else {
            format!("{ty}?")
        })
    }

    /// The right-hand side of a definition's typealias.
    fn alias_target(
        &self,
        schema: &Schema,
        enum_values: &[String],
        from: &Definition,
    ) -> Result<String> {
        if self.subtree.k8s_base && from.name == crate::model::QUANTITY {
            return Ok(super::k8s_base::QUANTITY_TYPE.to_owned());
        }
        match schema {
            Schema::Object(object) => match &object.additional {
                Some(values) => Ok(format!(
                    "Mapping<String, {}>",
                    self.type_expr(values, &[], from)?
                )),
                None => Ok("Dynamic".into()),
            },
            Schema::Union(union) => {
                let minor = &self.subtree.model.minors[&self.subtree.version];
                super::union::union_type(union, minor, |member| self.type_expr(member, &[], from))
            }
            other => self.type_expr(other, enum_values, from),
        }
    }

    fn type_expr(
        &self,
        schema: &Schema,
        enum_values: &[String],
        from: &Definition,
    ) -> Result<String> {
        Ok(match schema {
            Schema::Integer { .. } | Schema::Number { .. } | Schema::Boolean | Schema::Any
                if !enum_values.is_empty() =>
            {
                super::enum_type::constrained(&self.type_expr(schema, &[], from)?, enum_values)
            }
            Schema::Boolean => "Boolean".into(),
            Schema::Integer { format } if format.as_deref() == Some("int32") => "Int32".into(),
            Schema::Integer { .. } => "Int".into(),
            Schema::Number { .. } => "Number".into(),
            Schema::String { .. } if !enum_values.is_empty() => enum_values
                .iter()
                .map(|value| pkl_string(value))
                .collect::<Vec<_>>()
                .join("|"),
            // Kubernetes-style objects render a Duration as Go writes it
            // (`K8sObject.pkl`), so a duration field takes one too.
            Schema::String { format }
                if self.subtree.k8s_base && format.as_deref() == Some("duration") =>
            {
                "Duration|String".into()
            }
            Schema::String { .. } => "String".into(),
            Schema::IntOrString => "Int|String".into(),
            Schema::Array(items) => format!("Listing<{}>", self.type_expr(items, &[], from)?),
            Schema::Map(values) => {
                format!("Mapping<String, {}>", self.type_expr(values, &[], from)?)
            }
            Schema::Object(_) => "Dynamic".into(),
            // Unions are definitions of their own (a typealias, see
            // `alias_target`), never inline.
            Schema::Union(_) | Schema::Any => "Any".into(),
            Schema::Ref(name) => match self.locate(name, from)? {
                Location::Member { module, name } if *module == self.module => {
                    pkl_identifier(name).into_owned()
                }
                Location::Member { module, name } => {
                    format!("{}.{}", self.alias(module), pkl_identifier(name))
                }
                Location::Module { module } if *module == self.module => "module".into(),
                Location::Module { module } => self.alias(module),
            },
        })
    }

    fn alias(&self, module: &str) -> String {
        pkl_identifier(&self.aliases[module]).into_owned()
    }
}

/// True when a Pkl type is a union at its top level (`"a"|"b"`, not
/// `Listing<"a"|"b">`), so that `?` needs parentheses around it.
fn is_union(ty: &str) -> bool {
    let mut depth = 0usize;
    let mut quoted = false;
    let mut chars = ty.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' if quoted => {
                chars.next();
            }
            '"' => quoted = !quoted,
            '<' | '(' if !quoted => depth += 1,
            '>' | ')' if !quoted => depth = depth.saturating_sub(1),
            '|' if !quoted && depth == 0 => return true,
            _ => {}
        }
    }
    false
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

fn spec_error(definition: &Definition, message: String) -> Error {
    Error::Spec {
        path: definition.source.path.clone(),
        pointer: definition.source.pointer.clone(),
        message: format!("{}: {message}", definition.name),
    }
}

/// The import path from module `from` to module `to` (both relative to the
/// minor's directory, without `.pkl`); `to` = "" is the minor's shared.pkl
/// (each minor's directory holds its own, so that it is a package alone).
pub fn relative_path(from: &str, to: &str) -> String {
    let from_dir: Vec<&str> = from.split('/').collect::<Vec<_>>();
    let from_dir = &from_dir[..from_dir.len() - 1];
    if to.is_empty() {
        return format!("{}shared.pkl", "../".repeat(from_dir.len()));
    }
    let target: Vec<&str> = to.split('/').collect();
    let common = from_dir
        .iter()
        .zip(&target[..target.len() - 1])
        .take_while(|(a, b)| a == b)
        .count();
    format!(
        "{}{}.pkl",
        "../".repeat(from_dir.len() - common),
        target[common..].join("/")
    )
}

#[cfg(test)]
mod tests {
    use super::{is_union, relative_path};

    #[test]
    fn only_top_level_unions_need_parentheses() {
        assert!(is_union(r#""a"|"b""#));
        assert!(is_union("Int|String"));
        assert!(!is_union(r#"Listing<"a"|"b">"#));
        assert!(!is_union(r#""a|b""#));
        assert!(!is_union(r#""a\"|b""#));
        assert!(is_union(r#""<"|"b""#));
    }

    #[test]
    fn relative_paths() {
        assert_eq!(relative_path("core/Service", "core/v1"), "v1.pkl");
        assert_eq!(relative_path("core/Service", "meta/v1"), "../meta/v1.pkl");
        assert_eq!(
            relative_path("autoscaling/v1/HPA", "autoscaling/v1"),
            "../v1.pkl"
        );
        assert_eq!(relative_path("core/v1", "resource"), "../resource.pkl");
        assert_eq!(relative_path("resource", "core/v1"), "core/v1.pkl");
        assert_eq!(relative_path("core/v1", ""), "../shared.pkl");
        assert_eq!(relative_path("intstr", ""), "shared.pkl");
    }
}
