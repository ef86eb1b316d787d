//! `vergate check` validates a custom resource's strings by the `format`
//! its CRD declares, as the API server does (kube-openapi's formats, the
//! set of the target minor), in the API server's words; a format the
//! server strips is not checked.

mod support;

use support::cli::{code, stderr, stdout, vergate};

const CRD: &str = "tests/custom-resources/formats-crd.yaml";
const DOCUMENTS: &str = "tests/custom-resources/formats.yaml";

/// The exit code, the findings and the summary line.
fn check(target: &str) -> (i32, String, String) {
    let output = vergate(&["check", "--target", target, "--crd", CRD, DOCUMENTS]);
    (code(&output), stdout(&output), stderr(&output))
}

/// The lines of `out` at `line` of the documents.
fn at(out: &str, line: u32) -> Vec<&str> {
    let prefix = format!("{DOCUMENTS}:{line}: ");
    out.lines().filter(|l| l.starts_with(&prefix)).collect()
}

#[test]
fn each_format_refuses_in_the_api_servers_words() {
    let (code, out, summary) = check("1.34");
    assert_eq!(code, 1, "{out}");
    for line in 1..=18 {
        assert!(
            at(&out, line).is_empty(),
            "good document, line {line}:\n{out}"
        );
    }
    let expected = [
        (24, "spec.address", "ipv4", "1.2.3.4:8080"),
        (25, "spec.address6", "ipv6", "1.2.3.4"),
        (26, "spec.network", "cidr", "10.0.0.0/33"),
        (27, "spec.since", "date-time", "2024-01-02"),
        (28, "spec.day", "date", "2023-02-29"),
        (29, "spec.timeout", "duration", "soon"),
        (30, "spec.link", "uri", "example.com"),
        (31, "spec.contact", "email", "ops at example.com"),
        (32, "spec.id", "uuid", "not-a-uuid"),
        (33, "spec.name", "k8s-short-name", "Web_1"),
        (34, "spec.hosts[1]", "hostname", "bad host"),
    ];
    for (line, path, format, value) in expected {
        let want = format!(
            "{path}: Invalid value: \"{value}\": {path} in body must be of type {format}: \"{value}\""
        );
        assert!(
            at(&out, line).iter().any(|l| l.ends_with(&want)),
            "line {line} lacks {want:?}:\n{out}"
        );
    }
    assert!(
        at(&out, 35).is_empty(),
        "a stripped format is not checked:\n{out}"
    );
    assert!(summary.contains("11 errors, 0 warnings"), "{summary}");
}

#[test]
fn k8s_name_formats_are_validated_from_1_34() {
    let (_, out, summary) = check("1.33");
    assert!(
        at(&out, 33).is_empty(),
        "1.33 strips k8s-short-name:\n{out}"
    );
    assert!(summary.contains("10 errors, 0 warnings"), "{summary}");
}

#[test]
fn formats_are_errors_with_the_format_rule_in_json() {
    let output = vergate(&[
        "check", "--target", "1.34", "--format", "json", "--crd", CRD, DOCUMENTS,
    ]);
    let json: serde_json::Value = serde_json::from_str(&stdout(&output)).expect("JSON output");
    let text = json.to_string();
    assert!(text.contains(r#""rule":"format""#), "{text}");
}
