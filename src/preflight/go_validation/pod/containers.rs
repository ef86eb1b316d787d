//! A container's checks (core `validateContainerCommon`,
//! `validateContainerPorts`, `ValidateVolumeMounts`, `ValidateEnv`, the
//! probes and lifecycle handlers, `validateContainerOnlyForPod`).

use super::super::field_error::{
    duplicate, int_at, invalid_int, invalid_str, items_at, map_at, negative, push, required,
    required_when_empty, str_at,
};
use super::super::read::{get, line_of, Set};
use super::super::{Broken, Scope, Table};
use crate::document::{Entry, Node, Value};

/// The checks, by the definition of the object they read.
pub(in crate::preflight::go_validation) const CHECKS: Table = &[
    // core validateContainerCommon and validateContainers.
    ("io.k8s.api.core.v1.Container", image_required),
    ("io.k8s.api.core.v1.EphemeralContainer", image_required),
    ("io.k8s.api.core.v1.Container", container),
    // core ValidateEnv / validateEnvVarValueFrom.
    ("io.k8s.api.core.v1.EnvVar", env_var),
    // core validateProbe.
    ("io.k8s.api.core.v1.Probe", probe),
    // core validateSecretKeySelector and validateConfigMapKeySelector.
    ("io.k8s.api.core.v1.SecretKeySelector", key_selector),
    ("io.k8s.api.core.v1.ConfigMapKeySelector", key_selector),
];

/// `validateSecretKeySelector` / `validateConfigMapKeySelector`: the name
/// a DNS subdomain (an absent or null name is `""`, refused as well: the
/// schema calls it optional, the Go validation does not) and the key not
/// empty, a config key.
fn key_selector(_: &Scope, entries: &[Entry], line: u32, out: &mut Vec<Broken>) {
    let name = match get(entries, "name").map(|node| &node.value) {
        None | Some(Value::Null) => "",
        Some(Value::String(name)) => name.as_str(),
        // Another type is the walk's `wrong-type`.
        Some(_) => return,
    };
    let name_line = line_of(entries, "name", line);
    for message in crate::preflight::names::dns1123_subdomain(name) {
        push(
            out,
            "name".to_owned(),
            name_line,
            invalid_str(name, &message),
        );
    }
    // An absent or null key is the schema's `required`.
    let Some(key) = str_at(entries, "key") else {
        return;
    };
    let key_line = line_of(entries, "key", line);
    if key.is_empty() {
        push(out, "key".to_owned(), key_line, required(""));
    } else {
        for message in super::super::config::config_key(key) {
            push(out, "key".to_owned(), key_line, invalid_str(key, &message));
        }
    }
}

/// A container names its image.
fn image_required(_: &Scope, entries: &[Entry], line: u32, out: &mut Vec<Broken>) {
    let image = get(entries, "image");
    let empty = match image.map(|node| &node.value) {
        None => true,
        Some(Value::String(text)) => text.is_empty(),
        // Another type is the walk's `wrong-type`.
        Some(_) => false,
    };
    if empty {
        let line = line_of(entries, "image", line);
        push(out, "image".to_owned(), line, required(""));
    }
}

/// `ValidateVolumeMounts` (mount paths unique), `validateResizePolicy`,
/// and the probes a regular container's kind restricts
/// (`validateLivenessProbe`, `validateReadinessProbe`,
/// `validateStartupProbe`). Unique port names are a declared refinement.
fn container(scope: &Scope, entries: &[Entry], _: u32, out: &mut Vec<Broken>) {
    // A set: a scan of the paths before each one was quadratic in a long
    // list.
    let mut paths = Set::default();
    for (index, mount) in items_at(entries, "volumeMounts").iter().enumerate() {
        let Some(mount) = mount.as_map() else {
            continue;
        };
        if let Some(propagation) = str_at(mount, "mountPropagation") {
            mount_propagation(entries, mount, propagation, out);
        }
        let Some(path) = str_at(mount, "mountPath") else {
            continue;
        };
        if path.is_empty() {
            let line = line_of(mount, "mountPath", 0);
            push(
                out,
                format!("volumeMounts[{index}].mountPath"),
                line,
                required(""),
            );
        }
        if !paths.insert(path) {
            let line = line_of(mount, "mountPath", 0);
            let message = invalid_str(path, "must be unique");
            push(
                out,
                format!("volumeMounts[{index}].mountPath"),
                line,
                message,
            );
        }
    }
    // InPlacePodVerticalScaling is alpha and off before 1.33: the server
    // drops `resizePolicy` there.
    if scope.target >= INPLACE_RESIZE_FROM {
        resize_policy(entries, out);
    }
    for key in ["livenessProbe", "startupProbe"] {
        let Some(probe) = map_at(entries, key) else {
            continue;
        };
        // Defaulted to 1 when unset or 0.
        let threshold = int_at(probe, "successThreshold").unwrap_or(1);
        if threshold != 1 && threshold != 0 {
            let line = line_of(probe, "successThreshold", 0);
            let message = invalid_int(threshold, "must be 1");
            push(out, format!("{key}.successThreshold"), line, message);
        }
    }
    if let Some(probe) = map_at(entries, "readinessProbe") {
        if let Some(node) = get(probe, "terminationGracePeriodSeconds") {
            let value = match node.value {
                Value::Int(value) => value.to_string(),
                _ => return,
            };
            push(
                out,
                "readinessProbe.terminationGracePeriodSeconds".to_owned(),
                node.line,
                format!("Invalid value: {value}: must not be set for readinessProbes"),
            );
        }
    }
}

/// `validateMountPropagation`: one of the three modes, and
/// `Bidirectional` only in a privileged container. The server names the
/// list, not the item (`volumeMounts.mountPropagation`).
fn mount_propagation(
    container: &[Entry],
    mount: &[Entry],
    propagation: &str,
    out: &mut Vec<Broken>,
) {
    const MODES: &[&str] = &["Bidirectional", "HostToContainer", "None"];
    let line = line_of(mount, "mountPropagation", 0);
    let last = "volumeMounts.mountPropagation";
    if !MODES.contains(&propagation) {
        let message = super::super::field_error::not_supported(propagation, MODES);
        push(out, last.to_owned(), line, message);
    }
    let privileged = map_at(container, "securityContext")
        .and_then(|context| get(context, "privileged"))
        .is_some_and(|node| matches!(node.value, Value::Bool(true)));
    if propagation == "Bidirectional" && !privileged {
        let message =
            "Forbidden: Bidirectional mount propagation is available only to privileged containers";
        push(out, last.to_owned(), line, message.to_owned());
    }
}

/// The first minor whose server keeps `resizePolicy` by default
/// (InPlacePodVerticalScaling beta there).
pub(in crate::preflight::go_validation) const INPLACE_RESIZE_FROM: crate::Version =
    crate::Version::new(1, 33);

/// `validateResizePolicy`: each resource once, cpu or memory, with a
/// known policy (all reported at `resizePolicy`, as the server does).
fn resize_policy(entries: &[Entry], out: &mut Vec<Broken>) {
    let policies = items_at(entries, "resizePolicy");
    let mut seen: Vec<&str> = Vec::with_capacity(policies.len());
    for (index, policy) in policies.iter().enumerate() {
        let Some(policy) = policy.as_map() else {
            continue;
        };
        let resource = str_at(policy, "resourceName").unwrap_or_default();
        if seen.contains(&resource) {
            push(
                out,
                format!("resizePolicy[{index}]"),
                policy_line(policy),
                duplicate(resource),
            );
        }
        seen.push(resource);
        if !matches!(resource, "cpu" | "memory" | "") {
            let message = super::super::field_error::not_supported(resource, &["cpu", "memory"]);
            push(out, "resizePolicy".to_owned(), policy_line(policy), message);
        }
        let restart = str_at(policy, "restartPolicy").unwrap_or_default();
        if !matches!(restart, "NotRequired" | "RestartContainer" | "") {
            let supported = ["NotRequired", "RestartContainer"];
            let message = super::super::field_error::not_supported(restart, &supported);
            push(out, "resizePolicy".to_owned(), policy_line(policy), message);
        }
    }
}

/// The line of a resize policy item.
fn policy_line(policy: &[Entry]) -> u32 {
    policy.first().map_or(0, |entry| entry.line)
}

/// The message of `IsRelaxedEnvVarName`.
const ENV_NAME_MESSAGE: &str =
    "a valid environment variable name must consist only of printable ASCII characters other than '='";

/// The first minor whose server takes the relaxed environment variable
/// names by default (RelaxedEnvironmentVariableValidation: alpha and off in
/// 1.30 and 1.31, beta and on from 1.32).
const RELAXED_ENV_NAMES_FROM: crate::Version = crate::Version::new(1, 32);

/// The message of `IsEnvVarName` (apimachinery's `RegexError` with its
/// examples).
const STRICT_ENV_NAME_MESSAGE: &str = "a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit (e.g. 'my.env-name' or 'MY_ENV.NAME' or 'MyEnvName1', regex used for validation is '[-._a-zA-Z][-._a-zA-Z0-9]*')";

/// `IsEnvVarName`'s messages for `name`: `[-._a-zA-Z][-._a-zA-Z0-9]*`, and
/// not `.`, `..` or starting with `..` (`hasChDirPrefix`).
fn strict_env_name(name: &str) -> Vec<&'static str> {
    let mut messages = Vec::new();
    let mut bytes = name.bytes();
    let first = bytes
        .next()
        .is_some_and(|b| b.is_ascii_alphabetic() || matches!(b, b'-' | b'.' | b'_'));
    let rest = bytes.all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_'));
    if !(first && rest) {
        messages.push(STRICT_ENV_NAME_MESSAGE);
    }
    if name == "." {
        messages.push("must not be '.'");
    } else if name == ".." {
        messages.push("must not be '..'");
    } else if name.starts_with("..") {
        messages.push("must not start with '..'");
    }
    messages
}

/// The field paths a `fieldRef` of an environment variable may name
/// (`validEnvDownwardAPIFieldPathExpressions`, sorted).
const ENV_FIELD_PATHS: &[&str] = &[
    "metadata.name",
    "metadata.namespace",
    "metadata.uid",
    "spec.nodeName",
    "spec.serviceAccountName",
    "status.hostIP",
    "status.hostIPs",
    "status.podIP",
    "status.podIPs",
];

/// What `ConvertDownwardAPIFieldLabel` converts (the others are refused).
const CONVERTIBLE: &[&str] = &[
    "metadata.annotations",
    "metadata.labels",
    "metadata.name",
    "metadata.namespace",
    "metadata.uid",
    "spec.nodeName",
    "spec.restartPolicy",
    "spec.serviceAccountName",
    "spec.schedulerName",
    "status.phase",
    "status.hostIP",
    "status.hostIPs",
    "status.podIP",
    "status.podIPs",
];

/// The sources of `valueFrom`, in the server's order.
const ENV_SOURCES: &[&str] = &[
    "fieldRef",
    "resourceFieldRef",
    "configMapKeyRef",
    "secretKeyRef",
    "fileKeyRef",
];

/// `ValidateEnv` of one variable: its name (the relaxed rule, on by
/// default from 1.32; before, `IsEnvVarName`) and `validateEnvVarValueFrom`.
fn env_var(scope: &Scope, entries: &[Entry], line: u32, out: &mut Vec<Broken>) {
    required_when_empty(entries, "name", "", line, out);
    let name = str_at(entries, "name").filter(|name| !name.is_empty());
    if let Some(name) = name.filter(|_| scope.target < RELAXED_ENV_NAMES_FROM) {
        let line = line_of(entries, "name", line);
        for message in strict_env_name(name) {
            push(out, "name".to_owned(), line, invalid_str(name, message));
        }
    } else if let Some(name) = name {
        if name
            .chars()
            .any(|c| !c.is_ascii() || c.is_ascii_control() || c == '=')
        {
            let line = line_of(entries, "name", line);
            push(
                out,
                "name".to_owned(),
                line,
                invalid_str(name, ENV_NAME_MESSAGE),
            );
        }
    }
    let Some(from) = map_at(entries, "valueFrom") else {
        return;
    };
    let from_line = line_of(entries, "valueFrom", line);
    // EnvFiles is off before 1.35 (alpha in 1.34): the server drops
    // `fileKeyRef` and does not name it.
    let env_files = scope.target >= crate::Version::new(1, 35);
    let sources = ENV_SOURCES
        .iter()
        .filter(|key| (env_files || **key != "fileKeyRef") && get(from, key).is_some())
        .count();
    let value = str_at(entries, "value").unwrap_or_default();
    if sources == 0 {
        let message = invalid_str(
            "",
            if env_files {
                "must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef`, `secretKeyRef` or `fileKeyRef`"
            } else {
                "must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`"
            },
        );
        push(out, "valueFrom".to_owned(), from_line, message);
    } else if !value.is_empty() {
        let message = invalid_str("", "may not be specified when `value` is not empty");
        push(out, "valueFrom".to_owned(), from_line, message);
    } else if sources > 1 {
        let message = invalid_str("", "may not have more than one field specified at a time");
        push(out, "valueFrom".to_owned(), from_line, message);
    }
    if let Some(field_ref) = map_at(from, "fieldRef") {
        field_ref_path(field_ref, out);
    }
}

/// `validateObjectFieldSelector` of an environment variable's `fieldRef`.
fn field_ref_path(entries: &[Entry], out: &mut Vec<Broken>) {
    // `apiVersion` is defaulted to v1.
    let version = str_at(entries, "apiVersion").unwrap_or("v1");
    let Some(path) = str_at(entries, "fieldPath").filter(|path| !path.is_empty()) else {
        return;
    };
    let line = line_of(entries, "fieldPath", 0);
    let last = "valueFrom.fieldRef.fieldPath".to_owned();
    let converted = if version != "v1" {
        Err(format!("unsupported pod version: {version}"))
    } else if let Some((base, _)) = subscripted(path) {
        if base == "metadata.annotations" || base == "metadata.labels" {
            Ok(())
        } else {
            Err(format!("field label does not support subscript: {path}"))
        }
    } else if CONVERTIBLE.contains(&path) || path == "spec.host" {
        Ok(())
    } else {
        Err(format!("field label not supported: {path}"))
    };
    if let Err(error) = converted {
        let message = invalid_str(path, &format!("error converting fieldPath: {error}"));
        push(out, last, line, message);
        return;
    }
    let path = if path == "spec.host" {
        "spec.nodeName"
    } else {
        path
    };
    if let Some((base, key)) = subscripted(path) {
        let key = if base == "metadata.annotations" {
            key.to_ascii_lowercase()
        } else {
            key.to_owned()
        };
        for message in crate::preflight::names::qualified_name(&key) {
            push(
                out,
                "valueFrom.fieldRef".to_owned(),
                line,
                invalid_str(&key, &message),
            );
        }
    } else if !ENV_FIELD_PATHS.contains(&path) {
        let message = super::super::field_error::not_supported(path, ENV_FIELD_PATHS);
        push(out, last, line, message);
    }
}

/// `fieldpath.SplitMaybeSubscriptedPath`: `metadata.labels['key']`.
fn subscripted(path: &str) -> Option<(&str, &str)> {
    let inner = path.strip_suffix("']")?;
    let (base, key) = inner.split_once("['")?;
    Some((base, key))
}

/// `validateProbe`: counts not negative, a positive
/// `terminationGracePeriodSeconds` (one handler is a declared refinement).
fn probe(_: &Scope, entries: &[Entry], line: u32, out: &mut Vec<Broken>) {
    for key in [
        "initialDelaySeconds",
        "timeoutSeconds",
        "periodSeconds",
        "successThreshold",
        "failureThreshold",
    ] {
        if let Some(value) = int_at(entries, key).filter(|value| *value < 0) {
            push(
                out,
                key.to_owned(),
                line_of(entries, key, line),
                negative(value),
            );
        }
    }
    if let Some(value) = int_at(entries, "terminationGracePeriodSeconds").filter(|v| *v <= 0) {
        let line = line_of(entries, "terminationGracePeriodSeconds", line);
        let message = invalid_int(value, "must be greater than 0");
        push(
            out,
            "terminationGracePeriodSeconds".to_owned(),
            line,
            message,
        );
    }
}

/// `validateContainerOnlyForPod` (a Pod's containers, not a template's):
/// an image without surrounding whitespace. `spec` is the Pod's spec.
pub(super) fn image_whitespace(spec: &[Entry], out: &mut Vec<Broken>) {
    for list in ["containers", "initContainers", "ephemeralContainers"] {
        for (index, container) in items_at(spec, list).iter().enumerate() {
            let Some(image) = container.as_map().and_then(|c| get(c, "image")) else {
                continue;
            };
            let Some(text) = Node::as_str(image) else {
                continue;
            };
            if text.trim() != text {
                let message = invalid_str(text, "must not have leading or trailing whitespace");
                push(
                    out,
                    format!("spec.{list}[{index}].image"),
                    image.line,
                    message,
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::tests::messages;

    #[test]
    fn container_rules() {
        let c = "io.k8s.api.core.v1.Container";
        let ports = "name: a\nimage: b\nports:\n- {name: http, containerPort: 80}\n- {name: http, containerPort: 81}\n";
        // Unique port names are the declared refinement's.
        assert!(messages(c, ports).is_empty());
        let mounts = "name: a\nimage: b\nvolumeMounts:\n- {name: a, mountPath: /x}\n- {name: b, mountPath: /x}\n";
        assert_eq!(
            messages(c, mounts),
            ["volumeMounts[1].mountPath@5: Invalid value: \"/x\": must be unique"]
        );
        let liveness =
            "name: a\nimage: b\nlivenessProbe:\n  successThreshold: 2\n  exec: {command: [x]}\n";
        assert_eq!(
            messages(c, liveness),
            ["livenessProbe.successThreshold@4: Invalid value: 2: must be 1"]
        );
    }

    #[test]
    fn resize_policy_rules() {
        let c = "io.k8s.api.core.v1.Container";
        let bad = "name: a\nimage: b\nresizePolicy:\n- {resourceName: cpu, restartPolicy: RESTARTCONTAINER}\n";
        // Dropped before 1.33 (InPlacePodVerticalScaling off).
        let v132 = crate::Version::new(1, 32);
        assert!(super::super::super::tests::messages_at(c, bad, v132).is_empty());
        assert_eq!(
            messages(c, bad),
            ["resizePolicy@4: Unsupported value: \"RESTARTCONTAINER\": supported values: \"NotRequired\", \"RestartContainer\""]
        );
        let good =
            "name: a\nimage: b\nresizePolicy:\n- {resourceName: cpu, restartPolicy: NotRequired}\n";
        assert!(messages(c, good).is_empty());
    }

    #[test]
    fn env_rules() {
        let e = "io.k8s.api.core.v1.EnvVar";
        assert_eq!(
            messages(e, "name: A=B\n"),
            ["name@1: Invalid value: \"A=B\": a valid environment variable name must consist only of printable ASCII characters other than '='"]
        );
        assert!(messages(e, "name: a.b-c\n").is_empty());
        // Before 1.32 (RelaxedEnvironmentVariableValidation off): IsEnvVarName.
        let at = |yaml, minor| {
            super::super::super::tests::messages_at(e, yaml, crate::Version::new(1, minor))
        };
        assert!(at("name: 1st value\n", 32).is_empty());
        assert_eq!(
            at("name: 1st value\n", 31),
            ["name@1: Invalid value: \"1st value\": a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit (e.g. 'my.env-name' or 'MY_ENV.NAME' or 'MyEnvName1', regex used for validation is '[-._a-zA-Z][-._a-zA-Z0-9]*')"]
        );
        assert_eq!(
            at("name: ..a\n", 28),
            ["name@1: Invalid value: \"..a\": must not start with '..'"]
        );
        assert!(at("name: MY_ENV.name-1\n", 30).is_empty());
        // EnvFiles is off before 1.35: `fileKeyRef` is dropped, and unnamed.
        let file = "name: A\nvalueFrom:\n  fileKeyRef: {path: p, key: k, volumeName: v}\n";
        assert!(at(file, 35).is_empty());
        assert_eq!(
            at(file, 34),
            ["valueFrom@2: Invalid value: \"\": must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`"]
        );
        assert_eq!(
            messages(
                e,
                "name: A\nvalue: x\nvalueFrom:\n  fieldRef: {fieldPath: metadata.name}\n"
            ),
            ["valueFrom@3: Invalid value: \"\": may not be specified when `value` is not empty"]
        );
        assert_eq!(
            messages(e, "name: A\nvalueFrom:\n  fieldRef: {fieldPath: metadata.nope}\n"),
            ["valueFrom.fieldRef.fieldPath@3: Invalid value: \"metadata.nope\": error converting fieldPath: field label not supported: metadata.nope"]
        );
        assert_eq!(
            messages(e, "name: A\nvalueFrom:\n  fieldRef: {fieldPath: status.phase}\n")[0],
            "valueFrom.fieldRef.fieldPath@3: Unsupported value: \"status.phase\": supported values: \"metadata.name\", \"metadata.namespace\", \"metadata.uid\", \"spec.nodeName\", \"spec.serviceAccountName\", \"status.hostIP\", \"status.hostIPs\", \"status.podIP\", \"status.podIPs\""
        );
        assert!(messages(
            e,
            "name: A\nvalueFrom:\n  fieldRef: {fieldPath: \"metadata.labels['app']\"}\n"
        )
        .is_empty());
    }

    #[test]
    fn probe_and_pod_only_rules() {
        let p = "io.k8s.api.core.v1.Probe";
        assert_eq!(
            messages(p, "periodSeconds: -1\ntcpSocket: {port: 80}\n"),
            ["periodSeconds@1: Invalid value: -1: must be greater than or equal to 0"]
        );
        // One handler is the declared refinement's.
        assert!(messages(p, "exec: {command: [x]}\nhttpGet: {port: 80}\n").is_empty());
        assert_eq!(
            messages(
                p,
                "terminationGracePeriodSeconds: 0\nexec: {command: [x]}\n"
            ),
            ["terminationGracePeriodSeconds@1: Invalid value: 0: must be greater than 0"]
        );
        let pod = "spec:\n  containers:\n  - {name: a, image: 'nginx '}\n";
        assert_eq!(
            messages("io.k8s.api.core.v1.Pod", pod),
            ["spec.containers[0].image@3: Invalid value: \"nginx \": must not have leading or trailing whitespace"]
        );
    }

    #[test]
    fn mounts_env_names_and_key_selectors() {
        let c = "io.k8s.api.core.v1.Container";
        let mounts = "name: a\nimage: b\nvolumeMounts:\n- {name: a, mountPath: '', mountPropagation: HostToContaine}\n- {name: b, mountPath: /y, mountPropagation: Bidirectional}\n";
        assert_eq!(
            messages(c, mounts),
            [
                "volumeMounts.mountPropagation@4: Unsupported value: \"HostToContaine\": supported values: \"Bidirectional\", \"HostToContainer\", \"None\"",
                "volumeMounts[0].mountPath@4: Required value",
                "volumeMounts.mountPropagation@5: Forbidden: Bidirectional mount propagation is available only to privileged containers",
            ]
        );
        let privileged = "name: a\nimage: b\nsecurityContext: {privileged: true}\nvolumeMounts:\n- {name: b, mountPath: /y, mountPropagation: Bidirectional}\n";
        assert!(messages(c, privileged).is_empty());
        let env = "io.k8s.api.core.v1.EnvVar";
        assert_eq!(
            messages(env, "name: ''\nvalue: x\n"),
            ["name@1: Required value"]
        );
        let secret = "io.k8s.api.core.v1.SecretKeySelector";
        assert!(messages(secret, "name: db\nkey: password\n").is_empty());
        assert_eq!(
            messages(secret, "name: null\nkey: a/b\n"),
            [
                "name@1: Invalid value: \"\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
                "key@2: Invalid value: \"a/b\": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')",
            ]
        );
        let config = "io.k8s.api.core.v1.ConfigMapKeySelector";
        assert_eq!(
            messages(config, "name: c\nkey: ''\n"),
            ["key@2: Required value"]
        );
    }
}
