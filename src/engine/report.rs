//! What the engine gives back: findings with their place, input errors,
//! documents left unchecked, and the CEL counts.

use crate::preflight::Violation;
use crate::Version;
use serde::Serialize;
use std::ops::Range;

/// One finding of one document.
#[derive(Clone, Debug, PartialEq)]
pub struct Finding {
    /// The 0-based index of the document in its file.
    pub document: usize,
    pub api_version: String,
    pub kind: String,
    /// The minor the document was checked against; `None` for a finding
    /// made before it was resolved (a CRD left out, a version its CRD does
    /// not serve, a kind rejected) when no target was set.
    pub target: Option<Version>,
    /// Severity, rule, path, line and message.
    pub violation: Violation,
    /// For the one finding that stands for those of its rule left out of a
    /// resource ("and N more …", `crate::findings`): how many; 0 otherwise.
    pub omitted: usize,
    /// The item of a `List` the finding is about (`items[i]…`); `None`
    /// for the document as a whole.
    pub item: Option<usize>,
    /// The byte range in the file's text of the offending key (or of the
    /// value, or the document, when there is no key), found from the
    /// violation's path over the document's spans. Filled by
    /// [`super::Validator::check_text`]; `None` when the path cannot be
    /// located (and from [`super::Validator::check_document`], which has
    /// no text).
    pub span: Option<Range<usize>>,
}

/// An input (a file, a document) that could not be checked.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct InputError {
    pub file: String,
    /// 0 when the whole file is at fault.
    pub line: u32,
    pub message: String,
}

/// A document or file left unchecked, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Skipped {
    pub file: String,
    /// The document's first line; 0 for a whole file.
    pub line: u32,
    pub reason: String,
    /// False for what the user asked to skip (`--skip`): not noted in text.
    #[serde(skip)]
    pub noted: bool,
}

/// CEL validation rules of CRDs over the custom resources checked.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct CelCounts {
    /// Rule evaluations (a rule under a list runs once per item).
    pub evaluated: usize,
    /// Transition rules (`oldSelf`) not run, as the API server does not
    /// run them on create.
    pub transition_skipped: usize,
}

impl CelCounts {
    /// Adds `other`'s counts.
    pub fn add(&mut self, other: CelCounts) {
        self.evaluated += other.evaluated;
        self.transition_skipped += other.transition_skipped;
    }
}

/// What became of one document.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Disposition {
    /// Checked: its findings (none, perhaps) are its verdict.
    Checked,
    /// Of a kind rejected ([`super::CheckOptions::reject_kinds`]): one
    /// finding says so, nothing else is checked.
    Rejected,
    /// Of a kind skipped ([`super::CheckOptions::skip_kinds`]): in
    /// [`DocumentReport::skipped`].
    Skipped,
    /// Not checkable (no apiVersion, an unknown kind, …): the input error
    /// in [`DocumentReport::errors`] stands for it.
    Failed,
}

/// Everything the engine decided for one document.
#[derive(Debug)]
pub struct DocumentReport {
    pub disposition: Disposition,
    /// In line order once CRD rules have spoken, each rule's findings per
    /// resource capped (`crate::findings`).
    pub findings: Vec<Finding>,
    /// Keys written twice, and the error that kept the document from
    /// being checked.
    pub errors: Vec<InputError>,
    pub skipped: Option<Skipped>,
    pub cel: CelCounts,
}

/// Everything [`super::Validator::check_text`] found in one file.
#[derive(Debug, Default)]
pub struct FileReport {
    /// In document order: the set `vergate check` reports for this file.
    pub findings: Vec<Finding>,
    /// What could not be read or checked (with its line).
    pub errors: Vec<InputError>,
    /// Documents left unchecked, and why.
    pub skipped: Vec<Skipped>,
    /// Documents checked (a rejected one counts, a skipped one does not).
    pub documents: usize,
    pub cel: CelCounts,
}
