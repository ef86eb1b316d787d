//! Value constraints as Pkl type constraints: `String(length <= 63)`,
//! `Int32(isBetween(1, 64))`, `String(contains(Regex(#"^[a-z]+$"#)))`,
//! `Listing<String>(length <= 4, isDistinct)`.
//!
//! A JSON Schema `pattern` is unanchored, so it becomes `contains(Regex(…))`
//! (Pkl's `matches` must match the whole string). Pkl's regexes are Java's,
//! which read nearly every RE2 pattern alike; the RE2-only syntax
//! (`(?P<name>…)`, POSIX classes `[[:alpha:]]`, `\C`, `\z` in a class …)
//! is left out, as is `multipleOf`, with the constraint still stated in
//! the JSON Schemas and gates.json. An enum string keeps its literal type
//! (stronger than any constraint); a reference or `Any` takes none.

use super::escape::pkl_string;
use crate::model::Schema;
use vergate_core::gates::{Constraints, Number};

/// `ty` (the Pkl type of a value of `schema`) with the constraints Pkl can
/// state appended, or `ty` itself.
pub fn constrained(ty: String, schema: &Schema, constraints: &Constraints) -> String {
    let parts = match schema {
        Schema::String { .. } if !ty.contains('"') => string(constraints),
        Schema::Integer { .. } | Schema::Number { .. } => number(constraints),
        Schema::Array(_) => {
            let mut parts = length(constraints.min_items, constraints.max_items);
            if constraints.unique_items {
                parts.push("isDistinct".into());
            }
            parts
        }
        Schema::Map(_) => length(constraints.min_properties, constraints.max_properties),
        // Number keywords hold the integer, string keywords the string.
        Schema::IntOrString => {
            let side = |ty: &str, parts: Vec<String>| {
                if parts.is_empty() {
                    ty.to_owned()
                } else {
                    format!("{ty}({})", parts.join(", "))
                }
            };
            let (numbers, strings) = (number(constraints), string(constraints));
            if numbers.is_empty() && strings.is_empty() {
                return ty;
            }
            return format!("{}|{}", side("Int", numbers), side("String", strings));
        }
        _ => Vec::new(),
    };
    if parts.is_empty() {
        ty
    } else {
        format!("{ty}({})", parts.join(", "))
    }
}

/// True for a pattern Java's regex engine reads as RE2 does.
pub fn java_reads_alike(pattern: &str) -> bool {
    !["(?P<", "[[:", "\\C", "\\Q", "(?U"]
        .iter()
        .any(|re2_only| pattern.contains(re2_only))
}

fn string(constraints: &Constraints) -> Vec<String> {
    let mut parts = length(constraints.min_length, constraints.max_length);
    if let Some(pattern) = constraints
        .pattern
        .as_deref()
        .filter(|pattern| java_reads_alike(pattern))
    {
        parts.push(format!("contains(Regex({}))", pkl_string(pattern)));
    }
    parts
}

fn length(min: Option<u64>, max: Option<u64>) -> Vec<String> {
    match (min, max) {
        (Some(min), Some(max)) => vec![format!("length.isBetween({min}, {max})")],
        (Some(min), None) => vec![format!("length >= {min}")],
        (None, Some(max)) => vec![format!("length <= {max}")],
        (None, None) => Vec::new(),
    }
}

fn number(constraints: &Constraints) -> Vec<String> {
    let literal = |number: Number| match number.as_integer() {
        Some(integer) => integer.to_string(),
        // Pkl's Float literals need a digit before an exponent's `e` and
        // take Rust's shortest round-trip form as it is.
        None => format!("{:?}", number.0),
    };
    let mut parts = Vec::new();
    match (constraints.minimum, constraints.maximum) {
        (Some(min), Some(max)) => {
            parts.push(format!("isBetween({}, {})", literal(min), literal(max)))
        }
        (Some(min), None) => parts.push(format!("this >= {}", literal(min))),
        (None, Some(max)) => parts.push(format!("this <= {}", literal(max))),
        (None, None) => {}
    }
    if let Some(min) = constraints.exclusive_minimum {
        parts.push(format!("this > {}", literal(min)));
    }
    if let Some(max) = constraints.exclusive_maximum {
        parts.push(format!("this < {}", literal(max)));
    }
    parts
}

#[cfg(test)]
mod tests {
    use super::*;

    fn string_schema() -> Schema {
        Schema::String { format: None }
    }

    #[test]
    fn each_kind_of_value() {
        let name = Constraints {
            pattern: Some(r"^[a-z]\d*$".into()),
            max_length: Some(63),
            ..Constraints::default()
        };
        assert_eq!(
            constrained("String".into(), &string_schema(), &name),
            r#"String(length <= 63, contains(Regex("^[a-z]\\d*$")))"#
        );
        let port = Constraints {
            minimum: Some(Number(0.0)),
            maximum: Some(Number(65535.0)),
            exclusive_maximum: Some(Number(1.5e300)),
            ..Constraints::default()
        };
        assert_eq!(
            constrained("Int32".into(), &Schema::Integer { format: None }, &port),
            "Int32(isBetween(0, 65535), this < 1.5e300)"
        );
        let tags = Constraints {
            min_items: Some(1),
            max_items: Some(4),
            unique_items: true,
            ..Constraints::default()
        };
        let list = Schema::Array(Box::new(string_schema()));
        assert_eq!(
            constrained("Listing<String>".into(), &list, &tags),
            "Listing<String>(length.isBetween(1, 4), isDistinct)"
        );
    }

    #[test]
    fn what_pkl_cannot_say_is_left_out() {
        let named_group = Constraints {
            pattern: Some("(?P<year>[0-9]{4})".into()),
            ..Constraints::default()
        };
        assert_eq!(
            constrained("String".into(), &string_schema(), &named_group),
            "String"
        );
        let bounded = Constraints {
            max_length: Some(3),
            ..Constraints::default()
        };
        let enum_type = r#""a"|"b""#.to_owned();
        assert_eq!(
            constrained(enum_type.clone(), &string_schema(), &bounded),
            enum_type
        );
        assert_eq!(
            constrained("Foo".into(), &Schema::Ref("Foo".into()), &bounded),
            "Foo"
        );
    }
}
