//! Which feature gates a cluster has on, for fields still behind one.
//!
//! The API server drops a field whose feature gate is off, without an
//! error: the object is stored without it. Kubernetes' defaults by stage
//! (the `stage` of a field's gate in gates.json, by minor): an **alpha**
//! feature's gate is off; a **beta** feature's gate is on (since 1.24 new
//! beta *APIs*, whole apiVersions, are off by default, but the gates of beta
//! fields stay on); a **GA** feature's gate is on, and locked on a few
//! minors later. `--feature-gates Name=true,Other=false` says otherwise, as
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
    /// else the stage's default (off for alpha).
    pub fn is_enabled(&self, name: Option<&str>, stage: Stage) -> bool {
        let all = match stage {
            Stage::Alpha => self.set.get("AllAlpha"),
            Stage::Beta => self.set.get("AllBeta"),
            Stage::Ga => None,
        };
        name.and_then(|name| self.set.get(name))
            .or(all)
            .copied()
            .unwrap_or(stage != Stage::Alpha)
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
    fn alpha_gates_are_off_and_others_on_unless_set() {
        let mut gates = FeatureGates::default();
        assert!(!gates.is_enabled(Some("A"), Stage::Alpha));
        assert!(!gates.is_enabled(None, Stage::Alpha));
        assert!(gates.is_enabled(Some("B"), Stage::Beta));
        assert!(gates.is_enabled(Some("G"), Stage::Ga));
        gates.set("A", true);
        gates.set("B", false);
        assert!(gates.is_enabled(Some("A"), Stage::Alpha));
        assert!(!gates.is_enabled(Some("B"), Stage::Beta));
        gates.set("AllAlpha", true);
        gates.set("AllBeta", false);
        assert!(gates.is_enabled(Some("Other"), Stage::Alpha));
        assert!(!gates.is_enabled(Some("Other"), Stage::Beta));
        assert!(!gates.is_enabled(Some("B"), Stage::Beta));
        assert!(gates.is_enabled(Some("G"), Stage::Ga));
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
