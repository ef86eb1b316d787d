//! Typed values, the plain string newtypes staying the default:
//!
//! - with the `jiff` feature, a definition that is a `date-time` string
//!   (Kubernetes' `Time` and `MicroTime`) holds a `jiff::Timestamp`: parsed
//!   on decoding (a malformed timestamp is a decoding error), written back
//!   in RFC 3339;
//! - with the `bytes` feature, a `byte` string (base64) is `ByteString`, the
//!   decoded bytes; without it `ByteString` is the text as written;
//! - `Quantity` keeps its text and reads it on demand: `milli_value()` and
//!   `value()`, as apimachinery's `MilliValue` and `Value`
//!   (vergate-core's `support/quantity.rs`, copied into the crate as
//!   `src/quantity.rs`).

use crate::model::{Convention, Definition, Schema};
use proc_macro2::TokenStream;
use quote::quote;

/// The cargo feature of typed timestamps.
pub const JIFF_FEATURE: &str = "jiff";

/// The jiff requirement the feature adds.
pub const JIFF: &str = "0.2";

/// True when `definition` is a newtype over a `date-time` string.
fn is_timestamp(definition: &Definition) -> bool {
    matches!(&definition.schema, Schema::String { format: Some(format) } if format == "date-time")
}

/// The items of `definition` (`item`, named `ident`, `cfg` its minors'
/// features): a timestamp newtype gets a second form under the `jiff`
/// feature; anything else is returned as it is.
pub fn timestamps(
    definition: &Definition,
    ident: &syn::Ident,
    item: TokenStream,
    root: &TokenStream,
    cfg: &TokenStream,
) -> TokenStream {
    if !is_timestamp(definition) {
        return item;
    }
    let Ok(file) = syn::parse2::<syn::File>(item.clone()) else {
        return item;
    };
    let mut out = TokenStream::new();
    for item in file.items {
        out.extend(quote!(#[cfg(not(feature = "jiff"))] #item));
    }
    out.extend(quote! {
        /// An RFC 3339 timestamp (the `jiff` feature: parsed into a
        /// `jiff::Timestamp`; without it, the string as written).
        #cfg
        #[cfg(feature = "jiff")]
        #[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, ::core::default::Default)]
        pub struct #ident(pub #root::__private::jiff::Timestamp);
        #cfg
        #[cfg(feature = "jiff")]
        const _: () = {
            #root::__private::wire::newtype_serde!(#root::__private; #ident);
        };
    });
    out
}

/// The quantity reader copied into the crate (`src/quantity.rs`).
pub const QUANTITY_SOURCE: &str = vergate_core::support::QUANTITY_SOURCE;

/// The methods of the `Quantity` newtype (`cfg` its minors' features);
/// nothing for another definition.
pub fn quantity_methods(
    definition: &Definition,
    ident: &syn::Ident,
    root: &TokenStream,
    cfg: &TokenStream,
) -> TokenStream {
    if definition.convention != Some(Convention::Quantity) {
        return TokenStream::new();
    }
    quote! {
        #cfg
        impl #ident {
            /// The quantity in thousandths of its unit, exactly
            /// (`"250m"` → 250, `"1Ki"` → 1_024_000), finer precision rounded
            /// up, as apimachinery's `MilliValue`.
            pub fn milli_value(&self) -> ::core::result::Result<i128, #root::quantity::ParseQuantityError> {
                #root::quantity::milli_value(&self.0)
            }

            /// The quantity in whole units, rounded up (`"1.5Gi"` →
            /// 1_610_612_736, `"250m"` → 1), as apimachinery's `Value`.
            pub fn value(&self) -> ::core::result::Result<i128, #root::quantity::ParseQuantityError> {
                #root::quantity::value(&self.0)
            }
        }
    }
}

/// True when some definition is a timestamp (the `jiff` feature applies).
pub fn has_timestamps(model: &crate::model::GatedModel) -> bool {
    model
        .minors
        .values()
        .any(|minor| minor.definitions.values().any(is_timestamp))
}

/// True when the API has Kubernetes' `Quantity`.
pub fn has_quantity(model: &crate::model::GatedModel) -> bool {
    model
        .minors
        .values()
        .flat_map(|minor| minor.definitions.values())
        .any(|definition| definition.convention == Some(Convention::Quantity))
}

/// The cargo feature of decoded base64 bytes.
pub const BYTES_FEATURE: &str = "bytes";

/// The base64 requirement the feature adds.
pub const BASE64: &str = "0.22";

/// True when some property of the API is a `byte` string.
pub fn has_bytes(model: &crate::model::GatedModel) -> bool {
    fn is_bytes(schema: &Schema) -> bool {
        match schema {
            Schema::String { format } => format.as_deref() == Some("byte"),
            Schema::Array(inner) | Schema::Map(inner) => is_bytes(inner),
            _ => false,
        }
    }
    model.minors.values().any(|minor| {
        minor.definitions.values().any(|definition| {
            definition
                .object()
                .is_some_and(|object| object.properties.values().any(|p| is_bytes(&p.schema)))
        })
    })
}

/// The crate root's `ByteString`: the text as written, or with the `bytes`
/// feature the decoded bytes (serialized back as standard base64).
pub fn byte_string(root: &TokenStream) -> TokenStream {
    quote! {
        /// Base64 bytes as written (`format: byte`), e.g. a Secret's data;
        /// the `bytes` feature decodes them.
        #[cfg(not(feature = "bytes"))]
        pub type ByteString = ::std::string::String;

        /// Base64 bytes (`format: byte`), e.g. a Secret's data, decoded (the
        /// `bytes` feature): decoding fails on text that is not standard
        /// base64; encoding writes standard base64.
        #[cfg(feature = "bytes")]
        #[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, ::core::default::Default)]
        pub struct ByteString(pub ::std::vec::Vec<u8>);

        #[cfg(feature = "bytes")]
        const _: () = {
            use #root::__private::base64::Engine as _;
            impl #root::__private::serde::Serialize for ByteString {
                fn serialize<S: #root::__private::serde::Serializer>(
                    &self,
                    serializer: S,
                ) -> ::core::result::Result<S::Ok, S::Error> {
                    let text = #root::__private::base64::engine::general_purpose::STANDARD.encode(&self.0);
                    serializer.serialize_str(&text)
                }
            }
            impl<'de> #root::__private::serde::Deserialize<'de> for ByteString {
                fn deserialize<D: #root::__private::serde::Deserializer<'de>>(
                    deserializer: D,
                ) -> ::core::result::Result<Self, D::Error> {
                    let text = <::std::string::String as #root::__private::serde::Deserialize>::deserialize(deserializer)?;
                    #root::__private::base64::engine::general_purpose::STANDARD
                        .decode(text.as_bytes())
                        .map(ByteString)
                        .map_err(|err| {
                            <D::Error as #root::__private::serde::de::Error>::custom(
                                ::std::format!("not base64 ({err}): {text:?}"),
                            )
                        })
                }
            }
        };
    }
}

/// The cargo feature of conversions between adjacent minors.
pub const CONVERSIONS_FEATURE: &str = "conversions";

/// The conversion support copied into the crate as `src/versioned.rs`:
/// `Version`, then the runtime's `Migrate`, `Migration` and
/// `ConversionError` (vergate-core's `support/migrate.rs`, which
/// vergate's runtime compiles too).
pub fn versioned_source() -> String {
    format!(
        "//! Conversions between minors (the `conversions` feature): `From` where\n\
         //! nothing can be lost, `TryFrom` naming every field or value that would be\n\
         //! dropped otherwise.\n\n\
         /// A minor, as conversion errors name it.\n\
         #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]\n\
         pub struct Version {{\n    pub major: u32,\n    pub minor: u32,\n}}\n\n\
         impl Version {{\n    /// Version `major.minor`.\n    pub const fn new(major: u32, minor: u32) -> Self {{\n        Version {{ major, minor }}\n    }}\n}}\n\n\
         impl ::std::fmt::Display for Version {{\n    fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {{\n        write!(f, \"{{}}.{{}}\", self.major, self.minor)\n    }}\n}}\n\n{}",
        MIGRATE_SOURCE
    )
}

/// The runtime's conversion support, shared with the crate.
const MIGRATE_SOURCE: &str = vergate_core::support::MIGRATE_SOURCE;
