//! Documents read from YAML or JSON, every node with the line it starts on.
//!
//! Preflight and upgrade report places by line, so documents are parsed into
//! a small tree of their own ([`Node`]) rather than `serde_json::Value`. JSON
//! is read by its own reader into the same tree, so it gets lines too.
//!
//! Reading follows Kubernetes, not the YAML 1.2 spec: YAML is scanned as
//! go-yaml v2 scans it, plain scalars resolve by YAML 1.1 as kubectl's
//! sigs.k8s.io/yaml does ([`scalar`]), and a text starting with `{` is a
//! JSON stream, or YAML when its first value is not JSON. Reading is bounded ([`reader`]): nesting depth,
//! alias expansion and file size have limits, reported as [`ParseError`]s.

mod block;
mod builder;
mod encoding;
mod json;
mod reader;
pub mod scalar;
pub mod spans;
mod split;
mod yaml;

/// The string type of keys and string values: inline up to 24 bytes, as
/// most keys and values of a manifest are, so a tree costs few allocations.
pub use compact_str::CompactString;
pub use encoding::{decode, decode_slice, Encoding, EncodingError};
pub use reader::{Reader, MAX_DEPTH, MAX_FILE_BYTES};
pub use split::{split, Part, ReadResult};

use std::fmt;

/// One value of a document and the (1-based) line it starts on.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    pub value: Value,
    pub line: u32,
}

/// A document value. Maps keep their keys in document order.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    Int(i64),
    /// A float, kept as written (`1.5`, `.inf`).
    Float(CompactString),
    String(CompactString),
    Seq(Vec<Node>),
    Map(Vec<Entry>),
}

/// One key of a map, the line the key is on, and its value.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub key: CompactString,
    pub line: u32,
    pub value: Node,
}

/// Where an element sits in the list or map holding it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place<'a> {
    /// A list item, by index.
    Index(usize),
    /// A map value, by key.
    Key(&'a str),
}

impl Node {
    /// The string elements of a list (its items) or a map (its values): where
    /// each sits, its text and its line. None for anything else; elements
    /// that are not strings are left out.
    pub fn string_elements(&self) -> Vec<(Place<'_>, &str, u32)> {
        let elements: Vec<(Place<'_>, &Node, u32)> = match &self.value {
            Value::Seq(items) => items
                .iter()
                .enumerate()
                .map(|(index, item)| (Place::Index(index), item, item.line))
                .collect(),
            Value::Map(entries) => entries
                .iter()
                .map(|entry| (Place::Key(&entry.key), &entry.value, entry.line))
                .collect(),
            _ => Vec::new(),
        };
        elements
            .into_iter()
            .filter_map(|(place, node, line)| Some((place, node.as_str()?, line)))
            .collect()
    }

    /// A node on line 0 (unknown), for values built in code.
    pub fn new(value: Value) -> Node {
        Node { value, line: 0 }
    }

    /// The entries when the node is a map.
    pub fn as_map(&self) -> Option<&[Entry]> {
        match &self.value {
            Value::Map(entries) => Some(entries),
            _ => None,
        }
    }

    /// The string when the node is a string.
    pub fn as_str(&self) -> Option<&str> {
        match &self.value {
            Value::String(text) => Some(text),
            _ => None,
        }
    }

    /// The value of `key` when the node is a map holding it.
    pub fn get(&self, key: &str) -> Option<&Node> {
        self.as_map()?
            .iter()
            .find(|entry| entry.key == key)
            .map(|entry| &entry.value)
    }

    /// The entry of `key` when the node is a map holding it, mutably.
    pub fn get_mut(&mut self, key: &str) -> Option<&mut Node> {
        match &mut self.value {
            Value::Map(entries) => entries
                .iter_mut()
                .find(|entry| entry.key == key)
                .map(|entry| &mut entry.value),
            _ => None,
        }
    }

    /// What kind of value this is, for messages (`a list`, `a string`).
    pub fn describe(&self) -> &'static str {
        match self.value {
            Value::Null => "null",
            Value::Bool(_) => "a boolean",
            Value::Int(_) => "an integer",
            Value::Float(_) => "a number",
            Value::String(_) => "a string",
            Value::Seq(_) => "a list",
            Value::Map(_) => "a mapping",
        }
    }

    /// The node as JSON (floats that JSON cannot hold become strings).
    /// Its strings are copied as they are (`to_string` would format them).
    pub fn to_json(&self) -> serde_json::Value {
        use serde_json::Value as J;
        match &self.value {
            Value::Null => J::Null,
            Value::Bool(b) => J::Bool(*b),
            Value::Int(i) => J::from(*i),
            Value::Float(text) => text
                .parse::<f64>()
                .ok()
                .and_then(serde_json::Number::from_f64)
                .map_or_else(|| J::String(text.as_str().to_owned()), J::Number),
            Value::String(s) => J::String(s.as_str().to_owned()),
            Value::Seq(items) => J::Array(items.iter().map(Node::to_json).collect()),
            Value::Map(entries) => J::Object(
                entries
                    .iter()
                    .map(|entry| (entry.key.as_str().to_owned(), entry.value.to_json()))
                    .collect(),
            ),
        }
    }

    /// The node as JSON, taken apart (its strings moved, not copied).
    pub fn into_json(self) -> serde_json::Value {
        use serde_json::Value as J;
        match self.value {
            Value::Seq(items) => J::Array(items.into_iter().map(Node::into_json).collect()),
            Value::Map(entries) => J::Object(
                entries
                    .into_iter()
                    .map(|entry| (entry.key.into_string(), entry.value.into_json()))
                    .collect(),
            ),
            Value::String(text) => J::String(text.into_string()),
            _ => self.to_json(),
        }
    }

    /// The node as a YAML value for writing (keys keep their order).
    pub fn to_yaml(&self) -> yaml_rust2::Yaml {
        use yaml_rust2::Yaml as Y;
        match &self.value {
            Value::Null => Y::Null,
            Value::Bool(b) => Y::Boolean(*b),
            Value::Int(i) => Y::Integer(*i),
            Value::Float(text) => Y::Real(text.to_string()),
            Value::String(s) => Y::String(s.to_string()),
            Value::Seq(items) => Y::Array(items.iter().map(Node::to_yaml).collect()),
            Value::Map(entries) => Y::Hash(
                entries
                    .iter()
                    .map(|entry| (Y::String(entry.key.to_string()), entry.value.to_yaml()))
                    .collect(),
            ),
        }
    }
}

/// One document of a file, or why it could not be read.
#[derive(Clone, Debug, PartialEq)]
pub struct Document {
    /// The 0-based index of the document in its file.
    pub index: usize,
    /// The line the document starts on.
    pub line: u32,
    pub root: Node,
    /// Keys written twice in one mapping; the tree holds the last value.
    pub duplicate_keys: Vec<DuplicateKey>,
}

/// A key written twice in one mapping. kubectl keeps the last value and
/// sends it alone, so the API server accepts the document; a YAML body sent
/// to the server as it is written is refused by its strict decoding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DuplicateKey {
    /// The path of the key (`spec.template.spec.containers[0].image`).
    pub path: String,
    pub key: String,
    /// The line of the later key, whose value the tree holds.
    pub line: u32,
    /// The line of the first one.
    pub first_line: u32,
}

impl DuplicateKey {
    /// What is wrong, without the path: the key, both lines, the fix.
    pub fn message(&self) -> String {
        format!(
            "duplicate key {:?}, first written on line {}; kubectl keeps only this last value and sends it alone: remove one of the two",
            self.key, self.first_line
        )
    }
}

impl fmt::Display for DuplicateKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.message())
    }
}

/// Why some input is not a document: invalid YAML or JSON, a construct
/// vergate does not read (a mapping used as a key), or a limit exceeded.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct ParseError {
    pub line: u32,
    pub message: String,
}

/// What reading a file gave: the documents read, and the error that stopped
/// reading, if any (the documents before it are still returned).
#[derive(Debug, Default)]
pub struct Parsed {
    pub documents: Vec<Document>,
    pub error: Option<ParseError>,
}

/// Parses YAML (multi-document too) or JSON. Empty documents (a lone `---`)
/// are left out. [`Reader`] gives the documents one at a time instead.
pub fn parse(text: &str) -> Parsed {
    let mut parsed = Parsed::default();
    for result in Reader::new(text) {
        match result {
            Ok(doc) => parsed.documents.push(doc),
            Err(err) => parsed.error = Some(err),
        }
    }
    parsed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_of_keys_and_values() {
        let parsed = parse("a: 1\nb:\n  c: [x, 'y']\n  d: null\n");
        assert!(parsed.error.is_none());
        let root = &parsed.documents[0].root;
        let entries = root.as_map().unwrap();
        assert_eq!(entries[0].key, "a");
        assert_eq!(entries[0].line, 1);
        assert_eq!(entries[0].value.value, Value::Int(1));
        let b = root.get("b").unwrap();
        assert_eq!(b.as_map().unwrap()[0].line, 3);
        assert_eq!(b.as_map().unwrap()[1].line, 4);
        assert_eq!(b.get("d").unwrap().value, Value::Null);
        assert_eq!(b.get("c").unwrap().to_json(), serde_json::json!(["x", "y"]));
    }

    #[test]
    fn multi_document_with_empty_documents_skipped() {
        let parsed = parse("---\na: 1\n---\n---\nb: \"1.10\"\n");
        assert!(parsed.error.is_none());
        assert_eq!(parsed.documents.len(), 2);
        assert_eq!(parsed.documents[1].index, 1);
        assert_eq!(parsed.documents[1].line, 4);
        let b = parsed.documents[1].root.get("b").unwrap();
        assert_eq!(b.as_str(), Some("1.10"));
    }

    #[test]
    fn plain_scalars_follow_yaml_1_1_as_kubectl_reads_them() {
        let parsed =
            parse("[1.10, '1.10', true, ~, 0x1f, -3, 2e3, abc, .inf, yes, off, 017, 1_000]");
        let json = parsed.documents[0].root.to_json();
        assert_eq!(
            json,
            serde_json::json!([
                1.1, "1.10", true, null, 31, -3, 2000.0, "abc", ".inf", true, false, 15, 1000
            ])
        );
    }

    #[test]
    fn json_is_read_with_lines() {
        let parsed = parse("{\n  \"kind\": \"Service\",\n  \"spec\": {\"x\": 1}\n}\n");
        assert!(parsed.error.is_none());
        let root = &parsed.documents[0].root;
        assert_eq!(root.as_map().unwrap()[1].line, 3);
    }

    #[test]
    fn invalid_yaml_keeps_the_documents_before_it() {
        let parsed = parse("a: 1\n---\nb: [1, 2\nc: 3\n");
        assert_eq!(parsed.documents.len(), 1);
        let err = parsed.error.unwrap();
        assert!(err.message.starts_with("invalid YAML"), "{err}");
        assert!(err.line >= 3, "{err}");
    }

    #[test]
    fn aliases_are_expanded() {
        let parsed = parse("a: &x {k: v}\nb: *x\n");
        let root = &parsed.documents[0].root;
        assert_eq!(root.get("b").unwrap().get("k").unwrap().as_str(), Some("v"));
        assert_eq!(root.get("b").unwrap().line, 2);
    }

    #[test]
    fn complex_keys_are_refused() {
        let parsed = parse("? [a, b]\n: 1\n");
        let err = parsed.error.unwrap();
        assert!(err.message.contains("must be a scalar"), "{err}");
    }
}
