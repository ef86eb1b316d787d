//! A custom resource defaulted once, as the API server defaults it before
//! it validates (apiextensions-apiserver's structural defaulting): a
//! property missing from an object gets its schema's `default`, and the
//! value is then defaulted in turn (a default's own properties included);
//! objects, list items and map values likewise. The rules and the
//! junctors read the one defaulted value.
//!
//! Bounded: the tree it follows is ([`super::MAX_DEPTH`]), and so are the
//! bytes of defaults laid on one resource ([`MAX_DEFAULT_BYTES`]).

use super::SchemaNode;
use crate::document::{Entry, Node, Value as Doc};
use crate::preflight::{Deviation, Rule, Violation};
use serde_json::Value as Json;
use std::borrow::Cow;

/// The most bytes of defaults (as JSON text) laid on one resource: a CRD
/// with large defaults and a document with many items could otherwise
/// take memory without bound.
pub const MAX_DEFAULT_BYTES: usize = 64 << 20;

/// A resource with its schema's defaults laid.
pub struct Defaulted<'a> {
    /// The resource itself when nothing was missing.
    pub root: Cow<'a, Node>,
    /// Set when [`MAX_DEFAULT_BYTES`] ran out: the schema path of the
    /// node whose default was not laid, and the value's path. The value
    /// is then defaulted in part, and nothing reading it gives a verdict.
    pub cut: Option<Cut>,
}

/// Where the defaults' bound was reached: the object a default was not
/// laid in.
#[derive(Clone, Debug)]
pub struct Cut {
    /// The value's path (`spec.items[3]`).
    pub path: String,
    /// Its schema's path (`openAPIV3Schema.properties.spec.properties.items.items`).
    pub schema: String,
}

impl Cut {
    /// What the cut leaves unchecked, as a warning of `rule` at the
    /// object's line in `root` (`what`: the rules or the junctors; `crd`:
    /// the CRD version).
    pub fn violation(&self, rule: Rule, what: &str, crd: &str, root: &Node) -> Violation {
        let message = format!(
            "{what} were not all checked: they would lay more than {} MiB of defaults on this document at {} ({crd})",
            MAX_DEFAULT_BYTES >> 20,
            self.schema
        );
        let line = super::line::line_of(root, "", &self.path).unwrap_or(root.line);
        Violation::new(rule, self.path.clone(), line, message).deviating(Deviation::NotChecked)
    }
}

/// The resource `root` defaulted ahead, when its defaults pass
/// [`MAX_DEFAULT_BYTES`]: laid up to the bound, with the cut that leaves
/// the junctors and the rules alike without a verdict. `None` otherwise
/// (counted first, nothing laid): the rules lay the defaults they reach
/// as they convert the resource to CEL values (`cel::value`,
/// `cel::evaluate`) and the junctors the defaults of each value they read
/// ([`apply_at`]), so no resource is copied whole, and what they lay is
/// within the bound.
pub fn ahead<'a>(tree: &SchemaNode, root: &'a Node) -> Option<Defaulted<'a>> {
    if !tree.defaults_below || bytes_to_lay(tree, root, true) <= MAX_DEFAULT_BYTES {
        return None;
    }
    Some(apply(tree, root))
}

/// The bytes of defaults [`apply`] lays on `node` under `tree`
/// (saturating): what each missing default costs with the defaults laid
/// inside it ([`SchemaNode::laid_bytes`]); 0 when nothing is missing.
pub fn bytes_to_lay(tree: &SchemaNode, node: &Node, is_root: bool) -> usize {
    if !tree.defaults_below {
        return 0;
    }
    let mut bytes = 0usize;
    match &node.value {
        Doc::Map(entries) => {
            for (name, property) in &tree.properties {
                if is_root && name == "metadata" {
                    continue;
                }
                let laid = match entries.iter().find(|entry| entry.key == name.as_str()) {
                    Some(entry) => bytes_to_lay(property, &entry.value, false),
                    None if property.default.is_some() => property.laid_bytes,
                    None => 0,
                };
                bytes = bytes.saturating_add(laid);
            }
            if let Some(values) = tree.values.as_deref().filter(|v| v.defaults_below) {
                for entry in entries {
                    if !tree.properties.contains_key(entry.key.as_str()) {
                        bytes = bytes.saturating_add(bytes_to_lay(values, &entry.value, false));
                    }
                }
            }
        }
        Doc::Seq(items) => {
            if let Some(inner) = tree.items.as_deref() {
                for item in items {
                    bytes = bytes.saturating_add(bytes_to_lay(inner, item, false));
                }
            }
        }
        _ => {}
    }
    bytes
}

/// `root` with the defaults of `tree` laid (the root's `metadata` is
/// ObjectMeta's, which a CRD does not default). The lines of a value laid
/// are those of the object it was laid in.
pub fn apply<'a>(tree: &SchemaNode, root: &'a Node) -> Defaulted<'a> {
    apply_at(tree, root, root.line, true)
}

/// `node` with the defaults of `tree` laid, as [`apply`] lays them on a
/// resource (`line`: the line values laid in `node` take; `is_root`: the
/// resource itself, whose `metadata` is left alone). Copied only when a
/// default is missing; the junctors default each value they read so.
pub fn apply_at<'a>(tree: &SchemaNode, node: &'a Node, line: u32, is_root: bool) -> Defaulted<'a> {
    if !tree.defaults_below || !missing(tree, node, is_root) {
        return Defaulted {
            root: Cow::Borrowed(node),
            cut: None,
        };
    }
    let mut owned = node.clone();
    let mut laying = Laying {
        left: MAX_DEFAULT_BYTES,
        path: String::new(),
        trail: Vec::new(),
        cut: None,
    };
    laying.node(tree, &mut owned, line, is_root);
    Defaulted {
        root: Cow::Owned(owned),
        cut: laying.cut,
    }
}

/// True when a default of `tree` is missing in `node` or below: the
/// resource is copied only then.
fn missing(tree: &SchemaNode, node: &Node, is_root: bool) -> bool {
    if !tree.defaults_below {
        return false;
    }
    match &node.value {
        Doc::Map(entries) => {
            for (name, property) in &tree.properties {
                if is_root && name == "metadata" {
                    continue;
                }
                match entries.iter().find(|entry| entry.key == name.as_str()) {
                    Some(entry) if missing(property, &entry.value, false) => return true,
                    Some(_) => {}
                    None if property.default.is_some() => return true,
                    None => {}
                }
            }
            match tree.values.as_deref() {
                Some(values) if values.defaults_below => entries.iter().any(|entry| {
                    !tree.properties.contains_key(entry.key.as_str())
                        && missing(values, &entry.value, false)
                }),
                _ => false,
            }
        }
        Doc::Seq(items) => tree
            .items
            .as_deref()
            .is_some_and(|inner| items.iter().any(|item| missing(inner, item, false))),
        _ => false,
    }
}

struct Laying<'t> {
    /// Bytes of defaults still to be laid.
    left: usize,
    /// The path of the value being defaulted.
    path: String,
    /// The schema path of its node.
    trail: Vec<&'t str>,
    cut: Option<Cut>,
}

impl<'t> Laying<'t> {
    /// Lays the defaults of `tree` in `node` (at `line`, the line values
    /// laid in it take); false once the bytes ran out.
    fn node(&mut self, tree: &'t SchemaNode, node: &mut Node, line: u32, is_root: bool) -> bool {
        if !tree.defaults_below {
            return true;
        }
        match &mut node.value {
            Doc::Map(entries) => {
                for (name, property) in &tree.properties {
                    if is_root && name == "metadata" {
                        continue;
                    }
                    let at = entries.iter().position(|entry| entry.key == name.as_str());
                    let done = match (at, &property.default) {
                        (Some(at), _) => {
                            let entry = &mut entries[at];
                            self.inside(&["properties", name.as_str()], name, |laying| {
                                laying.node(property, &mut entry.value, entry.line, false)
                            })
                        }
                        (None, Some(default)) => {
                            match self.left.checked_sub(property.default_bytes) {
                                Some(left) => {
                                    self.left = left;
                                    let mut value = node_of_json(default, line);
                                    let done = self.inside(
                                        &["properties", name.as_str()],
                                        name,
                                        |laying| laying.node(property, &mut value, line, false),
                                    );
                                    entries.push(Entry {
                                        key: name.as_str().into(),
                                        line,
                                        value,
                                    });
                                    done
                                }
                                None => {
                                    self.cut = Some(Cut {
                                        path: self.path.clone(),
                                        schema: self.schema_path(),
                                    });
                                    false
                                }
                            }
                        }
                        (None, None) => true,
                    };
                    if !done {
                        return false;
                    }
                }
                if let Some(values) = tree.values.as_deref().filter(|v| v.defaults_below) {
                    for entry in entries.iter_mut() {
                        if tree.properties.contains_key(entry.key.as_str()) {
                            continue;
                        }
                        let Entry { key, line, value } = entry;
                        let done = self.inside(&["additionalProperties"], key, |laying| {
                            laying.node(values, value, *line, false)
                        });
                        if !done {
                            return false;
                        }
                    }
                }
            }
            Doc::Seq(items) => {
                if let Some(inner) = tree.items.as_deref() {
                    for (index, item) in items.iter_mut().enumerate() {
                        let before = self.path.len();
                        self.path.push_str(&format!("[{index}]"));
                        self.trail.push("items");
                        let line = item.line;
                        let done = self.node(inner, item, line, false);
                        self.trail.pop();
                        self.path.truncate(before);
                        if !done {
                            return false;
                        }
                    }
                }
            }
            _ => {}
        }
        true
    }

    /// Runs `lay` one step inside: the schema `steps`, the value's `key`.
    fn inside(
        &mut self,
        steps: &[&'t str],
        key: &str,
        lay: impl FnOnce(&mut Self) -> bool,
    ) -> bool {
        let (before, depth) = (self.path.len(), self.trail.len());
        if !self.path.is_empty() {
            self.path.push('.');
        }
        self.path.push_str(key);
        self.trail.extend(steps);
        let done = lay(self);
        self.trail.truncate(depth);
        self.path.truncate(before);
        done
    }

    /// `openAPIV3Schema.properties.spec`.
    fn schema_path(&self) -> String {
        let mut path = String::from("openAPIV3Schema");
        for step in &self.trail {
            path.push('.');
            path.push_str(step);
        }
        path
    }
}

/// A JSON value (a default) as a document node on `line`: the one
/// conversion from a schema's JSON to the document's values.
pub fn node_of_json(json: &Json, line: u32) -> Node {
    let value = match json {
        Json::Null => Doc::Null,
        Json::Bool(flag) => Doc::Bool(*flag),
        Json::Number(number) => match number.as_i64() {
            Some(integer) => Doc::Int(integer),
            None => Doc::Float(number.to_string().into()),
        },
        Json::String(text) => Doc::String(text.as_str().into()),
        Json::Array(items) => Doc::Seq(items.iter().map(|item| node_of_json(item, line)).collect()),
        Json::Object(members) => Doc::Map(
            members
                .iter()
                .map(|(key, value)| Entry {
                    key: key.as_str().into(),
                    line,
                    value: node_of_json(value, line),
                })
                .collect(),
        ),
    };
    Node { value, line }
}

#[cfg(test)]
mod tests {
    use super::super::ServedSchema;
    use super::*;
    use serde_json::json;

    fn tree(schema: Json) -> ServedSchema {
        ServedSchema::read(&schema, "crd.yaml".to_owned())
    }

    #[test]
    fn defaults_are_laid_once_in_turn_at_their_objects_line() {
        let served = tree(json!({"type": "object", "properties": {
            "metadata": {"type": "object", "properties": {"name": {"type": "string", "default": "n"}}},
            "spec": {"type": "object", "properties": {
                "a": {"type": "object", "default": {}, "properties": {
                    "b": {"type": "integer", "default": 3}
                }},
                "items": {"type": "array", "items": {"type": "object", "properties": {
                    "c": {"type": "string", "default": "x"}
                }}}
            }}
        }}));
        let parsed = crate::document::parse("metadata: {}\nspec:\n  items:\n  - {}\n  - {c: z}\n");
        let root = &parsed.documents[0].root;
        let defaulted = apply(&served.tree, root);
        assert!(defaulted.cut.is_none());
        let laid = defaulted.root.to_json();
        assert_eq!(
            laid,
            json!({"metadata": {}, "spec": {"items": [{"c": "x"}, {"c": "z"}], "a": {"b": 3}}})
        );
        let spec = defaulted.root.get("spec").expect("spec");
        assert_eq!(spec.get("a").expect("a").line, 2);
        let Some(Doc::Seq(items)) = spec.get("items").map(|items| &items.value) else {
            panic!("items");
        };
        assert_eq!(items[0].get("c").expect("c").line, 4);
    }

    #[test]
    fn the_bytes_to_lay_count_the_defaults_laid_inside_defaults() {
        let served = tree(json!({"type": "object", "properties": {
            "a": {"type": "object", "default": {}, "properties": {
                "b": {"type": "integer", "default": 300}
            }},
            "m": {"type": "object", "additionalProperties": {"type": "object", "properties": {
                "c": {"type": "string", "default": "xy"}
            }}}
        }}));
        // `{}` (2) and `300` (3) for a; `"xy"` (4) for each entry of m
        // that lacks c.
        let parsed = crate::document::parse("m: {p: {}, q: {c: z}, r: {}}\n");
        assert_eq!(
            bytes_to_lay(&served.tree, &parsed.documents[0].root, true),
            13
        );
        let parsed = crate::document::parse("a: {b: 1}\nm: {}\n");
        assert_eq!(
            bytes_to_lay(&served.tree, &parsed.documents[0].root, true),
            0
        );
    }

    #[test]
    fn only_the_bound_defaults_a_resource_ahead() {
        let rules_only = tree(json!({"type": "object", "properties": {
            "a": {"type": "string", "default": "x"}
        }, "x-kubernetes-validations": [{"rule": "self.a == 'x'"}]}));
        let parsed = crate::document::parse("{}\n");
        let root = &parsed.documents[0].root;
        assert!(ahead(&rules_only.tree, root).is_none());
        let with_junctors = tree(json!({"type": "object", "properties": {
            "a": {"type": "string", "default": "x"}
        }, "x-vergate-value-validations": {"anyOf": [{"required": ["a"]}]}}));
        assert!(ahead(&with_junctors.tree, root).is_none());
        let defaulted = apply_at(&with_junctors.tree, root, root.line, true);
        assert_eq!(defaulted.root.to_json(), json!({"a": "x"}));
    }

    #[test]
    fn a_resource_missing_no_default_is_not_copied() {
        let served = tree(json!({"type": "object", "properties": {
            "a": {"type": "string", "default": "x"}
        }}));
        let parsed = crate::document::parse("a: y\n");
        let defaulted = apply(&served.tree, &parsed.documents[0].root);
        assert!(matches!(defaulted.root, Cow::Borrowed(_)));
    }

    #[test]
    fn defaults_past_the_bytes_bound_are_cut_where_they_were_laid() {
        let big = "x".repeat(1 << 20);
        let served = tree(json!({"type": "object", "properties": {"items": {
            "type": "array",
            "items": {"type": "object", "properties": {"a": {"type": "string", "default": big}}}
        }}}));
        let yaml = format!("items:\n{}", "- {}\n".repeat(100));
        let parsed = crate::document::parse(&yaml);
        let root = &parsed.documents[0].root;
        assert!(bytes_to_lay(&served.tree, root, true) > MAX_DEFAULT_BYTES);
        let defaulted = ahead(&served.tree, root).expect("past the bound: laid ahead");
        let cut = defaulted.cut.expect("cut");
        assert_eq!(cut.path, "items[63]");
        assert_eq!(cut.schema, "openAPIV3Schema.properties.items.items");
    }
}
