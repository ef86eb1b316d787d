//! `vergate check` on real repository trees (`tests/cli/tree/`): a GitHub
//! workflow, a Helm chart (Chart.yaml, values.yaml, templates) beside
//! Kubernetes manifests; `--skip`, `--reject` and `--ignore`.

mod support;

use support::cli::{code, stderr, stdout, vergate};

use serde_json::Value;
use std::path::Path;
use std::process::Output;

const DEMO: &str = "generated/demo";
const TREE: &str = "tests/cli/tree";
const TEMPLATE: &str = "note: skipped: a Go template ({{ … }}, e.g. Helm), not a manifest";
const NOT_A_MANIFEST: &str = "note: skipped: not a manifest (it lacks apiVersion or kind)";

/// `vergate check --api <kubernetes> ARGS…`.
fn check_kubernetes(gates: &Path, args: &[&str]) -> Output {
    let gates = gates.display().to_string();
    let mut all = vec!["check", "--api", gates.as_str()];
    all.extend_from_slice(args);
    vergate(&all)
}

#[test]
fn documents_without_api_version_or_kind_in_a_walk_are_skipped_with_a_note() {
    let out = vergate(&["check", "--api", DEMO, "tests/cli/bad"]);
    assert_eq!(
        code(&out),
        2,
        "invalid.yaml and unknown-minor.yaml stay errors"
    );
    let errors = stderr(&out);
    for expected in [
        "tests/cli/bad/list.yaml:1: note: skipped: not a manifest",
        "tests/cli/bad/no-kind.yaml:1: note: skipped: not a manifest",
        "tests/cli/bad/invalid.yaml:4: error: invalid YAML",
        "tests/cli/bad/unknown-minor.yaml:1: error: apiVersion \"1.8\"",
        ", 2 input errors, 2 skipped",
    ] {
        assert!(
            errors.contains(expected),
            "missing {expected:?} in\n{errors}"
        );
    }
    // #30: --strict leaves them skipped and listed (a repository holds more
    // than manifests); a file named makes one an input error.
    let out = vergate(&["check", "--strict", "--api", DEMO, "tests/cli/bad"]);
    let errors = stderr(&out);
    assert!(
        errors.contains("tests/cli/bad/no-kind.yaml:1: note: skipped: not a manifest"),
        "{errors}"
    );
    assert!(errors.contains(", 2 input errors, 2 skipped"), "{errors}");
    let out = vergate(&["check", "--api", DEMO, "tests/cli/bad/no-kind.yaml"]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("tests/cli/bad/no-kind.yaml:1: error: the document has no kind"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn skip_and_reject_select_kinds() {
    let file = "tests/cli/demo/pipeline.yaml";
    let out = vergate(&["check", "--api", DEMO, "--skip", "Release,Pipeline", file]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(stdout(&out), "");
    assert!(
        stderr(&out).contains("checked 0 documents against demo: 0 errors, 0 warnings, 1 skipped"),
        "{}",
        stderr(&out)
    );
    // A kind both skipped and rejected is rejected.
    let out = vergate(&[
        "check", "--api", DEMO, "--reject", "Pipeline", "--skip", "Pipeline", "--format", "json",
        file,
    ]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let json: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let violations = json["violations"].as_array().unwrap();
    assert_eq!(violations.len(), 1, "{json:#}");
    assert_eq!(violations[0]["rule"], "rejected-kind");
    assert_eq!(violations[0]["message"], "Pipeline is rejected (--reject)");
    assert_eq!(violations[0]["line"], 3);
}

#[test]
fn a_bad_ignore_glob_is_a_usage_error_quoting_it() {
    let out = vergate(&["check", "--api", DEMO, "--ignore", "a[", TREE]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("error parsing glob 'a['"),
        "{}",
        stderr(&out)
    );
}

#[test]
#[cfg_attr(
    not(vergate_kubernetes_output),
    ignore = "needs generated/kubernetes: cargo xtask regen --api kubernetes"
)]
fn a_repository_tree_exits_by_its_manifests() {
    let gates = support::kubernetes_output();
    let out = check_kubernetes(
        &gates,
        &["--target", "v1.29.4-gke.1043000", "--hidden", TREE],
    );
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "tests/cli/tree/deploy/service.yaml:11: Service shop/catalog: spec.trafficDistribution: not available in 1.29 \
         (introduced in 1.30 as alpha, feature gate ServiceTrafficDistribution)\n"
    );
    let errors = stderr(&out);
    assert!(!errors.contains("error:"), "{errors}");
    for file in [
        ".github/workflows/ci.yml:1",
        "charts/shop/Chart.yaml:1",
        "charts/shop/values.yaml:1",
        "charts/shop/values.yaml:5",
    ] {
        let expected = format!("tests/cli/tree/{file}: {NOT_A_MANIFEST}");
        assert!(
            errors.contains(&expected),
            "missing {expected:?} in\n{errors}"
        );
    }
    // Each template once, as a template: no YAML error, no violations.
    for file in ["deployment.yaml", "service.yaml"] {
        let name = format!("tests/cli/tree/charts/shop/templates/{file}");
        let lines: Vec<&str> = errors.lines().filter(|l| l.contains(&name)).collect();
        assert_eq!(lines, [format!("{name}: {TEMPLATE}; render it first (`helm template … | vergate check …`) or leave it out with --ignore")], "{errors}");
    }
    // alerts.yaml holds `{{ … }}` in a string: checked, not a template.
    assert!(
        errors
            .ends_with("checked 4 documents against kubernetes: 1 error, 0 warnings, 6 skipped\n"),
        "{errors}"
    );
    let out = check_kubernetes(&gates, &["--target", "1.30", "--hidden", TREE]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
}

#[test]
#[cfg_attr(
    not(vergate_kubernetes_output),
    ignore = "needs generated/kubernetes: cargo xtask regen --api kubernetes"
)]
fn named_files_and_strict_make_what_cannot_be_checked_an_error() {
    let gates = support::kubernetes_output();
    let values = "tests/cli/tree/charts/shop/values.yaml";
    let template = "tests/cli/tree/charts/shop/templates/deployment.yaml";
    let out = check_kubernetes(&gates, &["--target", "1.30", values, template]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    let errors = stderr(&out);
    for expected in [
        format!("{values}:1: error: the document has no apiVersion"),
        format!("{template}: error: a Go template ({{{{ … }}}}, e.g. Helm), not a manifest"),
    ] {
        assert!(
            errors.contains(&expected),
            "missing {expected:?} in\n{errors}"
        );
    }
    assert_eq!(errors.matches(template).count(), 1, "{errors}");
    // #30: --strict on a whole repository: unknown fields become errors, but
    // what is no manifest stays skipped, never an input error.
    let out = check_kubernetes(&gates, &["--target", "1.30", "--hidden", "--strict", TREE]);
    assert!(!stderr(&out).contains("input error"), "{}", stderr(&out));
    assert!(stderr(&out).contains(" skipped\n"), "{}", stderr(&out));
}

#[test]
#[cfg_attr(
    not(vergate_kubernetes_output),
    ignore = "needs generated/kubernetes: cargo xtask regen --api kubernetes"
)]
fn ignore_globs_leave_paths_out_of_the_walk() {
    let gates = support::kubernetes_output();
    let out = check_kubernetes(
        &gates,
        &[
            "--target",
            "1.29",
            "--ignore",
            "charts/",
            "--ignore",
            "/deploy/service.yaml",
            "--format",
            "json",
            TREE,
        ],
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let json: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(json["documents"], 3, "{json:#}");
    assert!(json.get("skipped").is_none(), "{json:#}");
    // A file named is read whatever --ignore says.
    let out = check_kubernetes(
        &gates,
        &[
            "--target",
            "1.29",
            "--ignore",
            "service.yaml",
            "tests/cli/tree/deploy/service.yaml",
        ],
    );
    assert_eq!(code(&out), 1, "{}", stderr(&out));
}
