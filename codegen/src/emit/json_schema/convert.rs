//! The converter's values as serde_json's, for the deterministic writer
//! (`emit::json_text`), and the one rewrite only the emitter needs: the
//! OpenAPI export's references. The conversion itself is
//! [`crate::to_json_schema`], shared with the derive.

use crate::model::Definition;
use crate::to_json_schema::{self, Json, Style};
use serde_json::{Map, Number, Value};

pub use crate::to_json_schema::{is_closable, references, QUANTITY};

/// The schema of `definition` in `style`, as a serde_json value.
pub fn definition(definition: &Definition, style: &Style) -> Value {
    to_value(to_json_schema::definition(definition, style))
}

/// `json` as a serde_json value. A number keeps its value (the converter
/// only writes numbers serde_json reads); one serde_json could not read
/// would stay its text, as a string.
pub fn to_value(json: Json) -> Value {
    match json {
        Json::Null => Value::Null,
        Json::Bool(value) => Value::Bool(value),
        Json::Number(text) => text
            .parse::<Number>()
            .map_or_else(|_| Value::String(text), Value::Number),
        Json::String(text) => Value::String(text),
        Json::Array(items) => Value::Array(items.into_iter().map(to_value).collect()),
        Json::Object(members) => Value::Object(
            members
                .into_iter()
                .map(|(key, value)| (key, to_value(value)))
                .collect::<Map<String, Value>>(),
        ),
    }
}

/// Points the references of a schema converted with the ref base `from` at
/// `to` instead, as converting with `to` would have: the `$ref`s that
/// [`definition`] writes sit at the top, in `properties`, `items`,
/// `additionalProperties`, the `anyOf` of a property that may be null and
/// the `oneOf` / `anyOf` of a union.
/// Kept keywords (`examples`, `const`, `default`…) are never entered,
/// whatever they hold.
pub fn rebase_refs(schema: &mut Value, from: &str, to: &str) {
    let Value::Object(map) = schema else {
        return;
    };
    if let Some(Value::String(target)) = map.get_mut("$ref") {
        if let Some(name) = target.strip_prefix(from) {
            *target = format!("{to}{name}");
        }
    }
    for key in ["items", "additionalProperties"] {
        if let Some(inner) = map.get_mut(key) {
            rebase_refs(inner, from, to);
        }
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(Value::Array(options)) = map.get_mut(key) {
            for option in options {
                rebase_refs(option, from, to);
            }
        }
    }
    if let Some(Value::Object(properties)) = map.get_mut("properties") {
        for property in properties.values_mut() {
            rebase_refs(property, from, to);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_convert_whole() {
        let text = r#"{"a":[1,-2.5e3,1.0,18446744073709551616,true,null],"b":{"c":"\n"}}"#;
        let ours = to_value(Json::parse(text).unwrap());
        assert_eq!(ours, serde_json::from_str::<Value>(text).unwrap());
    }
}
