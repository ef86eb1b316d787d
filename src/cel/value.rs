//! Document values as the CEL values a rule sees: typed by the schema as
//! the API server types them (an integer written where `number` is
//! declared is a double; `date-time` strings are timestamps), the one
//! conversion from the document's values to CEL's. A resource not
//! defaulted ahead ([`super::schema::defaults::ahead`]) gets its schema's
//! defaults here, on the values converted, as the tree's `default`
//! annotations give them (the root's `metadata`, ObjectMeta's, excepted).

use super::schema::{SchemaNode, Shape};
use super::shared::{SharedList, SharedMap};
use crate::document::{Node, Value as Doc};
use cel::common::types::{
    CelBool, CelDouble, CelDuration, CelInt, CelList, CelMap, CelMapKey, CelNull, CelString,
    CelTimestamp,
};
use cel::common::value::Val;
use serde_json::Value as Json;
use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::Arc;

/// A CEL value that may borrow the document's text.
pub type Boxed<'a> = Box<dyn Val + 'a>;

/// `node` as the CEL value a rule sees under `schema` (`None`: untyped),
/// borrowing the document's strings. `root`: the resource itself, whose
/// `metadata` rules see only `name` and `generateName` of.
pub fn of_node<'a>(node: &'a Node, schema: Option<&'a SchemaNode>, root: bool) -> Boxed<'a> {
    let shape = schema.map_or(Shape::Any, |schema| schema.shape);
    match &node.value {
        Doc::Null => Box::new(CelNull),
        Doc::Bool(flag) => Box::new(CelBool::from(*flag)),
        Doc::Int(integer) if shape == Shape::Number => Box::new(CelDouble::from(*integer as f64)),
        Doc::Int(integer) => Box::new(CelInt::from(*integer)),
        Doc::Float(text) => match crate::walk::scalar_float(text) {
            Some(float) => Box::new(CelDouble::from(float)),
            None => Box::new(CelString::from(text.as_str())),
        },
        Doc::String(text) => string(text, shape),
        Doc::Seq(items) => {
            let item = schema.and_then(|schema| schema.items.as_deref());
            let items: Vec<Boxed<'a>> = items
                .iter()
                .map(|node| of_node(node, item, false))
                .collect();
            Box::new(SharedList(Arc::new(CelList::from(items))))
        }
        Doc::Map(entries) => {
            let mut map: HashMap<CelMapKey<'a>, Boxed<'a>> = HashMap::with_capacity(entries.len());
            for entry in entries {
                let member = schema.and_then(|schema| {
                    schema
                        .properties
                        .get(entry.key.as_str())
                        .or(schema.values.as_deref())
                });
                let value = if root && entry.key == "metadata" {
                    metadata(&entry.value)
                } else {
                    of_node(&entry.value, member, false)
                };
                map.insert(key(schema, &entry.key), value);
            }
            if let Some(schema) = schema.filter(|schema| schema.defaults_below) {
                add_defaults(&mut map, schema, root);
            }
            Box::new(SharedMap(Arc::new(CelMap::from(map))))
        }
    }
}

/// The schema's defaults for the properties `map` lacks: laid here, on
/// the CEL value, when the resource was not defaulted ahead
/// ([`super::schema::defaults::shared`]); a defaulted resource lacks none.
fn add_defaults<'a>(
    map: &mut HashMap<CelMapKey<'a>, Boxed<'a>>,
    schema: &'a SchemaNode,
    root: bool,
) {
    for (name, property) in &schema.properties {
        if root && name == "metadata" {
            continue;
        }
        if let Some(default) = &property.default {
            map.entry(name_key(name))
                .or_insert_with(|| of_json(default, Some(property)));
        }
    }
}

/// A JSON value (a default) as a CEL value under `schema`, its own
/// properties' defaults laid.
fn of_json<'a>(json: &'a Json, schema: Option<&'a SchemaNode>) -> Boxed<'a> {
    let shape = schema.map_or(Shape::Any, |schema| schema.shape);
    match json {
        Json::Null => Box::new(CelNull),
        Json::Bool(flag) => Box::new(CelBool::from(*flag)),
        Json::Number(number) => match (number.as_i64(), shape) {
            (Some(integer), shape) if shape != Shape::Number => Box::new(CelInt::from(integer)),
            _ => Box::new(CelDouble::from(number.as_f64().unwrap_or(f64::NAN))),
        },
        Json::String(text) => string(text, shape),
        Json::Array(items) => {
            let item = schema.and_then(|schema| schema.items.as_deref());
            let items: Vec<Boxed<'a>> = items.iter().map(|json| of_json(json, item)).collect();
            Box::new(SharedList(Arc::new(CelList::from(items))))
        }
        Json::Object(members) => {
            let mut map: HashMap<CelMapKey<'a>, Boxed<'a>> = HashMap::with_capacity(members.len());
            for (name, value) in members {
                let member = schema
                    .and_then(|schema| schema.properties.get(name).or(schema.values.as_deref()));
                map.insert(key(schema, name), of_json(value, member));
            }
            if let Some(schema) = schema {
                add_defaults(&mut map, schema, false);
            }
            Box::new(SharedMap(Arc::new(CelMap::from(map))))
        }
    }
}

/// The root's `metadata` as rules see it: `name` and `generateName` only.
fn metadata(node: &Node) -> Boxed<'_> {
    let mut map: HashMap<CelMapKey<'_>, Boxed<'_>> = HashMap::new();
    if let Doc::Map(entries) = &node.value {
        for entry in entries {
            if entry.key == "name" || entry.key == "generateName" {
                map.insert(
                    CelMapKey::from(entry.key.as_str()),
                    of_node(&entry.value, None, false),
                );
            }
        }
    }
    Box::new(SharedMap(Arc::new(CelMap::from(map))))
}

/// The key an entry has in CEL: a property's name escaped as the API
/// server escapes it; a map's keys as they are.
fn key<'a>(schema: Option<&SchemaNode>, name: &'a str) -> CelMapKey<'a> {
    let is_map = schema
        .is_some_and(|schema| schema.values.is_some() && !schema.properties.contains_key(name));
    if is_map {
        CelMapKey::from(name)
    } else {
        name_key(name)
    }
}

/// A property's name as a key, escaped.
fn name_key(name: &str) -> CelMapKey<'_> {
    match escape(name) {
        Cow::Borrowed(name) => CelMapKey::from(name),
        Cow::Owned(name) => CelMapKey::from(name),
    }
}

/// CEL's reserved words, which a property named so is escaped from.
const RESERVED: [&str; 21] = [
    "true",
    "false",
    "null",
    "in",
    "as",
    "break",
    "const",
    "continue",
    "else",
    "for",
    "function",
    "if",
    "import",
    "let",
    "loop",
    "package",
    "namespace",
    "return",
    "var",
    "void",
    "while",
];

/// A property name as rules name it (apiextensions' `Escape`): a reserved
/// word becomes `__word__`; `__`, `.`, `-` and `/` become `__underscores__`,
/// `__dot__`, `__dash__` and `__slash__`.
pub fn escape(name: &str) -> Cow<'_, str> {
    if RESERVED.contains(&name) {
        return Cow::Owned(format!("__{name}__"));
    }
    if !name.contains("__") && !name.contains(['.', '-', '/']) {
        return Cow::Borrowed(name);
    }
    let mut out = String::with_capacity(name.len() + 8);
    let mut rest = name;
    while let Some(c) = rest.chars().next() {
        if rest.starts_with("__") {
            out.push_str("__underscores__");
            rest = &rest[2..];
            continue;
        }
        match c {
            '.' => out.push_str("__dot__"),
            '-' => out.push_str("__dash__"),
            '/' => out.push_str("__slash__"),
            c => out.push(c),
        }
        rest = &rest[c.len_utf8()..];
    }
    Cow::Owned(out)
}

fn string(text: &str, shape: Shape) -> Boxed<'_> {
    match shape {
        Shape::Timestamp => match chrono::DateTime::parse_from_rfc3339(text) {
            Ok(time) => Box::new(CelTimestamp::from(time)),
            Err(_) => Box::new(CelString::from(text)),
        },
        Shape::Duration => match go_duration(text) {
            Some(duration) => Box::new(CelDuration::from(duration)),
            None => Box::new(CelString::from(text)),
        },
        _ => Box::new(CelString::from(text)),
    }
}

/// A Go duration (`1h30m`, `1.5s`, `-300ms`), as `time.ParseDuration` reads it.
fn go_duration(text: &str) -> Option<chrono::Duration> {
    let (negative, mut rest) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    if rest == "0" {
        return Some(chrono::Duration::zero());
    }
    if rest.is_empty() {
        return None;
    }
    let mut nanos: f64 = 0.0;
    while !rest.is_empty() {
        let number_end = rest.find(|c: char| !(c.is_ascii_digit() || c == '.'))?;
        let number: f64 = rest[..number_end].parse().ok()?;
        rest = &rest[number_end..];
        let unit_end = rest
            .find(|c: char| c.is_ascii_digit() || c == '.')
            .unwrap_or(rest.len());
        let scale = match &rest[..unit_end] {
            "ns" => 1.0,
            "us" | "µs" | "μs" => 1e3,
            "ms" => 1e6,
            "s" => 1e9,
            "m" => 60e9,
            "h" => 3600e9,
            _ => return None,
        };
        nanos += number * scale;
        rest = &rest[unit_end..];
    }
    if !nanos.is_finite() || nanos.abs() > i64::MAX as f64 {
        return None;
    }
    let nanos = nanos as i64;
    Some(chrono::Duration::nanoseconds(if negative {
        -nanos
    } else {
        nanos
    }))
}
