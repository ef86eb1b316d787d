//! The derive's front door: `#[vergate::versioned(minors = "1.28..=1.36")]`
//! on a module of annotated structs and enums.
//!
//! ```text
//! annotated module ──attr/ast──► typed view ──check──► gated model ──engine──► v1_28 … v1_36
//! ```
//!
//! [`expand`] reads the module into the same
//! [`GatedModel`](crate::model::GatedModel) the spec loader builds and hands
//! it to the engine with [`DeriveLayout`](derive_layout::DeriveLayout); every
//! mistake is reported at once under its own token. When there is any,
//! [`fallback`] still emits the per-minor modules with every field (and no
//! gating), so that the user sees the annotation errors and not a cascade of
//! "cannot find `v1_30`".

mod args;
mod ast;
pub(crate) mod attr;
mod check;
pub(crate) mod ctxt;
mod derive_layout;
mod model;
mod rust_type;
mod symbol;

use super::{expand as engine, Options};
use crate::model::GatedModel;
use ast::Module;
use ctxt::Ctxt;
use proc_macro2::TokenStream;
use quote::{format_ident, quote, ToTokens};
use std::collections::BTreeMap;
use syn::{Item, ItemMod};
use vergate_core::Version;

/// Expands an annotated module: one `vX_Y` module per declared minor holding
/// that minor's types, and a `gates` module with every type's gate table.
pub fn expand(args: TokenStream, module: &ItemMod) -> syn::Result<TokenStream> {
    let (ast, model) = read_model(args, module)?;
    let expansion = engine(
        &model,
        &derive_layout::DeriveLayout::new(&ast),
        &Options::default(),
    );
    Ok(wrap(
        module,
        &ast.others,
        expansion.shared,
        expansion.minors,
    ))
}

/// The gated model of an annotated module: what the xtask needs to emit the
/// module's other subtrees (gates.json, JSON Schema, Pkl) from Rust sources.
pub fn gated_model(args: TokenStream, module: &ItemMod) -> syn::Result<GatedModel> {
    read_model(args, module).map(|(_, model)| model)
}

/// Reads and checks the module (every mistake at once), then builds its
/// gated model.
fn read_model(args: TokenStream, module: &ItemMod) -> syn::Result<(Module<'_>, GatedModel)> {
    let cx = Ctxt::new();
    let ast = read(&cx, args, module);
    cx.check()?;
    let minors = ast
        .args
        .minors
        .as_ref()
        .expect("checked: minors are declared");
    let model = model::gated_model(&ast, minors)
        .map_err(|err| syn::Error::new_spanned(&module.ident, err))?;
    Ok((ast, model))
}

/// Parses and checks the module, recording every mistake in `cx`.
fn read<'a>(cx: &Ctxt, args: TokenStream, module: &'a ItemMod) -> Module<'a> {
    let parsed = args::parse_args(cx, args);
    let ast = Module::from_syn(cx, parsed, module);
    if let Some(minors) = &ast.args.minors {
        check::check(cx, &ast, minors);
    }
    ast
}

/// What to emit after an error: `error` and, when the minors are readable,
/// each minor's module with every type holding every field, so that code
/// using the module does not fail on top of the annotation errors.
pub fn fallback(args: TokenStream, module: &ItemMod, error: syn::Error) -> TokenStream {
    let cx = Ctxt::new();
    let minors = args::parse_args(&cx, args).minors;
    let _ = cx.check();
    let items = module
        .content
        .as_ref()
        .map(|(_, items)| items.as_slice())
        .unwrap_or_default();
    let others: Vec<Item> = items
        .iter()
        .filter(|item| !matches!(item, Item::Struct(_) | Item::Enum(_)))
        .map(without_gates)
        .collect();
    let others: Vec<&Item> = others.iter().collect();
    let types: TokenStream = items.iter().filter_map(strip).collect();
    let per_minor = minors
        .map(|minors| {
            minors
                .list
                .into_iter()
                .map(|v| (v, types.clone()))
                .collect()
        })
        .unwrap_or_default();
    let mut out = error.into_compile_error();
    out.extend(wrap(module, &others, TokenStream::new(), per_minor));
    out
}

/// An item other than a versioned type, without the gate attributes that
/// were reported on it (so rustc does not report them again).
fn without_gates(item: &Item) -> Item {
    let mut item = item.clone();
    if let Some(attrs) = ast::item_attrs_mut(&mut item) {
        attrs.retain(|attr| symbol::Symbol::of(attr.path()).is_none());
    }
    item
}

/// A versioned type without vergate's attributes, deriving serde as the
/// real expansion would.
fn strip(item: &Item) -> Option<TokenStream> {
    let keep = |attrs: &mut Vec<syn::Attribute>, on_type: bool| {
        attrs.retain(|attr| {
            attr.path().is_ident("doc")
                || (on_type
                    && symbol::KEPT_ON_TYPES
                        .iter()
                        .any(|name| attr.path().is_ident(name)))
        })
    };
    let serde_for = |attrs: &[syn::Attribute]| {
        // A user's own serde derive is reported already; a second one would
        // add "conflicting implementations" on top.
        let derives_serde = attrs.iter().any(|attr| {
            attr.path().is_ident("derive")
                && attr
                    .meta
                    .to_token_stream()
                    .to_string()
                    .contains("Serialize")
        });
        if derives_serde {
            TokenStream::new()
        } else {
            quote! {
                #[derive(::vergate::__private::serde::Serialize, ::vergate::__private::serde::Deserialize)]
                #[serde(crate = "::vergate::__private::serde")]
            }
        }
    };
    match item {
        Item::Struct(s) => {
            let mut s = s.clone();
            keep(&mut s.attrs, true);
            s.fields
                .iter_mut()
                .for_each(|field| keep(&mut field.attrs, false));
            let serde = serde_for(&s.attrs);
            Some(quote!(#serde #s))
        }
        Item::Enum(e) => {
            let mut e = e.clone();
            keep(&mut e.attrs, true);
            e.variants
                .iter_mut()
                .for_each(|variant| keep(&mut variant.attrs, false));
            let serde = serde_for(&e.attrs);
            Some(quote!(#serde #e))
        }
        _ => None,
    }
}

fn wrap(
    module: &ItemMod,
    others: &[&Item],
    shared: TokenStream,
    minors: BTreeMap<Version, TokenStream>,
) -> TokenStream {
    let ItemMod {
        attrs, vis, ident, ..
    } = module;
    let minors = minors.into_iter().map(|(version, tokens)| {
        let name = format_ident!("{}", version.ident());
        let doc = format!(" The types of `{ident}` as minor {version} has them.");
        quote! {
            #[doc = #doc]
            #[allow(dead_code)]
            pub mod #name {
                #[allow(unused_imports)]
                use super::*;
                #tokens
            }
        }
    });
    quote! {
        #(#attrs)*
        #vis mod #ident {
            #(#others)*
            /// The gate table of every versioned type of this module.
            #[allow(dead_code)]
            pub mod gates {
                #shared
            }
            #(#minors)*
        }
    }
}

#[cfg(test)]
mod tests;
