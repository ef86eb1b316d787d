//! One definition of one minor as a Rust item: a struct for an object, an
//! enum of unit variants for a string enum, a newtype for anything else; with
//! serde wire names, `#[deprecated]` from the minor it is deprecated in, doc
//! comments that carry the gate, and the `Versioned` impl.

use super::docs::{deprecated_attr, doc_attrs};
use super::expanded;
use super::field::Field;
use super::layout_policy::{Layout, SerdeImpls};
use super::options::Options;
use super::schema::json_schema;
use crate::model::{Definition, GatedModel, ObjectSchema};
use proc_macro2::{Ident, TokenStream};
use quote::quote;
use vergate_core::Version;

/// The struct or enum of `definition` as minor `version` has it: the one
/// item [`expand`](super::expand) emits per (minor, definition), also used
/// on its own by output that shares items between minors. Its serde impls
/// are derived or written out, as [`Layout::serde_impls`] says.
pub fn type_item(
    model: &GatedModel,
    layout: &dyn Layout,
    version: Version,
    definition: &Definition,
) -> TokenStream {
    let lifecycle = &model.types[&definition.name].lifecycle;
    let ident = layout.type_ident(&definition.name);
    let cfg = layout.cfg_attrs(&definition.name);
    let attrs = layout.type_attrs(&definition.name);
    let rt = layout.runtime();
    let docs = if layout.docs() {
        doc_attrs(
            definition
                .description
                .as_deref()
                .map(|text| layout.description(text))
                .as_deref(),
            lifecycle,
            &model.versions,
        )
    } else {
        TokenStream::new()
    };
    let deprecated = type_deprecated_attr(model, definition, version);
    let serde = layout.serde_impls();
    let derived = serde == SerdeImpls::Derive;
    let expanded = serde == SerdeImpls::Expanded;
    let serde_attrs = match serde {
        SerdeImpls::Derive => {
            let serde_crate = format!("{rt}::__private::serde").replace(' ', "");
            quote! {
                #[derive(#rt::__private::serde::Serialize, #rt::__private::serde::Deserialize)]
                #[serde(crate = #serde_crate)]
            }
        }
        SerdeImpls::Expanded => quote!(#[derive(::core::default::Default)]),
        SerdeImpls::None => TokenStream::new(),
    };
    if let Some(union) = definition.union() {
        // Serde impls written out in every layout, and `Default` by hand
        // (a derive needs a unit variant): see `union.rs`.
        let head = quote!(#docs #deprecated #cfg #attrs);
        return super::union::union_item(model, layout, definition, union, head, &cfg, expanded);
    }
    let head = quote! {
        #docs
        #deprecated
        #cfg
        #attrs
        #serde_attrs
    };
    if let Some(object) = definition.object() {
        let fields = fields(model, layout, version, definition, object);
        let decls = fields.iter().map(|field| field.declaration(derived));
        let impls = expanded.then(|| expanded::object(&rt, &ident, &fields));
        let impls = impls.map(|impls| quote!(#cfg const _: () = { #impls };));
        quote! {
            #head
            pub struct #ident {
                #(#decls)*
            }
            #impls
        }
    } else if super::is_string_enum(definition) {
        let variants: Vec<(Ident, &str)> = definition
            .enum_values
            .iter()
            .map(|value| {
                (
                    layout.variant_ident(&definition.name, value),
                    value.as_str(),
                )
            })
            .collect();
        let decls = variants
            .iter()
            .enumerate()
            .map(|(index, (variant, value))| {
                let lifecycle = &model.types[&definition.name].values[*value];
                let variant_docs = if layout.docs() {
                    doc_attrs(None, lifecycle, &model.versions)
                } else {
                    TokenStream::new()
                };
                let deprecated = deprecated_attr(lifecycle, version);
                let wire = if derived {
                    quote!(#[serde(rename = #value)])
                } else if expanded && index == 0 {
                    quote!(#[default])
                } else {
                    TokenStream::new()
                };
                quote! {
                    #variant_docs
                    #deprecated
                    #wire
                    #variant,
                }
            });
        let impls = expanded.then(|| expanded::string_enum(&rt, &ident, &variants));
        let impls = impls.map(|impls| quote!(#cfg const _: () = { #impls };));
        quote! {
            #head
            pub enum #ident {
                #(#decls)*
            }
            #impls
        }
    } else {
        let inner = layout.rust_type(&definition.schema);
        let transparent = derived.then(|| quote!(#[serde(transparent)]));
        let impls = expanded.then(|| expanded::newtype(&rt, &ident));
        let impls = impls.map(|impls| quote!(#cfg const _: () = { #impls };));
        quote! {
            #head
            #transparent
            pub struct #ident(pub #inner);
            #impls
        }
    }
}

fn fields(
    model: &GatedModel,
    layout: &dyn Layout,
    version: Version,
    definition: &Definition,
    object: &ObjectSchema,
) -> Vec<Field> {
    let type_lifecycle = &model.types[&definition.name];
    object
        .properties
        .iter()
        .map(|(wire, property)| {
            let lifecycle = &type_lifecycle.fields[wire].lifecycle;
            let docs = if layout.docs() {
                let constraints = crate::model::constraints::constraints_of(&property.keywords);
                let description = match (
                    property.description.as_deref(),
                    crate::model::constraints::describe(&constraints),
                ) {
                    (Some(text), Some(said)) => Some(format!("{text}\n\nConstraints: {said}.")),
                    (None, Some(said)) => Some(format!("Constraints: {said}.")),
                    (text, None) => text.map(str::to_owned),
                }
                .map(|text| layout.description(&text));
                doc_attrs(description.as_deref(), lifecycle, &model.versions)
            } else {
                TokenStream::new()
            };
            let deprecated = deprecated_attr(lifecycle, version);
            Field {
                ident: layout.field_ident(&definition.name, wire),
                wire: wire.clone(),
                ty: layout.field_type(&definition.name, wire, &property.schema, version),
                required: object.required.contains(wire),
                attrs: quote!(#docs #deprecated),
            }
        })
        .collect()
}

/// `impl Versioned`: the type's name, minor, gate table and JSON Schema.
pub(crate) fn versioned_impl(
    model: &GatedModel,
    layout: &dyn Layout,
    version: Version,
    definition: &Definition,
    options: &Options,
) -> TokenStream {
    let rt = layout.runtime();
    let ident = layout.type_ident(&definition.name);
    let name = &definition.name;
    let (major, minor) = (version.major(), version.minor());
    let gates = layout.gates_path();
    let table = layout.gates_ident(&definition.name);
    let schema = json_schema(model, version, &definition.name, options.closed_schemas);
    quote! {
        #[allow(deprecated)]
        impl #rt::versioned::Versioned for #ident {
            const NAME: &'static str = #name;
            const VERSION: #rt::Version = #rt::Version::new(#major, #minor);
            const GATES: &'static #rt::versioned::TypeTable = &#gates::#table;
            const JSON_SCHEMA: &'static str = #schema;
        }
    }
}

/// `#[deprecated]` for a type in `version`: for a kind whose API server
/// warns in that minor, with the server's own words as the note.
fn type_deprecated_attr(
    model: &GatedModel,
    definition: &Definition,
    version: Version,
) -> TokenStream {
    let ty = &model.types[&definition.name];
    let warning = definition
        .kinds
        .first()
        .and_then(|kind| vergate_core::gates::warning_in(&ty.api_lifecycle, kind, version));
    match warning {
        Some(note) => quote!(#[deprecated(note = #note)]),
        None => deprecated_attr(&ty.lifecycle, version),
    }
}
