//! `vergate check`'s text output: one line per finding on stdout, like a
//! compiler's (`FILE:LINE: [warning: ]RESOURCE: PATH: MESSAGE`), then notes,
//! input errors and the summary on stderr; coloured per `--color`.

use super::results::Results;
use super::ColorChoice;
use anstyle::{AnsiColor, Style};
use std::fmt::Write as _;
use std::io::Write as _;

const LOCATION: Style = Style::new().bold();
const ERROR: Style = AnsiColor::Red.on_default().bold();
const WARNING: Style = AnsiColor::Yellow.on_default().bold();
const NOTE: Style = AnsiColor::Cyan.on_default().bold();
const RESOURCE: Style = Style::new().bold();

/// Prints the findings (stdout) and the rest (stderr).
pub fn print(results: &Results, api: &str, color: ColorChoice) {
    let choice = match color {
        ColorChoice::Auto => anstream::ColorChoice::Auto,
        ColorChoice::Always => anstream::ColorChoice::Always,
        ColorChoice::Never => anstream::ColorChoice::Never,
    };
    let stdout = anstream::AutoStream::new(std::io::stdout(), choice);
    // Without colour the findings are written as they are, not through
    // the stream that would strip styles from them byte by byte.
    let colored = stdout.current_choice() != anstream::ColorChoice::Never;
    let [place, warning, resource] = if colored {
        [LOCATION, WARNING, RESOURCE]
    } else {
        [Style::new(); 3]
    };
    let mut out = String::new();
    for found in &results.violations {
        let violation = &found.violation;
        let _ = write!(out, "{place}{}:{}:{place:#} ", found.file, violation.line);
        if !violation.severity.is_error() {
            let _ = write!(out, "{warning}warning:{warning:#} ");
        }
        let _ = write!(out, "{resource}{}{resource:#}: ", found.resource);
        if !violation.path.is_empty() {
            let _ = write!(out, "{}: ", violation.path);
        }
        let _ = writeln!(out, "{}", violation.message);
    }
    if colored {
        super::write_out_with(stdout, &out);
    } else {
        super::write_out(&out);
    }

    let mut err = String::new();
    for skipped in results.skipped.iter().filter(|skipped| skipped.noted) {
        let _ = writeln!(
            err,
            "{LOCATION}{}:{LOCATION:#} {NOTE}note:{NOTE:#} skipped: {}",
            location(&skipped.file, skipped.line),
            skipped.reason
        );
    }
    for error in &results.errors {
        let _ = writeln!(
            err,
            "{LOCATION}{}:{LOCATION:#} {ERROR}error:{ERROR:#} {}",
            location(&error.file, error.line),
            error.message
        );
    }
    let summary = results.summary();
    let _ = write!(
        err,
        "checked {} document{} against {api}: ",
        summary.documents,
        plural(summary.documents)
    );
    let errors = format!("{} error{}", summary.errors, plural(summary.errors));
    let warnings = format!("{} warning{}", summary.warnings, plural(summary.warnings));
    let _ = match summary.errors {
        0 => write!(err, "{errors}"),
        _ => write!(err, "{ERROR}{errors}{ERROR:#}"),
    };
    let _ = match summary.warnings {
        0 => write!(err, ", {warnings}"),
        _ => write!(err, ", {WARNING}{warnings}{WARNING:#}"),
    };
    if summary.input_errors > 0 {
        let _ = write!(
            err,
            ", {ERROR}{} input error{}{ERROR:#}",
            summary.input_errors,
            plural(summary.input_errors)
        );
    }
    if summary.skipped > 0 {
        let _ = write!(err, ", {} skipped", summary.skipped);
    }
    if summary.cel.evaluated > 0 || summary.cel.transition_skipped > 0 {
        let _ = write!(
            err,
            "; CEL rules: {} evaluated, {} transition rule{} skipped (oldSelf: not run on create)",
            summary.cel.evaluated,
            summary.cel.transition_skipped,
            plural(summary.cel.transition_skipped)
        );
    }
    err.push('\n');
    let mut stderr = anstream::AutoStream::new(std::io::stderr(), choice);
    let _ = stderr.write_all(err.as_bytes());
}

/// `FILE:LINE`, or `FILE` for a whole file (line 0).
fn location(file: &str, line: u32) -> String {
    match line {
        0 => file.to_owned(),
        line => format!("{file}:{line}"),
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}
