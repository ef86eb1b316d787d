//! The test cases of a `check` run, grouped by input file, for the formats
//! that report per resource (JUnit, TAP): a case per resource checked, per
//! input error and per document or file skipped.

use super::results::{Found, Results};

/// One test case.
pub struct Case<'a> {
    /// The resource (`Deployment shop/checkout`), or `FILE:LINE` for an
    /// input error or a skipped document.
    pub name: String,
    /// The first line of the resource or document (0 for a whole file).
    pub line: u32,
    /// The resource's findings, in document order.
    pub findings: Vec<&'a Found>,
    /// Why the input could not be checked.
    pub error: Option<&'a str>,
    /// Why it was left unchecked.
    pub skipped: Option<&'a str>,
}

impl Case<'_> {
    /// True when a finding is an error.
    pub fn fails(&self) -> bool {
        self.findings
            .iter()
            .any(|found| found.violation.severity.is_error())
    }

    /// The error findings (`errors`), or the warnings.
    pub fn of(&self, errors: bool) -> impl Iterator<Item = &&Found> {
        self.findings
            .iter()
            .filter(move |found| found.violation.severity.is_error() == errors)
    }
}

/// The cases of each input file, files in input order; in a file, its
/// resources, then its input errors, then what was skipped.
pub fn by_file(results: &Results) -> Vec<(&str, Vec<Case<'_>>)> {
    let mut suites: Vec<(&str, Vec<Case>)> = results
        .files
        .iter()
        .map(|file| (file.as_str(), Vec::new()))
        .collect();
    for (checked, findings) in results.resources.iter().zip(results.by_resource()) {
        add(
            &mut suites,
            &checked.file,
            Case {
                name: checked.resource.to_string(),
                line: checked.line,
                findings,
                error: None,
                skipped: None,
            },
        );
    }
    for error in &results.errors {
        add(
            &mut suites,
            &error.file,
            Case {
                name: at(&error.file, error.line),
                line: error.line,
                findings: Vec::new(),
                error: Some(&error.message),
                skipped: None,
            },
        );
    }
    for skipped in &results.skipped {
        add(
            &mut suites,
            &skipped.file,
            Case {
                name: at(&skipped.file, skipped.line),
                line: skipped.line,
                findings: Vec::new(),
                error: None,
                skipped: Some(&skipped.reason),
            },
        );
    }
    suites
}

/// Adds a case to its file's suite (a new suite for a file not listed).
fn add<'a>(suites: &mut Vec<(&'a str, Vec<Case<'a>>)>, file: &'a str, case: Case<'a>) {
    match suites.iter_mut().find(|(name, _)| *name == file) {
        Some((_, cases)) => cases.push(case),
        None => suites.push((file, vec![case])),
    }
}

/// `FILE:LINE` naming a document, or `FILE` for a whole file.
fn at(file: &str, line: u32) -> String {
    match line {
        0 => file.to_owned(),
        line => format!("{file}:{line}"),
    }
}

/// A finding as one line: `FILE:LINE: PATH: MESSAGE`.
pub fn finding_line(found: &Found) -> String {
    format!(
        "{}:{}: {}",
        found.file,
        found.violation.line,
        finding_text(found)
    )
}

/// A finding without its place: `PATH: MESSAGE`, or the message alone.
pub fn finding_text(found: &Found) -> String {
    let violation = &found.violation;
    if violation.path.is_empty() {
        violation.message.clone()
    } else {
        format!("{}: {}", violation.path, violation.message)
    }
}
