//! The schema tree of each served version of the CRDs in use, read once:
//! the one reader of their schemas (`cel::schema`), whose nodes carry
//! what every check of a custom resource reads (rules, junctors,
//! defaults, `nullable`, the `status` subresource).

use super::Key;
use crate::cel::ServedSchema;
use std::collections::HashMap;
use std::path::PathBuf;
use vergate_codegen::load::Document;

/// The schema of every served version of the CRDs in `used` (as the CRD
/// reader rewrote it: it keeps `x-kubernetes-validations` and moves the
/// junctors under `x-vergate-value-validations`), read into one tree each, each distinct rule compiled once
/// (spread over the threads); keyed by its group, version and kind, and
/// named in messages by its file, name and version.
pub(super) fn served_schemas(used: &[(PathBuf, Document)]) -> HashMap<Key, ServedSchema> {
    let schemas: Vec<(Key, &serde_json::Value, String)> = used
        .iter()
        .flat_map(|(_, document)| {
            document.crds.iter().flat_map(move |crd| {
                let reversed: Vec<&str> = crd.group.split('.').rev().collect();
                crd.served.iter().filter_map(move |version| {
                    let name = format!("{}.{version}.{}", reversed.join("."), crd.kind);
                    let schema = document.root.get("definitions")?.get(&name)?;
                    let key = (crd.group.clone(), version.clone(), crd.kind.clone());
                    Some((key, schema))
                })
            })
        })
        .map(|(key, schema)| {
            let named = crd_named(used, &key);
            (key, schema, named)
        })
        .collect();
    ServedSchema::read_all(schemas).into_iter().collect()
}

/// The CRD of `key` as messages name it: the first of `used` that
/// defines its group and kind (`the CRD widgets.example.com in crd.yaml,
/// version v1`).
fn crd_named(used: &[(PathBuf, Document)], key: &Key) -> String {
    let found = used.iter().find_map(|(path, document)| {
        let crd = document
            .crds
            .iter()
            .find(|crd| crd.group == key.0 && crd.kind == key.2)?;
        Some((path.display().to_string(), crd.name.as_str()))
    });
    match found {
        Some((file, name)) => format!("the CRD {name} in {file}, version {}", key.1),
        None => format!("the CRD of {}/{} {}", key.0, key.1, key.2),
    }
}
