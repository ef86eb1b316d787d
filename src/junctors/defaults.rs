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

/// The part of `schema` [`apply`] reads: `properties`, `items` and
/// `additionalProperties` down to every `default`, and nothing else;
/// `None` when it has no default. A place keeps this, not its schema, so
/// places nested in one another do not each copy the schema below them.
pub(super) fn skeleton(schema: &Value) -> Option<Value> {
    skeleton_at(schema, 0)
}

fn skeleton_at(schema: &Value, depth: usize) -> Option<Value> {
    let object = schema.as_object().filter(|_| depth <= MAX_DEPTH)?;
    let mut kept = serde_json::Map::new();
    if let Some(default) = object.get("default") {
        kept.insert("default".into(), default.clone());
    }
    if let Some(properties) = object.get("properties").and_then(Value::as_object) {
        let inner: serde_json::Map<String, Value> = properties
            .iter()
            .filter_map(|(key, property)| Some((key.clone(), skeleton_at(property, depth + 1)?)))
            .collect();
        // The names matter to `additionalProperties` even without defaults.
        if !inner.is_empty() || object.contains_key("additionalProperties") {
            let named = properties
                .keys()
                .map(|key| {
                    (
                        key.clone(),
                        inner
                            .get(key)
                            .cloned()
                            .unwrap_or_else(|| Value::Object(Default::default())),
                    )
                })
                .collect();
            kept.insert("properties".into(), Value::Object(named));
        }
    }
    for key in ["items", "additionalProperties"] {
        if let Some(inner) = object
            .get(key)
            .and_then(|inner| skeleton_at(inner, depth + 1))
        {
            kept.insert(key.into(), inner);
        }
    }
    let defaults_below = kept.contains_key("default")
        || kept.contains_key("items")
        || kept.contains_key("additionalProperties")
        || kept
            .get("properties")
            .and_then(Value::as_object)
            .is_some_and(|properties| {
                properties
                    .values()
                    .any(|p| p.as_object().is_some_and(|p| !p.is_empty()))
            });
    defaults_below.then_some(Value::Object(kept))
}
