//! Reading the parts of an object the checks look at, as Go's decoded
//! structs hold them (a `null` is an absent field).

use crate::document::{Entry, Node, Value};

/// The value of `key`, unless absent or `null`.
pub(super) fn get<'e>(entries: &'e [Entry], key: &str) -> Option<&'e Node> {
    entries
        .iter()
        .find(|entry| entry.key == key)
        .map(|entry| &entry.value)
        .filter(|node| !matches!(node.value, Value::Null))
}

/// The line of `key`, or `or` when the object lacks it.
pub(super) fn line_of(entries: &[Entry], key: &str, or: u32) -> u32 {
    entries
        .iter()
        .find(|entry| entry.key == key)
        .map_or(or, |entry| entry.line)
}

/// The string entries of a mapping (labels), as Go's map holds them.
pub(super) fn string_map(node: Option<&Node>) -> Vec<(&str, &str)> {
    let Some(entries) = node.and_then(Node::as_map) else {
        return Vec::new();
    };
    entries
        .iter()
        .filter_map(|entry| Some((entry.key.as_str(), entry.value.as_str()?)))
        .collect()
}

/// The items of the list at `key` (none when absent, `null` or not a list).
pub(super) fn items<'e>(entries: &'e [Entry], key: &str) -> &'e [Node] {
    match get(entries, key).map(|node| &node.value) {
        Some(Value::Seq(items)) => items,
        _ => &[],
    }
}

/// The entries of the mapping at `key` (none when absent, `null` or not a
/// mapping).
pub(super) fn entries_of<'e>(entries: &'e [Entry], key: &str) -> &'e [Entry] {
    get(entries, key).and_then(Node::as_map).unwrap_or(&[])
}

/// The string at `key`; `""` when absent or `null`, as Go's zero value
/// (`None` when it holds another type: the walk reports that).
pub(super) fn text<'e>(entries: &'e [Entry], key: &str) -> Option<&'e str> {
    match get(entries, key) {
        None => Some(""),
        Some(node) => node.as_str(),
    }
}

/// A scalar's text as a quantity reads it (`1`, `0.5`, `"1Gi"`); `null`
/// reads as Go's zero quantity, `0`.
pub(super) fn scalar_text(node: &Node) -> Option<std::borrow::Cow<'_, str>> {
    match &node.value {
        Value::String(text) => Some(std::borrow::Cow::Borrowed(text.as_str())),
        Value::Float(text) => Some(std::borrow::Cow::Borrowed(text.as_str())),
        Value::Int(value) => Some(std::borrow::Cow::Owned(value.to_string())),
        Value::Null => Some(std::borrow::Cow::Borrowed("0")),
        _ => None,
    }
}
