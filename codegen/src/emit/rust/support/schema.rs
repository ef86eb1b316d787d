//! The `schemars` feature's one helper: a type's JSON Schema from the text
//! vergate wrote for it, each `{"$subschema": i}` object in it replaced by
//! the schema the generator gives for the i-th type the impl lists (a
//! `$ref`, or the schema inline, as the generator's settings say), merged
//! with the object's other keywords (a property's description).

use schemars::{Schema, SchemaGenerator};
use serde_json::{Map, Value};

/// One referenced type's schema: `SchemaGenerator::subschema_for::<T>`.
pub type Subschema = fn(&mut SchemaGenerator) -> Schema;

/// The schema of `text` with its subschemas filled in.
pub fn build(generator: &mut SchemaGenerator, text: &str, subschemas: &[Subschema]) -> Schema {
    // The text is vergate's own output, checked by its tests; an empty
    // schema (anything goes) is the answer if it were not JSON.
    let mut value: Value = serde_json::from_str(text).unwrap_or(Value::Bool(true));
    fill(&mut value, generator, subschemas);
    Schema::try_from(value).unwrap_or_default()
}

fn fill(value: &mut Value, generator: &mut SchemaGenerator, subschemas: &[Subschema]) {
    match value {
        Value::Object(map) => {
            let index = map.get("$subschema").and_then(Value::as_u64);
            if let Some(subschema) = index.and_then(|i| subschemas.get(i as usize)) {
                map.remove("$subschema");
                let mut inner = match subschema(generator).to_value() {
                    Value::Object(inner) => inner,
                    // `true`: any value.
                    _ => Map::new(),
                };
                inner.append(map);
                *value = Value::Object(inner);
                return;
            }
            for member in map.values_mut() {
                fill(member, generator, subschemas);
            }
        }
        Value::Array(items) => {
            for item in items {
                fill(item, generator, subschemas);
            }
        }
        _ => {}
    }
}
