//! The value constraints of a definition or property, read from the
//! keywords the model keeps (as JSON text) into gates.json's typed
//! [`Constraints`]. One reading for every consumer: gates.json (and so
//! `vergate check`), the Pkl constraints and the Rust docs. The JSON
//! Schema converter writes the keywords themselves.

use super::Property;
use std::collections::BTreeMap;
use vergate_core::gates::{Constraints, Number, ValidationRule};
use vergate_core::json::{self, Value};

/// The constraints the `keywords` state. OpenAPI 3.0's boolean
/// `exclusiveMinimum: true` moves `minimum` to `exclusiveMinimum` (as
/// JSON Schema 2020-12 writes it); a keyword whose value has the wrong
/// type (a negative `maxLength`, a `pattern` that is no string) is left
/// out, as the loader keeps keywords verbatim.
pub fn constraints_of(keywords: &BTreeMap<String, String>) -> Constraints {
    let keyword = |key: &str| keywords.get(key).and_then(|text| json::parse(text));
    let number = |key: &str| match keyword(key) {
        Some(Value::Number(number)) => Some(Number(number.as_f64())),
        _ => None,
    };
    let count = |key: &str| match keyword(key) {
        Some(Value::Number(number)) => Some(number.as_f64())
            .filter(|n| *n >= 0.0 && n.fract() == 0.0 && *n <= u64::MAX as f64)
            .map(|n| n as u64),
        _ => None,
    };
    let flag = |key: &str| keyword(key) == Some(Value::Bool(true));
    let (mut minimum, mut maximum) = (number("minimum"), number("maximum"));
    let mut exclusive_minimum = number("exclusiveMinimum");
    let mut exclusive_maximum = number("exclusiveMaximum");
    if flag("exclusiveMinimum") {
        exclusive_minimum = minimum.take();
    }
    if flag("exclusiveMaximum") {
        exclusive_maximum = maximum.take();
    }
    Constraints {
        pattern: match keyword("pattern") {
            Some(Value::String(pattern)) => Some(pattern),
            _ => None,
        },
        minimum,
        maximum,
        exclusive_minimum,
        exclusive_maximum,
        multiple_of: number("multipleOf").filter(|n| n.0 > 0.0),
        min_length: count("minLength"),
        max_length: count("maxLength"),
        min_items: count("minItems"),
        max_items: count("maxItems"),
        unique_items: flag("uniqueItems"),
        min_properties: count("minProperties"),
        max_properties: count("maxProperties"),
        rules: match keyword("x-kubernetes-validations") {
            Some(Value::Array(entries)) => entries.iter().filter_map(validation_rule).collect(),
            _ => Vec::new(),
        },
        list_type: None,
        list_map_keys: Vec::new(),
        list_map_defaults: BTreeMap::new(),
        element: None,
    }
}

/// The constraints of `property`: those its keywords state, its list
/// type and map keys, and those on each of its elements.
pub fn of_property(property: &Property) -> Constraints {
    let mut constraints = constraints_of(&property.keywords);
    constraints.list_type = property.list_type;
    constraints
        .list_map_keys
        .clone_from(&property.list_map_keys);
    constraints
        .list_map_defaults
        .clone_from(&property.list_map_defaults);
    let element = constraints_of(&property.element_keywords);
    if !element.is_empty() {
        constraints.element = Some(Box::new(element));
    }
    constraints
}

/// One entry of `x-kubernetes-validations`; `None` without a `rule`.
fn validation_rule(entry: &Value) -> Option<ValidationRule> {
    let Value::Object(members) = entry else {
        return None;
    };
    let text = |key: &str| match members.get(key) {
        Some(Value::String(text)) => Some(text.clone()),
        _ => None,
    };
    Some(ValidationRule {
        rule: text("rule")?,
        message: text("message"),
        message_expression: text("messageExpression"),
        field_path: text("fieldPath"),
        reason: text("reason"),
    })
}

/// The constraints as one line of prose for documentation (`pattern
/// `^[a-z]+$`, at most 63 characters`), or `None` when there are none.
pub fn describe(constraints: &Constraints) -> Option<String> {
    let mut parts = Vec::new();
    if let Some(pattern) = &constraints.pattern {
        // A code span's fence is longer than any run of backticks inside.
        let longest = pattern.split(|c| c != '`').map(str::len).max().unwrap_or(0);
        let fence = "`".repeat(longest + 1);
        let pad = if longest > 0 { " " } else { "" };
        parts.push(format!("matches {fence}{pad}{pattern}{pad}{fence}"));
    }
    let bound = |parts: &mut Vec<String>, what: &str, value: Option<Number>| {
        if let Some(value) = value {
            parts.push(format!("{what} {value}"));
        }
    };
    bound(&mut parts, "at least", constraints.minimum);
    bound(&mut parts, "greater than", constraints.exclusive_minimum);
    bound(&mut parts, "at most", constraints.maximum);
    bound(&mut parts, "less than", constraints.exclusive_maximum);
    bound(&mut parts, "a multiple of", constraints.multiple_of);
    let count = |parts: &mut Vec<String>, what: &str, value: Option<u64>, unit: &str| {
        if let Some(value) = value {
            parts.push(format!("{what} {value} {unit}"));
        }
    };
    count(&mut parts, "at least", constraints.min_length, "characters");
    count(&mut parts, "at most", constraints.max_length, "characters");
    count(&mut parts, "at least", constraints.min_items, "items");
    count(&mut parts, "at most", constraints.max_items, "items");
    if constraints.unique_items {
        parts.push("items unique".to_owned());
    }
    count(
        &mut parts,
        "at least",
        constraints.min_properties,
        "entries",
    );
    count(&mut parts, "at most", constraints.max_properties, "entries");
    (!parts.is_empty()).then(|| parts.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keywords(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(key, value)| ((*key).to_owned(), (*value).to_owned()))
            .collect()
    }

    #[test]
    fn openapi_3_0_boolean_exclusive_bounds_become_numbers() {
        let read = constraints_of(&keywords(&[
            ("minimum", "0"),
            ("exclusiveMinimum", "true"),
            ("maximum", "65535"),
            ("exclusiveMaximum", "false"),
        ]));
        assert_eq!(read.minimum, None);
        assert_eq!(read.exclusive_minimum, Some(Number(0.0)));
        assert_eq!(read.maximum, Some(Number(65535.0)));
        assert_eq!(read.exclusive_maximum, None);
    }

    #[test]
    fn openapi_3_1_numeric_bounds_and_counts() {
        let read = constraints_of(&keywords(&[
            ("exclusiveMaximum", "10.5"),
            ("maxLength", "63"),
            ("minLength", "-1"),
            ("pattern", r#""^[a-z]\\d+$""#),
            ("uniqueItems", "true"),
            ("multipleOf", "0"),
            ("title", r#""ignored""#),
        ]));
        assert_eq!(read.exclusive_maximum, Some(Number(10.5)));
        assert_eq!(read.max_length, Some(63));
        assert_eq!(read.min_length, None, "a negative length is no constraint");
        assert_eq!(read.pattern.as_deref(), Some(r"^[a-z]\d+$"));
        assert!(read.unique_items);
        assert_eq!(read.multiple_of, None, "multipleOf must be positive");
        assert_eq!(
            describe(&read).unwrap(),
            r"matches `^[a-z]\d+$`, less than 10.5, at most 63 characters, items unique"
        );
        let backticks = Constraints {
            pattern: Some("a`b".into()),
            ..Constraints::default()
        };
        assert_eq!(describe(&backticks).unwrap(), "matches `` a`b ``");
        assert!(constraints_of(&BTreeMap::new()).is_empty());
        assert_eq!(describe(&Constraints::default()), None);
    }
}
