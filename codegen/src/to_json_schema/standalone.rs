//! A standalone schema: one definition at the root (`$ref`) and every
//! definition it reaches under `$defs`, so a validator needs nothing else.

use super::convert::{self, Style};
use crate::model::MinorModel;
use crate::to_json_schema::Object;
use std::collections::BTreeSet;
use vergate_core::json::Value;

/// The `$schema` of every schema vergate writes.
pub const DRAFT_2020_12: &str = "https://json-schema.org/draft/2020-12/schema";

/// The standalone schema of definition `name` in `minor`: `$schema`, a
/// `$ref` to the definition and, under `$defs`, the definitions reachable
/// from it, each converted in `style` (whose `ref_base` must be `#/$defs/`).
/// The emitter's per-definition files hold the same plus a `$comment` and a
/// `title`.
pub fn standalone(minor: &MinorModel, name: &str, style: &Style) -> Value {
    let defs = closure(minor, name)
        .into_iter()
        .map(|reached| {
            let schema = convert::definition(&minor.definitions[reached], style);
            (reached.to_owned(), schema)
        })
        .collect();
    Value::Object(Object::from_iter([
        ("$schema".to_owned(), super::string(DRAFT_2020_12)),
        (
            "$ref".to_owned(),
            Value::String(format!("{}{name}", style.ref_base)),
        ),
        ("$defs".to_owned(), Value::Object(defs)),
    ]))
}

/// `name` and every definition of `minor` reachable from it; empty when the
/// minor has no definition `name`.
fn closure<'a>(minor: &'a MinorModel, name: &str) -> BTreeSet<&'a str> {
    let mut reached = BTreeSet::new();
    let mut pending = vec![name];
    while let Some(next) = pending.pop() {
        let Some((name, definition)) = minor.definitions.get_key_value(next) else {
            continue;
        };
        if reached.insert(name.as_str()) {
            pending.extend(convert::references(&definition.schema));
        }
    }
    reached
}
