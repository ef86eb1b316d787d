//! The builder of one module: the modules it imports (with collision-aware
//! aliases), where each definition it names lives, and its properties.
//! The type expressions are in `types.rs`, the lifecycle checks in
//! `checks.rs`.

use super::definition_modules::Location;
use super::gate::Gate;
use super::items::{Items, PropertyData};
use super::paths::relative_path;
use super::subtree::{Import, ModuleData, Subtree};
use crate::error::{Error, Result};
use crate::model::Definition;
use std::collections::{BTreeMap, BTreeSet};
use vergate_core::alias::{can_quote_pkl_identifier, import_aliases, pkl_identifier, sanitize};

/// Collects a module's imports, then renders its type expressions.
pub(super) struct Builder<'s, 'a> {
    pub(super) subtree: &'s Subtree<'a>,
    pub(super) module: String,
    /// Modules referenced, by module path ("" is shared.pkl).
    pub(super) referenced: BTreeSet<String>,
    pub(super) aliases: BTreeMap<String, String>,
}

/// The module path of the minor's shared.pkl.
pub(super) const SHARED: &str = "";

impl<'s, 'a> Builder<'s, 'a> {
    pub(super) fn new(subtree: &'s Subtree<'a>, module: &str) -> Self {
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
    pub(super) fn collect_definition(&mut self, definition: &Definition) -> Result<()> {
        let names = std::iter::once(definition.name.as_str()).chain(definition.references());
        for name in names {
            // A plain typealias written out needs no import (`types.rs`).
            if name != definition.name && self.writes_out(name) {
                continue;
            }
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
    pub(super) fn finish_imports(&mut self, members: impl Iterator<Item = String>) {
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
    pub(super) fn into_data(self, items: &Items) -> ModuleData {
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

    pub(super) fn locate(&self, name: &str, from: &Definition) -> Result<&'a Location> {
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

    pub(super) fn properties(&self, definition: &Definition) -> Result<Vec<PropertyData>> {
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
                    ty: self.property_type(property, required, definition, &{
                        let mut checks = self.rule_checks(definition, name);
                        checks.value.extend(self.stage_checks(name, &field.lifecycle));
                        checks
                    })?,
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

    pub(super) fn alias(&self, module: &str) -> String {
        pkl_identifier(&self.aliases[module]).into_owned()
    }
}

pub(super) fn spec_error(definition: &Definition, message: String) -> Error {
    Error::Spec {
        path: definition.source.path.clone(),
        pointer: definition.source.pointer.clone(),
        message: format!("{}: {message}", definition.name),
    }
}
