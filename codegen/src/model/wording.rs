//! vergate's sentences about a lifecycle, relative to one minor: why an item
//! is not in it ("introduced in 1.30 (alpha, feature gate
//! ServiceTrafficDistribution)", "removed in 1.31") and the one-line history
//! of an item that is ("Introduced in 1.30 (alpha, feature gate …) · beta
//! 1.31 · GA 1.33"). Every output that explains a minor to its user (the
//! Pkl package's failing properties, the JSON Schema's editor keywords)
//! words it here, so they say the same thing.

use super::{FieldLifecycle, Lifecycle, Stage};
use std::collections::BTreeMap;
use vergate_core::Version;

/// Why an item of `lifecycle` is not in `version`: the next minor that has
/// it ("introduced in 1.30 (alpha, feature gate X)", with its stage and
/// feature gate there), else the minor after its last presence ("removed
/// in 1.31").
pub fn absence(lifecycle: &Lifecycle, version: Version, corpus: &[Version]) -> String {
    if let Some(first) = lifecycle.presence.iter().find(|minor| *minor > version) {
        return format!("introduced in {first}{}", notes(lifecycle, first));
    }
    let last = lifecycle.presence.iter().rfind(|minor| *minor < version);
    let removed = last.and_then(|last| corpus.iter().copied().find(|minor| *minor > last));
    removed.map_or_else(
        || "not in any minor".to_owned(),
        |minor| format!("removed in {minor}"),
    )
}

/// "`name` is not available in `version`; `absence`", the error a minor
/// gives for an item of another minor.
pub fn not_available(
    name: &str,
    lifecycle: &Lifecycle,
    version: Version,
    corpus: &[Version],
) -> String {
    format!(
        "{name} is not available in {version}; {}",
        absence(lifecycle, version, corpus)
    )
}

/// ` (alpha, feature gate X)`: the stage in `minor` and the feature gate,
/// or nothing when neither is known.
fn notes(lifecycle: &Lifecycle, minor: Version) -> String {
    let mut notes = Vec::new();
    if let Some(stage) = lifecycle.stage_in(minor) {
        notes.push(stage.name().to_owned());
    }
    if let Some(gate) = &lifecycle.feature_gate {
        notes.push(format!("feature gate {gate}"));
    }
    if notes.is_empty() {
        String::new()
    } else {
        format!(" ({})", notes.join(", "))
    }
}

/// A stage as a history line names it.
fn stage_word(stage: Stage) -> &'static str {
    match stage {
        Stage::Alpha => "alpha",
        Stage::Beta => "beta",
        Stage::Ga => "GA",
    }
}

/// A minor as the earliest the corpus can tell: "1.28 or earlier" for its
/// first minor, which may not be where the item starts.
fn since(minor: Version, corpus: &[Version]) -> String {
    if corpus.first() == Some(&minor) {
        format!("{minor} or earlier")
    } else {
        minor.to_string()
    }
}

/// "Deprecated since 1.31" (or "since 1.28 or earlier"), when `lifecycle`
/// is deprecated in `version`.
pub fn deprecated_since(
    lifecycle: &Lifecycle,
    version: Version,
    corpus: &[Version],
) -> Option<String> {
    let since_minor = lifecycle.deprecated_in.filter(|since| *since <= version)?;
    Some(format!("Deprecated since {}", since(since_minor, corpus)))
}

/// The history of an item present in `version`, in one line: where it was
/// introduced (with its stage and feature gate there), where its stage
/// changed, where it is deprecated, renamed and removed. A line that starts
/// "Deprecated since …" when `version` deprecates it. `None` when the line
/// would only say "present in every minor".
pub fn history(
    lifecycle: &Lifecycle,
    renamed_from: Option<&super::Rename>,
    version: Version,
    corpus: &[Version],
) -> Option<String> {
    let first = lifecycle.introduced_in()?;
    let removed = lifecycle.removed_in(corpus);
    let says_more = corpus.first() != Some(&first)
        || removed.is_some()
        || lifecycle.deprecated_in.is_some()
        || !lifecycle.stage.is_empty()
        || lifecycle.feature_gate.is_some()
        || renamed_from.is_some();
    if !says_more {
        return None;
    }
    let mut parts = Vec::new();
    let deprecated = deprecated_since(lifecycle, version, corpus);
    parts.extend(deprecated.clone());
    let notes = notes(lifecycle, first);
    // "introduced in 1.28 or earlier" says nothing beside a deprecation.
    if parts.is_empty() || corpus.first() != Some(&first) || !notes.is_empty() {
        parts.push(format!(
            "{}ntroduced in {}{notes}",
            if parts.is_empty() { "I" } else { "i" },
            since(first, corpus),
        ));
    }
    for (since_minor, stage) in lifecycle.stage.range(first..).skip(1) {
        parts.push(format!("{} {since_minor}", stage_word(*stage)));
    }
    if let Some(rename) = renamed_from {
        parts.push(format!(
            "renamed from {} in {}",
            rename.from, rename.in_version
        ));
    }
    if deprecated.is_none() {
        if let Some(minor) = lifecycle.deprecated_in {
            parts.push(format!("deprecated in {minor}"));
        }
    }
    if let Some(minor) = removed {
        parts.push(format!("removed in {minor}"));
    }
    Some(parts.join(" · "))
}

/// The sentence a deprecated field's warning says in `version`:
/// "`name` is deprecated since 1.31" and, when another field of its type
/// took its place, "; renamed to `new` in 1.34". `None` when `version`
/// does not deprecate it.
pub fn deprecation_message(
    name: &str,
    field: &FieldLifecycle,
    siblings: &BTreeMap<String, FieldLifecycle>,
    version: Version,
    corpus: &[Version],
) -> Option<String> {
    let since_minor = field
        .lifecycle
        .deprecated_in
        .filter(|since| *since <= version)?;
    let mut message = format!("{name} is deprecated since {}", since(since_minor, corpus));
    let successor = siblings.iter().find_map(|(new, sibling)| {
        sibling
            .renamed_from
            .as_ref()
            .filter(|rename| rename.from == name)
            .map(|rename| (new, rename.in_version))
    });
    if let Some((new, in_version)) = successor {
        message.push_str(&format!("; renamed to {new} in {in_version}"));
    }
    Some(message)
}

#[cfg(test)]
mod tests {
    use super::*;
    use vergate_core::VersionSet;

    fn v(minor: u32) -> Version {
        Version::new(1, minor)
    }

    fn corpus() -> Vec<Version> {
        (28..=36).map(v).collect()
    }

    fn traffic_distribution() -> Lifecycle {
        Lifecycle {
            presence: (30..=36).map(v).collect::<VersionSet>(),
            stage: BTreeMap::from([
                (v(30), Stage::Alpha),
                (v(31), Stage::Beta),
                (v(33), Stage::Ga),
            ]),
            feature_gate: Some("ServiceTrafficDistribution".into()),
            ..Lifecycle::default()
        }
    }

    #[test]
    fn an_item_of_a_later_minor_names_it_with_its_stage_and_gate() {
        assert_eq!(
            not_available("trafficDistribution", &traffic_distribution(), v(29), &corpus()),
            "trafficDistribution is not available in 1.29; introduced in 1.30 (alpha, feature gate ServiceTrafficDistribution)"
        );
    }

    #[test]
    fn an_item_of_an_earlier_minor_names_its_removal() {
        let gone = Lifecycle {
            presence: (28..=30).map(v).collect::<VersionSet>(),
            ..Lifecycle::default()
        };
        assert_eq!(absence(&gone, v(32), &corpus()), "removed in 1.31");
    }

    #[test]
    fn a_history_line_tells_introduction_stages_and_removal() {
        assert_eq!(
            history(&traffic_distribution(), None, v(34), &corpus()).as_deref(),
            Some("Introduced in 1.30 (alpha, feature gate ServiceTrafficDistribution) · beta 1.31 · GA 1.33")
        );
        let deprecated = Lifecycle {
            presence: (28..=33).map(v).collect::<VersionSet>(),
            deprecated_in: Some(v(28)),
            ..Lifecycle::default()
        };
        assert_eq!(
            history(&deprecated, None, v(30), &corpus()).as_deref(),
            Some("Deprecated since 1.28 or earlier · removed in 1.34")
        );
        let plain = Lifecycle {
            presence: corpus().into_iter().collect::<VersionSet>(),
            ..Lifecycle::default()
        };
        assert_eq!(history(&plain, None, v(30), &corpus()), None);
    }
}
