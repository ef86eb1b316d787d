//! Which feature gates a cluster has on, for fields still behind one.
//!
//! The API server drops a field whose feature gate is off, without an
//! error: the object is stored without it. A gate's default in a minor is
//! the one Kubernetes' feature-gate table publishes (gates.json's
//! `feature_gates`): most beta gates are on, some are off (DRA,
//! VolumeAttributesClass), alpha gates are off. Where the table does not
//! know a gate, the field's stage decides: alpha off, beta and GA on.
//! `--feature-gates Name=true,Other=false` says otherwise, as
//! kube-apiserver's flag of the same name does.

use crate::gates::Stage;
use std::collections::BTreeMap;

/// Feature gates set explicitly (`AllAlpha` and `AllBeta` included); every
/// other gate has its stage's default.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FeatureGates {
    set: BTreeMap<String, bool>,
}

impl FeatureGates {
    /// Sets gate `name` on or off.
    pub fn set(&mut self, name: impl Into<String>, enabled: bool) {
        self.set.insert(name.into(), enabled);
    }

    /// Whether the gate `name` (if the field names one) is on, for a field
    /// at `stage`: as set; else as `AllAlpha`/`AllBeta` set it for its
    /// stage (kube-apiserver's two gates for every alpha or beta feature);
    /// else `default` (the gate's default in the target minor).
    pub fn is_enabled(&self, name: Option<&str>, stage: Stage, default: bool) -> bool {
        let all = match stage {
            Stage::Alpha => self.set.get("AllAlpha"),
            Stage::Beta => self.set.get("AllBeta"),
            Stage::Ga => None,
        };
        name.and_then(|name| self.set.get(name))
            .or(all)
            .copied()
            .unwrap_or(default)
    }

    /// True when `name` was set explicitly.
    pub fn is_set(&self, name: &str) -> bool {
        self.set.contains_key(name)
    }
}

/// Reads one `Name=true` or `Name=false` setting, as kube-apiserver's
/// `--feature-gates` takes them.
pub fn parse_setting(text: &str) -> Result<(String, bool), String> {
    let (name, value) = text
        .split_once('=')
        .ok_or_else(|| format!("{text:?}: write Name=true or Name=false"))?;
    let name = name.trim();
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric()) {
        return Err(format!(
            "{text:?}: a feature gate name is letters and digits (ServiceTrafficDistribution)"
        ));
    }
    match value.trim() {
        "true" => Ok((name.to_owned(), true)),
        "false" => Ok((name.to_owned(), false)),
        other => Err(format!("{text:?}: {other:?} is neither true nor false")),
    }
}

#[cfg(test)]
mod tests {
    use super::{parse_setting, FeatureGates};
    use crate::gates::Stage;

    #[test]
    fn gates_have_their_default_unless_set() {
        let mut gates = FeatureGates::default();
        assert!(!gates.is_enabled(Some("A"), Stage::Alpha, false));
        assert!(!gates.is_enabled(None, Stage::Alpha, false));
        assert!(gates.is_enabled(Some("B"), Stage::Beta, true));
        // A beta gate the table says is off by default.
        assert!(!gates.is_enabled(Some("Off"), Stage::Beta, false));
        assert!(gates.is_enabled(Some("G"), Stage::Ga, true));
        gates.set("A", true);
        gates.set("B", false);
        assert!(gates.is_enabled(Some("A"), Stage::Alpha, false));
        assert!(!gates.is_enabled(Some("B"), Stage::Beta, true));
        gates.set("AllAlpha", true);
        gates.set("AllBeta", true);
        assert!(gates.is_enabled(Some("Other"), Stage::Alpha, false));
        assert!(gates.is_enabled(Some("Off"), Stage::Beta, false));
        assert!(!gates.is_enabled(Some("B"), Stage::Beta, true));
        assert!(gates.is_enabled(Some("G"), Stage::Ga, true));
    }

    #[test]
    fn settings_read_as_the_api_server_writes_them() {
        assert_eq!(parse_setting("Foo=true"), Ok(("Foo".into(), true)));
        assert_eq!(parse_setting("Foo=false"), Ok(("Foo".into(), false)));
        assert!(parse_setting("Foo").is_err());
        assert!(parse_setting("Foo=yes").is_err());
        assert!(parse_setting("=true").is_err());
        assert!(parse_setting("Foo-Bar=true").is_err());
    }
}
