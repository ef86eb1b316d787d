//! The `x-vergate` keyword: a type's or field's gate, written beside its
//! schema when the gate says more than "present in every minor".
//!
//! Gates do not depend on the minor being converted, so they are built once
//! per model and shared by every minor. The keyword holds what gates.json
//! holds for the item: serde's serialization of [`vergate_core::gates`]'s
//! types, the one writer of gates for both.

use crate::model::{FieldLifecycle, GatedModel, Lifecycle};
use crate::to_json_schema::Object;
use std::collections::BTreeMap;
use vergate_core::gates::{Gate, TypeExpr};
use vergate_core::json::{self, Value};
use vergate_core::Version;

/// The name of the keyword.
pub const KEYWORD: &str = "x-vergate";

/// The `x-vergate` values of every type and field that has one.
#[derive(Debug, Default)]
pub struct GateKeywords {
    types: BTreeMap<String, TypeKeywords>,
    /// What the editor keywords are worded from (`super::editor`).
    pub(super) editor: super::lifecycles::Lifecycles,
}

#[derive(Debug, Default)]
struct TypeKeywords {
    own: Option<Value>,
    deprecated_in: Option<Version>,
    fields: BTreeMap<String, FieldKeyword>,
    /// The gates of a union's members that say more than "present in every
    /// minor", by the member's type expression.
    members: BTreeMap<TypeExpr, Value>,
}

#[derive(Debug)]
struct FieldKeyword {
    value: Value,
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
                    let mut gate = to_object(&lifecycle.lifecycle.to_gate(corpus));
                    if !lifecycle.values.is_empty() {
                        let values = lifecycle
                            .values
                            .iter()
                            .map(|(value, l)| (value.clone(), gate_json(&l.to_gate(corpus))))
                            .collect();
                        gate.insert("values".into(), Value::Object(values));
                    }
                    Value::Object(gate)
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
            editor: super::lifecycles::Lifecycles::new(model),
        }
    }

    /// The keyword value of a type, if its gate is worth writing.
    pub fn of_type(&self, type_name: &str) -> Option<&Value> {
        self.types.get(type_name)?.own.as_ref()
    }

    /// The keyword value of a field, if its gate is worth writing.
    pub fn of_field(&self, type_name: &str, field: &str) -> Option<&Value> {
        Some(&self.types.get(type_name)?.fields.get(field)?.value)
    }

    /// The keyword value of a union's member, if its gate is worth writing.
    pub fn of_member(&self, type_name: &str, member: &TypeExpr) -> Option<&Value> {
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

/// A field's gate without its `type` and `constraints` (the schema beside
/// it says those). When the field is required in some of its minors only,
/// `optional_in` lists the others beside `required_in`, so the keyword
/// names every minor in which required-ness changes.
fn field_value(field: &FieldLifecycle, corpus: &[Version]) -> Value {
    let mut value = to_object(&field.to_gate(corpus));
    value.remove("type");
    value.remove("constraints");
    if !field.required.is_empty() && field.required != field.lifecycle.presence {
        let optional = field
            .lifecycle
            .presence
            .iter()
            .filter(|version| !field.required.contains(*version))
            .map(|version| Value::String(version.to_string()))
            .collect();
        value.insert("optional_in".into(), Value::Array(optional));
    }
    Value::Object(value)
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

/// A gate as gates.json writes it.
fn gate_json(gate: &Gate) -> Value {
    Value::Object(to_object(gate))
}

/// The members of a gate's serialization (every gate is a struct).
fn to_object(gate: &impl serde::Serialize) -> Object {
    match json::to_value(gate) {
        Ok(Value::Object(members)) => members,
        other => unreachable!("a gate serializes as an object, not {other:?}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use vergate_core::gates::{
        ApiLifecycle, Constraints, CrossFieldRule, FieldGate, GroupVersionKind, Inferred, ListType,
        Number, Rename, Stage, TypeGate, UnionGate, ValidationRule,
    };

    /// Asserts that the keyword's members for `gate` are serde_json's
    /// serialization of it (the same compact text, the same value), and
    /// that the text reads back as `gate`: a type's and a field's gates are
    /// read flat (`vergate_core::gates::flat`), and a key that reading
    /// missed would come back empty.
    fn as_serde_json_serializes<T>(gate: &T)
    where
        T: serde::Serialize + serde::de::DeserializeOwned + PartialEq + std::fmt::Debug,
    {
        let ours = Value::Object(to_object(gate));
        let theirs = serde_json::to_value(gate).unwrap();
        assert_eq!(ours.to_string(), theirs.to_string());
        assert_eq!(serde_json::to_value(&ours).unwrap(), theirs);
        assert_eq!(&serde_json::from_value::<T>(theirs).unwrap(), gate);
    }

    fn v(minor: u32) -> Version {
        Version::new(1, minor)
    }

    /// A gate with every optional key.
    fn full_gate() -> Gate {
        Gate {
            introduced_in: v(28),
            removed_in: Some(v(33)),
            present_in: Some(vec![v(28), v(29), v(31), v(32)]),
            deprecated_in: Some(v(31)),
            stage: BTreeMap::from([
                (v(28), Stage::Alpha),
                (v(29), Stage::Beta),
                (v(31), Stage::Ga),
            ]),
            feature_gate: Some("SidecarContainers".into()),
            related_feature_gates: vec!["PodLevelResources".into(), "Other \"quoted\"".into()],
            reference: Some("https://github.com/kubernetes/enhancements/issues/753".into()),
            inferred: vec![
                Inferred::DeprecatedIn,
                Inferred::FeatureGate,
                Inferred::IntroducedIn,
            ],
        }
    }

    #[test]
    fn gates_are_serialized_as_serde_json_serializes_them() {
        let introduced = Gate {
            introduced_in: v(30),
            ..Gate::default()
        };
        let deprecated = Gate {
            deprecated_in: Some(v(31)),
            ..introduced.clone()
        };
        let removed = Gate {
            removed_in: Some(v(32)),
            ..introduced.clone()
        };
        let staged = Gate {
            stage: BTreeMap::from([(v(30), Stage::Alpha), (v(32), Stage::Beta)]),
            feature_gate: Some("InPlacePodVerticalScaling".into()),
            ..introduced.clone()
        };
        for gate in [introduced, deprecated, removed, staged, full_gate()] {
            as_serde_json_serializes(&gate);
        }
        let constraints = Constraints {
            pattern: Some(r"^[a-z]\d+$".into()),
            minimum: Some(Number(0.0)),
            maximum: Some(Number(65535.0)),
            exclusive_minimum: Some(Number(-1.5)),
            exclusive_maximum: Some(Number(1e300)),
            multiple_of: Some(Number(0.1)),
            min_length: Some(1),
            max_length: Some(u64::MAX),
            min_items: Some(0),
            max_items: Some(16),
            unique_items: true,
            min_properties: Some(1),
            max_properties: Some(2),
            rules: vec![ValidationRule {
                rule: "self.x <= self.y".into(),
                message: Some("x must not exceed y".into()),
                message_expression: Some("'x is ' + string(self.x)".into()),
                field_path: Some(".x".into()),
                reason: Some("FieldValueInvalid".into()),
            }],
            list_type: Some(ListType::Map),
            list_map_keys: vec!["name".into()],
            list_map_defaults: BTreeMap::from([("protocol".into(), "\"TCP\"".into())]),
            element: Some(Box::new(Constraints {
                max_length: Some(253),
                ..Constraints::default()
            })),
        };
        let field = FieldGate {
            gate: full_gate(),
            ty: "[]string(date-time)".parse().unwrap(),
            required_in: vec![v(29), v(31)],
            type_changed_in: vec![v(31)],
            type_history: BTreeMap::from([(v(28), "string".parse().unwrap())]),
            renamed_from: Some(Rename {
                from: "oldName".into(),
                in_version: v(29),
            }),
            values: BTreeMap::from([("Always".into(), full_gate())]),
            element_values: BTreeMap::from([("TCP".into(), Gate::default())]),
            values_known_from: Some(v(30)),
            constraints: constraints.clone(),
            constraints_history: BTreeMap::from([
                (v(28), Constraints::default()),
                (v(30), constraints),
            ]),
        };
        as_serde_json_serializes(&field);
        as_serde_json_serializes(&FieldGate::default());
        let ty: TypeExpr = "int-or-string".parse().unwrap();
        let gvk = GroupVersionKind {
            group: "apps".into(),
            version: "v1".into(),
            kind: "Deployment".into(),
        };
        // Every key of a type's gate.
        let type_gate = TypeGate {
            gate: full_gate(),
            ty: Some(ty.clone()),
            type_history: BTreeMap::from([(v(28), "string".parse().unwrap())]),
            kinds: vec![gvk.clone()],
            fields: BTreeMap::from([("field".into(), field.clone())]),
            values: BTreeMap::from([("A".into(), full_gate())]),
            constraints: field.constraints.clone(),
            constraints_history: field.constraints_history.clone(),
            open: true,
            deprecation_warning: Some("use v2".into()),
            api_lifecycle: BTreeMap::from([(
                v(30),
                ApiLifecycle {
                    introduced: Some(v(28)),
                    deprecated: Some(v(30)),
                    removed: Some(v(33)),
                    replacement: Some(gvk),
                },
            )]),
            union: Some(UnionGate {
                members: BTreeMap::from([(ty.clone(), full_gate())]),
                order: vec![ty],
                ..UnionGate::default()
            }),
            rules: vec![CrossFieldRule::UniqueKey {
                field: "ports".into(),
                key: "name".into(),
            }],
        };
        as_serde_json_serializes(&type_gate);
        as_serde_json_serializes(&TypeGate::default());
    }
}
