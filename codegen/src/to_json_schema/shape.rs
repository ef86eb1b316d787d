//! The type keywords of a schema (`type`, `format`, `$ref`, `items`,
//! `additionalProperties`), without documentation: the part of a schema
//! that definitions, properties and union members share.

use super::style::Style;
use super::Object;
use crate::model::Schema;
use vergate_core::json::Value;

/// The type keywords of `schema`.
pub fn shape(schema: &Schema, style: &Style) -> Object {
    let mut out = Object::new();
    let mut typed = |name: &str, format: &Option<String>| {
        out.insert("type".into(), super::string(name));
        if let Some(format) = format {
            out.insert("format".into(), super::string(format));
        }
    };
    match schema {
        Schema::Ref(name) => {
            out.insert(
                "$ref".into(),
                Value::String(format!("{}{name}", style.ref_base)),
            );
        }
        Schema::Boolean => typed("boolean", &None),
        Schema::Integer { format } => typed("integer", format),
        Schema::Number { format } => typed("number", format),
        Schema::String { format } => typed("string", format),
        Schema::IntOrString => return type_union(&["integer", "string"]),
        Schema::Array(item) => {
            typed("array", &None);
            out.insert("items".into(), Value::Object(shape(item, style)));
        }
        Schema::Map(value) => {
            typed("object", &None);
            if !matches!(**value, Schema::Any) {
                out.insert(
                    "additionalProperties".into(),
                    Value::Object(shape(value, style)),
                );
            }
        }
        Schema::Object(_) => typed("object", &None),
        Schema::Union(_) | Schema::Any => {}
    }
    out
}

pub fn type_union(types: &[&str]) -> Object {
    let types = types.iter().map(|name| super::string(*name)).collect();
    Object::from_iter([("type".to_owned(), Value::Array(types))])
}
