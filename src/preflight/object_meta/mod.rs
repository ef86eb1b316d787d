//! `metadata` as the API server validates it on create
//! (k8s.io/apimachinery `pkg/api/validation/objectmeta.go`, and what the
//! create path does before: name generation, namespace defaulting), in
//! the server's words and at its paths (`metadata.name`,
//! `metadata.labels`):
//! - the name by the rule the kind's validation passes (the table in
//!   [`kinds`]), then the generic registry's path-segment rule; a
//!   `generateName`, and the name the server generates from it (its first
//!   58 bytes and 5 random characters); no name at all;
//! - a namespaced document's namespace, a DNS-1123 label when given (an
//!   empty one is the request's; a cluster-scoped kind's is cleared);
//! - label keys and values, annotation keys and their total size;
//! - finalizers and owner references ([`refs`]);
//! - what a kind's strategy adds: a Job's name becomes a label of its
//!   template, a Namespace's a label of its own; a LimitRange without a
//!   name gets one; the Pod Security labels of a Namespace; the
//!   warnings of the kinds whose names become Pods' hostnames.
//!
//! Custom resources get apiextensions' validator: a DNS-1123 subdomain.

mod kinds;
mod refs;
mod strategy;

use super::feature_gates::FeatureGates;
use super::names::{self, Words};
use super::violation::{Deviation, Rule, Violation};
use crate::document::{Entry, Node, Value};
use crate::tables::GateTables;
use crate::walk::go_quoted;
use crate::Version;
use kinds::{NameRule, Scope};

/// The annotations' total size limit (`TotalAnnotationSizeLimitB`).
const ANNOTATIONS_MAX: usize = 256 << 10;
/// The bytes of `generateName` a generated name keeps
/// (`names.MaxGeneratedNameLength`), before 5 random characters.
const GENERATED_BASE_MAX: usize = 58;

/// Who the document is, for its metadata rules.
pub(super) struct Kind<'a> {
    pub group: &'a str,
    pub kind: &'a str,
    /// A custom resource (its type from a CRD).
    pub custom: bool,
}

impl Kind<'_> {
    pub(super) fn is(&self, group: &str, kind: &str) -> bool {
        !self.custom && self.group == group && self.kind == kind
    }
}

/// The metadata violations of `root`, a document of `kind`, on `target`;
/// nothing for a kind that is not stored.
pub(super) fn check<'n>(
    tables: &GateTables,
    kind: &Kind,
    root: &'n Node,
    target: Version,
    gates: Option<&FeatureGates>,
) -> Vec<Violation> {
    if kinds::NOT_STORED.contains(&(kind.group, kind.kind)) {
        return Vec::new();
    }
    let mut resolved = kinds::resolve(kind.group, kind.kind, kind.custom, target);
    if resolved.name == NameRule::Service && relaxed_service_names(tables, target, gates) {
        resolved.name = NameRule::Label;
    }
    let mut out = Vec::new();
    // `metadata: null` is no metadata, as Go decodes it.
    let entries: &[Entry] = match root.get("metadata").map(|node| &node.value) {
        None | Some(Value::Null) => &[],
        Some(Value::Map(entries)) => entries,
        // Not a mapping: the walk reports its type.
        Some(_) => return out,
    };
    let fields = Fields::of(entries);
    let text = |field: Option<&'n Entry>| {
        field.and_then(|entry| entry.value.as_str().map(|text| (entry, text)))
    };
    let words = Words::of_labels(target);
    let name = text(fields.name).filter(|(_, text)| !text.is_empty());
    let generate = text(fields.generate_name).filter(|(_, text)| !text.is_empty());
    name_rules(kind, &resolved, name, generate, root, entries, &mut out);
    if let (Some(Scope::Namespaced), Some((entry, namespace))) = (
        resolved.scope,
        text(fields.namespace).filter(|(_, text)| !text.is_empty()),
    ) {
        for message in names::dns1123_label(namespace) {
            out.push(invalid(
                "metadata.namespace",
                entry.line,
                namespace,
                &message,
            ));
        }
    }
    let labels = match fields.labels.map(|entry| &entry.value.value) {
        Some(Value::Map(labels)) => labels.as_slice(),
        _ => &[],
    };
    for label in labels {
        for message in names::qualified_name_in(&label.key, words) {
            out.push(invalid("metadata.labels", label.line, &label.key, &message));
        }
        if let Some(value) = label.value.as_str() {
            for message in names::label_value_in(value, words) {
                out.push(invalid("metadata.labels", label.line, value, &message));
            }
        }
    }
    if let Some(entry) = fields.annotations {
        if let Value::Map(annotations) = &entry.value.value {
            annotations_errors(annotations, entry.line, target, words, &mut out);
        }
    }
    if let Some(entry) = fields.finalizers {
        refs::finalizers(&entry.value, resolved.meta, kind.custom, words, &mut out);
    }
    if let Some(entry) = fields.owner_references {
        refs::owner_references(&entry.value, &mut out);
    }
    if kind.is("", "Namespace") {
        strategy::pod_security_labels(labels, &mut out);
    }
    if let Some((entry, value)) = name {
        strategy::name_labels(kind, value, entry.line, root, words, &mut out);
        if kinds::NAME_WARNS.contains(&(kind.group, kind.kind)) && !kind.custom {
            strategy::name_warning(kind, value, entry.line, &mut out);
        }
    }
    out
}

/// The fields of `metadata` the checks read, each its first entry, found
/// in one pass over the entries.
#[derive(Default)]
struct Fields<'n> {
    name: Option<&'n Entry>,
    generate_name: Option<&'n Entry>,
    namespace: Option<&'n Entry>,
    labels: Option<&'n Entry>,
    annotations: Option<&'n Entry>,
    finalizers: Option<&'n Entry>,
    owner_references: Option<&'n Entry>,
}

impl<'n> Fields<'n> {
    fn of(entries: &'n [Entry]) -> Fields<'n> {
        let mut fields = Fields::default();
        for entry in entries {
            let slot = match entry.key.as_str() {
                "name" => &mut fields.name,
                "generateName" => &mut fields.generate_name,
                "namespace" => &mut fields.namespace,
                "labels" => &mut fields.labels,
                "annotations" => &mut fields.annotations,
                "finalizers" => &mut fields.finalizers,
                "ownerReferences" => &mut fields.owner_references,
                _ => continue,
            };
            slot.get_or_insert(entry);
        }
        fields
    }
}

/// The name and `generateName` as the create path checks them: the
/// kind's rule, then (when that passes) the generic registry's.
fn name_rules(
    kind: &Kind,
    resolved: &kinds::Resolved,
    name: Option<(&Entry, &str)>,
    generate: Option<(&Entry, &str)>,
    root: &Node,
    entries: &[Entry],
    out: &mut Vec<Violation>,
) {
    let errors = |value: &str, prefix: bool| {
        let errors = name_errors(resolved.name, value, prefix);
        if errors.is_empty() && resolved.name != NameRule::PathSegment {
            names::path_segment(value, prefix)
        } else {
            errors
        }
    };
    if let Some((entry, value)) = generate.filter(|_| resolved.checks_generate_name) {
        for message in errors(value, true) {
            out.push(invalid(
                "metadata.generateName",
                entry.line,
                value,
                &message,
            ));
        }
    }
    match (name, generate) {
        (Some((entry, value)), _) => {
            for message in errors(value, false) {
                out.push(invalid("metadata.name", entry.line, value, &message));
            }
        }
        (None, Some((entry, value))) => {
            // The server names the object before validating it: the
            // random characters are lowercase letters and digits, valid
            // in every rule, so any other suffix of theirs stands in.
            let mut cut = value.len().min(GENERATED_BASE_MAX);
            while !value.is_char_boundary(cut) {
                cut -= 1;
            }
            let base = &value[..cut];
            for message in errors(&format!("{base}bcdfg"), false) {
                out.push(error(
                    "metadata.name",
                    entry.line,
                    format!(
                        "Invalid value: {} and 5 random characters (the name generated from generateName): {message}",
                        go_quoted(base)
                    ),
                ));
            }
        }
        // A LimitRange without a name is given a UUID (its strategy's
        // PrepareForCreate).
        (None, None) if kind.is("", "LimitRange") => {}
        (None, None) => out.push(error(
            "metadata.name",
            find(entries, "name").map_or(metadata_line(root), |entry| entry.line),
            "Required value: name or generateName is required".to_owned(),
        )),
    }
}

/// The messages of `rule` for `name` (`prefix`: a `generateName`).
fn name_errors(rule: NameRule, name: &str, prefix: bool) -> Vec<String> {
    let masked = if prefix {
        names::mask_trailing_dash(name)
    } else {
        name.into()
    };
    match rule {
        NameRule::Subdomain => names::dns1123_subdomain(&masked),
        NameRule::LongName => names::dns1123_subdomain_in(&masked, Words::Content),
        NameRule::CronJob => {
            let mut errors = names::dns1123_subdomain(&masked);
            // Checked on the name alone, after the object's metadata.
            if !prefix && name.len() > names::DNS_LABEL_MAX - 11 {
                errors.push("must be no more than 52 characters".to_owned());
            }
            errors
        }
        NameRule::Label => names::dns1123_label(&masked),
        NameRule::Service => names::dns1035_label(&masked),
        NameRule::PathSegment => names::path_segment(name, prefix),
        NameRule::Any => Vec::new(),
    }
}

/// Annotation keys (qualified names, case aside) and the total size.
fn annotations_errors(
    annotations: &[Entry],
    line: u32,
    target: Version,
    words: Words,
    out: &mut Vec<Violation>,
) {
    let mut total = 0usize;
    for annotation in annotations {
        // Lowercased as the server does; most keys already are, and are
        // read as they are.
        let key = annotation.key.as_str();
        let lowered = if key.bytes().any(|byte| byte.is_ascii_uppercase()) {
            std::borrow::Cow::Owned(key.to_ascii_lowercase())
        } else {
            std::borrow::Cow::Borrowed(key)
        };
        for message in names::qualified_name_in(&lowered, words) {
            out.push(invalid(
                "metadata.annotations",
                annotation.line,
                &annotation.key,
                &message,
            ));
        }
        total += annotation.key.len() + annotation.value.as_str().map_or(0, str::len);
    }
    if total > ANNOTATIONS_MAX {
        // field.TooLong's words changed in 1.30.
        let message = if target < Version::new(1, 30) {
            format!("Too long: must have at most {ANNOTATIONS_MAX} bytes")
        } else {
            format!("Too long: may not be more than {ANNOTATIONS_MAX} bytes")
        };
        out.push(error("metadata.annotations", line, message));
    }
}

/// Whether Service names are DNS-1123 labels on `target`: the
/// `RelaxedServiceNameValidation` gate, as set or by its default there.
fn relaxed_service_names(
    tables: &GateTables,
    target: Version,
    gates: Option<&FeatureGates>,
) -> bool {
    const GATE: &str = "RelaxedServiceNameValidation";
    // k8s.io/kubernetes pkg/features/kube_features.go: alpha (off) in 1.34,
    // beta and on from 1.36; the recorded feature-gate pages do not have
    // it, and win where they do.
    const ON_FROM: Version = Version::new(1, 36);
    let default = tables
        .feature_gate_in(GATE, target)
        .map_or(target >= ON_FROM, |state| state.default);
    match gates {
        Some(gates) if gates.is_set(GATE) => {
            gates.is_enabled(Some(GATE), crate::gates::Stage::Beta, default)
        }
        _ => default,
    }
}

fn find<'n>(entries: &'n [Entry], key: &str) -> Option<&'n Entry> {
    entries.iter().find(|entry| entry.key == key)
}

fn metadata_line(root: &Node) -> u32 {
    root.as_map()
        .and_then(|entries| find(entries, "metadata"))
        .map_or(root.line, |entry| entry.line)
}

/// `Invalid value: "Foo_Bar": <message>`, as `field.Invalid` reads.
fn invalid(path: &str, line: u32, value: &str, message: &str) -> Violation {
    error(
        path,
        line,
        format!("Invalid value: {}: {message}", go_quoted(value)),
    )
}

fn error(path: &str, line: u32, message: String) -> Violation {
    Violation::new(Rule::ObjectMeta, path.to_owned(), line, message)
}

/// What the server accepts with a warning in its response.
fn warning(path: &str, line: u32, message: String) -> Violation {
    error(path, line, message).deviating(Deviation::ServerWarning)
}

#[cfg(test)]
mod tests;
