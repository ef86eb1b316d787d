//! The checks of PersistentVolumeClaims and PersistentVolumes (core
//! `ValidatePersistentVolumeClaimSpec`, `ValidatePersistentVolumeSpec`):
//! access modes, the requested storage and capacity, class names, one
//! volume source.

use super::field_error::{at, forbidden, invalid_str, not_supported, required};
use super::read::{entries_of, get, go_text, items_at, line_of, scalar_text};
use super::{Broken, Scope, Table};
use crate::cel::library::quantity::Quantity;
use crate::document::{Entry, Node};
use crate::preflight::names::{dns1123_subdomain, label_value, qualified_name};
use std::cmp::Ordering;

/// The checks, by the definition of the object they read.
pub(super) const CHECKS: Table = &[
    ("io.k8s.api.core.v1.PersistentVolumeClaim", claim),
    ("io.k8s.api.core.v1.PersistentVolume", volume),
];

/// `supportedAccessModes`, sorted as the server lists them.
const ACCESS_MODES: &[&str] = &[
    "ReadOnlyMany",
    "ReadWriteMany",
    "ReadWriteOnce",
    "ReadWriteOncePod",
];

/// A PersistentVolume's sources in the server's order: the key and the
/// name of its path (which differs for two).
const SOURCES: &[(&str, &str)] = &[
    ("hostPath", "hostPath"),
    ("gcePersistentDisk", "gcePersistentDisk"),
    ("awsElasticBlockStore", "awsElasticBlockStore"),
    ("glusterfs", "glusterfs"),
    ("flocker", "flocker"),
    ("nfs", "nfs"),
    ("rbd", "rbd"),
    ("quobyte", "quobyte"),
    ("cephfs", "cephFS"),
    ("iscsi", "iscsi"),
    ("cinder", "cinder"),
    ("fc", "fc"),
    ("flexVolume", "flexVolume"),
    ("azureFile", "azureFile"),
    ("vsphereVolume", "vsphereVolume"),
    ("photonPersistentDisk", "photonPersistentDisk"),
    ("portworxVolume", "portworxVolume"),
    ("azureDisk", "azureDisk"),
    ("scaleIO", "scaleIO"),
    ("local", "local"),
    ("storageos", "storageos"),
    ("csi", "csi"),
];

/// The access modes of a claim or volume: required (with the claim's
/// detail), each supported, `ReadWriteOncePod` alone.
fn access_modes(spec: &[Entry], line: u32, detail: &str, out: &mut Vec<Broken>) {
    let modes = items_at(spec, "accessModes");
    let line = line_of(spec, "accessModes", line);
    if modes.is_empty() {
        out.push(at("spec.accessModes", line, required(detail)));
    }
    let (mut once_pod, mut other) = (false, false);
    for mode in modes.iter().filter_map(Node::as_str) {
        if !ACCESS_MODES.contains(&mode) {
            out.push(at(
                "spec.accessModes",
                line,
                not_supported(mode, ACCESS_MODES),
            ));
        } else if mode == "ReadWriteOncePod" {
            once_pod = true;
        } else {
            other = true;
        }
    }
    if once_pod && other {
        out.push(at(
            "spec.accessModes",
            line,
            forbidden("may not use ReadWriteOncePod with other access modes"),
        ));
    }
}

/// `ValidatePositiveQuantityValue`: a quantity above zero (one that does
/// not read is the walk's `quantity` finding).
fn positive(node: &Node, path: impl FnOnce() -> String, out: &mut Vec<Broken>) {
    let Some(written) = scalar_text(node) else {
        return;
    };
    let Ok(value) = Quantity::parse(written.trim()) else {
        return;
    };
    if value.compare(&Quantity::from_i64(0)) != Ordering::Greater {
        out.push(at(
            path(),
            node.line,
            invalid_str(&written, "must be greater than zero"),
        ));
    }
}

/// A class name (`ValidateClassName`: a DNS-1123 subdomain), when given.
fn class_name(spec: &[Entry], key: &str, line: u32, out: &mut Vec<Broken>) {
    let Some(name) = get(spec, key).and_then(Node::as_str) else {
        return;
    };
    if name.is_empty() {
        return;
    }
    for message in dns1123_subdomain(name) {
        out.push(at(
            format!("spec.{key}"),
            line_of(spec, key, line),
            invalid_str(name, &message),
        ));
    }
}

/// core `ValidatePersistentVolumeClaimSpec` (what no schema says).
fn claim(scope: &Scope, entries: &[Entry], line: u32, out: &mut Vec<Broken>) {
    let spec_line = line_of(entries, "spec", line);
    let spec = entries_of(entries, "spec");
    access_modes(spec, spec_line, "at least 1 access mode is required", out);
    let resources = entries_of(spec, "resources");
    let requests = entries_of(resources, "requests");
    // A `null` quantity is present and zero for Go.
    match requests.iter().find(|entry| entry.key == "storage") {
        None => out.push(at(
            "spec.resources[storage]",
            line_of(resources, "requests", line_of(spec, "resources", spec_line)),
            required(""),
        )),
        Some(entry) => positive(&entry.value, || "spec.resources[storage]".to_owned(), out),
    }
    class_name(spec, "storageClassName", spec_line, out);
    // VolumeAttributesClass is beta and off before 1.34 (GA there): the
    // server drops the field.
    if scope.target >= crate::Version::new(1, 34) {
        class_name(spec, "volumeAttributesClassName", spec_line, out);
    }
}

/// core `ValidatePersistentVolumeSpec` (what no schema says).
fn volume(_: &Scope, entries: &[Entry], line: u32, out: &mut Vec<Broken>) {
    let spec_line = line_of(entries, "spec", line);
    let spec = entries_of(entries, "spec");
    access_modes(spec, spec_line, "", out);
    let capacity_line = line_of(spec, "capacity", spec_line);
    let capacity = entries_of(spec, "capacity");
    if capacity.is_empty() {
        out.push(at("spec.capacity", capacity_line, required("")));
    }
    let has_storage = capacity.iter().any(|entry| entry.key == "storage");
    if !has_storage || capacity.len() > 1 {
        // The server prints the map as JSON; vergate names its keys.
        let keys: Vec<&str> = capacity.iter().map(|entry| entry.key.as_str()).collect();
        let value = if keys.is_empty() {
            "null".to_owned()
        } else {
            format!("{{{}}}", keys.join(","))
        };
        out.push(at(
            "spec.capacity",
            capacity_line,
            format!("Unsupported value: {value}: supported values: \"storage\""),
        ));
    }
    for entry in capacity {
        positive(
            &entry.value,
            || format!("spec.capacity[{}]", entry.key),
            out,
        );
    }
    if let Some(affinity) = get(spec, "nodeAffinity") {
        node_affinity(affinity, line_of(spec, "nodeAffinity", spec_line), out);
    }
    let mut sources = 0;
    for (key, path) in SOURCES {
        let Some(source) = get(spec, key) else {
            continue;
        };
        let source_line = line_of(spec, key, spec_line);
        if sources > 0 {
            out.push(at(
                format!("spec.{path}"),
                source_line,
                forbidden("may not specify more than 1 volume type"),
            ));
            continue;
        }
        sources += 1;
        if *key == "nfs" {
            nfs(source.as_map().unwrap_or(&[]), source_line, out);
        }
    }
    if sources == 0 {
        out.push(at(
            "spec",
            spec_line,
            required("must specify a volume type"),
        ));
    }
}

/// core `validateVolumeNodeAffinity` → `ValidateNodeSelector`: a volume's
/// node affinity states its required terms, each requirement well formed.
fn node_affinity(affinity: &Node, line: u32, out: &mut Vec<Broken>) {
    let affinity = affinity.as_map().unwrap_or(&[]);
    let path = "spec.nodeAffinity.required";
    let Some(required_node) = get(affinity, "required") else {
        out.push(at(
            path,
            line,
            required("must specify required node constraints"),
        ));
        return;
    };
    let selector = required_node.as_map().unwrap_or(&[]);
    let terms = items_at(selector, "nodeSelectorTerms");
    if terms.is_empty() {
        out.push(at(
            format!("{path}.nodeSelectorTerms"),
            line_of(selector, "nodeSelectorTerms", required_node.line),
            required("must have at least one node selector term"),
        ));
    }
    for (index, term) in terms.iter().enumerate() {
        let term_entries = term.as_map().unwrap_or(&[]);
        for (list, fields) in [("matchExpressions", false), ("matchFields", true)] {
            for (position, requirement) in items_at(term_entries, list).iter().enumerate() {
                let at_path = format!("{path}.nodeSelectorTerms[{index}].{list}[{position}]");
                let entries = requirement.as_map().unwrap_or(&[]);
                node_requirement(&at_path, entries, requirement.line, fields, out);
            }
        }
    }
}

/// core `ValidateNodeSelectorRequirement` (`fields`:
/// `ValidateNodeFieldSelectorRequirement`).
fn node_requirement(path: &str, entries: &[Entry], line: u32, fields: bool, out: &mut Vec<Broken>) {
    let (Some(operator), Some(key)) = (go_text(entries, "operator"), go_text(entries, "key"))
    else {
        return;
    };
    let values: Vec<(&str, u32)> = items_at(entries, "values")
        .iter()
        .filter_map(|value| Some((value.as_str()?, value.line)))
        .collect();
    let count = items_at(entries, "values").len();
    let values_line = line_of(entries, "values", line);
    let values_path = format!("{path}.values");
    let detail = match (fields, operator) {
        (true, "In" | "NotIn") if count != 1 => Some(
            "must be only one value when `operator` is 'In' or 'NotIn' for node field selector",
        ),
        (false, "In" | "NotIn") if count == 0 => {
            Some("must be specified when `operator` is 'In' or 'NotIn'")
        }
        (false, "Gt" | "Lt") if count != 1 => {
            Some("must be specified single value when `operator` is 'Lt' or 'Gt'")
        }
        _ => None,
    };
    if let Some(detail) = detail {
        out.push(at(values_path.clone(), values_line, required(detail)));
    }
    let known = if fields {
        matches!(operator, "In" | "NotIn")
    } else {
        matches!(
            operator,
            "In" | "NotIn" | "Exists" | "DoesNotExist" | "Gt" | "Lt"
        )
    };
    if !fields && matches!(operator, "Exists" | "DoesNotExist") && count > 0 {
        out.push(at(
            values_path.clone(),
            values_line,
            forbidden("may not be specified when `operator` is 'Exists' or 'DoesNotExist'"),
        ));
    }
    if !known {
        let operator_line = line_of(entries, "operator", line);
        out.push(at(
            format!("{path}.operator"),
            operator_line,
            invalid_str(operator, "not a valid selector operator"),
        ));
    }
    let key_line = line_of(entries, "key", line);
    if fields {
        if key != "metadata.name" {
            out.push(at(
                format!("{path}.key"),
                key_line,
                invalid_str(key, "not a valid field selector key"),
            ));
            return;
        }
        for (index, (value, value_line)) in values.iter().enumerate() {
            for message in dns1123_subdomain(value) {
                out.push(at(
                    format!("{values_path}[{index}]"),
                    *value_line,
                    invalid_str(value, &message),
                ));
            }
        }
        return;
    }
    for message in qualified_name(key) {
        out.push(at(
            format!("{path}.key"),
            key_line,
            invalid_str(key, &message),
        ));
    }
    for (index, (value, value_line)) in values.iter().enumerate() {
        for message in label_value(value) {
            out.push(at(
                format!("{values_path}[{index}]"),
                *value_line,
                invalid_str(value, &message),
            ));
        }
    }
}

/// core `validateNFSVolumeSource`.
fn nfs(source: &[Entry], line: u32, out: &mut Vec<Broken>) {
    let server = go_text(source, "server").unwrap_or("x");
    if server.is_empty() {
        out.push(at(
            "spec.nfs.server",
            line_of(source, "server", line),
            required(""),
        ));
    }
    let Some(path) = go_text(source, "path") else {
        return;
    };
    let path_line = line_of(source, "path", line);
    if path.is_empty() {
        out.push(at("spec.nfs.path", path_line, required("")));
    }
    if !path.starts_with('/') {
        out.push(at(
            "spec.nfs.path",
            path_line,
            invalid_str(path, "must be an absolute path"),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::messages_at;
    use crate::Version;

    fn claim(yaml: &str) -> Vec<String> {
        messages_at(
            "io.k8s.api.core.v1.PersistentVolumeClaim",
            yaml,
            Version::new(1, 35),
        )
    }

    #[test]
    fn a_volume_attributes_class_is_read_from_1_34() {
        let yaml = "spec:\n  accessModes: [ReadWriteOnce]\n  resources: {requests: {storage: 1Gi}}\n  volumeAttributesClassName: Bad_Value\n";
        let at = |minor| {
            messages_at(
                "io.k8s.api.core.v1.PersistentVolumeClaim",
                yaml,
                Version::new(1, minor),
            )
        };
        assert_eq!(at(34).len(), 1, "{:?}", at(34));
        assert!(
            at(34)[0].starts_with("spec.volumeAttributesClassName@4: Invalid value: \"Bad_Value\"")
        );
        // Beta and off before 1.34: the server drops the field.
        assert!(at(33).is_empty(), "{:?}", at(33));
    }

    fn volume(yaml: &str) -> Vec<String> {
        messages_at(
            "io.k8s.api.core.v1.PersistentVolume",
            yaml,
            Version::new(1, 35),
        )
    }

    #[test]
    fn claims_need_modes_and_positive_storage() {
        assert!(claim(
            "spec:\n  accessModes: [ReadWriteOnce]\n  resources: {requests: {storage: 1Gi}}\n"
        )
        .is_empty());
        assert_eq!(
            claim("spec: {}\n"),
            [
                "spec.accessModes@1: Required value: at least 1 access mode is required",
                "spec.resources[storage]@1: Required value"
            ]
        );
        assert_eq!(
            claim(
                "spec:\n  accessModes: [ReadWriteOnce]\n  resources: {requests: {storage: -1Gi}}\n"
            ),
            ["spec.resources[storage]@3: Invalid value: \"-1Gi\": must be greater than zero"]
        );
        assert_eq!(
            claim("spec:\n  accessModes: [ReadWriteOncePod, ReadWriteOnce]\n  resources: {requests: {storage: 1}}\n  storageClassName: Bad_Name\n"),
            [
                "spec.accessModes@2: Forbidden: may not use ReadWriteOncePod with other access modes",
                "spec.storageClassName@4: Invalid value: \"Bad_Name\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
            ]
        );
    }

    #[test]
    fn volumes_need_one_source_and_storage() {
        let base = "spec:\n  accessModes: [ReadWriteOnce]\n  capacity: {storage: 1Gi}\n";
        assert_eq!(
            volume(base),
            ["spec@1: Required value: must specify a volume type"]
        );
        assert!(volume(&format!("{base}  nfs: {{server: s, path: /x}}\n")).is_empty());
        assert_eq!(
            volume(&format!(
                "{base}  nfs: {{server: s, path: x}}\n  hostPath: {{path: /x}}\n"
            )),
            ["spec.nfs@4: Forbidden: may not specify more than 1 volume type"]
        );
        assert_eq!(
            volume(&format!("{base}  nfs: {{server: s, path: x}}\n")),
            ["spec.nfs.path@4: Invalid value: \"x\": must be an absolute path"]
        );
        assert_eq!(
            volume("spec:\n  accessModes: [ReadWriteOnce]\n  capacity: {storage: 1Gi, cpu: 1}\n  local: {path: /x}\n"),
            ["spec.capacity@3: Unsupported value: {storage,cpu}: supported values: \"storage\""]
        );
        let local = "spec:\n  accessModes: [ReadWriteOnce]\n  capacity: {storage: 1Gi}\n  local: {path: /x}\n";
        assert_eq!(
            volume(&format!("{local}  nodeAffinity: {{}}\n")),
            ["spec.nodeAffinity.required@5: Required value: must specify required node constraints"]
        );
        let term = "  nodeAffinity:\n    required:\n      nodeSelectorTerms:\n      - matchExpressions:\n        - {key: zone, operator: In, values: []}\n";
        assert_eq!(
            volume(&format!("{local}{term}")),
            ["spec.nodeAffinity.required.nodeSelectorTerms[0].matchExpressions[0].values@9: Required value: must be specified when `operator` is 'In' or 'NotIn'"]
        );
        assert!(volume(&format!("{local}{}", term.replace("[]", "[a]"))).is_empty());
    }
}
