//! The module's arguments: the minors it spans ([`Minors`], a range or a
//! list) and the naming rule of wire names ([`RenameAll`]); and the version
//! literals every attribute names, checked against those minors.

use super::ctxt::Ctxt;
use super::symbol;
use proc_macro2::{Span, TokenStream};
use quote::ToTokens;
use syn::punctuated::Punctuated;
use syn::{Expr, ExprLit, Lit, LitStr, Meta, Token};
use vergate_core::Version;

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
pub fn declared_version(cx: &Ctxt, lit: &LitStr, minors: Option<&Minors>) -> Option<Version> {
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
