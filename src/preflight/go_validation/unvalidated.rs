//! The parts of an object the target's server leaves to decoding alone,
//! where the findings of validation (Go rules, refinements, `required`,
//! schema constraints and enums) say nothing the server says.
//!
//! Before 1.34 `ValidateStatefulSetSpec` checks neither its pod template's
//! spec (`ValidatePodTemplateSpecForStatefulSet` validates labels and
//! annotations only: "TODO: Add validation for PodSpec") nor its
//! `volumeClaimTemplates`; 1.34 added both (k8s.io/kubernetes v1.33.0 and
//! v1.34.0, `pkg/apis/apps/validation`). What the spec itself holds the
//! template to (`restartPolicy: Always`, no `activeDeadlineSeconds`) stays:
//! the StatefulSetSpec's checks run after this.

use crate::preflight::violation::{Rule, Violation};
use crate::Version;

/// The first minor whose server validates a StatefulSet's pod template and
/// claim templates.
const STATEFULSET_TEMPLATES_FROM: Version = Version::new(1, 34);

/// The paths below an object of `definition` (dotted, from the object)
/// that the `target`'s server does not validate.
pub(in crate::preflight) fn parts(definition: &str, target: Version) -> &'static [&'static str] {
    if definition == "io.k8s.api.apps.v1.StatefulSetSpec" && target < STATEFULSET_TEMPLATES_FROM {
        &["template.spec", "volumeClaimTemplates"]
    } else {
        &[]
    }
}

/// Drops from `violations` the validation findings at or below `base`
/// joined with one of `parts` (decoding's stay: types, unknown fields,
/// fields of another minor, warnings).
pub(in crate::preflight) fn forget(violations: &mut Vec<Violation>, base: &str, parts: &[&str]) {
    violations.retain(|violation| {
        let validation = matches!(
            violation.rule,
            Rule::MissingRequired
                | Rule::Constraint
                | Rule::CrossField
                | Rule::ServerValidation
                | Rule::ValueNotAvailable
        );
        !(validation && parts.iter().any(|part| below(&violation.path, base, part)))
    });
}

/// Whether `path` is `base.part` or below it.
fn below(path: &str, base: &str, part: &str) -> bool {
    let rest = if base.is_empty() {
        Some(path)
    } else {
        path.strip_prefix(base)
            .and_then(|rest| rest.strip_prefix('.'))
    };
    rest.and_then(|rest| rest.strip_prefix(part))
        .is_some_and(|tail| tail.is_empty() || tail.starts_with(['.', '[']))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finding(rule: Rule, path: &str) -> Violation {
        Violation::new(rule, path, 1, String::new())
    }

    #[test]
    fn a_statefulsets_templates_go_unvalidated_before_1_34() {
        let spec = "io.k8s.api.apps.v1.StatefulSetSpec";
        assert!(parts(spec, Version::new(1, 34)).is_empty());
        assert!(parts("io.k8s.api.apps.v1.DeploymentSpec", Version::new(1, 33)).is_empty());
        let parts = parts(spec, Version::new(1, 33));
        let mut found = vec![
            finding(
                Rule::ServerValidation,
                "spec.template.spec.containers[0].image",
            ),
            finding(Rule::MissingRequired, "spec.template.spec.containers"),
            finding(
                Rule::Constraint,
                "spec.volumeClaimTemplates[0].spec.accessModes",
            ),
            finding(Rule::WrongType, "spec.template.spec.containers[0].ports"),
            finding(Rule::ServerValidation, "spec.template.metadata.labels"),
            finding(Rule::ServerValidation, "spec.template.specs"),
            finding(
                Rule::ServerValidation,
                "items[0].spec.template.spec.dnsPolicy",
            ),
        ];
        forget(&mut found, "spec", parts);
        let left: Vec<_> = found.iter().map(|v| v.path.as_str()).collect();
        assert_eq!(
            left,
            [
                "spec.template.spec.containers[0].ports",
                "spec.template.metadata.labels",
                "spec.template.specs",
                "items[0].spec.template.spec.dnsPolicy",
            ]
        );
    }
}
