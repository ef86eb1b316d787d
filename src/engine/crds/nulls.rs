//! A custom resource's `null`s as the API server decodes them: before it
//! defaults and validates, apiextensions drops every `null` of a property
//! (or map value) whose schema is not `nullable` and has no `default`
//! (apiextensions-apiserver `PruneNonNullableNullsWithoutDefaults`, called
//! by the custom resource handler's schema coercion in every minor vergate
//! knows). So `tls: null` is no `tls` at all: not refused as a wrong type,
//! and a CEL rule's `has(self.tls)` is false. Items of lists are never
//! dropped, and a field no schema describes (under
//! `x-kubernetes-preserve-unknown-fields`) keeps its `null`.
//!
//! Each served version's schema is read once into a small tree of what
//! decides it (`nullable`, `default`, the schemas below); a resource is
//! copied only when it holds such a `null`, so a resource without one
//! costs a scan and no allocation.

use super::Key;
use crate::document::{Node, Value};
use serde_json::Value as Json;
use std::collections::HashMap;
use std::path::PathBuf;
use vergate_codegen::load::Document;

/// The most schema levels read: CRD schemas are far shallower (the YAML
/// reader bounds them); below it nothing is dropped, as if no schema
/// described the value.
const MAX_DEPTH: usize = 64;

/// What one schema node says about the `null`s below it.
#[derive(Debug, Default)]
pub(super) struct Tree {
    /// `nullable: true`, or a `default` (the defaulting lays it on the
    /// `null` later): a `null` here is kept.
    keeps_null: bool,
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
        let mut tree = Tree {
            keeps_null: schema.get("nullable") == Some(&Json::Bool(true))
                || schema.get("default").is_some_and(|value| !value.is_null()),
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

    /// True when a `null` at `key` of an object of this schema is dropped.
    fn drops(&self, key: &str) -> bool {
        self.field(key).is_some_and(|schema| !schema.keeps_null)
    }

    /// True when `node`, a value of this schema, holds a `null` the server
    /// drops.
    fn finds(&self, node: &Node) -> bool {
        match &node.value {
            Value::Map(entries) => entries.iter().any(|entry| {
                let Some(schema) = self.field(&entry.key) else {
                    return false;
                };
                match entry.value.value {
                    Value::Null => !schema.keeps_null,
                    _ => schema.finds(&entry.value),
                }
            }),
            Value::Seq(items) => self
                .items
                .as_deref()
                .is_some_and(|schema| items.iter().any(|item| schema.finds(item))),
            _ => false,
        }
    }

    /// `node` without the `null`s the server drops.
    fn prune(&self, node: &Node) -> Node {
        let value = match &node.value {
            Value::Map(entries) => Value::Map(
                entries
                    .iter()
                    .filter(|entry| !(matches!(entry.value.value, Value::Null) && self.drops(&entry.key)))
                    .map(|entry| {
                        let mut entry = entry.clone();
                        if let Some(schema) = self.field(&entry.key) {
                            entry.value = schema.prune(&entry.value);
                        }
                        entry
                    })
                    .collect(),
            ),
            Value::Seq(items) => match self.items.as_deref() {
                Some(schema) => Value::Seq(items.iter().map(|item| schema.prune(item)).collect()),
                None => node.value.clone(),
            },
            other => other.clone(),
        };
        Node {
            value,
            line: node.line,
        }
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

/// The custom resource `root` without the `null`s the API server drops,
/// when it holds any (`tree`: its served version's).
pub(super) fn pruned(tree: &Tree, root: &Node) -> Option<Node> {
    tree.finds(root).then(|| tree.prune(root))
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
        let keys: Vec<&str> = spec.as_map().unwrap().iter().map(|e| e.key.as_str()).collect();
        // `tls` goes; the nullable `note` and the defaulted `mode` stay.
        assert_eq!(keys, ["note", "mode", "rules", "labels", "free"]);
        let rules = spec.get("rules").unwrap();
        let Value::Seq(items) = &rules.value else { panic!() };
        // An item's null property goes; a null item stays.
        assert!(items[0].as_map().unwrap().is_empty());
        assert_eq!(items[1].value, Value::Null);
        // A map value of a non-nullable schema goes.
        let labels = spec.get("labels").unwrap().as_map().unwrap();
        assert_eq!(labels.len(), 1);
        // What no schema describes keeps its null.
        assert!(spec.get("free").unwrap().get("x").is_some());
        // Lines are kept.
        assert_eq!(spec.get("labels").unwrap().line, root.get("spec").unwrap().get("labels").unwrap().line);
    }

    #[test]
    fn a_resource_without_such_nulls_is_not_copied() {
        let tree = schema();
        assert!(pruned(&tree, &doc("spec:\n  note: null\n  mode: null\n")).is_none());
        assert!(pruned(&tree, &doc("spec:\n  tls: {}\n")).is_none());
        assert!(pruned(&tree, &doc("other: null\n")).is_none());
    }
}
