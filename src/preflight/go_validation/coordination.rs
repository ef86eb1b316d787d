//! coordination's checks (k8s.io/kubernetes
//! `pkg/apis/coordination/validation` `ValidateLeaseSpec`): the duration
//! positive, the transitions not negative, a strategy before a preferred
//! holder.

use super::read::{entries, get, int, line_of, text, Findings, Path};
use super::{Broken, Scope, Table};
use crate::document::{Entry, Node};
use crate::preflight::names;

/// The checks, by the definition of the object they read.
pub(super) const CHECKS: Table = &[("io.k8s.api.coordination.v1.Lease", lease)];

/// `ValidateLeaseSpec`.
fn lease(_: &Scope, object: &[Entry], line: u32, out: &mut Vec<Broken>) {
    let found = &mut Findings { out };
    let root = Path::Root;
    let spec_path = root.key("spec");
    let spec = entries(get(object, "spec"));
    let at = |key| line_of(spec, key, line_of(object, "spec", line));
    if let Some(duration) = int(spec, "leaseDurationSeconds").filter(|value| *value <= 0) {
        found.invalid(
            spec_path.key("leaseDurationSeconds"),
            at("leaseDurationSeconds"),
            &duration.to_string(),
            "must be greater than 0",
        );
    }
    if let Some(transitions) = int(spec, "leaseTransitions").filter(|value| *value < 0) {
        found.invalid(
            spec_path.key("leaseTransitions"),
            at("leaseTransitions"),
            &transitions.to_string(),
            "must be greater than or equal to 0",
        );
    }
    let strategy = get(spec, "strategy").and_then(Node::as_str);
    if let Some(strategy) = strategy {
        // ValidateCoordinatedLeaseStrategy reports at `strategy.strategy`.
        let path = spec_path.key("strategy");
        if strategy.contains('/') {
            found.invalid_each(
                path.key("strategy"),
                at("strategy"),
                strategy,
                names::qualified_name(strategy),
            );
        } else if strategy != "OldestEmulationVersion" {
            found.not_supported(
                path.key("strategy"),
                at("strategy"),
                strategy,
                &["OldestEmulationVersion"],
            );
        }
    }
    if !text(spec, "preferredHolder").is_empty() && strategy.unwrap_or("").is_empty() {
        found.forbidden(
            spec_path.key("preferredHolder"),
            at("preferredHolder"),
            "may only be specified if `strategy` is defined",
        );
    }
}

#[cfg(test)]
mod tests {
    use super::super::read::found;

    #[test]
    fn durations_and_transitions() {
        const LEASE: &str = "io.k8s.api.coordination.v1.Lease";
        assert!(found(
            LEASE,
            "spec: {holderIdentity: a, leaseDurationSeconds: 15}\n"
        )
        .is_empty());
        assert_eq!(
            found(
                LEASE,
                "spec:\n  leaseDurationSeconds: 0\n  leaseTransitions: -1\n  preferredHolder: b\n"
            ),
            [
                "spec.leaseDurationSeconds@2: Invalid value: 0: must be greater than 0",
                "spec.leaseTransitions@3: Invalid value: -1: must be greater than or equal to 0",
                "spec.preferredHolder@4: Forbidden: may only be specified if `strategy` is defined",
            ]
        );
    }
}
