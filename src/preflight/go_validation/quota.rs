//! The checks of LimitRanges and ResourceQuotas (core `ValidateLimitRange`,
//! `ValidateResourceQuotaSpec`, `ValidateResourceQuotaStatus` and the
//! resource-name rules they call): standard resource names, quantities in
//! order (min ≤ default request ≤ default ≤ max, after the server's
//! defaults of a `Container` limit), quotas not negative, scopes that
//! apply to the quota's resources.

use super::field_error::{at, duplicate, forbidden, invalid_raw, invalid_str, required};
use super::read::{entries_of, get, go_text, has_slash, items_at, line_of, scalar_text, Set};
use super::resource_names::{
    container_resource_name, is_integer, is_quota_huge_pages, overcommit_allowed, resource_name,
    STANDARD,
};
use super::{Broken, Scope, Table};
use crate::cel::library::quantity::Quantity;
use crate::document::{Entry, Node};
use crate::preflight::names::qualified_name;
use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};

/// The checks, by the definition of the object they read.
pub(super) const CHECKS: Table = &[
    ("io.k8s.api.core.v1.LimitRange", limit_range),
    ("io.k8s.api.core.v1.ResourceQuota", resource_quota),
];

/// `standardQuotaResources`: the standard names but `storage`.
fn standard_for_quota(name: &str) -> bool {
    name != "storage" && STANDARD.contains(&name) || is_quota_huge_pages(name)
}

/// A quantity as written (Go's `String()` would canonicalize it: vergate
/// says it as the document does) and its value, when it reads.
struct Amount<'e> {
    /// Borrowed from the document (an integer's text is made).
    written: std::borrow::Cow<'e, str>,
    value: Quantity,
    line: u32,
}

/// The quantities of a resource list, by name, in order (`null` is zero).
fn amounts(list: &[Entry]) -> BTreeMap<&str, Amount<'_>> {
    list.iter()
        .filter_map(|entry| {
            let written = scalar_text(&entry.value)?;
            let value = Quantity::parse(written.trim()).ok()?;
            let amount = Amount {
                written,
                value,
                line: entry.line,
            };
            Some((entry.key.as_str(), amount))
        })
        .collect()
}

/// Clones an amount for the server's defaulting.
fn copy<'e>(amount: &Amount<'e>) -> Amount<'e> {
    Amount {
        written: amount.written.clone(),
        value: amount.value,
        line: amount.line,
    }
}

/// core `ValidateLimitRange` (the spec; metadata is ObjectMeta's).
fn limit_range(_: &Scope, entries: &[Entry], line: u32, out: &mut Vec<Broken>) {
    let spec = entries_of(entries, "spec");
    let mut types = Set::default();
    for (index, limit) in items_at(spec, "limits").iter().enumerate() {
        let Some(limit) = limit.as_map() else {
            continue;
        };
        let path = format!("spec.limits[{index}]");
        let line = limit_line(limit, line);
        let Some(kind) = go_text(limit, "type") else {
            continue;
        };
        let type_line = line_of(limit, "type", line);
        let mut type_errors = qualified_name(kind);
        if type_errors.is_empty()
            && !has_slash(kind)
            && !matches!(kind, "Pod" | "Container" | "PersistentVolumeClaim")
        {
            type_errors.push("must be a standard limit type or fully qualified".to_owned());
        }
        for message in type_errors {
            out.push(at(
                format!("{path}.type"),
                type_line,
                invalid_str(kind, &message),
            ));
        }
        if !types.insert(kind) {
            out.push(at(format!("{path}.type"), type_line, duplicate(kind)));
        }
        limit_item(&path, kind, limit, line, out);
    }
}

/// The line of a limit item (its first key's).
fn limit_line(limit: &[Entry], or: u32) -> u32 {
    limit.first().map_or(or, |entry| entry.line)
}

/// One limit of a LimitRange: its resource names and quantities in order.
fn limit_item(path: &str, kind: &str, limit: &[Entry], line: u32, out: &mut Vec<Broken>) {
    let lists = [
        "max",
        "min",
        "default",
        "defaultRequest",
        "maxLimitRequestRatio",
    ];
    let [max, min, mut defaults, mut requests, ratios] =
        lists.map(|key| amounts(entries_of(limit, key)));
    let pod = kind == "Pod";
    if kind == "Container" {
        // SetDefaults_LimitRangeItem.
        for (key, value) in &max {
            defaults.entry(key).or_insert_with(|| copy(value));
        }
        for (key, value) in &defaults {
            requests.entry(key).or_insert_with(|| copy(value));
        }
        for (key, value) in &min {
            requests.entry(key).or_insert_with(|| copy(value));
        }
    }
    let name_check = |name: &str| {
        if matches!(kind, "Pod" | "Container") {
            container_resource_name(name)
        } else {
            resource_name(name)
        }
    };
    for key in lists {
        let list = entries_of(limit, key);
        if pod && matches!(key, "default" | "defaultRequest") {
            if !list.is_empty() {
                out.push(at(
                    format!("{path}.{key}"),
                    line_of(limit, key, line),
                    forbidden("may not be specified when `type` is 'Pod'"),
                ));
            }
            continue;
        }
        // Each name once, with its line (a defaulted one: its source's).
        let mut names: BTreeMap<&str, u32> = list
            .iter()
            .map(|entry| (entry.key.as_str(), entry.line))
            .collect();
        let defaulted = match key {
            "default" => Some(&defaults),
            "defaultRequest" => Some(&requests),
            _ => None,
        };
        for (name, amount) in defaulted.into_iter().flatten() {
            names.entry(name).or_insert(amount.line);
        }
        for (name, line) in names {
            for message in name_check(name) {
                out.push(at(
                    format!("{path}.{key}[{name}]"),
                    line,
                    invalid_str(name, &message),
                ));
            }
        }
    }
    if kind == "PersistentVolumeClaim"
        && !min.contains_key("storage")
        && !max.contains_key("storage")
    {
        out.push(at(
            format!("{path}.limits"),
            line,
            required(
                "either minimum or maximum storage value is required, but neither was provided",
            ),
        ));
    }
    let (defaults, requests) = if pod {
        (BTreeMap::new(), BTreeMap::new())
    } else {
        (defaults, requests)
    };
    let keys: BTreeSet<&str> = [&max, &min, &defaults, &requests, &ratios]
        .iter()
        .flat_map(|list| list.keys().copied())
        .collect();
    for key in keys {
        let greater = |a: Option<&Amount>, b: Option<&Amount>| matches!((a, b), (Some(a), Some(b)) if a.value.compare(&b.value) == Ordering::Greater);
        let (lo, hi, dflt, request) = (
            min.get(key),
            max.get(key),
            defaults.get(key),
            requests.get(key),
        );
        let mut push = |list: &str, shown: Option<&Amount>, message: String| {
            if let Some(shown) = shown {
                out.push(at(
                    format!("{path}.{list}[{key}]"),
                    shown.line,
                    invalid_str(&shown.written, &message),
                ));
            }
        };
        let w = |amount: Option<&Amount>| amount.map_or(String::new(), |a| a.written.to_string());
        if greater(lo, hi) {
            push(
                "min",
                lo,
                format!("min value {} is greater than max value {}", w(lo), w(hi)),
            );
        }
        if greater(lo, request) {
            push(
                "defaultRequest",
                request,
                format!(
                    "min value {} is greater than default request value {}",
                    w(lo),
                    w(request)
                ),
            );
        }
        if greater(request, hi) {
            push(
                "defaultRequest",
                request,
                format!(
                    "default request value {} is greater than max value {}",
                    w(request),
                    w(hi)
                ),
            );
        }
        if greater(request, dflt) {
            push(
                "defaultRequest",
                request,
                format!(
                    "default request value {} is greater than default limit value {}",
                    w(request),
                    w(dflt)
                ),
            );
        }
        if greater(lo, dflt) {
            // The server shows the minimum here, and the maximum below.
            push(
                "default",
                lo,
                format!(
                    "min value {} is greater than default value {}",
                    w(lo),
                    w(dflt)
                ),
            );
        }
        if greater(dflt, hi) {
            push(
                "default",
                hi,
                format!(
                    "default value {} is greater than max value {}",
                    w(dflt),
                    w(hi)
                ),
            );
        }
        if let Some(ratio) = ratios.get(key) {
            if ratio.value.compare(&Quantity::from_i64(1)) == Ordering::Less {
                push(
                    "maxLimitRequestRatio",
                    Some(ratio),
                    format!("ratio {} is less than 1", ratio.written),
                );
            }
        }
        let overcommit = overcommit_allowed(key);
        if let (false, Some(d), Some(r)) = (overcommit, dflt, request) {
            if d.value.compare(&r.value) != Ordering::Equal {
                push(
                    "defaultRequest",
                    request,
                    format!(
                        "default value {} must equal to defaultRequest value {} in {key}",
                        d.written, r.written
                    ),
                );
            }
        }
    }
}

/// core `ValidateResourceQuota`: its spec and status.
fn resource_quota(_: &Scope, entries: &[Entry], line: u32, out: &mut Vec<Broken>) {
    let spec = entries_of(entries, "spec");
    let spec_line = line_of(entries, "spec", line);
    let hard = entries_of(spec, "hard");
    quota_list("spec.hard", hard, out);
    let status = entries_of(entries, "status");
    quota_list("status.hard", entries_of(status, "hard"), out);
    quota_list("status.used", entries_of(status, "used"), out);
    let names: BTreeSet<&str> = hard.iter().map(|entry| entry.key.as_str()).collect();
    scopes(spec, spec_line, &names, out);
    scope_selector(spec, spec_line, &names, out);
}

/// The names and quantities of a quota's list.
fn quota_list(path: &str, list: &[Entry], out: &mut Vec<Broken>) {
    for entry in list {
        let name = entry.key.as_str();
        // Written out only for a finding.
        let path = || format!("{path}[{name}]");
        let mut errors = resource_name(name);
        if !has_slash(name) && !standard_for_quota(name) {
            errors.push("must be a standard resource for quota".to_owned());
        }
        for message in errors {
            out.push(at(path(), entry.line, invalid_str(name, &message)));
        }
        let Some(written) = scalar_text(&entry.value) else {
            continue;
        };
        let Ok(value) = Quantity::parse(written.trim()) else {
            continue;
        };
        if value.sign() < 0 {
            out.push(at(
                path(),
                entry.line,
                invalid_str(&written, "must be greater than or equal to 0"),
            ));
        }
        if is_integer(name) && !value.is_integer() {
            out.push(at(
                path(),
                entry.line,
                invalid_str(&written, "must be an integer"),
            ));
        }
    }
}

/// `IsStandardResourceQuotaScope`.
fn standard_scope(scope: &str) -> bool {
    matches!(
        scope,
        "Terminating"
            | "NotTerminating"
            | "BestEffort"
            | "NotBestEffort"
            | "PriorityClass"
            | "VolumeAttributesClass"
            | "CrossNamespacePodAffinity"
    )
}

/// `IsResourceQuotaScopeValidForResource`.
fn scope_applies(scope: &str, resource: &str) -> bool {
    let pod_count = resource == "pods";
    let pod_compute = matches!(
        resource,
        "cpu" | "memory" | "limits.cpu" | "limits.memory" | "requests.cpu" | "requests.memory"
    );
    match scope {
        "Terminating"
        | "NotTerminating"
        | "NotBestEffort"
        | "PriorityClass"
        | "CrossNamespacePodAffinity" => pod_count || pod_compute,
        "BestEffort" => pod_count,
        "VolumeAttributesClass" => {
            matches!(resource, "persistentvolumeclaims" | "requests.storage")
        }
        _ => true,
    }
}

/// Scopes that conflict: both of a pair.
fn conflicting(scopes: &Set<&str>) -> usize {
    [
        ("BestEffort", "NotBestEffort"),
        ("Terminating", "NotTerminating"),
    ]
    .iter()
    .filter(|(a, b)| scopes.contains(a) && scopes.contains(b))
    .count()
}

/// `validateResourceQuotaScopes`.
fn scopes(spec: &[Entry], line: u32, hard: &BTreeSet<&str>, out: &mut Vec<Broken>) {
    let scopes: Vec<&str> = items_at(spec, "scopes")
        .iter()
        .filter_map(Node::as_str)
        .collect();
    if scopes.is_empty() {
        return;
    }
    let line = line_of(spec, "scopes", line);
    let shown = super::field_error::json_list(&scopes);
    let mut push = |message: &str| out.push(at("spec.scopes", line, invalid_raw(&shown, message)));
    // Go repeats each message per scope (and per resource), each with the
    // whole list: once each says the same and keeps the findings linear in
    // the document.
    if !scopes.iter().all(|scope| standard_scope(scope)) {
        push("unsupported scope");
    }
    let misapplied = |scope: &&str| {
        hard.iter()
            .any(|resource| standard_for_quota(resource) && !scope_applies(scope, resource))
    };
    if scopes.iter().any(misapplied) {
        push("unsupported scope applied to resource");
    }
    for _ in 0..conflicting(&scopes.iter().copied().collect()) {
        push("conflicting scopes");
    }
}

/// `validateScopedResourceSelectorRequirement`.
fn scope_selector(spec: &[Entry], line: u32, hard: &BTreeSet<&str>, out: &mut Vec<Broken>) {
    let Some(selector) = get(spec, "scopeSelector") else {
        return;
    };
    let selector_line = line_of(spec, "scopeSelector", line);
    let selector = selector.as_map().unwrap_or(&[]);
    let expressions = items_at(selector, "matchExpressions");
    let path = "spec.scopeSelector.matchExpressions";
    let shown = || selector_json(expressions);
    let mut scopes = Set::default();
    let mut said_misapplied = false;
    for expression in expressions {
        let Some(expression) = expression.as_map() else {
            continue;
        };
        let line = limit_line(expression, selector_line);
        let scope = go_text(expression, "scopeName").unwrap_or("");
        let operator = go_text(expression, "operator").unwrap_or("");
        let values = items_at(expression, "values");
        if !standard_scope(scope) {
            out.push(at(
                format!("{path}.scopeName"),
                line,
                invalid_str(scope, "unsupported scope"),
            ));
        }
        // Go says this per expression and resource, each with the whole
        // selector: once says the same, in space linear in the document.
        let misapplied = hard
            .iter()
            .any(|resource| standard_for_quota(resource) && !scope_applies(scope, resource));
        if misapplied && !said_misapplied {
            said_misapplied = true;
            out.push(at(
                path,
                line,
                invalid_raw(&shown(), "unsupported scope applied to resource"),
            ));
        }
        if matches!(
            scope,
            "BestEffort"
                | "NotBestEffort"
                | "Terminating"
                | "NotTerminating"
                | "CrossNamespacePodAffinity"
        ) && operator != "Exists"
        {
            out.push(at(format!("{path}.operator"), line, invalid_str(operator, "must be 'Exists' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity")));
        }
        match operator {
            "In" | "NotIn" if values.is_empty() => out.push(at(
                format!("{path}.values"),
                line,
                required("must be at least one value when `operator` is 'In' or 'NotIn' for scope selector"),
            )),
            "Exists" | "DoesNotExist" if !values.is_empty() => {
                let values: Vec<&str> = values.iter().filter_map(Node::as_str).collect();
                out.push(at(
                    format!("{path}.values"),
                    line,
                    invalid_raw(&super::field_error::json_list(&values), "must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector"),
                ));
            }
            "In" | "NotIn" | "Exists" | "DoesNotExist" => {}
            _ => out.push(at(format!("{path}.operator"), line, invalid_str(operator, "not a valid selector operator"))),
        }
        scopes.insert(scope);
    }
    for _ in 0..conflicting(&scopes) {
        // The server shows the `scopes` list here, as Go's code does.
        let listed: Vec<&str> = items_at(spec, "scopes")
            .iter()
            .filter_map(Node::as_str)
            .collect();
        let shown = if listed.is_empty() {
            "null".to_owned()
        } else {
            super::field_error::json_list(&listed)
        };
        out.push(at(
            path,
            selector_line,
            invalid_raw(&shown, "conflicting scopes"),
        ));
    }
}

/// The scope selector as the server prints it (Go's JSON of the struct).
fn selector_json(expressions: &[Node]) -> String {
    let list: Vec<serde_json::Value> = expressions
        .iter()
        .filter_map(Node::as_map)
        .map(|expression| {
            let values = get(expression, "values").map(|_| {
                items_at(expression, "values")
                    .iter()
                    .filter_map(Node::as_str)
                    .collect::<Vec<_>>()
            });
            format!(
                "{{\"ScopeName\":{},\"Operator\":{},\"Values\":{}}}",
                serde_json::Value::from(go_text(expression, "scopeName").unwrap_or("")),
                serde_json::Value::from(go_text(expression, "operator").unwrap_or("")),
                values.map_or("null".to_owned(), |values| super::field_error::json_list(
                    &values
                )),
            )
        })
        .map(serde_json::Value::String)
        .collect();
    let inner: Vec<String> = list
        .iter()
        .filter_map(|value| value.as_str().map(str::to_owned))
        .collect();
    format!("{{\"MatchExpressions\":[{}]}}", inner.join(","))
}

#[cfg(test)]
mod tests {
    use super::super::tests::messages_at;
    use crate::Version;

    fn limits(yaml: &str) -> Vec<String> {
        messages_at("io.k8s.api.core.v1.LimitRange", yaml, Version::new(1, 35))
    }

    fn quota(yaml: &str) -> Vec<String> {
        messages_at(
            "io.k8s.api.core.v1.ResourceQuota",
            yaml,
            Version::new(1, 35),
        )
    }

    #[test]
    fn limit_ranges_order_their_quantities() {
        assert!(
            limits("spec:\n  limits:\n  - {type: Container, max: {cpu: 2}, min: {cpu: 1}}\n")
                .is_empty()
        );
        assert_eq!(
            limits("spec:\n  limits:\n  - type: Container\n    max: {cpu: '1'}\n    min: {cpu: '2'}\n"),
            [
                "spec.limits[0].min[cpu]@5: Invalid value: \"2\": min value 2 is greater than max value 1",
                "spec.limits[0].defaultRequest[cpu]@4: Invalid value: \"1\": min value 2 is greater than default request value 1",
                "spec.limits[0].default[cpu]@5: Invalid value: \"2\": min value 2 is greater than default value 1",
            ]
        );
        assert_eq!(
            limits("spec:\n  limits:\n  - {type: Container}\n  - {type: Container}\n"),
            ["spec.limits[1].type@4: Duplicate value: \"Container\""]
        );
        assert_eq!(
            limits("spec:\n  limits:\n  - {type: CONTAINER}\n"),
            ["spec.limits[0].type@3: Invalid value: \"CONTAINER\": must be a standard limit type or fully qualified"]
        );
        assert_eq!(
            limits("spec:\n  limits:\n  - {type: Pod, default: {cpu: 1}}\n"),
            ["spec.limits[0].default@3: Forbidden: may not be specified when `type` is 'Pod'"]
        );
        assert_eq!(
            limits("spec:\n  limits:\n  - {type: Container, defaultRequest: {Cpu: 1}}\n").len(),
            2
        );
    }

    #[test]
    fn quotas_are_standard_and_not_negative() {
        assert!(
            quota("spec:\n  hard: {pods: '10', requests.cpu: 4, count/deployments.apps: 5}\n")
                .is_empty()
        );
        assert_eq!(
            quota("spec:\n  hard: {pods: '-1'}\n"),
            ["spec.hard[pods]@2: Invalid value: \"-1\": must be greater than or equal to 0"]
        );
        assert_eq!(
            quota("spec:\n  hard: {pods: 1.5}\n"),
            ["spec.hard[pods]@2: Invalid value: \"1.5\": must be an integer"]
        );
        assert_eq!(
            quota("spec:\n  hard: {Pods: '1'}\n"),
            [
                "spec.hard[Pods]@2: Invalid value: \"Pods\": must be a standard resource type or fully qualified",
                "spec.hard[Pods]@2: Invalid value: \"Pods\": must be a standard resource for quota"
            ]
        );
        let selector = "  scopeSelector:\n    matchExpressions:\n    - {scopeName: PriorityClass, operator: In, values: [a]}\n";
        // Go's findings grow with scopes × resources, each holding the
        // whole list; vergate's stay linear (one finding per message).
        let many_scopes = vec!["BestEffort"; 2000].join(", ");
        let big = format!("spec:\n  scopes: [{many_scopes}]\n  hard: {{cpu: '1', memory: '1'}}\n");
        assert_eq!(quota(&big).len(), 1);
        let expressions =
            "    - {scopeName: PriorityClass, operator: In, values: [a]}\n".repeat(2000);
        let big = format!("spec:\n  hard: {{secrets: '1'}}\n  scopeSelector:\n    matchExpressions:\n{expressions}");
        assert_eq!(quota(&big).len(), 1);
        assert!(quota(&format!("spec:\n  hard: {{pods: '1'}}\n{selector}")).is_empty());
        assert_eq!(
            quota(&format!("spec:\n  hard: {{persistentvolumeclaims: '1'}}\n{selector}")),
            ["spec.scopeSelector.matchExpressions@5: Invalid value: {\"MatchExpressions\":[{\"ScopeName\":\"PriorityClass\",\"Operator\":\"In\",\"Values\":[\"a\"]}]}: unsupported scope applied to resource"]
        );
    }
}
