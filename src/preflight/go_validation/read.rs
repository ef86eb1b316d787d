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
