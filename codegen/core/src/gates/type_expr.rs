//! Type expressions: the `type` of a field in gates.json, as a value.
//!
//! The file holds short strings: `string`, `string(date-time)`,
//! `integer(int32)`, `number(double)`, `boolean`, `any`, `object` (an object
//! with no declared properties), `int-or-string`, `quantity`, `[]T` (array of T),
//! `map[string]T` (object whose values are T), or a definition name such as
//! `io.k8s.api.core.v1.ServicePort`. [`TypeExpr`] is that grammar as an enum:
//! its [`Display`](fmt::Display) writes exactly those strings and its
//! [`FromStr`] reads them back, so code matches on variants and the string
//! form exists only in the file.
//!
//! A definition whose name is one of the built-in words (`string`, `any`, …)
//! reads back as the built-in; OpenAPI definition names are dotted paths in
//! practice, and the grammar has always had this ambiguity.

use std::fmt;
use std::str::FromStr;

/// A field's type.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum TypeExpr {
    /// A value that is not a list, a map or a definition.
    Scalar(Scalar),
    /// A list of values of one type (`[]T`).
    Array(Box<TypeExpr>),
    /// An object whose values all have one type (`map[string]T`).
    Map(Box<TypeExpr>),
    /// A named definition (`io.k8s.api.core.v1.ServicePort`).
    Definition(String),
}

/// The built-in value types.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Scalar {
    /// `string`, `string(<format>)`.
    String(Option<Format>),
    /// `integer`, `integer(<format>)`.
    Integer(Option<Format>),
    /// `number`, `number(<format>)`.
    Number(Option<Format>),
    /// `boolean`.
    Boolean,
    /// `object`: an object with no declared properties.
    Object,
    /// `any`: any value.
    Any,
    /// `int-or-string`: an integer or a string.
    IntOrString,
    /// `quantity`: an amount such as `500m` or `1Gi`, written as a string or
    /// a number (Kubernetes' `resource.Quantity`, whose spec says only
    /// `string`).
    Quantity,
}

/// An OpenAPI `format`, with the ones vergate acts on named.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Format {
    /// `int32`: a signed 32-bit integer.
    Int32,
    /// `int64`: a signed 64-bit integer.
    Int64,
    /// `byte`: base64-encoded bytes.
    Byte,
    /// `date-time`: an RFC 3339 timestamp.
    DateTime,
    /// Any other format, as written (`double`, `uint8`). Never one of the
    /// names above: [`Format::from`] maps those to their variants.
    Other(String),
}

/// The deepest nesting of `[]` and `map[string]` [`TypeExpr::from_str`]
/// reads; real specs nest a few levels.
pub const MAX_NESTING: usize = 32;

impl Default for TypeExpr {
    /// `any`: nothing is known about the value.
    fn default() -> Self {
        TypeExpr::Scalar(Scalar::Any)
    }
}

impl TypeExpr {
    /// The definition's name, when the expression is a definition.
    pub fn definition(&self) -> Option<&str> {
        match self {
            TypeExpr::Definition(name) => Some(name),
            TypeExpr::Scalar(_) | TypeExpr::Array(_) | TypeExpr::Map(_) => None,
        }
    }

    /// The type inside every list and map level (`[]map[string]T` → `T`).
    pub fn innermost(&self) -> &TypeExpr {
        let mut ty = self;
        while let TypeExpr::Array(inner) | TypeExpr::Map(inner) = ty {
            ty = inner;
        }
        ty
    }
}

impl Scalar {
    /// The scalar's word without its format (`integer`, `int-or-string`).
    pub fn word(&self) -> &'static str {
        match self {
            Scalar::String(_) => "string",
            Scalar::Integer(_) => "integer",
            Scalar::Number(_) => "number",
            Scalar::Boolean => "boolean",
            Scalar::Object => "object",
            Scalar::Any => "any",
            Scalar::IntOrString => "int-or-string",
            Scalar::Quantity => "quantity",
        }
    }

    /// The format, for the scalars that have one.
    pub fn format(&self) -> Option<&Format> {
        match self {
            Scalar::String(format) | Scalar::Integer(format) | Scalar::Number(format) => {
                format.as_ref()
            }
            Scalar::Boolean
            | Scalar::Object
            | Scalar::Any
            | Scalar::IntOrString
            | Scalar::Quantity => None,
        }
    }
}

impl Format {
    /// The format as OpenAPI writes it.
    pub fn as_str(&self) -> &str {
        match self {
            Format::Int32 => "int32",
            Format::Int64 => "int64",
            Format::Byte => "byte",
            Format::DateTime => "date-time",
            Format::Other(text) => text,
        }
    }
}

impl From<&str> for Format {
    fn from(text: &str) -> Self {
        match text {
            "int32" => Format::Int32,
            "int64" => Format::Int64,
            "byte" => Format::Byte,
            "date-time" => Format::DateTime,
            other => Format::Other(other.to_owned()),
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Display for Scalar {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())?;
        match self.format() {
            Some(format) => write!(f, "({format})"),
            None => Ok(()),
        }
    }
}

impl fmt::Display for TypeExpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut ty = self;
        loop {
            match ty {
                TypeExpr::Array(inner) => {
                    f.write_str("[]")?;
                    ty = inner;
                }
                TypeExpr::Map(inner) => {
                    f.write_str("map[string]")?;
                    ty = inner;
                }
                TypeExpr::Scalar(scalar) => return write!(f, "{scalar}"),
                TypeExpr::Definition(name) => return f.write_str(name),
            }
        }
    }
}

/// Why a string is not a type expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseTypeExprError {
    /// The string that was read.
    pub text: String,
    /// What is wrong with it.
    pub problem: &'static str,
}

impl fmt::Display for ParseTypeExprError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:?} is not a type expression: {}; expected a built-in type (`string`, `integer(int32)`, `int-or-string`, …), `[]T`, `map[string]T` or a definition name",
            self.text, self.problem
        )
    }
}

impl std::error::Error for ParseTypeExprError {}

impl FromStr for TypeExpr {
    type Err = ParseTypeExprError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let fail = |problem| ParseTypeExprError {
            text: text.to_owned(),
            problem,
        };
        // The list and map levels, outermost first; read without recursion.
        let mut levels = Vec::new();
        let mut rest = text;
        loop {
            if let Some(inner) = rest.strip_prefix("[]") {
                levels.push(true);
                rest = inner;
            } else if let Some(inner) = rest.strip_prefix("map[string]") {
                levels.push(false);
                rest = inner;
            } else {
                break;
            }
            if levels.len() > MAX_NESTING {
                return Err(fail("it nests lists and maps more than 32 levels deep"));
            }
        }
        let mut ty = leaf(rest).map_err(fail)?;
        for is_array in levels.into_iter().rev() {
            ty = if is_array {
                TypeExpr::Array(Box::new(ty))
            } else {
                TypeExpr::Map(Box::new(ty))
            };
        }
        Ok(ty)
    }
}

/// A scalar or a definition name: the part after every `[]` and `map[string]`.
fn leaf(text: &str) -> Result<TypeExpr, &'static str> {
    if text.is_empty() {
        return Err("the type is empty");
    }
    let (word, format) = match text.split_once('(') {
        Some((word, rest)) => {
            let format = rest
                .strip_suffix(')')
                .ok_or("a format in `(` must end with `)`")?;
            if format.is_empty() {
                return Err("the format in `()` is empty");
            }
            (word, Some(Format::from(format)))
        }
        None => (text, None),
    };
    let scalar = match (word, format) {
        ("string", format) => Scalar::String(format),
        ("integer", format) => Scalar::Integer(format),
        ("number", format) => Scalar::Number(format),
        ("boolean", None) => Scalar::Boolean,
        ("object", None) => Scalar::Object,
        ("any", None) => Scalar::Any,
        ("int-or-string", None) => Scalar::IntOrString,
        ("quantity", None) => Scalar::Quantity,
        (_, Some(_)) => return Err("only string, integer and number take a format"),
        (name, None) => {
            if name
                .chars()
                .any(|c| c.is_whitespace() || c.is_control() || matches!(c, '[' | ']' | ')'))
            {
                return Err("a definition name has no spaces, control characters or brackets");
            }
            return Ok(TypeExpr::Definition(name.to_owned()));
        }
    };
    Ok(TypeExpr::Scalar(scalar))
}

/// Compares with the string form, so `ty == "[]string"` reads as in gates.json.
impl PartialEq<str> for TypeExpr {
    fn eq(&self, other: &str) -> bool {
        other
            .parse::<TypeExpr>()
            .is_ok_and(|parsed| parsed == *self)
    }
}

impl PartialEq<&str> for TypeExpr {
    fn eq(&self, other: &&str) -> bool {
        *self == **other
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for TypeExpr {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for TypeExpr {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_form_reads_and_writes_back_the_same() {
        for text in [
            "string",
            "string(date-time)",
            "string(byte)",
            "integer(int32)",
            "integer(int64)",
            "integer",
            "number(double)",
            "boolean",
            "any",
            "object",
            "int-or-string",
            "quantity",
            "[]string",
            "map[string]string",
            "[]map[string][]integer(int32)",
            "io.k8s.api.core.v1.ServicePort",
            "[]io.k8s.api.core.v1.ServicePort",
            "string(a(b))",
        ] {
            let ty: TypeExpr = text.parse().unwrap();
            assert_eq!(ty.to_string(), text);
            assert_eq!(ty, text);
        }
    }

    #[test]
    fn variants_of_the_string_forms() {
        let ty: TypeExpr = "[]map[string]integer(int32)".parse().unwrap();
        let int32 = TypeExpr::Scalar(Scalar::Integer(Some(Format::Int32)));
        assert_eq!(
            ty,
            TypeExpr::Array(Box::new(TypeExpr::Map(Box::new(int32.clone()))))
        );
        assert_eq!(ty.innermost(), &int32);
        assert_eq!(
            "io.example.Retry".parse::<TypeExpr>().unwrap().definition(),
            Some("io.example.Retry")
        );
        assert_eq!(
            "number(double)".parse::<TypeExpr>().unwrap(),
            TypeExpr::Scalar(Scalar::Number(Some(Format::Other("double".into()))))
        );
    }

    #[test]
    fn what_is_not_a_type_expression() {
        for text in [
            "",
            "[]",
            "map[string]",
            "integer(int32",
            "string()",
            "boolean(x)",
            "a b",
            "map[int]string",
        ] {
            let err = text.parse::<TypeExpr>().unwrap_err();
            assert!(err.to_string().contains("not a type expression"), "{err}");
        }
        let deep = format!("{}string", "[]".repeat(MAX_NESTING + 1));
        assert!(deep.parse::<TypeExpr>().is_err());
        let deepest = format!("{}string", "[]".repeat(MAX_NESTING));
        assert!(deepest.parse::<TypeExpr>().is_ok());
    }
}
