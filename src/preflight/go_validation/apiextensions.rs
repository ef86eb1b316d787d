//! apiextensions' checks of a CustomResourceDefinition
//! (apiextensions-apiserver `pkg/apis/apiextensions/validation`
//! `ValidateCustomResourceDefinition`), as far as the CRD reader knows
//! them: the schema types and patterns the server refuses on create
//! (`engine::crds::refused`, which also makes such a CRD's resources
//! unserved). A CRD given as a document to check is refused here, at the
//! server's field path and the line of the refused value.

use super::field_error::{invalid_str, items_at, push, required, str_at};
use super::read::{entries_of, get};
use super::{Broken, Scope, Table};
use crate::document::{Entry, Node, Value};
use crate::engine::crds::refused::schema_reasons;
use crate::walk::go_quoted;

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

/// The schema part of `ValidateCustomResourceDefinition` on create.
fn crd(_: &Scope, object: &[Entry], line: u32, out: &mut Vec<Broken>) {
    let root = serde_json::Value::Object(
        object
            .iter()
            .map(|entry| (entry.key.to_string(), entry.value.to_json()))
            .collect(),
    );
    for reason in schema_reasons(&root) {
        out.push(Broken {
            line: line_at(object, &reason.pointer).unwrap_or(line),
            last: reason.field,
            message: reason.message,
        });
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

    #[test]
    fn a_valid_crd_passes() {
        let found = broken(
            "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nspec:\n  versions:\n  - name: v1\n    schema:\n      openAPIV3Schema: {type: object, properties: {a: {type: string, pattern: '^[a-z]+$'}}}\n",
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
