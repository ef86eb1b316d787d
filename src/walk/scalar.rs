//! Whether a value fits a built-in type, as the API server decodes what
//! kubectl sends (YAML turned into JSON by Go's encoding/json). The rules are
//! listed in docs/cli.md, "What check verifies per type".

use super::decoded_scalars::{float_value, integral, is_base64, is_quantity, is_rfc3339};
use crate::document::{Node, Value};
use crate::gates::{Format, Scalar};

/// Why a value does not fit its type: what was expected and what was found,
/// as messages say them (`an integer from … to …`, `3000000000`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Misfit {
    pub expected: String,
    pub found: String,
}

/// `Ok` when `node` is a value of `scalar`. `strict` adds the checks of a
/// string's contents (timestamps, base64, quantities).
pub(crate) fn fit(scalar: &Scalar, node: &Node, strict: bool) -> Result<(), Misfit> {
    let value = &node.value;
    let wrong_kind = |expected: &str| Misfit {
        expected: expected.to_owned(),
        found: node.describe().to_owned(),
    };
    match scalar {
        Scalar::String(format) => match value {
            Value::String(text) if strict => string_format(format.as_ref(), text),
            Value::String(_) => Ok(()),
            _ => Err(wrong_kind("a string")),
        },
        Scalar::Integer(format) => integer(value, format.as_ref()).ok_or_else(|| match value {
            Value::Int(_) | Value::Float(_) => integer_misfit(value, format.as_ref()),
            _ => wrong_kind("an integer"),
        }),
        Scalar::Number(_) => match value {
            Value::Int(_) => Ok(()),
            Value::Float(text) => finite(text),
            _ => Err(wrong_kind("a number")),
        },
        Scalar::Boolean => match value {
            Value::Bool(_) => Ok(()),
            _ => Err(wrong_kind("a boolean")),
        },
        Scalar::Object => match value {
            Value::Map(_) => Ok(()),
            _ => Err(wrong_kind("a mapping")),
        },
        Scalar::Any => Ok(()),
        // `intstr.IntOrString` holds an int32 or a string.
        Scalar::IntOrString => match value {
            Value::String(_) => Ok(()),
            Value::Int(_) | Value::Float(_) => integer(value, Some(&Format::Int32))
                .ok_or_else(|| integer_misfit(value, Some(&Format::Int32)))
                .map_err(|misfit| Misfit {
                    expected: format!("{} or a string", misfit.expected),
                    ..misfit
                }),
            _ => Err(wrong_kind("an integer or a string")),
        },
        Scalar::Quantity => match value {
            Value::String(text) if strict && !is_quantity(text) => Err(Misfit {
                expected: "a quantity such as 500m, 1Gi or 1.5".to_owned(),
                found: format!("{text:?}"),
            }),
            Value::String(_) | Value::Int(_) => Ok(()),
            Value::Float(text) => finite(text),
            _ => Err(wrong_kind("a string or a number")),
        },
    }
}

/// The integer `value` is sent as, when it is one within `format`'s range.
fn integer(value: &Value, format: Option<&Format>) -> Option<()> {
    let number = match value {
        Value::Int(number) => *number,
        Value::Float(text) => float_value(text).and_then(integral)?,
        _ => return None,
    };
    let in_range = match format {
        Some(Format::Int32) => i32::try_from(number).is_ok(),
        None | Some(Format::Int64 | Format::Byte | Format::DateTime | Format::Other(_)) => true,
    };
    in_range.then_some(())
}

/// What was wrong with a number for an integer of `format`.
fn integer_misfit(value: &Value, format: Option<&Format>) -> Misfit {
    let (text, expected) = match value {
        Value::Int(number) => (number.to_string(), range_text(format)),
        Value::Float(text) => match float_value(text).and_then(integral) {
            Some(_) => (text.to_string(), range_text(format)),
            None => (text.to_string(), "an integer".to_owned()),
        },
        _ => (String::new(), "an integer".to_owned()),
    };
    Misfit {
        expected,
        found: text,
    }
}

/// `an integer from -2147483648 to 2147483647` for int32; plain otherwise.
fn range_text(format: Option<&Format>) -> String {
    match format {
        Some(Format::Int32) => format!("an integer from {} to {}", i32::MIN, i32::MAX),
        None | Some(Format::Int64 | Format::Byte | Format::DateTime | Format::Other(_)) => {
            format!("an integer from {} to {}", i64::MIN, i64::MAX)
        }
    }
}

/// A float JSON can carry: kubectl cannot send infinity or NaN.
fn finite(text: &str) -> Result<(), Misfit> {
    match float_value(text) {
        Some(number) if number.is_finite() => Ok(()),
        _ => Err(Misfit {
            expected: "a finite number".to_owned(),
            found: text.to_owned(),
        }),
    }
}

/// The strict checks of a string's contents by its format.
fn string_format(format: Option<&Format>, text: &str) -> Result<(), Misfit> {
    let (ok, expected) = match format {
        Some(Format::DateTime) => (
            is_rfc3339(text),
            "an RFC 3339 date-time such as 2024-01-02T15:04:05Z",
        ),
        Some(Format::Byte) => (is_base64(text), "base64-encoded bytes"),
        None | Some(Format::Int32 | Format::Int64 | Format::Other(_)) => (true, ""),
    };
    if ok {
        Ok(())
    } else {
        Err(Misfit {
            expected: expected.to_owned(),
            found: format!("{text:?}"),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(value: Value) -> Node {
        Node::new(value)
    }

    fn float(text: &str) -> Node {
        node(Value::Float(text.into()))
    }

    fn ty(text: &str) -> Scalar {
        match text.parse().unwrap() {
            crate::gates::TypeExpr::Scalar(scalar) => scalar,
            other => panic!("{other} is not a scalar"),
        }
    }

    #[test]
    fn integers_by_format_and_integral_floats() {
        let int32 = ty("integer(int32)");
        assert!(fit(&int32, &node(Value::Int(3)), false).is_ok());
        assert!(fit(&int32, &float("2.0"), false).is_ok());
        assert!(fit(&int32, &float("1e3"), false).is_ok());
        let misfit = fit(&int32, &node(Value::Int(3_000_000_000)), false).unwrap_err();
        assert_eq!(misfit.found, "3000000000");
        assert!(misfit.expected.contains("2147483647"), "{misfit:?}");
        assert_eq!(
            fit(&int32, &float("2.5"), false).unwrap_err().expected,
            "an integer"
        );
        assert!(fit(&int32, &float("3e9"), false).is_err());
        assert!(fit(
            &ty("integer(int64)"),
            &node(Value::Int(3_000_000_000)),
            false
        )
        .is_ok());
        assert!(fit(&ty("integer"), &float("1e19"), false).is_err());
        assert!(fit(&int32, &node(Value::Bool(true)), false).is_err());
    }

    #[test]
    fn int_or_string_is_an_int32_or_a_string() {
        let t = ty("int-or-string");
        assert!(fit(&t, &node(Value::Int(8080)), false).is_ok());
        assert!(fit(&t, &node(Value::String("http".into())), false).is_ok());
        assert!(fit(&t, &float("8080.0"), false).is_ok());
        assert!(fit(&t, &float("8080.5"), false).is_err());
        assert!(fit(&t, &node(Value::Int(1 << 40)), false).is_err());
        assert!(fit(&t, &node(Value::Map(Vec::new())), false).is_err());
        assert!(fit(&t, &node(Value::Bool(true)), false).is_err());
    }

    #[test]
    fn quantities_strings_and_numbers() {
        let q = ty("quantity");
        assert!(fit(&q, &node(Value::String("1Gi".into())), true).is_ok());
        assert!(fit(&q, &node(Value::Int(2)), true).is_ok());
        assert!(fit(&q, &float("0.5"), true).is_ok());
        assert!(fit(&q, &float(".inf"), false).is_err());
        assert!(fit(&q, &node(Value::String("1 GB".into())), false).is_ok());
        assert!(fit(&q, &node(Value::String("1 GB".into())), true).is_err());
        assert!(fit(&q, &node(Value::Map(Vec::new())), false).is_err());
    }

    #[test]
    fn string_formats_only_when_strict() {
        let time = ty("string(date-time)");
        let bad = node(Value::String("yesterday".into()));
        assert!(fit(&time, &bad, false).is_ok());
        assert!(fit(&time, &bad, true).is_err());
        assert!(fit(&time, &node(Value::Int(5)), false).is_err());
        let bytes = ty("string(byte)");
        assert!(fit(&bytes, &node(Value::String("aGk=".into())), true).is_ok());
        assert!(fit(&bytes, &node(Value::String("hi!".into())), true).is_err());
        assert!(fit(&ty("number(double)"), &float(".nan"), false).is_err());
    }
}
