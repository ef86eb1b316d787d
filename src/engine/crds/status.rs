//! The served versions whose CRD has the `status` subresource: the API
//! server resets a custom resource's `status` on create there
//! (apiextensions' strategy drops it before validating), so nothing
//! under it is refused then, but what the request's decoding refuses
//! (an unknown field, with `fieldValidation=Strict`).

use super::Key;
use std::path::PathBuf;
use vergate_codegen::load::{Document, STATUS_SUBRESOURCE};

/// The group, version and kind of every definition of `used` that the CRD
/// reader marked with the `status` subresource.
pub(super) fn status_reset(used: &[(PathBuf, Document)]) -> Vec<Key> {
    let mut keys = Vec::new();
    for (_, document) in used {
        let Some(serde_json::Value::Object(definitions)) = document.root.get("definitions") else {
            continue;
        };
        for definition in definitions.values() {
            if definition.get(STATUS_SUBRESOURCE) != Some(&serde_json::Value::Bool(true)) {
                continue;
            }
            let served = definition
                .get("x-kubernetes-group-version-kind")
                .and_then(serde_json::Value::as_array);
            for gvk in served.into_iter().flatten() {
                let text = |key: &str| gvk.get(key).and_then(serde_json::Value::as_str);
                if let (Some(group), Some(version), Some(kind)) =
                    (text("group"), text("version"), text("kind"))
                {
                    keys.push((group.to_owned(), version.to_owned(), kind.to_owned()));
                }
            }
        }
    }
    keys
}

/// True when a finding at `path` lies under a custom resource's `status`
/// that the API server resets on create, and is none its decoding makes
/// (an unknown field).
pub(crate) fn reset_on_create(path: &str, unknown_field: bool) -> bool {
    let under = path == "status" || path.starts_with("status.") || path.starts_with("status[");
    under && !unknown_field
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn findings_under_status_are_dropped_but_unknown_fields() {
        assert!(reset_on_create("status", false));
        assert!(reset_on_create("status.addresses[0].type", false));
        assert!(!reset_on_create("status.colour", true));
        assert!(!reset_on_create("statuses", false));
        assert!(!reset_on_create("spec.status", false));
    }
}
