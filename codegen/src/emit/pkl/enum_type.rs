//! Pkl types for enums whose values are not strings.
//!
//! Pkl has literal types for strings only (`"a"|"b"`, written by the
//! module), so an enum of integers, numbers or booleans, or of values of
//! mixed kinds, is its value type with a constraint that lists the values:
//! `Int(List(1, 2, 3).contains(this))`, `Any(List("a", 1, true).contains(this))`.
//! Each value keeps its exact JSON value.

use super::escape::pkl_string;
use serde_json::Value;

/// `base` constrained to `values` (each a JSON scalar's text, or a string).
pub fn constrained(base: &str, values: &[String]) -> String {
    let literals: Vec<String> = values.iter().map(|value| literal(value)).collect();
    format!("{base}(List({}).contains(this))", literals.join(", "))
}

/// The Pkl literal of one enum value: a number or boolean as written in
/// JSON (Pkl reads every JSON number), anything else as a string.
pub fn literal(value: &str) -> String {
    match serde_json::from_str::<Value>(value) {
        Ok(Value::Number(_) | Value::Bool(_)) => value.to_owned(),
        _ => pkl_string(value),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_keep_their_kind() {
        assert_eq!(
            constrained("Int", &["1".into(), "-20".into()]),
            "Int(List(1, -20).contains(this))"
        );
        assert_eq!(
            constrained(
                "Any",
                &["a".into(), "1.5e3".into(), "true".into(), "".into()]
            ),
            "Any(List(\"a\", 1.5e3, true, \"\").contains(this))"
        );
    }
}
