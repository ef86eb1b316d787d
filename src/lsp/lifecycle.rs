//! A gate's lifecycle in words, for hover and completion: the gates index
//! holds [`Gate`]s, and the code generator words lifecycles once
//! (`vergate_codegen::model::wording`, what the editor schemas' hover
//! lines and the Pkl package's messages say). This turns one into the
//! other and asks the wording, so the server says what the schemas say.

use crate::gates::Gate;
use crate::Version;
use vergate_codegen::model::{wording, Lifecycle};

/// The codegen lifecycle of `gate` over the API's minors.
pub fn of(gate: &Gate, corpus: &[Version]) -> Lifecycle {
    Lifecycle {
        presence: corpus
            .iter()
            .copied()
            .filter(|minor| gate.is_present_in(*minor))
            .collect(),
        deprecated_in: gate.deprecated_in,
        stage: gate.stage.clone(),
        feature_gate: gate.feature_gate.clone(),
        related_feature_gates: gate.related_feature_gates.clone(),
        reference: gate.reference.clone(),
        inferred: gate.inferred.iter().copied().collect(),
    }
}

/// The one-line history at `target` ("Introduced in 1.30 (alpha, feature
/// gate X) · beta 1.31 · GA 1.33"), or why the item is not in `target`
/// ("introduced in 1.30 …", "removed in 1.31"). `None` when it is present
/// in every minor with nothing more to say.
pub fn line(gate: &Gate, target: Version, corpus: &[Version]) -> Option<String> {
    let lifecycle = of(gate, corpus);
    if !lifecycle.is_present_in(target) {
        return Some(format!(
            "Not in {target}: {}",
            wording::absence(&lifecycle, target, corpus)
        ));
    }
    wording::history(&lifecycle, None, target, corpus)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gates::Stage;
    use std::collections::BTreeMap;

    fn v(minor: u32) -> Version {
        Version::new(1, minor)
    }

    #[test]
    fn a_gated_field_reads_as_the_editor_schema_says() {
        let corpus: Vec<Version> = (28..=36).map(v).collect();
        let gate = Gate {
            introduced_in: v(30),
            stage: BTreeMap::from([
                (v(30), Stage::Alpha),
                (v(31), Stage::Beta),
                (v(33), Stage::Ga),
            ]),
            feature_gate: Some("ServiceTrafficDistribution".into()),
            ..Gate::default()
        };
        assert_eq!(
            line(&gate, v(34), &corpus).unwrap(),
            "Introduced in 1.30 (alpha, feature gate ServiceTrafficDistribution) · beta 1.31 · GA 1.33"
        );
        assert_eq!(
            line(&gate, v(29), &corpus).unwrap(),
            "Not in 1.29: introduced in 1.30 (alpha, feature gate ServiceTrafficDistribution)"
        );
        let always = Gate {
            introduced_in: v(28),
            ..Gate::default()
        };
        assert_eq!(line(&always, v(34), &corpus), None);
    }
}
