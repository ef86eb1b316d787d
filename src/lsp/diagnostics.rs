//! A file's report as the editor's diagnostics: each finding with its rule
//! id as `code`, its severity and its words as `vergate check` prints them
//! (`path: message`), at the span of the offending key or value, or on its
//! line when the engine could not place it or placed it on the whole
//! document; input errors and the settings' problems at their lines.

use super::documents::Content;
use super::line_index::LineIndex;
use super::workspace::Problem;
use crate::engine::{FileReport, Finding};
use crate::preflight::Severity;
use lsp_types::{Diagnostic, DiagnosticSeverity, NumberOrString, Position, Range};

/// Where diagnostics say they come from.
pub const SOURCE: &str = "vergate";

/// A finding's words, as `check`'s text output has them.
pub fn words(finding: &Finding) -> String {
    let violation = &finding.violation;
    if violation.path.is_empty() {
        violation.message.clone()
    } else {
        format!("{}: {}", violation.path, violation.message)
    }
}

/// The LSP severity of a finding's.
pub fn severity(severity: Severity) -> DiagnosticSeverity {
    match severity {
        Severity::Error => DiagnosticSeverity::ERROR,
        Severity::Warning => DiagnosticSeverity::WARNING,
    }
}

/// The whole of 1-based line `line` (line 0: the first).
fn line_range(text: &str, lines: &LineIndex, line: u32) -> Range {
    let line = line.saturating_sub(1) as usize;
    let start = lines.line_start(line).unwrap_or(text.len());
    let end = lines
        .line_start(line + 1)
        .map_or(text.len(), |next| next.saturating_sub(1))
        .max(start);
    let end = text[start..end].trim_end_matches('\r').len() + start;
    lines.range(text, start..end)
}

/// The diagnostics of `report` on `text`.
pub fn of(
    text: &str,
    lines: &LineIndex,
    report: &FileReport,
    problems: &[Problem],
) -> Vec<Diagnostic> {
    let mut out = Vec::with_capacity(report.findings.len() + report.errors.len());
    for problem in problems {
        out.push(plain(
            line_range(text, lines, problem.line),
            DiagnosticSeverity::ERROR,
            None,
            problem.message.clone(),
        ));
    }
    for finding in &report.findings {
        let line = finding.violation.line;
        // The span, when it starts on the finding's line (a document-wide
        // finding's span is the document; it is shown at its line).
        let range = match &finding.span {
            Some(span) if span.end <= text.len() => {
                let range = lines.range(text, span.clone());
                if line == 0 || range.start.line + 1 == line {
                    range
                } else {
                    line_range(text, lines, line)
                }
            }
            _ => line_range(text, lines, line),
        };
        out.push(plain(
            range,
            severity(finding.violation.severity),
            Some(finding.violation.rule.id()),
            words(finding),
        ));
    }
    for error in &report.errors {
        out.push(plain(
            line_range(text, lines, error.line),
            DiagnosticSeverity::ERROR,
            None,
            error.message.clone(),
        ));
    }
    for skipped in report.skipped.iter().filter(|skipped| skipped.noted) {
        out.push(plain(
            line_range(text, lines, skipped.line),
            DiagnosticSeverity::INFORMATION,
            None,
            format!("skipped: {}", skipped.reason),
        ));
    }
    out
}

/// The one diagnostic of a document not held (over the size bound).
pub fn too_large(content: &Content) -> Vec<Diagnostic> {
    let Content::TooLarge { bytes, limit } = content else {
        return Vec::new();
    };
    let start = Position::new(0, 0);
    vec![plain(
        Range { start, end: start },
        DiagnosticSeverity::WARNING,
        None,
        format!(
            "not checked in the editor: {bytes} bytes, over the language server's bound of {limit}; run `vergate check` on it"
        ),
    )]
}

fn plain(
    range: Range,
    severity: DiagnosticSeverity,
    code: Option<&str>,
    message: String,
) -> Diagnostic {
    Diagnostic {
        range,
        severity: Some(severity),
        code: code.map(|code| NumberOrString::String(code.to_owned())),
        source: Some(SOURCE.to_owned()),
        message,
        ..Diagnostic::default()
    }
}
