//! What a kind's registry strategy adds to the metadata checks on
//! create (k8s.io/kubernetes `pkg/registry/<group>/<kind>/strategy.go`
//! and the Pod Security admission): names that become label values, a
//! Namespace's Pod Security labels, and the warnings of the kinds whose
//! names end up in Pods' hostnames.

use super::{invalid, warning, Kind};
use crate::document::{Entry, Node, Value};
use crate::preflight::names::{self, Words};
use crate::preflight::violation::Violation;

/// Where a kind's strategy makes its name a label value, which may be 63
/// bytes at most: a Job's template gets `job-name` and
/// `batch.kubernetes.io/job-name` (unless it selects its Pods itself or
/// sets them), a Namespace gets `kubernetes.io/metadata.name`.
pub(super) fn name_labels(
    kind: &Kind,
    name: &str,
    line: u32,
    root: &Node,
    words: Words,
    out: &mut Vec<Violation>,
) {
    if kind.is("batch", "Job") {
        let spec = root.get("spec");
        if spec
            .and_then(|spec| spec.get("manualSelector"))
            .is_some_and(|manual| matches!(manual.value, Value::Bool(true)))
        {
            return;
        }
        let given = |label: &str| {
            spec.and_then(|spec| spec.get("template"))
                .and_then(|template| template.get("metadata"))
                .and_then(|metadata| metadata.get("labels"))
                .and_then(|labels| labels.get(label))
                .is_some()
        };
        for label in ["job-name", "batch.kubernetes.io/job-name"] {
            if !given(label) {
                for message in names::label_value_in(name, words) {
                    out.push(invalid("spec.template.labels", line, name, &message));
                }
            }
        }
    } else if kind.is("", "Namespace") {
        for message in names::label_value_in(name, words) {
            out.push(invalid("metadata.labels", line, name, &message));
        }
    }
}

/// The Pod Security admission's labels of a Namespace
/// (k8s.io/pod-security-admission `api.PolicyToEvaluate`): a level is
/// `privileged`, `baseline` or `restricted`, a version `latest` or `v1.x`.
pub(super) fn pod_security_labels(labels: &[Entry], out: &mut Vec<Violation>) {
    const PREFIX: &str = "pod-security.kubernetes.io/";
    for label in labels {
        let Some(mode) = label.key.strip_prefix(PREFIX) else {
            continue;
        };
        let value = label.value.as_str().unwrap_or("");
        let message = match mode {
            "enforce" | "audit" | "warn" => {
                (!matches!(value, "privileged" | "baseline" | "restricted"))
                    .then_some("must be one of privileged, baseline, restricted")
            }
            "enforce-version" | "audit-version" | "warn-version" => {
                (!is_policy_version(value)).then_some("must be \"latest\" or \"v1.x\"")
            }
            _ => None,
        };
        if let Some(message) = message {
            out.push(invalid(
                &format!("metadata.labels[{}]", label.key),
                label.line,
                value,
                message,
            ));
        }
    }
}

/// `latest`, or `v1.` and a minor without a leading zero.
fn is_policy_version(value: &str) -> bool {
    value == "latest"
        || value.strip_prefix("v1.").is_some_and(|minor| {
            !minor.is_empty()
                && minor.bytes().all(|b| b.is_ascii_digit())
                && (minor == "0" || !minor.starts_with('0'))
                && minor.parse::<u32>().is_ok()
        })
}

/// The warning the kinds whose name ends up in Pods' hostnames give for
/// a name that is no DNS-1123 label (`WarningsOnCreate`).
pub(super) fn name_warning(kind: &Kind, name: &str, line: u32, out: &mut Vec<Violation>) {
    let messages = names::dns1123_label(name);
    if messages.is_empty() {
        return;
    }
    let used = if kind.is("", "Pod") {
        "this is used in the Pod's hostname"
    } else {
        "this is used in Pod names and hostnames"
    };
    out.push(warning(
        "metadata.name",
        line,
        format!(
            "{used}, which can result in surprising behavior; a DNS label is recommended: [{}]",
            messages.join(" ")
        ),
    ));
}
