//! The `x-vergate` keyword: a type's or field's gate, written beside its
//! schema when the gate says more than "present in every minor".
//!
//! Gates do not depend on the minor being converted, so they are built once
//! per model and shared by every minor. The keyword holds what gates.json
//! holds for the item (the same keys, left out under the same conditions;
//! checked against serde's serialization of [`vergate_core::gates`] by this
//! module's tests), written without serde so the derive can write it too.

use super::value::{Json, Map};
use crate::model::{FieldLifecycle, GatedModel, Lifecycle};
use std::collections::BTreeMap;
use vergate_core::gates::{Constraints, FieldGate, Gate, Rename, TypeExpr};
use vergate_core::Version;

/// The name of the keyword.
pub const KEYWORD: &str = "x-vergate";

/// The `x-vergate` values of every type and field that has one.
#[derive(Debug, Default)]
pub struct GateKeywords {
    types: BTreeMap<String, TypeKeywords>,
    /// What the editor keywords are worded from (`super::editor`).
    pub(super) editor: super::editor::Lifecycles,
}

#[derive(Debug, Default)]
struct TypeKeywords {
    own: Option<Json>,
    deprecated_in: Option<Version>,
    fields: BTreeMap<String, FieldKeyword>,
    /// The gates of a union's members that say more than "present in every
    /// minor", by the member's type expression.
    members: BTreeMap<TypeExpr, Json>,
}

#[derive(Debug)]
struct FieldKeyword {
    value: Json,
    deprecated_in: Option<Version>,
}

impl GateKeywords {
    /// Builds the keywords of every type in the model.
    pub fn new(model: &GatedModel) -> Self {
        let corpus = &model.versions;
        let types = model
            .types
            .iter()
            .map(|(name, lifecycle)| {
                let own = (!is_plain(&lifecycle.lifecycle, corpus)
                    || lifecycle.values.values().any(|v| !is_plain(v, corpus)))
                .then(|| {
                    let mut gate = gate_members(&lifecycle.lifecycle.to_gate(corpus));
                    if !lifecycle.values.is_empty() {
                        let values = lifecycle
                            .values
                            .iter()
                            .map(|(value, l)| (value.clone(), gate_json(&l.to_gate(corpus))))
                            .collect();
                        gate.insert("values".into(), Json::Object(values));
                    }
                    Json::Object(gate)
                });
                let fields = lifecycle
                    .fields
                    .iter()
                    .filter(|(_, field)| !is_plain_field(field, corpus))
                    .map(|(field_name, field)| {
                        let keyword = FieldKeyword {
                            value: field_value(field, corpus),
                            deprecated_in: field.lifecycle.deprecated_in,
                        };
                        (field_name.clone(), keyword)
                    })
                    .collect();
                let members = lifecycle
                    .union
                    .iter()
                    .flat_map(|union| &union.members)
                    .filter(|(_, member)| !is_plain(member, corpus))
                    .map(|(ty, member)| (ty.clone(), gate_json(&member.to_gate(corpus))))
                    .collect();
                let keywords = TypeKeywords {
                    own,
                    deprecated_in: lifecycle.lifecycle.deprecated_in,
                    fields,
                    members,
                };
                (name.clone(), keywords)
            })
            .collect();
        GateKeywords {
            types,
            editor: super::editor::Lifecycles::new(model),
        }
    }

    /// The keyword value of a type, if its gate is worth writing.
    pub fn of_type(&self, type_name: &str) -> Option<&Json> {
        self.types.get(type_name)?.own.as_ref()
    }

    /// The keyword value of a field, if its gate is worth writing.
    pub fn of_field(&self, type_name: &str, field: &str) -> Option<&Json> {
        Some(&self.types.get(type_name)?.fields.get(field)?.value)
    }

    /// The keyword value of a union's member, if its gate is worth writing.
    pub fn of_member(&self, type_name: &str, member: &TypeExpr) -> Option<&Json> {
        self.types.get(type_name)?.members.get(member)
    }

    /// True when the type is deprecated in `minor`.
    pub fn type_deprecated_in(&self, type_name: &str, minor: Version) -> bool {
        self.types
            .get(type_name)
            .and_then(|keywords| keywords.deprecated_in)
            .is_some_and(|since| minor >= since)
    }

    /// True when the field is deprecated in `minor` (a deprecated field
    /// always has a keyword, since its gate says more than "present").
    pub fn field_deprecated_in(&self, type_name: &str, field: &str, minor: Version) -> bool {
        self.types
            .get(type_name)
            .and_then(|keywords| keywords.fields.get(field))
            .and_then(|keyword| keyword.deprecated_in)
            .is_some_and(|since| minor >= since)
    }
}

/// A field's gate without its `type` (the schema beside it says that). When
/// the field is required in some of its minors only, `optional_in` lists the
/// others beside `required_in`, so the keyword names every minor in which
/// required-ness changes.
fn field_value(field: &FieldLifecycle, corpus: &[Version]) -> Json {
    let mut value = field_gate_members(&field.to_gate(corpus));
    if !field.required.is_empty() && field.required != field.lifecycle.presence {
        let optional = field
            .lifecycle
            .presence
            .iter()
            .filter(|version| !field.required.contains(*version))
            .map(version)
            .collect();
        value.insert("optional_in".into(), Json::Array(optional));
    }
    Json::Object(value)
}

/// True when a lifecycle says nothing beyond "present in every minor".
fn is_plain(lifecycle: &Lifecycle, corpus: &[Version]) -> bool {
    lifecycle.introduced_in() == corpus.first().copied()
        && lifecycle.presence.len() == corpus.len()
        && lifecycle.deprecated_in.is_none()
        && lifecycle.stage.is_empty()
        && lifecycle.feature_gate.is_none()
        && lifecycle.reference.is_none()
}

fn is_plain_field(field: &FieldLifecycle, corpus: &[Version]) -> bool {
    let required_everywhere_or_nowhere =
        field.required.is_empty() || field.required == field.lifecycle.presence;
    is_plain(&field.lifecycle, corpus)
        && required_everywhere_or_nowhere
        && field.type_changed_in().is_empty()
        && field.renamed_from.is_none()
        && field.values.values().all(|value| is_plain(value, corpus))
        && field
            .element_values
            .values()
            .all(|value| is_plain(value, corpus))
}

fn version(version: Version) -> Json {
    Json::String(version.to_string())
}

fn versions(list: &[Version]) -> Json {
    Json::Array(list.iter().copied().map(version).collect())
}

fn gate_json(gate: &Gate) -> Json {
    Json::Object(gate_members(gate))
}

fn gates_json(gates: &BTreeMap<String, Gate>) -> Json {
    Json::Object(
        gates
            .iter()
            .map(|(key, gate)| (key.clone(), gate_json(gate)))
            .collect(),
    )
}

/// A gate's keys as gates.json writes them: `removed_in` always, the other
/// optional keys only when they say something.
fn gate_members(gate: &Gate) -> Map {
    // Every field named: a key added to `Gate` does not compile until it is
    // written here too.
    let Gate {
        introduced_in,
        removed_in,
        present_in,
        deprecated_in,
        stage,
        feature_gate,
        related_feature_gates,
        reference,
        inferred,
    } = gate;
    let mut out = Map::new();
    out.insert("introduced_in".into(), version(*introduced_in));
    out.insert("removed_in".into(), removed_in.map_or(Json::Null, version));
    if let Some(present_in) = present_in {
        out.insert("present_in".into(), versions(present_in));
    }
    if let Some(deprecated_in) = deprecated_in {
        out.insert("deprecated_in".into(), version(*deprecated_in));
    }
    if !stage.is_empty() {
        let stages = stage
            .iter()
            .map(|(since, stage)| (since.to_string(), Json::string(stage.name())))
            .collect();
        out.insert("stage".into(), Json::Object(stages));
    }
    if let Some(feature_gate) = feature_gate {
        out.insert("feature_gate".into(), Json::string(feature_gate));
    }
    if !related_feature_gates.is_empty() {
        let gates = related_feature_gates.iter().map(Json::string);
        out.insert("related_feature_gates".into(), Json::Array(gates.collect()));
    }
    if let Some(reference) = reference {
        out.insert("reference".into(), Json::string(reference));
    }
    if !inferred.is_empty() {
        let keys = inferred.iter().map(|key| Json::string(key.key()));
        out.insert("inferred".into(), Json::Array(keys.collect()));
    }
    out
}

/// A field gate's keys as gates.json writes them, without `type`.
fn field_gate_members(field: &FieldGate) -> Map {
    let FieldGate {
        gate,
        ty: _,
        required_in,
        type_changed_in,
        type_history,
        renamed_from,
        values,
        element_values,
        values_known_from,
        // Said by the schema's own keywords; only their changes are gates.
        constraints: _,
        constraints_history,
    } = field;
    let mut out = gate_members(gate);
    if !required_in.is_empty() {
        out.insert("required_in".into(), versions(required_in));
    }
    if !type_changed_in.is_empty() {
        out.insert("type_changed_in".into(), versions(type_changed_in));
    }
    if !type_history.is_empty() {
        let history = type_history
            .iter()
            .map(|(since, ty)| (since.to_string(), Json::string(ty.to_string())))
            .collect();
        out.insert("type_history".into(), Json::Object(history));
    }
    if let Some(Rename { from, in_version }) = renamed_from {
        let rename = Map::from([
            ("from".to_owned(), Json::string(from)),
            ("in".to_owned(), version(*in_version)),
        ]);
        out.insert("renamed_from".into(), Json::Object(rename));
    }
    if !values.is_empty() {
        out.insert("values".into(), gates_json(values));
    }
    if !element_values.is_empty() {
        out.insert("element_values".into(), gates_json(element_values));
    }
    if let Some(known_from) = values_known_from {
        out.insert("values_known_from".into(), version(*known_from));
    }
    if !constraints_history.is_empty() {
        let history = constraints_history
            .iter()
            .map(|(since, constraints)| (since.to_string(), constraints_json(constraints)))
            .collect();
        out.insert("constraints_history".into(), Json::Object(history));
    }
    out
}

/// Constraints as gates.json writes them.
fn constraints_json(constraints: &Constraints) -> Json {
    let Constraints {
        pattern,
        minimum,
        maximum,
        exclusive_minimum,
        exclusive_maximum,
        multiple_of,
        min_length,
        max_length,
        min_items,
        max_items,
        unique_items,
        min_properties,
        max_properties,
        rules,
    } = constraints;
    let mut out = Map::new();
    if let Some(pattern) = pattern {
        out.insert("pattern".into(), Json::string(pattern));
    }
    for (key, value) in [
        ("minimum", minimum),
        ("maximum", maximum),
        ("exclusiveMinimum", exclusive_minimum),
        ("exclusiveMaximum", exclusive_maximum),
        ("multipleOf", multiple_of),
    ] {
        if let Some(value) = value {
            out.insert(key.into(), Json::Number(value.to_string()));
        }
    }
    for (key, value) in [
        ("minLength", min_length),
        ("maxLength", max_length),
        ("minItems", min_items),
        ("maxItems", max_items),
        ("minProperties", min_properties),
        ("maxProperties", max_properties),
    ] {
        if let Some(value) = value {
            out.insert(key.into(), Json::Number(value.to_string()));
        }
    }
    if *unique_items {
        out.insert("uniqueItems".into(), Json::Bool(true));
    }
    if !rules.is_empty() {
        let rules = rules
            .iter()
            .map(|rule| {
                let mut entry = Map::new();
                entry.insert("rule".into(), Json::string(&rule.rule));
                for (key, value) in [
                    ("message", &rule.message),
                    ("messageExpression", &rule.message_expression),
                    ("fieldPath", &rule.field_path),
                    ("reason", &rule.reason),
                ] {
                    if let Some(value) = value {
                        entry.insert(key.into(), Json::string(value));
                    }
                }
                Json::Object(entry)
            })
            .collect();
        out.insert("rules".into(), Json::Array(rules));
    }
    Json::Object(out)
}

#[cfg(all(test, feature = "load"))]
mod tests {
    use super::*;
    use vergate_core::gates::{Inferred, Stage};

    fn parsed(json: &Json) -> serde_json::Value {
        serde_json::from_str(&json.to_compact()).unwrap()
    }

    fn full_gate() -> Gate {
        Gate {
            introduced_in: Version::new(1, 9),
            removed_in: Some(Version::new(1, 12)),
            present_in: Some(vec![Version::new(1, 9), Version::new(1, 11)]),
            deprecated_in: Some(Version::new(1, 10)),
            stage: BTreeMap::from([
                (Version::new(1, 9), Stage::Alpha),
                (Version::new(1, 10), Stage::Beta),
                (Version::new(1, 11), Stage::Ga),
            ]),
            feature_gate: Some("Canary".into()),
            related_feature_gates: vec!["CanaryMetrics".into()],
            reference: Some("https://kep/1".into()),
            inferred: vec![Inferred::DeprecatedIn, Inferred::Stage],
        }
    }

    #[test]
    fn gates_are_written_as_serde_writes_them() {
        for gate in [Gate::default(), full_gate()] {
            assert_eq!(
                parsed(&gate_json(&gate)),
                serde_json::to_value(&gate).unwrap()
            );
        }
        let full = FieldGate {
            gate: full_gate(),
            ty: "[]string".parse().unwrap(),
            required_in: vec![Version::new(1, 9)],
            type_changed_in: vec![Version::new(1, 11)],
            type_history: BTreeMap::from([
                (Version::new(1, 9), "string".parse().unwrap()),
                (Version::new(1, 11), "[]string".parse().unwrap()),
            ]),
            renamed_from: Some(Rename {
                from: "old".into(),
                in_version: Version::new(1, 10),
            }),
            values: BTreeMap::from([("A".into(), full_gate())]),
            element_values: BTreeMap::from([("B".into(), Gate::default())]),
            values_known_from: Some(Version::new(1, 10)),
            constraints: Constraints {
                max_length: Some(63),
                ..Constraints::default()
            },
            constraints_history: BTreeMap::from([
                (
                    Version::new(1, 9),
                    Constraints {
                        pattern: Some("^a".into()),
                        minimum: Some(vergate_core::gates::Number(0.0)),
                        exclusive_maximum: Some(vergate_core::gates::Number(2.5)),
                        unique_items: true,
                        ..Constraints::default()
                    },
                ),
                (
                    Version::new(1, 11),
                    Constraints {
                        max_length: Some(63),
                        ..Constraints::default()
                    },
                ),
            ]),
        };
        for field in [FieldGate::default(), full] {
            let mut expected = serde_json::to_value(&field).unwrap();
            expected.as_object_mut().unwrap().remove("type");
            // The schema's keywords say the constraints themselves.
            expected.as_object_mut().unwrap().remove("constraints");
            assert_eq!(parsed(&Json::Object(field_gate_members(&field))), expected);
        }
    }
}
