//! A file's text checked: its documents read one by one (up to the first
//! that does not read, where the reader stops), each checked, and each
//! finding placed in the text.

use super::report::{Disposition, FileReport, InputError};
use super::{span, Validator};
use crate::document;

/// The advice for a Go template given as a manifest.
pub const TEMPLATE: &str = "a Go template ({{ … }}, e.g. Helm), not a manifest; \
     render it first (`helm template … | vergate check …`) or leave it out with --ignore";

/// True for a Go template: a text with `{{` that is not YAML as written,
/// or any such text in a Helm chart's `templates/` directory
/// (`in_chart_templates`). A manifest that holds `{{ … }}` in its strings
/// (alerting rules do) reads as YAML and is checked.
pub fn is_go_template(text: &str, in_chart_templates: bool) -> bool {
    memchr::memmem::find(text.as_bytes(), b"{{").is_some()
        && (in_chart_templates || document::Reader::new(text).any(|read| read.is_err()))
}

impl Validator {
    /// Checks every document of one file's `text` (YAML or JSON, any
    /// number of documents), named `file` in errors: the findings
    /// `vergate check` reports for it when it is named on the command
    /// line, each with its byte span in `text`.
    pub fn check_text(&self, file: &str, text: &str) -> FileReport {
        let mut report = FileReport::default();
        if is_go_template(text, false) {
            report.errors.push(InputError {
                file: file.to_owned(),
                line: 0,
                message: TEMPLATE.into(),
            });
            return report;
        }
        for read in document::Reader::new(text) {
            let doc = match read {
                Ok(doc) => doc,
                Err(err) => {
                    report.errors.push(InputError {
                        file: file.to_owned(),
                        line: err.line,
                        message: err.message,
                    });
                    break;
                }
            };
            let checked = self.check_document(file, &doc);
            if checked.disposition != Disposition::Skipped {
                report.documents += 1;
            }
            report.findings.extend(checked.findings);
            report.errors.extend(checked.errors);
            report.skipped.extend(checked.skipped);
            report.cel.add(checked.cel);
        }
        if !report.findings.is_empty() {
            // Read only for a file with findings: a clean file costs no
            // second reading.
            if let Some(layout) = document::spans::layout(text) {
                for finding in &mut report.findings {
                    finding.span = layout
                        .documents
                        .get(finding.document)
                        .map(|root| span::locate(text, root, &finding.violation.path));
                }
            }
        }
        report
    }
}
