//! The typed view of an annotated module: its versioned types, their fields
//! and variants with parsed gates, and the other items it holds. Each node
//! keeps its `syn` node for spans.

use super::args::Args;
use super::attr::{self, Gates, Place};
use super::ctxt::Ctxt;
use super::rust_type::{self, FieldType};
use super::symbol;
use std::collections::BTreeSet;
use syn::{Fields, Ident, Item, ItemMod};

/// An annotated module.
pub struct Module<'a> {
    pub args: Args,
    pub item: &'a ItemMod,
    pub types: Vec<TypeDef<'a>>,
    /// Items that are not versioned types, kept as written.
    pub others: Vec<&'a Item>,
}

/// A versioned struct or enum.
pub struct TypeDef<'a> {
    pub ident: &'a Ident,
    pub gates: Gates,
    pub body: Body<'a>,
}

/// A struct's fields or an enum's variants.
pub enum Body<'a> {
    Struct(Vec<Field<'a>>),
    Enum(Vec<Variant<'a>>),
}

/// A named field.
pub struct Field<'a> {
    pub ident: &'a Ident,
    pub ty: &'a syn::Type,
    pub gates: Gates,
    /// The wire name (the current one, when the field was renamed).
    pub wire: String,
    pub analyzed: FieldType,
}

/// A unit variant: one string value.
pub struct Variant<'a> {
    pub ident: &'a Ident,
    pub gates: Gates,
    pub wire: String,
}

impl<'a> Module<'a> {
    /// Reads the module, recording every mistake in `cx`.
    pub fn from_syn(cx: &Ctxt, args: Args, item: &'a ItemMod) -> Module<'a> {
        let mut module = Module {
            args,
            item,
            types: Vec::new(),
            others: Vec::new(),
        };
        let Some((_, items)) = &item.content else {
            cx.error_spanned_by(
                item,
                "`#[vergate::versioned]` needs the module's items inline: `mod api { ... }`",
            );
            return module;
        };
        let versioned: BTreeSet<String> = items
            .iter()
            .filter_map(|item| match item {
                Item::Struct(s) => Some(s.ident.to_string()),
                Item::Enum(e) => Some(e.ident.to_string()),
                _ => None,
            })
            .collect();
        let minors = module.args.minors.clone();
        for item in items {
            match item {
                Item::Struct(s) => {
                    let gates = attr::parse_gates(cx, &s.attrs, minors.as_ref(), Place::Type);
                    no_generics(cx, &s.generics);
                    let fields = match &s.fields {
                        Fields::Named(named) => named
                            .named
                            .iter()
                            .map(|field| {
                                let gates = attr::parse_gates(
                                    cx,
                                    &field.attrs,
                                    minors.as_ref(),
                                    Place::Field,
                                );
                                let ident = field.ident.as_ref().expect("named field");
                                let plain = ident.to_string();
                                let plain = plain.trim_start_matches("r#");
                                let wire = gates.rename.as_ref().map_or_else(
                                    || module.args.rename_all.apply(plain),
                                    |r| r.value.clone(),
                                );
                                Field {
                                    ident,
                                    ty: &field.ty,
                                    analyzed: rust_type::analyze(cx, &field.ty, &versioned),
                                    gates,
                                    wire,
                                }
                            })
                            .collect(),
                        other => {
                            cx.error_spanned_by(
                                other,
                                "vergate versions structs with named fields; a field's wire name comes from its name",
                            );
                            Vec::new()
                        }
                    };
                    module.types.push(TypeDef {
                        ident: &s.ident,
                        gates,
                        body: Body::Struct(fields),
                    });
                }
                Item::Enum(e) => {
                    let gates = attr::parse_gates(cx, &e.attrs, minors.as_ref(), Place::Type);
                    no_generics(cx, &e.generics);
                    let variants = e
                        .variants
                        .iter()
                        .map(|variant| {
                            if !matches!(variant.fields, Fields::Unit) {
                                cx.error_spanned_by(
                                    &variant.fields,
                                    "vergate versions enums of unit variants (one string value each)",
                                );
                            }
                            if let Some((_, discriminant)) = &variant.discriminant {
                                cx.error_spanned_by(discriminant, "a versioned enum's values are strings; remove the discriminant");
                            }
                            let gates = attr::parse_gates(cx, &variant.attrs, minors.as_ref(), Place::Variant);
                            let wire = gates
                                .rename
                                .as_ref()
                                .map_or_else(|| variant.ident.to_string(), |r| r.value.clone());
                            Variant {
                                ident: &variant.ident,
                                gates,
                                wire,
                            }
                        })
                        .collect();
                    module.types.push(TypeDef {
                        ident: &e.ident,
                        gates,
                        body: Body::Enum(variants),
                    });
                }
                other => {
                    for attr in item_attrs(other) {
                        if symbol::Symbol::of(attr.path()).is_some() {
                            cx.error_spanned_by(
                                attr.path(),
                                "vergate gates have no meaning here; they apply to the module's structs and enums, their fields and variants",
                            );
                        }
                    }
                    module.others.push(other);
                }
            }
        }
        module
    }
}

fn no_generics(cx: &Ctxt, generics: &syn::Generics) {
    if !generics.params.is_empty() {
        cx.error_spanned_by(generics, "versioned types cannot be generic");
    }
}

fn item_attrs(item: &Item) -> &[syn::Attribute] {
    match item {
        Item::Const(i) => &i.attrs,
        Item::Fn(i) => &i.attrs,
        Item::Impl(i) => &i.attrs,
        Item::Mod(i) => &i.attrs,
        Item::Static(i) => &i.attrs,
        Item::Trait(i) => &i.attrs,
        Item::Type(i) => &i.attrs,
        Item::Use(i) => &i.attrs,
        Item::Macro(i) => &i.attrs,
        Item::Union(i) => &i.attrs,
        _ => &[],
    }
}

/// The attributes of an item that is not a versioned type.
pub fn item_attrs_mut(item: &mut Item) -> Option<&mut Vec<syn::Attribute>> {
    match item {
        Item::Const(i) => Some(&mut i.attrs),
        Item::Fn(i) => Some(&mut i.attrs),
        Item::Impl(i) => Some(&mut i.attrs),
        Item::Mod(i) => Some(&mut i.attrs),
        Item::Static(i) => Some(&mut i.attrs),
        Item::Trait(i) => Some(&mut i.attrs),
        Item::Type(i) => Some(&mut i.attrs),
        Item::Use(i) => Some(&mut i.attrs),
        Item::Macro(i) => Some(&mut i.attrs),
        Item::Union(i) => Some(&mut i.attrs),
        _ => None,
    }
}
