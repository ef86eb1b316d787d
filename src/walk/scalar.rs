//! Whether a value fits a built-in type.

use crate::document::Value;
use crate::gates::Scalar;

/// `Ok` when `value` is a value of `scalar`; otherwise what was expected,
/// as messages say it (`an integer`).
pub(crate) fn fit(scalar: &Scalar, value: &Value) -> Result<(), &'static str> {
    let (fits, expected) = match scalar {
        Scalar::String(_) => (matches!(value, Value::String(_)), "a string"),
        Scalar::Integer(_) => (matches!(value, Value::Int(_)), "an integer"),
        Scalar::Number(_) => (matches!(value, Value::Int(_) | Value::Float(_)), "a number"),
        Scalar::Boolean => (matches!(value, Value::Bool(_)), "a boolean"),
        Scalar::Object => (matches!(value, Value::Map(_)), "a mapping"),
        Scalar::Any => (true, "any value"),
        Scalar::IntOrString => (
            matches!(value, Value::Int(_) | Value::String(_)),
            "an integer or a string",
        ),
    };
    if fits {
        Ok(())
    } else {
        Err(expected)
    }
}
