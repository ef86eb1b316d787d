//! The type of a schema that lists `enum` values but no `type`: the kind
//! its values share (`[1, 2]` is an integer enum, `[true]` a boolean one),
//! or any value when they are of several kinds.
//!
//! The model keeps enum values as text, a non-string value as its JSON text,
//! typed by the schema they constrain (`json_schema::typed_enum` turns them
//! back into JSON). In a mixed enum a string that reads as another JSON
//! value (`"1"` beside `1`) cannot be told from it: that is a warning.

use super::{kind_of, Converter};
use crate::model::Schema;
use serde_json::Value;

impl Converter<'_> {
    /// The schema of an untyped `enum` (at `pointer`/enum) with `format`.
    pub(super) fn untyped_enum(
        &mut self,
        values: &Value,
        pointer: &str,
        format: Option<String>,
    ) -> Schema {
        let Some(values) = values.as_array() else {
            // `enum` that is no array is refused where it is read.
            return Schema::String { format };
        };
        let kinds: Vec<&Value> = values.iter().filter(|value| !value.is_null()).collect();
        let all = |test: fn(&Value) -> bool| kinds.iter().all(|value| test(value));
        if all(Value::is_string) {
            Schema::String { format }
        } else if all(|value| value.is_i64() || value.is_u64()) {
            Schema::Integer { format }
        } else if all(Value::is_number) {
            Schema::Number { format }
        } else if all(Value::is_boolean) {
            Schema::Boolean
        } else {
            for (index, value) in values.iter().enumerate() {
                let Value::String(text) = value else {
                    continue;
                };
                if let Ok(parsed) = serde_json::from_str::<Value>(text) {
                    if !parsed.is_string() {
                        self.warn(
                            &format!("{pointer}/enum/{index}"),
                            format!(
                                "the string {text:?} of an enum of mixed kinds reads as {}; \
                                 outputs other than gates.json take it as that value",
                                kind_of(&parsed)
                            ),
                        );
                    }
                }
            }
            Schema::Any
        }
    }
}
