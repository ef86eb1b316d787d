//! Facts an API's project publishes beside its specs, as gates.json holds
//! them: the history of each feature gate (Kubernetes' feature-gate table)
//! and the served lifecycle of each prerelease kind (k8s.io/api's
//! prerelease-lifecycle files).

use super::GroupVersionKind;
use crate::Version;
use std::collections::BTreeMap;

/// A feature gate's history: its state by the minor each state starts in.
pub type FeatureGateHistory = BTreeMap<Version, FeatureGateState>;

/// A feature gate's stage and default from one minor on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FeatureGateState {
    pub stage: GateStage,
    /// Whether a cluster that does not set the gate has it on.
    pub default: bool,
}

/// A feature gate's stage as the Kubernetes project publishes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum GateStage {
    Alpha,
    Beta,
    /// Stable (the table says `stable`; gates.json writes `ga`).
    Ga,
    /// On its way out: the feature is being removed.
    Deprecated,
}

impl GateStage {
    /// The stage as gates.json writes it.
    pub fn name(self) -> &'static str {
        match self {
            GateStage::Alpha => "alpha",
            GateStage::Beta => "beta",
            GateStage::Ga => "ga",
            GateStage::Deprecated => "deprecated",
        }
    }
}

/// The state of a gate in `version`: the entry at or before it. `None`
/// when the history starts later (the gate did not exist yet).
pub fn gate_state_in(history: &FeatureGateHistory, version: Version) -> Option<FeatureGateState> {
    super::in_force(history, version).copied()
}

/// What one minor's API server says of a prerelease kind: when its
/// apiVersion arrived, is (or will be) deprecated, stops being served, and
/// what replaces it. Its words are the API server's deprecation warning
/// ([`ApiLifecycle::warning`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ApiLifecycle {
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub introduced: Option<Version>,
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub deprecated: Option<Version>,
    /// The first minor whose API server no longer serves it; it may lie
    /// after the newest minor of the corpus (an announced removal).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub removed: Option<Version>,
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub replacement: Option<GroupVersionKind>,
}

impl ApiLifecycle {
    /// True when an API server of `version` warns on the kind: from its
    /// deprecation on, as k8s.io/apiserver's `deprecation.IsDeprecated`
    /// decides.
    pub fn is_deprecated_in(&self, version: Version) -> bool {
        self.deprecated.is_some_and(|since| version >= since)
    }

    /// The API server's warning for an object of `served` (`resource.k8s.io/v1beta1
    /// DeviceClass is deprecated in v1.35+, unavailable in v1.38+; use
    /// resource.k8s.io/v1 DeviceClass`), worded as k8s.io/apiserver's
    /// `deprecation.WarningMessage`. `None` when it names no deprecation.
    pub fn warning(&self, served: &GroupVersionKind) -> Option<String> {
        let deprecated = self.deprecated?;
        let mut message = format!(
            "{} {} is deprecated in v{deprecated}+",
            served.api_version(),
            served.kind
        );
        if let Some(removed) = self.removed {
            message.push_str(&format!(", unavailable in v{removed}+"));
        }
        if let Some(replacement) = &self.replacement {
            message.push_str(&format!(
                "; use {} {}",
                replacement.api_version(),
                replacement.kind
            ));
        }
        Some(message)
    }
}

/// A kind the API's project says it served before the corpus' first minor
/// and no minor of the corpus serves (`extensions/v1beta1 Ingress`), with
/// the newest statement about it: a document of it is refused naming its
/// removal and replacement, never taken for a custom resource.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RetiredKind {
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub kind: GroupVersionKind,
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub lifecycle: ApiLifecycle,
}

/// The statement in force in `version`: the entry at or before it.
pub fn api_lifecycle_in(
    history: &BTreeMap<Version, ApiLifecycle>,
    version: Version,
) -> Option<&ApiLifecycle> {
    super::in_force(history, version)
}

/// The warning the API server of `version` gives for an object of
/// `served`, whose lifecycle statements are `history`: `None` when that
/// server does not deprecate it (see [`ApiLifecycle::warning`]).
pub fn warning_in(
    history: &BTreeMap<Version, ApiLifecycle>,
    served: &GroupVersionKind,
    version: Version,
) -> Option<String> {
    api_lifecycle_in(history, version)
        .filter(|said| said.is_deprecated_in(version))
        .and_then(|said| said.warning(served))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(minor: u32) -> Version {
        Version::new(1, minor)
    }

    fn gvk(group: &str, version: &str, kind: &str) -> GroupVersionKind {
        GroupVersionKind {
            group: group.into(),
            version: version.into(),
            kind: kind.into(),
        }
    }

    #[test]
    fn the_warning_is_worded_as_the_api_server_words_it() {
        let said = ApiLifecycle {
            introduced: Some(v(32)),
            deprecated: Some(v(35)),
            removed: Some(v(38)),
            replacement: Some(gvk("resource.k8s.io", "v1", "DeviceClass")),
        };
        assert_eq!(
            said.warning(&gvk("resource.k8s.io", "v1beta1", "DeviceClass")).unwrap(),
            "resource.k8s.io/v1beta1 DeviceClass is deprecated in v1.35+, unavailable in v1.38+; use resource.k8s.io/v1 DeviceClass"
        );
        assert!(!said.is_deprecated_in(v(34)));
        assert!(said.is_deprecated_in(v(35)));
        let plain = ApiLifecycle {
            deprecated: Some(v(22)),
            ..ApiLifecycle::default()
        };
        assert_eq!(
            plain.warning(&gvk("", "v1", "ComponentStatus")).unwrap(),
            "v1 ComponentStatus is deprecated in v1.22+"
        );
        assert_eq!(ApiLifecycle::default().warning(&gvk("", "v1", "X")), None);
    }

    #[test]
    fn states_hold_from_their_minor_on() {
        let history = FeatureGateHistory::from([
            (
                v(23),
                FeatureGateState {
                    stage: GateStage::Alpha,
                    default: false,
                },
            ),
            (
                v(27),
                FeatureGateState {
                    stage: GateStage::Beta,
                    default: true,
                },
            ),
        ]);
        assert_eq!(gate_state_in(&history, v(22)), None);
        assert_eq!(
            gate_state_in(&history, v(26)).unwrap().stage,
            GateStage::Alpha
        );
        assert!(gate_state_in(&history, v(30)).unwrap().default);
    }
}
