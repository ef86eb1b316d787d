//! policy's checks (k8s.io/kubernetes `pkg/apis/policy/validation`
//! `ValidatePodDisruptionBudgetSpec`): `minAvailable` or `maxUnavailable`,
//! each a non-negative number or a percentage up to 100 %, the selector,
//! the unhealthy-pod eviction policy.

use super::read::{entries, get, line_of, shown, Findings, Path};
use super::selector::label_selector;
use super::{Broken, Scope, Table};
use crate::document::{Entry, Node, Value};

/// The checks, by the definition of the object they read.
pub(super) const CHECKS: Table = &[(
    "io.k8s.api.policy.v1.PodDisruptionBudget",
    disruption_budget,
)];

/// `ValidatePodDisruptionBudgetSpec`.
fn disruption_budget(_: &Scope, object: &[Entry], line: u32, out: &mut Vec<Broken>) {
    let found = &mut Findings { out };
    let root = Path::Root;
    let spec_path = root.key("spec");
    let spec_node = get(object, "spec");
    let spec = entries(spec_node);
    let spec_line = line_of(object, "spec", line);
    let min = get(spec, "minAvailable");
    let max = get(spec, "maxUnavailable");
    if min.is_some() && max.is_some() {
        found.invalid(
            spec_path,
            spec_line,
            &shown(spec_node),
            "minAvailable and maxUnavailable cannot be both set",
        );
    }
    for (key, node) in [("minAvailable", min), ("maxUnavailable", max)] {
        if let Some(node) = node {
            int_or_percent(
                node,
                spec_path.key(key),
                line_of(spec, key, spec_line),
                found,
            );
        }
    }
    if let Some(selector) = get(spec, "selector") {
        label_selector(selector, spec_path.key("selector"), selector.line, found);
    }
    let policy = get(spec, "unhealthyPodEvictionPolicy").and_then(Node::as_str);
    if let Some(policy) = policy.filter(|p| !matches!(*p, "AlwaysAllow" | "IfHealthyBudget")) {
        found.not_supported(
            spec_path.key("unhealthyPodEvictionPolicy"),
            line_of(spec, "unhealthyPodEvictionPolicy", spec_line),
            policy,
            &["AlwaysAllow", "IfHealthyBudget"],
        );
    }
}

/// apps' `ValidatePositiveIntOrPercent` and `IsNotMoreThan100Percent`.
fn int_or_percent(node: &Node, at: Path<'_>, line: u32, found: &mut Findings<'_>) {
    match &node.value {
        Value::Int(value) if *value < 0 => {
            found.invalid(
                at,
                line,
                &value.to_string(),
                "must be greater than or equal to 0",
            );
        }
        Value::String(text) => {
            let digits = text
                .strip_suffix('%')
                .filter(|digits| !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()));
            match digits {
                None => found.invalid(
                    at,
                    line,
                    &shown(Some(node)),
                    "a valid percent string must be a numeric string followed by an ending '%' (regex used for validation is '[0-9]+%')",
                ),
                // Go's Atoi; a number past its range reads as 0.
                Some(digits) if digits.parse::<i64>().is_ok_and(|n| n > 100) => {
                    found.invalid(at, line, &shown(Some(node)), "must not be greater than 100%");
                }
                Some(_) => {}
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::super::read::found;

    const PDB: &str = "io.k8s.api.policy.v1.PodDisruptionBudget";

    #[test]
    fn budgets_and_selectors() {
        assert!(found(
            PDB,
            "spec: {minAvailable: 50%, selector: {matchLabels: {app: web}}}\n"
        )
        .is_empty());
        assert_eq!(
            found(PDB, "spec: {minAvailable: 1, maxUnavailable: -1}\n"),
            [
                "spec@1: Invalid value: {\"maxUnavailable\":-1,\"minAvailable\":1}: minAvailable and maxUnavailable cannot be both set",
                "spec.maxUnavailable@1: Invalid value: -1: must be greater than or equal to 0",
            ]
        );
        assert_eq!(
            found(PDB, "spec:\n  minAvailable: 150%\n  unhealthyPodEvictionPolicy: Never\n"),
            [
                "spec.minAvailable@2: Invalid value: \"150%\": must not be greater than 100%",
                "spec.unhealthyPodEvictionPolicy@3: Unsupported value: \"Never\": supported values: \"AlwaysAllow\", \"IfHealthyBudget\"",
            ]
        );
        assert_eq!(
            found(PDB, "spec: {selector: {matchLabels: {app: -x-}}}\n").len(),
            1
        );
    }
}
