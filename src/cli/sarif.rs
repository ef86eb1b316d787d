//! SARIF 2.1.0 output for `vergate check`, for code-scanning dashboards.

use super::results::Results;
use serde_json::{json, Value};
use vergate::preflight::{Rule, Severity};

/// The rule id of an input error (invalid YAML, too many duplicate keys, a file
/// that cannot be read) in SARIF: code scanning shows results, not the
/// run's notifications.
pub const INPUT_ERROR: &str = "input-error";

/// The SARIF log of one run: one result per violation and one per input
/// error (rule `input-error`, also kept as a tool execution notification).
pub fn report(results: &Results) -> Value {
    let mut rules: Vec<Value> = Rule::ALL
        .iter()
        .map(|rule| {
            json!({
                "id": rule.id(),
                "shortDescription": { "text": rule.description() },
            })
        })
        .collect();
    rules.push(json!({
        "id": INPUT_ERROR,
        "shortDescription": { "text": "The input cannot be read as Kubernetes reads it (invalid YAML or JSON, more than 100 duplicate keys, a limit, an unreadable file)." },
    }));
    let mut sarif_results: Vec<Value> = results
        .violations
        .iter()
        .map(|found| {
            let rule = found.violation.rule;
            let index = Rule::ALL.iter().position(|r| *r == rule).unwrap_or(0);
            let text = if found.violation.path.is_empty() {
                format!("{}: {}", found.resource, found.violation.message)
            } else {
                format!(
                    "{}: {}: {}",
                    found.resource, found.violation.path, found.violation.message
                )
            };
            json!({
                "ruleId": rule.id(),
                "ruleIndex": index,
                "level": level(found.violation.severity),
                "message": { "text": text },
                "locations": [location(&found.file, found.violation.line)],
                "properties": {
                    "apiVersion": found.api_version,
                    "kind": found.kind,
                    "target": found.target,
                    "document": found.document,
                    "resource": found.resource.to_string(),
                },
            })
        })
        .collect();
    sarif_results.extend(results.errors.iter().map(|error| {
        json!({
            "ruleId": INPUT_ERROR,
            "ruleIndex": Rule::ALL.len(),
            "level": "error",
            "message": { "text": error.message },
            "locations": [location(&error.file, error.line)],
        })
    }));
    let notifications: Vec<Value> = results
        .errors
        .iter()
        .map(|error| {
            json!({
                "level": "error",
                "message": { "text": error.message },
                "locations": [location(&error.file, error.line)],
            })
        })
        .collect();
    json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {
                "driver": {
                    "name": "vergate",
                    "version": env!("CARGO_PKG_VERSION"),
                    "rules": rules,
                },
            },
            "invocations": [{
                "executionSuccessful": results.errors.is_empty(),
                "toolExecutionNotifications": notifications,
            }],
            "results": sarif_results,
        }],
    })
}

/// SARIF's level: its names are the severity's own (`error`, `warning`).
fn level(severity: Severity) -> String {
    severity.to_string()
}

fn location(file: &str, line: u32) -> Value {
    let mut physical = json!({ "artifactLocation": { "uri": uri(file) } });
    if line > 0 {
        physical["region"] = json!({ "startLine": line });
    }
    json!({ "physicalLocation": physical })
}

/// A relative URI reference for a path (spaces and `%` escaped).
fn uri(file: &str) -> String {
    let mut out = String::with_capacity(file.len());
    for c in file.chars() {
        match c {
            ' ' => out.push_str("%20"),
            '%' => out.push_str("%25"),
            '#' => out.push_str("%23"),
            '?' => out.push_str("%3F"),
            _ => out.push(c),
        }
    }
    out
}
