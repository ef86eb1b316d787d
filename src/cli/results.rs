//! What one `vergate check` run found: the findings, input errors and
//! skipped documents, the summary and the exit status. The check fills a
//! [`Results`]; every report format (text, JSON, JUnit, SARIF, TAP) reads
//! one.

use super::Outcome;
use serde::Serialize;
use vergate::engine::Resource;
pub use vergate::engine::{CelCounts, InputError, Skipped};
use vergate::preflight::Violation;

/// One violation with where it is (the JSON report's form is
/// `json_report`'s).
pub struct Found {
    pub file: String,
    /// The 0-based index of the document in its file.
    pub document: usize,
    pub api_version: String,
    pub kind: String,
    pub target: String,
    /// The resource it is about (a `List`'s item for a path below `items[i]`).
    pub resource: Resource,
    /// Its index in [`Results::resources`].
    pub resource_index: usize,
    pub violation: Violation,
    /// For the one finding that stands for those of its rule left out of
    /// a document (`vergate::findings`, "and N more …"): how many; 0 for
    /// every other finding, and then not written.
    pub omitted: usize,
}

impl Found {
    /// How many findings this one counts for: those it stands for, or 1.
    pub fn weight(&self) -> usize {
        self.omitted.max(1)
    }
}

/// One resource checked: a document, or an item of a `List`.
pub struct Checked {
    /// Shared by the resources of one input.
    pub file: std::sync::Arc<str>,
    /// Its first line.
    pub line: u32,
    pub resource: Resource,
}

/// A resource's verdict: the worst severity among its findings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Verdict {
    Pass,
    Warn,
    Fail,
}

/// The counts of one run, for JSON's `summary` (and the text summary line);
/// its fields in the order of their names, the order the JSON report
/// writes keys in (`json_report`).
#[derive(Serialize)]
pub struct Summary {
    /// CEL validation rules of CRDs: run, and transition rules skipped.
    pub cel: CelCounts,
    /// Documents checked.
    pub documents: usize,
    /// Error-level findings.
    pub errors: usize,
    /// Inputs read (files, and standard input).
    pub files: usize,
    /// Inputs or documents that could not be checked.
    pub input_errors: usize,
    /// Resources checked (documents, and the items of `List`s).
    pub resources: usize,
    /// Documents and files left unchecked (`skipped` says why).
    pub skipped: usize,
    /// Resources by verdict: `pass` (no finding), `warn` (warnings only),
    /// `fail` (an error).
    pub verdicts: Verdicts,
    /// Warning-level findings.
    pub warnings: usize,
}

/// Resources by verdict (fields in the order of their names, as above).
#[derive(Serialize, Default)]
pub struct Verdicts {
    pub fail: usize,
    pub pass: usize,
    pub warn: usize,
}

/// Everything one run found.
#[derive(Default)]
pub struct Results {
    pub documents: usize,
    pub violations: Vec<Found>,
    pub errors: Vec<InputError>,
    pub skipped: Vec<Skipped>,
    /// Every input, in the order read.
    pub files: Vec<String>,
    /// Every resource checked, in the order read.
    pub resources: Vec<Checked>,
    /// CEL rules run and skipped.
    pub cel: CelCounts,
}

impl Results {
    /// The number of error findings (`errors`), or of warnings (those
    /// left out of a document's report included).
    pub fn count(&self, errors: bool) -> usize {
        self.violations
            .iter()
            .filter(|found| found.violation.severity.is_error() == errors)
            .map(Found::weight)
            .sum()
    }

    /// Each resource's verdict, in the order of [`Results::resources`].
    pub fn verdicts(&self) -> Vec<Verdict> {
        let mut verdicts = vec![Verdict::Pass; self.resources.len()];
        for found in &self.violations {
            let verdict = if found.violation.severity.is_error() {
                Verdict::Fail
            } else {
                Verdict::Warn
            };
            if let Some(slot) = verdicts.get_mut(found.resource_index) {
                *slot = (*slot).max(verdict);
            }
        }
        verdicts
    }

    /// The findings of each resource, in the order of [`Results::resources`].
    pub fn by_resource(&self) -> Vec<Vec<&Found>> {
        let mut grouped: Vec<Vec<&Found>> = self.resources.iter().map(|_| Vec::new()).collect();
        for found in &self.violations {
            if let Some(group) = grouped.get_mut(found.resource_index) {
                group.push(found);
            }
        }
        grouped
    }

    /// The run's counts.
    pub fn summary(&self) -> Summary {
        let mut verdicts = Verdicts::default();
        for verdict in self.verdicts() {
            match verdict {
                Verdict::Pass => verdicts.pass += 1,
                Verdict::Warn => verdicts.warn += 1,
                Verdict::Fail => verdicts.fail += 1,
            }
        }
        Summary {
            files: self.files.len(),
            resources: self.resources.len(),
            documents: self.documents,
            errors: self.count(true),
            warnings: self.count(false),
            input_errors: self.errors.len(),
            skipped: self.skipped.len(),
            verdicts,
            cel: self.cel,
        }
    }

    /// Adds what a later part of the input found: its resource indexes move
    /// past the resources already here.
    pub fn append(&mut self, later: Results) {
        if self.is_empty() {
            *self = later;
            return;
        }
        let resources_before = self.resources.len();
        self.documents += later.documents;
        self.cel.add(later.cel);
        self.violations
            .extend(later.violations.into_iter().map(|mut found| {
                found.resource_index += resources_before;
                found
            }));
        self.errors.extend(later.errors);
        self.skipped.extend(later.skipped);
        self.files.extend(later.files);
        self.resources.extend(later.resources);
    }

    /// Room for everything `parts` hold, made once: appending thousands of
    /// parts one by one would grow (and copy) each list many times.
    pub fn reserve<'r>(&mut self, parts: impl Iterator<Item = &'r Results> + Clone) {
        let total = |len: fn(&Results) -> usize| parts.clone().map(len).sum::<usize>();
        self.violations.reserve(total(|part| part.violations.len()));
        self.errors.reserve(total(|part| part.errors.len()));
        self.skipped.reserve(total(|part| part.skipped.len()));
        self.files.reserve(total(|part| part.files.len()));
        self.resources.reserve(total(|part| part.resources.len()));
    }

    /// True when nothing was read or found.
    fn is_empty(&self) -> bool {
        self.documents == 0
            && self.violations.is_empty()
            && self.errors.is_empty()
            && self.skipped.is_empty()
            && self.files.is_empty()
            && self.resources.is_empty()
            && self.cel.evaluated == 0
            && self.cel.transition_skipped == 0
    }

    /// The exit code: input errors first, then error-level violations.
    pub fn outcome(&self) -> Outcome {
        if !self.errors.is_empty() {
            Outcome::InputError
        } else if self.count(true) > 0 {
            Outcome::Violations
        } else {
            Outcome::Clean
        }
    }
}
