//! The `x-vergate` keyword: a type's or field's gate, written beside its
//! schema when the gate says more than "present in every minor".
//!
//! Gates do not depend on the minor being emitted, so they are built once per
//! API and shared by every subtree.

use crate::model::{FieldLifecycle, GatedModel, Lifecycle};
use serde_json::Value;
use std::collections::BTreeMap;
use vergate_core::gates::{FieldGate, Gate};
use vergate_core::Version;

/// The name of the keyword.
pub const KEYWORD: &str = "x-vergate";

/// The `x-vergate` values of every type and field that has one.
#[derive(Debug, Default)]
pub struct GateKeywords {
    types: BTreeMap<String, TypeKeywords>,
}

#[derive(Debug, Default)]
struct TypeKeywords {
    own: Option<Value>,
    deprecated_in: Option<Version>,
    fields: BTreeMap<String, FieldKeyword>,
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
                    let mut gate = serde_json::to_value(lifecycle.lifecycle.to_gate(corpus))
                        .expect("a gate always serializes");
                    if !lifecycle.values.is_empty() {
                        let values: BTreeMap<&String, Gate> = lifecycle
                            .values
                            .iter()
                            .map(|(value, l)| (value, l.to_gate(corpus)))
                            .collect();
                        gate["values"] =
                            serde_json::to_value(values).expect("gates always serialize");
                    }
                    gate
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
                let keywords = TypeKeywords {
                    own,
                    deprecated_in: lifecycle.lifecycle.deprecated_in,
                    fields,
                };
                (name.clone(), keywords)
            })
            .collect();
        GateKeywords { types }
    }

    /// The keyword value of a type, if its gate is worth writing.
    pub fn of_type(&self, type_name: &str) -> Option<&Value> {
        self.types.get(type_name)?.own.as_ref()
    }

    /// The keyword value of a field, if its gate is worth writing.
    pub fn of_field(&self, type_name: &str, field: &str) -> Option<&Value> {
        Some(&self.types.get(type_name)?.fields.get(field)?.value)
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
fn field_value(field: &FieldLifecycle, corpus: &[Version]) -> Value {
    let gate: FieldGate = field.to_gate(corpus);
    let mut value = serde_json::to_value(gate).expect("a gate always serializes");
    if let Value::Object(map) = &mut value {
        map.remove("type");
        if !field.required.is_empty() && field.required != field.lifecycle.presence {
            let optional: Vec<Value> = field
                .lifecycle
                .presence
                .iter()
                .filter(|version| !field.required.contains(*version))
                .map(|version| Value::String(version.to_string()))
                .collect();
            map.insert("optional_in".into(), Value::Array(optional));
        }
    }
    value
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
