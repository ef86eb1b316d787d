//! The output's modules as token streams: the root (`IntOrString`, `List`,
//! the serde re-exports), one module per minor (re-exports by group and
//! version, and a flat prelude) and one module of shapes per home minor.

use super::boxes::Boxes;
use super::paths::syn_ident;
use super::paths::Names;
use super::shapes::Shapes;
use super::spec_layout::{fingerprints, root_tokens, Purpose, SpecLayout, SHAPES_MODULE};
use crate::derive::{deprecated_attr, doc_attrs, type_item, Layout};
use crate::model::{Definition, GatedModel};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use std::collections::BTreeMap;
use vergate_core::alias::import_aliases;
use vergate_core::Version;

/// Everything the renderer needs, computed once per API.
pub struct Plan<'a> {
    pub model: &'a GatedModel,
    pub names: Names,
    pub boxes: Boxes,
    pub shapes: Shapes,
    /// The Rust path of the output's root module (`crate`, `crate::demo`),
    /// as text: a plan is shared between threads, tokens cannot be.
    pub root: String,
    /// Gate each shape and minor module on the minor's cargo feature.
    pub features: bool,
    /// Implement k8s-openapi's traits under a `kube` feature
    /// ([`super::resource`]): a crate with features whose API has kinds.
    pub kube: bool,
    /// The conversions between adjacent minors (the `conversions` feature),
    /// for a crate with features.
    pub conversions: Option<crate::derive::ConversionPlan>,
}

impl<'a> Plan<'a> {
    /// Names, boxes and shapes of `model`, for output rooted at `root`.
    pub fn new(model: &'a GatedModel, root: &syn::Path, features: bool) -> Plan<'a> {
        let root = quote!(#root).to_string();
        let names = Names::new(model);
        let boxes = Boxes::new(model);
        // The items' text, minor by minor in parallel (rendering dominates).
        let fingerprints = crate::parallel::map_each(&model.versions, |version| {
            fingerprints(model, &names, &boxes, &root, *version)
        });
        let shapes = Shapes::new(model, fingerprints);
        Plan {
            model,
            names,
            boxes,
            shapes,
            root,
            features,
            kube: features && super::resource::kube_applies(model),
            conversions: features.then(|| crate::derive::ConversionPlan::new(model)),
        }
    }

    /// The root path as tokens.
    pub fn root_tokens(&self) -> TokenStream {
        root_tokens(&self.root)
    }

    /// The items of the root module, except the module declarations.
    /// `wire` is the `mod wire` item: [`inline_wire_module`] or a
    /// `pub mod wire;` whose file is [`WIRE_SOURCE`].
    pub fn root_items(&self, wire: TokenStream) -> TokenStream {
        let list = super::lists::list_type();
        let resource = super::resource::root_items(self.kube);
        let int_or_string = crate::derive::int_or_string_item();
        let mut jiff = if self.features && super::typed::has_timestamps(self.model) {
            quote!(
                #[cfg(feature = "jiff")]
                pub use jiff;
            )
        } else {
            TokenStream::new()
        };
        let bytes = if self.features && super::typed::has_bytes(self.model) {
            jiff.extend(quote!(
                #[cfg(feature = "bytes")]
                pub use base64;
            ));
            super::typed::byte_string(&self.root_tokens())
        } else {
            TokenStream::new()
        };
        quote! {
            #list
            #resource
            #bytes

            #int_or_string

            /// The crates generated code names, so that users need not
            /// depend on them themselves.
            #[doc(hidden)]
            pub mod __private {
                pub use serde;
                pub use serde_json;
                #jiff
                #wire
            }
        }
    }

    /// The conversions of the shape `name` (home minor `home`) to the
    /// shapes of the adjacent minors, each under the `conversions` feature
    /// and the features of both minors; one per target shape.
    fn conversions_of(
        &self,
        layout: &SpecLayout,
        definition: &Definition,
        home: Version,
        name: &str,
    ) -> TokenStream {
        let Some(plan) = &self.conversions else {
            return TokenStream::new();
        };
        let minors = self.shapes.minors(home, name);
        let versions = &self.model.versions;
        // Boundaries by the target's shape (its home minor).
        let mut by_target: BTreeMap<Version, Vec<(Version, Version)>> = BTreeMap::new();
        for (index, from) in versions.iter().enumerate() {
            if !minors.contains(from) {
                continue;
            }
            let neighbours = [index.checked_sub(1), Some(index + 1)];
            for to in neighbours
                .into_iter()
                .flatten()
                .filter_map(|i| versions.get(i))
            {
                if minors.contains(to) || !self.model.minors[to].definitions.contains_key(name) {
                    continue;
                }
                let target_home = self.shapes.home(*to, name);
                by_target.entry(target_home).or_default().push((*from, *to));
            }
        }
        let mut out = TokenStream::new();
        for pairs in by_target.values() {
            let (from, to) = pairs[0];
            let source = &self.model.minors[&from].definitions[name];
            let _ = definition;
            let tokens = plan.between(self.model, layout, source, from, to);
            if tokens.is_empty() {
                continue;
            }
            let pairs = pairs.iter().map(|(a, b)| {
                let (a, b) = (a.ident(), b.ident());
                quote!(all(feature = #a, feature = #b))
            });
            out.extend(quote! {
                #[cfg(all(feature = "conversions", any(#(#pairs),*)))]
                const _: () = {
                    #tokens
                };
            });
        }
        out
    }

    /// The outer attributes of minor `version`'s module.
    pub fn minor_attrs(&self, version: Version) -> TokenStream {
        let doc = format!(
            " {} {version}: every type this minor accepts, by group and version \
             (`{}::<group>::<version>::<Type>`), and all of them in a flat [`prelude`](self::{}::prelude).",
            self.model.api,
            version.ident(),
            version.ident()
        );
        let feature = version.ident();
        let cfg = self.features.then(|| quote!(#[cfg(feature = #feature)]));
        quote! {
            #[doc = #doc]
            #cfg
            #[allow(deprecated)]
        }
    }

    /// The body of minor `version`'s module: one module per group and
    /// version re-exporting the shapes the minor has, and the prelude.
    pub fn minor_body(&self, version: Version) -> TokenStream {
        let root = &self.root_tokens();
        let shapes_module = format_ident!("{SHAPES_MODULE}");
        let definitions = &self.model.minors[&version].definitions;
        // module path → home → idents
        let mut uses: BTreeMap<&[String], BTreeMap<Version, Vec<proc_macro2::Ident>>> =
            BTreeMap::new();
        for name in definitions.keys() {
            uses.entry(self.names.module(name))
                .or_default()
                .entry(self.shapes.home(version, name))
                .or_default()
                .push(self.names.type_ident(name));
        }
        let modules = uses
            .into_iter()
            .map(|(module, homes)| {
                let segments: Vec<_> = module.iter().map(|s| syn_ident(s)).collect();
                let items = homes.into_iter().map(|(home, idents)| {
                    let home = format_ident!("{}", home.ident());
                    quote!(pub use #root::#shapes_module::#home::#(#segments::)*{#(#idents),*};)
                });
                (module.to_vec(), quote!(#(#items)*))
            })
            .collect();
        let groups = nest(modules);
        let prelude = self.prelude(version);
        quote! {
            #groups
            #prelude
        }
    }

    /// `pub mod prelude`: every type of the minor under its alias from
    /// [`import_aliases`] (`Service`; `build_Target_v1` and
    /// `deploy_Target_v1` where two groups share a name).
    fn prelude(&self, version: Version) -> TokenStream {
        let names: Vec<&String> = self.model.minors[&version].definitions.keys().collect();
        let paths: Vec<String> = names
            .iter()
            .map(|name| {
                let mut segments: Vec<String> = self
                    .names
                    .module(name)
                    .iter()
                    .map(|s| s.trim_start_matches("r#").to_owned())
                    .collect();
                segments.push(
                    self.names
                        .type_ident(name)
                        .to_string()
                        .trim_start_matches("r#")
                        .to_owned(),
                );
                segments.join("/")
            })
            .collect();
        let aliases = import_aliases(&paths);
        let uses = names.iter().zip(aliases).map(|(name, alias)| {
            let segments = self.names.module(name).iter().map(|s| syn_ident(s));
            let ident = self.names.type_ident(name);
            let alias = crate::derive::ident(&alias);
            if alias == ident {
                quote!(pub use super::#(#segments::)*#ident;)
            } else {
                quote!(pub use super::#(#segments::)*#ident as #alias;)
            }
        });
        let doc = format!(
            " Every type of {} {version} under one name: its own where no other group has it, \
             qualified by group (and version) where several do.",
            self.model.api
        );
        quote! {
            #[doc = #doc]
            #[allow(non_camel_case_types)]
            pub mod prelude {
                #(#uses)*
            }
        }
    }

    /// The body of the shapes module of home minor `home`: every shape first
    /// seen in that minor, by group and version.
    pub fn shapes_body(&self, home: Version, names: &[&str]) -> TokenStream {
        let root = self.root_tokens();
        let layout = self.shape_layout(home, &root);
        let mut modules: BTreeMap<Vec<String>, TokenStream> = BTreeMap::new();
        for name in names {
            let (newest, definition) = self.shape_definition(home, name);
            let item = match super::lists::envelope(self.model, newest, definition) {
                Some((items, metadata)) => {
                    self.list_alias(&layout, newest, definition, items, metadata)
                }
                None => {
                    let ident = self.names.type_ident(&definition.name);
                    let item = type_item(self.model, &layout, newest, definition);
                    let item = if self.features {
                        super::typed::timestamps(
                            definition,
                            &ident,
                            item,
                            &root,
                            &layout.cfg_attrs(name),
                        )
                    } else {
                        item
                    };
                    let mut item =
                        super::resource::object_meta(definition, &ident, item, self.kube);
                    item.extend(self.conversions_of(&layout, definition, home, name));
                    if self.features {
                        item.extend(super::typed::quantity_methods(
                            definition,
                            &ident,
                            &root,
                            &layout.cfg_attrs(name),
                        ));
                    }
                    item.extend(super::resource::impls(
                        definition,
                        &ident,
                        &root,
                        &layout.cfg_attrs(name),
                        self.kube,
                    ));
                    item
                }
            };
            modules
                .entry(self.names.module(name).to_vec())
                .or_default()
                .extend(item);
        }
        nest(modules)
    }

    /// The minor a shape is written from and its definition there: minors
    /// of one shape differ at most in wording, and the newest's is used.
    pub fn shape_definition(&self, home: Version, name: &str) -> (Version, &'a Definition) {
        let newest = *self
            .shapes
            .minors(home, name)
            .last()
            .expect("a shape has its home minor");
        (newest, &self.model.minors[&newest].definitions[name])
    }

    /// The layout shapes of home minor `home` are written in.
    pub fn shape_layout<'l>(&'l self, home: Version, root: &'l TokenStream) -> SpecLayout<'l> {
        SpecLayout {
            names: &self.names,
            boxes: &self.boxes,
            root,
            version: home,
            purpose: Purpose::Emit {
                shapes: &self.shapes,
                features: self.features,
            },
        }
    }
}

impl Plan<'_> {
    /// `pub type XList = List<X, ListMeta>;` for a list envelope, with the
    /// docs, deprecation and cfg the struct would have had.
    fn list_alias(
        &self,
        layout: &SpecLayout,
        version: Version,
        definition: &Definition,
        items: &str,
        metadata: &str,
    ) -> TokenStream {
        let lifecycle = &self.model.types[&definition.name].lifecycle;
        let description = definition
            .description
            .as_deref()
            .map(|text| layout.description(text));
        let docs = doc_attrs(description.as_deref(), lifecycle, &self.model.versions);
        let deprecated = deprecated_attr(lifecycle, version);
        let cfg = layout.cfg_attrs(&definition.name);
        let ident = self.names.type_ident(&definition.name);
        let root = &layout.root;
        let items = layout.type_path(items);
        let metadata = layout.type_path(metadata);
        quote! {
            #docs
            #deprecated
            #cfg
            pub type #ident = #root::List<#items, #metadata>;
        }
    }
}

/// The serde drivers the expanded impls call (compiled, with the rest of the
/// output, by the tests).
pub const WIRE_SOURCE: &str = include_str!("support/wire.rs");

/// `pub mod wire { … }`: [`WIRE_SOURCE`] inline, for output in one file.
pub fn inline_wire_module() -> TokenStream {
    let file = syn::parse_file(WIRE_SOURCE)
        .expect("support/wire.rs is Rust: the demo crate's tests compile it");
    let attrs = &file.attrs;
    let items = &file.items;
    quote! {
        pub mod wire {
            #(#attrs)*
            #(#items)*
        }
    }
}

/// Nested `pub mod` items from module paths and their items.
fn nest(modules: BTreeMap<Vec<String>, TokenStream>) -> TokenStream {
    let mut here = TokenStream::new();
    let mut children: BTreeMap<String, BTreeMap<Vec<String>, TokenStream>> = BTreeMap::new();
    for (path, items) in modules {
        match path.split_first() {
            None => here.extend(items),
            Some((first, rest)) => {
                children
                    .entry(first.clone())
                    .or_default()
                    .insert(rest.to_vec(), items);
            }
        }
    }
    for (name, inner) in children {
        let ident = syn_ident(&name);
        let body = nest(inner);
        here.extend(quote! {
            pub mod #ident {
                #body
            }
        });
    }
    here
}
