//! Which enum definitions become Rust enums, and the Rust name each enum
//! value starts from.
//!
//! Any string can be an enum value. A value's name is the UpperCamelCase of
//! its ASCII letters and digits, every other character (punctuation,
//! whitespace, non-ASCII) separating words: `a-b`, `a_b` and `A_B` are all
//! `AB`, `ClusterIP` stays `ClusterIP`. A value with no ASCII letter or
//! digit is `Empty` when it is `""` and `Value` otherwise; a name that
//! would start with a digit starts with `V` (`2xx` is `V2xx`). Keywords
//! become raw identifiers ([`ident`](super::ident)). Values whose names
//! still collide are told apart by the layout (the spec-driven output: `2`,
//! `3`, … in byte order of the values, over every minor at once: `A_B`,
//! `a-b` and `a_b` are `AB`, `AB2` and `AB3`; see `emit/rust/paths.rs`). The wire
//! value is always kept exactly, whatever the name.

use crate::model::{Definition, Schema};
use heck::ToUpperCamelCase;

/// The name enum value `value` starts from (before collisions are resolved).
pub fn variant_name(value: &str) -> String {
    let words: String = value
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    let name = words.to_upper_camel_case();
    if name.starts_with(|c: char| c.is_ascii_digit()) {
        format!("V{name}")
    } else if !name.is_empty() {
        name
    } else if value.is_empty() {
        "Empty".to_owned()
    } else {
        "Value".to_owned()
    }
}

/// True when `definition` becomes a Rust enum of unit variants: it lists
/// enum values and its values are strings. An enum of integers, numbers or
/// booleans (or of mixed kinds) stays a newtype of its value type, so that
/// its wire form is the number or boolean itself.
pub fn is_string_enum(definition: &Definition) -> bool {
    !definition.enum_values.is_empty()
        && matches!(definition.schema, Schema::String { .. } | Schema::Ref(_))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_value_has_a_name() {
        let names: Vec<String> = [
            "",
            "a-b",
            "a_b",
            "A_B",
            "ClusterIP",
            "type",
            "1x",
            "é",
            " ",
            "two words",
        ]
        .iter()
        .map(|value| variant_name(value))
        .collect();
        assert_eq!(
            names,
            [
                "Empty",
                "AB",
                "AB",
                "AB",
                "ClusterIp",
                "Type",
                "V1x",
                "Value",
                "Value",
                "TwoWords"
            ]
        );
        for name in &names {
            // Every name is (or, with an underscore before a digit,
            // becomes) an identifier.
            let ident = crate::derive::ident(name);
            assert!(!ident.to_string().is_empty());
        }
    }

    #[test]
    fn only_string_enums_are_rust_enums() {
        let mut definition = Definition::new("Level", Schema::Integer { format: None });
        definition.enum_values = vec!["1".into(), "2".into()];
        assert!(!is_string_enum(&definition));
        definition.schema = Schema::String { format: None };
        assert!(is_string_enum(&definition));
        definition.enum_values.clear();
        assert!(!is_string_enum(&definition));
    }
}
