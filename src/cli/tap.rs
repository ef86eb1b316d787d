//! `vergate check --format tap`: TAP version 14 (readable by TAP 13
//! consumers too). A plan line, then a test point per resource (`ok` when
//! it has no error-level finding), per input error (`not ok`) and per
//! skipped document (`ok … # SKIP reason`); findings go in the point's YAML
//! diagnostics block (`---` … `...`), strings written as JSON strings,
//! which YAML reads as double-quoted scalars.

use super::cases::{self, Case};
use super::results::Results;
use std::fmt::Write;

/// The TAP report of a run.
pub fn report(results: &Results) -> String {
    let suites = cases::by_file(results);
    let total: usize = suites.iter().map(|(_, cases)| cases.len()).sum();
    let mut out = format!("TAP version 14\n1..{total}\n");
    let mut number = 0;
    for (file, cases) in &suites {
        for case in cases {
            number += 1;
            point(&mut out, number, file, case);
        }
    }
    out
}

/// One test point and its diagnostics.
fn point(out: &mut String, number: usize, file: &str, case: &Case) {
    let ok = !case.fails() && case.error.is_none();
    let status = if ok { "ok" } else { "not ok" };
    let description = if case.error.is_some() || case.skipped.is_some() {
        case.name.clone()
    } else {
        format!("{file}:{}: {}", case.line, case.name)
    };
    let _ = write!(
        out,
        "{status} {number} - {}",
        description_text(&description)
    );
    if let Some(reason) = case.skipped {
        let _ = write!(out, " # SKIP {}", description_text(reason));
    }
    out.push('\n');
    if case.findings.is_empty() && case.error.is_none() {
        return;
    }
    out.push_str("  ---\n");
    if let Some(error) = case.error {
        let _ = writeln!(out, "  message: {}", string(error));
        let _ = writeln!(out, "  severity: fail");
        let _ = writeln!(out, "  file: {}", string(file));
        if case.line > 0 {
            let _ = writeln!(out, "  line: {}", case.line);
        }
    } else {
        let first = case.findings.first().expect("findings are not empty here");
        let _ = writeln!(out, "  message: {}", string(&cases::finding_text(first)));
        let _ = writeln!(out, "  severity: {}", if ok { "warning" } else { "fail" });
        let _ = writeln!(out, "  file: {}", string(file));
        let _ = writeln!(out, "  line: {}", case.line);
        let _ = writeln!(out, "  findings:");
        for found in &case.findings {
            let violation = &found.violation;
            let _ = writeln!(out, "    - line: {}", violation.line);
            let severity = serde_json::to_value(violation.severity).expect("a severity serializes");
            let _ = writeln!(out, "      severity: {severity}");
            let _ = writeln!(out, "      rule: {}", string(violation.rule.id()));
            let _ = writeln!(out, "      path: {}", string(&violation.path));
            let _ = writeln!(out, "      message: {}", string(&violation.message));
        }
    }
    out.push_str("  ...\n");
}

/// A YAML double-quoted scalar (a JSON string is one).
fn string(text: &str) -> String {
    serde_json::to_string(text).expect("a string serializes")
}

/// A test point's description: one line, `#` escaped (it starts a directive).
fn description_text(text: &str) -> String {
    text.replace('\\', "\\\\")
        .replace('#', "\\#")
        .replace(['\n', '\r'], " ")
}
