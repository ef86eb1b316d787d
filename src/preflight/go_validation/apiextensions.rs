//! apiextensions' checks of a CustomResourceDefinition
//! (apiextensions-apiserver `pkg/apis/apiextensions/validation`
//! `ValidateCustomResourceDefinition`), as far as vergate knows them: an
//! unknown `spec.scope`, versions that repeat a name or do not mark
//! exactly one as the storage version, and the schema types and patterns
//! the server refuses on create (`engine::crds::refused`, which also makes
//! such a CRD's resources unserved). A CRD given as a document to check is
//! refused here, at the server's field path and the line of the refused
//! value.

use super::field_error::{at, invalid_raw, not_supported, required};
use super::field_error::{invalid_str, items_at, push, str_at};
use super::read::{entries_of, get, line_of as line_of_key};
use super::{Broken, Scope, Table};
use crate::document::{Entry, Node, Value};
use crate::engine::crds::refused::schema_reasons;
use crate::walk::go_quoted;

/// The scopes a CRD takes (`apiextensions.ClusterScoped`,
/// `NamespaceScoped`), in the order the server lists them.
const SCOPES: [&str; 2] = ["Cluster", "Namespaced"];

/// How the server shows `spec.versions` in its `Invalid value` (Go's `%#v`
/// of the whole list, which vergate does not reproduce).
const VERSIONS_SHOWN: &str = "[]apiextensions.CustomResourceDefinitionVersion{…}";

/// The checks, by the definition of the object they read.
pub(super) const CHECKS: Table = &[
    (
        "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition",
        crd,
    ),
    (
        "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition",
        conversion_review_versions,
    ),
];

/// `validateConversionReviewVersions` of a `Webhook` conversion on create:
/// at least one version, each once and a DNS-1035 label, one of them a
/// version the server reads (`v1`, `v1beta1`). The server names the
/// internal type's path, `spec.conversion.conversionReviewVersions`.
fn conversion_review_versions(_: &Scope, object: &[Entry], line: u32, out: &mut Vec<Broken>) {
    let conversion = entries_of(entries_of(object, "spec"), "conversion");
    if str_at(conversion, "strategy") != Some("Webhook") {
        return;
    }
    let webhook = entries_of(conversion, "webhook");
    let Some(list) = get(webhook, "conversionReviewVersions") else {
        // Absent: the schema's `required`.
        return;
    };
    let path = "spec.conversion.conversionReviewVersions";
    let versions = items_at(webhook, "conversionReviewVersions");
    if versions.is_empty() {
        if matches!(list.value, Value::Seq(_)) {
            push(out, path.to_owned(), list.line, required(""));
        }
        return;
    }
    let mut seen: Vec<&str> = Vec::with_capacity(versions.len());
    let mut accepted = false;
    for (index, version) in versions.iter().enumerate() {
        let Some(text) = version.as_str() else {
            return;
        };
        let last = format!("{path}[{index}]");
        if seen.contains(&text) {
            push(
                out,
                last,
                version.line,
                invalid_str(text, "duplicate version"),
            );
            continue;
        }
        seen.push(text);
        for message in crate::preflight::names::dns1035_label(text) {
            push(out, last.clone(), version.line, invalid_str(text, &message));
        }
        accepted |= matches!(text, "v1" | "v1beta1");
    }
    if !accepted {
        let shown: Vec<String> = versions
            .iter()
            .filter_map(Node::as_str)
            .map(go_quoted)
            .collect();
        let message = format!(
            "Invalid value: []string{{{}}}: must include at least one of v1, v1beta1",
            shown.join(", ")
        );
        push(out, path.to_owned(), list.line.max(line), message);
    }
}

/// `ValidateCustomResourceDefinition` on create, the parts above.
fn crd(_: &Scope, object: &[Entry], line: u32, out: &mut Vec<Broken>) {
    if let Some(fields) = get(object, "spec").and_then(Node::as_map) {
        let spec_line = line_of_key(object, "spec", line);
        scope(fields, spec_line, out);
        versions(fields, spec_line, out);
    }
    // The schemas as read, with their lines (no JSON copy of the CRD).
    let Some(spec) = get(object, "spec") else {
        return;
    };
    for reason in schema_reasons(spec) {
        out.push(Broken {
            line: line_at(object, &reason.pointer).unwrap_or(line),
            last: reason.field,
            message: reason.message,
        });
    }
}

/// `spec.scope`: `Cluster` or `Namespaced` (`validateEnumStrings`,
/// required). An absent scope is the schema's `required` finding.
fn scope(spec: &[Entry], line: u32, out: &mut Vec<Broken>) {
    let Some(Value::String(scope)) = get(spec, "scope").map(|node| &node.value) else {
        return;
    };
    let line = line_of_key(spec, "scope", line);
    if scope.is_empty() {
        out.push(at("spec.scope", line, required("")));
    } else if !SCOPES.contains(&scope.as_str()) {
        out.push(at("spec.scope", line, not_supported(scope, &SCOPES)));
    }
}

/// `spec.versions`: each name once, and exactly one version with
/// `storage: true`; reported at the version that breaks it (the second of
/// a name, the second storage version), or at `versions`.
fn versions(spec: &[Entry], line: u32, out: &mut Vec<Broken>) {
    let Some(Value::Seq(versions)) = get(spec, "versions").map(|node| &node.value) else {
        return;
    };
    let line = line_of_key(spec, "versions", line);
    let mut names = std::collections::HashSet::new();
    let mut repeated = None;
    let mut storage = Vec::new();
    for version in versions {
        let Some(fields) = version.as_map() else {
            continue;
        };
        if let Some(name) = get(fields, "name").and_then(Node::as_str) {
            if !names.insert(name) && repeated.is_none() {
                repeated = Some(line_of_key(fields, "name", version.line));
            }
        }
        if get(fields, "storage").is_some_and(|node| node.value == Value::Bool(true)) {
            storage.push(line_of_key(fields, "storage", version.line));
        }
    }
    if let Some(at_line) = repeated {
        let message = invalid_raw(VERSIONS_SHOWN, "must contain unique version names");
        out.push(at("spec.versions", at_line, message));
    }
    if storage.len() != 1 {
        let at_line = storage.get(1).copied().unwrap_or(line);
        let message = invalid_raw(
            VERSIONS_SHOWN,
            "must have exactly one version marked as storage version",
        );
        out.push(at("spec.versions", at_line, message));
    }
}

/// The line of the value at the JSON `pointer` below the object.
fn line_at(object: &[Entry], pointer: &str) -> Option<u32> {
    let mut segments = pointer
        .split('/')
        .skip(1)
        .map(|segment| segment.replace("~1", "/").replace("~0", "~"));
    let first = segments.next()?;
    let entry = object.iter().find(|entry| entry.key == first.as_str())?;
    let mut node: &Node = &entry.value;
    let mut line = entry.line;
    for segment in segments {
        match &node.value {
            crate::document::Value::Map(entries) => {
                let entry = entries.iter().find(|entry| entry.key == segment.as_str())?;
                line = entry.line;
                node = &entry.value;
            }
            crate::document::Value::Seq(items) => {
                node = items.get(segment.parse::<usize>().ok()?)?;
                line = node.line;
            }
            _ => return None,
        }
    }
    Some(line)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Version;

    fn broken(yaml: &str) -> Vec<(String, u32, String)> {
        let parsed = crate::document::parse(yaml);
        let root = &parsed.documents[0].root;
        let mut out = Vec::new();
        let scope = Scope {
            target: Version::new(1, 35),
        };
        crd(&scope, root.as_map().unwrap(), 1, &mut out);
        out.into_iter()
            .map(|b| (b.last, b.line, b.message))
            .collect()
    }

    #[test]
    fn a_misspelled_schema_type_is_refused_at_its_line() {
        let found = broken(
            "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: notes.example.com\nspec:\n  group: example.com\n  names: {kind: Note, plural: notes}\n  scope: Namespaced\n  versions:\n  - name: v1\n    served: true\n    storage: true\n    schema:\n      openAPIV3Schema:\n        type: object\n        properties:\n          message:\n            type: strign\n",
        );
        assert_eq!(
            found,
            [(
                "spec.validation.openAPIV3Schema.properties[message].type".to_owned(),
                18,
                "Unsupported value: \"strign\": supported values: \"array\", \"boolean\", \"integer\", \"number\", \"object\", \"string\"".to_owned()
            )]
        );
    }

    /// The corpus's cases: `scope: Namespacedx`, and a version listed
    /// twice (both marked as storage).
    #[test]
    fn an_unknown_scope_and_a_repeated_version_are_refused() {
        let head = "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nspec:\n  group: example.com\n";
        let found = broken(&format!(
            "{head}  scope: Namespacedx\n  versions:\n  - {{name: v1, served: true, storage: true}}\n"
        ));
        assert_eq!(
            found,
            [(
                "spec.scope".to_owned(),
                5,
                "Unsupported value: \"Namespacedx\": supported values: \"Cluster\", \"Namespaced\""
                    .to_owned()
            )]
        );
        let found = broken(&format!(
            "{head}  scope: Cluster\n  versions:\n  - name: v1\n    storage: true\n  - name: v1\n    storage: true\n"
        ));
        let shown: Vec<(u32, &str)> = found
            .iter()
            .map(|(last, line, message)| {
                assert_eq!(last, "spec.versions");
                (*line, message.rsplit(": ").next().unwrap())
            })
            .collect();
        assert_eq!(
            shown,
            [
                (9, "must contain unique version names"),
                (
                    10,
                    "must have exactly one version marked as storage version"
                )
            ]
        );
        assert!(broken(&format!(
            "{head}  scope: \"\"\n  versions: [{{name: v1, storage: true}}]\n"
        ))[0]
            .2
            .starts_with("Required value"));
    }

    #[test]
    fn a_valid_crd_passes() {
        let found = broken(
            "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nspec:\n  scope: Cluster\n  versions:\n  - name: v1\n    storage: true\n    schema:\n      openAPIV3Schema: {type: object, properties: {a: {type: string, pattern: '^[a-z]+$'}}}\n",
        );
        assert!(found.is_empty(), "{found:?}");
    }

    #[test]
    fn webhook_conversion_review_versions() {
        let crd =
            "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition";
        let found = |versions: &str| {
            let yaml = format!("spec:\n  conversion:\n    strategy: Webhook\n    webhook:\n      conversionReviewVersions: {versions}\n");
            super::super::tests::messages(crd, &yaml)
        };
        assert!(found("[v1, v1beta1]").is_empty());
        assert_eq!(
            found("[v1, v1]"),
            ["spec.conversion.conversionReviewVersions[1]@5: Invalid value: \"v1\": duplicate version"]
        );
        assert_eq!(
            found("[v2]"),
            ["spec.conversion.conversionReviewVersions@5: Invalid value: []string{\"v2\"}: must include at least one of v1, v1beta1"]
        );
        assert_eq!(
            found("[]"),
            ["spec.conversion.conversionReviewVersions@5: Required value"]
        );
    }
}
