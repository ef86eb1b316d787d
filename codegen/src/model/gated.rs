//! The gated model: all minors merged, every type, field and enum value with
//! its [`Lifecycle`].

use super::deprecation::prose_deprecations;
use super::feature_gate_prose::{infer_gates, prose_gates, ProseGates};
use super::lifecycle::{FieldLifecycle, Lifecycle, TypeLifecycle};
use super::schema::{Definition, MinorModel, Property};
use super::Dialect;
use crate::error::{Error, Result};
use std::collections::{BTreeMap, BTreeSet};
use vergate_core::gates::{FeatureGateHistory, GatesIndex, Rename, RetiredKind};
use vergate_core::Version;

/// Every minor of one API, and the lifecycle of everything they define.
///
/// Emitters read a minor's own definitions from [`GatedModel::minors`] (so each
/// subtree holds exactly what that minor accepts) and annotate them with the
/// lifecycles in [`GatedModel::types`].
#[derive(Clone, Debug, PartialEq)]
pub struct GatedModel {
    /// The API's name (`kubernetes`).
    pub api: String,
    /// The kind of API it is, as its api.toml declares (which rules apply).
    pub dialect: Dialect,
    /// The corpus' minors, ascending.
    pub versions: Vec<Version>,
    /// Each minor's own model.
    pub minors: BTreeMap<Version, MinorModel>,
    /// Lifecycles by definition name.
    pub types: BTreeMap<String, TypeLifecycle>,
    /// Each feature gate's published history, by name
    /// ([`GatedModel::apply_feature_gates`]); empty for APIs without one.
    pub feature_gates: BTreeMap<String, FeatureGateHistory>,
    /// Kinds the API served before its first minor, as its published
    /// lifecycle states them (set by the fact tables' reader).
    pub retired_kinds: Vec<RetiredKind>,
}

impl GatedModel {
    /// Merges per-minor models of a plain OpenAPI API into one gated model
    /// (see [`GatedModel::merge_as`]).
    pub fn merge(api: impl Into<String>, minors: Vec<MinorModel>) -> Result<GatedModel> {
        GatedModel::merge_as(api, Dialect::OpenApi, minors)
    }

    /// Merges per-minor models into one gated model, with the rules of
    /// `dialect` (Kubernetes' feature-gate prose is read for the Kubernetes
    /// API only).
    ///
    /// Fails when two models are of the same minor, or when a rename
    /// (`x-vergate-renamed-from`) does not match what the specs say.
    pub fn merge_as(
        api: impl Into<String>,
        dialect: Dialect,
        minors: Vec<MinorModel>,
    ) -> Result<GatedModel> {
        let api = api.into();
        let mut by_version = BTreeMap::new();
        for minor in minors {
            let version = minor.version;
            if by_version.insert(version, minor).is_some() {
                return Err(Error::Config {
                    path: api.clone().into(),
                    message: format!(
                        "minor {version} is given twice; each minor has one spec directory"
                    ),
                });
            }
        }
        let versions: Vec<Version> = by_version.keys().copied().collect();
        let mut types: BTreeMap<String, TypeLifecycle> = BTreeMap::new();
        for (version, minor) in &by_version {
            for definition in minor.definitions.values() {
                let entry = types.entry(definition.name.clone()).or_default();
                record_definition(entry, definition, *version);
            }
        }
        // Prose is read once every minor is in: which enum values a
        // description may name is known only then.
        for (version, minor) in &by_version {
            for definition in minor.definitions.values() {
                if let Some(entry) = types.get_mut(&definition.name) {
                    record_prose_deprecations(entry, definition, *version);
                }
            }
        }
        if dialect.minors_are_kubernetes_releases() {
            infer_prose_gates(&mut types, &by_version);
        }
        super::enum_dates::date_enum_values(&mut types, &by_version);
        let model = GatedModel {
            api,
            dialect,
            versions,
            minors: by_version,
            types,
            feature_gates: BTreeMap::new(),
            retired_kinds: Vec::new(),
        };
        model.check_renames()?;
        Ok(model)
    }

    /// The newest minor: the default.
    pub fn newest(&self) -> Option<Version> {
        self.versions.last().copied()
    }

    /// The lifecycle of a definition.
    pub fn type_lifecycle(&self, name: &str) -> Option<&TypeLifecycle> {
        self.types.get(name)
    }

    /// The lifecycle of a definition's field.
    pub fn field_lifecycle(&self, type_name: &str, field: &str) -> Option<&FieldLifecycle> {
        self.types.get(type_name)?.fields.get(field)
    }

    /// The serialized gates index (gates.json).
    pub fn gates_index(&self) -> GatesIndex {
        GatesIndex {
            api: self.api.clone(),
            dialect: self.dialect,
            versions: self.versions.clone(),
            deprecated_versions: BTreeMap::new(),
            feature_gates: self.feature_gates.clone(),
            retired_kinds: self.retired_kinds.clone(),
            types: self
                .types
                .iter()
                .map(|(name, lifecycle)| (name.clone(), lifecycle.to_gate(&self.versions)))
                .collect(),
        }
    }

    /// Checks every rename against the specs: the old name must exist in the
    /// same type and be gone exactly in the minor the new name arrives in.
    fn check_renames(&self) -> Result<()> {
        for (type_name, ty) in &self.types {
            for (field_name, field) in &ty.fields {
                let Some(rename) = &field.renamed_from else {
                    continue;
                };
                let source = self.property_source(type_name, field_name, rename.in_version);
                let old = ty.fields.get(&rename.from);
                let problem = match old {
                    None => Some(format!(
                        "{type_name}.{field_name} says it was renamed from {:?}, but no minor of {type_name} has that field",
                        rename.from
                    )),
                    Some(old) if old.lifecycle.removed_in(&self.versions) != Some(rename.in_version) => Some(format!(
                        "{type_name}.{field_name} arrives in {} renamed from {:?}, but {:?} is present until {}",
                        rename.in_version,
                        rename.from,
                        rename.from,
                        old.lifecycle.presence.last().map_or("never".into(), |v| v.to_string())
                    )),
                    Some(_) => None,
                };
                if let Some(message) = problem {
                    return Err(Error::Spec {
                        path: source.path,
                        pointer: source.pointer,
                        message,
                    });
                }
            }
        }
        Ok(())
    }

    fn property_source(&self, type_name: &str, field: &str, version: Version) -> super::Source {
        self.minors
            .get(&version)
            .and_then(|minor| minor.definitions.get(type_name))
            .and_then(|definition| definition.object())
            .and_then(|object| object.properties.get(field))
            .map(|property| property.source.clone())
            .unwrap_or_default()
    }
}

fn record_definition(entry: &mut TypeLifecycle, definition: &Definition, version: Version) {
    entry.lifecycle.presence.insert(version);
    entry.kinds.extend(definition.kinds.iter().cloned());
    if definition.deprecated {
        entry.lifecycle.mark_deprecated(version, false);
    }
    record_values(&mut entry.values, &definition.enum_values, version);
    entry
        .type_by_minor
        .insert(version, definition.own_type_expr());
    // Empty ones included, as for fields: constraints a later minor adds
    // (a CRD release's new CEL rule) are then not read back into earlier ones.
    let constraints = super::constraints::constraints_of(&definition.keywords);
    entry.constraints_by_minor.insert(version, constraints);
    if definition.deprecation_warning.is_some() {
        entry.deprecation_warning = definition.deprecation_warning.clone();
    }
    if let Some(union) = definition.union() {
        entry
            .union
            .get_or_insert_with(Default::default)
            .record(union, version);
    }
    let Some(object) = definition.object() else {
        return;
    };
    let open = object.additional.is_some() && !object.properties.is_empty();
    entry.open_by_minor.insert(version, open);
    for (name, property) in &object.properties {
        let field = entry.fields.entry(name.clone()).or_default();
        record_property(field, property, object.required.contains(name), version);
    }
}

fn record_property(
    field: &mut FieldLifecycle,
    property: &Property,
    required: bool,
    version: Version,
) {
    field.lifecycle.presence.insert(version);
    if required {
        field.required.insert(version);
    }
    field
        .type_by_minor
        .insert(version, property.schema.type_expr());
    if property.deprecated {
        field.lifecycle.mark_deprecated(version, false);
    }
    field
        .constraints_by_minor
        .insert(version, super::constraints::of_property(property));
    record_values(&mut field.values, &property.enum_values, version);
    record_values(
        &mut field.element_values,
        &property.element_enum_values,
        version,
    );
    if let Some(from) = &property.renamed_from {
        if field.renamed_from.is_none() {
            field.renamed_from = Some(Rename {
                from: from.clone(),
                in_version: version,
            });
        }
    }
}

/// Records what the descriptions of `definition` and its properties say is
/// deprecated in `version`: the type or field itself, or some of its enum
/// values. A structural deprecation recorded before wins
/// ([`Lifecycle::mark_deprecated`]).
fn record_prose_deprecations(entry: &mut TypeLifecycle, definition: &Definition, version: Version) {
    if let Some(description) = &definition.description {
        record_prose(
            &mut entry.lifecycle,
            &mut [&mut entry.values],
            description,
            version,
        );
    }
    let Some(object) = definition.object() else {
        return;
    };
    for (name, property) in &object.properties {
        let (Some(description), Some(field)) = (&property.description, entry.fields.get_mut(name))
        else {
            continue;
        };
        record_prose(
            &mut field.lifecycle,
            &mut [&mut field.values, &mut field.element_values],
            description,
            version,
        );
    }
}

/// Reads every field's feature gates and stages from its description in
/// each minor ([`prose_gates`]) and lays them on ([`infer_gates`]).
fn infer_prose_gates(
    types: &mut BTreeMap<String, TypeLifecycle>,
    by_version: &BTreeMap<Version, MinorModel>,
) {
    let mut said: BTreeMap<(&str, &str), BTreeMap<Version, ProseGates>> = BTreeMap::new();
    for (version, minor) in by_version {
        for definition in minor.definitions.values() {
            let Some(object) = definition.object() else {
                continue;
            };
            for (name, property) in &object.properties {
                let found =
                    property
                        .description
                        .as_deref()
                        .map_or_else(ProseGates::default, |text| {
                            let values: Vec<&str> = property
                                .enum_values
                                .iter()
                                .chain(&property.element_enum_values)
                                .map(String::as_str)
                                .collect();
                            prose_gates(text, &values)
                        });
                said.entry((definition.name.as_str(), name.as_str()))
                    .or_default()
                    .insert(*version, found);
            }
        }
    }
    for ((type_name, field_name), by_minor) in said {
        if by_minor.values().all(ProseGates::is_empty) {
            continue;
        }
        if let Some(field) = types
            .get_mut(type_name)
            .and_then(|ty| ty.fields.get_mut(field_name))
        {
            infer_gates(&mut field.lifecycle, &by_minor);
        }
    }
}

/// Marks `lifecycle`, or those of its enum values (`value_sets`) that
/// `description` says are deprecated, as deprecated in `version`, inferred.
fn record_prose(
    lifecycle: &mut Lifecycle,
    value_sets: &mut [&mut BTreeMap<String, Lifecycle>],
    description: &str,
    version: Version,
) {
    let names: BTreeSet<String> = value_sets
        .iter()
        .flat_map(|values| values.keys().cloned())
        .collect();
    let found = prose_deprecations(description, &names);
    if found.itself {
        lifecycle.mark_deprecated(version, true);
    }
    for value in &found.values {
        for values in value_sets.iter_mut() {
            if let Some(value) = values.get_mut(value) {
                value.mark_deprecated(version, true);
            }
        }
    }
}

fn record_values(
    values: &mut BTreeMap<String, Lifecycle>,
    enum_values: &[String],
    version: Version,
) {
    for value in enum_values {
        values
            .entry(value.clone())
            .or_default()
            .presence
            .insert(version);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{ObjectSchema, Schema};

    fn v(minor: u32) -> Version {
        Version::new(1, minor)
    }

    fn object(props: &[(&str, Schema)], required: &[&str]) -> Schema {
        Schema::Object(ObjectSchema {
            properties: props
                .iter()
                .map(|(name, schema)| (name.to_string(), Property::new(schema.clone())))
                .collect(),
            required: required.iter().map(|r| r.to_string()).collect(),
            additional: None,
            closed: false,
        })
    }

    fn minor(minor: u32, defs: Vec<Definition>) -> MinorModel {
        MinorModel {
            version: v(minor),
            definitions: defs.into_iter().map(|d| (d.name.clone(), d)).collect(),
        }
    }

    const STRING: Schema = Schema::String { format: None };

    #[test]
    fn presence_requiredness_and_type_changes() {
        let spec = |n: u32, props: &[(&str, Schema)], required: &[&str]| {
            minor(n, vec![Definition::new("a.Spec", object(props, required))])
        };
        let model = GatedModel::merge(
            "t",
            vec![
                spec(3, &[("x", STRING), ("z", Schema::Boolean)], &["x"]),
                spec(1, &[("x", STRING)], &[]),
                spec(
                    2,
                    &[("x", Schema::Integer { format: None }), ("y", STRING)],
                    &["x"],
                ),
            ],
        )
        .unwrap();
        assert_eq!(model.versions, vec![v(1), v(2), v(3)]);
        let gates = model.gates_index();
        let fields = &gates.types["a.Spec"].fields;
        assert_eq!(fields["x"].gate.introduced_in, v(1));
        assert_eq!(fields["x"].required_in, vec![v(2), v(3)]);
        assert_eq!(fields["x"].type_changed_in, vec![v(2), v(3)]);
        assert_eq!(fields["y"].gate.removed_in, Some(v(3)));
        assert_eq!(fields["z"].gate.introduced_in, v(3));
        assert_eq!(fields["z"].gate.removed_in, None);
    }

    #[test]
    fn item_values_have_their_own_lifecycles() {
        let spec = |n: u32, items: &[&str]| {
            let mut property = Property::new(Schema::Array(Box::new(STRING)));
            property.element_enum_values = items.iter().map(|v| v.to_string()).collect();
            let mut object = ObjectSchema::default();
            object.properties.insert("modes".into(), property);
            minor(n, vec![Definition::new("a.T", Schema::Object(object))])
        };
        let model = GatedModel::merge(
            "t",
            vec![spec(1, &["A"]), spec(2, &["A", "B"]), spec(3, &["B"])],
        )
        .unwrap();
        let field = &model.gates_index().types["a.T"].fields["modes"];
        assert!(field.values.is_empty());
        assert_eq!(field.element_values["A"].removed_in, Some(v(3)));
        assert_eq!(field.element_values["B"].introduced_in, v(2));
        assert_eq!(field.element_values["B"].removed_in, None);
    }

    #[test]
    fn gaps_are_listed() {
        let def = || Definition::new("a.T", Schema::String { format: None });
        let model = GatedModel::merge(
            "t",
            vec![
                minor(1, vec![def()]),
                minor(2, vec![]),
                minor(3, vec![def()]),
            ],
        )
        .unwrap();
        let gate = &model.gates_index().types["a.T"].gate;
        assert_eq!(gate.present_in, Some(vec![v(1), v(3)]));
        assert_eq!(gate.removed_in, None);
    }

    #[test]
    fn duplicate_minor_is_an_error() {
        let err = GatedModel::merge("t", vec![minor(1, vec![]), minor(1, vec![])]).unwrap_err();
        assert!(
            err.to_string().contains("minor 1.1 is given twice"),
            "{err}"
        );
    }

    #[test]
    fn a_rename_must_match_the_specs() {
        let renamed = |from: &str| {
            let mut property = Property::new(STRING);
            property.renamed_from = Some(from.into());
            let mut object = ObjectSchema::default();
            object.properties.insert("newName".into(), property);
            Definition::new("a.T", Schema::Object(object))
        };
        let old = Definition::new("a.T", object(&[("oldName", STRING)], &[]));
        let ok = GatedModel::merge(
            "t",
            vec![
                minor(1, vec![old.clone()]),
                minor(2, vec![renamed("oldName")]),
            ],
        )
        .unwrap();
        let rename = ok.types["a.T"].fields["newName"]
            .renamed_from
            .clone()
            .unwrap();
        assert_eq!((rename.from.as_str(), rename.in_version), ("oldName", v(2)));
        let err = GatedModel::merge(
            "t",
            vec![minor(1, vec![old]), minor(2, vec![renamed("nope")])],
        )
        .unwrap_err();
        assert!(
            err.to_string().contains("no minor of a.T has that field"),
            "{err}"
        );
    }
}
