//! Checks of the Kubernetes API server's Go validation (k8s.io/kubernetes
//! `pkg/apis/*/validation`) that no schema states and no refinement shape
//! can say, per object type, with the server's words and paths (rule
//! `server-validation`). What a refinement can say is declared there
//! instead (upstream-specs/kubernetes/refinements.toml: `replicas` not
//! negative, container and volume names unique), so Pkl enforces it too.
//!
//! To add a check: a line in [`CHECKS`] (the definition it applies to and
//! the function), the function, a CLI test, and a line in docs/cli.md.

use crate::document::{Entry, Node, Value};
use crate::walk::go_quoted;
use std::collections::HashMap;
use std::fmt::Write;

/// One broken check: the path below the object (`template.metadata.labels`),
/// the line, and the server's message.
pub(super) struct Broken {
    pub last: &'static str,
    pub line: u32,
    pub message: String,
}

type Check = fn(&[Entry], u32) -> Option<Broken>;

/// The checks, by the definition of the object they read (each from the
/// named function of the API server's validation).
const CHECKS: &[(&str, Check)] = &[
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
    // core validateContainerCommon.
    ("io.k8s.api.core.v1.Container", image_required),
    ("io.k8s.api.core.v1.EphemeralContainer", image_required),
    // core validateSeccompProfileField.
    ("io.k8s.api.core.v1.SeccompProfile", localhost_profile),
];

/// Whether any check reads objects of `definition` (a cheap test the
/// visitor makes for every object).
pub(super) fn applies(definition: &str) -> bool {
    definition.starts_with("io.k8s.api.") && CHECKS.iter().any(|(name, _)| *name == definition)
}

/// The checks of `definition` that the object (its `entries`, at `line`)
/// breaks.
pub(super) fn check(definition: &str, entries: &[Entry], line: u32) -> Vec<Broken> {
    CHECKS
        .iter()
        .filter(|(name, _)| *name == definition)
        .filter_map(|(_, check)| check(entries, line))
        .collect()
}

fn get<'e>(entries: &'e [Entry], key: &str) -> Option<&'e Node> {
    entries
        .iter()
        .find(|entry| entry.key == key)
        .map(|entry| &entry.value)
        .filter(|node| !matches!(node.value, Value::Null))
}

fn line_of(entries: &[Entry], key: &str, or: u32) -> u32 {
    entries
        .iter()
        .find(|entry| entry.key == key)
        .map_or(or, |entry| entry.line)
}

/// The string entries of a mapping (labels), as Go's map holds them.
fn string_map(node: Option<&Node>) -> Vec<(&str, &str)> {
    let Some(entries) = node.and_then(Node::as_map) else {
        return Vec::new();
    };
    entries
        .iter()
        .filter_map(|entry| Some((entry.key.as_str(), entry.value.as_str()?)))
        .collect()
}

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
fn selector_matches_template(entries: &[Entry], line: u32) -> Option<Broken> {
    let selector = get(entries, "selector")?;
    let template = get(entries, "template")?.as_map()?;
    let metadata = get(template, "metadata");
    let labels_node = metadata
        .and_then(Node::as_map)
        .and_then(|m| get(m, "labels"));
    let labels = string_map(labels_node);
    if selector_matches(selector, &labels)? {
        return None;
    }
    let line = metadata
        .and_then(Node::as_map)
        .map(|m| line_of(m, "labels", line))
        .unwrap_or_else(|| line_of(entries, "template", line));
    Some(Broken {
        last: "template.metadata.labels",
        line,
        message: format!(
            "Invalid value: {}: `selector` does not match template `labels`",
            go_map(&labels)
        ),
    })
}

/// A `Recreate` strategy has no `rollingUpdate`.
fn recreate_without_rolling_update(entries: &[Entry], line: u32) -> Option<Broken> {
    let recreate = get(entries, "type").and_then(Node::as_str) == Some("Recreate");
    (recreate && get(entries, "rollingUpdate").is_some()).then(|| Broken {
        last: "rollingUpdate",
        line: line_of(entries, "rollingUpdate", line),
        message: "Forbidden: may not be specified when strategy `type` is 'Recreate'".to_owned(),
    })
}

/// A container names its image.
fn image_required(entries: &[Entry], line: u32) -> Option<Broken> {
    let image = get(entries, "image");
    let empty = match image.map(|node| &node.value) {
        None => true,
        Some(Value::String(text)) => text.is_empty(),
        // Another type is the walk's `wrong-type`.
        Some(_) => false,
    };
    empty.then(|| Broken {
        last: "image",
        line: line_of(entries, "image", line),
        message: "Required value".to_owned(),
    })
}

/// A `Localhost` seccomp profile names its `localhostProfile`.
fn localhost_profile(entries: &[Entry], line: u32) -> Option<Broken> {
    let localhost = get(entries, "type").and_then(Node::as_str) == Some("Localhost");
    (localhost && get(entries, "localhostProfile").is_none()).then(|| Broken {
        last: "localhostProfile",
        line,
        message: "Required value: must be set when seccomp type is Localhost".to_owned(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn messages(definition: &str, yaml: &str) -> Vec<String> {
        let root = crate::document::parse(yaml).documents.remove(0).root;
        check(definition, root.as_map().unwrap(), root.line)
            .into_iter()
            .map(|b| format!("{}@{}: {}", b.last, b.line, b.message))
            .collect()
    }

    const SPEC: &str = "io.k8s.api.apps.v1.DeploymentSpec";

    #[test]
    fn selectors_match_template_labels() {
        let matching = "selector:\n  matchLabels: {app: web}\n  matchExpressions:\n  - {key: tier, operator: In, values: [a, b]}\n  - {key: gone, operator: DoesNotExist}\ntemplate:\n  metadata:\n    labels: {app: web, tier: b}\n";
        assert!(messages(SPEC, matching).is_empty());
        let other = "selector:\n  matchLabels: {app: web}\ntemplate:\n  metadata:\n    labels: {tier: b, app: api}\n";
        assert_eq!(
            messages(SPEC, other),
            ["template.metadata.labels@5: Invalid value: map[string]string{\"app\":\"api\", \"tier\":\"b\"}: `selector` does not match template `labels`"]
        );
        // An empty selector is the server's other message, not this one.
        assert!(messages(SPEC, "selector: {}\ntemplate: {}\n").is_empty());
        // A ReplicationController's selector is a map.
        let rc = "selector: {app: web}\ntemplate:\n  metadata:\n    labels: {app: api}\n";
        assert_eq!(
            messages("io.k8s.api.core.v1.ReplicationControllerSpec", rc).len(),
            1
        );
    }

    #[test]
    fn strategies_images_and_seccomp() {
        assert_eq!(
            messages(
                "io.k8s.api.apps.v1.DeploymentStrategy",
                "type: Recreate\nrollingUpdate: {maxSurge: 1}\n"
            ),
            ["rollingUpdate@2: Forbidden: may not be specified when strategy `type` is 'Recreate'"]
        );
        assert!(messages("io.k8s.api.apps.v1.DeploymentStrategy", "type: Recreate\n").is_empty());
        assert_eq!(
            messages("io.k8s.api.core.v1.Container", "name: web\n"),
            ["image@1: Required value"]
        );
        assert_eq!(
            messages("io.k8s.api.core.v1.Container", "name: web\nimage: ''\n"),
            ["image@2: Required value"]
        );
        assert_eq!(
            messages("io.k8s.api.core.v1.SeccompProfile", "type: Localhost\n"),
            ["localhostProfile@1: Required value: must be set when seccomp type is Localhost"]
        );
        assert!(applies("io.k8s.api.core.v1.Container"));
        assert!(!applies("io.k8s.api.core.v1.PodSpec"));
    }
}
