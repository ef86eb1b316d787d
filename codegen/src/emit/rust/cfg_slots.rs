//! Formatting a part with its `#[cfg(…)]` attributes set aside, so that the
//! render cache serves a part whose only change is the minors its shapes
//! are gated on (adding a minor adds its feature to most shapes' `cfg`).
//!
//! [`slotted`] replaces every outer `#[cfg(…)]` by a numbered slot,
//! `#[cfg(__vgslot_N)]`; the slotted tokens are what is keyed, parsed and
//! formatted. [`Splicer::splice`] then puts each attribute back as
//! prettyplease prints it on a line of its own at that line's indentation
//! (rendered once per attribute and depth, from a file holding only it).
//!
//! Why that is prettyplease's own output: a non-doc attribute is printed
//! as `#[…]` followed by a breakable space, and an item's or field's
//! attributes sit in its block's box, which holds hard breaks and so is
//! broken: each attribute is then a line (or lines) of its own, whose
//! breaks depend only on its text and the indentation it starts at. Where
//! that does not hold (a slot printed inside a line, a slot missing or
//! repeated, an indentation not a multiple of four), [`Splicer::splice`]
//! returns `None` and the caller formats the original tokens. The tests
//! below and, for the whole Kubernetes crate, `xtask/bench/regen_identity.sh`
//! (cold output against main's, made without slots) compare the two.

use proc_macro2::{Delimiter, Group, Ident, Punct, Spacing, Span, TokenStream, TokenTree};
use quote::quote;
use std::collections::HashMap;
use std::sync::Mutex;

/// The slot identifiers' prefix: no Rust output of the emitter uses it.
const SLOT: &str = "__vgslot_";

/// The `(…)` group of every outer `#[cfg(…)]` of `tokens`, at any depth,
/// in order (slot N is the Nth); `None` when the tokens already use the
/// slot prefix (then they are formatted whole).
pub fn attrs(tokens: &TokenStream) -> Option<Vec<Group>> {
    fn collect(tokens: &TokenStream, attrs: &mut Vec<Group>) -> Option<()> {
        let mut iter = tokens.clone().into_iter().peekable();
        while let Some(token) = iter.next() {
            match token {
                TokenTree::Punct(pound) if pound.as_char() == '#' => {
                    if let Some(TokenTree::Group(bracket)) = iter.peek() {
                        if let Some(args) = cfg_args(bracket) {
                            attrs.push(args);
                            iter.next();
                        }
                    }
                }
                TokenTree::Group(group) => collect(&group.stream(), attrs)?,
                TokenTree::Ident(ident) if ident.to_string().starts_with(SLOT) => return None,
                _ => {}
            }
        }
        Some(())
    }
    let mut attrs = Vec::new();
    collect(tokens, &mut attrs)?;
    Some(attrs)
}

/// `tokens` with each outer `#[cfg(…)]` replaced by `#[cfg(__vgslot_N)]`,
/// N counting from 0 in order.
pub fn slotted(tokens: &TokenStream) -> TokenStream {
    fn walk(tokens: &TokenStream, next: &mut usize) -> TokenStream {
        let mut out = Vec::new();
        let mut iter = tokens.clone().into_iter().peekable();
        while let Some(token) = iter.next() {
            match token {
                TokenTree::Punct(pound) if pound.as_char() == '#' => {
                    let cfg = matches!(iter.peek(), Some(TokenTree::Group(bracket)) if is_cfg(bracket));
                    out.push(TokenTree::Punct(pound));
                    if cfg {
                        iter.next();
                        let slot = Ident::new(&format!("{SLOT}{next}"), Span::call_site());
                        *next += 1;
                        out.push(TokenTree::Group(Group::new(
                            Delimiter::Bracket,
                            quote!(cfg(#slot)),
                        )));
                    }
                }
                TokenTree::Group(group) => {
                    let stream = walk(&group.stream(), next);
                    out.push(TokenTree::Group(Group::new(group.delimiter(), stream)));
                }
                other => out.push(other),
            }
        }
        out.into_iter().collect()
    }
    walk(tokens, &mut 0)
}

/// Whether `bracket` is the `[cfg(…)]` of an attribute.
pub fn is_cfg(bracket: &Group) -> bool {
    cfg_args(bracket).is_some()
}

/// The `(…)` of a `[cfg(…)]` group: exactly `cfg` and one parenthesised
/// group, nothing after.
fn cfg_args(bracket: &Group) -> Option<Group> {
    if bracket.delimiter() != Delimiter::Bracket {
        return None;
    }
    let mut inner = bracket.stream().into_iter();
    match (inner.next(), inner.next(), inner.next()) {
        (Some(TokenTree::Ident(cfg)), Some(TokenTree::Group(args)), None)
            if cfg == "cfg" && args.delimiter() == Delimiter::Parenthesis =>
        {
            Some(args)
        }
        _ => None,
    }
}

/// Puts the attributes back into formatted parts; remembers each
/// attribute's text per depth (shared by the parts' threads).
#[derive(Default)]
pub struct Splicer {
    rendered: Mutex<HashMap<(usize, String), Option<String>>>,
}

impl Splicer {
    /// `formatted` (the slotted tokens as prettyplease prints them) with
    /// each slot line replaced by its attribute as prettyplease prints it
    /// there; `None` when a slot is not a line of its own or not found
    /// exactly once.
    pub fn splice(&self, formatted: &str, attrs: &[Group]) -> Option<String> {
        if formatted.matches(SLOT).count() != attrs.len() {
            return None;
        }
        let mut seen = vec![false; attrs.len()];
        let mut out = String::with_capacity(formatted.len() + attrs.len() * 64);
        for line in formatted.split_inclusive('\n') {
            let body = line.strip_suffix('\n').unwrap_or(line);
            let trimmed = body.trim_start_matches(' ');
            let Some(slot) = trimmed
                .strip_prefix("#[cfg(")
                .and_then(|rest| rest.strip_prefix(SLOT))
                .and_then(|rest| rest.strip_suffix(")]"))
            else {
                out.push_str(line);
                continue;
            };
            let index: usize = slot.parse().ok()?;
            let indent = body.len() - trimmed.len();
            if !line.ends_with('\n') || indent % 4 != 0 || std::mem::replace(seen.get_mut(index)?, true)
            {
                return None;
            }
            out.push_str(&self.attr_text(indent / 4, attrs.get(index)?)?);
        }
        seen.iter().all(|seen| *seen).then_some(out)
    }

    /// `#[cfg…]` as prettyplease prints it as the first line of an item
    /// `depth` modules deep, with its line ends.
    fn attr_text(&self, depth: usize, args: &Group) -> Option<String> {
        let key = (depth, args.to_string());
        if let Some(text) = self.rendered.lock().expect("the splicer lock").get(&key) {
            return text.clone();
        }
        let text = render_attr(depth, args);
        self.rendered
            .lock()
            .expect("the splicer lock")
            .insert(key, text.clone());
        text
    }
}

/// Formats `#[cfg ARGS] struct __VgSlotted;` inside `depth` nested modules
/// and returns the attribute's lines (those before the struct's).
fn render_attr(depth: usize, args: &Group) -> Option<String> {
    let mut tokens = TokenStream::from_iter([
        TokenTree::Punct(Punct::new('#', Spacing::Alone)),
        TokenTree::Group(Group::new(Delimiter::Bracket, quote!(cfg #args))),
    ]);
    tokens.extend(quote!(struct __VgSlotted;));
    for _ in 0..depth {
        tokens = quote!(mod m { #tokens });
    }
    let file: syn::File = syn::parse2(tokens).ok()?;
    let text = prettyplease::unparse(&file);
    let indent = " ".repeat(depth * 4);
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let start = lines
        .iter()
        .position(|line| line.trim_start().starts_with("#[cfg"))?;
    let end = lines
        .iter()
        .position(|line| line.strip_suffix('\n') == Some(&format!("{indent}struct __VgSlotted;")))?;
    let first = lines[start].strip_prefix(indent.as_str())?;
    (start < end && first.starts_with('#')).then(|| lines[start..end].concat())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn format(tokens: TokenStream) -> String {
        prettyplease::unparse(&syn::parse2(tokens).unwrap())
    }

    fn spliced(tokens: &TokenStream) -> Option<String> {
        let attrs = attrs(tokens).unwrap();
        Splicer::default().splice(&format(slotted(tokens)), &attrs)
    }

    #[test]
    fn spliced_is_formatted() {
        let long: Vec<String> = (28..=37).map(|minor| format!("v1_{minor}")).collect();
        let tokens = quote! {
            #[cfg(feature = "v1_36")]
            pub struct A;
            pub mod b {
                pub mod c {
                    /// Doc.
                    #[cfg(any(#(feature = #long),*))]
                    #[derive(Clone)]
                    pub struct D {
                        #[cfg(feature = "kube")]
                        pub e: u8,
                    }
                    #[cfg(all(feature = "conversions", any(all(feature = "v1_35", feature = "v1_36"))))]
                    const _: () = {
                        #[cfg(any(#(feature = #long),*))]
                        impl D {}
                    };
                }
            }
        };
        assert_eq!(spliced(&tokens).as_deref(), Some(format(tokens).as_str()));
    }

    #[test]
    fn a_slot_inside_a_line_is_refused() {
        // A parameter's attribute is printed inline: no splice.
        let tokens = quote!(
            fn f(#[cfg(feature = "a")] x: u8) {}
        );
        assert_eq!(spliced(&tokens), None);
    }

    #[test]
    fn tokens_using_the_prefix_are_not_slotted() {
        assert!(attrs(&quote!(struct __vgslot_0;)).is_none());
        assert_eq!(attrs(&quote!(#[cfg(x)] struct A;)).unwrap().len(), 1);
    }
}
