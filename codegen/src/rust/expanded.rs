//! Serde impls written out rather than derived ([`SerdeImpls::Expanded`]):
//! each calls a generic driver of the runtime's `__private::wire` module,
//! so a type costs the compiler a few lines and the crate needs no proc
//! macro. The drivers are in `codegen/src/emit/rust/support/wire.rs`.
//!
//! [`SerdeImpls::Expanded`]: super::layout::SerdeImpls::Expanded

use super::items::Field;
use proc_macro2::{Ident, TokenStream};
use quote::quote;

/// `Serialize`, `Deserialize` and `wire::Object` for a struct of `fields`.
pub(crate) fn object(rt: &TokenStream, ident: &Ident, fields: &[Field]) -> TokenStream {
    let name = ident.to_string().trim_start_matches("r#").to_owned();
    let wire_names = fields.iter().map(|field| &field.wire);
    let required = fields
        .iter()
        .enumerate()
        .filter(|(_, field)| field.required)
        .map(|(index, _)| index);
    let required_count = fields.iter().filter(|field| field.required).count();
    let optional_present = fields
        .iter()
        .filter(|field| !field.required)
        .map(|field| {
            let ident = &field.ident;
            quote!(self.#ident.is_some())
        });
    let writes = fields.iter().map(|field| {
        let (ident, wire) = (&field.ident, &field.wire);
        if field.required {
            quote!(fields.field(#wire, &self.#ident)?;)
        } else {
            quote!(fields.optional(#wire, &self.#ident)?;)
        }
    });
    let reads: Vec<TokenStream> = fields
        .iter()
        .enumerate()
        .map(|(index, field)| {
            let ident = &field.ident;
            quote!(#index => self.#ident = map.next_value()?,)
        })
        .collect();
    // An object without fields writes none and reads none.
    let (fields_binding, read_body) = if fields.is_empty() {
        (quote!(fields), quote!(let _ = (index, map);))
    } else {
        (
            quote!(mut fields),
            quote! {
                match index {
                    #(#reads)*
                    _ => {}
                }
            },
        )
    };
    quote! {
        #[allow(deprecated)]
        impl #rt::__private::serde::Serialize for #ident {
            fn serialize<S: #rt::__private::serde::Serializer>(
                &self,
                serializer: S,
            ) -> ::core::result::Result<S::Ok, S::Error> {
                let len = #required_count + #rt::__private::wire::present(&[#(#optional_present),*]);
                let #fields_binding = #rt::__private::wire::Fields::begin(serializer, #name, len)?;
                #(#writes)*
                fields.end()
            }
        }
        impl<'de> #rt::__private::serde::Deserialize<'de> for #ident {
            fn deserialize<D: #rt::__private::serde::Deserializer<'de>>(
                deserializer: D,
            ) -> ::core::result::Result<Self, D::Error> {
                #rt::__private::wire::object(deserializer)
            }
        }
        #[allow(deprecated)]
        impl #rt::__private::wire::Object for #ident {
            const NAME: &'static str = #name;
            const FIELDS: &'static [&'static str] = &[#(#wire_names),*];
            const REQUIRED: &'static [usize] = &[#(#required),*];
            fn field<'de, A: #rt::__private::serde::de::MapAccess<'de>>(
                &mut self,
                index: usize,
                map: &mut A,
            ) -> ::core::result::Result<(), A::Error> {
                #read_body
                ::core::result::Result::Ok(())
            }
        }
    }
}

/// `Serialize` and `Deserialize` for an enum of unit variants, each the
/// string `value`.
pub(crate) fn string_enum(rt: &TokenStream, ident: &Ident, variants: &[(Ident, &str)]) -> TokenStream {
    let values = variants.iter().map(|(_, value)| value);
    let writes = variants
        .iter()
        .map(|(variant, value)| quote!(Self::#variant => #value,));
    let count = variants.len();
    let reads = variants.iter().enumerate().map(|(index, (variant, _))| {
        if index + 1 == count {
            quote!(_ => Self::#variant,)
        } else {
            quote!(#index => Self::#variant,)
        }
    });
    quote! {
        #[allow(deprecated)]
        impl #rt::__private::serde::Serialize for #ident {
            fn serialize<S: #rt::__private::serde::Serializer>(
                &self,
                serializer: S,
            ) -> ::core::result::Result<S::Ok, S::Error> {
                serializer.serialize_str(match self {
                    #(#writes)*
                })
            }
        }
        #[allow(deprecated)]
        impl<'de> #rt::__private::serde::Deserialize<'de> for #ident {
            fn deserialize<D: #rt::__private::serde::Deserializer<'de>>(
                deserializer: D,
            ) -> ::core::result::Result<Self, D::Error> {
                const VALUES: &[&str] = &[#(#values),*];
                #rt::__private::wire::string_enum(deserializer, VALUES).map(|index| match index {
                    #(#reads)*
                })
            }
        }
    }
}

/// `Serialize` and `Deserialize` for a newtype: the inner value's.
pub(crate) fn newtype(rt: &TokenStream, ident: &Ident) -> TokenStream {
    quote! {
        impl #rt::__private::serde::Serialize for #ident {
            fn serialize<S: #rt::__private::serde::Serializer>(
                &self,
                serializer: S,
            ) -> ::core::result::Result<S::Ok, S::Error> {
                self.0.serialize(serializer)
            }
        }
        impl<'de> #rt::__private::serde::Deserialize<'de> for #ident {
            fn deserialize<D: #rt::__private::serde::Deserializer<'de>>(
                deserializer: D,
            ) -> ::core::result::Result<Self, D::Error> {
                #rt::__private::serde::Deserialize::deserialize(deserializer).map(Self)
            }
        }
    }
}
