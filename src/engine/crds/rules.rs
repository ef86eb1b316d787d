//! The CEL rules and the logical junctors of each served version of the
//! CRDs in use.

use super::Key;
use crate::cel::Schema;
use crate::junctors::Junctors;
use std::collections::HashMap;
use std::path::PathBuf;
use vergate_codegen::load::Document;

/// The definition of each served version of the CRDs in `used`, as the
/// CRD reader rewrote it, by group, version and kind.
fn served_schemas(used: &[(PathBuf, Document)]) -> Vec<(Key, &serde_json::Value)> {
    used.iter()
        .flat_map(|(_, document)| {
            document.crds.iter().flat_map(move |crd| {
                let reversed: Vec<&str> = crd.group.split('.').rev().collect();
                crd.served.iter().filter_map(move |version| {
                    let name = format!("{}.{version}.{}", reversed.join("."), crd.kind);
                    let schema = document.root.get("definitions")?.get(&name)?;
                    Some((
                        (crd.group.clone(), version.clone(), crd.kind.clone()),
                        schema,
                    ))
                })
            })
        })
        .collect()
}

/// The logical junctors of every served version of the CRDs in `used`
/// that has any, keyed by its group, version and kind; each named in
/// messages by its file, name and version.
pub(super) fn junctors_of(used: &[(PathBuf, Document)]) -> HashMap<Key, Junctors> {
    served_schemas(used)
        .into_iter()
        .filter_map(|(key, schema)| {
            let (file, name) = used.iter().find_map(|(path, document)| {
                let crd = document
                    .crds
                    .iter()
                    .find(|crd| crd.group == key.0 && crd.kind == key.2)?;
                Some((path.display().to_string(), crd.name.as_str()))
            })?;
            let crd = format!("the CRD {name} in {file}, version {}", key.1);
            Some((key, Junctors::read(schema, &crd)?))
        })
        .collect()
}

/// The CEL rules of every served version of the CRDs in `used` that has
/// any, each distinct rule compiled once (spread over the threads), keyed
/// by its group, version and kind. The loader keeps
/// `x-kubernetes-validations` in the schemas it rewrites, so the
/// definitions are read as they are.
pub(super) fn compiled_rules(used: &[(PathBuf, Document)]) -> HashMap<Key, Schema> {
    Schema::read_all(served_schemas(used))
        .into_iter()
        .filter(|(_, schema)| schema.rules_below)
        .collect()
}
