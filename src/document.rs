//! Documents read from YAML or JSON, every node with the line it starts on.
//!
//! Preflight and upgrade report places by line, so documents are parsed into
//! a small tree of their own ([`Node`]) rather than `serde_json::Value`. JSON
//! is read by the same YAML parser (JSON is YAML), so it gets lines too.

use std::collections::HashMap;
use std::fmt;
use yaml_rust2::parser::{Event, MarkedEventReceiver, Parser, Tag};
use yaml_rust2::scanner::{Marker, TScalarStyle};

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
    Float(String),
    String(String),
    Seq(Vec<Node>),
    Map(Vec<Entry>),
}

/// One key of a map, the line the key is on, and its value.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub key: String,
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
                .map_or_else(|| J::String(text.clone()), J::Number),
            Value::String(s) => J::String(s.clone()),
            Value::Seq(items) => J::Array(items.iter().map(Node::to_json).collect()),
            Value::Map(entries) => J::Object(
                entries
                    .iter()
                    .map(|entry| (entry.key.clone(), entry.value.to_json()))
                    .collect(),
            ),
        }
    }

    /// The node as a YAML value for writing (keys keep their order).
    pub fn to_yaml(&self) -> yaml_rust2::Yaml {
        use yaml_rust2::Yaml as Y;
        match &self.value {
            Value::Null => Y::Null,
            Value::Bool(b) => Y::Boolean(*b),
            Value::Int(i) => Y::Integer(*i),
            Value::Float(text) => Y::Real(text.clone()),
            Value::String(s) => Y::String(s.clone()),
            Value::Seq(items) => Y::Array(items.iter().map(Node::to_yaml).collect()),
            Value::Map(entries) => Y::Hash(
                entries
                    .iter()
                    .map(|entry| (Y::String(entry.key.clone()), entry.value.to_yaml()))
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
}

/// Why some input is not a document: invalid YAML, or a construct vergate
/// does not read (a mapping used as a key).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub line: u32,
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for ParseError {}

/// What reading a file gave: the documents read, and the error that stopped
/// reading, if any (the documents before it are still returned).
#[derive(Debug, Default)]
pub struct Parsed {
    pub documents: Vec<Document>,
    pub error: Option<ParseError>,
}

/// Parses YAML (multi-document too) or JSON. Empty documents (a lone `---`)
/// are left out.
pub fn parse(text: &str) -> Parsed {
    let mut builder = Builder::default();
    let mut parser = Parser::new_from_str(text);
    let result = parser.load(&mut builder, true);
    let mut parsed = Parsed {
        documents: builder.documents,
        error: builder.error,
    };
    if parsed.error.is_none() {
        if let Err(err) = result {
            parsed.error = Some(ParseError {
                line: u32::try_from(err.marker().line()).unwrap_or(u32::MAX),
                message: format!("invalid YAML: {}", err.info()),
            });
        }
    }
    parsed
        .documents
        .retain(|doc| !matches!(doc.root.value, Value::Null));
    for (index, doc) in parsed.documents.iter_mut().enumerate() {
        doc.index = index;
    }
    parsed
}

/// Builds [`Node`] trees from parser events.
#[derive(Default)]
struct Builder {
    documents: Vec<Document>,
    error: Option<ParseError>,
    /// Open collections: the node and, for maps, a pending key.
    stack: Vec<Open>,
    anchors: HashMap<usize, Node>,
    document_line: u32,
}

struct Open {
    node: Node,
    anchor: usize,
    pending_key: Option<(String, u32)>,
}

impl Builder {
    fn fail(&mut self, line: u32, message: String) {
        if self.error.is_none() {
            self.error = Some(ParseError { line, message });
        }
    }

    /// Places a finished node into its parent (or finishes the document).
    fn push(&mut self, node: Node, anchor: usize) {
        if anchor != 0 {
            self.anchors.insert(anchor, node.clone());
        }
        let Some(parent) = self.stack.last_mut() else {
            self.documents.push(Document {
                index: 0,
                line: self.document_line,
                root: node,
            });
            return;
        };
        match &mut parent.node.value {
            Value::Seq(items) => items.push(node),
            Value::Map(entries) => match parent.pending_key.take() {
                Some((key, line)) => entries.push(Entry {
                    key,
                    line,
                    value: node,
                }),
                None => {
                    let line = node.line;
                    let describe = node.describe();
                    match key_text(node.value) {
                        Some(key) => parent.pending_key = Some((key, line)),
                        None => {
                            parent.pending_key = Some((String::new(), line));
                            self.fail(
                                line,
                                format!("a mapping key must be a scalar, found {describe}"),
                            );
                        }
                    }
                }
            },
            _ => unreachable!("only collections are open"),
        }
    }
}

/// A scalar as a mapping key (moved, not copied); `None` for collections.
fn key_text(value: Value) -> Option<String> {
    match value {
        Value::Null => Some(String::new()),
        Value::Bool(b) => Some(b.to_string()),
        Value::Int(i) => Some(i.to_string()),
        Value::Float(text) | Value::String(text) => Some(text),
        Value::Seq(_) | Value::Map(_) => None,
    }
}

impl MarkedEventReceiver for Builder {
    fn on_event(&mut self, event: Event, mark: Marker) {
        let line = u32::try_from(mark.line()).unwrap_or(u32::MAX);
        match event {
            Event::DocumentStart => {
                self.document_line = line;
                self.anchors.clear();
            }
            Event::Scalar(text, style, anchor, tag) => {
                let node = Node {
                    value: scalar(text, style, tag.as_ref()),
                    line,
                };
                self.push(node, anchor);
            }
            Event::SequenceStart(anchor, _) => self.stack.push(Open {
                node: Node {
                    value: Value::Seq(Vec::new()),
                    line,
                },
                anchor,
                pending_key: None,
            }),
            Event::MappingStart(anchor, _) => self.stack.push(Open {
                node: Node {
                    value: Value::Map(Vec::new()),
                    line,
                },
                anchor,
                pending_key: None,
            }),
            Event::SequenceEnd | Event::MappingEnd => {
                if let Some(open) = self.stack.pop() {
                    self.push(open.node, open.anchor);
                }
            }
            Event::Alias(anchor) => {
                let node = match self.anchors.get(&anchor) {
                    Some(node) => Node {
                        value: node.value.clone(),
                        line,
                    },
                    None => {
                        self.fail(line, "an alias refers to an unknown anchor".into());
                        Node {
                            value: Value::Null,
                            line,
                        }
                    }
                };
                self.push(node, 0);
            }
            Event::Nothing | Event::StreamStart | Event::StreamEnd | Event::DocumentEnd => {}
        }
    }
}

/// Resolves a scalar by the YAML 1.2 core schema (quoted scalars and explicit
/// `!!str` stay strings).
fn scalar(text: String, style: TScalarStyle, tag: Option<&Tag>) -> Value {
    if style != TScalarStyle::Plain || tag.is_some_and(|tag| tag.suffix == "str") {
        return Value::String(text);
    }
    match text.as_str() {
        "" | "~" | "null" | "Null" | "NULL" => return Value::Null,
        "true" | "True" | "TRUE" => return Value::Bool(true),
        "false" | "False" | "FALSE" => return Value::Bool(false),
        _ => {}
    }
    if let Some(int) = parse_int(&text) {
        return Value::Int(int);
    }
    if looks_like_float(&text) {
        return Value::Float(text);
    }
    Value::String(text)
}

fn parse_int(text: &str) -> Option<i64> {
    let first = *text.as_bytes().first()?;
    if !(first.is_ascii_digit() || first == b'-' || first == b'+') {
        return None;
    }
    if let Some(hex) = text.strip_prefix("0x") {
        return i64::from_str_radix(hex, 16).ok();
    }
    if let Some(oct) = text.strip_prefix("0o") {
        return i64::from_str_radix(oct, 8).ok();
    }
    text.parse().ok()
}

fn looks_like_float(text: &str) -> bool {
    matches!(
        text,
        ".inf" | ".Inf" | ".INF" | "+.inf" | "-.inf" | "-.Inf" | "-.INF" | ".nan" | ".NaN" | ".NAN"
    ) || (text.bytes().any(|b| b.is_ascii_digit())
        && text
            .bytes()
            .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'-' | b'+'))
        && text.parse::<f64>().is_ok())
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
    fn plain_scalars_follow_the_core_schema() {
        let parsed = parse("[1.10, '1.10', true, ~, 0x1f, -3, 2e3, abc, .inf]");
        let json = parsed.documents[0].root.to_json();
        assert_eq!(
            json,
            serde_json::json!([1.1, "1.10", true, null, 31, -3, 2000.0, "abc", ".inf"])
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
