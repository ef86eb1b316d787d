//! Keywords for editors, in vergate's words (`model::wording`): what the
//! YAML language server (yaml-language-server 2.x, which VS Code, Neovim and
//! Helix run for YAML) shows while a manifest is typed.
//!
//! - `markdownDescription`: a property's description and one line of its
//!   history ("Introduced in 1.30 (alpha, feature gate …) · beta 1.31 · GA
//!   1.33"), for hover and completion; written only where the history says
//!   more than "present in every minor" or than the presence of the field's
//!   type, so the size cost stays small (docs/benchmarks.md).
//! - `deprecationMessage`: on a property the minor deprecates; the server
//!   warns where it is set and stops offering it (`deprecated: true`, the
//!   2020-12 annotation, is written beside it as before).
//! - a property of another minor, where the object is closed
//!   (`additionalProperties: false`, so the strict trees): `{"enum": [],
//!   "errorMessage": "… is not available in 1.29; introduced in 1.30 (…)",
//!   "doNotSuggest": true}`. An empty `enum` is valid 2020-12 and refuses
//!   every value, as the closed object did; the server shows an `enum`'s
//!   `errorMessage` but not a `not`'s, and a `false` schema carries none.
//!   The plain trees accept unknown fields and are left so.
//! - an enum that lacks values of other minors: `errorMessage` listing the
//!   minor's values and saying when the others come or went.
//!
//! Validators (kubeconform, python-jsonschema, the `jsonschema` crate) treat
//! `markdownDescription`, `deprecationMessage`, `errorMessage` and
//! `doNotSuggest` as unknown keywords, that is annotations they ignore.

use super::style::Style;
use crate::model::wording;
use crate::model::{FieldLifecycle, Lifecycle, Property};
use crate::to_json_schema::Object;
use std::collections::BTreeMap;
use vergate_core::json::Value;
use vergate_core::{Version, VersionSet};

/// Adds a present property's editor keywords to its schema `out`.
pub fn property(out: &mut Object, owner: &str, name: &str, property: &Property, style: &Style) {
    let lifecycles = &style.gates.editor;
    let corpus = lifecycles.corpus.as_slice();
    let Some(fields) = lifecycles.fields.get(owner) else {
        return;
    };
    let Some(field) = fields.get(name) else {
        return;
    };
    let minor = style.minor;
    let history = wording::history(&field.lifecycle, field.renamed_from.as_ref(), minor, corpus);
    if let Some(line) = history.filter(|_| !as_its_type(field, lifecycles.presence.get(owner))) {
        let text = match property.description.as_deref() {
            Some(description) if !description.is_empty() => format!("{description}\n\n{line}"),
            _ => line,
        };
        out.insert("markdownDescription".into(), Value::String(text));
    }
    if let Some(message) = wording::deprecation_message(name, field, fields, minor, corpus) {
        out.insert("deprecationMessage".into(), Value::String(message));
    }
    if let Some(message) = enum_message(out.get("enum"), &field.values, minor, corpus) {
        out.insert("errorMessage".into(), Value::String(message));
    }
    let element = match out.get_mut("items") {
        Some(Value::Object(items)) => Some(items),
        _ => match out.get_mut("additionalProperties") {
            Some(Value::Object(values)) => Some(values),
            _ => None,
        },
    };
    if let Some(element) = element {
        if let Some(message) =
            enum_message(element.get("enum"), &field.element_values, minor, corpus)
        {
            element.insert("errorMessage".into(), Value::String(message));
        }
    }
}

/// True when all a field's history would say is its type's presence (a
/// field of a type added in 1.33, there since): the line is left out, most
/// of the size it would cost being such fields.
fn as_its_type(field: &FieldLifecycle, owner: Option<&VersionSet>) -> bool {
    let lifecycle = &field.lifecycle;
    owner == Some(&lifecycle.presence)
        && lifecycle.deprecated_in.is_none()
        && lifecycle.stage.is_empty()
        && lifecycle.feature_gate.is_none()
        && field.renamed_from.is_none()
}

/// Adds the `errorMessage` of a definition's own enum, when other minors
/// have values this one lacks.
pub fn definition(out: &mut Object, name: &str, style: &Style) {
    let lifecycles = &style.gates.editor;
    let Some(values) = lifecycles.values.get(name) else {
        return;
    };
    if let Some(message) = enum_message(out.get("enum"), values, style.minor, &lifecycles.corpus) {
        out.insert("errorMessage".into(), Value::String(message));
    }
}

/// The properties of other minors that a closed object of `owner` refuses
/// in this minor, each a schema that fails with vergate's sentence.
pub fn absent_properties(
    owner: &str,
    present: &BTreeMap<String, Property>,
    style: &Style,
) -> Vec<(String, Value)> {
    let minor = style.minor;
    let corpus = style.gates.editor.corpus.as_slice();
    absent_fields(owner, present, style)
        .map(|(name, field)| {
            let reason = wording::absence(&field.lifecycle, minor, corpus);
            let message = wording::not_available(name, &field.lifecycle, minor, corpus);
            let schema = Object::from_iter([
                ("enum".to_owned(), Value::Array(Vec::new())),
                ("errorMessage".to_owned(), Value::String(message)),
                (
                    "markdownDescription".to_owned(),
                    Value::String(format!("Not in {minor}: {reason}.")),
                ),
                ("doNotSuggest".to_owned(), Value::Bool(true)),
            ]);
            (name.clone(), Value::Object(schema))
        })
        .collect()
}

/// True when a closed object of `owner` in this minor lists properties of
/// other minors ([`absent_properties`]).
pub fn has_absent_properties(
    owner: &str,
    present: &BTreeMap<String, Property>,
    style: &Style,
) -> bool {
    absent_fields(owner, present, style).next().is_some()
}

/// The fields of `owner` that other minors have and this one lacks.
fn absent_fields<'a>(
    owner: &str,
    present: &'a BTreeMap<String, Property>,
    style: &'a Style,
) -> impl Iterator<Item = (&'a String, &'a FieldLifecycle)> {
    let minor = style.minor;
    style
        .gates
        .editor
        .fields
        .get(owner)
        .into_iter()
        .flatten()
        .filter(move |(name, field)| {
            !present.contains_key(*name) && !field.lifecycle.is_present_in(minor)
        })
}

/// The message of an enum (`values`: the schema's `enum`) that lacks
/// values of other minors: the minor's values, then a sentence for each
/// missing one. `None` when the enum has every value it ever had.
fn enum_message(
    values: Option<&Value>,
    lifecycles: &BTreeMap<String, Lifecycle>,
    minor: Version,
    corpus: &[Version],
) -> Option<String> {
    let Some(Value::Array(values)) = values else {
        return None;
    };
    let missing: Vec<String> = lifecycles
        .iter()
        .filter(|(_, lifecycle)| !lifecycle.is_present_in(minor))
        .map(|(value, lifecycle)| {
            let quoted = super::string(value.as_str()).to_string();
            wording::not_available(&quoted, lifecycle, minor, corpus)
        })
        .collect();
    if missing.is_empty() {
        return None;
    }
    let valid: Vec<String> = values
        .iter()
        .filter(|value| **value != Value::Null)
        .map(Value::to_string)
        .collect();
    Some(format!(
        "Value is not accepted in {minor}. Valid values: {}. {}.",
        valid.join(", "),
        missing.join(". ")
    ))
}
