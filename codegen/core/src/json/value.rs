//! The value itself, and its serde serialization (so that serde_json, or
//! any serde format, can take one over).

use super::Number;
use serde::ser::{Serialize, SerializeMap, Serializer};
use std::collections::BTreeMap;

/// A JSON object's members, sorted by key as serde_json's map is (without
/// its `preserve_order` feature).
pub type Object = BTreeMap<String, Value>;

/// Any JSON value.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Value {
    #[default]
    Null,
    Bool(bool),
    Number(Number),
    String(String),
    Array(Vec<Value>),
    Object(Object),
}

impl Serialize for Value {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Value::Null => serializer.serialize_unit(),
            Value::Bool(flag) => serializer.serialize_bool(*flag),
            Value::Number(number) => number.serialize(serializer),
            Value::String(text) => serializer.serialize_str(text),
            Value::Array(items) => serializer.collect_seq(items),
            Value::Object(members) => {
                let mut map = serializer.serialize_map(Some(members.len()))?;
                for (key, value) in members {
                    map.serialize_entry(key, value)?;
                }
                map.end()
            }
        }
    }
}
