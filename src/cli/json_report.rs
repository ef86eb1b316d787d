//! `check --format json`: the report written straight from the
//! [`Results`], every object's keys in sorted order.
//!
//! The report's form is that of a `serde_json::Value` (whose objects keep
//! their keys sorted) printed pretty. Building that tree first cost about
//! as much again as printing it, all of it after the check, on one
//! thread. Each object here lists its keys in that order itself, and the
//! tests hold it to the form.

use super::results::{Found, Results, Summary};
use serde::ser::{SerializeSeq, SerializeStruct};
use serde::{Serialize, Serializer};
use vergate::engine::Resource;

/// The JSON report of a run.
pub struct JsonReport<'a> {
    results: &'a Results,
    summary: Summary,
}

impl<'a> JsonReport<'a> {
    /// The report of `results`, with their summary.
    pub fn of(results: &'a Results) -> JsonReport<'a> {
        JsonReport {
            results,
            summary: results.summary(),
        }
    }
}

impl Serialize for JsonReport<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let results = self.results;
        let mut report = serializer.serialize_struct("Report", 5)?;
        report.serialize_field("documents", &results.documents)?;
        report.serialize_field("errors", &results.errors)?;
        if results.skipped.is_empty() {
            report.skip_field("skipped")?;
        } else {
            report.serialize_field("skipped", &results.skipped)?;
        }
        report.serialize_field("summary", &self.summary)?;
        report.serialize_field("violations", &Violations(&results.violations))?;
        report.end()
    }
}

/// The findings, in the order found.
struct Violations<'a>(&'a [Found]);

impl Serialize for Violations<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.0.len()))?;
        for found in self.0 {
            seq.serialize_element(&SortedFound(found))?;
        }
        seq.end()
    }
}

/// One finding: its own keys and its violation's, in one sorted list.
struct SortedFound<'a>(&'a Found);

impl Serialize for SortedFound<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let found = self.0;
        let violation = &found.violation;
        let mut out = serializer.serialize_struct("Found", 12)?;
        out.serialize_field("apiVersion", &found.api_version)?;
        out.serialize_field("document", &found.document)?;
        out.serialize_field("file", &found.file)?;
        out.serialize_field("kind", &found.kind)?;
        out.serialize_field("line", &violation.line)?;
        out.serialize_field("message", &violation.message)?;
        // Written only for a finding that stands for others left out.
        if found.omitted == 0 {
            out.skip_field("omitted")?;
        } else {
            out.serialize_field("omitted", &found.omitted)?;
        }
        out.serialize_field("path", &violation.path)?;
        out.serialize_field("resource", &SortedResource(&found.resource))?;
        out.serialize_field("rule", &violation.rule)?;
        out.serialize_field("severity", &violation.severity)?;
        out.serialize_field("target", &found.target)?;
        out.end()
    }
}

/// A finding's resource: its kind, and its name and namespace when known.
struct SortedResource<'a>(&'a Resource);

impl Serialize for SortedResource<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let resource = self.0;
        let mut out = serializer.serialize_struct("Resource", 3)?;
        out.serialize_field("kind", &resource.kind)?;
        for (key, value) in [("name", &resource.name), ("namespace", &resource.namespace)] {
            match value {
                Some(value) => out.serialize_field(key, value)?,
                None => out.skip_field(key)?,
            }
        }
        out.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::results::Checked;
    use vergate::engine::{CelCounts, InputError, Skipped};
    use vergate::preflight::{Rule, Violation};

    fn resource(name: Option<&str>, namespace: Option<&str>) -> Resource {
        Resource {
            kind: "Service".into(),
            namespace: namespace.map(Into::into),
            name: name.map(Into::into),
        }
    }

    fn found(resource_index: usize, omitted: usize, resource: Resource) -> Found {
        Found {
            file: "a.yaml".into(),
            document: resource_index,
            api_version: "v1".into(),
            kind: "Service".into(),
            target: "1.29".into(),
            resource,
            resource_index,
            violation: Violation::new(
                Rule::NotYetIntroduced,
                "spec.trafficDistribution",
                7,
                "not available in 1.29 (introduced in 1.30)".into(),
            ),
            omitted,
        }
    }

    fn results() -> Results {
        let checked = |line| Checked {
            file: "a.yaml".into(),
            line,
            resource: resource(Some("web"), None),
        };
        Results {
            documents: 3,
            violations: vec![
                found(0, 0, resource(None, None)),
                found(1, 4, resource(Some("web"), Some("shop"))),
            ],
            errors: vec![InputError {
                file: "b.yaml".into(),
                line: 2,
                message: "not YAML".into(),
            }],
            skipped: vec![Skipped {
                file: "c.yaml".into(),
                line: 0,
                reason: "a Go template".into(),
                noted: true,
            }],
            files: vec!["a.yaml".into(), "b.yaml".into(), "c.yaml".into()],
            resources: vec![checked(1), checked(9)],
            cel: CelCounts {
                evaluated: 5,
                transition_skipped: 1,
            },
        }
    }

    #[test]
    fn the_report_is_written_with_every_key_in_order() {
        let results = results();
        let text = serde_json::to_string_pretty(&JsonReport::of(&results)).unwrap();
        let expected = r#"{
  "documents": 3,
  "errors": [
    {
      "file": "b.yaml",
      "line": 2,
      "message": "not YAML"
    }
  ],
  "skipped": [
    {
      "file": "c.yaml",
      "line": 0,
      "reason": "a Go template"
    }
  ],
  "summary": {
    "cel": {
      "evaluated": 5,
      "transition_skipped": 1
    },
    "documents": 3,
    "errors": 5,
    "files": 3,
    "input_errors": 1,
    "resources": 2,
    "skipped": 1,
    "verdicts": {
      "fail": 2,
      "pass": 0,
      "warn": 0
    },
    "warnings": 0
  },
  "violations": [
    {
      "apiVersion": "v1",
      "document": 0,
      "file": "a.yaml",
      "kind": "Service",
      "line": 7,
      "message": "not available in 1.29 (introduced in 1.30)",
      "path": "spec.trafficDistribution",
      "resource": {
        "kind": "Service"
      },
      "rule": "not-yet-introduced",
      "severity": "error",
      "target": "1.29"
    },
    {
      "apiVersion": "v1",
      "document": 1,
      "file": "a.yaml",
      "kind": "Service",
      "line": 7,
      "message": "not available in 1.29 (introduced in 1.30)",
      "omitted": 4,
      "path": "spec.trafficDistribution",
      "resource": {
        "kind": "Service",
        "name": "web",
        "namespace": "shop"
      },
      "rule": "not-yet-introduced",
      "severity": "error",
      "target": "1.29"
    }
  ]
}"#;
        assert_eq!(text, expected);
        // Read into a `Value` (whose objects sort their keys) and printed
        // again, the text is the same: no key is out of order or twice.
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(serde_json::to_string_pretty(&value).unwrap(), text);
    }

    #[test]
    fn an_empty_skipped_list_is_left_out() {
        let mut results = results();
        results.skipped.clear();
        let value = serde_json::to_value(JsonReport::of(&results)).unwrap();
        assert!(value.get("skipped").is_none(), "{value}");
        assert_eq!(value["summary"]["skipped"], 0);
    }
}
