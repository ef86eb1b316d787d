//! The type changes `upgrade` converts: only where the value means the same
//! in the new type and only one way of writing it fits. Everything else is
//! refused, so no document the target rejects is written.
//!
//! | old type | new type | value | result |
//! |---|---|---|---|
//! | integer, string or int-or-string | int-or-string | an integer or a string | kept |
//! | integer or int-or-string | string | an integer | its decimal text (`8080` → `"8080"`) |
//! | string (any format) or int-or-string | string | a string | kept |
//! | integer (any format) or int-or-string | integer | an integer that fits the new format | kept |
//!
//! A string never becomes an integer (`"http"` is a named port, and `"080"`
//! has no single reading), and nothing converts to or from booleans,
//! numbers, lists, maps or definitions.

use crate::document::Value;
use crate::gates::{Format, Scalar, TypeExpr};

/// The value `value` (of type `from`) takes in type `to`, or `None` when no
/// lossless, unambiguous conversion exists.
pub(super) fn convert(value: &Value, from: &TypeExpr, to: &TypeExpr) -> Option<Value> {
    let (TypeExpr::Scalar(from), TypeExpr::Scalar(to)) = (from, to) else {
        return None;
    };
    if !converts_from(from) {
        return None;
    }
    match (value, to) {
        (Value::Int(_) | Value::String(_), Scalar::IntOrString) => Some(value.clone()),
        (Value::Int(number), Scalar::String(None)) => {
            Some(Value::String(number.to_string().into()))
        }
        (Value::String(_), Scalar::String(None)) => Some(value.clone()),
        (Value::Int(number), Scalar::Integer(format)) if fits(*number, format.as_ref()) => {
            Some(value.clone())
        }
        _ => None,
    }
}

/// True for the old types a conversion may start from.
fn converts_from(from: &Scalar) -> bool {
    match from {
        Scalar::Integer(_) | Scalar::String(_) | Scalar::IntOrString => true,
        Scalar::Number(_) | Scalar::Boolean | Scalar::Object | Scalar::Any | Scalar::Quantity => {
            false
        }
    }
}

/// True when an integer of `format` holds `number`; an unknown format holds
/// nothing for sure.
fn fits(number: i64, format: Option<&Format>) -> bool {
    match format {
        None | Some(Format::Int64) => true,
        Some(Format::Int32) => i32::try_from(number).is_ok(),
        Some(Format::Byte | Format::DateTime | Format::Other(_)) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn string(text: &str) -> Value {
        Value::String(text.into())
    }

    fn convert(value: &Value, from: &str, to: &str) -> Option<Value> {
        super::convert(value, &from.parse().unwrap(), &to.parse().unwrap())
    }

    #[test]
    fn lossless_conversions() {
        let port = Value::Int(8080);
        assert_eq!(
            convert(&port, "integer(int32)", "string"),
            Some(string("8080"))
        );
        assert_eq!(
            convert(&port, "integer(int32)", "int-or-string"),
            Some(port.clone())
        );
        assert_eq!(
            convert(&string("http"), "string", "int-or-string"),
            Some(string("http"))
        );
        assert_eq!(
            convert(&port, "int-or-string", "integer(int32)"),
            Some(port.clone())
        );
        assert_eq!(
            convert(&port, "int-or-string", "string"),
            Some(string("8080"))
        );
        assert_eq!(
            convert(&port, "integer(int32)", "integer(int64)"),
            Some(port)
        );
        assert_eq!(
            convert(&string("x"), "string(byte)", "string"),
            Some(string("x"))
        );
    }

    #[test]
    fn everything_else_is_refused() {
        let big = Value::Int(i64::from(i32::MAX) + 1);
        assert_eq!(convert(&big, "integer(int64)", "integer(int32)"), None);
        assert_eq!(convert(&string("80"), "string", "integer(int32)"), None);
        assert_eq!(
            convert(&string("http"), "int-or-string", "integer(int32)"),
            None
        );
        assert_eq!(
            convert(&Value::Int(3), "integer(int32)", "io.example.Retry"),
            None
        );
        assert_eq!(
            convert(&Value::Int(3), "integer(int32)", "number(double)"),
            None
        );
        assert_eq!(convert(&Value::Bool(true), "boolean", "string"), None);
        assert_eq!(
            convert(&Value::Int(1), "number(double)", "integer(int32)"),
            None
        );
        assert_eq!(convert(&string("x"), "string", "string(date-time)"), None);
        assert_eq!(
            convert(&Value::Int(3), "integer(int32)", "[]integer(int32)"),
            None
        );
    }
}
