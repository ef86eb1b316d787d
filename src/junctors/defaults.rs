//! The defaults of a structural schema laid on a value before its
//! junctors are validated, as the API server defaults a custom resource
//! before it validates it: a property missing from an object gets its
//! schema's `default`; objects, list items and map values are defaulted in
//! turn. Nesting is bounded as the schema read is.

use serde_json::Value;

/// The deepest nesting followed.
const MAX_DEPTH: usize = 64;

/// Lays the defaults of `schema` on `value`.
pub(super) fn apply(schema: &Value, value: &mut Value) {
    apply_at(schema, value, 0);
}

fn apply_at(schema: &Value, value: &mut Value, depth: usize) {
    if depth > MAX_DEPTH {
        return;
    }
    let Some(schema) = schema.as_object() else {
        return;
    };
    match value {
        Value::Object(entries) => {
            let properties = schema.get("properties").and_then(Value::as_object);
            if let Some(properties) = properties {
                for (key, property) in properties {
                    match entries.get_mut(key) {
                        Some(inner) => apply_at(property, inner, depth + 1),
                        None => {
                            if let Some(default) = property.get("default") {
                                entries.insert(key.clone(), default.clone());
                            }
                        }
                    }
                }
            }
            if let Some(additional) = schema.get("additionalProperties").filter(|a| a.is_object()) {
                for (key, inner) in entries.iter_mut() {
                    if !properties.is_some_and(|properties| properties.contains_key(key)) {
                        apply_at(additional, inner, depth + 1);
                    }
                }
            }
        }
        Value::Array(items) => {
            if let Some(item_schema) = schema.get("items") {
                for item in items {
                    apply_at(item_schema, item, depth + 1);
                }
            }
        }
        _ => {}
    }
}
