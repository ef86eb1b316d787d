//! The emitter's side of the conversion, which is [`crate::to_json_schema`]
//! (shared with the derive): the converted schemas taken over as the
//! serde_json values the emitter writes, in this one place, and the one
//! rewrite only the emitter needs, the OpenAPI export's references.

use crate::model::Definition;
use crate::to_json_schema::{self, Style};
use serde_json::Value;

pub use crate::to_json_schema::{is_closable, references};

/// The schema of `definition` in `style`, as a serde_json value.
pub fn definition(definition: &Definition, style: &Style) -> Value {
    serde_json::to_value(to_json_schema::definition(definition, style))
        .expect("a JSON value always serializes")
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
