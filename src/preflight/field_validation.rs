//! What `check` makes of a field the type does not have, as the API
//! server's `fieldValidation` and kubectl's `--validate` name it.

use std::fmt;
use std::str::FromStr;

/// How unknown fields are treated. `kubectl apply` asks for `Strict` by
/// default (`--validate=strict`): the API server refuses the object with
/// `strict decoding error: unknown field "spec.replica"`. A request without
/// it (Helm, client libraries) gets the server's own default, `Warn`: the
/// field is dropped with a warning. `Ignore` drops it silently.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum FieldValidation {
    /// An unknown field is an error (kubectl's default).
    #[default]
    Strict,
    /// An unknown field is a warning (the API server's default).
    Warn,
    /// An unknown field is not reported.
    Ignore,
}

impl FieldValidation {
    /// The three values, as `--validate` takes them.
    pub const ALL: [FieldValidation; 3] = [Self::Strict, Self::Warn, Self::Ignore];

    /// As `--validate` and the API server's `fieldValidation` spell it.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Strict => "strict",
            Self::Warn => "warn",
            Self::Ignore => "ignore",
        }
    }
}

impl fmt::Display for FieldValidation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for FieldValidation {
    type Err = String;

    /// `strict`, `warn`, `ignore` (any case), and kubectl's older
    /// spellings: `true` is `strict`, `false` is `ignore`.
    fn from_str(text: &str) -> Result<Self, String> {
        match text.to_ascii_lowercase().as_str() {
            "strict" | "true" => Ok(Self::Strict),
            "warn" => Ok(Self::Warn),
            "ignore" | "false" => Ok(Self::Ignore),
            _ => Err(format!(
                "{text:?} is not a field validation; use strict (refuse unknown fields, kubectl's default), warn (the API server's default) or ignore"
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_kubectl_spellings() {
        assert_eq!("Strict".parse(), Ok(FieldValidation::Strict));
        assert_eq!("true".parse(), Ok(FieldValidation::Strict));
        assert_eq!("warn".parse(), Ok(FieldValidation::Warn));
        assert_eq!("false".parse(), Ok(FieldValidation::Ignore));
        assert!("loose"
            .parse::<FieldValidation>()
            .unwrap_err()
            .contains("strict"));
        for value in FieldValidation::ALL {
            assert_eq!(value.to_string().parse(), Ok(value));
        }
    }
}
