//! Reading the parts of an object the checks look at, as Go's decoded
//! structs hold them (a `null` is an absent field).

use super::Broken;
use crate::document::{Entry, Node, Value};
use crate::walk::go_quoted;
use std::fmt::Write;

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

/// The items of a list, none when absent, `null` or not a list (Go's nil
/// slice; another type is the walk's `wrong-type`).
pub(super) fn items(node: Option<&Node>) -> &[Node] {
    match node.map(|node| &node.value) {
        Some(Value::Seq(items)) => items,
        _ => &[],
    }
}

/// The entries of a mapping, none when absent or not a mapping.
pub(super) fn entries(node: Option<&Node>) -> &[Entry] {
    node.and_then(Node::as_map).unwrap_or(&[])
}

/// A string field as Go holds it: absent, `null` or another type is `""`.
pub(super) fn text<'e>(entries: &'e [Entry], key: &str) -> &'e str {
    get(entries, key).and_then(Node::as_str).unwrap_or("")
}

/// An integer field, when it is one.
pub(super) fn int(entries: &[Entry], key: &str) -> Option<i64> {
    match get(entries, key).map(|node| &node.value) {
        Some(Value::Int(value)) => Some(*value),
        _ => None,
    }
}

/// A value as Go's field errors show it: a string quoted, a number as is,
/// a list or a mapping as JSON, nothing as `null`.
pub(super) fn shown(node: Option<&Node>) -> String {
    match node.map(|node| &node.value) {
        None | Some(Value::Null) => "null".to_owned(),
        Some(Value::String(text)) => go_quoted(text),
        Some(Value::Int(value)) => value.to_string(),
        Some(Value::Float(text)) => text.to_string(),
        Some(Value::Bool(value)) => value.to_string(),
        Some(_) => node.map_or_else(String::new, |node| node.to_json().to_string()),
    }
}

/// A field path below the checked object, built as a check descends and
/// written out only for a finding (nothing allocated on the way).
#[derive(Clone, Copy)]
pub(super) enum Path<'p> {
    Root,
    Key(&'p Path<'p>, &'p str),
    Index(&'p Path<'p>, usize),
}

impl<'p> Path<'p> {
    /// The path of field `key` below this one.
    pub fn key(&'p self, key: &'p str) -> Path<'p> {
        Path::Key(self, key)
    }

    /// The path of item `index` of this list.
    pub fn index(&'p self, index: usize) -> Path<'p> {
        Path::Index(self, index)
    }

    /// `spec.rules[0].host`.
    pub fn text(&self) -> String {
        let mut out = String::new();
        self.write(&mut out);
        out
    }

    fn write(&self, out: &mut String) {
        match self {
            Path::Root => {}
            Path::Key(parent, key) => {
                parent.write(out);
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(key);
            }
            Path::Index(parent, index) => {
                parent.write(out);
                let _ = write!(out, "[{index}]");
            }
        }
    }
}

/// The findings of one check, in the words of Go's `field.Error`s.
pub(super) struct Findings<'o> {
    pub out: &'o mut Vec<Broken>,
}

impl Findings<'_> {
    fn push(&mut self, path: Path<'_>, line: u32, message: String) {
        self.out.push(Broken {
            last: path.text(),
            line,
            message,
        });
    }

    /// `field.Required`: `Required value[: detail]`.
    pub fn required(&mut self, path: Path<'_>, line: u32, detail: &str) {
        self.push(path, line, with_detail("Required value", detail));
    }

    /// `field.Forbidden`: `Forbidden[: detail]`.
    pub fn forbidden(&mut self, path: Path<'_>, line: u32, detail: &str) {
        self.push(path, line, with_detail("Forbidden", detail));
    }

    /// `field.Invalid`: `Invalid value: <shown>[: detail]` (`shown` as
    /// [`shown`] writes it).
    pub fn invalid(&mut self, path: Path<'_>, line: u32, shown: &str, detail: &str) {
        self.push(
            path,
            line,
            with_detail(&format!("Invalid value: {shown}"), detail),
        );
    }

    /// `field.NotSupported`: `Unsupported value: "x": supported values:
    /// "a", "b"`.
    pub fn not_supported(&mut self, path: Path<'_>, line: u32, value: &str, supported: &[&str]) {
        let mut message = format!("Unsupported value: {}", go_quoted(value));
        if !supported.is_empty() {
            message.push_str(": supported values: ");
            for (index, value) in supported.iter().enumerate() {
                if index > 0 {
                    message.push_str(", ");
                }
                message.push_str(&go_quoted(value));
            }
        }
        self.push(path, line, message);
    }

    /// `field.Duplicate`: `Duplicate value: <shown>`.
    pub fn duplicate(&mut self, path: Path<'_>, line: u32, shown: &str) {
        self.push(path, line, format!("Duplicate value: {shown}"));
    }

    /// `field.TooLong`: `Too long: may not be more than N bytes`.
    pub fn too_long(&mut self, path: Path<'_>, line: u32, max: usize) {
        self.push(
            path,
            line,
            format!("Too long: may not be more than {max} bytes"),
        );
    }

    /// `field.Invalid` once per message of a name rule (`names::…`).
    pub fn invalid_each(&mut self, path: Path<'_>, line: u32, value: &str, messages: Vec<String>) {
        for message in messages {
            self.invalid(path, line, &go_quoted(value), &message);
        }
    }
}

fn with_detail(kind: &str, detail: &str) -> String {
    if detail.is_empty() {
        kind.to_owned()
    } else {
        format!("{kind}: {detail}")
    }
}

/// What the checks of `definition` find in `yaml` at minor `1.<minor>`,
/// as `path@line: message` (for the areas' tests).
#[cfg(test)]
pub(super) fn found_at(definition: &str, minor: u32, yaml: &str) -> Vec<String> {
    let root = crate::document::parse(yaml).documents.remove(0).root;
    let target = crate::Version::new(1, minor);
    super::check(definition, target, root.as_map().unwrap_or(&[]), root.line)
        .into_iter()
        .map(|b| format!("{}@{}: {}", b.last, b.line, b.message))
        .collect()
}

/// [`found_at`] 1.36.
#[cfg(test)]
pub(super) fn found(definition: &str, yaml: &str) -> Vec<String> {
    found_at(definition, 36, yaml)
}

/// The items of the list at `key` (none when absent, `null` or not a list).
pub(super) fn items_at<'e>(entries: &'e [Entry], key: &str) -> &'e [Node] {
    items(get(entries, key))
}

/// The entries of the mapping at `key` (none when absent, `null` or not a
/// mapping).
pub(super) fn entries_of<'e>(entries: &'e [Entry], key: &str) -> &'e [Entry] {
    get(entries, key).and_then(Node::as_map).unwrap_or(&[])
}

/// The string at `key`; `""` when absent or `null`, as Go's zero value
/// (`None` when it holds another type: the walk reports that).
pub(super) fn go_text<'e>(entries: &'e [Entry], key: &str) -> Option<&'e str> {
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

/// Whether `text` holds a `/` (a resource, finalizer or type name with a
/// domain): a byte scan, which for names this short costs less than a
/// char searcher's set-up.
pub(super) fn has_slash(text: &str) -> bool {
    text.bytes().any(|byte| byte == b'/')
}

/// A hash set for the duplicate checks: foldhash, as [`super::check`]'s
/// index (std's SipHash cost several times as much a key).
pub(super) type Set<T> = std::collections::HashSet<T, foldhash::fast::RandomState>;
