//! A schema node's CEL type with the size facts the API server's cost
//! estimator reads (k8s.io/apiserver `pkg/cel/common` `SchemaDeclType`):
//! the most elements a value can hold (characters of a string, items of a
//! list, entries of a map), and the fewest bytes a value takes in JSON, from
//! which an unbounded list or map gets its worst case in a 3 MiB request.
//! Built from the one schema tree (`cel::schema`), whose nodes carry the
//! size facts as written ([`crate::cel::schema::Sizes`]).

use super::super::value::escape;
use crate::cel::schema::sizes::{Format, Written};
use crate::cel::schema::SchemaNode;
use serde_json::Value as Json;
use std::collections::BTreeMap;

/// The largest request the API server accepts, in bytes (3 MiB).
pub const MAX_REQUEST_SIZE: u64 = 3 * 1024 * 1024;

/// A string's worst case without `maxLength`: the request, less its quotes.
const MAX_STRING: u64 = MAX_REQUEST_SIZE - 2;

/// The longest `duration` and `date-time` strings in JSON (RFC 3339 plus
/// quotes), and a `date`'s size.
const MAX_DURATION_OR_DATETIME: u64 = 32;
const DATE_SIZE: u64 = 12;

/// A metadata name's longest length (a DNS-1123 subdomain).
const NAME_MAX_LENGTH: u64 = 253;

/// What kind of CEL value a schema node holds.
#[derive(Clone, Debug, PartialEq)]
pub enum Kind {
    /// An object with properties, by their escaped names (as rules name them).
    Object(BTreeMap<String, Decl>),
    /// An object as a value holds it (`observed`): a field it lacks is
    /// empty, not undeclared.
    Value(BTreeMap<String, Decl>),
    List(Box<Decl>),
    /// `additionalProperties` with a schema: string keys.
    Map(Box<Decl>),
    String,
    Bytes,
    Int,
    Double,
    Bool,
    Duration,
    Timestamp,
    /// `x-kubernetes-int-or-string`.
    Dyn,
}

/// A schema node as the cost estimator sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct Decl {
    pub kind: Kind,
    /// The most characters (a string's are counted as UTF-8 bytes, 4 per
    /// character of `maxLength`), items or entries; 0 for the rest.
    pub max_elements: u64,
    /// The fewest bytes a value of this node takes in JSON.
    pub min_size: u64,
}

impl Decl {
    fn simple(kind: Kind, min_size: u64) -> Decl {
        Decl {
            kind,
            max_elements: 0,
            min_size,
        }
    }

    /// The type of the schema `schema`; `None` where the API server gives
    /// none (no `type`, an array without `items`): rules cannot reach it.
    /// `resource_root` is true at a CRD's root and at an embedded resource,
    /// which get `apiVersion`, `kind` and `metadata.name`/`generateName`.
    /// Reads the schema into the one tree first ([`SchemaNode::read_written`]).
    pub fn of(schema: &Json, resource_root: bool) -> Option<Decl> {
        Decl::of_node(&SchemaNode::read_written(schema), resource_root)
    }

    /// [`Decl::of`] of a node of the tree, from its size facts
    /// ([`SchemaNode::sizes`]); the tree's depth bound is the model's.
    pub fn of_node(node: &SchemaNode, resource_root: bool) -> Option<Decl> {
        let sizes = &node.sizes;
        let child = |inner: &SchemaNode| Decl::of_node(inner, inner.sizes.embedded);
        if sizes.int_or_string {
            let max = sizes
                .max_length
                .count()
                .map_or(MAX_STRING, |n| n.saturating_mul(4));
            return Some(Decl {
                kind: Kind::Dyn,
                max_elements: max,
                min_size: 1,
            });
        }
        match sizes.ty? {
            Written::Array => {
                let items = child(node.items.as_deref()?)?;
                let max = sizes
                    .max_items
                    .count()
                    .unwrap_or(MAX_STRING / (items.min_size + 1));
                Some(Decl {
                    kind: Kind::List(Box::new(items)),
                    max_elements: max,
                    min_size: 2,
                })
            }
            Written::Object => {
                if sizes.additional_schema {
                    let values = child(node.values.as_deref()?)?;
                    let max = sizes
                        .max_properties
                        .count()
                        .unwrap_or(MAX_STRING / (values.min_size + 6));
                    return Some(Decl {
                        kind: Kind::Map(Box::new(values)),
                        max_elements: max,
                        min_size: 2,
                    });
                }
                Some(object(node, resource_root))
            }
            Written::String => Some(string(
                sizes.format,
                sizes.enum_max,
                sizes.max_length.count(),
            )),
            Written::Boolean => Some(Decl::simple(Kind::Bool, 4)),
            Written::Number => Some(Decl::simple(Kind::Double, 1)),
            Written::Integer => Some(Decl::simple(Kind::Int, 1)),
        }
    }

    /// The node at `path` below this one: property names, `@items`,
    /// `@values` (a list's items, a map's values) and `@keys` (a map's keys,
    /// strings without a bound the API server knows: 0 elements).
    pub fn at<'a>(&'a self, path: &[String]) -> Option<std::borrow::Cow<'a, Decl>> {
        let mut node = self;
        for (index, step) in path.iter().enumerate() {
            node = match (step.as_str(), &node.kind) {
                ("@items" | "@values", Kind::List(inner) | Kind::Map(inner)) => inner,
                ("@keys", Kind::Map(_)) if index + 1 == path.len() => {
                    return Some(std::borrow::Cow::Owned(Decl::simple(Kind::String, 2)))
                }
                (name, Kind::Object(fields)) => fields.get(name)?,
                (name, Kind::Value(fields)) => match fields.get(name) {
                    Some(field) => field,
                    None => return Some(std::borrow::Cow::Owned(Decl::simple(Kind::Dyn, 1))),
                },
                _ => return None,
            };
        }
        Some(std::borrow::Cow::Borrowed(node))
    }
}

/// A string of `format` (with the longest of its `enum`, if any, and its
/// `maxLength`).
fn string(format: Format, enum_max: Option<u64>, max_length: Option<u64>) -> Decl {
    let (kind, min_size, max) = match format {
        Format::Byte => (Kind::Bytes, 2, max_length.unwrap_or(MAX_STRING)),
        Format::Duration => (Kind::Duration, 3, MAX_DURATION_OR_DATETIME),
        Format::Date => (Kind::Timestamp, DATE_SIZE, DATE_SIZE),
        Format::DateTime => (Kind::Timestamp, 21, MAX_DURATION_OR_DATETIME),
        Format::Other => {
            let max = match max_length {
                Some(n) => n.saturating_mul(4),
                None => enum_max.unwrap_or(MAX_STRING),
            };
            (Kind::String, 2, max)
        }
    };
    Decl {
        kind,
        max_elements: max,
        min_size,
    }
}

/// An object with properties: the fewest bytes counts its required
/// properties without a default.
fn object(node: &SchemaNode, resource_root: bool) -> Decl {
    let mut fields = BTreeMap::new();
    let mut min_size = 2u64;
    for (name, property) in &node.properties {
        let Some(field) = Decl::of_node(property, property.sizes.embedded) else {
            continue;
        };
        if property.sizes.required && property.default.is_none() {
            min_size = min_size
                .saturating_add(name.len() as u64)
                .saturating_add(field.min_size)
                .saturating_add(4);
        }
        fields.insert(escape(name).into_owned(), field);
    }
    if resource_root && !has_type_and_object_meta(node) {
        let plain = || string(Format::Other, None, None);
        fields.insert("kind".into(), plain());
        fields.insert("apiVersion".into(), plain());
        let metadata = node.properties.get("metadata");
        let capped = |name: &str, cap: u64| {
            let own = metadata
                .and_then(|m| m.properties.get(name))
                .and_then(|s| s.sizes.max_length.count());
            string(
                Format::Other,
                None,
                Some(own.map_or(cap, |own| own.min(cap))),
            )
        };
        let meta_fields = BTreeMap::from([
            ("name".to_owned(), capped("name", NAME_MAX_LENGTH)),
            (
                "generateName".to_owned(),
                capped("generateName", NAME_MAX_LENGTH - 1),
            ),
        ]);
        fields.insert(
            "metadata".into(),
            Decl::simple(Kind::Object(meta_fields), 2),
        );
    }
    Decl::simple(Kind::Object(fields), min_size)
}

/// True when `node` already declares `apiVersion`, `kind` and
/// `metadata.name`/`generateName` as strings (the API server then leaves it).
fn has_type_and_object_meta(node: &SchemaNode) -> bool {
    let ty = |s: Option<&SchemaNode>, want: Written| s.and_then(|s| s.sizes.ty) == Some(want);
    let props = &node.properties;
    let metadata = props.get("metadata");
    let meta_prop = |name: &str| metadata.and_then(|m| m.properties.get(name));
    ty(props.get("kind"), Written::String)
        && ty(props.get("apiVersion"), Written::String)
        && ty(metadata, Written::Object)
        && ty(meta_prop("name"), Written::String)
        && ty(meta_prop("generateName"), Written::String)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn unbounded_sizes_follow_the_request_size() {
        let numbers = Decl::of(
            &json!({"type": "array", "items": {"type": "number"}}),
            false,
        )
        .unwrap();
        assert_eq!(numbers.max_elements, 1_572_863);
        let strings = Decl::of(&json!({"type": "string", "maxLength": 10}), false).unwrap();
        assert_eq!(strings.max_elements, 40);
        let map = Decl::of(
            &json!({"type": "object", "additionalProperties": {"type": "boolean"}}),
            false,
        )
        .unwrap();
        assert_eq!(map.max_elements, 314_572);
        assert!(Decl::of(
            &json!({"x-kubernetes-preserve-unknown-fields": true}),
            false
        )
        .is_none());
    }
}
