//! A value's own sizes as a [`Decl`]: each list's and map's largest length
//! and each string's longest, per place in the schema. The cost estimate
//! at these sizes bounds what evaluating a rule on the value costs (cel-go's
//! runtime cost is bounded by its estimate at the actual sizes), so a rule
//! is held to the per-call limit by what the value holds, not by the
//! schema's worst case.

use super::decl::{Decl, Kind};
use crate::cel::rule::Rule;
use crate::cel::schema::{Node as Schema, Shape};
use crate::cel::value::escape;
use crate::document::{Node, Value as Doc};
use std::collections::BTreeMap;

/// How deep values are read; below, a value counts as empty. Documents are
/// bounded far above by the reader; this keeps the walk's stack bounded.
const MAX_DEPTH: usize = 128;

/// The sizes of `value`, laid out as `schema` types it.
pub fn observed(schema: &Schema, value: &Node) -> Decl {
    read(Some(schema), value, 0)
}

fn read(schema: Option<&Schema>, value: &Node, depth: usize) -> Decl {
    if depth > MAX_DEPTH {
        return Decl {
            kind: Kind::Dyn,
            max_elements: 0,
            min_size: 1,
        };
    }
    let shape = schema.map_or(Shape::Any, |s| s.shape);
    let (kind, max_elements) = match &value.value {
        Doc::Seq(items) => {
            let inner = schema.and_then(|s| s.items.as_deref());
            let merged = items
                .iter()
                .map(|item| read(inner, item, depth + 1))
                .reduce(merge)
                .unwrap_or_else(empty);
            (Kind::List(Box::new(merged)), items.len() as u64)
        }
        Doc::Map(entries) => match schema.and_then(|s| s.values.as_deref()) {
            Some(values) => {
                let merged = entries
                    .iter()
                    .map(|entry| read(Some(values), &entry.value, depth + 1))
                    .reduce(merge)
                    .unwrap_or_else(empty);
                (Kind::Map(Box::new(merged)), entries.len() as u64)
            }
            None => {
                let fields = entries
                    .iter()
                    .map(|entry| {
                        let inner = schema.and_then(|s| s.properties.get(entry.key.as_str()));
                        let field = read(inner, &entry.value, depth + 1);
                        (escape(&entry.key).into_owned(), field)
                    })
                    .collect::<BTreeMap<_, _>>();
                (Kind::Value(fields), 0)
            }
        },
        Doc::String(text) => {
            let kind = match shape {
                Shape::Timestamp => Kind::Timestamp,
                Shape::Duration => Kind::Duration,
                Shape::Any => Kind::Dyn,
                _ => Kind::String,
            };
            (kind, text.chars().count() as u64)
        }
        Doc::Bool(_) => (Kind::Bool, 0),
        Doc::Int(_) if shape == Shape::Number => (Kind::Double, 0),
        Doc::Int(_) => (Kind::Int, 0),
        Doc::Float(_) => (Kind::Double, 0),
        _ => (Kind::Dyn, 1),
    };
    Decl {
        kind,
        max_elements,
        min_size: 1,
    }
}

fn empty() -> Decl {
    Decl {
        kind: Kind::Dyn,
        max_elements: 0,
        min_size: 1,
    }
}

/// The larger sizes of two values at one place.
fn merge(a: Decl, b: Decl) -> Decl {
    let max_elements = a.max_elements.max(b.max_elements);
    let kind = match (a.kind, b.kind) {
        (Kind::List(x), Kind::List(y)) => Kind::List(Box::new(merge(*x, *y))),
        (Kind::Map(x), Kind::Map(y)) => Kind::Map(Box::new(merge(*x, *y))),
        (Kind::Value(mut x), Kind::Value(y)) => {
            for (name, field) in y {
                let merged = match x.remove(&name) {
                    Some(other) => merge(other, field),
                    None => field,
                };
                x.insert(name, merged);
            }
            Kind::Value(x)
        }
        (Kind::Dyn, other) => other,
        (kept, _) => kept,
    };
    Decl {
        kind,
        max_elements,
        min_size: 1,
    }
}

/// The cost of `rule` estimated at the sizes of `value` (the node its
/// schema is `schema`), bounding what evaluating it costs; `None` where
/// no estimate can be made (it selects a field neither the schema nor the
/// value has).
pub fn runtime_bound(rule: &Rule, schema: &Schema, value: &Node) -> Option<u64> {
    let expression = rule.expression.as_ref()?;
    super::max_cost(expression, &observed(schema, value))
}
