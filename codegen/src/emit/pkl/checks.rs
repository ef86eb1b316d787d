//! The lifecycle checks a property's type makes in one minor, written as
//! Pkl code: a field of another minor that fails when set, a deprecated
//! field's warning, and a feature gate a default cluster has off.

use super::builder::{Builder, SHARED};
use super::escape::pkl_string;
use super::gate::Gate;
use super::items::PropertyData;

impl Builder<'_, '_> {
    /// A field of another minor, not of this one: a property that fails,
    /// when set, with a message naming the minor that introduces it (its
    /// stage and feature gate there) or removed it. Unset, it renders
    /// nothing, so the minor still accepts exactly its own fields.
    pub(super) fn absent_property(
        &self,
        name: &str,
        field: &crate::model::FieldLifecycle,
    ) -> PropertyData {
        let version = self.subtree.version;
        let corpus = &self.subtree.model.versions;
        let reason = crate::model::wording::absence(&field.lifecycle, version, corpus);
        let message = crate::model::wording::not_available(name, &field.lifecycle, version, corpus);
        PropertyData {
            doc: format!("Not in {version}: {reason}. Setting it is an error naming that minor."),
            gate: Gate::default(),
            name: name.to_owned(),
            ty: format!(
                "Any({}.notAvailable({}))?",
                self.alias(SHARED),
                pkl_string(&message)
            ),
            fixed: false,
        }
    }

    /// The checks a property's type makes, in this minor, beyond its value:
    /// a deprecated field traces a warning when set (Pkl 0.30 warns for
    /// deprecated methods only); a field whose feature gate a default
    /// cluster has off (alpha, or beta and off in the feature-gate table)
    /// fails unless the gate is on in the user's `vergate.featureGates`
    /// external property (`Name=true,…`, as `vergate check --feature-gates`
    /// and the API server's flag), since an API server with the gate off
    /// drops it. A field whose gate is on by default is never refused.
    pub(super) fn stage_checks(
        &self,
        name: &str,
        lifecycle: &crate::model::Lifecycle,
    ) -> Vec<String> {
        let version = self.subtree.version;
        let model = self.subtree.model;
        let api = &model.api;
        let mut checks = Vec::new();
        if let Some(since) = lifecycle.deprecated_in.filter(|since| *since <= version) {
            let message = format!("warning: {name} is deprecated in {api} since {since}");
            checks.push(format!("trace({}) != null", pkl_string(&message)));
        }
        let Some(stage) = lifecycle.stage_in(version) else {
            return checks;
        };
        if stage == crate::model::Stage::Ga || model.enabled_by_default(lifecycle, version) {
            return checks;
        }
        let gate = lifecycle.feature_gate.as_deref();
        let all = if stage == crate::model::Stage::Alpha {
            "AllAlpha"
        } else {
            "AllBeta"
        };
        let setting = format!("{}=true", gate.unwrap_or(all));
        let published = gate.is_some_and(|gate| model.feature_gates.contains_key(gate));
        let why = if published {
            format!("off by default in {version}, per Kubernetes' feature-gate table")
        } else {
            "alpha gates are off by default".to_owned()
        };
        let message = format!(
            "{name} is {} in {api} {version}: the API server drops it unless {} is on ({why}). \
             If the cluster turns it on, say so in your PklProject: evaluatorSettings {{ externalProperties {{ [\"vergate.featureGates\"] = \"{setting}\" }} }} (or pkl eval -p vergate.featureGates={setting})",
            stage.name(),
            gate.map_or_else(|| "its feature gate".to_owned(), |gate| format!("feature gate {gate}")),
        );
        let on = gate.map_or_else(
            || "null".to_owned(),
            |gate| pkl_string(&format!("{gate}=true")),
        );
        checks.push(format!(
            "{}.featureGateOn({on}, \"{all}=true\", {})",
            self.alias(SHARED),
            pkl_string(&message)
        ));
        checks
    }
}
