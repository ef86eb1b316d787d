//! `vergate check` evaluates the logical junctors of a CRD's schema
//! (`allOf`, `anyOf`, `oneOf`, `not` beside `properties`) as the API server
//! does, in its words, on Gateway API's real CRDs: an address that is no
//! IP is refused, a host name accepted, the default `type` applied first;
//! and the loader no longer warns that the junctors are not modeled.

mod support;

use support::cli::{code, stderr, stdout, vergate};

const DOCUMENTS: &str = "tests/custom-resources/gateway-addresses.yaml";

fn check(release: &str) -> (i32, String, String) {
    let crds = format!("tests/cel/gateway-api/{release}");
    let output = vergate(&["check", "--target", "1.31", "--crd", &crds, DOCUMENTS]);
    (code(&output), stdout(&output), stderr(&output))
}

#[test]
fn an_address_that_is_no_ip_is_refused_in_the_api_servers_words() {
    for release in ["v1.2.0", "v1.3.0"] {
        let (code, out, err) = check(release);
        assert_eq!(code, 1, "{release}: {out}{err}");
        let at = |line: u32| -> Vec<&str> {
            let prefix = format!("{DOCUMENTS}:{line}: Gateway default/");
            out.lines().filter(|l| l.starts_with(&prefix)).collect()
        };
        let refused = at(12);
        for want in [
            r#"spec.addresses[0].value: Invalid value: "not-an-ip": spec.addresses[0].value in body must be of type ipv4: "not-an-ip""#,
            r#"spec.addresses[0].value: Invalid value: "": "spec.addresses[0].value" must validate at least one schema (anyOf)"#,
            r#"spec.addresses[0]: Invalid value: "": "spec.addresses[0]" must validate one and only one schema (oneOf). Found none valid"#,
        ] {
            assert!(
                refused.iter().any(|l| l.ends_with(want)),
                "{release}: line 12 lacks {want:?}:\n{out}"
            );
        }
        // The accepted Gateway (lines 14-24): nothing.
        for line in 14..=24 {
            assert!(at(line).is_empty(), "{release}: line {line}:\n{out}");
        }
        // The defaulted type makes `foo.bar` an IP address that is none.
        assert!(
            at(35)
                .iter()
                .any(|l| l.contains("must be of type ipv4: \"foo.bar\"")),
            "{release}:\n{out}"
        );
    }
}

#[test]
fn the_junctor_warning_is_gone() {
    for release in ["v1.2.0", "v1.3.0"] {
        let (_, _, err) = check(release);
        assert!(!err.contains("not modeled"), "{release}: {err}");
        assert!(!err.contains("warning:"), "{release}: {err}");
    }
}

#[test]
fn junctor_findings_carry_their_rule_in_json() {
    let output = vergate(&[
        "check",
        "--target",
        "1.31",
        "--format",
        "json",
        "--crd",
        "tests/cel/gateway-api/v1.3.0",
        DOCUMENTS,
    ]);
    let json: serde_json::Value = serde_json::from_str(&stdout(&output)).expect("JSON output");
    let rules: Vec<&str> = json["violations"]
        .as_array()
        .expect("violations")
        .iter()
        .filter_map(|v| v["rule"].as_str())
        .collect();
    assert!(rules.contains(&"junctor"), "{rules:?}");
}
