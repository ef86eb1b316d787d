//! `vergate check` warns when a document's apiVersion/kind, served in the
//! target, is removed in a later minor of the corpus (naming that minor and
//! the replacement), or is deprecated in the target (in the target's API
//! server's own words where k8s.io/api publishes the kind's lifecycle).
//! Run against the embedded Kubernetes gates.

mod support;

use support::cli::{code, stderr, stdout, vergate};

const FLOWSCHEMA: &str = "tests/manifests/kubernetes/flowschema-v1beta3.yaml";

#[test]
fn a_kind_removed_in_a_later_minor_warns_with_the_minor_and_the_replacement() {
    // Before its deprecation (1.29), the removal is ahead.
    let out = vergate(&["check", "--target", "1.28", FLOWSCHEMA]);
    assert_eq!(code(&out), 0, "a warning does not fail: {}", stderr(&out));
    assert_eq!(
        stdout(&out),
        format!(
            "{FLOWSCHEMA}:2: warning: FlowSchema ci-runners: flowcontrol.apiserver.k8s.io/v1beta3 FlowSchema is removed \
             in 1.32 (served through 1.31); use apiVersion flowcontrol.apiserver.k8s.io/v1 \
             (served in 1.32)\n"
        )
    );
    // Deprecated, the API server's own warning names the removal: once.
    for target in ["1.29", "v1.31.0+a2c84a5"] {
        let out = vergate(&["check", "--target", target, FLOWSCHEMA]);
        assert_eq!(code(&out), 0, "a warning does not fail: {}", stderr(&out));
        assert_eq!(
            stdout(&out),
            format!(
                "{FLOWSCHEMA}:2: warning: FlowSchema ci-runners: flowcontrol.apiserver.k8s.io/v1beta3 FlowSchema is deprecated \
                 in v1.29+, unavailable in v1.32+; use flowcontrol.apiserver.k8s.io/v1 FlowSchema\n"
            )
        );
    }
    // In JSON, with its rule.
    let out = vergate(&["check", "--target", "1.28", "--format", "json", FLOWSCHEMA]);
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let found = &json["violations"][0];
    assert_eq!(found["rule"], "removed-ahead");
    assert_eq!(found["severity"], "warning");
    // From 1.32 it is an error, not a warning ahead.
    let out = vergate(&["check", "--target", "1.32", FLOWSCHEMA]);
    assert_eq!(code(&out), 1);
    assert!(
        !stdout(&out).contains("removed in 1.32 (served"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn a_kind_served_through_the_newest_minor_gets_no_warning() {
    let out = vergate(&[
        "check",
        "--target",
        "1.29",
        "tests/manifests/kubernetes/deployment-web.yaml",
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(stdout(&out), "");
}

#[test]
fn a_deprecated_kind_warns() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("endpoints.yaml");
    std::fs::write(
        &file,
        "apiVersion: v1\nkind: Endpoints\nmetadata:\n  name: legacy\n  namespace: shop\nsubsets: []\n",
    )
    .unwrap();
    let file = file.display().to_string();
    let out = vergate(&["check", "--target", "1.33", &file]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(
        stdout(&out).contains(
            ":1: warning: Endpoints shop/legacy: v1 Endpoints is deprecated since 1.33\n"
        ),
        "{}",
        stdout(&out)
    );
    let out = vergate(&["check", "--target", "1.32", &file]);
    assert_eq!(stdout(&out), "", "not deprecated before 1.33");
}
