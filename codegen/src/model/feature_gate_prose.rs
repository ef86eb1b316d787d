//! Feature gates and stages read from a description's prose. The
//! Kubernetes specs carry no structured stage or gate, but the descriptions
//! of gated fields say it in a handful of forms, which change from minor to
//! minor as a feature graduates:
//!
//! - `This is an alpha field and requires enabling the X feature gate.`
//! - `(Beta) Using this field requires the X feature gate to be enabled.`
//! - `This field is beta-level. It can be used when the `X` feature gate is enabled (enabled by default).`
//! - `Alpha, gated by the X feature gate.`
//! - `This is a beta field and requires enabling the X and Y feature gates.`
//!
//! A sentence of that kind *guards* the field: the API server drops or
//! refuses the field while the gate is off. Other sentences only *mention*
//! a gate that changes the field's behaviour or allowed values (`When the X
//! feature gate is enabled, …`, `minReplicas is allowed to be 0 if the alpha
//! feature gate X is enabled`); those gates are kept apart, never used to
//! refuse the field. Hand-written scanning, no regex: the derive macro
//! builds this module too.

use super::Lifecycle;
use std::collections::BTreeMap;
use vergate_core::gates::{Inferred, Stage};
use vergate_core::Version;

/// What one minor's description says about the field's feature gates.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ProseGates {
    /// The gate a sentence says the field requires (the first such gate).
    pub guard: Option<String>,
    /// Every other gate the description names: a second gate it requires,
    /// or gates that change its behaviour or values.
    pub others: Vec<String>,
    /// The stage the description gives the field, when it names a gate.
    pub stage: Option<Stage>,
}

impl ProseGates {
    /// True when the description names no gate at all.
    pub fn is_empty(&self) -> bool {
        self.guard.is_none() && self.others.is_empty()
    }
}

/// Phrases that make a sentence naming a gate a guard of the field.
const GUARD_PHRASES: [&str; 18] = [
    "requir",
    "must enable",
    "to use this field",
    "to be enabled",
    "must be enabled",
    "gated by",
    "managed by",
    "enabled by",
    "enabled default by",
    "can be used when",
    "the field when",
    "this field when",
    "available only when",
    "only available when",
    "only used when",
    "only if",
    "depends on",
    "requires enabling",
];

/// Reads the feature gates and the stage `description` gives its field.
/// `values` are the field's enum values: a sentence that starts with one
/// (`Lt and Gt perform numeric comparisons (requires feature gate X)`) is
/// about those values, so its gate is a mention, not the field's guard.
pub fn prose_gates<S: AsRef<str>>(description: &str, values: &[S]) -> ProseGates {
    let mut found = ProseGates::default();
    // The generated list of enum values describes values, not the field.
    let description = description
        .split("\n\nPossible enum values:")
        .next()
        .unwrap_or(description);
    for sentence in sentences(description) {
        let names = gate_names(sentence);
        if names.is_empty() {
            continue;
        }
        let guards = is_guard(sentence, values);
        for name in names {
            if guards && found.guard.is_none() {
                found.guard = Some(name);
            } else if found.guard.as_deref() != Some(name.as_str()) && !found.others.contains(&name)
            {
                found.others.push(name);
            }
        }
    }
    if let Some(guard) = &found.guard {
        found.others.retain(|other| other != guard);
        found.stage = stage_marker(description);
    }
    found
}

/// The sentences of `text`: cut at a full stop followed by white space, and
/// at paragraph and list breaks.
fn sentences(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let bytes = text.as_bytes();
    for (at, &byte) in bytes.iter().enumerate() {
        let cut = match byte {
            b'.' => bytes
                .get(at + 1)
                .is_none_or(|next| next.is_ascii_whitespace()),
            b'\n' => bytes
                .get(at + 1)
                .is_some_and(|next| matches!(next, b'\n' | b'-' | b'*')),
            _ => false,
        };
        if cut {
            out.push(text[start..=at].trim());
            start = at + 1;
        }
    }
    out.push(text[start..].trim());
    out.retain(|sentence| !sentence.is_empty());
    out
}

/// The words of a sentence, without the punctuation and backticks around
/// them.
fn words(sentence: &str) -> Vec<&str> {
    sentence
        .split(|c: char| c.is_whitespace() || c == '/')
        .map(|word| word.trim_matches(|c: char| !c.is_ascii_alphanumeric() && c != '-'))
        .filter(|word| !word.is_empty())
        .collect()
}

/// True when `word` can be a feature gate's name: CamelCase, starting with
/// a capital, with a lower-case letter (`HPAScaleToZero`, `JobManagedBy`).
fn is_gate_name(word: &str) -> bool {
    const NOT_GATES: [&str; 6] = ["Alpha", "Beta", "The", "This", "When", "If"];
    word.len() >= 3
        && word.starts_with(|c: char| c.is_ascii_uppercase())
        && word.chars().all(|c| c.is_ascii_alphanumeric())
        && word.chars().any(|c| c.is_ascii_lowercase())
        && !NOT_GATES.contains(&word)
}

/// The gate names a sentence gives, in order: `X feature gate`, `X and Y
/// feature gates`, `feature gate X`, `feature-gate X`, `X featuregate`, and
/// `enabling X feature`.
fn gate_names(sentence: &str) -> Vec<String> {
    let words = words(sentence);
    let mut names: Vec<String> = Vec::new();
    let mut push = |name: &str| {
        if !names.iter().any(|known| known == name) {
            names.push(name.to_owned());
        }
    };
    for (at, word) in words.iter().enumerate() {
        let lower = word.to_ascii_lowercase();
        // How many words the marker takes: `feature gate` two, `feature-gate` one.
        let span = if lower == "feature"
            && words.get(at + 1).is_some_and(|next| {
                next.eq_ignore_ascii_case("gate") || next.eq_ignore_ascii_case("gates")
            }) {
            2
        } else if matches!(
            lower.as_str(),
            "feature-gate" | "feature-gates" | "featuregate" | "featuregates"
        ) {
            1
        } else if lower == "feature"
            && at >= 2
            && words[at - 2].eq_ignore_ascii_case("enabling")
            && is_gate_name(words[at - 1])
        {
            push(words[at - 1]);
            continue;
        } else {
            continue;
        };
        let before = at.checked_sub(1).map(|i| words[i]);
        match before {
            Some(name) if is_gate_name(name) => {
                if at >= 3 && words[at - 2] == "and" && is_gate_name(words[at - 3]) {
                    push(words[at - 3]);
                }
                push(name);
            }
            _ => {
                if let Some(name) = words.get(at + span).filter(|name| is_gate_name(name)) {
                    push(name);
                }
            }
        }
    }
    names
}

/// True when `sentence` says the field needs its gate, rather than that a
/// gate changes what the field does. A sentence that opens with a
/// condition (`When …`, `If …`) or with one of the field's values is not.
fn is_guard<S: AsRef<str>>(sentence: &str, values: &[S]) -> bool {
    let first = words(sentence).into_iter().next().unwrap_or_default();
    let opens_with_value = values
        .iter()
        .any(|value| !value.as_ref().is_empty() && first == value.as_ref());
    if opens_with_value
        || sentence.starts_with('"')
        || ["when", "if", "during"].contains(&first.to_ascii_lowercase().as_str())
    {
        return false;
    }
    let lower = sentence.to_ascii_lowercase();
    GUARD_PHRASES.iter().any(|phrase| lower.contains(phrase))
}

/// The first stage marker of the description's own prose: `(Alpha)`,
/// `alpha field`, `beta-level`, `Alpha, gated by`, `which is beta`,
/// `stable field`, `alpha feature` (but not `alpha feature gate X`, which
/// names the gate's stage, not the field's).
fn stage_marker(description: &str) -> Option<Stage> {
    let lower = description.to_ascii_lowercase();
    let lower = lower.as_str();
    let markers: [(&str, Stage); 14] = [
        ("(alpha)", Stage::Alpha),
        ("(beta)", Stage::Beta),
        ("alpha field", Stage::Alpha),
        ("beta field", Stage::Beta),
        ("alpha-level", Stage::Alpha),
        ("beta-level", Stage::Beta),
        ("alpha, gated by", Stage::Alpha),
        ("beta, gated by", Stage::Beta),
        ("which is alpha", Stage::Alpha),
        ("which is beta", Stage::Beta),
        ("stable field", Stage::Ga),
        ("alpha feature", Stage::Alpha),
        ("beta feature", Stage::Beta),
        ("beta value", Stage::Beta),
    ];
    markers
        .iter()
        .flat_map(|(marker, stage)| {
            lower.match_indices(marker).filter_map(move |(at, _)| {
                let after = &lower[at + marker.len()..];
                let names_a_gate = marker.ends_with("feature") && after.starts_with(" gate");
                let word_start = lower[..at]
                    .chars()
                    .next_back()
                    .is_none_or(|c| !c.is_ascii_alphanumeric());
                (!names_a_gate && word_start).then_some((at, *stage))
            })
        })
        .min_by_key(|(at, _)| *at)
        .map(|(_, stage)| stage)
}

/// Lays what the descriptions of every minor say (`by_minor`, the minors
/// the item is present in) onto `lifecycle`, marked inferred:
///
/// - `feature_gate`: the guard of the newest minor that names one;
/// - `stage`: each guarded minor's stage (or the previous one's, when a
///   minor names the gate without a stage), and GA from the first minor
///   whose description stops naming the gate after an alpha or beta minor
///   (Kubernetes drops the sentence when the gate graduates);
/// - `related_feature_gates`: every other gate named, in order.
///
/// Keys already set (by the spec's structure) are left alone; annotations,
/// laid on afterwards, override these.
pub fn infer_gates(lifecycle: &mut Lifecycle, by_minor: &BTreeMap<Version, ProseGates>) {
    let guard = by_minor
        .values()
        .rev()
        .find_map(|found| found.guard.clone());
    let mut related: Vec<String> = Vec::new();
    for found in by_minor.values() {
        for name in found.guard.iter().chain(&found.others) {
            if Some(name) != guard.as_ref() && !related.contains(name) {
                related.push(name.clone());
            }
        }
    }
    lifecycle.related_feature_gates = related;
    let Some(guard) = guard else {
        return;
    };
    if lifecycle.feature_gate.is_none() {
        lifecycle.feature_gate = Some(guard);
        lifecycle.inferred.insert(Inferred::FeatureGate);
    }
    if !lifecycle.stage.is_empty() {
        return;
    }
    let mut stages = BTreeMap::new();
    let mut current: Option<Stage> = None;
    for (version, found) in by_minor {
        let next = match (&found.guard, current) {
            (Some(_), _) => found.stage.or(current),
            (None, Some(Stage::Alpha | Stage::Beta)) => Some(Stage::Ga),
            (None, stage) => stage,
        };
        if next != current {
            if let Some(stage) = next {
                stages.insert(*version, stage);
            }
            current = next;
        }
    }
    if !stages.is_empty() {
        lifecycle.stage = stages;
        lifecycle.inferred.insert(Inferred::Stage);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(description: &str) -> (Option<&'static str>, Vec<String>, Option<Stage>) {
        let found = prose_gates::<&str>(description, &[]);
        (
            found.guard.map(|g| &*Box::leak(g.into_boxed_str())),
            found.others,
            found.stage,
        )
    }

    #[test]
    fn the_forms_kubernetes_uses_for_a_guarded_field() {
        for (text, gate, stage) in [
            ("Foo. This is an alpha field and requires enabling the PodLevelResources feature gate.", "PodLevelResources", Stage::Alpha),
            ("(Beta) Using this field requires the AnyVolumeDataSource feature gate to be enabled.", "AnyVolumeDataSource", Stage::Beta),
            ("This field is beta-level. It can be used when the `JobBackoffLimitPerIndex` feature gate is enabled (enabled by default).", "JobBackoffLimitPerIndex", Stage::Beta),
            ("Mounts a bundle.\n\nAlpha, gated by the ClusterTrustBundleProjection feature gate.\n\nMore.", "ClusterTrustBundleProjection", Stage::Alpha),
            ("Using the ordinals field requires the StatefulSetStartOrdinal feature gate to be enabled, which is beta.", "StatefulSetStartOrdinal", Stage::Beta),
            ("This is a stable field but requires that the DynamicResourceAllocation feature gate is enabled.", "DynamicResourceAllocation", Stage::Ga),
            ("This field  is alpha-level. To use this field, you must enable the `AuthorizeWithSelectors` feature gate (disabled by default).", "AuthorizeWithSelectors", Stage::Alpha),
            ("This is a beta field and requires enabling DeploymentReplicaSetTerminatingReplicas feature (enabled by default).", "DeploymentReplicaSetTerminatingReplicas", Stage::Beta),
            ("This is an alpha feature and may change. The field is populated by the apiserver only if the StorageVersionHash feature gate is enabled.", "StorageVersionHash", Stage::Alpha),
        ] {
            let (guard, _, found) = read(text);
            assert_eq!((guard, found), (Some(gate), Some(stage)), "{text}");
        }
    }

    #[test]
    fn two_gates_required_keep_the_second_apart() {
        let (guard, others, stage) = read("This is a beta field and requires enabling the DRADeviceBindingConditions and DRAResourceClaimDeviceStatus feature gates.");
        assert_eq!(guard, Some("DRADeviceBindingConditions"));
        assert_eq!(others, ["DRAResourceClaimDeviceStatus"]);
        assert_eq!(stage, Some(Stage::Beta));
    }

    #[test]
    fn a_gate_that_changes_behaviour_is_a_mention() {
        for text in [
            "minReplicas is the lower limit. It defaults to 1. minReplicas is allowed to be 0 if the alpha feature gate HPAScaleToZero is enabled and at least one Object or External metric is configured.",
            "When the AnyVolumeDataSource feature gate is enabled, dataSource contents will be copied to dataSourceRef.",
            "If the CSIDriverRegistry feature gate is enabled and the value is specified to false, the attach operation will be skipped.",
            "This field is mutable if MutablePVNodeAffinity feature gate is enabled.",
            "Note: \"ContainerResource\" type is available on when the feature-gate HPAContainerMetrics is enabled",
            "The key. During Alpha stage of the EnvFiles feature gate, the key size is limited to 128 characters.",
        ] {
            let (guard, others, stage) = read(text);
            assert_eq!((guard, stage), (None, None), "{text}");
            assert_eq!(others.len(), 1, "{text}");
        }
    }

    #[test]
    fn a_sentence_about_the_fields_values_is_theirs() {
        let text = "Valid operators are Exists, Equal, Lt, and Gt. Lt and Gt perform numeric comparisons (requires feature gate TaintTolerationComparisonOperators).";
        let found = prose_gates(text, &["Equal", "Exists", "Gt", "Lt"]);
        assert_eq!(found.guard, None);
        assert_eq!(found.others, ["TaintTolerationComparisonOperators"]);
    }

    #[test]
    fn the_generated_value_list_and_plain_prose_name_nothing() {
        assert!(prose_gates::<&str>("A plain description. With alpha in it.", &[]).is_empty());
        assert!(prose_gates::<&str>(
            "Policy.\n\nPossible enum values:\n - `\"A\"` requires the Foo feature gate.",
            &[]
        )
        .is_empty());
        // Words around the marker that are not names.
        assert!(prose_gates::<&str>(
            "DeclaredFeatures represents the features related to feature gates that are declared.",
            &[]
        )
        .is_empty());
    }

    /// What one minor's prose said: its guard and stage, if any.
    type Said<'a> = (u32, Option<(&'a str, Option<Stage>)>);

    fn minors(said: &[Said<'_>]) -> BTreeMap<Version, ProseGates> {
        said.iter()
            .map(|(minor, found)| {
                let found = found.map_or_else(ProseGates::default, |(gate, stage)| ProseGates {
                    guard: Some(gate.to_owned()),
                    others: Vec::new(),
                    stage,
                });
                (Version::new(1, *minor), found)
            })
            .collect()
    }

    #[test]
    fn stages_follow_the_prose_and_graduate_when_it_stops_naming_the_gate() {
        // JobSpec.backoffLimitPerIndex: beta from 1.28, the sentence gone in 1.33.
        let mut lifecycle = Lifecycle::default();
        let beta = Some(("JobBackoffLimitPerIndex", Some(Stage::Beta)));
        let said = minors(&[(28, beta), (29, beta), (32, beta), (33, None), (34, None)]);
        infer_gates(&mut lifecycle, &said);
        assert_eq!(
            lifecycle.feature_gate.as_deref(),
            Some("JobBackoffLimitPerIndex")
        );
        assert_eq!(
            lifecycle.stage,
            BTreeMap::from([
                (Version::new(1, 28), Stage::Beta),
                (Version::new(1, 33), Stage::Ga)
            ])
        );
        assert!(lifecycle.inferred.contains(&Inferred::Stage));
        assert!(lifecycle.inferred.contains(&Inferred::FeatureGate));
    }

    #[test]
    fn a_minor_naming_the_gate_without_a_stage_keeps_the_stage_before() {
        let mut lifecycle = Lifecycle::default();
        let said = minors(&[
            (30, Some(("X", Some(Stage::Alpha)))),
            (31, Some(("X", None))),
            (32, Some(("X", Some(Stage::Beta)))),
        ]);
        infer_gates(&mut lifecycle, &said);
        assert_eq!(
            lifecycle.stage,
            BTreeMap::from([
                (Version::new(1, 30), Stage::Alpha),
                (Version::new(1, 32), Stage::Beta)
            ])
        );
    }

    #[test]
    fn structural_keys_stay_and_mentions_are_related() {
        let mut lifecycle = Lifecycle {
            feature_gate: Some("Annotated".into()),
            ..Lifecycle::default()
        };
        let mut said = minors(&[(30, Some(("X", Some(Stage::Alpha))))]);
        said.get_mut(&Version::new(1, 30))
            .unwrap()
            .others
            .push("Y".into());
        infer_gates(&mut lifecycle, &said);
        assert_eq!(lifecycle.feature_gate.as_deref(), Some("Annotated"));
        assert!(!lifecycle.inferred.contains(&Inferred::FeatureGate));
        assert_eq!(lifecycle.related_feature_gates, ["Y"]);
        // A gate named only as a mention sets neither gate nor stage.
        let mut plain = Lifecycle::default();
        let mention = BTreeMap::from([(
            Version::new(1, 30),
            ProseGates {
                others: vec!["Z".into()],
                ..ProseGates::default()
            },
        )]);
        infer_gates(&mut plain, &mention);
        assert_eq!((plain.feature_gate, plain.stage.len()), (None, 0));
        assert_eq!(plain.related_feature_gates, ["Z"]);
    }
}
