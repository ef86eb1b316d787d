//! Typed values behind cargo features, as k8s-openapi offers them; the
//! plain string newtypes stay the default. With `jiff`, a definition that is
//! a `date-time` string (Kubernetes' `Time` and `MicroTime`) holds a
//! `jiff::Timestamp`: parsed on decoding (a malformed timestamp is a decoding
//! error), written back in RFC 3339.

use crate::model::{Definition, Schema};
use proc_macro2::TokenStream;
use quote::quote;

/// The cargo feature of typed timestamps.
pub const JIFF_FEATURE: &str = "jiff";

/// The jiff requirement the feature adds.
pub const JIFF: &str = "0.2";

/// True when `definition` is a newtype over a `date-time` string.
pub fn is_timestamp(definition: &Definition) -> bool {
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
