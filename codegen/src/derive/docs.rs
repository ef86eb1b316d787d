//! The attributes that document an item: `#[doc]` from its description
//! and a line on its gate, and `#[deprecated]`.

use crate::model::{Lifecycle, Stage};
use proc_macro2::TokenStream;
use quote::quote;
use vergate_core::Version;

pub(crate) fn deprecated_attr(lifecycle: &Lifecycle, version: Version) -> TokenStream {
    match lifecycle.deprecated_in {
        Some(since) if version >= since => {
            // `since` would have to be semver (clippy::deprecated_semver).
            let note = format!("deprecated since {since}");
            quote!(#[deprecated(note = #note)])
        }
        _ => TokenStream::new(),
    }
}

/// The description followed by a line on the gate, as `#[doc]` attributes.
pub(crate) fn doc_attrs(
    description: Option<&str>,
    lifecycle: &Lifecycle,
    corpus: &[Version],
) -> TokenStream {
    let mut text = description.unwrap_or_default().trim().to_owned();
    if let Some(note) = gate_note(lifecycle, corpus) {
        if !text.is_empty() {
            text.push_str("\n\n");
        }
        text.push_str(&note);
    }
    if text.is_empty() {
        return TokenStream::new();
    }
    text.lines()
        .map(|line| {
            let line = format!(" {line}");
            quote!(#[doc = #line])
        })
        .collect()
}

/// "Introduced in 1.30. Removed in 1.33. Deprecated since 1.31. Alpha in
/// 1.30, beta in 1.31 (feature gate `X`). See <url>.", each part only when
/// it says something.
pub(crate) fn gate_note(lifecycle: &Lifecycle, corpus: &[Version]) -> Option<String> {
    let mut parts = Vec::new();
    if let Some(first) = lifecycle.introduced_in() {
        if corpus.first().is_some_and(|oldest| first > *oldest) {
            parts.push(format!("Introduced in {first}."));
        }
    }
    if let Some(removed) = lifecycle.removed_in(corpus) {
        parts.push(format!("Removed in {removed}."));
    }
    if let Some(since) = lifecycle.deprecated_in {
        parts.push(format!("Deprecated since {since}."));
    }
    if !lifecycle.stage.is_empty() {
        let stages: Vec<String> = lifecycle
            .stage
            .iter()
            .map(|(since, stage)| format!("{} in {since}", stage_word(*stage)))
            .collect();
        let mut sentence = stages.join(", ");
        sentence[..1].make_ascii_uppercase();
        if let Some(gate) = &lifecycle.feature_gate {
            sentence.push_str(&format!(" (feature gate `{gate}`)"));
        }
        parts.push(format!("{sentence}."));
    } else if let Some(gate) = &lifecycle.feature_gate {
        parts.push(format!("Feature gate `{gate}`."));
    }
    if let Some(reference) = &lifecycle.reference {
        parts.push(format!("See <{reference}>."));
    }
    (!parts.is_empty()).then(|| parts.join(" "))
}

fn stage_word(stage: Stage) -> &'static str {
    match stage {
        Stage::Alpha => "alpha",
        Stage::Beta => "beta",
        Stage::Ga => "GA",
    }
}
