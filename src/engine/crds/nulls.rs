//! A custom resource's `null`s as the API server decodes and defaults
//! them before it validates (apiextensions-apiserver, the same in every
//! minor vergate knows):
//! - `PruneNonNullableNullsWithoutDefaults`, in the custom resource
//!   handler's schema coercion, drops every `null` of a property (or map
//!   value) whose schema is not `nullable` and has no `default`: `tls:
//!   null` is no `tls` at all, not refused as a wrong type, and a CEL
//!   rule's `has(self.tls)` is false;
//! - the structural defaulting (`Default`) then lays a schema's `default`
//!   on a `null` that is not `nullable`, as on an absent field; for list
//!   items only this (an item without a default keeps its `null`).
//!
//! A field no schema describes (under `x-kubernetes-preserve-unknown-fields`)
//! keeps its `null`. Each served version's schema is read once into a
//! small tree of what decides it (`nullable`, `default`, the schemas
//! below); a resource is copied only when it holds such a `null`, so a
//! resource without one costs a scan and no allocation.

use super::Key;
use crate::cel::schema::defaults::node_of_json;
use crate::document::{Entry, Node, Value};
use serde_json::Value as Json;
use std::collections::HashMap;
use std::path::PathBuf;
use vergate_codegen::load::Document;

/// The most schema levels read: CRD schemas are far shallower (the YAML
/// reader bounds them); below it nothing is dropped, as if no schema
/// described the value.
const MAX_DEPTH: usize = 64;

/// The most bytes of defaults (as JSON text) laid on the `null`s of one
/// resource: a large default and a document of many `null`s could
/// otherwise take memory without bound. Past it a `null` is left as it is
/// (and judged as written).
const MAX_DEFAULT_BYTES: usize = 16 << 20;

/// What one schema node says about a `null` of its value.
#[derive(Debug, Default)]
pub(super) struct Tree {
    /// `nullable: true`: a `null` here is a value, kept.
    nullable: bool,
    /// Its `default` (not `null`) and the bytes of its JSON text: what a
    /// `null` here becomes.
    default: Option<(Json, usize)>,
    /// `properties`, sorted by name.
    properties: Vec<(String, Tree)>,
    /// `items` of an array.
    items: Option<Box<Tree>>,
    /// `additionalProperties` as a schema: the values of a map.
    values: Option<Box<Tree>>,
}

impl Tree {
    /// Reads `schema` (a served version's rewritten `openAPIV3Schema`).
    fn read(schema: &Json, depth: usize) -> Tree {
        let default = schema
            .get("default")
            .filter(|value| !value.is_null())
            .map(|value| (value.clone(), value.to_string().len()));
        let mut tree = Tree {
            nullable: schema.get("nullable") == Some(&Json::Bool(true)),
            default,
            ..Tree::default()
        };
        if depth >= MAX_DEPTH {
            return tree;
        }
        if let Some(Json::Object(members)) = schema.get("properties") {
            tree.properties = members
                .iter()
                .filter(|(_, member)| member.is_object())
                .map(|(name, member)| (name.clone(), Tree::read(member, depth + 1)))
                .collect();
            tree.properties.sort_by(|a, b| a.0.cmp(&b.0));
        }
        let child = |key: &str| {
            schema
                .get(key)
                .filter(|child| child.is_object())
                .map(|child| Box::new(Tree::read(child, depth + 1)))
        };
        tree.items = child("items");
        tree.values = child("additionalProperties");
        tree
    }

    /// The schema of `key` of an object of this schema, if any.
    fn field(&self, key: &str) -> Option<&Tree> {
        match self
            .properties
            .binary_search_by(|(name, _)| name.as_str().cmp(key))
        {
            Ok(index) => Some(&self.properties[index].1),
            Err(_) => self.values.as_deref(),
        }
    }

    /// True when `node`, a value of this schema, holds a `null` the server
    /// drops or defaults.
    fn finds(&self, node: &Node) -> bool {
        match &node.value {
            Value::Map(entries) => entries.iter().any(|entry| {
                self.field(&entry.key)
                    .is_some_and(|schema| match entry.value.value {
                        Value::Null => !schema.nullable,
                        _ => schema.finds(&entry.value),
                    })
            }),
            Value::Seq(items) => self.items.as_deref().is_some_and(|schema| {
                items.iter().any(|item| match item.value {
                    Value::Null => !schema.nullable && schema.default.is_some(),
                    _ => schema.finds(item),
                })
            }),
            _ => false,
        }
    }

    /// `node` with the `null`s the server drops dropped and those it
    /// defaults defaulted, within `budget` bytes of defaults.
    fn prune(&self, node: &Node, budget: &mut usize) -> Node {
        let value = match &node.value {
            Value::Map(entries) => Value::Map(
                entries
                    .iter()
                    .filter_map(|entry| {
                        let Some(schema) = self.field(&entry.key) else {
                            return Some(entry.clone());
                        };
                        let value = match entry.value.value {
                            Value::Null if !schema.nullable => {
                                match schema.defaulted(&entry.value, budget) {
                                    Some(value) => value,
                                    None if schema.default.is_some() => entry.value.clone(),
                                    None => return None,
                                }
                            }
                            _ => schema.prune(&entry.value, budget),
                        };
                        Some(Entry {
                            key: entry.key.clone(),
                            line: entry.line,
                            value,
                        })
                    })
                    .collect(),
            ),
            Value::Seq(items) => match self.items.as_deref() {
                Some(schema) => Value::Seq(
                    items
                        .iter()
                        .map(|item| match item.value {
                            Value::Null if !schema.nullable => schema
                                .defaulted(item, budget)
                                .unwrap_or_else(|| item.clone()),
                            _ => schema.prune(item, budget),
                        })
                        .collect(),
                ),
                None => node.value.clone(),
            },
            other => other.clone(),
        };
        Node {
            value,
            line: node.line,
        }
    }

    /// This schema's default in place of `null` (its line kept), while
    /// `budget` lasts.
    fn defaulted(&self, null: &Node, budget: &mut usize) -> Option<Node> {
        let (default, bytes) = self.default.as_ref()?;
        *budget = budget.checked_sub(*bytes)?;
        Some(node_of_json(default, null.line))
    }
}

/// True when `node` holds a `null` anywhere: the cheap test before a
/// resource's schema is looked up.
pub(super) fn holds_null(node: &Node) -> bool {
    match &node.value {
        Value::Null => true,
        Value::Map(entries) => entries.iter().any(|entry| holds_null(&entry.value)),
        Value::Seq(items) => items.iter().any(holds_null),
        _ => false,
    }
}

/// The tree of each served version of the CRDs in `used`, by group,
/// version and kind.
pub(super) fn trees(used: &[(PathBuf, Document)]) -> HashMap<Key, Tree> {
    let mut trees = HashMap::new();
    for (_, document) in used {
        for crd in &document.crds {
            let reversed: Vec<&str> = crd.group.split('.').rev().collect();
            for version in &crd.served {
                let name = format!("{}.{version}.{}", reversed.join("."), crd.kind);
                let Some(schema) = document
                    .root
                    .get("definitions")
                    .and_then(|definitions| definitions.get(&name))
                else {
                    continue;
                };
                let key = (crd.group.clone(), version.clone(), crd.kind.clone());
                trees.insert(key, Tree::read(schema, 0));
            }
        }
    }
    trees
}

/// The custom resource `root` without the `null`s the API server drops
/// and with those it defaults defaulted, when it holds any (`tree`: its
/// served version's).
pub(super) fn pruned(tree: &Tree, root: &Node) -> Option<Node> {
    let mut budget = MAX_DEFAULT_BYTES;
    tree.finds(root).then(|| tree.prune(root, &mut budget))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn doc(yaml: &str) -> Node {
        crate::document::Reader::new(yaml)
            .next()
            .unwrap()
            .unwrap()
            .root
    }

    fn schema() -> Tree {
        Tree::read(
            &json!({
                "type": "object",
                "properties": {
                    "spec": {
                        "type": "object",
                        "properties": {
                            "tls": {"type": "object"},
                            "note": {"type": "string", "nullable": true},
                            "mode": {"type": "string", "default": "Auto"},
                            "rules": {"type": "array", "items": {
                                "type": "object",
                                "properties": {"path": {"type": "string"}}
                            }},
                            "labels": {"type": "object", "additionalProperties": {"type": "string"}},
                            "free": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}
                        }
                    }
                }
            }),
            0,
        )
    }

    #[test]
    fn non_nullable_nulls_without_a_default_are_dropped() {
        let tree = schema();
        let root = doc("spec:\n  tls: null\n  note: null\n  mode: null\n  rules:\n  - path: null\n  - null\n  labels: {a: null, b: x}\n  free: {x: null}\n");
        let pruned = pruned(&tree, &root).expect("nulls to drop");
        let spec = pruned.get("spec").unwrap();
        let keys: Vec<&str> = spec
            .as_map()
            .unwrap()
            .iter()
            .map(|e| e.key.as_str())
            .collect();
        // `tls` goes; the nullable `note` stays, the defaulted `mode` gets
        // its default.
        assert_eq!(keys, ["note", "mode", "rules", "labels", "free"]);
        assert_eq!(spec.get("note").unwrap().value, Value::Null);
        assert_eq!(spec.get("mode").unwrap().as_str(), Some("Auto"));
        let rules = spec.get("rules").unwrap();
        let Value::Seq(items) = &rules.value else {
            panic!()
        };
        // An item's null property goes; a null item stays.
        assert!(items[0].as_map().unwrap().is_empty());
        assert_eq!(items[1].value, Value::Null);
        // A map value of a non-nullable schema goes.
        let labels = spec.get("labels").unwrap().as_map().unwrap();
        assert_eq!(labels.len(), 1);
        // What no schema describes keeps its null.
        assert!(spec.get("free").unwrap().get("x").is_some());
        // Lines are kept.
        assert_eq!(
            spec.get("labels").unwrap().line,
            root.get("spec").unwrap().get("labels").unwrap().line
        );
    }

    #[test]
    fn a_resource_without_such_nulls_is_not_copied() {
        let tree = schema();
        assert!(pruned(&tree, &doc("spec:\n  note: null\n  rules: [null]\n")).is_none());
        assert!(pruned(&tree, &doc("spec:\n  tls: {}\n")).is_none());
        assert!(pruned(&tree, &doc("other: null\n")).is_none());
    }

    #[test]
    fn a_null_item_gets_its_default_within_the_bound() {
        let tree = Tree::read(
            &json!({"type": "object", "properties": {"ports": {
                "type": "array", "items": {"type": "integer", "default": 80}
            }}}),
            0,
        );
        let root = doc("ports: [null, 443]\n");
        let ports = pruned(&tree, &root).unwrap();
        let Value::Seq(items) = &ports.get("ports").unwrap().value else {
            panic!()
        };
        assert_eq!(items[0].value, Value::Int(80));
        assert_eq!(items[1].value, Value::Int(443));
        // Past the bound, a null stays as written.
        let mut budget = 1;
        let kept = tree.prune(&root, &mut budget);
        assert_eq!(kept, root);
    }
}
