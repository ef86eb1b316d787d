//! The derive's [`Layout`]: the names and field types the user wrote, one
//! flat module per minor (so `Container` inside `v1_30` is `v1_30::Container`).

use super::ast::{Body, Module};
use crate::derive::Layout;
use crate::model::Schema;
use proc_macro2::{Ident, TokenStream};
use quote::quote;
use std::collections::BTreeMap;
use vergate_core::Version;

/// Names by model name and wire name, taken from the annotated module.
pub struct DeriveLayout {
    types: BTreeMap<String, TypeNames>,
}

struct TypeNames {
    ident: Ident,
    attrs: TokenStream,
    /// Field ident and Rust type (without `Option`) by every wire name it had.
    fields: BTreeMap<String, (Ident, TokenStream)>,
    variants: BTreeMap<String, Ident>,
}

impl DeriveLayout {
    /// The layout of `module`.
    pub fn new(module: &Module) -> Self {
        let types = module
            .types
            .iter()
            .map(|ty| {
                let kept = ty
                    .gates
                    .kept
                    .iter()
                    .filter(|attr| !attr.path().is_ident("doc"));
                let mut names = TypeNames {
                    ident: ty.ident.clone(),
                    attrs: quote!(#(#kept)*),
                    fields: BTreeMap::new(),
                    variants: BTreeMap::new(),
                };
                match &ty.body {
                    Body::Struct(fields) => {
                        for field in fields {
                            let entry = (field.ident.clone(), field.analyzed.inner.clone());
                            if let Some(renamed) = &field.gates.renamed {
                                names.fields.insert(renamed.from.clone(), entry.clone());
                            }
                            names.fields.insert(field.wire.clone(), entry);
                        }
                    }
                    Body::Enum(variants) => {
                        for variant in variants {
                            names
                                .variants
                                .insert(variant.wire.clone(), variant.ident.clone());
                        }
                    }
                }
                (ty.ident.to_string(), names)
            })
            .collect();
        DeriveLayout { types }
    }
}

impl Layout for DeriveLayout {
    fn type_ident(&self, name: &str) -> Ident {
        self.types[name].ident.clone()
    }

    fn field_ident(&self, type_name: &str, wire: &str) -> Ident {
        self.types[type_name].fields[wire].0.clone()
    }

    fn variant_ident(&self, type_name: &str, value: &str) -> Ident {
        self.types[type_name].variants[value].clone()
    }

    fn field_type(&self, type_name: &str, wire: &str, _: &Schema, _: Version) -> TokenStream {
        self.types[type_name].fields[wire].1.clone()
    }

    fn type_attrs(&self, name: &str) -> TokenStream {
        self.types[name].attrs.clone()
    }
}
