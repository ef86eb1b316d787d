//! The apps and core workloads' checks: a selector matches its pod
//! template's labels, a `Recreate` strategy has no `rollingUpdate`.

use super::read::{get, line_of, string_map};
use super::{Broken, Scope, Table};
use crate::document::{Entry, Node, Value};
use crate::walk::go_quoted;
use std::collections::HashMap;
use std::fmt::Write;

/// The checks, by the definition of the object they read.
pub(super) const CHECKS: Table = &[
    // apps ValidateDeploymentSpec / ValidateReplicaSetSpec /
    // ValidateStatefulSetSpec / ValidateDaemonSetSpec:
    // ValidatePodTemplateSpecForReplicaSet and its kin.
    (
        "io.k8s.api.apps.v1.DeploymentSpec",
        selector_matches_template,
    ),
    (
        "io.k8s.api.apps.v1.ReplicaSetSpec",
        selector_matches_template,
    ),
    (
        "io.k8s.api.apps.v1.StatefulSetSpec",
        selector_matches_template,
    ),
    (
        "io.k8s.api.apps.v1.DaemonSetSpec",
        selector_matches_template,
    ),
    // core ValidateReplicationControllerSpec: a map selector.
    (
        "io.k8s.api.core.v1.ReplicationControllerSpec",
        selector_matches_template,
    ),
    // apps ValidateDeploymentStrategy.
    (
        "io.k8s.api.apps.v1.DeploymentStrategy",
        recreate_without_rolling_update,
    ),
];

/// A selector's verdict on a label set: `None` when the selector is empty
/// or does not read (the server reports those elsewhere), else whether it
/// matches.
fn selector_matches(selector: &Node, labels: &[(&str, &str)]) -> Option<bool> {
    // Hashed, so a selector of many keys over many labels stays linear (as
    // Go's map lookups are); the last of duplicate keys wins, as in Go.
    let labels: HashMap<&str, &str> = labels.iter().copied().collect();
    let label = |key: &str| labels.get(key).copied();
    let entries = selector.as_map()?;
    // A ReplicationController's selector is a plain map.
    let plain = !entries
        .iter()
        .any(|entry| entry.key == "matchLabels" || entry.key == "matchExpressions");
    let match_labels = if plain {
        string_map(Some(selector))
    } else {
        string_map(get(entries, "matchLabels"))
    };
    let expressions = if plain {
        &[][..]
    } else {
        match get(entries, "matchExpressions").map(|node| &node.value) {
            Some(Value::Seq(items)) => items.as_slice(),
            _ => &[][..],
        }
    };
    if match_labels.is_empty() && expressions.is_empty() {
        return None;
    }
    let mut matches = match_labels
        .iter()
        .all(|(key, value)| label(key) == Some(value));
    for expression in expressions {
        let entries = expression.as_map()?;
        let key = get(entries, "key")?.as_str()?;
        let operator = get(entries, "operator")?.as_str()?;
        let values: Vec<&str> = match get(entries, "values").map(|node| &node.value) {
            Some(Value::Seq(items)) => items.iter().filter_map(Node::as_str).collect(),
            _ => Vec::new(),
        };
        let found = label(key);
        matches &= match operator {
            "In" => found.is_some_and(|found| values.contains(&found)),
            "NotIn" => found.is_none_or(|found| !values.contains(&found)),
            "Exists" => found.is_some(),
            "DoesNotExist" => found.is_none(),
            // An operator the server refuses: reported by its enum.
            _ => return None,
        };
    }
    Some(matches)
}

/// Go's `%#v` of a `map[string]string`: keys sorted.
fn go_map(labels: &[(&str, &str)]) -> String {
    let mut sorted = labels.to_vec();
    sorted.sort_unstable();
    let mut out = String::from("map[string]string{");
    for (index, (key, value)) in sorted.iter().enumerate() {
        if index > 0 {
            out.push_str(", ");
        }
        let _ = write!(out, "{}:{}", go_quoted(key), go_quoted(value));
    }
    out.push('}');
    out
}

/// A workload's selector matches its pod template's labels.
fn selector_matches_template(_: &Scope, entries: &[Entry], line: u32, out: &mut Vec<Broken>) {
    let Some(selector) = get(entries, "selector") else {
        return;
    };
    let Some(template) = get(entries, "template").and_then(Node::as_map) else {
        return;
    };
    let metadata = get(template, "metadata");
    let labels_node = metadata
        .and_then(Node::as_map)
        .and_then(|m| get(m, "labels"));
    let labels = string_map(labels_node);
    let Some(false) = selector_matches(selector, &labels) else {
        return;
    };
    let line = metadata
        .and_then(Node::as_map)
        .map(|m| line_of(m, "labels", line))
        .unwrap_or_else(|| line_of(entries, "template", line));
    out.push(Broken {
        last: "template.metadata.labels".to_owned(),
        line,
        message: format!(
            "Invalid value: {}: `selector` does not match template `labels`",
            go_map(&labels)
        ),
    });
}

/// A `Recreate` strategy has no `rollingUpdate`.
fn recreate_without_rolling_update(_: &Scope, entries: &[Entry], line: u32, out: &mut Vec<Broken>) {
    let recreate = get(entries, "type").and_then(Node::as_str) == Some("Recreate");
    if recreate && get(entries, "rollingUpdate").is_some() {
        out.push(Broken {
            last: "rollingUpdate".to_owned(),
            line: line_of(entries, "rollingUpdate", line),
            message: "Forbidden: may not be specified when strategy `type` is 'Recreate'"
                .to_owned(),
        });
    }
}
