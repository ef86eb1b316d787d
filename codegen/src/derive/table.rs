//! The static gate tables: one `TypeTable` per definition, shared by every
//! minor (the runtime preflight reads them without parsing gates.json).

use super::layout_policy::Layout;
use crate::model::{GatedModel, Lifecycle, Stage};
use proc_macro2::TokenStream;
use quote::quote;
use vergate_core::Version;

/// `pub static NAME: TypeTable = …;` for every definition of the model.
pub(crate) fn tables(model: &GatedModel, layout: &dyn Layout) -> TokenStream {
    let rt = layout.runtime();
    let corpus = &model.versions;
    model
        .types
        .iter()
        .map(|(name, ty)| {
            let ident = layout.gates_ident(name);
            let type_gate = gate(&rt, &ty.lifecycle, corpus);
            let fields = ty.fields.iter().map(|(wire, field)| {
                let rust = plain(layout.field_ident(name, wire).to_string());
                let gate = gate(&rt, &field.lifecycle, corpus);
                let renamed_from = match &field.renamed_from {
                    Some(rename) => {
                        let from = &rename.from;
                        let version = version(&rt, rename.in_version);
                        quote!(::core::option::Option::Some((#from, #version)))
                    }
                    None => quote!(::core::option::Option::None),
                };
                quote! {
                    #rt::versioned::FieldEntry {
                        rust: #rust,
                        wire: #wire,
                        gate: #gate,
                        renamed_from: #renamed_from,
                    }
                }
            });
            let values = ty.values.iter().map(|(wire, lifecycle)| {
                let rust = plain(layout.variant_ident(name, wire).to_string());
                let gate = gate(&rt, lifecycle, corpus);
                quote! {
                    #rt::versioned::ValueEntry { rust: #rust, wire: #wire, gate: #gate }
                }
            });
            let doc = format!(" The gates of `{name}` and of its fields and values.");
            quote! {
                #[doc = #doc]
                pub static #ident: #rt::versioned::TypeTable = #rt::versioned::TypeTable {
                    name: #name,
                    gate: #type_gate,
                    fields: &[#(#fields),*],
                    values: &[#(#values),*],
                };
            }
        })
        .collect()
}

fn plain(ident: String) -> String {
    ident.trim_start_matches("r#").to_owned()
}

fn gate(rt: &TokenStream, lifecycle: &Lifecycle, corpus: &[Version]) -> TokenStream {
    let introduced_in = version(
        rt,
        lifecycle
            .introduced_in()
            .expect("a lifecycle in the gated model is present in at least one minor"),
    );
    let removed_in = option(lifecycle.removed_in(corpus).map(|v| version(rt, v)));
    let present_in = option((!lifecycle.presence.is_contiguous_in(corpus)).then(|| {
        let minors = lifecycle.presence.iter().map(|v| version(rt, v));
        quote!(&[#(#minors),*])
    }));
    let deprecated_in = option(lifecycle.deprecated_in.map(|v| version(rt, v)));
    let stage = lifecycle.stage.iter().map(|(since, stage)| {
        let since = version(rt, *since);
        let stage = match stage {
            Stage::Alpha => quote!(Alpha),
            Stage::Beta => quote!(Beta),
            Stage::Ga => quote!(Ga),
        };
        quote!((#since, #rt::gates::Stage::#stage))
    });
    let feature_gate = option(lifecycle.feature_gate.as_ref().map(|gate| quote!(#gate)));
    let reference = option(lifecycle.reference.as_ref().map(|url| quote!(#url)));
    quote! {
        #rt::versioned::StaticGate {
            introduced_in: #introduced_in,
            removed_in: #removed_in,
            present_in: #present_in,
            deprecated_in: #deprecated_in,
            stage: &[#(#stage),*],
            feature_gate: #feature_gate,
            reference: #reference,
        }
    }
}

fn version(rt: &TokenStream, version: Version) -> TokenStream {
    let (major, minor) = (version.major(), version.minor());
    quote!(#rt::Version::new(#major, #minor))
}

fn option(value: Option<TokenStream>) -> TokenStream {
    match value {
        Some(value) => quote!(::core::option::Option::Some(#value)),
        None => quote!(::core::option::Option::None),
    }
}
