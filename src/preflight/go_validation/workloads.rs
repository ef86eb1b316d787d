//! The apps and core workloads' checks (apps `ValidateDeploymentSpec`,
//! `ValidateReplicaSetSpec`, `ValidateStatefulSetSpec`,
//! `ValidateDaemonSetSpec` and their strategies, core
//! `ValidateReplicationControllerSpec`): a selector matches its pod
//! template's labels and is not empty, the template restarts `Always` and
//! has no `activeDeadlineSeconds`, counts are not negative, rolling
//! updates move at least one pod.

use super::field_error::{
    forbidden, int_at, invalid_int, invalid_str, items_at, map_at, nonnegative, not_supported,
    push, required, str_at,
};
use super::pod::template_in_context;
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
    ("io.k8s.api.apps.v1.DeploymentSpec", deployment_spec),
    ("io.k8s.api.apps.v1.ReplicaSetSpec", replica_set_spec),
    (
        "io.k8s.api.apps.v1.ReplicaSetSpec",
        replica_set_without_template,
    ),
    ("io.k8s.api.apps.v1.StatefulSetSpec", stateful_set_spec),
    ("io.k8s.api.apps.v1.DaemonSetSpec", daemon_set_spec),
    (
        "io.k8s.api.core.v1.ReplicationControllerSpec",
        replication_controller_spec,
    ),
    // A workload without spec: its defaulted empty one.
    ("io.k8s.api.apps.v1.Deployment", deployment_without_spec),
    ("io.k8s.api.apps.v1.ReplicaSet", deployment_without_spec),
    ("io.k8s.api.apps.v1.StatefulSet", deployment_without_spec),
    ("io.k8s.api.apps.v1.DaemonSet", daemon_set_without_spec),
    // metav1 ValidateLabelSelector of the workloads' selectors.
    ("io.k8s.api.apps.v1.DeploymentSpec", selector_labels),
    ("io.k8s.api.apps.v1.ReplicaSetSpec", selector_labels),
    ("io.k8s.api.apps.v1.StatefulSetSpec", selector_labels),
    ("io.k8s.api.apps.v1.DaemonSetSpec", selector_labels),
    // apps ValidateDeploymentStrategy.
    (
        "io.k8s.api.apps.v1.DeploymentStrategy",
        recreate_without_rolling_update,
    ),
    (
        "io.k8s.api.apps.v1.DeploymentStrategy",
        deployment_rolling_update,
    ),
    // apps ValidateDaemonSetUpdateStrategy.
    (
        "io.k8s.api.apps.v1.DaemonSetUpdateStrategy",
        daemon_set_rolling_update,
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
        match_labels(entries)
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

/// A selector's `matchLabels` as Go decodes them: a `null` value is "".
fn match_labels(selector: &[Entry]) -> Vec<(&str, &str)> {
    let Some(labels) = get(selector, "matchLabels").and_then(Node::as_map) else {
        return Vec::new();
    };
    labels
        .iter()
        .filter_map(|entry| match &entry.value.value {
            Value::Null => Some((entry.key.as_str(), "")),
            _ => Some((entry.key.as_str(), entry.value.as_str()?)),
        })
        .collect()
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

/// A ReplicaSet without `template` (absent or `null`; its schema does not
/// require one, the Go type holds it by value):
/// `ValidatePodTemplateSpecForReplicaSet` of the empty template, whose nil
/// labels a selector does not match and which has no containers.
fn replica_set_without_template(_: &Scope, entries: &[Entry], line: u32, out: &mut Vec<Broken>) {
    if get(entries, "template").is_some_and(|node| !matches!(node.value, Value::Null)) {
        return;
    }
    let line = line_of(entries, "template", line);
    if let Some(Some(false)) =
        get(entries, "selector").map(|selector| selector_matches(selector, &[]))
    {
        let message =
            "Invalid value: map[string]string(nil): `selector` does not match template `labels`";
        push(
            out,
            "template.metadata.labels".to_owned(),
            line,
            message.to_owned(),
        );
    }
    push(
        out,
        "template.spec.containers".to_owned(),
        line,
        required(""),
    );
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

/// An `IntOrString` as the strategies hold it.
#[derive(Clone, Copy)]
enum IntOrString<'a> {
    Int(i64),
    Str(&'a str),
}

impl IntOrString<'_> {
    /// The value at `key`, or `default` when absent (the server's default).
    fn at<'e>(entries: &'e [Entry], key: &str, default: IntOrString<'e>) -> IntOrString<'e> {
        match get(entries, key).map(|node| &node.value) {
            Some(Value::Int(value)) => IntOrString::Int(*value),
            Some(Value::String(text)) => IntOrString::Str(text),
            _ => default,
        }
    }

    /// `getPercentValue`: the number of a valid percent string.
    fn percent(self) -> Option<i64> {
        let IntOrString::Str(text) = self else {
            return None;
        };
        let digits = text.strip_suffix('%')?;
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        // Go's Atoi of an out-of-range number gives 0 and an error.
        Some(digits.parse().unwrap_or(0))
    }

    /// `getIntOrPercentValue` (Go's `IntValue` of another string is its
    /// `Atoi`, 0 when it is none).
    fn value(self) -> i64 {
        match (self.percent(), self) {
            (Some(percent), _) => percent,
            (None, IntOrString::Int(value)) => value,
            (None, IntOrString::Str(text)) => text.parse().unwrap_or(0),
        }
    }

    /// As the server prints the invalid value.
    fn shown(self) -> String {
        match self {
            IntOrString::Int(value) => value.to_string(),
            IntOrString::Str(text) => go_quoted(text),
        }
    }
}

/// `IsValidPercent`'s message.
const PERCENT_MESSAGE: &str = "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')";

/// `ValidatePositiveIntOrPercent` and `IsNotMoreThan100Percent` of `key`.
fn int_or_percent(
    entries: &[Entry],
    key: &str,
    value: IntOrString<'_>,
    prefix: &str,
    line: u32,
    out: &mut Vec<Broken>,
) {
    let line = line_of(entries, key, line);
    let message = match value {
        IntOrString::Str(_) if value.percent().is_none() => Some(format!(
            "Invalid value: {}: {PERCENT_MESSAGE}",
            value.shown()
        )),
        IntOrString::Int(number) if number < 0 => Some(super::field_error::negative(number)),
        _ => None,
    };
    if let Some(message) = message {
        push(out, format!("{prefix}{key}"), line, message);
    }
    if value.percent().is_some_and(|percent| percent > 100) {
        let message = format!(
            "Invalid value: {}: must not be greater than 100%",
            value.shown()
        );
        push(out, format!("{prefix}{key}"), line, message);
    }
}

/// `ValidateRollingUpdateDeployment` (the type defaults to `RollingUpdate`,
/// both numbers to 25%).
fn deployment_rolling_update(_: &Scope, entries: &[Entry], line: u32, out: &mut Vec<Broken>) {
    if str_at(entries, "type").is_some_and(|kind| kind != "RollingUpdate") {
        return;
    }
    let Some(rolling) = map_at(entries, "rollingUpdate") else {
        return;
    };
    let line = line_of(entries, "rollingUpdate", line);
    let quarter = IntOrString::Str("25%");
    let unavailable = IntOrString::at(rolling, "maxUnavailable", quarter);
    let surge = IntOrString::at(rolling, "maxSurge", quarter);
    let prefix = "rollingUpdate.";
    int_or_percent(rolling, "maxUnavailable", unavailable, prefix, line, out);
    if surge.percent().is_none() || surge.percent().is_some_and(|p| p > 100) {
        // Only the first two of ValidatePositiveIntOrPercent for maxSurge.
        let mut found = Vec::new();
        int_or_percent(rolling, "maxSurge", surge, prefix, line, &mut found);
        out.extend(
            found
                .into_iter()
                .filter(|b| !b.message.contains("greater than 100%")),
        );
    }
    if unavailable.value() == 0 && surge.value() == 0 {
        let message = format!(
            "Invalid value: {}: may not be 0 when `maxSurge` is 0",
            unavailable.shown()
        );
        let line = line_of(rolling, "maxUnavailable", line);
        push(out, format!("{prefix}maxUnavailable"), line, message);
    }
}

/// `ValidateDaemonSetUpdateStrategy` / `ValidateRollingUpdateDaemonSet`
/// (the type defaults to `RollingUpdate`, `maxUnavailable` to 1 and
/// `maxSurge` to 0).
fn daemon_set_rolling_update(_: &Scope, entries: &[Entry], line: u32, out: &mut Vec<Broken>) {
    if str_at(entries, "type").is_some_and(|kind| kind != "RollingUpdate") {
        return;
    }
    let no_entries: &[Entry] = &[];
    let rolling = map_at(entries, "rollingUpdate").unwrap_or(no_entries);
    let line = line_of(entries, "rollingUpdate", line);
    let unavailable = IntOrString::at(rolling, "maxUnavailable", IntOrString::Int(1));
    let surge = IntOrString::at(rolling, "maxSurge", IntOrString::Int(0));
    let prefix = "rollingUpdate.";
    int_or_percent(rolling, "maxUnavailable", unavailable, prefix, line, out);
    int_or_percent(rolling, "maxSurge", surge, prefix, line, out);
    match (unavailable.value() != 0, surge.value() != 0) {
        (true, true) => {
            let message = format!(
                "Invalid value: {}: may not be set when maxUnavailable is non-zero",
                surge.shown()
            );
            push(
                out,
                format!("{prefix}maxSurge"),
                line_of(rolling, "maxSurge", line),
                message,
            );
        }
        (false, false) => {
            let line = line_of(rolling, "maxUnavailable", line);
            let message = required("cannot be 0 when maxSurge is 0");
            push(out, format!("{prefix}maxUnavailable"), line, message);
        }
        _ => {}
    }
}

/// `ValidatePodTemplateSpecForReplicaSet` and its kin: the template
/// restarts `Always` (the default) and sets no `activeDeadlineSeconds`.
fn template_restarts_always(entries: &[Entry], kind: &str, out: &mut Vec<Broken>) {
    let Some(spec) = map_at(entries, "template").and_then(|t| map_at(t, "spec")) else {
        return;
    };
    if let Some(policy) = str_at(spec, "restartPolicy").filter(|p| !p.is_empty() && *p != "Always")
    {
        let line = line_of(spec, "restartPolicy", 0);
        let message = not_supported(policy, &["Always"]);
        push(out, "template.spec.restartPolicy".to_owned(), line, message);
    }
    if get(spec, "activeDeadlineSeconds").is_some() {
        let line = line_of(spec, "activeDeadlineSeconds", 0);
        let message = forbidden(&format!("activeDeadlineSeconds in {kind} is not Supported"));
        push(
            out,
            "template.spec.activeDeadlineSeconds".to_owned(),
            line,
            message,
        );
    }
}

/// A label selector with neither labels nor expressions (`kind` names it
/// in the server's message).
fn empty_selector(entries: &[Entry], kind: &str, line: u32, out: &mut Vec<Broken>) {
    let Some(selector) = map_at(entries, "selector") else {
        return;
    };
    let labels = map_at(selector, "matchLabels").map_or(0, <[Entry]>::len);
    let expressions = items_at(selector, "matchExpressions").len();
    if labels + expressions == 0 {
        let line = line_of(entries, "selector", line);
        let message = format!("Invalid value: {{}}: empty selector is invalid for {kind}");
        push(out, "selector".to_owned(), line, message);
    }
}

/// `ValidateDeploymentSpec`'s own rules.
fn deployment_spec(_: &Scope, entries: &[Entry], line: u32, out: &mut Vec<Broken>) {
    empty_selector(entries, "deployment", line, out);
    template_restarts_always(entries, "ReplicaSet", out);
    template_in_context(entries, "", &[], false, out);
    nonnegative(entries, "minReadySeconds", "", line, out);
    nonnegative(entries, "revisionHistoryLimit", "", line, out);
    nonnegative(entries, "progressDeadlineSeconds", "", line, out);
    if let Some(deadline) = int_at(entries, "progressDeadlineSeconds") {
        if deadline <= int_at(entries, "minReadySeconds").unwrap_or(0) {
            let line = line_of(entries, "progressDeadlineSeconds", line);
            let message = invalid_int(deadline, "must be greater than minReadySeconds");
            push(out, "progressDeadlineSeconds".to_owned(), line, message);
        }
    }
}

/// `ValidateReplicaSetSpec`'s own rules (its empty selector is called a
/// deployment's by the server).
fn replica_set_spec(_: &Scope, entries: &[Entry], line: u32, out: &mut Vec<Broken>) {
    empty_selector(entries, "deployment", line, out);
    template_restarts_always(entries, "ReplicaSet", out);
    template_in_context(entries, "", &[], false, out);
    nonnegative(entries, "minReadySeconds", "", line, out);
}

/// `ValidateReplicationControllerSpec`'s template rules.
fn replication_controller_spec(_: &Scope, entries: &[Entry], line: u32, out: &mut Vec<Broken>) {
    template_restarts_always(entries, "ReplicationController", out);
    template_in_context(entries, "", &[], false, out);
    nonnegative(entries, "minReadySeconds", "", line, out);
}

/// `ValidateDaemonSetSpec`'s own rules.
fn daemon_set_spec(_: &Scope, entries: &[Entry], line: u32, out: &mut Vec<Broken>) {
    empty_selector(entries, "daemonset", line, out);
    template_restarts_always(entries, "DaemonSet", out);
    template_in_context(entries, "", &[], false, out);
    nonnegative(entries, "minReadySeconds", "", line, out);
    nonnegative(entries, "revisionHistoryLimit", "", line, out);
}

/// `ValidateStatefulSetSpec`'s own rules: its update strategy, volume
/// claim retention, ordinals, and a template whose volumes include the
/// claim templates.
fn stateful_set_spec(scope: &Scope, entries: &[Entry], line: u32, out: &mut Vec<Broken>) {
    empty_selector(entries, "statefulset", line, out);
    // From 1.33 a new StatefulSet's `serviceName` is a DNS-1123 label
    // (`ValidateStatefulSetSpec`'s `AllowInvalidServiceName` is false on
    // create).
    if scope.target >= crate::Version::new(1, 33) {
        if let Some(name) = str_at(entries, "serviceName").filter(|name| !name.is_empty()) {
            let name_line = line_of(entries, "serviceName", line);
            for message in crate::preflight::names::dns1123_label(name) {
                let message = invalid_str(name, &message);
                push(out, "serviceName".to_owned(), name_line, message);
            }
        }
    }
    template_restarts_always(entries, "StatefulSet", out);
    let claims: Vec<&str> = items_at(entries, "volumeClaimTemplates")
        .iter()
        .filter_map(|claim| {
            let metadata = claim.as_map().and_then(|c| map_at(c, "metadata"))?;
            str_at(metadata, "name")
        })
        .collect();
    template_in_context(entries, "", &claims, true, out);
    nonnegative(entries, "minReadySeconds", "", line, out);
    if let Some(ordinals) = map_at(entries, "ordinals") {
        let line = line_of(entries, "ordinals", line);
        nonnegative(ordinals, "start", "ordinals.", line, out);
    }
    if let Some(policy) = map_at(entries, "persistentVolumeClaimRetentionPolicy") {
        for key in ["whenDeleted", "whenScaled"] {
            // An empty value is defaulted to Retain.
            if let Some(value) = str_at(policy, key).filter(|v| !v.is_empty()) {
                if value != "Retain" && value != "Delete" {
                    let line = line_of(policy, key, line);
                    let message = not_supported(value, &["Retain", "Delete"]);
                    let last = format!("persistentVolumeClaimRetentionPolicy.{key}");
                    push(out, last, line, message);
                }
            }
        }
    }
    if let Some(strategy) = map_at(entries, "updateStrategy") {
        stateful_set_strategy(strategy, line_of(entries, "updateStrategy", line), out);
    }
}

/// The StatefulSet's `updateStrategy` (type defaulted to `RollingUpdate`).
fn stateful_set_strategy(strategy: &[Entry], line: u32, out: &mut Vec<Broken>) {
    let Some(rolling) = map_at(strategy, "rollingUpdate") else {
        return;
    };
    let rolling_line = line_of(strategy, "rollingUpdate", line);
    match str_at(strategy, "type").unwrap_or("RollingUpdate") {
        "OnDelete" => {
            let mut shown = String::from("{\"Partition\":");
            let _ = write!(
                shown,
                "{},\"MaxUnavailable\":",
                int_at(rolling, "partition").unwrap_or(0)
            );
            match IntOrString::at(rolling, "maxUnavailable", IntOrString::Str("")) {
                IntOrString::Str("") => shown.push_str("null"),
                value => shown.push_str(&value.shown()),
            }
            shown.push('}');
            let message =
                format!("Invalid value: {shown}: only allowed for updateStrategy 'RollingUpdate'");
            push(
                out,
                "updateStrategy.rollingUpdate".to_owned(),
                rolling_line,
                message,
            );
        }
        "RollingUpdate" => {
            let prefix = "updateStrategy.rollingUpdate.";
            nonnegative(rolling, "partition", prefix, rolling_line, out);
            if get(rolling, "maxUnavailable").is_some() {
                let value = IntOrString::at(rolling, "maxUnavailable", IntOrString::Int(1));
                let mut found = Vec::new();
                int_or_percent(
                    rolling,
                    "maxUnavailable",
                    value,
                    prefix,
                    rolling_line,
                    &mut found,
                );
                // ValidatePositiveIntOrPercent, then "cannot be 0", then the 100% bound.
                let (bound, first): (Vec<_>, Vec<_>) = found
                    .into_iter()
                    .partition(|b| b.message.contains("greater than 100%"));
                out.extend(first);
                if value.value() == 0 {
                    let line = line_of(rolling, "maxUnavailable", rolling_line);
                    let message = format!("Invalid value: {}: cannot be 0", value.shown());
                    push(out, format!("{prefix}maxUnavailable"), line, message);
                }
                out.extend(bound);
            }
        }
        // Another type is the enum's.
        _ => {}
    }
}

/// A Deployment, ReplicaSet or StatefulSet without `spec`.
fn deployment_without_spec(_: &Scope, entries: &[Entry], line: u32, out: &mut Vec<Broken>) {
    super::pod::workload_without_spec(entries, line, true, out);
}

/// A DaemonSet without `spec` (its selector may be absent).
fn daemon_set_without_spec(_: &Scope, entries: &[Entry], line: u32, out: &mut Vec<Broken>) {
    super::pod::workload_without_spec(entries, line, false, out);
}

/// `ValidateLabelSelector` of a workload's `selector`: label keys and
/// values, and each expression's operator and values.
fn selector_labels(_: &Scope, entries: &[Entry], _: u32, out: &mut Vec<Broken>) {
    let Some(selector) = map_at(entries, "selector") else {
        return;
    };
    for label in map_at(selector, "matchLabels").unwrap_or_default() {
        let mut messages = crate::preflight::names::qualified_name(&label.key);
        let value = label.value.as_str().unwrap_or_default();
        let key_errors = messages.len();
        messages.extend(crate::preflight::names::label_value(value));
        for (index, message) in messages.iter().enumerate() {
            let shown = if index < key_errors {
                label.key.as_str()
            } else {
                value
            };
            let text = format!("Invalid value: {}: {message}", go_quoted(shown));
            push(out, "selector.matchLabels".to_owned(), label.line, text);
        }
    }
    for (index, expression) in items_at(selector, "matchExpressions").iter().enumerate() {
        let Some(expression) = expression.as_map() else {
            continue;
        };
        let prefix = format!("selector.matchExpressions[{index}].");
        let values = items_at(expression, "values");
        let line = expression.first().map_or(0, |entry| entry.line);
        match str_at(expression, "operator").unwrap_or_default() {
            "In" | "NotIn" if values.is_empty() => {
                let message = required("must be specified when `operator` is 'In' or 'NotIn'");
                push(out, format!("{prefix}values"), line, message);
            }
            "Exists" | "DoesNotExist" if !values.is_empty() => {
                let message =
                    forbidden("may not be specified when `operator` is 'Exists' or 'DoesNotExist'");
                push(out, format!("{prefix}values"), line, message);
            }
            "In" | "NotIn" | "Exists" | "DoesNotExist" => {}
            other => {
                let message = format!(
                    "Invalid value: {}: not a valid selector operator",
                    go_quoted(other)
                );
                push(out, format!("{prefix}operator"), line, message);
            }
        }
        let key = str_at(expression, "key").unwrap_or_default();
        for message in crate::preflight::names::qualified_name(key) {
            let text = format!("Invalid value: {}: {message}", go_quoted(key));
            push(out, format!("{prefix}key"), line, text);
        }
        for (j, value) in values.iter().enumerate() {
            let text = value.as_str().unwrap_or_default();
            for message in crate::preflight::names::label_value(text) {
                let shown = format!("Invalid value: {}: {message}", go_quoted(text));
                push(out, format!("{prefix}values[{j}]"), value.line, shown);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{messages, messages_at};

    const DEPLOYMENT: &str = "io.k8s.api.apps.v1.DeploymentSpec";
    const TEMPLATE: &str = "selector: {matchLabels: {app: a}}\ntemplate:\n  metadata: {labels: {app: a}}\n  spec:\n    containers: [{name: a, image: b}]\n";

    #[test]
    fn deployment_spec_rules() {
        assert!(messages(DEPLOYMENT, TEMPLATE).is_empty());
        let never = format!("{TEMPLATE}    restartPolicy: Never\n    activeDeadlineSeconds: 5\n");
        assert_eq!(
            messages(DEPLOYMENT, &never),
            [
                "template.spec.restartPolicy@6: Unsupported value: \"Never\": supported values: \"Always\"",
                "template.spec.activeDeadlineSeconds@7: Forbidden: activeDeadlineSeconds in ReplicaSet is not Supported"
            ]
        );
        assert_eq!(
            messages(
                DEPLOYMENT,
                &format!("{TEMPLATE}minReadySeconds: 10\nprogressDeadlineSeconds: 5\n")
            ),
            ["progressDeadlineSeconds@7: Invalid value: 5: must be greater than minReadySeconds"]
        );
        assert_eq!(
            messages(DEPLOYMENT, &format!("{TEMPLATE}revisionHistoryLimit: -1\n")),
            ["revisionHistoryLimit@6: Invalid value: -1: must be greater than or equal to 0"]
        );
        let bad_label = TEMPLATE.replace("matchLabels: {app: a}", "matchLabels: {app: 'a b'}");
        assert!(messages(DEPLOYMENT, &bad_label)
            .iter()
            .any(|m| m.starts_with("selector.matchLabels@1: Invalid value: \"a b\"")));
        assert_eq!(
            messages("io.k8s.api.apps.v1.Deployment", "metadata: {name: d}\n"),
            [
                "spec.selector@1: Required value",
                "spec.template.spec.containers@1: Required value"
            ]
        );
    }

    #[test]
    fn rolling_updates() {
        let strategy = "io.k8s.api.apps.v1.DeploymentStrategy";
        assert!(messages(
            strategy,
            "type: RollingUpdate\nrollingUpdate: {maxSurge: 1}\n"
        )
        .is_empty());
        assert_eq!(
            messages(strategy, "rollingUpdate: {maxSurge: 0, maxUnavailable: 0}\n"),
            ["rollingUpdate.maxUnavailable@1: Invalid value: 0: may not be 0 when `maxSurge` is 0"]
        );
        assert_eq!(
            messages(strategy, "rollingUpdate: {maxUnavailable: 110%}\n"),
            ["rollingUpdate.maxUnavailable@1: Invalid value: \"110%\": must not be greater than 100%"]
        );
        assert_eq!(
            messages(strategy, "rollingUpdate: {maxSurge: abc}\n"),
            ["rollingUpdate.maxSurge@1: Invalid value: \"abc\": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')"]
        );
        let daemon = "io.k8s.api.apps.v1.DaemonSetUpdateStrategy";
        assert!(messages(daemon, "type: RollingUpdate\n").is_empty());
        assert_eq!(
            messages(daemon, "rollingUpdate: {maxUnavailable: 0, maxSurge: 0}\n"),
            ["rollingUpdate.maxUnavailable@1: Required value: cannot be 0 when maxSurge is 0"]
        );
    }

    #[test]
    fn a_statefulsets_service_name_is_a_label_from_1_33() {
        let spec = "io.k8s.api.apps.v1.StatefulSetSpec";
        let yaml = "serviceName: web.internal\n";
        let names = |minor| {
            messages_at(spec, yaml, crate::Version::new(1, minor))
                .into_iter()
                .filter(|m| m.starts_with("serviceName"))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            names(33),
            ["serviceName@1: Invalid value: \"web.internal\": must not contain dots"]
        );
        assert!(names(32).is_empty());
    }

    #[test]
    fn stateful_set_rules() {
        let spec = "io.k8s.api.apps.v1.StatefulSetSpec";
        let on_delete = format!(
            "{TEMPLATE}updateStrategy:\n  type: OnDelete\n  rollingUpdate: {{partition: 1}}\n"
        );
        assert_eq!(
            messages(spec, &on_delete),
            ["updateStrategy.rollingUpdate@8: Invalid value: {\"Partition\":1,\"MaxUnavailable\":null}: only allowed for updateStrategy 'RollingUpdate'"]
        );
        assert_eq!(
            messages(spec, &format!("{TEMPLATE}ordinals: {{start: -1}}\npersistentVolumeClaimRetentionPolicy: {{whenDeleted: Keep}}\n")),
            [
                "ordinals.start@6: Invalid value: -1: must be greater than or equal to 0",
                "persistentVolumeClaimRetentionPolicy.whenDeleted@7: Unsupported value: \"Keep\": supported values: \"Retain\", \"Delete\""
            ]
        );
        // A claim template is a volume the template's mounts may name, and
        // the controller sets the hostname.
        let claims = "selector: {matchLabels: {app: a}}\ntemplate:\n  metadata: {labels: {app: a}}\n  spec:\n    hostname: Bad_Name\n    containers:\n    - name: a\n      image: b\n      volumeMounts: [{name: data, mountPath: /d}]\nvolumeClaimTemplates:\n- metadata: {name: data}\n";
        assert!(messages(spec, claims).is_empty());
    }

    #[test]
    fn a_replica_set_without_template() {
        let spec = "io.k8s.api.apps.v1.ReplicaSetSpec";
        assert_eq!(
            messages(spec, "selector: {matchLabels: {app: a}}\ntemplate: null\n"),
            [
                "template.metadata.labels@2: Invalid value: map[string]string(nil): `selector` does not match template `labels`",
                "template.spec.containers@2: Required value",
            ]
        );
    }
}
