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
    let sources = if args.inputs.is_empty() {
        match inputs::stdin_source(false) {
            Ok(source) => vec![source],
            Err(message) => {
                eprintln!("error: {message}");
                return Outcome::InputError;
            }
        }
    } else {
        let walk = inputs::WalkOptions {
            hidden: args.hidden,
            no_ignore: args.no_ignore,
        };
        let (sources, notes) = inputs::sources(&args.inputs, walk);
        for note in notes {
            eprintln!("warning: {note}");
        }
        sources
    };
    let mut results = Results::default();
    for source in &sources {
        check_source(&tables, source, options, &mut results);
    }
    match args.format {
        Format::Text => print_text(&results, tables.api()),
        Format::Json => print_json(&serde_json::to_value(&results).expect("results serialize")),
        Format::Sarif => print_json(&sarif::report(&results)),
    }
    results.outcome()
}

/// Reads one input and checks its documents one at a time, so only one
/// document's tree is in memory.
fn check_source(
    tables: &vergate::tables::GateTables,
    source: &inputs::Source,
    options: Options,
    results: &mut Results,
) {
    let text = match source.read() {
        Ok(text) => text,
        Err(err) => {
            results.errors.push(InputError {
                file: source.name.clone(),
                line: err.line,
                message: err.message,
            });
            return;
        }
    };
    for read in document::Reader::new(&text) {
        let doc = match read {
            Ok(doc) => doc,
            Err(err) => {
                results.errors.push(InputError {
                    file: source.name.clone(),
                    line: err.line,
                    message: err.message,
                });
                continue;
            }
        };
        results.documents += 1;
        results
            .errors
            .extend(doc.duplicate_keys.iter().map(|duplicate| InputError {
                file: source.name.clone(),
                line: duplicate.line,
                message: duplicate.to_string(),
            }));
        match preflight::check(tables, &doc.root, options) {
            Ok(report) => {
                let target = report.target.to_string();
                results
                    .violations
                    .extend(report.violations.into_iter().map(|violation| Found {
                        file: source.name.clone(),
                        document: doc.index,
                        api_version: report.api_version.clone(),
                        kind: report.kind.clone(),
                        target: target.clone(),
                        violation,
                    }));
            }
            Err(err) => results.errors.push(InputError {
                file: source.name.clone(),
                line: err.line,
                message: err.message,
            }),
        }
    }
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
