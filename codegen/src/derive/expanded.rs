//! Serde impls written out rather than derived ([`SerdeImpls::Expanded`]).
//! A struct implements `wire::Object` (its wire names, its required fields,
//! `write` and `read`), an enum `wire::StringEnum` (its values, the index of
//! a variant and back); one-line macros of the runtime's `__private::wire`
//! module turn those into `Serialize` and `Deserialize` through its generic
//! drivers (`codegen/src/emit/rust/support/wire.rs`). So a type
//! costs the compiler a few lines and the crate needs no proc macro.
//!
//! [`SerdeImpls::Expanded`]: super::layout_policy::SerdeImpls::Expanded

use super::field::Field;
use proc_macro2::{Ident, TokenStream};
use quote::quote;

/// `wire::Object` for a struct of `fields`, and its serde impls.
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
    let (out, input, index) = if fields.is_empty() {
        (quote!(_out), quote!(_input), quote!(_index))
    } else {
        (quote!(out), quote!(input), quote!(index))
    };
    quote! {
        #rt::__private::wire::object_serde!(#rt::__private; #ident);
        #[allow(deprecated, clippy::single_match)]
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

/// `wire::StringEnum` for an enum of unit variants, each the string
/// `value`, and its serde impls.
pub(crate) fn string_enum(
    rt: &TokenStream,
    ident: &Ident,
    variants: &[(Ident, &str)],
) -> TokenStream {
    let values = variants.iter().map(|(_, value)| value);
    let indices = variants
        .iter()
        .enumerate()
        .map(|(index, (variant, _))| quote!(Self::#variant => #index,));
    let count = variants.len();
    let from_indices = variants.iter().enumerate().map(|(index, (variant, _))| {
        if index + 1 == count {
            quote!(_ => Self::#variant,)
        } else {
            quote!(#index => Self::#variant,)
        }
    });
    quote! {
        #rt::__private::wire::string_enum_serde!(#rt::__private; #ident);
        #[allow(deprecated)]
        impl #rt::__private::wire::StringEnum for #ident {
            const VALUES: &'static [&'static str] = &[#(#values),*];
            fn index(&self) -> usize {
                match self {
                    #(#indices)*
                }
            }
            fn from_index(index: usize) -> Self {
                match index {
                    #(#from_indices)*
                }
            }
        }
    }
}

/// The serde impls of a newtype: the inner value's.
pub(crate) fn newtype(rt: &TokenStream, ident: &Ident) -> TokenStream {
    quote!(#rt::__private::wire::newtype_serde!(#rt::__private; #ident);)
}
