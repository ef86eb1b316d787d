//! The defaults of a structural schema laid on a value before its
//! junctors are validated, as the API server defaults a custom resource
//! before it validates it: a property missing from an object gets its
//! schema's `default`; objects, list items and map values are defaulted in
//! turn. Nesting is bounded as the schema read is.

use serde_json::Value;

/// The deepest nesting followed.
const MAX_DEPTH: usize = 64;

/// Lays the defaults of `schema` on `value`, each taking its size as
/// JSON text from `left`; false when `left` ran out (the value is then
/// defaulted in part).
pub(super) fn apply(schema: &Value, value: &mut Value, left: &mut usize) -> bool {
    apply_at(schema, value, 0, left)
}

fn apply_at(schema: &Value, value: &mut Value, depth: usize, left: &mut usize) -> bool {
    if depth > MAX_DEPTH {
        return true;
    }
    let Some(schema) = schema.as_object() else {
        return true;
    };
    match value {
        Value::Object(entries) => {
            let properties = schema.get("properties").and_then(Value::as_object);
            if let Some(properties) = properties {
                for (key, property) in properties {
                    let done = match entries.get_mut(key) {
                        Some(inner) => apply_at(property, inner, depth + 1, left),
                        None => match property.get("default") {
                            Some(default) => {
                                let size = default.to_string().len();
                                match left.checked_sub(size) {
                                    Some(rest) => {
                                        *left = rest;
                                        entries.insert(key.clone(), default.clone());
                                        true
                                    }
                                    None => false,
                                }
                            }
                            None => true,
                        },
                    };
                    if !done {
                        return false;
                    }
                }
            }
            if let Some(additional) = schema.get("additionalProperties").filter(|a| a.is_object()) {
                for (key, inner) in entries.iter_mut() {
                    if !properties.is_some_and(|properties| properties.contains_key(key))
                        && !apply_at(additional, inner, depth + 1, left)
                    {
                        return false;
                    }
                }
            }
        }
        Value::Array(items) => {
            if let Some(item_schema) = schema.get("items") {
                for item in items {
                    if !apply_at(item_schema, item, depth + 1, left) {
                        return false;
                    }
                }
            }
        }
        _ => {}
    }
    true
}
