//! Where a pod may run (core `ValidateTolerations`,
//! `ValidateNodeSelectorRequirement` of node affinity terms,
//! `validateTopologySpreadConstraints`) and its host aliases
//! (`ValidateHostAliases`).

use super::super::field_error::{
    forbidden, int_at, invalid_int, invalid_str, items_at, push, required, required_when_empty,
    str_at,
};
use super::super::read::{get, line_of};
use super::super::{Broken, Scope, Table};
use crate::document::{Entry, Node};
use crate::preflight::names;

/// The checks, by the definition of the object they read.
pub(in crate::preflight::go_validation) const CHECKS: Table = &[
    ("io.k8s.api.core.v1.Toleration", toleration),
    ("io.k8s.api.core.v1.NodeSelectorTerm", node_selector_term),
    (
        "io.k8s.api.core.v1.TopologySpreadConstraint",
        topology_spread,
    ),
    ("io.k8s.api.core.v1.HostAlias", host_alias),
];

/// One toleration of `ValidateTolerations`.
fn toleration(_: &Scope, entries: &[Entry], line: u32, out: &mut Vec<Broken>) {
    let key = str_at(entries, "key").unwrap_or_default();
    let operator = str_at(entries, "operator").unwrap_or_default();
    let value = str_at(entries, "value").unwrap_or_default();
    let at = |field: &str| line_of(entries, field, line);
    for message in names::qualified_name(key)
        .into_iter()
        .filter(|_| !key.is_empty())
    {
        push(out, "key".to_owned(), at("key"), invalid_str(key, &message));
    }
    if key.is_empty() && operator != "Exists" {
        let message = invalid_str(
            operator,
            "operator must be Exists when `key` is empty, which means \"match all values and all keys\"",
        );
        push(out, "operator".to_owned(), at("operator"), message);
    }
    if get(entries, "tolerationSeconds").is_some() && str_at(entries, "effect") != Some("NoExecute")
    {
        let effect = str_at(entries, "effect").unwrap_or_default();
        let message = invalid_str(
            effect,
            "effect must be 'NoExecute' when `tolerationSeconds` is set",
        );
        push(out, "effect".to_owned(), at("effect"), message);
    }
    match operator {
        "" | "Equal" => {
            let messages = names::label_value(value);
            if !messages.is_empty() {
                let message = invalid_str(value, &messages.join(";"));
                push(out, "operator".to_owned(), at("value"), message);
            }
        }
        "Exists" if !value.is_empty() => {
            let message = invalid_str(value, "value must be empty when `operator` is 'Exists'");
            push(out, "operator".to_owned(), at("value"), message);
        }
        // Other operators are the enum's (and a feature gate's).
        _ => {}
    }
}

/// A node selector term's `matchExpressions` (label requirements).
fn node_selector_term(_: &Scope, entries: &[Entry], _: u32, out: &mut Vec<Broken>) {
    for (index, requirement) in items_at(entries, "matchExpressions").iter().enumerate() {
        if let Some(requirement) = requirement.as_map() {
            node_requirement(requirement, index, out);
        }
    }
}

/// `ValidateNodeSelectorRequirement` (`at`: its index in
/// `matchExpressions`, written into a path only for a finding).
fn node_requirement(entries: &[Entry], at: usize, out: &mut Vec<Broken>) {
    let prefix = format_args!("matchExpressions[{at}].");
    let values = items_at(entries, "values");
    let line = line_of(entries, "operator", 0);
    let values_line = line_of(entries, "values", line);
    match str_at(entries, "operator").unwrap_or_default() {
        "In" | "NotIn" if values.is_empty() => {
            let message = required("must be specified when `operator` is 'In' or 'NotIn'");
            push(out, format!("{prefix}values"), values_line, message);
        }
        "Exists" | "DoesNotExist" if !values.is_empty() => {
            let message =
                forbidden("may not be specified when `operator` is 'Exists' or 'DoesNotExist'");
            push(out, format!("{prefix}values"), values_line, message);
        }
        "Gt" | "Lt" if values.len() != 1 => {
            let message =
                required("must be specified single value when `operator` is 'Lt' or 'Gt'");
            push(out, format!("{prefix}values"), values_line, message);
        }
        // Another operator is the enum's.
        _ => {}
    }
    let key = str_at(entries, "key").unwrap_or_default();
    for message in names::qualified_name(key) {
        let line = line_of(entries, "key", line);
        push(
            out,
            format!("{prefix}key"),
            line,
            invalid_str(key, &message),
        );
    }
    for (index, value) in values.iter().enumerate() {
        let Some(text) = value.as_str() else {
            continue;
        };
        for message in names::label_value(text) {
            let last = format!("{prefix}values[{index}]");
            push(out, last, value.line, invalid_str(text, &message));
        }
    }
}

/// One constraint of `validateTopologySpreadConstraints`.
fn topology_spread(_: &Scope, entries: &[Entry], line: u32, out: &mut Vec<Broken>) {
    if let Some(skew) = int_at(entries, "maxSkew").filter(|skew| *skew <= 0) {
        let line = line_of(entries, "maxSkew", line);
        push(
            out,
            "maxSkew".to_owned(),
            line,
            invalid_int(skew, "must be greater than zero"),
        );
    }
    required_when_empty(entries, "topologyKey", "can not be empty", line, out);
    if let Some(domains) = int_at(entries, "minDomains") {
        let line = line_of(entries, "minDomains", line);
        if domains <= 0 {
            let message = invalid_int(domains, "must be greater than zero");
            push(out, "minDomains".to_owned(), line, message);
        }
        let action = str_at(entries, "whenUnsatisfiable").unwrap_or_default();
        if action != "DoNotSchedule" {
            let message = invalid_int(
                domains,
                &format!(
                    "can only use minDomains if whenUnsatisfiable=DoNotSchedule, not {action}"
                ),
            );
            push(out, "minDomains".to_owned(), line, message);
        }
    }
}

/// A host alias: an IP address, and DNS subdomains as host names.
fn host_alias(_: &Scope, entries: &[Entry], line: u32, out: &mut Vec<Broken>) {
    let ip = str_at(entries, "ip").unwrap_or_default();
    if !super::is_legacy_ip(ip) {
        let line = line_of(entries, "ip", line);
        push(
            out,
            "ip".to_owned(),
            line,
            invalid_str(ip, super::IP_MESSAGE),
        );
    }
    for (index, host) in items_at(entries, "hostnames").iter().enumerate() {
        let Some(text) = Node::as_str(host) else {
            continue;
        };
        for message in names::dns1123_subdomain(text) {
            let last = format!("hostnames[{index}]");
            push(out, last, host.line, invalid_str(text, &message));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::tests::messages;

    #[test]
    fn scheduling_rules() {
        let t = "io.k8s.api.core.v1.Toleration";
        assert_eq!(
            messages(t, "key: k\noperator: Exists\nvalue: v\n"),
            ["operator@3: Invalid value: \"v\": value must be empty when `operator` is 'Exists'"]
        );
        assert!(messages(t, "operator: Exists\n").is_empty());
        assert!(messages(t, "key: k\nvalue: v\neffect: NoSchedule\n").is_empty());
        assert_eq!(messages(t, "key: Bad Key\noperator: Exists\n").len(), 1);
        let term = "matchExpressions:\n- key: zone\n  operator: In\n";
        assert_eq!(
            messages("io.k8s.api.core.v1.NodeSelectorTerm", term),
            ["matchExpressions[0].values@3: Required value: must be specified when `operator` is 'In' or 'NotIn'"]
        );
        assert_eq!(
            messages(
                "io.k8s.api.core.v1.TopologySpreadConstraint",
                "maxSkew: 0\ntopologyKey: zone\nwhenUnsatisfiable: DoNotSchedule\n"
            ),
            ["maxSkew@1: Invalid value: 0: must be greater than zero"]
        );
        assert_eq!(
            messages("io.k8s.api.core.v1.HostAlias", "ip: not-an-ip\n"),
            ["ip@1: Invalid value: \"not-an-ip\": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)"]
        );
        assert!(messages(
            "io.k8s.api.core.v1.HostAlias",
            "ip: 010.0.0.1\nhostnames: [a.b]\n"
        )
        .is_empty());
    }
}
