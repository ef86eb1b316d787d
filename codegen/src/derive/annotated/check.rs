//! Checks that look at more than one attribute: gates against each other,
//! fields against their type, references against the referenced type's
//! presence. Every failure is reported under the token that causes it.

use super::args::Minors;
use super::ast::{Body, Module, TypeDef};
use super::attr::Gates;
use super::ctxt::Ctxt;
use super::rust_type;
use crate::model::Stage;
use std::collections::{BTreeMap, BTreeSet};
use vergate_core::{Version, VersionSet};

/// The minors in which something gated by `gates` is present, within `within`.
pub fn presence(gates: &Gates, within: &VersionSet) -> VersionSet {
    within
        .iter()
        .filter(|v| gates.introduced_in.as_ref().is_none_or(|i| *v >= i.value))
        .filter(|v| gates.removed_in.as_ref().is_none_or(|r| *v < r.value))
        .collect()
}

/// Runs every check of the module.
pub fn check(cx: &Ctxt, module: &Module, minors: &Minors) {
    let all: VersionSet = minors.list.iter().copied().collect();
    let type_presence: BTreeMap<String, VersionSet> = module
        .types
        .iter()
        .map(|ty| (ty.ident.to_string(), presence(&ty.gates, &all)))
        .collect();
    let names: BTreeSet<String> = type_presence.keys().cloned().collect();
    for ty in &module.types {
        let name = ty.ident.to_string();
        let within = &type_presence[&name];
        gates(cx, &ty.gates, &format!("`{name}`"), &all, None);
        no_serde_derive(cx, ty);
        match &ty.body {
            Body::Struct(fields) => {
                let mut wires: BTreeMap<String, &syn::Ident> = BTreeMap::new();
                for field in fields {
                    let what = format!("`{name}.{}`", field.ident);
                    gates(cx, &field.gates, &what, within, Some(&name));
                    let present = presence(&field.gates, within);
                    for wire in wire_names(field) {
                        if let Some(other) = wires.insert(wire.clone(), field.ident) {
                            cx.error_spanned_by(
                                field.ident,
                                format!("wire name {wire:?} is used by `{other}` too"),
                            );
                        }
                    }
                    if !field.analyzed.optional {
                        if let (Some(first_field), Some(first_type)) =
                            (present.first(), within.first())
                        {
                            if first_field > first_type {
                                cx.error_spanned_by(
                                    field.ty,
                                    format!(
                                        "{what} is required but arrives in {first_field}, after `{name}` exists ({first_type}): a `{name}` of {first_type} could not be converted to {first_field}; make it `Option<...>`"
                                    ),
                                );
                            }
                        }
                    }
                    for mentioned in rust_type::mentions(field.ty, &names) {
                        let target = &type_presence[&mentioned.to_string()];
                        let missing: Vec<String> = present
                            .iter()
                            .filter(|v| !target.contains(*v))
                            .map(|v| v.to_string())
                            .collect();
                        if !missing.is_empty() {
                            cx.error_spanned_by(
                                mentioned,
                                format!(
                                    "`{mentioned}` is not present in {}, where {what} is; gate the field to the minors `{mentioned}` has",
                                    missing.join(", ")
                                ),
                            );
                        }
                    }
                }
            }
            Body::Enum(variants) => {
                for variant in variants {
                    let what = format!("`{name}::{}`", variant.ident);
                    gates(cx, &variant.gates, &what, within, Some(&name));
                }
                let empty: Vec<String> = within
                    .iter()
                    .filter(|v| {
                        !variants
                            .iter()
                            .any(|variant| presence(&variant.gates, within).contains(*v))
                    })
                    .map(|v| v.to_string())
                    .collect();
                if !empty.is_empty() && !variants.is_empty() {
                    cx.error_spanned_by(
                        ty.ident,
                        format!(
                            "`{name}` has no value in {}; gate the enum itself instead",
                            empty.join(", ")
                        ),
                    );
                }
                if variants.is_empty() {
                    cx.error_spanned_by(ty.ident, format!("`{name}` has no values"));
                }
            }
        }
    }
}

/// The wire names a field has over its life.
fn wire_names(field: &super::ast::Field) -> Vec<String> {
    let mut names = vec![field.wire.clone()];
    if let Some(renamed) = &field.gates.renamed {
        names.push(renamed.from.clone());
    }
    names
}

/// Checks one item's gates against each other and against its parent's
/// presence (`within`; the module's minors for a type).
fn gates(cx: &Ctxt, gates: &Gates, what: &str, within: &VersionSet, parent: Option<&str>) {
    let (Some(first), Some(last)) = (within.first(), within.last()) else {
        return;
    };
    let begins = match parent {
        Some(parent) => format!("`{parent}` begins"),
        None => "the module's minors begin".to_owned(),
    };
    if let Some(introduced) = &gates.introduced_in {
        if introduced.value < first {
            cx.error_at(
                introduced.span,
                format!(
                    "{what} cannot be introduced in {}: {begins} in {first}",
                    introduced.value
                ),
            );
        }
    }
    if let Some(removed) = &gates.removed_in {
        if let Some(introduced) = &gates.introduced_in {
            if removed.value <= introduced.value {
                cx.error_at(
                    removed.span,
                    format!(
                        "`removed_in` ({}) must be after `introduced_in` ({}) for {what}",
                        removed.value, introduced.value
                    ),
                );
            }
        } else if removed.value <= first {
            cx.error_at(
                removed.span,
                format!("{what} cannot be removed in {}: {begins} in {first}, so it would never be present", removed.value),
            );
        }
        if let (true, Some(parent)) = (removed.value > last, parent) {
            cx.error_at(
                removed.span,
                format!(
                    "{what} cannot be removed in {}: `{parent}` itself is gone after {last}",
                    removed.value
                ),
            );
        }
    }
    let present = presence(gates, within);
    let (Some(present_first), Some(present_last)) = (present.first(), present.last()) else {
        return;
    };
    let outside = |version: Version| version < present_first || version > present_last;
    if let Some(deprecated) = &gates.deprecated_in {
        if outside(deprecated.value) {
            cx.error_at(
                deprecated.span,
                format!(
                    "`deprecated_in` ({}) has no meaning: {what} is present only in {present_first}..={present_last}",
                    deprecated.value
                ),
            );
        }
    }
    if let Some(span) = gates.stage_span {
        if let Some((version, _)) = gates.stage.iter().find(|(version, _)| outside(*version)) {
            cx.error_at(
                span,
                format!("a stage in {version} has no meaning: {what} is present only in {present_first}..={present_last}"),
            );
        }
    }
    if let Some(feature_gate) = &gates.feature_gate {
        let guarded = gates.stage.iter().any(|(_, stage)| *stage != Stage::Ga);
        if !guarded {
            cx.error_at(
                feature_gate.span,
                format!(
                    "feature gate {:?} has no meaning: {what} is never alpha or beta; add `#[stage(alpha = \"...\")]` or remove the feature gate",
                    feature_gate.value
                ),
            );
        }
    }
    if let Some(renamed) = &gates.renamed {
        if renamed.in_version.value <= present_first || renamed.in_version.value > present_last {
            cx.error_at(
                renamed.in_version.span,
                format!(
                    "a rename in {} has no meaning: {what} is present in {present_first}..={present_last}, so it must be renamed after {present_first}",
                    renamed.in_version.value
                ),
            );
        }
    }
}

fn no_serde_derive(cx: &Ctxt, ty: &TypeDef) {
    for attr in &ty.gates.kept {
        if !attr.path().is_ident("derive") {
            continue;
        }
        let Ok(paths) = attr.parse_args_with(
            syn::punctuated::Punctuated::<syn::Path, syn::Token![,]>::parse_terminated,
        ) else {
            continue;
        };
        for path in paths {
            let last = path.segments.last().map(|s| s.ident.to_string());
            if matches!(last.as_deref(), Some("Serialize" | "Deserialize")) {
                cx.error_spanned_by(
                    &path,
                    "vergate derives Serialize and Deserialize for every minor itself; remove this derive",
                );
            }
        }
    }
}
