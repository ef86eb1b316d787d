//! The serde drivers the generated impls call: one generic driver per kind
//! of item (object, string enum) instead of a visitor per type, so the crate
//! needs neither serde's derive nor syn, and each type adds a few lines, not
//! a few hundred, to what the compiler checks.
//!
//! Decoding an object fails on a duplicate or a missing required field,
//! naming it; unknown fields are skipped through `IgnoredAny`, where
//! `serde_ignored` (the strict decoders) sees them.

use super::serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, Visitor};
use super::serde::ser::{Serialize, SerializeStruct, Serializer};
use core::fmt;
use core::marker::PhantomData;

/// A type that is a JSON object: its wire field names, which are required,
/// and how to decode one field's value into it.
pub trait Object: Default {
    /// The type's name, for errors.
    const NAME: &'static str;
    /// The wire name of each field, in declaration order.
    const FIELDS: &'static [&'static str];
    /// The indices in [`Object::FIELDS`] of the required fields.
    const REQUIRED: &'static [usize];

    /// Decodes the value of field `FIELDS[index]` from `map` into `self`.
    fn field<'de, A: MapAccess<'de>>(&mut self, index: usize, map: &mut A)
        -> Result<(), A::Error>;
}

/// Decodes an [`Object`].
pub fn object<'de, D: Deserializer<'de>, T: Object>(deserializer: D) -> Result<T, D::Error> {
    deserializer.deserialize_struct(T::NAME, T::FIELDS, ObjectVisitor(PhantomData::<T>))
}

struct ObjectVisitor<T>(PhantomData<T>);

impl<'de, T: Object> Visitor<'de> for ObjectVisitor<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "an object {}", T::NAME)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<T, A::Error> {
        let mut value = T::default();
        let mut seen = Seen::new(T::FIELDS.len());
        while let Some(key) = map.next_key_seed(FieldKey(T::FIELDS))? {
            match key {
                Some(index) => {
                    if !seen.insert(index) {
                        return Err(de::Error::duplicate_field(T::FIELDS[index]));
                    }
                    value.field(index, &mut map)?;
                }
                None => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        for &index in T::REQUIRED {
            if !seen.contains(index) {
                return Err(de::Error::missing_field(T::FIELDS[index]));
            }
        }
        Ok(value)
    }
}

/// The fields an object has seen so far.
enum Seen {
    Few(u128),
    Many(Vec<bool>),
}

impl Seen {
    fn new(fields: usize) -> Seen {
        if fields <= 128 {
            Seen::Few(0)
        } else {
            Seen::Many(vec![false; fields])
        }
    }

    /// Marks `index` seen; false if it was already.
    fn insert(&mut self, index: usize) -> bool {
        match self {
            Seen::Few(bits) => {
                let bit = 1u128 << index;
                let new = *bits & bit == 0;
                *bits |= bit;
                new
            }
            Seen::Many(flags) => !core::mem::replace(&mut flags[index], true),
        }
    }

    fn contains(&self, index: usize) -> bool {
        match self {
            Seen::Few(bits) => *bits & (1u128 << index) != 0,
            Seen::Many(flags) => flags[index],
        }
    }
}

/// A field name: its index in the fields, or `None` for an unknown one.
struct FieldKey(&'static [&'static str]);

impl<'de> DeserializeSeed<'de> for FieldKey {
    type Value = Option<usize>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_identifier(self)
    }
}

impl Visitor<'_> for FieldKey {
    type Value = Option<usize>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a field name")
    }

    fn visit_str<E: de::Error>(self, name: &str) -> Result<Self::Value, E> {
        Ok(self.0.iter().position(|field| *field == name))
    }

    fn visit_bytes<E: de::Error>(self, name: &[u8]) -> Result<Self::Value, E> {
        Ok(self.0.iter().position(|field| field.as_bytes() == name))
    }
}

/// Decodes a string enum: the index of its value in `values`.
pub fn string_enum<'de, D: Deserializer<'de>>(
    deserializer: D,
    values: &'static [&'static str],
) -> Result<usize, D::Error> {
    deserializer.deserialize_str(EnumValue(values))
}

struct EnumValue(&'static [&'static str]);

impl Visitor<'_> for EnumValue {
    type Value = usize;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "one of {:?}", self.0)
    }

    fn visit_str<E: de::Error>(self, value: &str) -> Result<usize, E> {
        self.0
            .iter()
            .position(|known| *known == value)
            .ok_or_else(|| de::Error::unknown_variant(value, self.0))
    }
}

/// Encodes an object field by field: required fields always, optional
/// fields only when present.
pub struct Fields<S: SerializeStruct>(S);

impl<S: SerializeStruct> Fields<S> {
    /// Starts an object of `len` present fields.
    pub fn begin<T: Serializer<SerializeStruct = S, Error = S::Error>>(
        serializer: T,
        name: &'static str,
        len: usize,
    ) -> Result<Self, S::Error> {
        serializer.serialize_struct(name, len).map(Fields)
    }

    /// A required field.
    pub fn field<T: Serialize + ?Sized>(
        &mut self,
        name: &'static str,
        value: &T,
    ) -> Result<(), S::Error> {
        self.0.serialize_field(name, value)
    }

    /// An optional field: absent stays absent.
    pub fn optional<T: Serialize>(
        &mut self,
        name: &'static str,
        value: &Option<T>,
    ) -> Result<(), S::Error> {
        match value {
            Some(value) => self.0.serialize_field(name, value),
            None => self.0.skip_field(name),
        }
    }

    /// Ends the object.
    pub fn end(self) -> Result<S::Ok, S::Error> {
        self.0.end()
    }
}

/// How many of the optional fields are present.
pub fn present(fields: &[bool]) -> usize {
    fields.iter().filter(|present| **present).count()
}
