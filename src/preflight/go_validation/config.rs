//! The checks of ConfigMaps, Secrets, Namespaces and core Events (core
//! `ValidateConfigMap`, `ValidateSecret`, `ValidateNamespace`,
//! `legacyValidateEvent`; the PodSecurity admission's reading of a
//! Namespace's `pod-security.kubernetes.io/*` labels): data keys, the keys
//! a Secret's type requires, finalizer names, an event's namespace.

use super::field_error::{at, invalid_str, required};
use super::read::{entries_of, get, go_text, has_slash, items_at, line_of};
use super::{Broken, Scope, Table};
use crate::document::{Entry, Node};
use crate::preflight::names::{dns1123_subdomain, qualified_name, DNS1123_SUBDOMAIN_MAX};
use std::collections::HashSet;

/// The checks, by the definition of the object they read.
pub(super) const CHECKS: Table = &[
    ("io.k8s.api.core.v1.ConfigMap", config_map),
    ("io.k8s.api.core.v1.Secret", secret),
    ("io.k8s.api.core.v1.Namespace", namespace),
    ("io.k8s.api.core.v1.Event", event),
];

/// `IsConfigMapKey`: a key of a ConfigMap's or Secret's data.
pub(super) fn config_key(key: &str) -> Vec<String> {
    let mut errors = Vec::new();
    if key.len() > DNS1123_SUBDOMAIN_MAX {
        errors.push(format!(
            "must be no more than {DNS1123_SUBDOMAIN_MAX} characters"
        ));
    }
    let allowed = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.');
    if key.is_empty() || !key.bytes().all(allowed) {
        errors.push("a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')".to_owned());
    }
    match key {
        "." => errors.push("must not be '.'".to_owned()),
        ".." => errors.push("must not be '..'".to_owned()),
        _ if key.starts_with("..") => errors.push("must not start with '..'".to_owned()),
        _ => {}
    }
    errors
}

/// The keys of `list`, each checked as a config key under `path`.
fn keys(path: &str, list: &[Entry], out: &mut Vec<Broken>) {
    for entry in list {
        for message in config_key(&entry.key) {
            out.push(at(
                format!("{path}[{}]", entry.key),
                entry.line,
                invalid_str(&entry.key, &message),
            ));
        }
    }
}

/// core `ValidateConfigMap`: keys, and none in both `data` and `binaryData`.
fn config_map(_: &Scope, entries: &[Entry], _: u32, out: &mut Vec<Broken>) {
    let data = entries_of(entries, "data");
    let binary = entries_of(entries, "binaryData");
    keys("data", data, out);
    let binary_keys: HashSet<&str> = binary.iter().map(|entry| entry.key.as_str()).collect();
    for entry in data {
        if binary_keys.contains(entry.key.as_str()) {
            out.push(at(
                format!("data[{}]", entry.key),
                entry.line,
                invalid_str(&entry.key, "duplicate of key present in binaryData"),
            ));
        }
    }
    keys("binaryData", binary, out);
}

/// core `ValidateSecret`: keys (of `data` and of `stringData`, which the
/// server merges into `data` first) and what each type requires.
fn secret(_: &Scope, entries: &[Entry], line: u32, out: &mut Vec<Broken>) {
    let data = entries_of(entries, "data");
    let strings = entries_of(entries, "stringData");
    keys("data", data, out);
    let merged: HashSet<&str> = data
        .iter()
        .chain(strings)
        .map(|entry| entry.key.as_str())
        .collect();
    let merged = |key: &str| merged.contains(key);
    let data_keys: HashSet<&str> = data.iter().map(|entry| entry.key.as_str()).collect();
    for entry in strings {
        if !data_keys.contains(entry.key.as_str()) {
            keys("data", std::slice::from_ref(entry), out);
        }
    }
    let kind = go_text(entries, "type").unwrap_or("");
    let data_line = line_of(entries, "data", line_of(entries, "type", line));
    let mut need = |key: &str| {
        out.push(at(format!("data[{key}]"), data_line, required("")));
    };
    match kind {
        "kubernetes.io/service-account-token" => {
            let annotations = entries_of(entries_of(entries, "metadata"), "annotations");
            let name = go_text(annotations, "kubernetes.io/service-account.name").unwrap_or("");
            if name.is_empty() {
                out.push(at(
                    "metadata.annotations[kubernetes.io/service-account.name]",
                    line_of(entries, "metadata", line),
                    required(""),
                ));
            }
        }
        "kubernetes.io/dockercfg" if !merged(".dockercfg") => need(".dockercfg"),
        "kubernetes.io/dockerconfigjson" if !merged(".dockerconfigjson") => {
            need(".dockerconfigjson")
        }
        "kubernetes.io/basic-auth" if !merged("username") && !merged("password") => {
            need("username");
            need("password");
        }
        "kubernetes.io/ssh-auth" => {
            // Required and not empty; an empty value is what the server
            // decodes from "" (a value vergate cannot decode is srv-meta's).
            let empty = data
                .iter()
                .chain(strings)
                .rfind(|entry| entry.key == "ssh-privatekey")
                .is_none_or(|entry| entry.value.as_str().is_some_and(str::is_empty));
            if empty {
                need("ssh-privatekey");
            }
        }
        "kubernetes.io/tls" => {
            for key in ["tls.crt", "tls.key"] {
                if !merged(key) {
                    need(key);
                }
            }
        }
        _ => {}
    }
}

/// The PodSecurity admission's labels of a Namespace: a level or version.
const POD_SECURITY_LABELS: &[&str] = &["enforce", "audit", "warn"];

/// core `ValidateNamespace` (finalizer names) and the PodSecurity
/// admission's `PolicyToEvaluate` of the labels.
fn namespace(_: &Scope, entries: &[Entry], _: u32, out: &mut Vec<Broken>) {
    let spec = entries_of(entries, "spec");
    for finalizer in items_at(spec, "finalizers") {
        let Some(name) = finalizer.as_str() else {
            continue;
        };
        let mut errors = qualified_name(name);
        if !has_slash(name) && !matches!(name, "kubernetes" | "orphan" | "foregroundDeletion") {
            errors.push(
                "name is neither a standard finalizer name nor is it fully qualified".to_owned(),
            );
        }
        for message in errors {
            out.push(at(
                "spec.finalizers",
                finalizer.line,
                invalid_str(name, &message),
            ));
        }
    }
    let metadata = entries_of(entries, "metadata");
    let labels = entries_of(metadata, "labels");
    for mode in POD_SECURITY_LABELS {
        for (suffix, valid, message) in [
            (
                "",
                level as fn(&str) -> bool,
                "must be one of privileged, baseline, restricted",
            ),
            ("-version", version, "must be \"latest\" or \"v1.x\""),
        ] {
            // `pod-security.kubernetes.io/<mode><suffix>`, matched in place.
            let Some(entry) = labels.iter().find(|entry| {
                entry
                    .key
                    .strip_prefix("pod-security.kubernetes.io/")
                    .and_then(|rest| rest.strip_prefix(mode))
                    == Some(suffix)
            }) else {
                continue;
            };
            let key = entry.key.as_str();
            // A `null` label is Go's "".
            let value = match &entry.value.value {
                crate::document::Value::Null => "",
                _ => match entry.value.as_str() {
                    Some(value) => value,
                    None => continue,
                },
            };
            if !valid(value) {
                out.push(at(
                    format!("metadata.labels[{key}]"),
                    entry.line,
                    invalid_str(value, message),
                ));
            }
        }
    }
}

/// A PodSecurity level.
fn level(value: &str) -> bool {
    matches!(value, "privileged" | "baseline" | "restricted")
}

/// A PodSecurity version: `latest` or `v1.N`.
fn version(value: &str) -> bool {
    if value == "latest" {
        return true;
    }
    let Some(minor) = value.strip_prefix("v1.") else {
        return false;
    };
    !minor.is_empty()
        && minor.bytes().all(|b| b.is_ascii_digit())
        && (minor == "0" || !minor.starts_with('0'))
        && minor.len() <= 9
}

/// core `legacyValidateEvent` for a core/v1 Event (whose namespace, when
/// the document names none, is `default`, where `kubectl` creates it).
fn event(_: &Scope, entries: &[Entry], line: u32, out: &mut Vec<Broken>) {
    let metadata = entries_of(entries, "metadata");
    let namespace = get(metadata, "namespace")
        .and_then(Node::as_str)
        .unwrap_or("default");
    let involved = entries_of(entries, "involvedObject");
    let involved_namespace = go_text(involved, "namespace").unwrap_or("");
    let involved_line = line_of(
        involved,
        "namespace",
        line_of(entries, "involvedObject", line),
    );
    let mismatch = || invalid_str(involved_namespace, "does not match event.namespace");
    if get(entries, "eventTime").is_none() {
        let wrong = if involved_namespace.is_empty() {
            !namespace.is_empty() && namespace != "default"
        } else {
            namespace != involved_namespace
        };
        if wrong {
            out.push(at("involvedObject.namespace", involved_line, mismatch()));
        }
    } else {
        if involved_namespace.is_empty() && namespace != "default" && namespace != "kube-system" {
            out.push(at("involvedObject.namespace", involved_line, mismatch()));
        }
        let controller = go_text(entries, "reportingComponent").unwrap_or("");
        let controller_line = line_of(entries, "reportingComponent", line);
        if controller.is_empty() {
            out.push(at("reportingComponent", controller_line, required("")));
        }
        for message in qualified_name(controller) {
            out.push(at(
                "reportingComponent",
                controller_line,
                invalid_str(controller, &message),
            ));
        }
        for (key, limit) in [
            ("reportingInstance", 128),
            ("action", 128),
            ("reason", 128),
            ("message", 1024),
        ] {
            let value = go_text(entries, key).unwrap_or("");
            let key_line = line_of(entries, key, line);
            if value.is_empty() && key != "message" {
                out.push(at(key, key_line, required("")));
            }
            if value.len() > limit {
                out.push(at(
                    key,
                    key_line,
                    invalid_str("", &format!("can have at most {limit} characters")),
                ));
            }
        }
    }
    for message in dns1123_subdomain(namespace) {
        out.push(at(
            "metadata.namespace",
            line_of(metadata, "namespace", line),
            invalid_str(namespace, &message),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::messages_at;
    use crate::Version;

    fn check(kind: &str, yaml: &str) -> Vec<String> {
        messages_at(
            &format!("io.k8s.api.core.v1.{kind}"),
            yaml,
            Version::new(1, 35),
        )
    }

    #[test]
    fn config_maps_and_secrets() {
        assert!(check(
            "ConfigMap",
            "data: {a.b: x, A_B-c: y}\nbinaryData: {c: eA==}\n"
        )
        .is_empty());
        assert_eq!(
            check("ConfigMap", "data: {'..': x}\n"),
            ["data[..]@1: Invalid value: \"..\": must not be '..'"]
        );
        assert_eq!(check("ConfigMap", "data: {'a/b': x}\n").len(), 1);
        assert_eq!(
            check("ConfigMap", "data: {mode: x}\nbinaryData: {mode: eA==}\n"),
            ["data[mode]@1: Invalid value: \"mode\": duplicate of key present in binaryData"]
        );
        assert_eq!(
            check("Secret", "type: kubernetes.io/tls\ndata: {tls.crt: eA==}\n"),
            ["data[tls.key]@2: Required value"]
        );
        assert!(check(
            "Secret",
            "type: kubernetes.io/tls\ndata: {tls.crt: eA==}\nstringData: {tls.key: x}\n"
        )
        .is_empty());
        assert_eq!(check("Secret", "type: kubernetes.io/basic-auth\n").len(), 2);
        assert_eq!(
            check(
                "Secret",
                "type: kubernetes.io/service-account-token\nmetadata: {name: a}\n"
            ),
            ["metadata.annotations[kubernetes.io/service-account.name]@2: Required value"]
        );
        assert_eq!(check("Secret", "stringData: {'bad key': x}\n").len(), 1);
    }

    #[test]
    fn namespaces_and_events() {
        assert_eq!(
            check("Namespace", "spec: {finalizers: [cleanup]}\n"),
            ["spec.finalizers@1: Invalid value: \"cleanup\": name is neither a standard finalizer name nor is it fully qualified"]
        );
        assert!(check(
            "Namespace",
            "spec: {finalizers: [kubernetes, example.com/x]}\n"
        )
        .is_empty());
        assert_eq!(
            check("Namespace", "metadata:\n  labels:\n    pod-security.kubernetes.io/enforce: Bad\n    pod-security.kubernetes.io/warn-version: v1.36\n    pod-security.kubernetes.io/audit-version: v2\n"),
            [
                "metadata.labels[pod-security.kubernetes.io/enforce]@3: Invalid value: \"Bad\": must be one of privileged, baseline, restricted",
                "metadata.labels[pod-security.kubernetes.io/audit-version]@5: Invalid value: \"v2\": must be \"latest\" or \"v1.x\""
            ]
        );
        assert_eq!(
            check("Event", "metadata: {namespace: default}\ninvolvedObject: {namespace: other}\n"),
            ["involvedObject.namespace@2: Invalid value: \"other\": does not match event.namespace"]
        );
        assert!(check(
            "Event",
            "metadata: {namespace: default}\ninvolvedObject: {kind: Pod}\n"
        )
        .is_empty());
    }
}
