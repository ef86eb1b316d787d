//! The server's error kinds (apimachinery `field.Invalid`, `Required`,
//! `NotSupported`, …) as the messages it prints, and the readers of the
//! scalars the pod and workload checks compare. A message is built only
//! when a check fails, so a valid object allocates nothing here.

use super::Broken;
use crate::document::{Entry, Node, Value};
use crate::walk::go_quoted;
use std::fmt::Write;

/// The integer at `key` (an absent, `null` or non-integer value is `None`:
/// the walk reports a wrong type).
pub(super) fn int_at(entries: &[Entry], key: &str) -> Option<i64> {
    match super::read::get(entries, key)?.value {
        Value::Int(value) => Some(value),
        _ => None,
    }
}

/// The string at `key`.
pub(super) fn str_at<'e>(entries: &'e [Entry], key: &str) -> Option<&'e str> {
    super::read::get(entries, key).and_then(Node::as_str)
}

/// The mapping at `key`.
pub(super) fn map_at<'e>(entries: &'e [Entry], key: &str) -> Option<&'e [Entry]> {
    super::read::get(entries, key).and_then(Node::as_map)
}

/// The items of the list at `key` (none when absent or not a list).
pub(super) fn items_at<'e>(entries: &'e [Entry], key: &str) -> &'e [Node] {
    match super::read::get(entries, key).map(|node| &node.value) {
        Some(Value::Seq(items)) => items,
        _ => &[],
    }
}

/// Whether `key` holds a value (Go's non-nil pointer).
pub(super) fn has(entries: &[Entry], key: &str) -> bool {
    super::read::get(entries, key).is_some()
}

/// A quantity as written: a string, or a number YAML read as one.
pub(super) fn quantity_text(node: &Node) -> Option<std::borrow::Cow<'_, str>> {
    match &node.value {
        Value::String(text) => Some(std::borrow::Cow::Borrowed(text.as_str())),
        Value::Int(value) => Some(std::borrow::Cow::Owned(value.to_string())),
        Value::Float(text) => Some(std::borrow::Cow::Borrowed(text.as_str())),
        _ => None,
    }
}

/// Pushes one finding.
pub(super) fn push(out: &mut Vec<Broken>, last: String, line: u32, message: String) {
    out.push(Broken {
        last,
        line,
        message,
    });
}

/// `field.Invalid` with a string value: `Invalid value: "x": detail`.
pub(super) fn invalid_str(value: &str, detail: &str) -> String {
    format!("Invalid value: {}: {detail}", go_quoted(value))
}

/// `field.Invalid` with an integer value: `Invalid value: 5: detail`.
pub(super) fn invalid_int(value: i64, detail: &str) -> String {
    format!("Invalid value: {value}: {detail}")
}

/// `ValidateNonnegativeField`'s message for `value`.
pub(super) fn negative(value: i64) -> String {
    invalid_int(value, "must be greater than or equal to 0")
}

/// `field.Required`: `Required value` and its detail, if any.
pub(super) fn required(detail: &str) -> String {
    if detail.is_empty() {
        "Required value".to_owned()
    } else {
        format!("Required value: {detail}")
    }
}

/// `field.Forbidden`.
pub(super) fn forbidden(detail: &str) -> String {
    format!("Forbidden: {detail}")
}

/// `field.NotFound` of a string.
pub(super) fn not_found(value: &str) -> String {
    format!("Not found: {}", go_quoted(value))
}

/// `field.Duplicate` of a string.
pub(super) fn duplicate(value: &str) -> String {
    format!("Duplicate value: {}", go_quoted(value))
}

/// `field.NotSupported` of a string among `supported` (in the server's
/// order).
pub(super) fn not_supported(value: &str, supported: &[&str]) -> String {
    let mut out = format!(
        "Unsupported value: {}: supported values: ",
        go_quoted(value)
    );
    for (index, item) in supported.iter().enumerate() {
        if index > 0 {
            out.push_str(", ");
        }
        let _ = write!(out, "{}", go_quoted(item));
    }
    out
}

/// Pushes `field.Required` with `detail` at `key` when the string there is
/// empty (an absent key is the schema's `required`); says whether it did.
pub(super) fn required_when_empty(
    entries: &[Entry],
    key: &str,
    detail: &str,
    line: u32,
    out: &mut Vec<Broken>,
) -> bool {
    if str_at(entries, key) != Some("") {
        return false;
    }
    let line = super::read::line_of(entries, key, line);
    push(out, key.to_owned(), line, required(detail));
    true
}

/// Pushes `ValidateNonnegativeField` for the integer at `key`, reported at
/// `prefix` + `key`.
pub(super) fn nonnegative(
    entries: &[Entry],
    key: &str,
    prefix: &str,
    line: u32,
    out: &mut Vec<Broken>,
) {
    if let Some(value) = int_at(entries, key).filter(|value| *value < 0) {
        let line = super::read::line_of(entries, key, line);
        push(out, format!("{prefix}{key}"), line, negative(value));
    }
}

/// A finding at `last`, on `line`.
pub(super) fn at(last: impl Into<String>, line: u32, message: String) -> Broken {
    Broken {
        last: last.into(),
        line,
        message,
    }
}

/// `field.Invalid` of a value already rendered (a number, a list).
pub(super) fn invalid_raw(value: &str, detail: &str) -> String {
    format!("Invalid value: {value}: {detail}")
}

/// A string list as `field.Invalid` prints one (JSON: `["a","b"]`).
pub(super) fn json_list(values: &[&str]) -> String {
    serde_json::to_string(values).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_read_as_the_servers() {
        assert_eq!(
            not_supported("Never", &["Always"]),
            "Unsupported value: \"Never\": supported values: \"Always\""
        );
        assert_eq!(
            invalid_int(-1, "must be greater than or equal to 0"),
            negative(-1)
        );
        assert_eq!(required(""), "Required value");
        assert_eq!(not_found("nope"), "Not found: \"nope\"");
    }
}
