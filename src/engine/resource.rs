//! Which resource a finding is about: its kind and `namespace/name`, as
//! kubectl names it (`Deployment shop/checkout`).

use crate::document::{CompactString, Node, Value};
use serde::Serialize;
use std::fmt;

/// A resource by kind, namespace and name (from `metadata`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Resource {
    pub kind: CompactString,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub namespace: Option<CompactString>,
    /// `metadata.name`, or `metadata.generateName` followed by `*`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<CompactString>,
}

impl Resource {
    /// The resource a document (or a `List` item) describes.
    pub fn of(root: &Node) -> Resource {
        let text = |node: Option<&Node>| node.and_then(Node::as_str).map(CompactString::new);
        let metadata = root.get("metadata");
        let name = text(metadata.and_then(|m| m.get("name"))).or_else(|| {
            text(metadata.and_then(|m| m.get("generateName"))).map(|mut prefix| {
                prefix.push('*');
                prefix
            })
        });
        Resource {
            kind: text(root.get("kind")).unwrap_or_default(),
            namespace: text(metadata.and_then(|m| m.get("namespace"))),
            name,
        }
    }

    /// The resource a violation at `path` is about: the item of a `List`
    /// when the path starts with `items[i]`, else the document's.
    pub fn at(root: &Node, path: &str) -> Resource {
        match (list_items(root), item_at(root, path)) {
            (Some(items), Some(index)) => Resource::of(&items[index]),
            _ => Resource::of(root),
        }
    }

    /// The index among [`Resource::all`] of the resource a violation at
    /// `path` is about.
    pub fn index_at(root: &Node, path: &str) -> usize {
        item_at(root, path).unwrap_or(0)
    }

    /// The `List` item a violation at `path` is about (`items[3].spec` →
    /// 3), `None` for the document as a whole.
    pub fn item_at(root: &Node, path: &str) -> Option<usize> {
        item_at(root, path)
    }

    /// The resource of `item` of a `List` ([`Resource::item_at`]), or the
    /// document's.
    pub fn of_item(root: &Node, item: Option<usize>) -> Resource {
        match (list_items(root), item) {
            (Some(items), Some(index)) if index < items.len() => Resource::of(&items[index]),
            _ => Resource::of(root),
        }
    }

    /// The resources a document holds: a `List`'s items, or the document
    /// (also for an empty `List`), each with its first line.
    pub fn all(root: &Node) -> Vec<(u32, Resource)> {
        match list_items(root) {
            Some(items) => items
                .iter()
                .map(|item| (item.line, Resource::of(item)))
                .collect(),
            None => vec![(root.line, Resource::of(root))],
        }
    }
}

/// The index of the `List` item a path is below (`items[3].spec` → 3).
fn item_at(root: &Node, path: &str) -> Option<usize> {
    let items = list_items(root)?;
    path.strip_prefix("items[")
        .and_then(|rest| rest.split_once(']'))
        .and_then(|(index, _)| index.parse::<usize>().ok())
        .filter(|index| *index < items.len())
}

/// The items of a non-empty `v1` `List` (what `kubectl get -o yaml`
/// prints), which preflight checks one by one.
fn list_items(root: &Node) -> Option<&[Node]> {
    if root.get("kind").and_then(Node::as_str) != Some("List") {
        return None;
    }
    match root.get("items").map(|node| &node.value) {
        Some(Value::Seq(items)) if !items.is_empty() => Some(items),
        _ => None,
    }
}

/// `Deployment shop/checkout`, `Namespace shop`, or the kind alone.
impl fmt::Display for Resource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = if self.kind.is_empty() {
            "(no kind)"
        } else {
            &self.kind
        };
        match (&self.namespace, &self.name) {
            (Some(namespace), Some(name)) => write!(f, "{kind} {namespace}/{name}"),
            (None, Some(name)) => write!(f, "{kind} {name}"),
            (Some(namespace), None) => write!(f, "{kind} {namespace}/(unnamed)"),
            (None, None) => f.write_str(kind),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(text: &str) -> Node {
        crate::document::Reader::new(text)
            .next()
            .unwrap()
            .unwrap()
            .root
    }

    #[test]
    fn resources_are_named_as_kubectl_names_them() {
        let deployment = doc("kind: Deployment\nmetadata:\n  name: checkout\n  namespace: shop\n");
        assert_eq!(
            Resource::of(&deployment).to_string(),
            "Deployment shop/checkout"
        );
        let namespace = doc("kind: Namespace\nmetadata:\n  name: shop\n");
        assert_eq!(Resource::of(&namespace).to_string(), "Namespace shop");
        let job = doc("kind: Job\nmetadata:\n  generateName: migrate-\n");
        assert_eq!(Resource::of(&job).to_string(), "Job migrate-*");
        assert_eq!(Resource::of(&doc("kind: Pod\n")).to_string(), "Pod");
    }

    #[test]
    fn a_list_item_is_its_own_resource() {
        let list = doc(
            "apiVersion: v1\nkind: List\nitems:\n  - kind: Service\n    metadata: {name: a, namespace: x}\n  - kind: Pod\n    metadata: {name: b}\n",
        );
        assert_eq!(Resource::at(&list, "items[1].spec").to_string(), "Pod b");
        assert_eq!(Resource::at(&list, "").to_string(), "List");
        let all: Vec<String> = Resource::all(&list)
            .iter()
            .map(|(_, r)| r.to_string())
            .collect();
        assert_eq!(all, ["Service x/a", "Pod b"]);
    }
}
