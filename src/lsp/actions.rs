//! Code actions: the fixes a finding allows, each one edit that changes
//! only what it must.
//!
//! - **Upgrade the apiVersion** of a document whose kind the target does
//!   not serve (or deprecates): `upgrade`'s conversion and its minimal
//!   edits (`upgrade::edit`), offered only when the conversion is not
//!   refused (the document fits the replacement) and, for a deprecated one
//!   still served, when nothing but the apiVersion changes.
//! - **Remove a field** the target does not serve (not yet introduced,
//!   removed, absent in this minor): the document without that entry,
//!   written back by the same minimal edits (its lines in block style, the
//!   entry and one comma in flow style).
//! - **Replace a misspelled key** with the finding's "did you mean"
//!   candidate: the key's text alone.
//!
//! A whole-file rewrite becomes one edit over the bytes that differ
//! (`minimal_edit`).

use super::minimal_edit;
use crate::document::spans::{self, Spanned, Written};
use crate::document::{self, Node, Value};
use crate::preflight::Rule;
use crate::tables::GateTables;
use crate::upgrade::{self, edit, ChangeKind};
use crate::Version;

/// A finding as a fix needs it.
#[derive(Clone, Copy, Debug)]
pub struct Fixable<'a> {
    pub rule: Rule,
    /// The byte range of the offending key (or value, or document start).
    pub span: &'a std::ops::Range<usize>,
    pub message: &'a str,
}

/// One fix: its title and its edit of the text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fix {
    pub title: String,
    pub range: std::ops::Range<usize>,
    pub text: String,
    /// True for the fix an editor may apply on its own.
    pub preferred: bool,
}

/// The fixes of `finding` in `text`, checked against `target`.
pub fn fixes(tables: &GateTables, target: Version, text: &str, finding: Fixable<'_>) -> Vec<Fix> {
    let fix = match finding.rule {
        Rule::KindNotServed | Rule::Deprecated | Rule::RemovedAhead | Rule::UnknownKind => {
            upgrade_api_version(tables, target, text, finding.span)
        }
        Rule::NotYetIntroduced | Rule::Removed | Rule::NotInMinor => {
            remove_field(text, finding.span, target)
        }
        Rule::UnknownField => did_you_mean(text, finding),
        _ => None,
    };
    fix.into_iter().collect()
}

/// The candidate of "did you mean \"x\"?" put in place of the key.
fn did_you_mean(text: &str, finding: Fixable<'_>) -> Option<Fix> {
    let (_, rest) = finding.message.split_once("did you mean \"")?;
    let (candidate, _) = rest.split_once("\"?")?;
    let written = text.get(finding.span.clone())?;
    let quote = written.chars().next().filter(|c| *c == '"' || *c == '\'');
    let range = match quote {
        Some(_) if written.len() >= 2 => finding.span.start + 1..finding.span.end - 1,
        _ => finding.span.clone(),
    };
    if candidate.is_empty() || text.get(range.clone())? == candidate {
        return None;
    }
    Some(Fix {
        title: format!("Replace {:?} with {candidate:?}", &text[range.clone()]),
        range,
        text: candidate.to_owned(),
        preferred: true,
    })
}

/// The documents of `text` as read, with their spans, when both agree.
fn read(text: &str) -> Option<(Vec<document::Document>, Vec<Spanned>)> {
    let parsed = document::parse(text);
    if parsed.error.is_some() {
        return None;
    }
    let layout = spans::layout(text)?;
    (layout.documents.len() == parsed.documents.len())
        .then_some((parsed.documents, layout.documents))
}

/// The document holding byte `offset`: the last one starting at or
/// before it (comments before a document's first key belong to it).
fn document_at(layout: &[Spanned], offset: usize) -> Option<usize> {
    if layout.is_empty() {
        return None;
    }
    Some(
        layout
            .iter()
            .rposition(|doc| doc.start <= offset)
            .unwrap_or(0),
    )
}

/// The text with document `at` replaced by `intended`, by upgrade's
/// minimal edits, as one edit.
fn rewrite(
    text: &str,
    documents: &[document::Document],
    at: usize,
    intended: Node,
) -> Option<(std::ops::Range<usize>, String)> {
    let mut values: Vec<Node> = documents.iter().map(|doc| doc.root.clone()).collect();
    values[at] = intended;
    let targets = edit::targets(documents, &values);
    let new = edit::rewrite(text, &targets).ok()??;
    minimal_edit::diff(text, &new)
}

fn upgrade_api_version(
    tables: &GateTables,
    target: Version,
    text: &str,
    span: &std::ops::Range<usize>,
) -> Option<Fix> {
    let (documents, layout) = read(text)?;
    let at = document_at(&layout, span.start)?;
    let root = &documents[at].root;
    let api_version = root.get("apiVersion")?.as_str()?;
    let kind = root.get("kind")?.as_str()?;
    let ty = super::schema::root_type(tables, api_version, kind).and_then(|name| tables.ty(name));
    // From the last minor that serves it, to the target; or, for one the
    // target still serves, to the minor that removes it.
    let (from, to) = match ty {
        None => (target, target),
        Some(ty) if !ty.gate.is_present_in(target) => {
            let from = tables
                .versions()
                .iter()
                .rev()
                .find(|minor| **minor < target && ty.gate.is_present_in(**minor))?;
            (*from, target)
        }
        Some(ty) => (target, ty.gate.removed_in?),
    };
    let conversion = upgrade::convert(tables, root, Some(from), to).ok()?;
    if conversion.is_refused() {
        return None;
    }
    if to != target
        && conversion
            .changes
            .iter()
            .any(|change| change.kind != ChangeKind::ApiVersionChanged)
    {
        return None;
    }
    let new_api_version = conversion.document.get("apiVersion")?.as_str()?.to_owned();
    let new_kind = conversion.document.get("kind")?.as_str()?;
    if new_api_version == api_version {
        return None;
    }
    // The replacement must be served in the target itself.
    let served = super::schema::root_type(tables, &new_api_version, new_kind)
        .and_then(|name| tables.ty(name))
        .is_some_and(|ty| ty.gate.is_present_in(target));
    if !served {
        return None;
    }
    let dropped = conversion
        .changes
        .iter()
        .filter(|change| change.kind == ChangeKind::Dropped)
        .count();
    let (range, replacement) = rewrite(text, &documents, at, conversion.document)?;
    let mut title = format!("Upgrade to apiVersion {new_api_version}");
    if dropped > 0 {
        title.push_str(&format!(
            " (drops {dropped} field{} {target} does not have)",
            if dropped == 1 { "" } else { "s" }
        ));
    }
    Some(Fix {
        title,
        range,
        text: replacement,
        preferred: dropped == 0,
    })
}

/// Where an entry is in a document: the index of each map entry and list
/// item from the root.
fn entry_path(node: &Spanned, key_span: &std::ops::Range<usize>, path: &mut Vec<usize>) -> bool {
    match &node.written {
        Written::Map { entries, .. } => {
            for (at, (key, value)) in entries.iter().enumerate() {
                if key.start == key_span.start {
                    path.push(at);
                    return true;
                }
                if value.start <= key_span.start && key_span.start <= value.end {
                    path.push(at);
                    return entry_path(value, key_span, path);
                }
            }
            false
        }
        Written::Seq { items, .. } => {
            for (at, item) in items.iter().enumerate() {
                if item.start <= key_span.start && key_span.start <= item.end {
                    path.push(at);
                    return entry_path(item, key_span, path);
                }
            }
            false
        }
        Written::Scalar { .. } | Written::Alias => false,
    }
}

/// Removes the entry at `path` (indices as [`entry_path`] gives them)
/// from `node`; false when the tree does not match (a repeated key).
fn remove_at(node: &mut Node, path: &[usize]) -> bool {
    let Some((&first, rest)) = path.split_first() else {
        return false;
    };
    match &mut node.value {
        Value::Map(entries) if first < entries.len() => {
            if rest.is_empty() {
                entries.remove(first);
                true
            } else {
                remove_at(&mut entries[first].value, rest)
            }
        }
        Value::Seq(items) if first < items.len() && !rest.is_empty() => {
            remove_at(&mut items[first], rest)
        }
        _ => false,
    }
}

/// Counts a tree's map entries and list items as written, to check that
/// the tree and the spans agree entry for entry (a repeated key is one
/// entry in the tree and two in the spans).
fn same_shape(node: &Node, spanned: &Spanned) -> bool {
    match (&node.value, &spanned.written) {
        (Value::Map(entries), Written::Map { entries: spans, .. }) => {
            entries.len() == spans.len()
                && entries
                    .iter()
                    .zip(spans)
                    .all(|(entry, (_, value))| same_shape(&entry.value, value))
        }
        (Value::Seq(items), Written::Seq { items: spans, .. }) => {
            items.len() == spans.len() && items.iter().zip(spans).all(|(i, s)| same_shape(i, s))
        }
        (Value::Map(_) | Value::Seq(_), _) => false,
        _ => true,
    }
}

fn remove_field(text: &str, span: &std::ops::Range<usize>, target: Version) -> Option<Fix> {
    let (documents, layout) = read(text)?;
    let at = document_at(&layout, span.start)?;
    if !same_shape(&documents[at].root, &layout[at]) {
        return None;
    }
    let mut path = Vec::new();
    if !entry_path(&layout[at], span, &mut path) {
        return None;
    }
    let mut intended = documents[at].root.clone();
    if !remove_at(&mut intended, &path) {
        return None;
    }
    let key = super::locate::unquote(text.get(span.clone())?);
    let (range, replacement) = rewrite(text, &documents, at, intended)?;
    Some(Fix {
        title: format!("Remove {key:?} ({target} does not serve it)"),
        range,
        text: replacement,
        preferred: true,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn apply(text: &str, fix: &Fix) -> String {
        let mut out = text.to_owned();
        out.replace_range(fix.range.clone(), &fix.text);
        out
    }

    fn v(minor: u32) -> Version {
        Version::new(1, minor)
    }

    #[test]
    fn a_removed_api_version_is_upgraded_in_place() {
        let tables = crate::embedded::kubernetes();
        let text = "# keep me\napiVersion: flowcontrol.apiserver.k8s.io/v1beta2 # and me\nkind: FlowSchema\nmetadata:\n  name: x\nspec:\n  priorityLevelConfiguration:\n    name: global-default\n";
        let span = 0..0;
        let finding = Fixable {
            rule: Rule::KindNotServed,
            span: &span,
            message: "",
        };
        let fixes = fixes(&tables, v(34), text, finding);
        assert_eq!(fixes.len(), 1, "{fixes:?}");
        let out = apply(text, &fixes[0]);
        assert_eq!(out, text.replace("v1beta2", "v1"));
        assert!(fixes[0].range.len() <= "beta2".len());
    }

    #[test]
    fn a_deprecated_api_version_still_served_is_upgraded_when_only_it_changes() {
        let tables = crate::embedded::kubernetes();
        let text = "apiVersion: flowcontrol.apiserver.k8s.io/v1beta3\nkind: FlowSchema\nmetadata:\n  name: x\nspec:\n  priorityLevelConfiguration:\n    name: global-default\n";
        let start = text.find("apiVersion").unwrap();
        let span = start..start + "apiVersion".len();
        let finding = Fixable {
            rule: Rule::Deprecated,
            span: &span,
            message: "",
        };
        let fixes = fixes(&tables, v(29), text, finding);
        assert_eq!(fixes.len(), 1, "{fixes:?}");
        assert_eq!(apply(text, &fixes[0]), text.replace("v1beta3", "v1"));
        // Where the replacement is not served yet, nothing is offered.
        assert!(super::fixes(&tables, v(28), text, finding).is_empty());
    }

    #[test]
    fn a_field_the_target_lacks_is_removed_with_its_lines() {
        let tables = crate::embedded::kubernetes();
        let text = "apiVersion: v1\nkind: Service\nspec:\n  trafficDistribution: PreferClose # new\n  type: ClusterIP\n";
        let start = text.find("trafficDistribution").unwrap();
        let span = start..start + "trafficDistribution".len();
        let finding = Fixable {
            rule: Rule::NotYetIntroduced,
            span: &span,
            message: "",
        };
        let fixes = fixes(&tables, v(29), text, finding);
        assert_eq!(
            apply(text, &fixes[0]),
            "apiVersion: v1\nkind: Service\nspec:\n  type: ClusterIP\n"
        );
    }

    #[test]
    fn a_misspelled_key_takes_the_candidate() {
        let tables = crate::embedded::kubernetes();
        let text = "spec:\n  \"replica\": 1\n";
        let start = text.find('"').unwrap();
        let span = start..start + "\"replica\"".len();
        let message = "strict decoding error: unknown field \"spec.replica\" (DeploymentSpec has no field \"replica\" in any minor; did you mean \"replicas\"?)";
        let finding = Fixable {
            rule: Rule::UnknownField,
            span: &span,
            message,
        };
        let fixes = fixes(&tables, v(34), text, finding);
        assert_eq!(apply(text, &fixes[0]), "spec:\n  \"replicas\": 1\n");
    }
}
