//! `vergate check`: preflight every document of every input.

use super::{
    inputs, known_minor, load_tables, print_json, sarif, write_out, CheckArgs, Format, Outcome,
};
use serde::Serialize;
use std::fmt::Write;
use vergate::document;
use vergate::preflight::{self, Options, Severity, Violation};

/// One violation with where it is.
#[derive(Serialize)]
pub struct Found {
    pub file: String,
    /// The 0-based index of the document in its file.
    pub document: usize,
    #[serde(rename = "apiVersion")]
    pub api_version: String,
    pub kind: String,
    pub target: String,
    #[serde(flatten)]
    pub violation: Violation,
}

/// An input that could not be checked.
#[derive(Serialize)]
pub struct InputError {
    pub file: String,
    /// 0 when the whole file is at fault.
    pub line: u32,
    pub message: String,
}

/// Everything one run found.
#[derive(Default, Serialize)]
pub struct Results {
    pub documents: usize,
    pub violations: Vec<Found>,
    pub errors: Vec<InputError>,
}

impl Results {
    fn count(&self, severity: Severity) -> usize {
        self.violations
            .iter()
            .filter(|found| found.violation.severity == severity)
            .count()
    }

    /// The exit code: input errors first, then error-level violations.
    pub fn outcome(&self) -> Outcome {
        if !self.errors.is_empty() {
            Outcome::InputError
        } else if self.count(Severity::Error) > 0 {
            Outcome::Violations
        } else {
            Outcome::Clean
        }
    }
}

pub fn run(args: &CheckArgs) -> Outcome {
    let tables = match load_tables(&args.api) {
        Ok(tables) => tables,
        Err(outcome) => return outcome,
    };
    if let Some(target) = args.target {
        if let Err(outcome) = known_minor(&tables, "--target", target) {
            return outcome;
        }
        if let Some(note) = tables.index().deprecated_versions.get(&target) {
            eprintln!(
                "warning: --target {target}: {} {target} is deprecated: {note}",
                tables.api()
            );
        }
    }
    let options = Options {
        target: args.target,
        strict: args.strict,
    };
    let mut results = Results::default();
    for input in inputs::collect(&args.inputs) {
        let text = match input.text {
            Ok(text) => text,
            Err(message) => {
                results.errors.push(InputError {
                    file: input.name,
                    line: 0,
                    message,
                });
                continue;
            }
        };
        let parsed = document::parse(&text);
        for doc in &parsed.documents {
            results.documents += 1;
            match preflight::check(&tables, &doc.root, options) {
                Ok(report) => {
                    let target = report.target.to_string();
                    results
                        .violations
                        .extend(report.violations.into_iter().map(|violation| Found {
                            file: input.name.clone(),
                            document: doc.index,
                            api_version: report.api_version.clone(),
                            kind: report.kind.clone(),
                            target: target.clone(),
                            violation,
                        }));
                }
                Err(err) => results.errors.push(InputError {
                    file: input.name.clone(),
                    line: err.line,
                    message: err.message,
                }),
            }
        }
        if let Some(err) = parsed.error {
            results.errors.push(InputError {
                file: input.name.clone(),
                line: err.line,
                message: err.message,
            });
        }
    }
    match args.format {
        Format::Text => print_text(&results, tables.api()),
        Format::Json => print_json(&serde_json::to_value(&results).expect("results serialize")),
        Format::Sarif => print_json(&sarif::report(&results)),
    }
    results.outcome()
}

fn print_text(results: &Results, api: &str) {
    let mut out = String::new();
    for found in &results.violations {
        let _ = writeln!(
            out,
            "{}:{}: {}",
            found.file, found.violation.line, found.violation
        );
    }
    write_out(&out);
    for error in &results.errors {
        if error.line == 0 {
            eprintln!("{}: error: {}", error.file, error.message);
        } else {
            eprintln!("{}:{}: error: {}", error.file, error.line, error.message);
        }
    }
    eprintln!(
        "checked {} document{} against {api}: {} error{}, {} warning{}{}",
        results.documents,
        plural(results.documents),
        results.count(Severity::Error),
        plural(results.count(Severity::Error)),
        results.count(Severity::Warning),
        plural(results.count(Severity::Warning)),
        if results.errors.is_empty() {
            String::new()
        } else {
            format!(
                ", {} input error{}",
                results.errors.len(),
                plural(results.errors.len())
            )
        }
    );
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}
