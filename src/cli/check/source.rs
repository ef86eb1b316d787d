//! Reading one input and checking its documents.
//!
//! Inputs are checked in parallel, and so are the parts of one input
//! (`document::split` cuts a stream at its document markers); each part's
//! results are merged back in input order, so the output is the one a
//! sequential run gives, byte for byte. A part holds only one document's
//! tree at a time; what is kept is what was found.

use super::{Checked, Found, InputError, Policy, Results, Skipped, NOT_A_MANIFEST, TEMPLATE};
use crate::cli::crds::CustomResources;
use crate::cli::inputs::{ReadError, Source, Text};
use crate::cli::resource::Resource;
use rayon::prelude::*;
use std::sync::Arc;
use vergate::document::{self, Document};
use vergate::findings::Findings;
use vergate::preflight::{self, Options, Rule, Severity, Violation};
use vergate::tables::GateTables;

/// The results of each input, in the order of `sources`, from its text
/// (or why it could not be read) and its parts (`document::split`).
pub(super) fn check_all(
    tables: &GateTables,
    custom: &CustomResources,
    sources: &[Source],
    texts: &[Result<Text, ReadError>],
    parts: &[Vec<document::Part<'_>>],
    policy: &Policy,
) -> Vec<Results> {
    sources
        .par_iter()
        .zip(texts)
        .zip(parts)
        .map(|((source, text), parts)| check_source(tables, custom, source, text, parts, policy))
        .collect()
}

/// Checks the documents of one input, its parts in parallel.
fn check_source(
    tables: &GateTables,
    custom: &CustomResources,
    source: &Source,
    text: &Result<Text, ReadError>,
    parts: &[document::Part<'_>],
    policy: &Policy,
) -> Results {
    let mut results = Results {
        files: vec![source.name.clone()],
        ..Results::default()
    };
    let text = match text {
        Ok(text) => text,
        Err(err) => {
            results.errors.push(InputError {
                file: source.name.clone(),
                line: err.line,
                message: err.message.clone(),
            });
            return results;
        }
    };
    // Walked files that are no manifests (a workflow, a values file, a
    // template) are skipped and listed, whatever the flags: a repository
    // holds more than manifests. A file named makes them an input error.
    let lenient = source.walked;
    if is_template(source, text) {
        if lenient {
            results.skipped.push(Skipped {
                file: source.name.clone(),
                line: 0,
                reason: TEMPLATE.into(),
                noted: true,
            });
        } else {
            results.errors.push(InputError {
                file: source.name.clone(),
                line: 0,
                message: TEMPLATE.into(),
            });
        }
        return results;
    }
    let with_modeline;
    let policy = match modeline(tables, source, text, policy) {
        Ok(None) => policy,
        Ok(Some(own)) => {
            with_modeline = own;
            &with_modeline
        }
        Err(error) => {
            results.errors.push(error);
            return results;
        }
    };
    let check = Check {
        tables,
        custom,
        source,
        file: source.name.as_str().into(),
        policy,
        lenient,
    };
    // Parts are checked a run at a time: enough runs to keep every
    // thread busy, few enough that merging them costs nothing.
    let run = (parts.len() / (rayon::current_num_threads() * 32)).clamp(1, 16);
    let parts: Vec<Part> = parts
        .par_chunks(run)
        .map(|parts| check.parts(parts))
        .collect();
    // Documents are numbered across the file; a part read after a YAML
    // error is not used (one reader stops at the error).
    results.reserve(parts.iter().map(|part| &part.results));
    let mut documents_before = 0;
    for mut part in parts {
        for found in &mut part.results.violations {
            found.document += documents_before;
        }
        documents_before += part.documents;
        results.append(part.results);
        if part.stopped {
            break;
        }
    }
    results
}

/// The policy of a file whose `# vergate: target=…` modeline sets its
/// target (`None`: no modeline, or `--target` given), or the input error
/// of a modeline that does not read or names a minor the API lacks
/// (vergate::settings::modeline_target says where one may be).
fn modeline<'a>(
    tables: &GateTables,
    source: &Source,
    text: &str,
    policy: &Policy<'a>,
) -> Result<Option<Policy<'a>>, InputError> {
    if !policy.modelines {
        return Ok(None);
    }
    let error = |line: u32, message: String| InputError {
        file: source.name.clone(),
        line,
        message,
    };
    match vergate::settings::modeline(text) {
        None => Ok(None),
        Some(Err(err)) => Err(error(
            err.line,
            format!("column {}: {}", err.column, err.message),
        )),
        Some(Ok(found)) if !tables.has_version(found.target) => Err(error(
            found.line,
            format!(
                "column {}: modeline: target {target}: {} has no minor {target} (its minors: {}); write one of them",
                found.column,
                tables.api(),
                tables.versions_text(),
                target = found.target,
            ),
        )),
        Some(Ok(found)) => Ok(Some(Policy {
            options: Options {
                target: Some(found.target),
                ..policy.options
            },
            ..*policy
        })),
    }
}

/// What a run of consecutive parts of an input gave.
struct Part {
    results: Results,
    /// Documents read (each numbered within the run from 0).
    documents: usize,
    /// The run ended in a YAML error.
    stopped: bool,
}

/// What checking needs, shared by the parts of one input.
struct Check<'a> {
    tables: &'a GateTables,
    custom: &'a CustomResources,
    source: &'a Source,
    /// The input's name, for its resources.
    file: Arc<str>,
    policy: &'a Policy<'a>,
    lenient: bool,
}

impl Check<'_> {
    /// Checks the documents of consecutive `parts`, one at a time, up to
    /// the first YAML error (where one reader of the whole input stops).
    fn parts(&self, parts: &[document::Part<'_>]) -> Part {
        let mut run = Part {
            results: Results::default(),
            documents: 0,
            stopped: false,
        };
        for part in parts {
            for read in part.reader() {
                match read {
                    Ok(mut doc) => {
                        doc.index += run.documents;
                        run.documents += 1;
                        self.document(&doc, &mut run.results);
                    }
                    Err(err) => {
                        run.results.errors.push(InputError {
                            file: self.source.name.clone(),
                            line: err.line,
                            message: err.message,
                        });
                        run.stopped = true;
                    }
                }
            }
            if run.stopped {
                break;
            }
        }
        run
    }

    /// Checks one document into `results`.
    fn document(&self, doc: &Document, results: &mut Results) {
        let (source, policy) = (self.source, self.policy);
        let kind = doc.root.get("kind").and_then(|kind| kind.as_str());
        if self.lenient && (kind.is_none() || doc.root.get("apiVersion").is_none()) {
            results.skipped.push(Skipped {
                file: source.name.clone(),
                line: doc.line,
                reason: NOT_A_MANIFEST.into(),
                noted: true,
            });
            return;
        }
        if let Some(kind) = kind.filter(|kind| policy.reject.iter().any(|reject| reject == kind)) {
            results.documents += 1;
            let resource_index = results.resources.len();
            results.resources.push(Checked {
                file: self.file.clone(),
                line: doc.line,
                resource: Resource::of(&doc.root),
            });
            let mut found = rejected(source, doc, kind, policy.options);
            found.resource_index = resource_index;
            results.violations.push(found);
            return;
        }
        if let Some(kind) = kind.filter(|kind| policy.skip.iter().any(|skip| skip == kind)) {
            results.skipped.push(Skipped {
                file: source.name.clone(),
                line: doc.line,
                reason: format!("kind {kind} skipped (--skip)"),
                noted: false,
            });
            return;
        }
        results.documents += 1;
        let first_resource = results.resources.len();
        results.resources.extend(
            Resource::all(&doc.root)
                .into_iter()
                .map(|(line, resource)| Checked {
                    file: self.file.clone(),
                    line,
                    resource,
                }),
        );
        results
            .errors
            .extend(doc.duplicate_keys.iter().map(|duplicate| InputError {
                file: source.name.clone(),
                line: duplicate.line,
                message: duplicate.to_string(),
            }));
        // What only a CRD knows: the document is a CRD left out, or a
        // custom resource of a version its CRD does not serve.
        let found = |violation: Violation| Found {
            file: source.name.clone(),
            document: doc.index,
            api_version: text_of(&doc.root, "apiVersion"),
            kind: text_of(&doc.root, "kind"),
            target: policy
                .options
                .target
                .map(|target| target.to_string())
                .unwrap_or_default(),
            resource: Resource::of(&doc.root),
            resource_index: first_resource,
            violation,
            omitted: 0,
        };
        if let Some(message) = self.custom.not_used(&source.name, doc.line) {
            results.violations.push(found(Violation {
                severity: Severity::Warning,
                rule: Rule::CrdNotUsed,
                path: String::new(),
                line: doc.line,
                message: message.to_owned(),
            }));
        }
        if let Some((line, message)) = self.custom.unserved(&doc.root) {
            results.violations.push(found(Violation {
                severity: Severity::Error,
                rule: Rule::KindNotServed,
                path: "apiVersion".into(),
                line,
                message,
            }));
            return;
        }
        match preflight::check(self.tables, &doc.root, policy.options) {
            Ok(mut report) => {
                let own_rules = self.custom.rules_for(&doc.root);
                let from_gates = match own_rules {
                    Some(_) => None,
                    None => self
                        .custom
                        .gate_rules_for(self.tables, &doc.root, report.target),
                };
                let rules = own_rules.or_else(|| from_gates.as_deref().and_then(Option::as_ref));
                // CEL library versions follow Kubernetes minors only.
                let kubernetes = (self.tables.api() == "kubernetes").then_some(report.target);
                // A CRD document's rules as the API server compiles them on
                // create, then the custom resource's rules.
                let mut cel_found = Findings::new();
                if let Some(target) = kubernetes {
                    cel_found.extend(vergate::cel::crd_document::check(&doc.root, target));
                }
                if let Some(junctors) = self.custom.junctors_for(&doc.root) {
                    cel_found.extend(junctors.check(&doc.root, kubernetes));
                }
                if let Some(rules) = rules {
                    let outcome = vergate::cel::evaluate(rules, &doc.root, kubernetes);
                    results.cel.evaluated += outcome.evaluated;
                    results.cel.transition_skipped += outcome.transition_skipped;
                    cel_found.absorb(outcome.violations);
                }
                // At most so many findings of a rule per resource, each
                // message bounded (`vergate::findings`); the rest counted.
                let mut found = Findings::new();
                for violation in std::mem::take(&mut report.violations) {
                    found.push_in(Resource::index_at(&doc.root, &violation.path), violation);
                }
                let sort = !cel_found.is_empty();
                found.absorb(cel_found);
                let (kept, omitted) = found.into_parts();
                // Each with the path that names its resource, and how many
                // it stands for (those left out).
                let sort = sort || !omitted.is_empty();
                let mut violations: Vec<(Violation, String, usize)> = kept
                    .into_iter()
                    .map(|violation| {
                        let path = violation.path.clone();
                        (violation, path, 0)
                    })
                    .collect();
                violations.extend(
                    omitted
                        .into_iter()
                        .map(|left_out| (left_out.violation(), left_out.path, left_out.count)),
                );
                if sort {
                    violations.sort_by_key(|(violation, _, _)| violation.line);
                }
                if violations.is_empty() {
                    return;
                }
                let target = report.target.to_string();
                results.violations.extend(violations.into_iter().map(
                    |(violation, path, omitted)| Found {
                        file: source.name.clone(),
                        document: doc.index,
                        api_version: report.api_version.clone(),
                        kind: report.kind.clone(),
                        target: target.clone(),
                        resource: Resource::at(&doc.root, &path),
                        resource_index: first_resource + Resource::index_at(&doc.root, &path),
                        violation,
                        omitted,
                    },
                ));
            }
            Err(err) => {
                // Not checked: the input error stands for it, not a resource.
                results.resources.truncate(first_resource);
                results.errors.push(InputError {
                    file: source.name.clone(),
                    line: err.line,
                    message: err.message,
                });
            }
        }
    }
}

/// The text of the string field `name` of a document's root, or `""`.
fn text_of(root: &document::Node, name: &str) -> String {
    root.get(name)
        .and_then(|node| node.as_str())
        .unwrap_or_default()
        .to_owned()
}

/// True for a Go template: a text with `{{` that is not YAML as written,
/// or any file in a Helm chart's `templates/` directory. A manifest that
/// holds `{{ … }}` in its strings (alerting rules do) reads as YAML and
/// is checked.
pub(in crate::cli) fn is_template(source: &Source, text: &str) -> bool {
    memchr::memmem::find(text.as_bytes(), b"{{").is_some()
        && (source.in_chart_templates() || document::Reader::new(text).any(|read| read.is_err()))
}

/// The violation for a document of a kind given to `--reject`.
fn rejected(source: &Source, doc: &Document, kind: &str, options: Options) -> Found {
    let api_version = doc
        .root
        .get("apiVersion")
        .and_then(|version| version.as_str())
        .unwrap_or_default();
    let line = doc.root.get("kind").map_or(doc.line, |node| node.line);
    Found {
        file: source.name.clone(),
        document: doc.index,
        api_version: api_version.to_owned(),
        kind: kind.to_owned(),
        target: options
            .target
            .map(|target| target.to_string())
            .unwrap_or_default(),
        resource: Resource::of(&doc.root),
        resource_index: 0,
        violation: Violation {
            severity: Severity::Error,
            rule: Rule::RejectedKind,
            path: "kind".into(),
            line,
            message: format!("{kind} is rejected (--reject)"),
        },
        omitted: 0,
    }
}
