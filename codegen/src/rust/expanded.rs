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
    let writes = fields.iter().map(|field| {
        let (ident, wire) = (&field.ident, &field.wire);
        if field.required {
            quote!(out.field(#wire, &self.#ident);)
        } else {
            quote!(out.optional(#wire, &self.#ident);)
        }
    });
    let reads = fields.iter().enumerate().map(|(index, field)| {
        let ident = &field.ident;
        quote!(#index => input.value(&mut self.#ident),)
    });
    // An object without fields writes none and reads none.
    let (out, input) = if fields.is_empty() {
        (quote!(_out), quote!(_input))
    } else {
        (quote!(out), quote!(input))
    };
    let index = if fields.is_empty() { quote!(_index) } else { quote!(index) };
    quote! {
        impl #rt::__private::serde::Serialize for #ident {
            fn serialize<S: #rt::__private::serde::Serializer>(
                &self,
                serializer: S,
            ) -> ::core::result::Result<S::Ok, S::Error> {
                #rt::__private::wire::serialize(self, serializer)
            }
        }
        impl<'de> #rt::__private::serde::Deserialize<'de> for #ident {
            fn deserialize<D: #rt::__private::serde::Deserializer<'de>>(
                deserializer: D,
            ) -> ::core::result::Result<Self, D::Error> {
                #rt::__private::wire::deserialize(deserializer)
            }
        }
        #[allow(deprecated)]
        impl #rt::__private::wire::Object for #ident {
            const NAME: &'static str = #name;
            const FIELDS: &'static [&'static str] = &[#(#wire_names),*];
            const REQUIRED: &'static [usize] = &[#(#required),*];
            fn write<W: #rt::__private::wire::Write>(&self, #out: &mut W) {
                #(#writes)*
            }
            fn read<'de, R: #rt::__private::wire::Read<'de>>(&mut self, #index: usize, #input: &mut R) {
                match #index {
                    #(#reads)*
                    _ => {}
                }
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
