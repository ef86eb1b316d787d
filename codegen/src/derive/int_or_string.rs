//! `IntOrString`, the one Rust type of an int-or-string for both front
//! doors: the spec-driven crate declares it at its root, and the `vergate`
//! runtime declares the same item (through `vergate-macros`) for the
//! derive's types. Both resolve serde through the crate root's
//! `__private` module.

use proc_macro2::TokenStream;
use quote::quote;

/// The item (enum and serde impls), to be placed at a crate root that has
/// `__private::serde`.
pub fn int_or_string_item() -> TokenStream {
    quote! {
        /// A value that is an integer or a string (an `int-or-string`: a
        /// port number or name, a count or a percentage). It serializes
        /// as the JSON number or string it holds.
        #[derive(Clone, Debug, PartialEq, Eq, Hash)]
        pub enum IntOrString {
            Int(i64),
            String(::std::string::String),
        }

        /// `Int(0)`.
        impl ::core::default::Default for IntOrString {
            fn default() -> Self {
                IntOrString::Int(0)
            }
        }

        impl __private::serde::Serialize for IntOrString {
            fn serialize<S: __private::serde::Serializer>(
                &self,
                serializer: S,
            ) -> ::core::result::Result<S::Ok, S::Error> {
                match self {
                    IntOrString::Int(value) => serializer.serialize_i64(*value),
                    IntOrString::String(value) => serializer.serialize_str(value),
                }
            }
        }

        impl<'de> __private::serde::Deserialize<'de> for IntOrString {
            fn deserialize<D: __private::serde::Deserializer<'de>>(
                deserializer: D,
            ) -> ::core::result::Result<Self, D::Error> {
                struct Visitor;
                impl __private::serde::de::Visitor<'_> for Visitor {
                    type Value = IntOrString;
                    fn expecting(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                        f.write_str("an integer or a string")
                    }
                    fn visit_i64<E: __private::serde::de::Error>(self, value: i64) -> ::core::result::Result<IntOrString, E> {
                        ::core::result::Result::Ok(IntOrString::Int(value))
                    }
                    fn visit_u64<E: __private::serde::de::Error>(self, value: u64) -> ::core::result::Result<IntOrString, E> {
                        i64::try_from(value).map(IntOrString::Int).map_err(|_| {
                            E::invalid_value(__private::serde::de::Unexpected::Unsigned(value), &self)
                        })
                    }
                    fn visit_str<E: __private::serde::de::Error>(self, value: &str) -> ::core::result::Result<IntOrString, E> {
                        ::core::result::Result::Ok(IntOrString::String(value.to_owned()))
                    }
                }
                deserializer.deserialize_any(Visitor)
            }
        }
    }
}
