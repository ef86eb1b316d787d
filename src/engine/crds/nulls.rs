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
//! keeps its `null`. What decides it (`nullable`, `default`, the schemas
//! below) is read from the served version's one schema tree
//! ([`SchemaNode`], its one depth bound: below it nothing is dropped, as
//! if no schema described the value; `status` under the status
//! subresource is not in it, and is reset on create anyway); a resource
//! is copied only when it holds such a `null`, so a resource without one
//! costs a scan and no allocation.

use crate::cel::schema::defaults::node_of_json;
use crate::cel::SchemaNode;
use crate::document::{Entry, Node, Value};

/// The most bytes of defaults (as JSON text) laid on the `null`s of one
/// resource: a large default and a document of many `null`s could
/// otherwise take memory without bound. Past it a `null` is left as it is
/// (and judged as written).
const MAX_DEFAULT_BYTES: usize = 16 << 20;

/// The schema of `key` of an object of schema `tree`, if any.
fn field<'t>(tree: &'t SchemaNode, key: &str) -> Option<&'t SchemaNode> {
    match tree.properties.get(key) {
        Some(property) => Some(property),
        None => tree.values.as_deref(),
    }
}

/// The default a `null` of `tree` becomes (not `null` itself).
fn default_of(tree: &SchemaNode) -> Option<&serde_json::Value> {
    tree.default.as_ref().filter(|value| !value.is_null())
}

/// True when `node`, a value of schema `tree`, holds a `null` the server
/// drops or defaults.
fn finds(tree: &SchemaNode, node: &Node) -> bool {
    match &node.value {
        Value::Map(entries) => entries.iter().any(|entry| {
            field(tree, &entry.key).is_some_and(|schema| match entry.value.value {
                Value::Null => !schema.nullable,
                _ => finds(schema, &entry.value),
            })
        }),
        Value::Seq(items) => tree.items.as_deref().is_some_and(|schema| {
            items.iter().any(|item| match item.value {
                Value::Null => !schema.nullable && default_of(schema).is_some(),
                _ => finds(schema, item),
            })
        }),
        _ => false,
    }
}

/// `node` with the `null`s the server drops dropped and those it
/// defaults defaulted, within `budget` bytes of defaults.
fn prune(tree: &SchemaNode, node: &Node, budget: &mut usize) -> Node {
    let value = match &node.value {
        Value::Map(entries) => Value::Map(
            entries
                .iter()
                .filter_map(|entry| {
                    let Some(schema) = field(tree, &entry.key) else {
                        return Some(entry.clone());
                    };
                    let value = match entry.value.value {
                        Value::Null if !schema.nullable => {
                            match defaulted(schema, &entry.value, budget) {
                                Some(value) => value,
                                None if default_of(schema).is_some() => entry.value.clone(),
                                None => return None,
                            }
                        }
                        _ => prune(schema, &entry.value, budget),
                    };
                    Some(Entry {
                        key: entry.key.clone(),
                        line: entry.line,
                        value,
                    })
                })
                .collect(),
        ),
        Value::Seq(items) => match tree.items.as_deref() {
            Some(schema) => Value::Seq(
                items
                    .iter()
                    .map(|item| match item.value {
                        Value::Null if !schema.nullable => {
                            defaulted(schema, item, budget).unwrap_or_else(|| item.clone())
                        }
                        _ => prune(schema, item, budget),
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

/// The default of `tree` in place of `null` (its line kept), while
/// `budget` lasts.
fn defaulted(tree: &SchemaNode, null: &Node, budget: &mut usize) -> Option<Node> {
    let default = default_of(tree)?;
    *budget = budget.checked_sub(tree.default_bytes)?;
    Some(node_of_json(default, null.line))
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

/// The custom resource `root` without the `null`s the API server drops
/// and with those it defaults defaulted, when it holds any (`tree`: its
/// served version's).
pub(super) fn pruned(tree: &SchemaNode, root: &Node) -> Option<Node> {
    let mut budget = MAX_DEFAULT_BYTES;
    finds(tree, root).then(|| prune(tree, root, &mut budget))
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

    fn read(schema: serde_json::Value) -> SchemaNode {
        crate::cel::ServedSchema::read(&schema, String::new()).tree
    }

    fn schema() -> SchemaNode {
        read(json!({
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
        }))
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
        let tree = read(json!({"type": "object", "properties": {"ports": {
            "type": "array", "items": {"type": "integer", "default": 80}
        }}}));
        let root = doc("ports: [null, 443]\n");
        let ports = pruned(&tree, &root).unwrap();
        let Value::Seq(items) = &ports.get("ports").unwrap().value else {
            panic!()
        };
        assert_eq!(items[0].value, Value::Int(80));
        assert_eq!(items[1].value, Value::Int(443));
        // Past the bound, a null stays as written.
        let mut budget = 1;
        let kept = prune(&tree, &root, &mut budget);
        assert_eq!(kept, root);
    }
}
