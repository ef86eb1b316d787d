//! The engine's [`Layout`] for spec-driven output: names from [`Names`],
//! references resolved to the shape each referenced type has in the minor
//! being emitted, boxes from [`Boxes`], cargo-feature gates and derives.

use super::boxes::Boxes;
use super::paths::{syn_ident, Names};
use super::shapes::Shapes;
use crate::derive::{type_item, Layout, SerdeImpls};
use crate::model::{GatedModel, Schema};
use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};
use vergate_core::Version;

/// The name of the module, below the output's root, that holds every shape.
pub const SHAPES_MODULE: &str = "shapes";

/// What the layout is used for.
#[derive(Clone, Copy)]
pub enum Purpose<'a> {
    /// Comparing shapes: a reference is the referenced definition's name.
    Fingerprint,
    /// Emitting a shape: a reference is the path of the referenced shape;
    /// `features` gates each shape on the cargo features of its minors.
    Emit { shapes: &'a Shapes, features: bool },
}

/// The layout of one minor's view of the API.
pub struct SpecLayout<'a> {
    pub names: &'a Names,
    pub boxes: &'a Boxes,
    /// The Rust path of the output's root module (`crate`, `crate::demo`).
    pub root: &'a TokenStream,
    pub version: Version,
    pub purpose: Purpose<'a>,
}

impl SpecLayout<'_> {
    /// The path of the shape definition `name` has in `self.version`.
    pub fn shape_path(&self, shapes: &Shapes, name: &str) -> TokenStream {
        self.shape_path_in(shapes, self.version, name)
    }

    /// The path of the shape `name` has in minor `version`.
    fn shape_path_in(&self, shapes: &Shapes, version: Version, name: &str) -> TokenStream {
        let root = self.root;
        let first = format_ident!("{}", shapes.home(version, name).ident());
        let module = self.names.module(name).iter().map(|s| syn_ident(s));
        let ident = self.names.type_ident(name);
        let shapes_module = format_ident!("{SHAPES_MODULE}");
        quote!(#root::#shapes_module::#first::#(#module::)*#ident)
    }
}

impl Layout for SpecLayout<'_> {
    fn runtime(&self) -> TokenStream {
        self.root.clone()
    }

    fn type_ident(&self, name: &str) -> Ident {
        self.names.type_ident(name)
    }

    fn description(&self, text: &str) -> String {
        super::doc_text::rustdoc_text(text)
    }

    /// Fingerprints leave the serde impls out: they follow from the item.
    fn serde_impls(&self) -> SerdeImpls {
        match self.purpose {
            Purpose::Fingerprint => SerdeImpls::None,
            Purpose::Emit { .. } => SerdeImpls::Expanded,
        }
    }

    /// Descriptions are left out of fingerprints: minors whose types differ
    /// only in wording share one type, documented as the newest minor has it.
    fn docs(&self) -> bool {
        matches!(self.purpose, Purpose::Emit { .. })
    }

    fn field_ident(&self, type_name: &str, wire: &str) -> Ident {
        self.names.field_ident(type_name, wire)
    }

    fn variant_ident(&self, type_name: &str, value: &str) -> Ident {
        self.names.variant_ident(type_name, value)
    }

    fn type_path(&self, name: &str) -> TokenStream {
        match self.purpose {
            Purpose::Fingerprint => quote!(#name),
            Purpose::Emit { shapes, .. } => self.shape_path(shapes, name),
        }
    }

    fn other_minor_path(&self, name: &str, from: Version, to: Version) -> TokenStream {
        let _ = from;
        match self.purpose {
            Purpose::Fingerprint => quote!(#name),
            Purpose::Emit { shapes, .. } => self.shape_path_in(shapes, to, name),
        }
    }

    fn same_type(&self, name: &str, from: Version, to: Version) -> bool {
        match self.purpose {
            Purpose::Fingerprint => false,
            Purpose::Emit { shapes, .. } => shapes.same(name, from, to),
        }
    }

    fn field_type(
        &self,
        type_name: &str,
        wire: &str,
        schema: &Schema,
        version: Version,
    ) -> TokenStream {
        let ty = self.rust_type(schema);
        if self.boxes.contains(version, type_name, wire) {
            quote!(::std::boxed::Box<#ty>)
        } else {
            ty
        }
    }

    /// Base64 bytes: `ByteString`, the text itself unless the crate's
    /// `bytes` feature decodes it (`typed.rs`).
    fn string_type(&self, format: Option<&str>) -> TokenStream {
        let root = self.root;
        if format == Some("byte") && matches!(self.purpose, Purpose::Emit { features: true, .. }) {
            quote!(#root::ByteString)
        } else {
            quote!(::std::string::String)
        }
    }

    fn cfg_attrs(&self, name: &str) -> TokenStream {
        match self.purpose {
            Purpose::Emit {
                shapes,
                features: true,
            } => {
                let minors = shapes.minors(self.version, name).iter().map(|v| v.ident());
                quote!(#[cfg(any(#(feature = #minors),*))])
            }
            _ => TokenStream::new(),
        }
    }

    fn type_attrs(&self, name: &str) -> TokenStream {
        let _ = name;
        match self.purpose {
            Purpose::Fingerprint => TokenStream::new(),
            Purpose::Emit { .. } => quote!(#[derive(Clone, Debug, PartialEq)]),
        }
    }
}

/// The text of every definition's item in minor `version`, references
/// written as definition names.
pub fn fingerprints<'m>(
    model: &'m GatedModel,
    names: &Names,
    boxes: &Boxes,
    root: &str,
    version: Version,
) -> Vec<((Version, &'m str), String)> {
    let root: TokenStream = root_tokens(root);
    let layout = SpecLayout {
        names,
        boxes,
        root: &root,
        version,
        purpose: Purpose::Fingerprint,
    };
    model.minors[&version]
        .definitions
        .values()
        .map(|definition| {
            let item = type_item(model, &layout, version, definition);
            (
                (version, definition.name.as_str()),
                format!("{}\n{}", definition.name, item),
            )
        })
        .collect()
}

/// The crate root's path (`crate`, `::k8s`) as tokens.
pub fn root_tokens(root: &str) -> TokenStream {
    root.parse()
        .expect("the root is a syn::Path printed by quote, so it parses")
}
