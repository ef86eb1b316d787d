//! The API server's field error messages (k8s.io/apimachinery
//! `pkg/util/validation/field`), as the checks build them: `Required
//! value`, `Invalid value: "x": why`, `Forbidden: why`, `Duplicate value:
//! "x"`, `Unsupported value: "x": supported values: "a", "b"`.

use super::Broken;
use crate::walk::go_quoted;

/// A finding at `last`, on `line`.
pub(super) fn at(last: impl Into<String>, line: u32, message: String) -> Broken {
    Broken {
        last: last.into(),
        line,
        message,
    }
}

/// `field.Required`, with its detail when not empty.
pub(super) fn required(detail: &str) -> String {
    if detail.is_empty() {
        "Required value".to_owned()
    } else {
        format!("Required value: {detail}")
    }
}

/// `field.Invalid` of a string value.
pub(super) fn invalid(value: &str, detail: &str) -> String {
    format!("Invalid value: {}: {detail}", go_quoted(value))
}

/// `field.Invalid` of a value already rendered (a number, a list).
pub(super) fn invalid_raw(value: &str, detail: &str) -> String {
    format!("Invalid value: {value}: {detail}")
}

/// `field.Forbidden`.
pub(super) fn forbidden(detail: &str) -> String {
    format!("Forbidden: {detail}")
}

/// `field.Duplicate` of a string value.
pub(super) fn duplicate(value: &str) -> String {
    format!("Duplicate value: {}", go_quoted(value))
}

/// `field.NotSupported` of a string value among `supported`.
pub(super) fn not_supported(value: &str, supported: &[&str]) -> String {
    let list: Vec<String> = supported.iter().map(|value| go_quoted(value)).collect();
    format!(
        "Unsupported value: {}: supported values: {}",
        go_quoted(value),
        list.join(", ")
    )
}

/// A string list as `field.Invalid` prints one (JSON: `["a","b"]`).
pub(super) fn json_list(values: &[&str]) -> String {
    serde_json::to_string(values).unwrap_or_default()
}
