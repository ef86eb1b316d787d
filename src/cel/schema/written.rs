//! A CRD document's schemas as written: every version's `openAPIV3Schema`,
//! served or not, before the CRD reader rewrites them into the served
//! versions' definitions that [`super::ServedSchema`] reads. The CRD's
//! own checks read these (what the API server refuses on create:
//! `engine::crds::refused` for types and patterns, `cel::crd_document`
//! for the libraries its rules call), each as a visitor of the one walk
//! here, with the tree's depth bound ([`MAX_DEPTH`]), over a document's
//! nodes (with their lines) or its JSON alike ([`Written`]).

use super::bound::MAX_DEPTH;
use crate::document::{Node, Value as Doc};
use serde_json::Value as Json;
use std::borrow::Cow;

/// A schema value as written: a document's node or JSON.
pub trait Written: Sized {
    /// The value of `key` when this is a mapping holding it.
    fn get(&self, key: &str) -> Option<&Self>;
    /// The text when this is a string.
    fn text(&self) -> Option<&str>;
    /// True when this is a mapping.
    fn is_map(&self) -> bool;
    /// The members of a mapping, in order (none for another value).
    fn members(&self) -> impl Iterator<Item = (&str, &Self)>;
    /// The items of a list (none for another value).
    fn items(&self) -> &[Self];
    /// True when `other` holds the same value, whatever its lines and the
    /// order of a mapping's keys (the API server compares decoded
    /// structs).
    fn same(&self, other: &Self) -> bool;
    /// True when this is the boolean `true`.
    fn is_true(&self) -> bool;
    /// The number when this is an integer.
    fn integer(&self) -> Option<i64>;
    /// The value as JSON (what a rule entry, a default or junctors are
    /// kept as): JSON itself borrowed, a document's node converted.
    fn json(&self) -> Cow<'_, Json>;
}

impl Written for Json {
    fn get(&self, key: &str) -> Option<&Json> {
        Json::get(self, key)
    }
    fn text(&self) -> Option<&str> {
        self.as_str()
    }
    fn is_map(&self) -> bool {
        self.is_object()
    }
    fn members(&self) -> impl Iterator<Item = (&str, &Json)> {
        self.as_object()
            .into_iter()
            .flatten()
            .map(|(key, value)| (key.as_str(), value))
    }
    fn items(&self) -> &[Json] {
        match self {
            Json::Array(items) => items,
            _ => &[],
        }
    }
    fn same(&self, other: &Json) -> bool {
        self == other
    }
    fn is_true(&self) -> bool {
        *self == Json::Bool(true)
    }
    fn integer(&self) -> Option<i64> {
        self.as_i64()
    }
    fn json(&self) -> Cow<'_, Json> {
        Cow::Borrowed(self)
    }
}

impl Written for Node {
    fn get(&self, key: &str) -> Option<&Node> {
        Node::get(self, key)
    }
    fn text(&self) -> Option<&str> {
        self.as_str()
    }
    fn is_map(&self) -> bool {
        matches!(self.value, Doc::Map(_))
    }
    fn members(&self) -> impl Iterator<Item = (&str, &Node)> {
        self.as_map()
            .unwrap_or_default()
            .iter()
            .map(|entry| (entry.key.as_str(), &entry.value))
    }
    fn items(&self) -> &[Node] {
        match &self.value {
            Doc::Seq(items) => items,
            _ => &[],
        }
    }
    fn same(&self, other: &Node) -> bool {
        // As deep as the document, which its reader bounds.
        match (&self.value, &other.value) {
            (Doc::Map(a), Doc::Map(b)) => {
                a.len() == b.len()
                    && a.iter().all(|entry| {
                        other
                            .get(&entry.key)
                            .is_some_and(|value| entry.value.same(value))
                    })
            }
            (Doc::Seq(a), Doc::Seq(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(a, b)| a.same(b))
            }
            (a, b) => a == b,
        }
    }
    fn is_true(&self) -> bool {
        self.value == Doc::Bool(true)
    }
    fn integer(&self) -> Option<i64> {
        match self.value {
            Doc::Int(value) => Some(value),
            _ => None,
        }
    }
    fn json(&self) -> Cow<'_, Json> {
        Cow::Owned(self.to_json())
    }
}

/// One step from a version's `openAPIV3Schema` to a schema inside it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step<'s> {
    /// A keyword holding a schema or schemas (`items`, `properties`).
    Key(&'static str),
    /// A member of `properties`, `patternProperties` or `definitions`.
    Member(&'s str),
    /// An item of `allOf`, `anyOf`, `oneOf` or a list of `items`.
    Index(usize),
}

/// The API server's field path of `steps` after `root`
/// (`.properties[spec].items`).
pub fn server_field(root: &str, steps: &[Step]) -> String {
    joined(root, steps, |out, name| {
        out.push('[');
        out.push_str(name);
        out.push(']');
    })
}

/// vergate's dotted path of `steps` after `root` (`.properties.spec.items`).
pub fn dotted(root: &str, steps: &[Step]) -> String {
    joined(root, steps, |out, name| {
        out.push('.');
        out.push_str(name);
    })
}

/// `root` and `steps` as a field path, keywords after a dot and indices in
/// brackets; `member` writes a member's name, in the path's style.
fn joined(root: &str, steps: &[Step], member: impl Fn(&mut String, &str)) -> String {
    let mut out = String::from(root);
    for step in steps {
        match step {
            Step::Key(key) => {
                out.push('.');
                out.push_str(key);
            }
            Step::Member(name) => member(&mut out, name),
            Step::Index(index) => {
                out.push('[');
                out.push_str(&index.to_string());
                out.push(']');
            }
        }
    }
    out
}

/// The JSON pointer of `steps` after `root` (`/properties/spec/items`).
pub fn pointer(root: &str, steps: &[Step]) -> String {
    let mut out = String::from(root);
    for step in steps {
        out.push('/');
        match step {
            Step::Key(key) => out.push_str(key),
            Step::Member(name) => out.push_str(&name.replace('~', "~0").replace('/', "~1")),
            Step::Index(index) => out.push_str(&index.to_string()),
        }
    }
    out
}

/// Where a version's schema is in the CRD: the server's field path and
/// vergate's (`spec.versions[1].schema.openAPIV3Schema`, or
/// `spec.validation.openAPIV3Schema` for schemas validated once), and the
/// JSON pointer of the schema written.
#[derive(Clone, Debug)]
pub struct Root {
    pub field: String,
    pub pointer: String,
}

/// The `openAPIV3Schema` of each version of a CRD (`spec`: its `spec`),
/// with its place. With `once` and every version's schema the same, the
/// API server validates it once, as the top-level `spec.validation`: the
/// first is given, at that place.
pub fn versions<V: Written>(spec: &V, once: bool) -> Vec<(Root, &V)> {
    let versions = spec.get("versions").map_or(&[][..], Written::items);
    let schemas: Vec<Option<&V>> = versions
        .iter()
        .map(|version| version.get("schema")?.get("openAPIV3Schema"))
        .collect();
    let identical = match schemas.split_first() {
        Some((Some(first), rest)) => rest
            .iter()
            .all(|other| other.is_some_and(|other| other.same(first))),
        _ => false,
    };
    if once && identical {
        let root = Root {
            field: "spec.validation.openAPIV3Schema".to_owned(),
            pointer: "/spec/versions/0/schema/openAPIV3Schema".to_owned(),
        };
        return schemas
            .first()
            .copied()
            .flatten()
            .map(|s| (root, s))
            .into_iter()
            .collect();
    }
    schemas
        .into_iter()
        .enumerate()
        .filter_map(|(index, schema)| {
            let root = Root {
                field: format!("spec.versions[{index}].schema.openAPIV3Schema"),
                pointer: format!("/spec/versions/{index}/schema/openAPIV3Schema"),
            };
            Some((root, schema?))
        })
        .collect()
}

/// Calls `visit` with `schema` and every schema inside it that the API
/// server validates (`properties`, `patternProperties`, `definitions`,
/// `items`, `additionalProperties`, `not`, `allOf`, `anyOf`, `oneOf`), each
/// with the steps to it, a schema before those inside it; schemas nested
/// deeper than [`MAX_DEPTH`] are not visited.
pub fn walk<'v, V: Written>(schema: &'v V, visit: &mut impl FnMut(&'v V, &[Step<'v>])) {
    let mut steps = Vec::new();
    walk_at(schema, &mut steps, 0, visit);
}

fn walk_at<'v, V: Written>(
    schema: &'v V,
    steps: &mut Vec<Step<'v>>,
    depth: usize,
    visit: &mut impl FnMut(&'v V, &[Step<'v>]),
) {
    if !schema.is_map() || depth > MAX_DEPTH {
        return;
    }
    visit(schema, steps);
    // The keywords below, read in one pass over the schema's members (the
    // first of a key written twice, as `get` reads it).
    let mut nested: [Option<&'v V>; NESTED.len()] = [None; NESTED.len()];
    for (key, value) in schema.members() {
        if let Some(slot) = NESTED.iter().position(|nested| *nested == key) {
            nested[slot].get_or_insert(value);
        }
    }
    let [properties, pattern_properties, definitions, items, additional, not, all_of, any_of, one_of] =
        nested;
    for (key, members) in [
        ("properties", properties),
        ("patternProperties", pattern_properties),
        ("definitions", definitions),
    ] {
        for (name, member) in members.into_iter().flat_map(Written::members) {
            steps.extend([Step::Key(key), Step::Member(name)]);
            walk_at(member, steps, depth + 1, visit);
            steps.truncate(steps.len() - 2);
        }
    }
    for (key, inner) in [
        ("items", items),
        ("additionalProperties", additional),
        ("not", not),
    ] {
        if let Some(inner) = inner.filter(|inner| inner.is_map()) {
            steps.push(Step::Key(key));
            walk_at(inner, steps, depth + 1, visit);
            steps.pop();
        }
    }
    for (key, list) in [
        ("allOf", all_of),
        ("anyOf", any_of),
        ("oneOf", one_of),
        ("items", items),
    ] {
        for (index, inner) in list.map_or(&[][..], Written::items).iter().enumerate() {
            steps.extend([Step::Key(key), Step::Index(index)]);
            walk_at(inner, steps, depth + 1, visit);
            steps.truncate(steps.len() - 2);
        }
    }
}

/// The keywords holding schemas that [`walk`] descends into.
const NESTED: [&str; 9] = [
    "properties",
    "patternProperties",
    "definitions",
    "items",
    "additionalProperties",
    "not",
    "allOf",
    "anyOf",
    "oneOf",
];

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_schema_is_visited_once_with_its_paths_to_the_bound() {
        let schema = json!({"type": "object", "properties": {"a/b": {
            "type": "array", "items": {"anyOf": [{"type": "string"}]}
        }}});
        let mut seen = Vec::new();
        walk(&schema, &mut |_, steps| {
            seen.push((
                server_field("", steps),
                dotted("", steps),
                pointer("", steps),
            ))
        });
        assert_eq!(
            seen,
            [
                (String::new(), String::new(), String::new()),
                (
                    ".properties[a/b]".into(),
                    ".properties.a/b".into(),
                    "/properties/a~1b".into()
                ),
                (
                    ".properties[a/b].items".into(),
                    ".properties.a/b.items".into(),
                    "/properties/a~1b/items".into()
                ),
                (
                    ".properties[a/b].items.anyOf[0]".into(),
                    ".properties.a/b.items.anyOf[0]".into(),
                    "/properties/a~1b/items/anyOf/0".into()
                ),
            ]
        );
        // A chain past the bound is cut there.
        let mut deep = json!({"type": "string"});
        for _ in 0..MAX_DEPTH + 10 {
            deep = json!({"type": "object", "properties": {"a": deep}});
        }
        let mut count = 0;
        walk(&deep, &mut |_, _| count += 1);
        assert_eq!(count, MAX_DEPTH + 1);
    }

    #[test]
    fn identical_versions_are_one_schema_whatever_their_lines_and_order() {
        let text = "spec:\n  versions:\n  - schema:\n      openAPIV3Schema: {type: object, properties: {a: {type: string}}}\n  - schema:\n      openAPIV3Schema:\n        properties:\n          a: {type: string}\n        type: object\n";
        let parsed = crate::document::parse(text);
        let spec = parsed.documents[0].root.get("spec").unwrap();
        let once = versions(spec, true);
        assert_eq!(once.len(), 1);
        assert_eq!(once[0].0.field, "spec.validation.openAPIV3Schema");
        assert_eq!(versions(spec, false).len(), 2);
        assert_eq!(versions(&spec.to_json(), true).len(), 1);
    }
}
