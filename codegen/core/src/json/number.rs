//! A JSON number as serde_json keeps one: a non-negative integer, a
//! negative one, or a finite float, never equal to each other (`1` is not
//! `1.0`).

use serde::{Serialize, Serializer};
use std::fmt;

/// A JSON number: an integer that fits 64 bits, or a finite float.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Number(Kind);

#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    PositiveInteger(u64),
    /// Always below zero.
    NegativeInteger(i64),
    /// Always finite.
    Float(f64),
}

impl Number {
    /// The float `value`; `None` when it is infinite or NaN, which JSON
    /// cannot hold.
    pub fn from_f64(value: f64) -> Option<Number> {
        value.is_finite().then_some(Number(Kind::Float(value)))
    }

    /// The number as a float (rounded when an integer has more bits).
    pub fn as_f64(self) -> f64 {
        match self.0 {
            Kind::PositiveInteger(integer) => integer as f64,
            Kind::NegativeInteger(integer) => integer as f64,
            Kind::Float(float) => float,
        }
    }
}

impl From<u64> for Number {
    fn from(value: u64) -> Self {
        Number(Kind::PositiveInteger(value))
    }
}

impl From<i64> for Number {
    fn from(value: i64) -> Self {
        match u64::try_from(value) {
            Ok(value) => Number(Kind::PositiveInteger(value)),
            Err(_) => Number(Kind::NegativeInteger(value)),
        }
    }
}

/// Integers in decimal; floats as serde_json writes them (`1.0`, `0.5`,
/// `1e+300`), with zmij, its formatter.
impl fmt::Display for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Kind::PositiveInteger(integer) => write!(f, "{integer}"),
            Kind::NegativeInteger(integer) => write!(f, "{integer}"),
            Kind::Float(float) => f.write_str(zmij::Buffer::new().format_finite(float)),
        }
    }
}

impl Serialize for Number {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Kind::PositiveInteger(integer) => serializer.serialize_u64(integer),
            Kind::NegativeInteger(integer) => serializer.serialize_i64(integer),
            Kind::Float(float) => serializer.serialize_f64(float),
        }
    }
}
