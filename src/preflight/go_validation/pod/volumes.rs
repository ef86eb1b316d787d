//! A pod's volumes (core `ValidateVolumes`, `validateVolumeSource` and the
//! sources' own checks that no schema states: one source, an `emptyDir`
//! size not negative, file modes within 0777, the names a source needs).

use super::super::field_error::{
    forbidden, int_at, invalid_int, push, required, required_when_empty, str_at,
};
use super::super::read::{get, line_of};
use super::super::{Broken, Scope, Table};
use crate::document::Entry;
use crate::preflight::names;
use vergate_core::support::quantity::milli_value;

/// The checks, by the definition of the object they read.
pub(in crate::preflight::go_validation) const CHECKS: Table = &[
    ("io.k8s.api.core.v1.Volume", volume),
    // core validateHostPathVolumeSource (a pod's and a PersistentVolume's).
    ("io.k8s.api.core.v1.HostPathVolumeSource", host_path),
];

/// `validateHostPathVolumeSource`: an empty path is `Required` (an absent
/// one is the schema's).
fn host_path(_: &Scope, entries: &[Entry], line: u32, out: &mut Vec<Broken>) {
    required_when_empty(entries, "path", "", line, out);
}

/// The volume sources, in the order `validateVolumeSource` counts them.
const SOURCES: &[&str] = &[
    "emptyDir",
    "hostPath",
    "gitRepo",
    "gcePersistentDisk",
    "awsElasticBlockStore",
    "secret",
    "nfs",
    "iscsi",
    "glusterfs",
    "flocker",
    "persistentVolumeClaim",
    "rbd",
    "cinder",
    "cephfs",
    "quobyte",
    "downwardAPI",
    "fc",
    "flexVolume",
    "configMap",
    "azureFile",
    "vsphereVolume",
    "photonPersistentDisk",
    "portworxVolume",
    "azureDisk",
    "storageos",
    "projected",
    "scaleIO",
    "csi",
    "ephemeral",
    "image",
];

// Each source is a bit of a `u32` in `errors`.
const _: () = assert!(SOURCES.len() <= 32);

/// `fileModeErrorMsg`.
const MODE_MESSAGE: &str = "must be a number between 0 and 0777 (octal), both inclusive";

/// One volume's checks.
fn volume(_: &Scope, entries: &[Entry], line: u32, out: &mut Vec<Broken>) {
    // The name's DNS label is the declared refinement's.
    errors(entries, line, false, out);
}

/// Whether `ValidateVolumes` keeps the volume (finds nothing wrong with
/// it), so that mounts may name it.
pub(super) fn is_valid(entries: &[Entry]) -> bool {
    let mut found = Vec::new();
    errors(entries, 0, true, &mut found);
    found.is_empty()
}

/// The volume's name (its form only when `name_form`) and source.
fn errors(entries: &[Entry], line: u32, name_form: bool, out: &mut Vec<Broken>) {
    match str_at(entries, "name") {
        Some("") | None => {
            // An absent name is the schema's `required`.
            required_when_empty(entries, "name", "", line, out);
        }
        Some(name) if name_form => {
            for message in names::dns1123_label(name) {
                let text = super::super::field_error::invalid_str(name, &message);
                push(out, "name".to_owned(), line_of(entries, "name", line), text);
            }
        }
        Some(_) => {}
    }
    // A volume without a source is defaulted to an `emptyDir`. The
    // sources it names, as bits by their place in SOURCES, from one pass
    // over its entries (a volume has two or three; asking each of the 30
    // sources in turn cost more), then read in the server's order.
    let mut named: u32 = 0;
    for entry in entries {
        let key = entry.key.as_str();
        if let Some(index) = SOURCES.iter().position(|source| *source == key) {
            named |= 1 << index;
        }
    }
    let mut counted = 0;
    while named != 0 {
        let key = SOURCES[named.trailing_zeros() as usize];
        named &= named - 1;
        let Some(node) = get(entries, key) else {
            continue;
        };
        if counted > 0 {
            let message = forbidden("may not specify more than 1 volume type");
            push(out, key.to_owned(), node.line, message);
            continue;
        }
        counted += 1;
        if let Some(source) = node.as_map() {
            source_errors(key, source, node.line, out);
        }
    }
}

/// The checks of the source at `key`.
fn source_errors(key: &str, source: &[Entry], line: u32, out: &mut Vec<Broken>) {
    match key {
        "emptyDir" => {
            let limit = get(source, "sizeLimit").and_then(super::super::field_error::quantity_text);
            if limit.is_some_and(|text| milli_value(&text).is_ok_and(|milli| milli < 0)) {
                let message = forbidden("SizeLimit field must be a valid resource quantity");
                let line = line_of(source, "sizeLimit", line);
                push(out, "emptyDir.sizeLimit".to_owned(), line, message);
            }
        }
        "secret" => {
            if str_at(source, "secretName").unwrap_or_default().is_empty() {
                let line = line_of(source, "secretName", line);
                push(out, "secret.secretName".to_owned(), line, required(""));
            }
            modes(key, source, line, out);
        }
        "configMap" => {
            if str_at(source, "name").unwrap_or_default().is_empty() {
                push(
                    out,
                    "configMap.name".to_owned(),
                    line_of(source, "name", line),
                    required(""),
                );
            }
            modes(key, source, line, out);
        }
        "downwardAPI" | "projected" => modes(key, source, line, out),
        _ => {}
    }
}

/// `defaultMode` and the items' `mode` within 0777.
fn modes(key: &str, source: &[Entry], line: u32, out: &mut Vec<Broken>) {
    if let Some(mode) = int_at(source, "defaultMode").filter(|mode| !(0..=0o777).contains(mode)) {
        let line = line_of(source, "defaultMode", line);
        push(
            out,
            format!("{key}.defaultMode"),
            line,
            invalid_int(mode, MODE_MESSAGE),
        );
    }
    if key == "projected" {
        return;
    }
    for (index, item) in super::super::field_error::items_at(source, "items")
        .iter()
        .enumerate()
    {
        let Some(item) = item.as_map() else {
            continue;
        };
        if let Some(mode) = int_at(item, "mode").filter(|mode| !(0..=0o777).contains(mode)) {
            let line = line_of(item, "mode", line);
            push(
                out,
                format!("{key}.items[{index}].mode"),
                line,
                invalid_int(mode, MODE_MESSAGE),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::tests::messages;

    const V: &str = "io.k8s.api.core.v1.Volume";

    #[test]
    fn volume_rules() {
        assert_eq!(
            messages(V, "name: v\nemptyDir: {}\nhostPath: {path: /x}\n"),
            ["hostPath@3: Forbidden: may not specify more than 1 volume type"]
        );
        assert!(messages(V, "name: v\n").is_empty());
        assert_eq!(
            messages(V, "name: v\nemptyDir: {sizeLimit: -1}\n"),
            ["emptyDir.sizeLimit@2: Forbidden: SizeLimit field must be a valid resource quantity"]
        );
        assert_eq!(
            messages(V, "name: v\nconfigMap: {name: c, defaultMode: 999}\n"),
            ["configMap.defaultMode@2: Invalid value: 999: must be a number between 0 and 0777 (octal), both inclusive"]
        );
        assert!(messages(V, "name: v\nconfigMap: {name: c, defaultMode: 420}\n").is_empty());
        // The name's form is the refinement's, but such a volume is no
        // volume a mount may name.
        assert!(messages(V, "name: Bad_Name\nemptyDir: {}\n").is_empty());
        let document = crate::document::parse("name: Bad_Name\n");
        assert!(!super::is_valid(
            document.documents[0].root.as_map().unwrap()
        ));
    }

    #[test]
    fn host_path_needs_a_path() {
        let h = "io.k8s.api.core.v1.HostPathVolumeSource";
        assert_eq!(messages(h, "path: ''\n"), ["path@1: Required value"]);
        assert!(messages(h, "path: /x\n").is_empty());
    }
}
