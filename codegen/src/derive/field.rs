//! One field of an object as an item declares it, for both ways serde
//! impls are written (derived by `items`, written out by `expanded`).

use proc_macro2::{Ident, TokenStream};
use quote::quote;

/// One field of an object as the item declares it.
pub(crate) struct Field {
    pub ident: Ident,
    pub wire: String,
    pub ty: TokenStream,
    pub required: bool,
    pub attrs: TokenStream,
}

impl Field {
    /// `pub name: T,` (or `Option<T>` when optional), with its docs and,
    /// when serde is derived, its serde attributes.
    pub fn declaration(&self, derived: bool) -> TokenStream {
        let Field {
            ident,
            wire,
            ty,
            required,
            attrs,
        } = self;
        let serde = match (derived, required) {
            (false, _) => TokenStream::new(),
            (true, true) => quote!(#[serde(rename = #wire)]),
            (true, false) => quote! {
                #[serde(rename = #wire, default, skip_serializing_if = "::core::option::Option::is_none")]
            },
        };
        let ty = if *required {
            ty.clone()
        } else {
            quote!(::core::option::Option<#ty>)
        };
        quote! {
            #attrs
            #serde
            pub #ident: #ty,
        }
    }
}
