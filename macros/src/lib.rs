//! `#[vergate::versioned]`: the thin entry of the derive. Parsing, checks and
//! expansion live in `vergate_codegen::derive::annotated`, which the
//! spec-driven Rust output shares; see the `vergate` crate for the docs.

use proc_macro::TokenStream;
use syn::parse_macro_input;
use vergate_codegen::derive::annotated;

/// Expands a module of annotated structs and enums into one module per minor.
///
/// ```ignore
/// #[vergate::versioned(minors = "1.28..=1.36")]
/// pub mod api {
///     pub struct ServiceSpec {
///         pub selector: Option<std::collections::BTreeMap<String, String>>,
///         #[introduced_in("1.30")]
///         pub traffic_distribution: Option<String>,
///     }
/// }
/// let spec = api::v1_30::ServiceSpec { selector: None, traffic_distribution: None };
/// ```
/// The `IntOrString` item the derive's int-or-string fields are (the same
/// item the spec-driven crate declares), for the `vergate` crate's root.
#[doc(hidden)]
#[proc_macro]
pub fn __int_or_string(input: TokenStream) -> TokenStream {
    let _ = input;
    vergate_codegen::derive::int_or_string_item().into()
}

#[proc_macro_attribute]
pub fn versioned(args: TokenStream, input: TokenStream) -> TokenStream {
    let args = proc_macro2::TokenStream::from(args);
    let module = parse_macro_input!(input as syn::ItemMod);
    annotated::expand(args.clone(), &module)
        .unwrap_or_else(|error| annotated::fallback(args, &module, error))
        .into()
}
