//! The gate attributes of types, fields and variants ([`Gates`]). Each
//! mistake is recorded in the [`Ctxt`] under its own token; parsing goes on.

use super::args::{declared_version, Minors};
use super::ctxt::Ctxt;
use super::symbol::{self, Symbol, KEPT_ON_TYPES};
use crate::model::Stage;
use proc_macro2::Span;
use quote::ToTokens;
use syn::{Attribute, Expr, ExprLit, Lit, LitStr, Meta};
use vergate_core::Version;

/// A value and the token it was written at.
#[derive(Clone, Debug)]
pub struct At<T> {
    pub value: T,
    pub span: Span,
}

/// Where attributes are written: what they may say depends on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    Type,
    Field,
    Variant,
}

/// The rename of a field across minors.
#[derive(Clone, Debug)]
pub struct Renamed {
    pub from: String,
    pub in_version: At<Version>,
}

/// Everything the attributes of one type, field or variant say.
#[derive(Clone, Debug, Default)]
pub struct Gates {
    pub introduced_in: Option<At<Version>>,
    pub removed_in: Option<At<Version>>,
    pub deprecated_in: Option<At<Version>>,
    /// Stages by the minor they start in; the span is the `stage` attribute's.
    pub stage: Vec<(Version, Stage)>,
    pub stage_span: Option<Span>,
    pub feature_gate: Option<At<String>>,
    pub reference: Option<At<String>>,
    pub renamed: Option<Renamed>,
    pub rename: Option<At<String>>,
    /// The doc comment, joined.
    pub docs: Option<String>,
    /// Attributes kept as written (derives, lint levels).
    pub kept: Vec<Attribute>,
}

/// Parses the attributes of a type, field or variant.
pub fn parse_gates(cx: &Ctxt, attrs: &[Attribute], minors: Option<&Minors>, place: Place) -> Gates {
    let mut gates = Gates::default();
    let mut docs: Vec<String> = Vec::new();
    for attr in attrs {
        let path = attr.path();
        if path.is_ident("doc") {
            if let Meta::NameValue(syn::MetaNameValue {
                value:
                    Expr::Lit(ExprLit {
                        lit: Lit::Str(lit), ..
                    }),
                ..
            }) = &attr.meta
            {
                let line = lit.value();
                docs.push(line.strip_prefix(' ').unwrap_or(&line).to_owned());
            }
            if place == Place::Type {
                gates.kept.push(attr.clone());
            }
            continue;
        }
        let Some(symbol) = Symbol::of(path) else {
            let kept = place == Place::Type && KEPT_ON_TYPES.iter().any(|name| path.is_ident(name));
            if kept {
                gates.kept.push(attr.clone());
            } else {
                cx.error_spanned_by(path, unknown_message(path, place));
            }
            continue;
        };
        if !allowed(symbol, place) {
            cx.error_spanned_by(
                path,
                format!("`{symbol}` has no meaning on a {}", place_name(place)),
            );
            continue;
        }
        parse_one(cx, attr, symbol, minors, &mut gates);
    }
    if !docs.is_empty() {
        gates.docs = Some(docs.join("\n"));
    }
    gates
}

fn parse_one(
    cx: &Ctxt,
    attr: &Attribute,
    symbol: Symbol,
    minors: Option<&Minors>,
    gates: &mut Gates,
) {
    let duplicate = || cx.error_spanned_by(attr.path(), format!("duplicate `{symbol}` attribute"));
    let lit = || match attr.parse_args::<LitStr>() {
        Ok(lit) => Some(lit),
        Err(_) => {
            cx.error_spanned_by(attr, format!("expected `#[{symbol}(\"...\")]`"));
            None
        }
    };
    let version_slot = match symbol {
        symbol::INTRODUCED_IN => Some(&mut gates.introduced_in),
        symbol::REMOVED_IN => Some(&mut gates.removed_in),
        symbol::DEPRECATED_IN => Some(&mut gates.deprecated_in),
        _ => None,
    };
    if let Some(slot) = version_slot {
        if slot.is_some() {
            return duplicate();
        }
        if let Some(lit) = lit() {
            if let Some(version) = declared_version(cx, &lit, minors) {
                *slot = Some(At {
                    value: version,
                    span: lit.span(),
                });
            }
        }
        return;
    }
    let text_slot = match symbol {
        symbol::FEATURE_GATE => Some(&mut gates.feature_gate),
        symbol::REFERENCE => Some(&mut gates.reference),
        symbol::RENAME => Some(&mut gates.rename),
        _ => None,
    };
    if let Some(slot) = text_slot {
        if slot.is_some() {
            return duplicate();
        }
        if let Some(lit) = lit() {
            if lit.value().is_empty() {
                cx.error_spanned_by(&lit, format!("`{symbol}` is empty"));
            } else {
                *slot = Some(At {
                    value: lit.value(),
                    span: lit.span(),
                });
            }
        }
        return;
    }
    if symbol == symbol::STAGE {
        if gates.stage_span.is_some() {
            return duplicate();
        }
        gates.stage_span = Some(syn::spanned::Spanned::span(attr.path()));
        parse_stage(cx, attr, minors, gates);
    } else if symbol == symbol::RENAMED {
        if gates.renamed.is_some() {
            return duplicate();
        }
        gates.renamed = parse_renamed(cx, attr, minors);
    }
}

fn parse_stage(cx: &Ctxt, attr: &Attribute, minors: Option<&Minors>, gates: &mut Gates) {
    let mut last: Option<(Version, Stage)> = None;
    let result = attr.parse_nested_meta(|meta| {
        let stage = if meta.path == symbol::ALPHA {
            Stage::Alpha
        } else if meta.path == symbol::BETA {
            Stage::Beta
        } else if meta.path == symbol::GA {
            Stage::Ga
        } else {
            return Err(meta.error("unknown stage; expected `alpha`, `beta` or `ga`"));
        };
        let lit: LitStr = meta.value()?.parse()?;
        let Some(version) = declared_version(cx, &lit, minors) else {
            return Ok(());
        };
        if gates.stage.iter().any(|(_, seen)| *seen == stage) {
            cx.error_spanned_by(&meta.path, "this stage is given twice");
        } else if let Some((before, previous)) = last.filter(|(before, previous)| *before >= version || *previous >= stage) {
            cx.error_spanned_by(
                &lit,
                format!("stages go alpha → beta → ga in ascending minors, but {stage:?} in {version} follows {previous:?} in {before}"),
            );
        } else {
            gates.stage.push((version, stage));
            last = Some((version, stage));
        }
        Ok(())
    });
    if let Err(err) = result {
        cx.syn_error(err);
    }
}

fn parse_renamed(cx: &Ctxt, attr: &Attribute, minors: Option<&Minors>) -> Option<Renamed> {
    let mut from = None;
    let mut in_version = None;
    let mut broken = false;
    let result = attr.parse_nested_meta(|meta| {
        if meta.path == symbol::FROM {
            let lit: LitStr = meta.value()?.parse()?;
            from = Some(lit.value());
        } else if meta.path == symbol::IN {
            let lit: LitStr = meta.value()?.parse()?;
            match declared_version(cx, &lit, minors) {
                Some(version) => {
                    in_version = Some(At {
                        value: version,
                        span: lit.span(),
                    })
                }
                None => broken = true,
            }
        } else {
            return Err(
                meta.error(r#"unknown key; expected `#[renamed(from = "oldName", in = "1.31")]`"#)
            );
        }
        Ok(())
    });
    if let Err(err) = result {
        cx.syn_error(err);
        return None;
    }
    match (from, in_version) {
        (Some(from), Some(in_version)) => Some(Renamed { from, in_version }),
        _ if broken => None,
        _ => {
            cx.error_spanned_by(
                attr,
                r#"expected `#[renamed(from = "oldName", in = "1.31")]`"#,
            );
            None
        }
    }
}

fn allowed(symbol: Symbol, place: Place) -> bool {
    match place {
        Place::Type => symbol::GATES.contains(&symbol),
        Place::Field => true,
        Place::Variant => symbol != symbol::RENAMED,
    }
}

fn place_name(place: Place) -> &'static str {
    match place {
        Place::Type => "type (it applies to fields)",
        Place::Field => "field",
        Place::Variant => "enum variant (enum values are not renamed across minors)",
    }
}

fn unknown_message(path: &syn::Path, place: Place) -> String {
    let name = path.to_token_stream().to_string().replace(' ', "");
    let hint = match name.as_str() {
        "deprecated" => "; write `#[deprecated_in(\"1.31\")]` and vergate adds `#[deprecated]` in those minors".to_owned(),
        "serde" => "; vergate writes the serde attributes itself: use `#[rename(\"wireName\")]` for a wire name".to_owned(),
        _ if place == Place::Type => format!(
            "; expected one of {}, or one kept as written ({})",
            symbol::list(&symbol::GATES),
            KEPT_ON_TYPES.join(", ")
        ),
        _ => format!("; expected one of {}", symbol::list(&symbol::ALL)),
    };
    format!(
        "unknown vergate attribute `{name}` on a {}{hint}",
        match place {
            Place::Type => "versioned type",
            Place::Field => "field",
            Place::Variant => "variant",
        }
    )
}
