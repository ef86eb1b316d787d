//! Attribute parsing: the module's arguments ([`Minors`], the naming rule)
//! and the gate attributes of types, fields and variants ([`Gates`]). Each
//! mistake is recorded in the [`Ctxt`] under its own token; parsing goes on.

use super::ctxt::Ctxt;
use super::symbol::{self, Symbol, KEPT_ON_TYPES};
use crate::model::Stage;
use proc_macro2::{Span, TokenStream};
use quote::ToTokens;
use syn::punctuated::Punctuated;
use syn::{Attribute, Expr, ExprLit, Lit, LitStr, Meta, Token};
use vergate_core::Version;

/// A value and the token it was written at.
#[derive(Clone, Debug)]
pub struct At<T> {
    pub value: T,
    pub span: Span,
}

/// The minors a module declares, ascending.
#[derive(Clone, Debug)]
pub struct Minors {
    pub list: Vec<Version>,
    /// How the user wrote them, for messages (`1.28..=1.36`).
    pub written: String,
}

impl Minors {
    fn describe(&self) -> String {
        format!("this module declares minors {}", self.written)
    }
}

/// How field names become wire names (`rename_all`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RenameAll {
    Camel,
    Snake,
    Kebab,
    Pascal,
    ScreamingSnake,
}

impl RenameAll {
    const CHOICES: [(&'static str, RenameAll); 5] = [
        ("camelCase", RenameAll::Camel),
        ("snake_case", RenameAll::Snake),
        ("kebab-case", RenameAll::Kebab),
        ("PascalCase", RenameAll::Pascal),
        ("SCREAMING_SNAKE_CASE", RenameAll::ScreamingSnake),
    ];

    /// The wire name of a Rust field name.
    pub fn apply(self, name: &str) -> String {
        use heck::{
            ToKebabCase, ToLowerCamelCase, ToShoutySnakeCase, ToSnakeCase, ToUpperCamelCase,
        };
        match self {
            RenameAll::Camel => name.to_lower_camel_case(),
            RenameAll::Snake => name.to_snake_case(),
            RenameAll::Kebab => name.to_kebab_case(),
            RenameAll::Pascal => name.to_upper_camel_case(),
            RenameAll::ScreamingSnake => name.to_shouty_snake_case(),
        }
    }
}

/// The module's arguments.
#[derive(Clone, Debug)]
pub struct Args {
    /// `None` when missing or broken (already reported).
    pub minors: Option<Minors>,
    pub rename_all: RenameAll,
}

/// Parses `minors = …, rename_all = …`.
pub fn parse_args(cx: &Ctxt, args: TokenStream) -> Args {
    let mut out = Args {
        minors: None,
        rename_all: RenameAll::Camel,
    };
    let metas = match syn::parse::Parser::parse2(
        Punctuated::<Meta, Token![,]>::parse_terminated,
        args.clone(),
    ) {
        Ok(metas) => metas,
        Err(err) => {
            cx.syn_error(err);
            return out;
        }
    };
    let mut seen_minors = false;
    let mut seen_rename_all = false;
    for meta in &metas {
        let path = meta.path();
        if *path == symbol::MINORS {
            if std::mem::replace(&mut seen_minors, true) {
                cx.error_spanned_by(path, "duplicate `minors` argument");
                continue;
            }
            out.minors = parse_minors(cx, meta);
        } else if *path == symbol::RENAME_ALL {
            if std::mem::replace(&mut seen_rename_all, true) {
                cx.error_spanned_by(path, "duplicate `rename_all` argument");
                continue;
            }
            if let Some(lit) = name_value_str(cx, meta) {
                match RenameAll::CHOICES
                    .iter()
                    .find(|(name, _)| lit.value() == *name)
                {
                    Some((_, rule)) => out.rename_all = *rule,
                    None => cx.error_spanned_by(
                        &lit,
                        format!(
                            "unknown naming rule {:?}; expected one of {}",
                            lit.value(),
                            RenameAll::CHOICES.map(|(name, _)| name).join(", ")
                        ),
                    ),
                }
            }
        } else {
            cx.error_spanned_by(
                path,
                format!(
                    "unknown `versioned` argument `{}`; expected `minors` or `rename_all`",
                    path.to_token_stream()
                ),
            );
        }
    }
    if !seen_minors && !cx.has_errors() {
        cx.error_at(
            Span::call_site(),
            r#"missing `minors`: write `#[vergate::versioned(minors = "1.28..=1.36")]` or `minors = ["1.28", "1.30"]`"#,
        );
    }
    out
}

fn parse_minors(cx: &Ctxt, meta: &Meta) -> Option<Minors> {
    let Meta::NameValue(name_value) = meta else {
        cx.error_spanned_by(
            meta,
            r#"expected `minors = "1.28..=1.36"` or `minors = ["1.28", "1.30"]`"#,
        );
        return None;
    };
    match &name_value.value {
        Expr::Lit(ExprLit {
            lit: Lit::Str(lit), ..
        }) => parse_range(cx, lit),
        Expr::Array(array) => {
            let mut list = Vec::new();
            let mut ok = true;
            for element in &array.elems {
                match element {
                    Expr::Lit(ExprLit {
                        lit: Lit::Str(lit), ..
                    }) => match version(cx, lit) {
                        Some(version) if list.contains(&version) => {
                            cx.error_spanned_by(lit, format!("minor {version} is listed twice"));
                            ok = false;
                        }
                        Some(version) => list.push(version),
                        None => ok = false,
                    },
                    other => {
                        cx.error_spanned_by(other, r#"expected a version string such as "1.30""#);
                        ok = false;
                    }
                }
            }
            if list.is_empty() && ok {
                cx.error_spanned_by(array, "`minors` lists no minor");
                return None;
            }
            list.sort();
            let written = list
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", ");
            ok.then_some(Minors { list, written })
        }
        other => {
            cx.error_spanned_by(
                other,
                r#"expected `minors = "1.28..=1.36"` or `minors = ["1.28", "1.30"]`"#,
            );
            None
        }
    }
}

/// `"1.28..=1.36"`: every minor of one major between the two, inclusive.
fn parse_range(cx: &Ctxt, lit: &LitStr) -> Option<Minors> {
    let text = lit.value();
    let Some((start, end)) = text.split_once("..=") else {
        cx.error_spanned_by(
            lit,
            format!(r#"invalid minor range {text:?}; expected an inclusive range such as "1.28..=1.36" (or a list: ["1.28", "1.30"])"#),
        );
        return None;
    };
    let parse = |part: &str| match part.trim().parse::<Version>() {
        Ok(version) => Some(version),
        Err(err) => {
            cx.error_spanned_by(lit, err);
            None
        }
    };
    let (start, end) = (parse(start)?, parse(end)?);
    if start.major() != end.major() {
        cx.error_spanned_by(
            lit,
            format!("the range {text:?} spans two majors; list the minors instead"),
        );
        return None;
    }
    if start > end {
        cx.error_spanned_by(
            lit,
            format!("the range {text:?} is empty: {start} is after {end}"),
        );
        return None;
    }
    let list = (start.minor()..=end.minor())
        .map(|minor| Version::new(start.major(), minor))
        .collect();
    Some(Minors {
        list,
        written: format!("{start}..={end}"),
    })
}

fn name_value_str(cx: &Ctxt, meta: &Meta) -> Option<LitStr> {
    match meta {
        Meta::NameValue(syn::MetaNameValue {
            value: Expr::Lit(ExprLit {
                lit: Lit::Str(lit), ..
            }),
            ..
        }) => Some(lit.clone()),
        _ => {
            cx.error_spanned_by(
                meta,
                format!("expected `{} = \"...\"`", meta.path().to_token_stream()),
            );
            None
        }
    }
}

/// Parses a version literal, reporting an unparsable one at the literal.
fn version(cx: &Ctxt, lit: &LitStr) -> Option<Version> {
    match lit.value().parse::<Version>() {
        Ok(version) => Some(version),
        Err(err) => {
            cx.error_spanned_by(lit, err);
            None
        }
    }
}

/// Parses a version literal that must name one of `minors`.
fn declared_version(cx: &Ctxt, lit: &LitStr, minors: Option<&Minors>) -> Option<Version> {
    let version = version(cx, lit)?;
    let Some(minors) = minors else {
        return Some(version);
    };
    let (first, last) = (minors.list[0], minors.list[minors.list.len() - 1]);
    if version < first || version > last {
        cx.error_spanned_by(
            lit,
            format!(
                "{version} is outside this module's minors ({})",
                minors.written
            ),
        );
        None
    } else if !minors.list.contains(&version) {
        cx.error_spanned_by(
            lit,
            format!("{version} names no declared minor; {}", minors.describe()),
        );
        None
    } else {
        Some(version)
    }
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
        gates.stage_span = Some(attr.path().span_of());
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

/// The span of a path, for attributes.
trait SpanOf {
    fn span_of(&self) -> Span;
}

impl SpanOf for syn::Path {
    fn span_of(&self) -> Span {
        syn::spanned::Spanned::span(self)
    }
}
