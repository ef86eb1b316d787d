//! The serde drivers the generated impls call: one generic driver per kind
//! of item (object, string enum) instead of a visitor per type, so the crate
//! needs neither serde's derive nor syn, and each type adds a few lines, not
//! a few hundred, to what the compiler checks.
//!
//! Decoding an object fails on a duplicate or a missing required field,
//! naming it; unknown fields are skipped through `IgnoredAny`, where
//! `serde_ignored` (the strict decoders) sees them.

use super::serde::de::{
    self, Deserialize, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, Visitor,
};
use super::serde::ser::{Serialize, SerializeStruct, Serializer};
use core::fmt;
use core::marker::PhantomData;

/// A type that is a JSON object: its wire field names, which are required,
/// and how to write its fields and read one field. The two methods are
/// generic only over the simple [`Write`] and [`Read`] traits, so checking
/// them costs the compiler little; the serde plumbing is here, once.
pub trait Object: Default {
    /// The type's name, for errors.
    const NAME: &'static str;
    /// The wire name of each field, in declaration order.
    const FIELDS: &'static [&'static str];
    /// The indices in [`Object::FIELDS`] of the required fields.
    const REQUIRED: &'static [usize];

    /// Writes every field to `out`, in order.
    fn write<W: Write>(&self, out: &mut W);

    /// Reads the value of field `FIELDS[index]` from `input` into `self`.
    fn read<'de, R: Read<'de>>(&mut self, index: usize, input: &mut R);
}

/// Where [`Object::write`] writes fields.
pub trait Write {
    /// A required field.
    fn field<T: Serialize + ?Sized>(&mut self, name: &'static str, value: &T);
    /// An optional field: absent stays absent.
    fn optional<T: Serialize>(&mut self, name: &'static str, value: &Option<T>);
}

/// Where [`Object::read`] reads a field's value from.
pub trait Read<'de> {
    /// Decodes the value into `slot`.
    fn value<T: Deserialize<'de>>(&mut self, slot: &mut T);
}

/// Encodes an [`Object`]: the fields it has, absent optional ones left out.
pub fn serialize<T: Object, S: Serializer>(value: &T, serializer: S) -> Result<S::Ok, S::Error> {
    let mut count = Count(0);
    value.write(&mut count);
    let mut out = Fields {
        inner: serializer.serialize_struct(T::NAME, count.0)?,
        error: None,
    };
    value.write(&mut out);
    match out.error {
        Some(error) => Err(error),
        None => out.inner.end(),
    }
}

/// Counts the fields an object writes.
struct Count(usize);

impl Write for Count {
    fn field<T: Serialize + ?Sized>(&mut self, _: &'static str, _: &T) {
        self.0 += 1;
    }

    fn optional<T: Serialize>(&mut self, _: &'static str, value: &Option<T>) {
        self.0 += usize::from(value.is_some());
    }
}

/// Writes fields to a serializer, keeping the first error (the fields after
/// it are not written).
struct Fields<S: SerializeStruct> {
    inner: S,
    error: Option<S::Error>,
}

impl<S: SerializeStruct> Write for Fields<S> {
    fn field<T: Serialize + ?Sized>(&mut self, name: &'static str, value: &T) {
        if self.error.is_none() {
            if let Err(error) = self.inner.serialize_field(name, value) {
                self.error = Some(error);
            }
        }
    }

    fn optional<T: Serialize>(&mut self, name: &'static str, value: &Option<T>) {
        if self.error.is_some() {
            return;
        }
        let written = match value {
            Some(value) => self.inner.serialize_field(name, value),
            None => self.inner.skip_field(name),
        };
        if let Err(error) = written {
            self.error = Some(error);
        }
    }
}

/// Reads one value from a map, keeping the error.
struct MapValue<'a, 'de, A: MapAccess<'de>> {
    map: &'a mut A,
    error: Option<A::Error>,
    de: PhantomData<&'de ()>,
}

impl<'de, A: MapAccess<'de>> Read<'de> for MapValue<'_, 'de, A> {
    fn value<T: Deserialize<'de>>(&mut self, slot: &mut T) {
        match self.map.next_value() {
            Ok(value) => *slot = value,
            Err(error) => self.error = Some(error),
        }
    }
}

/// Decodes an [`Object`].
pub fn deserialize<'de, D: Deserializer<'de>, T: Object>(deserializer: D) -> Result<T, D::Error> {
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
                    let mut input = MapValue {
                        map: &mut map,
                        error: None,
                        de: PhantomData,
                    };
                    value.read(index, &mut input);
                    if let Some(error) = input.error {
                        return Err(error);
                    }
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

/// An enum of unit variants, each written as one string.
pub trait StringEnum: Sized {
    /// The value of each variant, in declaration order.
    const VALUES: &'static [&'static str];
    /// The index of `self`'s value in [`StringEnum::VALUES`].
    fn index(&self) -> usize;
    /// The variant of `VALUES[index]`.
    fn from_index(index: usize) -> Self;
}

/// Encodes a [`StringEnum`]: its value.
pub fn serialize_string_enum<T: StringEnum, S: Serializer>(
    value: &T,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(T::VALUES[value.index()])
}

/// Decodes a [`StringEnum`]; an unknown value fails naming the known ones.
pub fn string_enum<'de, D: Deserializer<'de>, T: StringEnum>(
    deserializer: D,
) -> Result<T, D::Error> {
    deserializer
        .deserialize_str(EnumValue(T::VALUES))
        .map(T::from_index)
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

/// `Serialize` and `Deserialize` of an [`Object`] type, invoked in the
/// type's module with the path of this crate's `__private` module:
/// `object_serde!(crate::__private; Service)`.
#[allow(unused_macros)]
macro_rules! object_serde {
    ($($private:ident)::+; $ty:ident) => {
        impl $($private)::+::serde::Serialize for $ty {
            fn serialize<S: $($private)::+::serde::Serializer>(
                &self,
                serializer: S,
            ) -> ::core::result::Result<S::Ok, S::Error> {
                $($private)::+::wire::serialize(self, serializer)
            }
        }
        impl<'de> $($private)::+::serde::Deserialize<'de> for $ty {
            fn deserialize<D: $($private)::+::serde::Deserializer<'de>>(
                deserializer: D,
            ) -> ::core::result::Result<Self, D::Error> {
                $($private)::+::wire::deserialize(deserializer)
            }
        }
    };
}
#[allow(unused_imports)]
pub(crate) use object_serde;

/// `Serialize` and `Deserialize` of a [`StringEnum`] type.
#[allow(unused_macros)]
macro_rules! string_enum_serde {
    ($($private:ident)::+; $ty:ident) => {
        impl $($private)::+::serde::Serialize for $ty {
            fn serialize<S: $($private)::+::serde::Serializer>(
                &self,
                serializer: S,
            ) -> ::core::result::Result<S::Ok, S::Error> {
                $($private)::+::wire::serialize_string_enum(self, serializer)
            }
        }
        impl<'de> $($private)::+::serde::Deserialize<'de> for $ty {
            fn deserialize<D: $($private)::+::serde::Deserializer<'de>>(
                deserializer: D,
            ) -> ::core::result::Result<Self, D::Error> {
                $($private)::+::wire::string_enum(deserializer)
            }
        }
    };
}
#[allow(unused_imports)]
pub(crate) use string_enum_serde;

/// `Serialize` and `Deserialize` of a newtype: its inner value's.
#[allow(unused_macros)]
macro_rules! newtype_serde {
    ($($private:ident)::+; $ty:ident) => {
        impl $($private)::+::serde::Serialize for $ty {
            fn serialize<S: $($private)::+::serde::Serializer>(
                &self,
                serializer: S,
            ) -> ::core::result::Result<S::Ok, S::Error> {
                $($private)::+::serde::Serialize::serialize(&self.0, serializer)
            }
        }
        impl<'de> $($private)::+::serde::Deserialize<'de> for $ty {
            fn deserialize<D: $($private)::+::serde::Deserializer<'de>>(
                deserializer: D,
            ) -> ::core::result::Result<Self, D::Error> {
                $($private)::+::serde::Deserialize::deserialize(deserializer).map(Self)
            }
        }
    };
}
#[allow(unused_imports)]
pub(crate) use newtype_serde;
