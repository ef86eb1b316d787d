//! Converting a document from one minor to another: renames applied, the
//! version field bumped, values whose type changed converted where that is
//! lossless (the table in `retype.rs`), and every loss (a field the other minor does
//! not have, a type change that cannot be converted, an enum value it does
//! not accept) reported.
//!
//! The conversion works in both directions so that `vergate upgrade --all`
//! can write a document for older minors too, but only where it is lossless;
//! a plain upgrade refuses to go to an older minor.

use crate::document::{Node, Value};
use crate::preflight::{identify, DocumentError, Identity};
use crate::tables::GateTables;
use crate::Version;
use converter::Converter;
use std::fmt;

mod converter;
pub mod copies;
pub mod edit;
mod list;
mod render;
mod retype;

/// What a conversion changed or could not carry over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChangeKind {
    /// A field renamed between the two minors; its value is kept.
    Renamed,
    /// The document's own minor field was rewritten.
    VersionBumped,
    /// The document moved to the apiVersion that serves its kind in the
    /// other minor (`flowcontrol.apiserver.k8s.io/v1beta3` → `…/v1`).
    ApiVersionChanged,
    /// A field the other minor does not have; dropped from the output.
    Dropped,
    /// A value converted to its field's new type without loss (`8080` →
    /// `"8080"`), or kept because the new type accepts it as written.
    Converted,
    /// A value whose type differs between the minors and that cannot be
    /// converted without loss; kept as written, so the conversion
    /// [refuses](Conversion::is_refused) to be used.
    TypeChanged,
    /// An enum value the other minor does not accept; kept as written, so
    /// the conversion [refuses](Conversion::is_refused) to be used.
    ValueNotAccepted,
    /// The document's kind is not served in the other minor (nor under
    /// another apiVersion); the conversion refuses to be used.
    KindNotServed,
    /// A field the other minor requires and the old one did not, missing
    /// from the document (or null); the conversion refuses to be used.
    MissingRequired,
}

impl ChangeKind {
    /// True when the change loses or leaves behind something.
    pub fn is_loss(&self) -> bool {
        !matches!(
            self,
            ChangeKind::Renamed
                | ChangeKind::VersionBumped
                | ChangeKind::ApiVersionChanged
                | ChangeKind::Converted
        )
    }

    /// True when the output would be rejected and must not be written: a
    /// value of the wrong type or outside the enum, or a kind not served.
    pub fn refuses(&self) -> bool {
        matches!(
            self,
            ChangeKind::TypeChanged
                | ChangeKind::ValueNotAccepted
                | ChangeKind::KindNotServed
                | ChangeKind::MissingRequired
        )
    }
}

/// One change, with the path and line in the input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    pub kind: ChangeKind,
    pub path: String,
    pub line: u32,
    pub message: String,
}

impl fmt::Display for Change {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

/// A converted document and what the conversion did.
#[derive(Clone, Debug, PartialEq)]
pub struct Conversion {
    pub from: Version,
    pub to: Version,
    pub document: Node,
    pub changes: Vec<Change>,
}

impl Conversion {
    /// True when nothing was lost.
    pub fn is_lossless(&self) -> bool {
        !self.changes.iter().any(|change| change.kind.is_loss())
    }

    /// True when `to` would reject the output: a value that could not be
    /// converted to its new type or is not in its enum there (kept as
    /// written), or a kind `to` does not serve. It must not be written out.
    pub fn is_refused(&self) -> bool {
        self.changes.iter().any(|change| change.kind.refuses())
    }
}

/// Converts `root` to minor `to`. `from` defaults to the document's own minor
/// (its `apiVersion`, for APIs whose documents carry it). The items of a
/// `v1` `List` are converted each as a document, and so are the items of a
/// typed list (`FlowSchemaList`) that name their own apiVersion and kind
/// (`list.rs`).
pub fn convert(
    tables: &GateTables,
    root: &Node,
    from: Option<Version>,
    to: Version,
) -> Result<Conversion, DocumentError> {
    let identity = identify(tables, root)?;
    if let Some(items) = list::items(&identity, root) {
        return list::convert_items(tables, root, items, from, to);
    }
    let from = from.or(identity.own_minor).ok_or_else(|| DocumentError {
        line: root.line,
        message: format!(
            "{} {} does not say which minor it is written for; pass --from",
            identity.api_version, identity.kind
        ),
    })?;
    for version in [from, to] {
        if !tables.has_version(version) {
            return Err(DocumentError {
                line: root.line,
                message: format!(
                    "{} has no minor {version} (its minors: {})",
                    tables.api(),
                    tables.versions_text()
                ),
            });
        }
    }
    let mut converter = Converter::new(from, to);
    let found = identity
        .type_name
        .and_then(|name| Some((name, tables.ty(name)?)));
    let mut document = match found {
        Some((name, ty)) if ty.gate.is_present_in(to) => {
            converter.document(tables, root, name, name)
        }
        Some((name, _)) => match replacement(tables, &identity, to) {
            Some((api_version, new_name)) => {
                let mut document = converter.document(tables, root, name, new_name);
                if let Some(node) = document.get_mut("apiVersion") {
                    node.value = Value::String(api_version.as_str().into());
                }
                converter.change_at(
                    String::from("apiVersion"),
                    ChangeKind::ApiVersionChanged,
                    root.get("apiVersion").map_or(root.line, |node| node.line),
                    format!(
                        "{} → {api_version} ({} {} is not served in {to})",
                        identity.api_version, identity.api_version, identity.kind
                    ),
                );
                document
            }
            None => {
                converter.change_at(
                    String::new(),
                    ChangeKind::KindNotServed,
                    root.line,
                    format!(
                        "{} {} is not served in {to}, and no other apiVersion of {} is",
                        identity.api_version, identity.kind, identity.kind
                    ),
                );
                root.clone()
            }
        },
        None => match crate::preflight::retired(tables, &identity) {
            Some(retired) => retired_document(tables, &mut converter, &identity, retired, root, to),
            None => root.clone(),
        },
    };
    if identity.own_minor.is_some() && from != to {
        if let Some(node) = document.get_mut("apiVersion") {
            let line = node.line;
            node.value = Value::String(to.to_string().into());
            converter.change_at(
                String::from("apiVersion"),
                ChangeKind::VersionBumped,
                line,
                format!("{from} → {to}"),
            );
        }
    }
    let mut changes = converter.changes;
    list::convert_own_items(
        tables,
        &identity,
        root,
        &mut document,
        &mut changes,
        from,
        to,
    )?;
    changes.sort_by_key(|change| change.line);
    Ok(Conversion {
        from,
        to,
        document,
        changes,
    })
}

/// A document of a kind the API served before its first minor
/// (`extensions/v1beta1 Ingress`): moved to the replacement its lifecycle
/// names when the document fits the replacement's shape in `to` as written
/// (`autoscaling/v2beta2` → `autoscaling/v2` HorizontalPodAutoscaler);
/// otherwise refused, naming the replacement and every field that does not
/// fit. Never written as it is: `to` does not serve it.
fn retired_document(
    tables: &GateTables,
    converter: &mut Converter,
    identity: &Identity,
    retired: &crate::gates::RetiredKind,
    root: &Node,
    to: Version,
) -> Node {
    let line = root.get("apiVersion").map_or(root.line, |node| node.line);
    let served = format!("{} {}", identity.api_version, identity.kind);
    let removed = retired
        .lifecycle
        .removed
        .map(|removed| format!(" (removed in {removed})"))
        .unwrap_or_default();
    let replacement = retired.lifecycle.replacement.as_ref().and_then(|gvk| {
        let name = tables
            .types_for_gvk(&gvk.group, &gvk.version, &gvk.kind)
            .find(|name| tables.ty(name).is_some_and(|ty| ty.gate.is_present_in(to)))?;
        Some((gvk, name))
    });
    let Some((gvk, name)) = replacement else {
        converter.change_at(
            String::new(),
            ChangeKind::KindNotServed,
            line,
            format!("{served} is not served in {to}{removed}, and nothing replaces it there"),
        );
        return root.clone();
    };
    let api_version = gvk.api_version();
    let mut trial = Converter::new(to, to);
    let mut document = trial.document(tables, root, name, name);
    if let Some(node) = document.get_mut("apiVersion") {
        node.value = Value::String(api_version.as_str().into());
    }
    if gvk.kind != identity.kind {
        if let Some(node) = document.get_mut("kind") {
            node.value = Value::String(gvk.kind.as_str().into());
        }
    }
    // What the replacement would refuse, unknown fields included: the
    // document is moved only when `check --target` would pass it.
    let strict = crate::preflight::Options {
        target: Some(to),
        strict: true,
        fields: crate::preflight::FieldValidation::Strict,
        feature_gates: None,
    };
    let mut misfits: Vec<String> = trial
        .changes
        .iter()
        .filter(|change| change.kind.is_loss())
        .map(|change| change.path.clone())
        .collect();
    if let Ok(report) = crate::preflight::check(tables, &document, strict) {
        misfits.extend(
            report
                .violations
                .iter()
                .filter(|violation| violation.severity.is_error())
                .map(|violation| format!("{} ({})", violation.path, violation.message)),
        );
    }
    if !misfits.is_empty() {
        converter.change_at(
            String::new(),
            ChangeKind::KindNotServed,
            line,
            format!(
                "{served} is not served in {to}{removed}; its replacement {api_version} {} has another shape, and these do not fit it: {}; convert the document by hand",
                gvk.kind,
                misfits.join(", ")
            ),
        );
        return root.clone();
    }
    converter.changes.extend(trial.changes);
    converter.change_at(
        String::from("apiVersion"),
        ChangeKind::ApiVersionChanged,
        line,
        format!(
            "{} → {api_version} ({served} is not served in {to}{removed})",
            identity.api_version
        ),
    );
    document
}

/// The apiVersion and type serving the document's kind in `to`, when its own
/// group/version is not served there (Kubernetes-style documents only).
fn replacement<'t>(
    tables: &'t GateTables,
    identity: &Identity,
    to: Version,
) -> Option<(String, &'t str)> {
    if identity.own_minor.is_some() {
        return None;
    }
    let gvk = tables.served_kind(identity.group(), identity.kind, to)?;
    let name = tables
        .types_for_gvk(&gvk.group, &gvk.version, &gvk.kind)
        .find(|name| tables.ty(name).is_some_and(|ty| ty.gate.is_present_in(to)))?;
    Some((gvk.api_version(), name))
}

/// Writes documents as multi-document YAML.
pub fn to_yaml(documents: &[&Node]) -> String {
    let mut out = String::new();
    for document in documents {
        let mut text = String::new();
        let mut emitter = yaml_rust2::YamlEmitter::new(&mut text);
        emitter.multiline_strings(true);
        emitter
            .dump(&document.to_yaml())
            .expect("writing YAML to a String cannot fail");
        out.push_str(&text);
        out.push('\n');
    }
    out
}
