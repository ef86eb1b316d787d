//! Validation and annotation keywords kept by the model (as JSON text),
//! translated from OpenAPI 2/3.0 spelling to JSON Schema 2020-12, and enum
//! values typed for the schema they constrain.

use crate::model::Schema;
use crate::to_json_schema::Object;
use std::collections::BTreeMap;
use vergate_core::json::{self, Value};

/// Adds the kept keywords to `target`. OpenAPI 3.0's boolean
/// `exclusiveMinimum`/`exclusiveMaximum` become 2020-12's numeric ones,
/// `example` becomes `examples`, and `nullable` is left to [`is_nullable`].
/// A keyword whose text is not JSON is left out.
pub fn insert_keywords(target: &mut Object, keywords: &BTreeMap<String, String>) {
    let parsed = |text: &String| json::parse(text);
    for (key, text) in keywords {
        let Some(value) = parsed(text) else { continue };
        match key.as_str() {
            "nullable" => {}
            "example" if !keywords.contains_key("examples") => {
                target.insert("examples".into(), Value::Array(vec![value]));
            }
            "example" => {}
            "examples" if !matches!(value, Value::Array(_)) => {}
            "exclusiveMinimum" | "exclusiveMaximum" => match value {
                Value::Number(_) => {
                    target.insert(key.clone(), value);
                }
                Value::Bool(true) => {
                    let bound = if key == "exclusiveMinimum" {
                        "minimum"
                    } else {
                        "maximum"
                    };
                    if let Some(limit) = keywords.get(bound).and_then(parsed) {
                        target.insert(key.clone(), limit);
                    }
                }
                _ => {}
            },
            "minimum" | "maximum" => {
                let exclusive = if key == "minimum" {
                    "exclusiveMinimum"
                } else {
                    "exclusiveMaximum"
                };
                let moved = keywords.get(exclusive).map(String::as_str) == Some("true");
                if !moved {
                    target.insert(key.clone(), value);
                }
            }
            _ => {
                target.insert(key.clone(), value);
            }
        }
    }
}

/// True when OpenAPI 3.0's `nullable: true` is among the keywords.
pub fn is_nullable(keywords: &BTreeMap<String, String>) -> bool {
    keywords.get("nullable").map(String::as_str) == Some("true")
}

/// Lets a schema also accept `null`: a `type` grows a `"null"` member, a
/// `$ref` becomes `anyOf: [{"$ref": …}, {"type": "null"}]` (its annotations
/// stay beside the `anyOf`), and an `enum` or `const` admits `null` too. A
/// schema with neither `type` nor `$ref` accepts `null` already.
pub fn allow_null(schema: &mut Object) {
    let null = || super::string("null");
    match schema.get_mut("type") {
        Some(Value::String(single)) => {
            let single = Value::String(std::mem::take(single));
            schema.insert("type".into(), Value::Array(vec![single, null()]));
        }
        Some(Value::Array(types)) => {
            if !types.contains(&null()) {
                types.push(null());
            }
        }
        _ => {
            if let Some(target) = schema.remove("$ref") {
                let reference = Object::from_iter([("$ref".to_owned(), target)]);
                let null_schema = Object::from_iter([("type".to_owned(), null())]);
                let options = vec![Value::Object(reference), Value::Object(null_schema)];
                schema.insert("anyOf".into(), Value::Array(options));
            }
        }
    }
    if let Some(Value::Array(values)) = schema.get_mut("enum") {
        if !values.contains(&Value::Null) {
            values.push(Value::Null);
        }
    }
    if let Some(value) = schema.remove("const") {
        // `const: v` becomes `enum: [v, null]`, narrowed by an `enum` beside it.
        let kept = match schema.get("enum") {
            Some(Value::Array(values)) => values.contains(&value),
            _ => true,
        };
        let mut values = vec![Value::Null];
        if kept && value != Value::Null {
            values.insert(0, value);
        }
        schema.insert("enum".into(), Value::Array(values));
    }
}

/// Enum values as JSON values of the schema's type: the model keeps them as
/// strings (a non-string value as its JSON text), so `"1"` of an integer
/// enum becomes `1`, and a value of a string or a definition stays a string.
pub fn typed_enum(values: &[String], schema: &Schema) -> Value {
    let textual = matches!(schema, Schema::String { .. } | Schema::Ref(_));
    Value::Array(
        values
            .iter()
            .map(|value| {
                if textual {
                    return super::string(value);
                }
                json::parse(value).unwrap_or_else(|| super::string(value))
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keywords(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect()
    }

    fn json(text: &str) -> Value {
        json::parse(text).unwrap()
    }

    fn object(text: &str) -> Object {
        match json(text) {
            Value::Object(members) => members,
            other => panic!("not an object: {other:?}"),
        }
    }

    #[test]
    fn openapi_30_bounds_become_2020_12() {
        let mut target = Object::new();
        insert_keywords(
            &mut target,
            &keywords(&[
                ("minimum", "1"),
                ("exclusiveMinimum", "true"),
                ("maximum", "99"),
                ("exclusiveMaximum", "false"),
                ("example", "5"),
                ("pattern", "\"^a$\""),
                ("title", "not json"),
            ]),
        );
        assert_eq!(
            Value::Object(target),
            json(r#"{"exclusiveMinimum": 1, "maximum": 99, "examples": [5], "pattern": "^a$"}"#)
        );
    }

    #[test]
    fn null_is_added_to_types_enums_and_refs() {
        let mut typed = object(r#"{"type": "string", "enum": ["a"]}"#);
        allow_null(&mut typed);
        assert_eq!(
            typed,
            object(r#"{"type": ["string", "null"], "enum": ["a", null]}"#)
        );
        let mut reference = object(r##"{"$ref": "#/$defs/X", "description": "d"}"##);
        allow_null(&mut reference);
        assert_eq!(
            reference,
            object(r##"{"anyOf": [{"$ref": "#/$defs/X"}, {"type": "null"}], "description": "d"}"##)
        );
        let mut fixed = object(r#"{"type": "string", "const": "a"}"#);
        allow_null(&mut fixed);
        assert_eq!(
            fixed,
            object(r#"{"type": ["string", "null"], "enum": ["a", null]}"#)
        );
        let mut any = object(r#"{"description": "d"}"#);
        allow_null(&mut any);
        assert_eq!(any, object(r#"{"description": "d"}"#));
    }

    #[test]
    fn enum_values_take_the_schema_type() {
        let integer = Schema::Integer { format: None };
        assert_eq!(
            typed_enum(&["1".into(), "2".into()], &integer),
            json("[1, 2]")
        );
        let any = Schema::Any;
        assert_eq!(
            typed_enum(&["1".into(), "a".into(), "[1]".into()], &any),
            json(r#"[1, "a", [1]]"#)
        );
        let string = Schema::String { format: None };
        assert_eq!(typed_enum(&["1".into()], &string), json(r#"["1"]"#));
    }
}
