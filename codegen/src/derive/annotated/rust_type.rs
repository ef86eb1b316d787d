//! What a field's Rust type says in the model: its [`Schema`] (for the JSON
//! Schema and gates.json), whether it is optional, and which versioned types
//! it refers to.

use super::ctxt::Ctxt;
use crate::model::Schema;
use proc_macro2::TokenStream;
use quote::ToTokens;
use std::collections::BTreeSet;
use syn::{GenericArgument, PathArguments, Type};

/// A field's type, analysed.
#[derive(Clone, Debug)]
pub struct FieldType {
    pub schema: Schema,
    /// True for `Option<T>`: the field may be absent on the wire.
    pub optional: bool,
    /// The type without the outer `Option`.
    pub inner: TokenStream,
    /// Extra JSON Schema keywords (`minimum: 0` for unsigned integers).
    pub keywords: Vec<(String, String)>,
}

/// Analyses `ty`; `versioned` holds the names of the module's versioned types.
pub fn analyze(cx: &Ctxt, ty: &Type, versioned: &BTreeSet<String>) -> FieldType {
    let (optional, inner) = match generic(ty, &["Option"]).as_deref() {
        Some([inner]) => (true, *inner),
        _ => (false, ty),
    };
    let mut keywords = Vec::new();
    let schema = schema(inner, versioned, &mut keywords);
    let mentioned = mentions(ty, versioned);
    if !mentioned.is_empty() && schema.referenced().is_none() {
        cx.error_spanned_by(
            ty,
            "a versioned type can be held directly or inside Option, Vec, Box, BTreeMap or HashMap values only, so that it converts between minors",
        );
    }
    FieldType {
        schema,
        optional,
        inner: inner.to_token_stream(),
        keywords,
    }
}

/// The versioned types a type refers to, by name, with their tokens.
pub fn mentions<'t>(ty: &'t Type, versioned: &BTreeSet<String>) -> Vec<&'t syn::Ident> {
    struct Finder<'s, 't> {
        versioned: &'s BTreeSet<String>,
        found: Vec<&'t syn::Ident>,
    }
    impl<'t> syn::visit::Visit<'t> for Finder<'_, 't> {
        fn visit_path(&mut self, path: &'t syn::Path) {
            if let Some(ident) = path.get_ident() {
                if self.versioned.contains(&ident.to_string()) {
                    self.found.push(ident);
                }
            }
            syn::visit::visit_path(self, path);
        }
    }
    let mut finder = Finder {
        versioned,
        found: Vec::new(),
    };
    syn::visit::Visit::visit_type(&mut finder, ty);
    finder.found
}

fn schema(ty: &Type, versioned: &BTreeSet<String>, keywords: &mut Vec<(String, String)>) -> Schema {
    let recurse =
        |inner: &Type, keywords: &mut Vec<(String, String)>| schema(inner, versioned, keywords);
    if let Some([inner]) = generic(ty, &["Option", "Box"]).as_deref() {
        return recurse(inner, keywords);
    }
    if let Some([item]) = generic(ty, &["Vec"]).as_deref() {
        return Schema::Array(Box::new(recurse(item, &mut Vec::new())));
    }
    if let Some([_, value]) = generic(ty, &["BTreeMap", "HashMap"]).as_deref() {
        return Schema::Map(Box::new(recurse(value, &mut Vec::new())));
    }
    let Type::Path(path) = ty else {
        return Schema::Any;
    };
    if path.qself.is_none() {
        if let Some(ident) = path.path.get_ident() {
            if versioned.contains(&ident.to_string()) {
                return Schema::Ref(ident.to_string());
            }
        }
    }
    let Some(last) = path.path.segments.last() else {
        return Schema::Any;
    };
    let int = |format: &str| Schema::Integer {
        format: Some(format.to_owned()),
    };
    let name = last.ident.to_string();
    if name.starts_with('u') && matches!(name.as_str(), "u8" | "u16" | "u32" | "u64" | "usize") {
        keywords.push(("minimum".into(), "0".into()));
    }
    match name.as_str() {
        "String" | "str" | "char" => Schema::String { format: None },
        // `vergate::IntOrString`, the type the derive gives int-or-string.
        "IntOrString" => Schema::IntOrString,
        "bool" => Schema::Boolean,
        "i8" | "i16" | "i32" | "u8" | "u16" => int("int32"),
        "i64" | "u32" | "u64" | "isize" | "usize" => int("int64"),
        "f32" => Schema::Number {
            format: Some("float".into()),
        },
        "f64" => Schema::Number {
            format: Some("double".into()),
        },
        _ => Schema::Any,
    }
}

/// The generic arguments of `ty` when it is one of `names` (last segment).
fn generic<'t>(ty: &'t Type, names: &[&str]) -> Option<Vec<&'t Type>> {
    let Type::Path(path) = ty else {
        return None;
    };
    let last = path.path.segments.last()?;
    if !names.iter().any(|name| last.ident == name) {
        return None;
    }
    let PathArguments::AngleBracketed(args) = &last.arguments else {
        return None;
    };
    Some(
        args.args
            .iter()
            .filter_map(|arg| match arg {
                GenericArgument::Type(ty) => Some(ty),
                _ => None,
            })
            .collect(),
    )
}
