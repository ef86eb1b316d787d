//! The pod spec's own checks (core `ValidatePodSpec`, `validatePodDNSConfig`,
//! `validatePodHostNetworkDeps`, the lifecycle sleep against the grace
//! period) and the ones that need the object holding the spec (volume
//! mounts naming a volume, a pod's `hostname`, both different in a
//! StatefulSet). The submodules check what `ValidatePodSpec` calls per
//! part: containers, resources, volumes, security contexts, scheduling.

pub(super) mod containers;
pub(super) mod resources;
pub(super) mod scheduling;
pub(super) mod security;
pub(super) mod volumes;

use super::field_error::{
    forbidden, has, int_at, invalid_int, invalid_str, items_at, map_at, not_found, push, required,
    str_at,
};
use super::read::{get, line_of, Set};
use super::{Broken, Scope, Table};
use crate::document::{Entry, Node};
use crate::preflight::names;
use crate::walk::go_quoted;

/// The checks, by the definition of the object they read.
pub(super) const CHECKS: Table = &[
    // core ValidatePodSpec.
    ("io.k8s.api.core.v1.PodSpec", pod_spec),
    ("io.k8s.api.core.v1.PodSpec", share_process_namespace),
    // core ValidatePodTemplateSpec: a template without a spec has no
    // containers.
    ("io.k8s.api.core.v1.PodTemplateSpec", template_has_spec),
    // core ValidatePodCreate / ValidatePodTemplate: what depends on the
    // object holding the spec.
    ("io.k8s.api.core.v1.Pod", pod_object),
    ("io.k8s.api.core.v1.PodTemplate", template_object),
];

/// Go's `math.MaxInt32`, the bound of `activeDeadlineSeconds`.
const MAX_INT32: i64 = 2_147_483_647;

/// `MaxDNSNameservers`, `MaxDNSSearchPaths`, `MaxDNSSearchListChars`.
const MAX_NAMESERVERS: usize = 3;
const MAX_SEARCHES: usize = 32;
const MAX_SEARCH_CHARS: usize = 2048;

/// The grace period the server defaults (`terminationGracePeriodSeconds`).
const DEFAULT_GRACE: i64 = 30;

/// core `ValidatePodSecurityContext` (before 1.37) and
/// `validateShareProcessNamespace` (from 1.37): a shared process namespace
/// with the host's PID namespace. Before 1.37 the internal type keeps both
/// in the security context, so the path is there; from 1.37 in the spec.
fn share_process_namespace(scope: &Scope, entries: &[Entry], _: u32, out: &mut Vec<Broken>) {
    let on = |key| {
        matches!(
            get(entries, key).map(|node| &node.value),
            Some(crate::document::Value::Bool(true))
        )
    };
    if !(on("shareProcessNamespace") && on("hostPID")) {
        return;
    }
    let last = if scope.target >= crate::Version::new(1, 37) {
        "shareProcessNamespace"
    } else {
        "securityContext.shareProcessNamespace"
    };
    let line = line_of(entries, "shareProcessNamespace", 0);
    let message = "Invalid value: true: ShareProcessNamespace and HostPID cannot both be enabled";
    push(out, last.to_owned(), line, message.to_owned());
}

/// `ValidatePodSpec`'s own rules.
fn pod_spec(scope: &Scope, entries: &[Entry], line: u32, out: &mut Vec<Broken>) {
    // validateContainers: at least one container (an absent list is the
    // schema's `required`).
    if let Some(node) = get(entries, "containers") {
        if matches!(&node.value, crate::document::Value::Seq(items) if items.is_empty()) {
            push(out, "containers".to_owned(), node.line, required(""));
        }
    }
    dns(entries, line, out);
    if let Some(value) = int_at(entries, "activeDeadlineSeconds") {
        if !(1..=MAX_INT32).contains(&value) {
            let message = invalid_int(value, "must be between 1 and 2147483647, inclusive");
            let line = line_of(entries, "activeDeadlineSeconds", line);
            push(out, "activeDeadlineSeconds".to_owned(), line, message);
        }
    }
    // ValidateServiceAccountName, ValidateNodeName, ValidatePriorityClassName:
    // DNS subdomains.
    for key in ["serviceAccountName", "nodeName", "priorityClassName"] {
        if let Some(name) = str_at(entries, key).filter(|name| !name.is_empty()) {
            for message in names::dns1123_subdomain(name) {
                let line = line_of(entries, key, line);
                push(out, key.to_owned(), line, invalid_str(name, &message));
            }
        }
    }
    node_selector(entries, line, out);
    host_network_ports(entries, out);
    sleep_within_grace(scope.target, entries, out);
    // PodLevelResources is alpha (off) before 1.34: the server drops the
    // pod's own `resources` there.
    if scope.target >= crate::Version::new(1, 34) {
        resources::pod_level(entries, line, out);
    }
    os(entries, line, out);
    if scope.target >= containers::INPLACE_RESIZE_FROM {
        resize_with_never(entries, out);
    }
    if scope.target >= crate::Version::new(1, 36) {
        init_resize_policy(entries, out);
    }
}

/// `validateOS`: a name, `linux` or `windows`.
fn os(entries: &[Entry], line: u32, out: &mut Vec<Broken>) {
    let Some(os) = map_at(entries, "os") else {
        return;
    };
    let line = line_of(entries, "os", line);
    match str_at(os, "name") {
        Some("") => push(out, "os.name".to_owned(), line, required("")),
        Some(name) if name != "linux" && name != "windows" => {
            let message = super::field_error::not_supported(name, &["linux", "windows"]);
            push(out, "os".to_owned(), line, message);
        }
        _ => {}
    }
}

/// `validateResizePolicy` in a pod that never restarts: only
/// `NotRequired` (the default) for its regular containers.
fn resize_with_never(entries: &[Entry], out: &mut Vec<Broken>) {
    if str_at(entries, "restartPolicy") != Some("Never") {
        return;
    }
    for (index, container) in items_at(entries, "containers").iter().enumerate() {
        let Some(container) = container.as_map() else {
            continue;
        };
        for policy in items_at(container, "resizePolicy") {
            let Some(policy) = policy.as_map() else {
                continue;
            };
            let restart = str_at(policy, "restartPolicy").unwrap_or_default();
            if restart != "NotRequired" {
                let message = invalid_str(
                    restart,
                    "must be 'NotRequired' when pod `restartPolicy` is 'Never'",
                );
                let line = line_of(policy, "restartPolicy", 0);
                push(
                    out,
                    format!("containers[{index}].resizePolicy"),
                    line,
                    message,
                );
            }
        }
    }
}

/// `validateInitContainers` from 1.36: an init container that is no
/// sidecar may not restart to resize.
fn init_resize_policy(entries: &[Entry], out: &mut Vec<Broken>) {
    for (index, container) in items_at(entries, "initContainers").iter().enumerate() {
        let Some(container) = container.as_map() else {
            continue;
        };
        if str_at(container, "restartPolicy") == Some("Always") {
            continue;
        }
        for (j, policy) in items_at(container, "resizePolicy").iter().enumerate() {
            let Some(policy) = policy.as_map() else {
                continue;
            };
            if str_at(policy, "restartPolicy") == Some("RestartContainer") {
                push(
                    out,
                    format!("initContainers[{index}].resizePolicy[{j}].restartPolicy"),
                    line_of(policy, "restartPolicy", 0),
                    invalid_str(
                        "RestartContainer",
                        "must not be set to 'RestartContainer' for non-sidecar initContainers",
                    ),
                );
            }
        }
    }
}

/// `validateDNSPolicy`'s `None` needs `dnsConfig`; `validatePodDNSConfig`.
fn dns(entries: &[Entry], line: u32, out: &mut Vec<Broken>) {
    let none = str_at(entries, "dnsPolicy") == Some("None");
    let Some(config) = map_at(entries, "dnsConfig") else {
        if none {
            let message = required("must provide `dnsConfig` when `dnsPolicy` is None");
            push(out, "dnsConfig".to_owned(), line, message);
        }
        return;
    };
    let config_line = line_of(entries, "dnsConfig", line);
    let nameservers = items_at(config, "nameservers");
    if none && nameservers.is_empty() {
        let message = required("must provide at least one DNS nameserver when `dnsPolicy` is None");
        push(
            out,
            "dnsConfig.nameservers".to_owned(),
            config_line,
            message,
        );
        return;
    }
    let line = line_of(config, "nameservers", config_line);
    if nameservers.len() > MAX_NAMESERVERS {
        let message = format!(
            "Invalid value: {}: must not have more than {MAX_NAMESERVERS} nameservers",
            json_strings(nameservers)
        );
        push(out, "dnsConfig.nameservers".to_owned(), line, message);
    }
    for (index, server) in nameservers.iter().enumerate() {
        if let Some(text) = server.as_str().filter(|text| !is_legacy_ip(text)) {
            let message = invalid_str(text, IP_MESSAGE);
            push(
                out,
                format!("dnsConfig.nameservers[{index}]"),
                server.line,
                message,
            );
        }
    }
    let searches = items_at(config, "searches");
    let line = line_of(config, "searches", config_line);
    if searches.len() > MAX_SEARCHES {
        let message = format!(
            "Invalid value: {}: must not have more than {MAX_SEARCHES} search paths",
            json_strings(searches)
        );
        push(out, "dnsConfig.searches".to_owned(), line, message);
    }
    let chars = searches
        .iter()
        .filter_map(Node::as_str)
        .map(|search| search.len() + 1)
        .sum::<usize>()
        .saturating_sub(1);
    if chars > MAX_SEARCH_CHARS {
        let message = format!(
            "Invalid value: {}: must not have more than {MAX_SEARCH_CHARS} characters (including spaces) in the search list",
            json_strings(searches)
        );
        push(out, "dnsConfig.searches".to_owned(), line, message);
    }
}

/// `IsValidIPForLegacyField`'s message.
pub(super) const IP_MESSAGE: &str = "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)";

/// An IP address as the server's legacy fields take it: IPv4 octets may
/// have leading zeros there.
pub(super) fn is_legacy_ip(text: &str) -> bool {
    if text.parse::<std::net::IpAddr>().is_ok() {
        return true;
    }
    let parts: Vec<&str> = text.split('.').collect();
    parts.len() == 4
        && parts.iter().all(|part| {
            (1..=3).contains(&part.len())
                && part.bytes().all(|b| b.is_ascii_digit())
                && part.parse::<u16>().is_ok_and(|octet| octet <= 255)
        })
}

/// A list of strings as the server prints a `[]string` value.
fn json_strings(items: &[Node]) -> String {
    let quoted: Vec<String> = items
        .iter()
        .map(|item| go_quoted(item.as_str().unwrap_or_default()))
        .collect();
    format!("[{}]", quoted.join(","))
}

/// `ValidateLabels` of `nodeSelector`: keys are qualified names, values
/// label values, both reported at `nodeSelector`.
fn node_selector(entries: &[Entry], line: u32, out: &mut Vec<Broken>) {
    let Some(selector) = map_at(entries, "nodeSelector") else {
        return;
    };
    for entry in selector {
        for message in names::qualified_name(&entry.key) {
            let text = invalid_str(&entry.key, &message);
            push(out, "nodeSelector".to_owned(), entry.line, text);
        }
        if let Some(value) = entry.value.as_str() {
            for message in names::label_value(value) {
                let text = invalid_str(value, &message);
                push(out, "nodeSelector".to_owned(), entry.line, text);
            }
        }
    }
    let _ = line;
}

/// `validatePodHostNetworkDeps`: with `hostNetwork`, a container's
/// `hostPort` is its `containerPort` (or unset, defaulted to it).
fn host_network_ports(entries: &[Entry], out: &mut Vec<Broken>) {
    let host_network = get(entries, "hostNetwork")
        .is_some_and(|node| node.value == crate::document::Value::Bool(true));
    if !host_network {
        return;
    }
    for (index, container) in items_at(entries, "containers").iter().enumerate() {
        let Some(container) = container.as_map() else {
            continue;
        };
        for (port_index, port) in items_at(container, "ports").iter().enumerate() {
            let Some(port) = port.as_map() else {
                continue;
            };
            let host = int_at(port, "hostPort").unwrap_or(0);
            if host != 0 && Some(host) != int_at(port, "containerPort") {
                push(
                    out,
                    format!("containers[{index}].ports[{port_index}].hostPort"),
                    line_of(port, "hostPort", 0),
                    invalid_int(
                        host,
                        "must match `containerPort` when `hostNetwork` is true",
                    ),
                );
            }
        }
    }
}

/// `validateSleepAction`: a lifecycle hook sleeps no longer than the pod's
/// grace period (of regular containers and sidecars, whose lifecycle the
/// server checks).
///
/// Per minor: the sleep action is dropped before 1.30 (PodLifecycleSleepAction
/// alpha and off in 1.29); zero is refused before 1.33
/// (PodLifecycleSleepActionAllowZero off), in other words in 1.32.
fn sleep_within_grace(target: crate::Version, entries: &[Entry], out: &mut Vec<Broken>) {
    use crate::Version;
    if target < Version::new(1, 30) {
        return;
    }
    let zero_allowed = target >= Version::new(1, 33);
    let grace = match get(entries, "terminationGracePeriodSeconds") {
        None => DEFAULT_GRACE,
        Some(_) => match int_at(entries, "terminationGracePeriodSeconds") {
            Some(grace) => grace,
            None => return,
        },
    };
    for list in ["containers", "initContainers"] {
        for (index, container) in items_at(entries, list).iter().enumerate() {
            let Some(container) = container.as_map() else {
                continue;
            };
            let sidecar = str_at(container, "restartPolicy") == Some("Always");
            if list == "initContainers" && !sidecar {
                continue;
            }
            let Some(lifecycle) = map_at(container, "lifecycle") else {
                continue;
            };
            for hook in ["postStart", "preStop"] {
                let Some(sleep) = map_at(lifecycle, hook).and_then(|h| map_at(h, "sleep")) else {
                    continue;
                };
                let Some(seconds) = int_at(sleep, "seconds") else {
                    continue;
                };
                let floor = if zero_allowed { 0 } else { 1 };
                if seconds < floor || seconds > grace {
                    let detail = if zero_allowed {
                        format!("must be non-negative and less than terminationGracePeriodSeconds ({grace})")
                    } else if target >= Version::new(1, 32) {
                        format!("must be greater than 0 and less than terminationGracePeriodSeconds ({grace}). Enable AllowPodLifecycleSleepActionZeroValue feature gate for zero sleep.")
                    } else {
                        format!("must be greater than 0 and less than terminationGracePeriodSeconds ({grace})")
                    };
                    let message = invalid_int(seconds, &detail);
                    let line = line_of(sleep, "seconds", 0);
                    push(
                        out,
                        format!("{list}[{index}].lifecycle.{hook}.sleep"),
                        line,
                        message,
                    );
                }
            }
        }
    }
}

/// `ValidatePodTemplateSpec` on a template without `spec`: the defaulted
/// empty spec has no containers.
fn template_has_spec(_: &Scope, entries: &[Entry], line: u32, out: &mut Vec<Broken>) {
    if !has(entries, "spec") {
        let line = line_of(entries, "spec", line);
        push(out, "spec.containers".to_owned(), line, required(""));
    }
}

/// A Pod's spec in its context; the checks only a Pod gets
/// (`validateContainersOnlyForPod`, and the RuntimeClass admission: an
/// `overhead` needs a runtime class that defines it).
fn pod_object(_: &Scope, entries: &[Entry], line: u32, out: &mut Vec<Broken>) {
    let Some(spec) = map_at(entries, "spec") else {
        // The defaulted empty spec has no containers.
        push(
            out,
            "spec.containers".to_owned(),
            line_of(entries, "spec", line),
            required(""),
        );
        return;
    };
    in_context(spec, "spec.", &[], false, out);
    containers::image_whitespace(spec, out);
    if let Some(overhead) = get(spec, "overhead") {
        if str_at(spec, "runtimeClassName")
            .unwrap_or_default()
            .is_empty()
        {
            let message = forbidden(
                "pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead",
            );
            push(out, "spec.overhead".to_owned(), overhead.line, message);
        }
    }
}

/// A workload without `spec` (`kind`'s defaulted empty spec): no selector
/// where one is required, no containers.
pub(super) fn workload_without_spec(
    entries: &[Entry],
    line: u32,
    selector: bool,
    out: &mut Vec<Broken>,
) {
    if has(entries, "spec") {
        return;
    }
    let line = line_of(entries, "spec", line);
    if selector {
        push(out, "spec.selector".to_owned(), line, required(""));
    }
    push(
        out,
        "spec.template.spec.containers".to_owned(),
        line,
        required(""),
    );
}

/// A PodTemplate's spec in its context.
fn template_object(_: &Scope, entries: &[Entry], _: u32, out: &mut Vec<Broken>) {
    if let Some(spec) = map_at(entries, "template").and_then(|t| map_at(t, "spec")) {
        in_context(spec, "template.spec.", &[], false, out);
    }
}

/// The template's spec of a workload (`template.spec`), checked in its
/// context: `claims` are the names a StatefulSet's volume claim templates
/// add as volumes; a StatefulSet's own hostname and subdomain are set by
/// its controller, so the server skips them there.
pub(super) fn template_in_context(
    entries: &[Entry],
    prefix: &str,
    claims: &[&str],
    stateful: bool,
    out: &mut Vec<Broken>,
) {
    if let Some(spec) = map_at(entries, "template").and_then(|t| map_at(t, "spec")) {
        // Every caller's prefix is empty today: no path is built for it.
        let path = if prefix.is_empty() {
            std::borrow::Cow::Borrowed("template.spec.")
        } else {
            std::borrow::Cow::Owned(format!("{prefix}template.spec."))
        };
        in_context(spec, &path, claims, stateful, out);
    }
}

/// What depends on where the spec is (its path is `prefix` below the
/// object that holds it).
fn in_context(
    spec: &[Entry],
    prefix: &str,
    claims: &[&str],
    stateful: bool,
    out: &mut Vec<Broken>,
) {
    if !stateful {
        for key in ["hostname", "subdomain"] {
            if let Some(name) = str_at(spec, key).filter(|name| !name.is_empty()) {
                for message in names::dns1123_label(name) {
                    let line = line_of(spec, key, 0);
                    push(
                        out,
                        format!("{prefix}{key}"),
                        line,
                        invalid_str(name, &message),
                    );
                }
            }
        }
    }
    mounts_name_volumes(spec, prefix, claims, out);
}

/// `ValidateVolumeMounts`: every mount names a volume the server accepted
/// (`ValidateVolumes` leaves out a volume it refuses).
fn mounts_name_volumes(spec: &[Entry], prefix: &str, claims: &[&str], out: &mut Vec<Broken>) {
    let volumes = items_at(spec, "volumes");
    // The names a mount may use: a set, so that neither the volumes nor the
    // mounts are read twice however many a spec has.
    let mut valid: Set<&str> = Set::default();
    valid.extend(claims.iter().copied());
    for volume in volumes {
        let Some(volume) = volume.as_map() else {
            continue;
        };
        let Some(name) = str_at(volume, "name") else {
            continue;
        };
        if !valid.contains(name) && volumes::is_valid(volume) {
            valid.insert(name);
        }
    }
    for list in ["containers", "initContainers"] {
        for (index, container) in items_at(spec, list).iter().enumerate() {
            let Some(container) = container.as_map() else {
                continue;
            };
            for (mount_index, mount) in items_at(container, "volumeMounts").iter().enumerate() {
                let Some(mount) = mount.as_map() else {
                    continue;
                };
                let Some(name) = str_at(mount, "name") else {
                    continue;
                };
                if !valid.contains(name) {
                    push(
                        out,
                        format!("{prefix}{list}[{index}].volumeMounts[{mount_index}].name"),
                        line_of(mount, "name", 0),
                        not_found(name),
                    );
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::messages;

    const SPEC: &str = "io.k8s.api.core.v1.PodSpec";

    #[test]
    fn a_shared_process_namespace_with_the_hosts_pids() {
        use super::super::tests::messages_at;
        let spec =
            "containers: [{name: a, image: b}]\nhostPID: true\nshareProcessNamespace: true\n";
        assert_eq!(
            messages(SPEC, spec),
            ["securityContext.shareProcessNamespace@3: Invalid value: true: ShareProcessNamespace and HostPID cannot both be enabled"]
        );
        assert_eq!(
            messages_at(SPEC, spec, crate::Version::new(1, 37)),
            ["shareProcessNamespace@3: Invalid value: true: ShareProcessNamespace and HostPID cannot both be enabled"]
        );
        let apart =
            "containers: [{name: a, image: b}]\nhostPID: true\nshareProcessNamespace: false\n";
        assert!(messages(SPEC, apart).is_empty());
    }

    #[test]
    fn pod_spec_rules() {
        assert_eq!(
            messages(SPEC, "containers: []\n"),
            ["containers@1: Required value"]
        );
        assert_eq!(
            messages(SPEC, "containers: [{name: a, image: b}]\ndnsPolicy: None\n"),
            ["dnsConfig@1: Required value: must provide `dnsConfig` when `dnsPolicy` is None"]
        );
        assert_eq!(
            messages(SPEC, "dnsConfig:\n  nameservers: [1.1.1.1, 1.1.1.2, 1.1.1.3, 1.1.1.4]\n"),
            ["dnsConfig.nameservers@2: Invalid value: [\"1.1.1.1\",\"1.1.1.2\",\"1.1.1.3\",\"1.1.1.4\"]: must not have more than 3 nameservers"]
        );
        assert_eq!(
            messages(SPEC, "activeDeadlineSeconds: 0\n"),
            ["activeDeadlineSeconds@1: Invalid value: 0: must be between 1 and 2147483647, inclusive"]
        );
        assert!(messages(SPEC, "activeDeadlineSeconds: 1\n").is_empty());
        assert_eq!(messages(SPEC, "serviceAccountName: Bad_Name\n").len(), 1);
        assert_eq!(
            messages(SPEC, "nodeSelector: {bad key: x}\n")[0],
            "nodeSelector@1: Invalid value: \"bad key\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"
        );
        let host = "hostNetwork: true\ncontainers:\n- name: a\n  ports:\n  - {containerPort: 80, hostPort: 81}\n  - {containerPort: 90}\n";
        assert_eq!(
            messages(SPEC, host),
            ["containers[0].ports[0].hostPort@5: Invalid value: 81: must match `containerPort` when `hostNetwork` is true"]
        );
        let sleep =
            "containers:\n- name: a\n  lifecycle:\n    preStop:\n      sleep: {seconds: -1}\n";
        assert_eq!(
            messages(SPEC, sleep),
            ["containers[0].lifecycle.preStop.sleep@5: Invalid value: -1: must be non-negative and less than terminationGracePeriodSeconds (30)"]
        );
        assert_eq!(
            messages(SPEC, "os: {name: Bad_Value}\n"),
            ["os@1: Unsupported value: \"Bad_Value\": supported values: \"linux\", \"windows\""]
        );
        let longer = format!(
            "terminationGracePeriodSeconds: 60\n{}",
            sleep.replace("-1", "45")
        );
        assert!(messages(SPEC, &longer).is_empty());
    }

    #[test]
    fn sleep_rules_per_minor() {
        let zero =
            "containers:\n- name: a\n  lifecycle:\n    preStop:\n      sleep: {seconds: 0}\n";
        let at =
            |minor| super::super::tests::messages_at(SPEC, zero, crate::Version::new(1, minor));
        assert!(at(33).is_empty());
        assert_eq!(
            at(32),
            ["containers[0].lifecycle.preStop.sleep@5: Invalid value: 0: must be greater than 0 and less than terminationGracePeriodSeconds (30). Enable AllowPodLifecycleSleepActionZeroValue feature gate for zero sleep."]
        );
        assert_eq!(
            at(30),
            ["containers[0].lifecycle.preStop.sleep@5: Invalid value: 0: must be greater than 0 and less than terminationGracePeriodSeconds (30)"]
        );
        // PodLifecycleSleepAction is alpha and off in 1.29: the field is dropped.
        assert!(at(29).is_empty());
    }

    #[test]
    fn init_resize_policy_from_1_36() {
        let spec = "initContainers:\n- name: a\n  resizePolicy:\n  - {resourceName: cpu, restartPolicy: RestartContainer}\n";
        assert_eq!(
            messages(SPEC, spec),
            ["initContainers[0].resizePolicy[0].restartPolicy@4: Invalid value: \"RestartContainer\": must not be set to 'RestartContainer' for non-sidecar initContainers"]
        );
        let v135 = crate::Version::new(1, 35);
        assert!(super::super::tests::messages_at(SPEC, spec, v135).is_empty());
        let sidecar = spec.replace("- name: a\n", "- name: a\n  restartPolicy: Always\n");
        assert!(messages(SPEC, &sidecar).is_empty());
    }

    #[test]
    fn context_rules() {
        assert_eq!(
            messages("io.k8s.api.core.v1.Pod", "metadata: {name: p}\n"),
            ["spec.containers@1: Required value"]
        );
        let overhead = "spec:\n  containers: [{name: a, image: b}]\n  overhead: {cpu: 1}\n";
        assert_eq!(
            messages("io.k8s.api.core.v1.Pod", overhead),
            ["spec.overhead@3: Forbidden: pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead"]
        );
        assert_eq!(
            messages("io.k8s.api.core.v1.PodTemplateSpec", "metadata: {}\n"),
            ["spec.containers@1: Required value"]
        );
        let pod = "spec:\n  hostname: Bad_Name\n  containers:\n  - name: a\n    volumeMounts:\n    - {name: nope, mountPath: /x}\n    - {name: v, mountPath: /y}\n    - {name: two, mountPath: /z}\n  volumes:\n  - {name: v, emptyDir: {}}\n  - {name: two, emptyDir: {}, hostPath: {path: /x}}\n";
        let found = messages("io.k8s.api.core.v1.Pod", pod);
        assert_eq!(found.len(), 3, "{found:?}");
        assert!(found[0].starts_with("spec.hostname@2: Invalid value: \"Bad_Name\""));
        assert_eq!(
            found[1..],
            [
                "spec.containers[0].volumeMounts[0].name@6: Not found: \"nope\"",
                "spec.containers[0].volumeMounts[2].name@8: Not found: \"two\""
            ]
        );
    }
}
