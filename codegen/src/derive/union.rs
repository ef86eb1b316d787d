//! A union definition as a Rust enum: one tuple variant per member
//! (`Cat(Box<Cat>)`, `String(String)`), with serde impls written out in both
//! layouts, so neither serde's derive nor a proc macro runs on them.
//!
//! Decoding buffers the value as a `serde_json::Value`, then:
//! - with a discriminator, reads the property and decodes the member its
//!   value selects (an unknown or missing value fails naming the known
//!   ones). Not serde's internally tagged enums: OpenAPI members declare the
//!   discriminator property themselves, and serde would take it away from
//!   them before decoding (and write it twice when encoding);
//! - without one, tries the members in the spec's order and takes the first
//!   that decodes (as `#[serde(untagged)]` does; that exactly one member of
//!   a `oneOf` matches is `vergate check`'s to say), failing with what each
//!   member said.
//!
//! Encoding writes the member as it is. Members that are definitions are
//! boxed: a union may be reached again from inside one of its members.

use super::docs::doc_attrs;
use super::layout_policy::{ident, Layout};
use crate::model::{Definition, GatedModel, Schema, UnionSchema};
use heck::ToUpperCamelCase;
use proc_macro2::{Ident, TokenStream};
use quote::quote;

/// One member as a variant: its name, its Rust type, and the discriminator
/// values that select it.
struct Variant<'a> {
    ident: Ident,
    /// The member's type (boxed in the variant when `boxed`).
    ty: TokenStream,
    boxed: bool,
    tags: Vec<&'a str>,
    /// The member's gate as doc attributes, when it says something.
    docs: TokenStream,
}

/// The enum of `union` (the definition `definition`) and its serde impls.
/// `head` holds the item's docs and attributes; `default` asks for a
/// `Default` impl (the first member's default).
pub(crate) fn union_item(
    model: &GatedModel,
    layout: &dyn Layout,
    definition: &Definition,
    union: &UnionSchema,
    head: TokenStream,
    cfg: &TokenStream,
    default: bool,
) -> TokenStream {
    let rt = layout.runtime();
    let ident = layout.type_ident(&definition.name);
    let variants = variants(model, layout, &definition.name, union);
    let decls = variants.iter().map(|variant| {
        let Variant {
            ident, ty, docs, ..
        } = variant;
        if variant.boxed {
            quote!(#docs #ident(::std::boxed::Box<#ty>),)
        } else {
            quote!(#docs #ident(#ty),)
        }
    });
    let serialize_arms = variants.iter().map(|Variant { ident, .. }| {
        quote!(Self::#ident(value) => #rt::__private::serde::Serialize::serialize(value, serializer),)
    });
    let decode = match &union.discriminator {
        Some(discriminator) => tagged(&rt, &ident, &discriminator.property, &variants),
        None => untagged(&rt, &ident, &variants),
    };
    let default_impl = variants.first().filter(|_| default).map(|first| {
        let first_ident = &first.ident;
        quote! {
            impl ::core::default::Default for #ident {
                fn default() -> Self {
                    Self::#first_ident(::core::default::Default::default())
                }
            }
        }
    });
    quote! {
        #head
        pub enum #ident {
            #(#decls)*
        }
        #cfg
        const _: () = {
            #default_impl
            impl #rt::__private::serde::Serialize for #ident {
                fn serialize<S: #rt::__private::serde::Serializer>(
                    &self,
                    serializer: S,
                ) -> ::core::result::Result<S::Ok, S::Error> {
                    match self {
                        #(#serialize_arms)*
                    }
                }
            }
            impl<'de> #rt::__private::serde::Deserialize<'de> for #ident {
                fn deserialize<D: #rt::__private::serde::Deserializer<'de>>(
                    deserializer: D,
                ) -> ::core::result::Result<Self, D::Error> {
                    let value = <#rt::__private::serde_json::Value as #rt::__private::serde::Deserialize>::deserialize(deserializer)?;
                    #decode
                }
            }
        };
    }
}

/// Decodes `value` as the member `variant`: `Ok(Self::V(..))` or the error.
fn decode_member(rt: &TokenStream, variant: &Variant) -> TokenStream {
    let Variant {
        ident, ty, boxed, ..
    } = variant;
    let wrap = if *boxed {
        quote!(|member| Self::#ident(::std::boxed::Box::new(member)))
    } else {
        quote!(Self::#ident)
    };
    quote!(<#ty as #rt::__private::serde::Deserialize>::deserialize(&value).map(#wrap))
}

fn tagged(rt: &TokenStream, ident: &Ident, property: &str, variants: &[Variant]) -> TokenStream {
    let name = ident.to_string().trim_start_matches("r#").to_owned();
    let mut known: Vec<&str> = variants
        .iter()
        .flat_map(|v| v.tags.iter().copied())
        .collect();
    known.sort_unstable();
    let arms = variants.iter().filter(|v| !v.tags.is_empty()).map(|variant| {
        let tags = &variant.tags;
        let decode = decode_member(rt, variant);
        quote!(::core::option::Option::Some(#(#tags)|*) => #decode.map_err(#rt::__private::serde::de::Error::custom),)
    });
    let unknown = format!("{name}: unknown {property} {{:?}}; expected one of {known:?}");
    let missing =
        format!("{name}: the discriminator property `{property}` is missing or not a string; expected one of {known:?}");
    quote! {
        match value.get(#property).and_then(#rt::__private::serde_json::Value::as_str) {
            #(#arms)*
            ::core::option::Option::Some(other) => ::core::result::Result::Err(
                #rt::__private::serde::de::Error::custom(::core::format_args!(#unknown, other)),
            ),
            ::core::option::Option::None => ::core::result::Result::Err(
                #rt::__private::serde::de::Error::custom(#missing),
            ),
        }
    }
}

fn untagged(rt: &TokenStream, ident: &Ident, variants: &[Variant]) -> TokenStream {
    let name = ident.to_string().trim_start_matches("r#").to_owned();
    let tries = variants.iter().map(|variant| {
        let decode = decode_member(rt, variant);
        let label = format!("; as {}: ", variant.ident);
        quote! {
            match #decode {
                ::core::result::Result::Ok(member) => return ::core::result::Result::Ok(member),
                ::core::result::Result::Err(error) => {
                    tried.push_str(#label);
                    tried.push_str(&::std::string::ToString::to_string(&error));
                }
            }
        }
    });
    let message = format!("{name}: the value matches no member{{}}");
    quote! {
        let mut tried = ::std::string::String::new();
        #(#tries)*
        ::core::result::Result::Err(#rt::__private::serde::de::Error::custom(
            ::core::format_args!(#message, tried),
        ))
    }
}

fn variants<'a>(
    model: &GatedModel,
    layout: &dyn Layout,
    name: &str,
    union: &'a UnionSchema,
) -> Vec<Variant<'a>> {
    let lifecycles = model.types[name].union.as_ref();
    let mut taken: Vec<String> = Vec::new();
    union
        .members
        .iter()
        .map(|member| {
            let mut name = variant_name(layout, member);
            if taken.contains(&name) {
                let mut counter = 2;
                while taken.contains(&format!("{name}{counter}")) {
                    counter += 1;
                }
                name = format!("{name}{counter}");
            }
            taken.push(name.clone());
            let boxed = matches!(member, Schema::Ref(_));
            let ty = layout.rust_type(member);
            let docs = lifecycles
                .and_then(|union| union.members.get(&member.type_expr()))
                .filter(|_| layout.docs())
                .map(|lifecycle| doc_attrs(None, lifecycle, &model.versions))
                .unwrap_or_default();
            let tags = match member {
                Schema::Ref(target) => union.tags_of(target).collect(),
                _ => Vec::new(),
            };
            Variant {
                ident: ident(&name),
                ty,
                boxed,
                tags,
                docs,
            }
        })
        .collect()
}

/// A member's variant name: a definition's type name, or the scalar's
/// (`String`, `Integer`), `…List` / `…Map` for lists and maps.
fn variant_name(layout: &dyn Layout, member: &Schema) -> String {
    match member {
        Schema::Ref(name) => layout
            .type_ident(name)
            .to_string()
            .trim_start_matches("r#")
            .to_owned(),
        Schema::Boolean => "Boolean".into(),
        Schema::Integer { .. } => "Integer".into(),
        Schema::Number { .. } => "Number".into(),
        Schema::String { .. } => "String".into(),
        Schema::IntOrString => "IntOrString".into(),
        Schema::Array(item) => format!("{}List", variant_name(layout, item)),
        Schema::Map(value) => format!("{}Map", variant_name(layout, value)),
        Schema::Object(_) | Schema::Union(_) | Schema::Any => "Value".into(),
    }
    .to_upper_camel_case()
}
