//! serde's serialization into a [`Value`], as serde_json's `to_value` makes
//! it: structs and maps become objects (keys must serialize as strings,
//! integers, booleans or unit variants), enum variants externally tagged
//! (`{"Variant": …}`), `None` and units `null`, non-finite floats `null`.

use super::map_key::KeySerializer;
use super::{Number, Object, Value};
use serde::ser::{self, Serialize};
use std::fmt::Display;

/// `value` serialized into a [`Value`]; an error when a map key is not a
/// string or number, or an integer does not fit 64 bits, or `value`'s own
/// serialization fails.
pub fn to_value<T: Serialize + ?Sized>(value: &T) -> Result<Value, Error> {
    value.serialize(ValueSerializer)
}

/// Why a value could not be serialized.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct Error(String);

impl ser::Error for Error {
    fn custom<T: Display>(message: T) -> Self {
        Error(message.to_string())
    }
}

struct ValueSerializer;

/// An array being filled.
struct Elements(Vec<Value>);

/// An object being filled, and the key of the value to come.
struct Members {
    members: Object,
    key: Option<String>,
}

/// An enum variant's content being filled, to be wrapped in `{variant: …}`.
struct Variant<T> {
    name: &'static str,
    content: T,
}

fn tagged(name: &str, content: Value) -> Value {
    Value::Object(Object::from_iter([(name.to_owned(), content)]))
}

fn integer(value: i128) -> Result<Value, Error> {
    if let Ok(value) = u64::try_from(value) {
        Ok(Value::Number(value.into()))
    } else if let Ok(value) = i64::try_from(value) {
        Ok(Value::Number(value.into()))
    } else {
        Err(Error(format!("number {value} out of range")))
    }
}

fn float(value: f64) -> Value {
    Number::from_f64(value).map_or(Value::Null, Value::Number)
}

impl ser::Serializer for ValueSerializer {
    type Ok = Value;
    type Error = Error;
    type SerializeSeq = Elements;
    type SerializeTuple = Elements;
    type SerializeTupleStruct = Elements;
    type SerializeTupleVariant = Variant<Elements>;
    type SerializeMap = Members;
    type SerializeStruct = Members;
    type SerializeStructVariant = Variant<Members>;

    fn serialize_bool(self, value: bool) -> Result<Value, Error> {
        Ok(Value::Bool(value))
    }

    fn serialize_i8(self, value: i8) -> Result<Value, Error> {
        self.serialize_i64(value.into())
    }

    fn serialize_i16(self, value: i16) -> Result<Value, Error> {
        self.serialize_i64(value.into())
    }

    fn serialize_i32(self, value: i32) -> Result<Value, Error> {
        self.serialize_i64(value.into())
    }

    fn serialize_i64(self, value: i64) -> Result<Value, Error> {
        Ok(Value::Number(value.into()))
    }

    fn serialize_i128(self, value: i128) -> Result<Value, Error> {
        integer(value)
    }

    fn serialize_u8(self, value: u8) -> Result<Value, Error> {
        self.serialize_u64(value.into())
    }

    fn serialize_u16(self, value: u16) -> Result<Value, Error> {
        self.serialize_u64(value.into())
    }

    fn serialize_u32(self, value: u32) -> Result<Value, Error> {
        self.serialize_u64(value.into())
    }

    fn serialize_u64(self, value: u64) -> Result<Value, Error> {
        Ok(Value::Number(value.into()))
    }

    fn serialize_u128(self, value: u128) -> Result<Value, Error> {
        match u64::try_from(value) {
            Ok(value) => Ok(Value::Number(value.into())),
            Err(_) => Err(Error(format!("number {value} out of range"))),
        }
    }

    fn serialize_f32(self, value: f32) -> Result<Value, Error> {
        Ok(float(value.into()))
    }

    fn serialize_f64(self, value: f64) -> Result<Value, Error> {
        Ok(float(value))
    }

    fn serialize_char(self, value: char) -> Result<Value, Error> {
        Ok(Value::String(value.to_string()))
    }

    fn serialize_str(self, value: &str) -> Result<Value, Error> {
        Ok(Value::String(value.to_owned()))
    }

    fn serialize_bytes(self, value: &[u8]) -> Result<Value, Error> {
        let bytes = value
            .iter()
            .map(|byte| Value::Number(u64::from(*byte).into()));
        Ok(Value::Array(bytes.collect()))
    }

    fn serialize_none(self) -> Result<Value, Error> {
        Ok(Value::Null)
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<Value, Error> {
        value.serialize(self)
    }

    fn serialize_unit(self) -> Result<Value, Error> {
        Ok(Value::Null)
    }

    fn serialize_unit_struct(self, _name: &'static str) -> Result<Value, Error> {
        Ok(Value::Null)
    }

    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<Value, Error> {
        Ok(Value::String(variant.to_owned()))
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<Value, Error> {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<Value, Error> {
        Ok(tagged(variant, to_value(value)?))
    }

    fn serialize_seq(self, len: Option<usize>) -> Result<Elements, Error> {
        Ok(Elements(Vec::with_capacity(len.unwrap_or(0))))
    }

    fn serialize_tuple(self, len: usize) -> Result<Elements, Error> {
        self.serialize_seq(Some(len))
    }

    fn serialize_tuple_struct(self, _name: &'static str, len: usize) -> Result<Elements, Error> {
        self.serialize_seq(Some(len))
    }

    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Variant<Elements>, Error> {
        Ok(Variant {
            name: variant,
            content: Elements(Vec::with_capacity(len)),
        })
    }

    fn serialize_map(self, _len: Option<usize>) -> Result<Members, Error> {
        Ok(Members {
            members: Object::new(),
            key: None,
        })
    }

    fn serialize_struct(self, _name: &'static str, len: usize) -> Result<Members, Error> {
        self.serialize_map(Some(len))
    }

    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Variant<Members>, Error> {
        Ok(Variant {
            name: variant,
            content: self.serialize_map(None)?,
        })
    }
}

impl ser::SerializeSeq for Elements {
    type Ok = Value;
    type Error = Error;

    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.0.push(to_value(value)?);
        Ok(())
    }

    fn end(self) -> Result<Value, Error> {
        Ok(Value::Array(self.0))
    }
}

impl ser::SerializeTuple for Elements {
    type Ok = Value;
    type Error = Error;

    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        ser::SerializeSeq::serialize_element(self, value)
    }

    fn end(self) -> Result<Value, Error> {
        ser::SerializeSeq::end(self)
    }
}

impl ser::SerializeTupleStruct for Elements {
    type Ok = Value;
    type Error = Error;

    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        ser::SerializeSeq::serialize_element(self, value)
    }

    fn end(self) -> Result<Value, Error> {
        ser::SerializeSeq::end(self)
    }
}

impl ser::SerializeTupleVariant for Variant<Elements> {
    type Ok = Value;
    type Error = Error;

    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        ser::SerializeSeq::serialize_element(&mut self.content, value)
    }

    fn end(self) -> Result<Value, Error> {
        Ok(tagged(self.name, ser::SerializeSeq::end(self.content)?))
    }
}

impl ser::SerializeMap for Members {
    type Ok = Value;
    type Error = Error;

    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Error> {
        self.key = Some(key.serialize(KeySerializer)?);
        Ok(())
    }

    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        let key = self
            .key
            .take()
            .ok_or_else(|| Error("a map value was serialized before its key".to_owned()))?;
        self.members.insert(key, to_value(value)?);
        Ok(())
    }

    fn end(self) -> Result<Value, Error> {
        Ok(Value::Object(self.members))
    }
}

impl ser::SerializeStruct for Members {
    type Ok = Value;
    type Error = Error;

    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        ser::SerializeMap::serialize_entry(self, key, value)
    }

    fn end(self) -> Result<Value, Error> {
        ser::SerializeMap::end(self)
    }
}

impl ser::SerializeStructVariant for Variant<Members> {
    type Ok = Value;
    type Error = Error;

    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        ser::SerializeMap::serialize_entry(&mut self.content, key, value)
    }

    fn end(self) -> Result<Value, Error> {
        Ok(tagged(self.name, ser::SerializeMap::end(self.content)?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Serialize;
    use std::collections::BTreeMap;

    /// Every shape of serde's data model.
    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Everything {
        flag: bool,
        small: i8,
        negative: i64,
        large: u64,
        wide: i128,
        half: f32,
        float: f64,
        not_a_number: f64,
        letter: char,
        text: String,
        #[serde(with = "serde_bytes_as_bytes")]
        bytes: Vec<u8>,
        absent: Option<u8>,
        present: Option<u8>,
        unit: (),
        unit_struct: UnitStruct,
        newtype: Newtype,
        tuple: (u8, String),
        tuple_struct: TupleStruct,
        variants: Vec<Shape>,
        tagged: Vec<Tagged>,
        by_number: BTreeMap<u16, u8>,
        by_flag: BTreeMap<bool, u8>,
        by_variant: BTreeMap<Key, u8>,
        #[serde(flatten)]
        flattened: Flattened,
        #[serde(skip_serializing_if = "Option::is_none")]
        skipped: Option<u8>,
    }

    mod serde_bytes_as_bytes {
        pub fn serialize<S: serde::Serializer>(bytes: &[u8], s: S) -> Result<S::Ok, S::Error> {
            s.serialize_bytes(bytes)
        }
    }

    #[derive(Serialize)]
    struct UnitStruct;

    #[derive(Serialize)]
    struct Newtype(u8);

    #[derive(Serialize)]
    struct TupleStruct(u8, u8);

    #[derive(Serialize)]
    enum Shape {
        Unit,
        Newtype(u8),
        Tuple(u8, bool),
        Struct { a: u8 },
    }

    #[derive(Serialize)]
    #[serde(tag = "rule", rename_all = "snake_case")]
    enum Tagged {
        First { field: String },
        Second,
    }

    #[derive(Serialize, PartialEq, Eq, PartialOrd, Ord)]
    enum Key {
        Alpha,
    }

    #[derive(Serialize)]
    struct Flattened {
        inner: u8,
    }

    #[test]
    fn serializes_as_serde_json_does() {
        let everything = Everything {
            flag: true,
            small: -3,
            negative: -40,
            large: u64::MAX,
            wide: -5,
            half: 0.1,
            float: 65535.5,
            not_a_number: f64::NAN,
            letter: 'é',
            text: "\"quoted\"\n".into(),
            bytes: vec![0, 255],
            absent: None,
            present: Some(7),
            unit: (),
            unit_struct: UnitStruct,
            newtype: Newtype(9),
            tuple: (1, "one".into()),
            tuple_struct: TupleStruct(2, 3),
            variants: vec![
                Shape::Unit,
                Shape::Newtype(4),
                Shape::Tuple(5, false),
                Shape::Struct { a: 6 },
            ],
            tagged: vec![Tagged::First { field: "x".into() }, Tagged::Second],
            by_number: BTreeMap::from([(10, 1), (9, 2)]),
            by_flag: BTreeMap::from([(true, 1)]),
            by_variant: BTreeMap::from([(Key::Alpha, 1)]),
            flattened: Flattened { inner: 8 },
            skipped: None,
        };
        let ours = to_value(&everything).unwrap();
        let theirs = serde_json::to_value(&everything).unwrap();
        assert_eq!(ours.to_string(), theirs.to_string());
        assert_eq!(serde_json::to_value(&ours).unwrap(), theirs);
    }

    #[test]
    fn refuses_what_serde_json_refuses() {
        let refused = |result: Result<Value, Error>| result.unwrap_err().to_string();
        assert_eq!(
            refused(to_value(&BTreeMap::from([((1, 2), 3)]))),
            "key must be a string"
        );
        assert!(serde_json::to_value(BTreeMap::from([((1, 2), 3)])).is_err());
        assert_eq!(
            refused(to_value(&u128::MAX)),
            format!("number {} out of range", u128::MAX)
        );
        assert!(serde_json::to_value(u128::MAX).is_err());
        assert!(to_value(&i128::MIN).is_err());
        assert!(serde_json::to_value(i128::MIN).is_err());
        assert_eq!(
            to_value(&(u64::MAX as u128)).unwrap().to_string(),
            u64::MAX.to_string()
        );
    }
}
