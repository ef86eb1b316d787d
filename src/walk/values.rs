//! Enum verdicts: whether a minor accepts a string value of an enum, and
//! the string elements of a list or map whose elements form an enum.

use super::Step;
use crate::document::{Node, Place, Value};
use crate::gates::{values_listed_in, Gate, Scalar, TypeExpr};
use crate::Version;
use std::borrow::Cow;
use std::collections::BTreeMap;

/// Why the enum of a minor refuses a value.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Refusal<'a> {
    /// A value of the enum in other minors, not in this one.
    NotInMinor {
        gate: &'a Gate,
        accepted: Vec<&'a str>,
    },
    /// A value no minor of the enum lists.
    Unlisted { accepted: Vec<&'a str> },
}

/// Why `values` refuses `text` in `minor`, or `None` when it accepts it. A
/// minor that lists none of the values leaves the field open.
pub(super) fn refusal<'a>(
    text: &str,
    values: &'a BTreeMap<String, Gate>,
    minor: Version,
) -> Option<Refusal<'a>> {
    let accepted = values_listed_in(values, minor);
    if accepted.is_empty() {
        return None;
    }
    match values.get(text) {
        Some(gate) if gate.is_present_in(minor) => None,
        Some(gate) => Some(Refusal::NotInMinor { gate, accepted }),
        None => Some(Refusal::Unlisted { accepted }),
    }
}

/// A scalar as gates.json keys enum values: a string as itself, an integer,
/// a float (as written) or a boolean as its JSON text; `None` for the rest.
/// So a document's `2` or `true` is checked against an enum of integers or
/// booleans (`{"1": …, "2": …}`). Of a string enum (type `ty`) only strings
/// are checked: another scalar there is a type mismatch, reported as such.
pub(super) fn enum_text<'v>(value: &'v Value, ty: Option<&TypeExpr>) -> Option<Cow<'v, str>> {
    if let Value::String(text) = value {
        return Some(Cow::Borrowed(text));
    }
    if matches!(ty, Some(TypeExpr::Scalar(Scalar::String(_)))) {
        return None;
    }
    match value {
        Value::String(text) => Some(Cow::Borrowed(text)),
        Value::Int(number) => Some(Cow::Owned(number.to_string())),
        Value::Float(text) => Some(Cow::Borrowed(text)),
        Value::Bool(flag) => Some(Cow::Owned(flag.to_string())),
        Value::Null | Value::Seq(_) | Value::Map(_) => None,
    }
}

/// The string elements of a list (its items) or a map (its values), each
/// with its step from the container and its line.
pub(super) fn string_elements(node: &Node) -> impl Iterator<Item = (Step<'_>, &str, u32)> {
    node.string_elements()
        .into_iter()
        .map(|(place, text, line)| {
            let step = match place {
                Place::Index(index) => Step::Index(index),
                Place::Key(key) => Step::Key(key),
            };
            (step, text, line)
        })
}
