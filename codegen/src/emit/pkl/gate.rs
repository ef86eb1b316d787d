//! The version annotation a gated property, class or module carries
//! (`@shared.K8sVersion { introducedIn = "1.30" }`), as template data.

use crate::model::Lifecycle;
use serde::Serialize;
use vergate_core::Version;

/// One annotation's fields, in the order they are written; empty when the
/// item is not gated.
#[derive(Clone, Debug, Default, Hash, Serialize)]
pub struct Gate {
    pub entries: Vec<GateEntry>,
    /// The minor the item is deprecated since, when it is deprecated in the
    /// subtree's minor (the template adds Pkl's own `@Deprecated`).
    pub deprecated_since: Option<String>,
}

/// `key = "value"` inside the annotation.
#[derive(Clone, Debug, Hash, Serialize)]
pub struct GateEntry {
    pub key: &'static str,
    pub value: String,
}

impl Gate {
    /// The gate of `lifecycle` as seen from the subtree of `minor`.
    ///
    /// `introducedIn` is left out when the item is there from the corpus'
    /// first minor (it may be older); `removedIn`, `deprecatedIn`,
    /// `reference` and `featureGate` are written whenever known, and `stage`
    /// is the stage in force in `minor`.
    pub fn of(lifecycle: &Lifecycle, minor: Version, corpus: &[Version]) -> Gate {
        let mut entries = Vec::new();
        let mut push = |key, value: Option<String>| {
            if let Some(value) = value {
                entries.push(GateEntry { key, value });
            }
        };
        let first = corpus.first().copied();
        push(
            "introducedIn",
            lifecycle
                .introduced_in()
                .filter(|introduced| Some(*introduced) != first)
                .map(|v| v.to_string()),
        );
        push(
            "deprecatedIn",
            lifecycle.deprecated_in.map(|v| v.to_string()),
        );
        push(
            "removedIn",
            lifecycle.removed_in(corpus).map(|v| v.to_string()),
        );
        push("reference", lifecycle.reference.clone());
        push(
            "stage",
            lifecycle
                .stage_in(minor)
                .map(|stage| stage.name().to_owned()),
        );
        push("featureGate", lifecycle.feature_gate.clone());
        Gate {
            entries,
            deprecated_since: lifecycle
                .deprecated_in
                .filter(|since| *since <= minor)
                .map(|v| v.to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Stage;

    fn v(minor: u32) -> Version {
        Version::new(1, minor)
    }

    fn keys(gate: &Gate) -> Vec<(&str, &str)> {
        gate.entries
            .iter()
            .map(|e| (e.key, e.value.as_str()))
            .collect()
    }

    #[test]
    fn gates_as_seen_from_one_minor() {
        let corpus: Vec<Version> = (28..=36).map(v).collect();
        let mut lifecycle = Lifecycle::default();
        lifecycle.presence.extend([v(28), v(29), v(30)]);
        assert_eq!(
            keys(&Gate::of(&lifecycle, v(29), &corpus)),
            [("removedIn", "1.31")],
            "present from the first minor: no introducedIn"
        );

        let mut lifecycle = Lifecycle::default();
        lifecycle.presence.extend((30..=36).map(v));
        lifecycle.deprecated_in = Some(v(33));
        lifecycle.stage.insert(v(30), Stage::Beta);
        lifecycle.stage.insert(v(33), Stage::Ga);
        lifecycle.reference = Some("https://kep.k8s.io/4444".into());
        let in_31 = Gate::of(&lifecycle, v(31), &corpus);
        assert_eq!(
            keys(&in_31),
            [
                ("introducedIn", "1.30"),
                ("deprecatedIn", "1.33"),
                ("reference", "https://kep.k8s.io/4444"),
                ("stage", "beta"),
            ]
        );
        assert_eq!(in_31.deprecated_since, None, "not yet deprecated in 1.31");
        let in_34 = Gate::of(&lifecycle, v(34), &corpus);
        assert!(keys(&in_34).contains(&("stage", "ga")));
        assert_eq!(in_34.deprecated_since.as_deref(), Some("1.33"));

        let mut everywhere = Lifecycle::default();
        everywhere.presence.extend(corpus.iter().copied());
        assert!(Gate::of(&everywhere, v(34), &corpus).entries.is_empty());
    }
}
