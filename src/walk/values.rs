//! Enum verdicts: whether a minor accepts a value of an enum, and
//! the scalar elements of a list or map whose elements form an enum.

use super::Step;
use crate::document::{Node, Value};
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
    /// A value no minor of the enum lists. `carried_from` is the field's
    /// `values_known_from` when `minor` is before it: the values accepted
    /// there are that minor's listing carried back, inferred.
    Unlisted {
        accepted: Vec<&'a str>,
        carried_from: Option<Version>,
    },
}

/// Why `values` refuses `text` in `minor`, or `None` when it accepts it. A
/// minor that lists none of the values leaves the field open. `known_from`
/// is the field's `values_known_from`.
pub(super) fn refusal<'a>(
    text: &str,
    values: &'a BTreeMap<String, Gate>,
    minor: Version,
    known_from: Option<Version>,
) -> Option<Refusal<'a>> {
    // The common case first, without listing the accepted values.
    let listed = values.get(text);
    if values.is_empty() || listed.is_some_and(|gate| gate.is_present_in(minor)) {
        return None;
    }
    let accepted = values_listed_in(values, minor);
    if accepted.is_empty() {
        return None;
    }
    match listed {
        Some(gate) => Some(Refusal::NotInMinor { gate, accepted }),
        None => Some(Refusal::Unlisted {
            accepted,
            carried_from: known_from.filter(|known_from| minor < *known_from),
        }),
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

/// The scalar elements of a list (its items) or a map (its values), each
/// with its step from the container, its text as [`enum_text`] gives it for
/// elements of type `element`, and its line.
pub(super) fn scalar_elements<'n>(
    node: &'n Node,
    element: Option<&TypeExpr>,
) -> Vec<(Step<'n>, Cow<'n, str>, u32)> {
    let elements: Vec<(Step<'n>, &'n Node, u32)> = match &node.value {
        Value::Seq(items) => items
            .iter()
            .enumerate()
            .map(|(index, item)| (Step::Index(index), item, item.line))
            .collect(),
        Value::Map(entries) => entries
            .iter()
            .map(|entry| (Step::Key(&entry.key), &entry.value, entry.line))
            .collect(),
        _ => Vec::new(),
    };
    elements
        .into_iter()
        .filter_map(|(step, item, line)| Some((step, enum_text(&item.value, element)?, line)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::Entry;

    fn integer() -> TypeExpr {
        "integer".parse().unwrap()
    }

    fn string() -> TypeExpr {
        "string".parse().unwrap()
    }

    #[test]
    fn scalars_are_keyed_as_gates_json_keys_them() {
        let text = |value: Value, ty: Option<&TypeExpr>| enum_text(&value, ty).map(Cow::into_owned);
        assert_eq!(
            text(Value::Int(10), Some(&integer())).as_deref(),
            Some("10")
        );
        assert_eq!(text(Value::Bool(true), None).as_deref(), Some("true"));
        assert_eq!(
            text(Value::Float("1.5".into()), None).as_deref(),
            Some("1.5")
        );
        assert_eq!(
            text(Value::String(Default::default()), Some(&string())).as_deref(),
            Some("")
        );
        // Of a string enum, a number is a type mismatch, not an enum value.
        assert_eq!(text(Value::Int(10), Some(&string())), None);
        assert_eq!(text(Value::Null, None), None);
    }

    #[test]
    fn elements_of_an_integer_enum_are_found() {
        let list = Node::new(Value::Seq(vec![
            Node::new(Value::Int(200)),
            Node::new(Value::Null),
            Node::new(Value::Int(500)),
        ]));
        let found: Vec<(Step<'_>, String)> = scalar_elements(&list, Some(&integer()))
            .into_iter()
            .map(|(step, text, _)| (step, text.into_owned()))
            .collect();
        assert_eq!(
            found,
            [
                (Step::Index(0), "200".to_owned()),
                (Step::Index(2), "500".to_owned())
            ]
        );
        let map = Node::new(Value::Map(vec![Entry {
            key: "a".into(),
            line: 3,
            value: Node::new(Value::Int(1)),
        }]));
        assert!(scalar_elements(&map, Some(&string())).is_empty());
        // A map value's line is its key's.
        assert_eq!(scalar_elements(&map, None)[0].2, 3);
    }
}
