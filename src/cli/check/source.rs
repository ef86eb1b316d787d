//! Reading one input and checking its documents.
//!
//! Inputs are checked in parallel, and so are the parts of one input
//! (`document::split` cuts a stream at its document markers), those of one
//! kind together (the kind read from the text, only to order the work);
//! each part's results are merged back in input order, so the output is
//! the one a sequential run gives, byte for byte. A part holds only one document's
//! tree at a time; what is kept is what was found.

use super::modeline::{FileTarget, Modelines};
use super::{Checked, Found, InputError, Results, Skipped, NOT_A_MANIFEST, TEMPLATE};
use crate::cli::inputs::{ReadError, Source, Text};
use rayon::prelude::*;
use std::collections::HashMap;
use std::sync::Arc;
use vergate::document::{self, Document};
use vergate::engine::{Disposition, Finding, Resource, Validator};

/// The results of each input, in the order of `sources`, from its text
/// (or why it could not be read) and its parts (`document::split`).
///
/// An input whose modeline names a minor is checked with the validator of
/// `moded` for it (`modeline::Modelines::targets` lists them).
pub(super) fn check_all(
    validator: &Validator,
    moded: &[Validator],
    modelines: &Modelines,
    sources: &[Source],
    texts: &[Result<Text, ReadError>],
    parts: &[Vec<document::Part<'_>>],
) -> Vec<Results> {
    sources
        .par_iter()
        .zip(texts)
        .zip(parts)
        .enumerate()
        .map(|(index, ((source, text), parts))| {
            let with = (validator, moded, modelines.of(index));
            check_source(with, source, text, parts)
        })
        .collect()
}

/// Checks the documents of one input, its parts in parallel.
fn check_source(
    (validator, moded, modeline): (&Validator, &[Validator], &FileTarget),
    source: &Source,
    text: &Result<Text, ReadError>,
    parts: &[document::Part<'_>],
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
    // A modeline's target: its own validator, or an input error.
    let validator = match modeline {
        FileTarget::Run => validator,
        FileTarget::Own(minor) => moded
            .iter()
            .find(|moded| moded.target_minor() == Some(*minor))
            .unwrap_or(validator),
        FileTarget::Error { line, message } => {
            results.errors.push(InputError {
                file: source.name.clone(),
                line: *line,
                message: message.clone(),
            });
            return results;
        }
    };
    let check = Check {
        validator,
        source,
        file: source.name.as_str().into(),
        lenient,
    };
    // Parts are checked grouped by kind (a file of forty kinds in turn
    // otherwise runs each kind's checks, and reads its gates, cold from
    // the caches every time), a run of them at a time per thread: enough
    // runs to keep every thread busy. What they give is collected in the
    // order checked, then taken out in the input's order: the parts'
    // results are moved once, not copied into a list per order.
    let run = (parts.len() / (rayon::current_num_threads() * 32)).clamp(1, 16);
    let order = grouped_by_kind(parts);
    let mut checked: Vec<Part> = order
        .par_iter()
        .with_min_len(run)
        .map(|&index| check.part(&parts[index]))
        .collect();
    // Where each part of the input was checked: part `order[k]`, `k`-th.
    let mut checked_at = vec![0; order.len()];
    for (k, &index) in order.iter().enumerate() {
        checked_at[index] = k;
    }
    // Documents are numbered across the file; a part read after a YAML
    // error is not used (one reader stops at the error).
    results.reserve(checked.iter().map(|part| &part.results));
    let mut documents_before = 0;
    for k in checked_at {
        let mut part = std::mem::take(&mut checked[k]);
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

/// The indexes of `parts`, those of one kind together (kinds in the order
/// they first appear, parts in input order within a kind).
fn grouped_by_kind(parts: &[document::Part<'_>]) -> Vec<usize> {
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut group_of: HashMap<&str, usize, foldhash::fast::RandomState> = HashMap::default();
    for (index, part) in parts.iter().enumerate() {
        let next = groups.len();
        let group = *group_of.entry(kind_of(part.text())).or_insert(next);
        if group == next {
            groups.push(Vec::new());
        }
        groups[group].push(index);
    }
    groups.concat()
}

/// The `kind` a part's text names at the start of a line (no indentation),
/// as written: a key to group parts by, never a verdict (`""` when there is
/// none before the part's first 64 lines, or a JSON part).
fn kind_of(text: &str) -> &str {
    text.split('\n')
        .take(64)
        .find_map(|line| line.strip_prefix("kind:"))
        .map_or("", str::trim)
}

/// What one part of an input gave.
#[derive(Default)]
struct Part {
    results: Results,
    /// Documents read (each numbered within the part from 0).
    documents: usize,
    /// The part ended in a YAML error.
    stopped: bool,
}

/// What checking needs, shared by the parts of one input.
struct Check<'a> {
    validator: &'a Validator,
    source: &'a Source,
    /// The input's name, for its resources.
    file: Arc<str>,
    lenient: bool,
}

impl Check<'_> {
    /// Checks the documents of one part of the input, up to a YAML error
    /// (where one reader of the whole input stops).
    fn part(&self, part: &document::Part<'_>) -> Part {
        let mut checked = Part::default();
        for read in part.reader() {
            match read {
                Ok(mut doc) => {
                    doc.index += checked.documents;
                    checked.documents += 1;
                    self.document(&doc, &mut checked.results);
                }
                Err(err) => {
                    checked.results.errors.push(InputError {
                        file: self.source.name.clone(),
                        line: err.line,
                        message: err.message,
                    });
                    checked.stopped = true;
                }
            }
        }
        checked
    }

    /// Checks one document into `results`: the engine's verdict, with the
    /// resources it names.
    fn document(&self, doc: &Document, results: &mut Results) {
        let source = self.source;
        if self.lenient && (doc.root.get("kind").is_none() || doc.root.get("apiVersion").is_none())
        {
            results.skipped.push(Skipped {
                file: source.name.clone(),
                line: doc.line,
                reason: NOT_A_MANIFEST.into(),
                noted: true,
            });
            return;
        }
        let report = self.validator.check_document(&source.name, doc);
        let first_resource = results.resources.len();
        match report.disposition {
            Disposition::Skipped => {
                results.skipped.extend(report.skipped);
                return;
            }
            Disposition::Rejected => results.resources.push(Checked {
                file: self.file.clone(),
                line: doc.line,
                resource: Resource::of(&doc.root),
            }),
            Disposition::Checked | Disposition::Failed => {
                let resources = Resource::all(&doc.root);
                // A part's lists hold what its one document gave, kept to
                // the end of the run: exactly that, not room for four.
                results.resources.reserve_exact(resources.len());
                results
                    .resources
                    .extend(resources.into_iter().map(|(line, resource)| Checked {
                        file: self.file.clone(),
                        line,
                        resource,
                    }))
            }
        }
        results.documents += 1;
        results.errors.extend(report.errors);
        results.cel.add(report.cel);
        results.violations.reserve_exact(report.findings.len());
        results
            .violations
            .extend(report.findings.into_iter().map(|finding| Found {
                file: source.name.clone(),
                resource: Resource::of_item(&doc.root, finding.item),
                resource_index: first_resource + finding.item.unwrap_or(0),
                ..found(finding)
            }));
        if report.disposition == Disposition::Failed {
            // Not checked: the input error stands for it, not a resource.
            results.resources.truncate(first_resource);
        }
    }
}

/// The report's form of an engine finding, its file and resource to set.
fn found(finding: Finding) -> Found {
    Found {
        file: String::new(),
        document: finding.document,
        api_version: finding.api_version,
        kind: finding.kind,
        target: finding
            .target
            .map(|target| target.to_string())
            .unwrap_or_default(),
        resource: Resource::default(),
        resource_index: 0,
        violation: finding.violation,
        omitted: finding.omitted,
    }
}

/// True for a Go template: a text with `{{` that is not YAML as written,
/// or any file in a Helm chart's `templates/` directory. A manifest that
/// holds `{{ … }}` in its strings (alerting rules do) reads as YAML and
/// is checked.
pub(in crate::cli) fn is_template(source: &Source, text: &str) -> bool {
    vergate::engine::is_go_template(text, source.in_chart_templates())
}
