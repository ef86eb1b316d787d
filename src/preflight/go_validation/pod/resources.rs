//! A container's and a pod's resources (core
//! `ValidateContainerResourceRequirements`, `validatePodResourceRequirements`:
//! `validateResourceRequirements` with each one's name rule).

use super::super::field_error::{invalid_str, map_at, push, quantity_text, required};
use super::super::resource_names::{
    container_resource_name, is_integer, overcommit_allowed, resource_name,
};
use super::super::{Broken, Scope, Table};
use crate::document::Entry;
use vergate_core::support::quantity::milli_value;

/// The checks, by the definition of the object they read.
pub(in crate::preflight::go_validation) const CHECKS: Table =
    &[("io.k8s.api.core.v1.Container", container)];

/// The resources a pod's own `resources` may name
/// (`resourcehelper.SupportedPodLevelResources`, sorted).
const POD_LEVEL: &[&str] = &["cpu", "hugepages-", "memory"];

/// Which rule names follow.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Level {
    Container,
    Pod,
}

/// A container's `resources`.
fn container(_: &Scope, entries: &[Entry], _: u32, out: &mut Vec<Broken>) {
    if let Some(resources) = map_at(entries, "resources") {
        requirements(resources, "resources.", Level::Container, out);
    }
}

/// A pod's own `resources` (PodLevelResources, on by default in 1.35 and
/// 1.36), from the pod spec's check.
pub(super) fn pod_level(spec: &[Entry], _: u32, out: &mut Vec<Broken>) {
    if let Some(resources) = map_at(spec, "resources") {
        requirements(resources, "resources.", Level::Pod, out);
    }
}

/// `validateContainerResourceName`, or for a pod's own resources
/// `validateResourceName` and `validatePodResourceName`: the messages for
/// `name`.
fn name_messages(name: &str, level: Level) -> Vec<String> {
    match level {
        Level::Container => container_resource_name(name),
        Level::Pod => {
            let mut messages = resource_name(name);
            let supported = POD_LEVEL
                .iter()
                .any(|known| *known == name || (known.ends_with('-') && name.starts_with(known)));
            if messages.is_empty() && !supported {
                messages.push(super::super::field_error::not_supported(name, POD_LEVEL));
            }
            messages
        }
    }
}

/// `validateResourceRequirements`: names, quantities not negative (whole
/// for integer resources), requests at most their limits (equal for
/// resources that cannot be overcommitted, which need a limit).
fn requirements(entries: &[Entry], prefix: &str, level: Level, out: &mut Vec<Broken>) {
    let limits = map_at(entries, "limits").unwrap_or_default();
    let requests = map_at(entries, "requests").unwrap_or_default();
    // Each quantity is read once: its value by list, in the list's order.
    let mut values: [Vec<Option<i128>>; 2] = [
        Vec::with_capacity(limits.len()),
        Vec::with_capacity(requests.len()),
    ];
    for (which, (key, list)) in [("limits", limits), ("requests", requests)]
        .into_iter()
        .enumerate()
    {
        for entry in list {
            let name = entry.key.as_str();
            let path = || format!("{prefix}{key}[{name}]");
            for message in name_messages(name, level) {
                let message = if message.starts_with("Unsupported value") {
                    message
                } else {
                    invalid_str(name, &message)
                };
                push(out, path(), entry.line, message);
            }
            let text = quantity_text(&entry.value);
            let milli = text.as_deref().and_then(|text| milli_value(text).ok());
            values[which].push(milli);
            // A quantity that does not parse is the walk's `format`.
            let (Some(text), Some(milli)) = (text, milli) else {
                continue;
            };
            if milli < 0 {
                let message = invalid_str(&text, "must be greater than or equal to 0");
                push(out, path(), entry.line, message);
            }
            let integer = is_integer(name);
            if integer && milli % 1000 != 0 {
                push(
                    out,
                    path(),
                    entry.line,
                    invalid_str(&text, "must be an integer"),
                );
            }
        }
    }
    for (entry, wanted) in requests.iter().zip(&values[1]) {
        let name = entry.key.as_str();
        let Some(request) = quantity_text(&entry.value) else {
            continue;
        };
        let limit = limits
            .iter()
            .zip(&values[0])
            .rev()
            .find(|(limit, _)| limit.key == entry.key);
        let Some((limit, most)) = limit else {
            if !overcommit_allowed(name) {
                let message = required("Limit must be set for non overcommitable resources");
                push(out, format!("{prefix}limits"), entry.line, message);
            }
            continue;
        };
        let Some(limit_text) = quantity_text(&limit.value) else {
            continue;
        };
        let (Some(wanted), Some(most)) = (*wanted, *most) else {
            continue;
        };
        let detail = if wanted != most && !overcommit_allowed(name) {
            format!("must be equal to {name} limit of {limit_text}")
        } else if wanted > most {
            format!("must be less than or equal to {name} limit of {limit_text}")
        } else {
            continue;
        };
        push(
            out,
            format!("{prefix}requests"),
            entry.line,
            invalid_str(&request, &detail),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::tests::messages;

    const C: &str = "io.k8s.api.core.v1.Container";

    #[test]
    fn requests_limits_and_names() {
        let over = "name: a\nimage: b\nresources:\n  limits: {cpu: 1}\n  requests: {cpu: 2}\n";
        assert_eq!(
            messages(C, over),
            ["resources.requests@5: Invalid value: \"2\": must be less than or equal to cpu limit of 1"]
        );
        let within =
            "name: a\nimage: b\nresources:\n  limits: {cpu: '1'}\n  requests: {cpu: 500m}\n";
        assert!(messages(C, within).is_empty());
        let negative = "name: a\nimage: b\nresources:\n  requests: {memory: -1Gi}\n";
        assert_eq!(
            messages(C, negative),
            ["resources.requests[memory]@4: Invalid value: \"-1Gi\": must be greater than or equal to 0"]
        );
        let gpu = "name: a\nimage: b\nresources:\n  limits: {gpu: 1}\n";
        assert_eq!(
            messages(C, gpu),
            [
                "resources.limits[gpu]@4: Invalid value: \"gpu\": must be a standard resource type or fully qualified",
                "resources.limits[gpu]@4: Invalid value: \"gpu\": must be a standard resource for containers"
            ]
        );
        let extended = "name: a\nimage: b\nresources:\n  requests: {nvidia.com/gpu: 1}\n";
        assert_eq!(
            messages(C, extended),
            ["resources.limits@4: Required value: Limit must be set for non overcommitable resources"]
        );
        let equal = "name: a\nimage: b\nresources:\n  limits: {nvidia.com/gpu: 1}\n  requests: {nvidia.com/gpu: 1}\n";
        assert!(messages(C, equal).is_empty());
    }

    #[test]
    fn pod_level_names() {
        let spec = "resources:\n  limits: {Cpu: 1}\n";
        assert_eq!(
            messages("io.k8s.api.core.v1.PodSpec", spec),
            ["resources.limits[Cpu]@2: Invalid value: \"Cpu\": must be a standard resource type or fully qualified"]
        );
    }
}
