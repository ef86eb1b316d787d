//! The `vergate` command against the demo API (`generated/demo`, committed)
//! and the Kubernetes gates (`generated/kubernetes`, rebuilt by CI).

mod support;

use support::cli::{code, stderr, stdout, vergate, vergate_with_stdin};
use support::root;

use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Output;

const DEMO: &str = "generated/demo";

#[test]
fn check_reports_each_violation_with_its_line() {
    let out = vergate(&["check", "--api", DEMO, "tests/cli/demo/pipeline.yaml"]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "tests/cli/demo/pipeline.yaml:14: Pipeline build-web: spec.steps[0].runtime: value \"wasm\" is not available in 1.10 (introduced in 1.11)\n\
         tests/cli/demo/pipeline.yaml:15: Pipeline build-web: spec.steps[0].shell: not available in 1.10 (present in 1.9, 1.11, 1.12)\n"
    );
    assert!(stderr(&out).contains("checked 1 document against demo: 2 errors, 0 warnings"));
}

#[test]
fn check_refuses_list_items_the_target_does_not_accept() {
    let file = "tests/cli/demo/triggers.yaml";
    // A value of a later minor, and one no minor lists: both refused, with
    // or without --strict.
    for strict in [false, true] {
        let mut args = vec!["check", "--api", DEMO, file];
        if strict {
            args.insert(1, "--strict");
        }
        let out = vergate(&args);
        assert_eq!(code(&out), 1, "{}", stderr(&out));
        assert_eq!(
            stdout(&out),
            "tests/cli/demo/triggers.yaml:11: Pipeline nightly: spec.triggers[1]: value \"schedule\" is not available in 1.10 (introduced in 1.11)\n\
             tests/cli/demo/triggers.yaml:12: Pipeline nightly: spec.triggers[2]: value \"nightly\" is not accepted in 1.10 (accepted: push, tag)\n"
        );
    }
}

#[test]
fn check_refuses_map_values_the_target_does_not_accept() {
    let file = "tests/cli/demo/notify.yaml";
    for strict in [false, true] {
        let mut args = vec!["check", "--api", DEMO, file];
        if strict {
            args.insert(1, "--strict");
        }
        let out = vergate(&args);
        assert_eq!(code(&out), 1, "{}", stderr(&out));
        assert_eq!(
            stdout(&out),
            "tests/cli/demo/notify.yaml:11: Pipeline nightly: spec.notify.dev: value \"success\" is not available in 1.10 (introduced in 1.11)\n\
             tests/cli/demo/notify.yaml:12: Pipeline nightly: spec.notify.chat: value \"sometimes\" is not accepted in 1.10 (accepted: always, failure)\n"
        );
    }
}

#[test]
fn clean_documents_exit_zero_and_warnings_do_not_fail() {
    let out = vergate(&["check", "--api", DEMO, "tests/cli/demo/clean.yaml"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(stdout(&out), "");
    let out = vergate(&["check", "--api", DEMO, "tests/cli/demo/release.yaml"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "tests/cli/demo/release.yaml:7: warning: Release web: spec.replicas: deprecated since 1.10; renamed to replicaCount in 1.12\n\
         tests/cli/demo/release.yaml:11: warning: Release web: spec.canary: alpha in 1.11: the API server drops this field unless feature gate CanaryReleases is on (alpha gates are off by default); if the cluster enables it, pass --feature-gates CanaryReleases=true\n"
    );
}

#[test]
fn an_explicit_target_checks_every_document_against_it() {
    let out = vergate(&[
        "check",
        "--api",
        DEMO,
        "--target",
        "1.10",
        "tests/cli/demo/release.yaml",
    ]);
    assert_eq!(code(&out), 1);
    let text = stdout(&out);
    for expected in [
        "release.yaml:1: warning: Release web: apiVersion: the document is written for 1.11 but checked against the older 1.10",
        "release.yaml:11: Release web: spec.canary: not available in 1.10 (introduced in 1.11 as alpha, feature gate CanaryReleases)",
        "release.yaml:18: Release api: spec.image: missing: required in 1.10",
        "release.yaml:19: Release api: spec.replicaCount: not available in 1.10 (introduced in 1.12)",
        "release.yaml:20: Release api: spec.strategy: value \"BlueGreen\" is not available in 1.10 (introduced in 1.12 as alpha, feature gate BlueGreenReleases)",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in\n{text}");
    }
}

#[test]
fn bad_inputs_give_one_line_each_and_the_rest_is_still_checked() {
    let out = vergate(&[
        "check",
        "--api",
        DEMO,
        "tests/cli/bad/invalid.yaml",
        "tests/cli/bad/list.yaml",
        "tests/cli/bad/no-kind.yaml",
        "tests/cli/bad/unknown-minor.yaml",
        "tests/cli/does-not-exist.yaml",
        "tests/cli/demo/pipeline.yaml",
    ]);
    assert_eq!(code(&out), 2);
    let errors = stderr(&out);
    let lines: Vec<&str> = errors.lines().filter(|l| l.contains("error:")).collect();
    assert_eq!(lines.len(), 5, "{errors}");
    for expected in [
        "tests/cli/bad/invalid.yaml:4: error: invalid YAML",
        "tests/cli/bad/list.yaml:1: error: the document is a list, not a mapping",
        "tests/cli/bad/no-kind.yaml:1: error: the document has no kind",
        "tests/cli/bad/unknown-minor.yaml:1: error: apiVersion \"1.8\": demo has no minor 1.8 (its minors: 1.9, 1.10, 1.11, 1.12)",
        "tests/cli/does-not-exist.yaml: error: cannot read",
    ] {
        assert!(
            lines.iter().any(|line| line.starts_with(expected)),
            "missing {expected:?} in\n{errors}"
        );
    }
    assert_eq!(stdout(&out).lines().count(), 2, "{}", stdout(&out));
}

#[test]
fn an_unknown_target_minor_is_a_usage_error() {
    let out = vergate(&["check", "--api", DEMO, "--target", "1.8", "tests/cli/demo"]);
    assert_eq!(code(&out), 2);
    assert_eq!(
        stderr(&out),
        "error: --target 1.8: demo has no minor 1.8 (its minors: 1.9, 1.10, 1.11, 1.12)\n"
    );
    let out = vergate(&["check", "--api", DEMO, "--target", "1.x", "tests/cli/demo"]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("\"x\" is not a number"),
        "{}",
        stderr(&out)
    );
    let out = vergate(&["check", "--api", "no/such/dir", "tests/cli/demo"]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("no/such/dir: cannot read the gates index"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_target_newer_than_the_data_names_the_newest_minor() {
    for target in ["1.99", "v1.13.2-gke.1043000"] {
        let out = vergate(&["check", "--api", DEMO, "--target", target, "tests/cli/demo"]);
        assert_eq!(code(&out), 2, "{target}");
        let minor = if target == "1.99" { "1.99" } else { "1.13" };
        assert_eq!(
            stderr(&out),
            format!(
                "error: --target {minor}: newer than the data: the newest minor demo knows is 1.12; \
                 check against 1.12, or regenerate the API with {minor}'s spec\n"
            )
        );
    }
}

#[test]
fn targets_are_read_as_clusters_print_them() {
    let expected = vergate(&[
        "check",
        "--api",
        DEMO,
        "--target",
        "1.10",
        "tests/cli/demo/release.yaml",
    ]);
    assert_eq!(code(&expected), 1, "{}", stderr(&expected));
    for target in [
        "v1.10",
        "1.10.3",
        "v1.10.4-gke.1043000",
        "v1.10.0+a2c84a5",
        "v1.10.2-eks-1552ad0",
    ] {
        let out = vergate(&[
            "check",
            "--api",
            DEMO,
            "--target",
            target,
            "tests/cli/demo/release.yaml",
        ]);
        assert_eq!(code(&out), 1, "{target}: {}", stderr(&out));
        assert_eq!(stdout(&out), stdout(&expected), "{target}");
    }
    let out = vergate(&["diff", "--api", DEMO, "v1.9.1-gke.7", "v1.12.0+k3s1"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        stdout(&vergate(&["diff", "--api", DEMO, "1.9", "1.12"]))
    );
    let out = vergate(&["check", "--api", DEMO, "--target", "v1.10-gke.1", "x.yaml"]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("needs a full major.minor.patch before it"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn standard_input_is_read_with_a_dash() {
    let out = vergate_with_stdin(
        &["check", "--api", DEMO, "--target", "1.9", "-"],
        b"{\"apiVersion\": \"1.9\", \"kind\": \"Pipeline\",\n \"metadata\": {\"name\": \"j\"},\n \"spec\": {\"steps\": [], \"timeout\": \"1m\"}}\n",
    );
    assert_eq!(code(&out), 1);
    assert_eq!(
        stdout(&out),
        "<stdin>:3: Pipeline j: spec.timeout: not available in 1.9 (introduced in 1.10)\n"
    );
}

#[test]
fn json_output_lists_violations_and_errors() {
    let out = vergate(&[
        "check",
        "--api",
        DEMO,
        "--format",
        "json",
        "tests/cli/demo/pipeline.yaml",
        "tests/cli/bad/list.yaml",
    ]);
    assert_eq!(code(&out), 2);
    let json: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(json["documents"], 2);
    let first = &json["violations"][0];
    assert_eq!(first["file"], "tests/cli/demo/pipeline.yaml");
    assert_eq!(first["line"], 14);
    assert_eq!(first["rule"], "value-not-available");
    assert_eq!(first["severity"], "error");
    assert_eq!(first["path"], "spec.steps[0].runtime");
    assert_eq!(first["kind"], "Pipeline");
    assert_eq!(first["target"], "1.10");
    assert_eq!(json["errors"][0]["file"], "tests/cli/bad/list.yaml");
}

#[test]
fn sarif_output_has_rules_results_and_notifications() {
    let out = vergate(&[
        "check",
        "--api",
        DEMO,
        "--format",
        "sarif",
        "tests/cli/demo/pipeline.yaml",
        "tests/cli/bad/list.yaml",
    ]);
    assert_eq!(code(&out), 2);
    let sarif: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(sarif["version"], "2.1.0");
    let run = &sarif["runs"][0];
    let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
    let result = &run["results"][0];
    let index = result["ruleIndex"].as_u64().unwrap() as usize;
    assert_eq!(rules[index]["id"], result["ruleId"]);
    assert_eq!(result["ruleId"], "value-not-available");
    assert_eq!(result["level"], "error");
    let location = &result["locations"][0]["physicalLocation"];
    assert_eq!(
        location["artifactLocation"]["uri"],
        "tests/cli/demo/pipeline.yaml"
    );
    assert_eq!(location["region"]["startLine"], 14);
    assert_eq!(run["invocations"][0]["executionSuccessful"], false);
    let notification = &run["invocations"][0]["toolExecutionNotifications"][0];
    assert!(notification["message"]["text"]
        .as_str()
        .unwrap()
        .contains("not a mapping"));
}

#[test]
fn upgrade_applies_renames_and_bumps_the_version() {
    let out = vergate(&[
        "upgrade",
        "--api",
        DEMO,
        "--to",
        "1.12",
        "tests/cli/demo/release.yaml",
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let yaml = stdout(&out);
    assert_eq!(yaml.matches("apiVersion: \"1.12\"").count(), 2, "{yaml}");
    assert!(yaml.contains("  replicaCount: 3\n"), "{yaml}");
    assert!(!yaml.contains("replicas:"), "{yaml}");
    assert!(stderr(&out).contains(
        "tests/cli/demo/release.yaml:7: spec.replicas: renamed to replicaCount (in 1.12)"
    ));
    // The output is a valid 1.12 document.
    let tmp = tempfile::tempdir().unwrap();
    let upgraded = tmp.path().join("release-1.12.yaml");
    std::fs::write(&upgraded, &yaml).unwrap();
    let check = vergate(&["check", "--api", DEMO, upgraded.to_str().unwrap()]);
    assert_eq!(code(&check), 0, "{}", stdout(&check));
}

#[test]
fn upgrade_reports_losses_and_exits_one() {
    // pipeline.yaml without its `retries`, whose type change is refused.
    let text = std::fs::read_to_string(root().join("tests/cli/demo/pipeline.yaml")).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("pipeline.yaml");
    std::fs::write(&input, text.replace("  retries: 3\n", "")).unwrap();
    let out = vergate(&[
        "upgrade",
        "--api",
        DEMO,
        "--to",
        "1.12",
        input.to_str().unwrap(),
    ]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let errors = stderr(&out);
    assert!(
        errors.contains("pipeline.yaml:8: warning: spec.legacyCache: dropped: 1.12 has no such field (removed in 1.11)"),
        "{errors}"
    );
    assert!(stdout(&out).contains("apiVersion: \"1.12\""));
    assert!(!stdout(&out).contains("legacyCache"));
}

#[test]
fn upgrade_refuses_a_type_change_it_cannot_convert() {
    let tmp = tempfile::tempdir().unwrap();
    let output = tmp.path().join("out.yaml");
    let out = vergate(&[
        "upgrade",
        "--api",
        DEMO,
        "--to",
        "1.12",
        "tests/cli/demo/pipeline.yaml",
        "-o",
        output.to_str().unwrap(),
    ]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    let errors = stderr(&out);
    assert!(
        errors.contains(
            "tests/cli/demo/pipeline.yaml:8: error: spec.retries: type is integer(int32) in 1.10 but dev.shipyard.build.v1.RetryPolicy in 1.12, and 3 cannot be converted without loss; edit it by hand to fit dev.shipyard.build.v1.RetryPolicy, then run upgrade again\n"
        ),
        "{errors}"
    );
    assert!(
        errors.contains(
            "tests/cli/demo/pipeline.yaml:2: error: refusing to write the document for 1.12"
        ),
        "{errors}"
    );
    assert!(!output.exists(), "nothing is written");
    assert_eq!(stdout(&out), "");
}

const RETYPE: &str = "tests/cli/retype";

#[test]
fn upgrade_converts_type_changes_that_lose_nothing() {
    let input = "tests/cli/retype/widget.yaml";
    let out = vergate(&[
        "upgrade", "--api", RETYPE, "--from", "1.0", "--to", "1.1", input,
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let yaml = stdout(&out);
    for expected in [
        "  id: \"42\"\n",
        "  port: 8080\n",
        "  target: 9090\n",
        "    - \"1\"\n    - \"2\"\n",
    ] {
        assert!(yaml.contains(expected), "missing {expected:?} in\n{yaml}");
    }
    let errors = stderr(&out);
    for expected in [
        "widget.yaml:6: spec.id: type is integer(int64) in 1.0 but string in 1.1; 42 written as \"42\"",
        "widget.yaml:7: spec.port: type is integer(int32) in 1.0 but int-or-string in 1.1; kept as written",
        "widget.yaml:8: spec.target: type is int-or-string in 1.0 but integer(int32) in 1.1; kept as written",
        "widget.yaml:11: spec.tags[1]: type is integer(int32) in 1.0 but string in 1.1; 2 written as \"2\"",
    ] {
        assert!(errors.contains(expected), "missing {expected:?} in\n{errors}");
    }
    // 1.1 rejects the input as written and accepts the output.
    let check = vergate(&["check", "--api", RETYPE, "--target", "1.1", input]);
    assert_eq!(code(&check), 1, "{}", stdout(&check));
    let tmp = tempfile::tempdir().unwrap();
    let upgraded = tmp.path().join("widget.yaml");
    std::fs::write(&upgraded, &yaml).unwrap();
    let check = vergate(&[
        "check",
        "--api",
        RETYPE,
        "--target",
        "1.1",
        upgraded.to_str().unwrap(),
    ]);
    assert_eq!(code(&check), 0, "{}", stdout(&check));
}

#[test]
fn upgrade_refuses_values_the_new_type_cannot_hold() {
    let input = "tests/cli/retype/widget-refused.yaml";
    let check = vergate(&["check", "--api", RETYPE, "--target", "1.0", input]);
    assert_eq!(code(&check), 0, "valid in 1.0: {}", stdout(&check));
    let out = vergate(&[
        "upgrade", "--api", RETYPE, "--from", "1.0", "--to", "1.1", input,
    ]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert_eq!(stdout(&out), "");
    let errors = stderr(&out);
    for expected in [
        "widget-refused.yaml:7: error: spec.target: type is int-or-string in 1.0 but integer(int32) in 1.1, and \"http\" cannot be converted without loss; edit it by hand to fit integer(int32), then run upgrade again",
        "widget-refused.yaml:8: error: spec.retries: type is integer(int32) in 1.0 but dev.example.v1.RetryPolicy in 1.1, and 3 cannot be converted without loss; edit it by hand to fit dev.example.v1.RetryPolicy, then run upgrade again",
        "widget-refused.yaml:9: error: spec.mode: value \"legacy\" is not accepted in 1.1 (removed in 1.1; accepted: fast, safe); choose one of those by hand, then run upgrade again",
        "widget-refused.yaml:12: error: spec.modes.west: value \"legacy\" is not accepted in 1.1 (removed in 1.1; accepted: fast, safe); choose one of those by hand, then run upgrade again",
        "widget-refused.yaml:3: error: refusing to write the document for 1.1: 1.1 would reject it (above); nothing written",
    ] {
        assert!(errors.contains(expected), "missing {expected:?} in\n{errors}");
    }
}

#[test]
fn upgrade_never_goes_to_an_older_minor_nor_overwrites_its_input() {
    let out = vergate(&[
        "upgrade",
        "--api",
        DEMO,
        "--to",
        "1.10",
        "tests/cli/demo/clean.yaml",
    ]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("refusing to convert it to the older 1.10"),
        "{}",
        stderr(&out)
    );
    let out = vergate(&[
        "upgrade",
        "--api",
        DEMO,
        "--from",
        "1.11",
        "--to",
        "1.10",
        "tests/cli/demo/clean.yaml",
    ]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("never goes to an older minor"));

    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("release.yaml");
    std::fs::copy(root().join("tests/cli/demo/release.yaml"), &file).unwrap();
    let before = std::fs::read_to_string(&file).unwrap();
    let path = file.to_str().unwrap();
    let out = vergate(&["upgrade", "--api", DEMO, "--to", "1.12", path, "-o", path]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("pass --in-place"), "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), before);
    let out = vergate(&["upgrade", "--api", DEMO, "--to", "1.12", "--in-place", path]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(stdout(&out), "");
    assert!(std::fs::read_to_string(&file)
        .unwrap()
        .contains("replicaCount: 3"));
}

#[test]
fn upgrade_all_writes_every_lossless_minor_ascending() {
    let out = vergate(&[
        "upgrade",
        "--api",
        DEMO,
        "--all",
        "tests/cli/demo/clean.yaml",
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let yaml = stdout(&out);
    let versions: Vec<&str> = yaml
        .lines()
        .filter_map(|line| line.strip_prefix("apiVersion: "))
        .collect();
    assert_eq!(versions, ["\"1.11\"", "\"1.12\""], "{yaml}");
    let errors = stderr(&out);
    assert!(
        errors.contains("skipped 1.9: spec.timeout: dropped"),
        "{errors}"
    );
    assert!(
        errors.contains("skipped 1.10: spec.retries: type is"),
        "{errors}"
    );
    assert!(errors.contains("written for 1.11, 1.12"), "{errors}");
}

#[test]
fn upgrade_all_keeps_each_copys_comments_and_style() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("clean.yaml");
    let document = "apiVersion: \"1.12\"  # pinned\nkind: Pipeline\nmetadata:\n  name: clean   # the name\n\
         spec:\n  # ten minutes\n  timeout: 10m\n  retries:\n    limit: 3\n  steps:\n    - {name: build, runtime: docker}\n";
    std::fs::write(&file, format!("# Source: chart/clean.yaml\n{document}")).unwrap();
    let out = vergate(&["upgrade", "--api", DEMO, "--all", file.to_str().unwrap()]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let copy = |version: &str| {
        format!(
            "---\n# Source: chart/clean.yaml\n{}",
            document.replace("\"1.12\"", &format!("\"{version}\""))
        )
    };
    assert_eq!(stdout(&out), copy("1.11") + &copy("1.12"));
    assert!(!stderr(&out).contains("written anew"), "{}", stderr(&out));
}

#[test]
fn upgrade_all_renames_in_place_in_each_copy() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("release.yaml");
    let document = |version: &str, replicas: &str| {
        format!(
            "apiVersion: \"{version}\"\nkind: Release\nmetadata:\n  name: web\nspec:\n  \
             image: registry.example/web:1.4\n  {replicas}: 3  # three\n  target: {{cluster: prod}}\n"
        )
    };
    // A header comment puts the document's lines one after its own text's.
    std::fs::write(&file, format!("# web\n{}", document("1.11", "replicas"))).unwrap();
    let out = vergate(&["upgrade", "--api", DEMO, "--all", file.to_str().unwrap()]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let copies: String = [
        ("1.9", "replicas"),
        ("1.10", "replicas"),
        ("1.11", "replicas"),
        ("1.12", "replicaCount"),
    ]
    .iter()
    .map(|(version, replicas)| format!("---\n# web\n{}", document(version, replicas)))
    .collect();
    assert_eq!(stdout(&out), copies);
}

#[test]
fn diff_lists_what_the_newer_minor_changes() {
    let out = vergate(&["diff", "1.11", "1.12", "--api", DEMO]);
    assert_eq!(code(&out), 0);
    assert_eq!(
        stdout(&out),
        "demo 1.11 → 1.12\n\n\
         types added (5):\n  dev.shipyard.build.v1.Resources\n  dev.shipyard.deploy.v1.Priority\n  \
         dev.shipyard.deploy.v1.PullPolicy\n  dev.shipyard.deploy.v1.ReleaseResources\n  dev.shipyard.notify.v1.Webhook\n\n\
         fields added (4):\n  dev.shipyard.deploy.v1.ReleaseSpec.priority  (dev.shipyard.deploy.v1.Priority)\n  \
         dev.shipyard.deploy.v1.ReleaseSpec.pullPolicy  (dev.shipyard.deploy.v1.PullPolicy)\n  \
         dev.shipyard.deploy.v1.ReleaseSpec.replicaCount  (integer(int32), renamed from replicas)\n  \
         dev.shipyard.deploy.v1.ReleaseSpec.resources  (dev.shipyard.deploy.v1.ReleaseResources)\n\n\
         fields removed (1):\n  dev.shipyard.deploy.v1.ReleaseSpec.replicas  (renamed to replicaCount)\n\n\
         enum values added (1):\n  dev.shipyard.deploy.v1.Strategy=BlueGreen\n\n\
         union members added (1):\n  dev.shipyard.notify.v1.Channel|dev.shipyard.notify.v1.Webhook  (oneOf)\n"
    );
    let out = vergate(&["diff", "1.10", "1.11", "--api", DEMO, "--format", "json"]);
    let json: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(
        json["types_removed"][0],
        "dev.shipyard.build.v1.CacheConfig"
    );
    assert_eq!(
        json["fields_retyped"][0]["note"],
        "integer(int32) → dev.shipyard.build.v1.RetryPolicy"
    );
    assert_eq!(
        json["fields_deprecated"][0]["name"],
        "dev.shipyard.build.v1.Step.privileged"
    );
}

#[test]
fn diff_reports_fields_that_become_required_or_optional() {
    let out = vergate(&["diff", "1.10", "1.11", "--api", DEMO]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(
        stdout(&out).contains(
            "fields no longer required (1):\n  dev.shipyard.deploy.v1.ReleaseSpec.image  (required in 1.10, optional in 1.11)\n"
        ),
        "{}",
        stdout(&out)
    );
    // Going the other way, the same field becomes required: breaking.
    let out = vergate(&["diff", "1.11", "1.10", "--api", DEMO]);
    assert!(
        stdout(&out).contains(
            "fields now required, breaking for documents without them (1):\n  dev.shipyard.deploy.v1.ReleaseSpec.image  (optional in 1.11, required in 1.10)\n"
        ),
        "{}",
        stdout(&out)
    );
    let out = vergate(&["diff", "1.10", "1.11", "--api", DEMO, "--format", "json"]);
    let json: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(
        json["fields_now_optional"][0]["name"],
        "dev.shipyard.deploy.v1.ReleaseSpec.image"
    );
    assert_eq!(json["fields_now_required"], serde_json::json!([]));
    let out = vergate(&["diff", "1.11", "1.10", "--api", DEMO, "--format", "json"]);
    let json: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(
        json["fields_now_required"][0]["note"],
        "optional in 1.11, required in 1.10"
    );
}

#[test]
fn versions_lists_the_manifest_and_default() {
    let tmp = tempfile::tempdir().unwrap();
    for dir in ["v1.10", "v1.9", "vpcaccess", "v1.11"] {
        std::fs::create_dir(tmp.path().join(dir)).unwrap();
    }
    let path = tmp.path().to_str().unwrap();
    let out = vergate(&["versions", path]);
    assert_eq!(code(&out), 0);
    assert_eq!(
        stdout(&out),
        format!("{path}: 3 versions, default v1.11\n  v1.9\n  v1.10\n  v1.11  (default)\n")
    );
    std::fs::create_dir(tmp.path().join("v1.x")).unwrap();
    let out = vergate(&["versions", path]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("v1.x"), "{}", stderr(&out));
    let empty = tempfile::tempdir().unwrap();
    let out = vergate(&[
        "versions",
        empty.path().to_str().unwrap(),
        "--format",
        "json",
    ]);
    let json: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(json["default"], Value::Null);
}

/// The minors a manifest's `# minors: 1.30..=1.36` header names.
fn header_minors(path: &Path) -> BTreeSet<String> {
    let text = std::fs::read_to_string(path).unwrap();
    let header = text
        .lines()
        .next()
        .and_then(|line| line.strip_prefix("# minors: "))
        .unwrap_or_else(|| panic!("{}: no `# minors:` header", path.display()));
    if let Some((low, high)) = header.split_once("..=") {
        let minor = |v: &str| v.trim().strip_prefix("1.").unwrap().parse::<u32>().unwrap();
        (minor(low)..=minor(high))
            .map(|m| format!("1.{m}"))
            .collect()
    } else {
        header.split(',').map(|v| v.trim().to_owned()).collect()
    }
}

#[test]
#[cfg_attr(
    not(vergate_kubernetes_output),
    ignore = "needs generated/kubernetes: cargo xtask regen --api kubernetes"
)]
fn kubernetes_manifests_pass_exactly_in_the_minors_of_their_header() {
    let gates = support::kubernetes_output();
    let dir = root().join("tests/manifests/kubernetes");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "yaml"))
        .collect();
    files.sort();
    assert!(files.len() >= 40, "{} manifests", files.len());
    let mut mismatches = Vec::new();
    for minor in 28..=36 {
        let target = format!("1.{minor}");
        // A header lists the minors that accept the manifest; a field
        // whose gate is off by default there (alpha, or beta and off) is
        // accepted with its gate on (AllAlpha, AllBeta), and is
        // `feature-gate-off` with default gates (tests/feature_gates.rs).
        let mut args = vec![
            "check".to_owned(),
            "--strict".into(),
            "--feature-gates".into(),
            "AllAlpha=true,AllBeta=true".into(),
            "--api".into(),
            gates.display().to_string(),
            "--target".into(),
            target.clone(),
            "--format".into(),
            "json".into(),
        ];
        args.extend(files.iter().map(|f| f.display().to_string()));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = vergate(&args);
        let json: Value = serde_json::from_str(&stdout(&out)).unwrap();
        assert_eq!(json["errors"], Value::Array(vec![]), "{target}");
        let mut failing: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for found in json["violations"].as_array().unwrap() {
            if found["severity"] == "error" {
                failing
                    .entry(found["file"].as_str().unwrap().to_owned())
                    .or_default()
                    .push(format!("{}: {}", found["path"], found["message"]));
            }
        }
        for file in &files {
            let name = file.display().to_string();
            let expected_ok = header_minors(file).contains(&target);
            match (expected_ok, failing.get(&name)) {
                (true, Some(violations)) => {
                    mismatches.push(format!("{name} should pass {target}: {violations:?}"))
                }
                (false, None) => mismatches.push(format!("{name} should fail {target}")),
                _ => {}
            }
        }
    }
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
}

#[test]
#[cfg_attr(
    not(vergate_kubernetes_output),
    ignore = "needs generated/kubernetes: cargo xtask regen --api kubernetes"
)]
fn kubernetes_messages_name_the_minor_and_the_replacement() {
    let gates = support::kubernetes_output();
    let gates = gates.display().to_string();
    let out = vergate(&[
        "check",
        "--api",
        &gates,
        "--target",
        "1.29",
        "tests/manifests/kubernetes/service-traffic-distribution.yaml",
    ]);
    assert_eq!(code(&out), 1);
    assert_eq!(
        stdout(&out),
        "tests/manifests/kubernetes/service-traffic-distribution.yaml:11: Service shop/catalog: spec.trafficDistribution: not available in 1.29 (introduced in 1.30 as alpha, feature gate ServiceTrafficDistribution)\n"
    );
    let out = vergate(&[
        "check",
        "--api",
        &gates,
        "--target",
        "1.32",
        "tests/manifests/kubernetes/flowschema-v1beta3.yaml",
    ]);
    assert_eq!(code(&out), 1);
    assert!(stdout(&out).contains(
        "flowcontrol.apiserver.k8s.io/v1beta3 FlowSchema is not served in 1.32 (removed in 1.32); use apiVersion flowcontrol.apiserver.k8s.io/v1"
    ), "{}", stdout(&out));
    let out = vergate(&[
        "check",
        "--api",
        &gates,
        "tests/manifests/kubernetes/lease.yaml",
    ]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("pass --target"), "{}", stderr(&out));
    let out = vergate(&["diff", "1.29", "1.30", "--api", &gates, "--format", "json"]);
    let json: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let added: Vec<&str> = json["fields_added"]
        .as_array()
        .unwrap()
        .iter()
        .map(|item| item["name"].as_str().unwrap())
        .collect();
    assert!(added.contains(&"io.k8s.api.core.v1.ServiceSpec.trafficDistribution"));
}

#[test]
#[cfg_attr(
    not(vergate_kubernetes_output),
    ignore = "needs generated/kubernetes: cargo xtask regen --api kubernetes"
)]
fn kubernetes_upgrade_moves_a_removed_api_version_to_its_replacement() {
    let gates = support::kubernetes_output();
    let gates = gates.display().to_string();
    let tmp = tempfile::tempdir().unwrap();
    for (file, from, to) in [
        ("flowschema-v1beta3.yaml", "1.31", "1.32"),
        ("validatingadmissionpolicy-v1beta1.yaml", "1.33", "1.36"),
    ] {
        let input = format!("tests/manifests/kubernetes/{file}");
        let output = tmp.path().join(file);
        let output = output.to_str().unwrap();
        let out = vergate(&[
            "upgrade", "--api", &gates, "--from", from, "--to", to, &input, "-o", output,
        ]);
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        assert!(
            stderr(&out).contains(&format!("is not served in {to})")),
            "{}",
            stderr(&out)
        );
        let check = vergate(&["check", "--strict", "--api", &gates, "--target", to, output]);
        assert_eq!(code(&check), 0, "{file}: {}", stdout(&check));
        let check = vergate(&["check", "--strict", "--api", &gates, "--target", to, &input]);
        assert_eq!(
            code(&check),
            1,
            "{file}: the input itself is not served in {to}"
        );
    }
}

#[test]
#[cfg_attr(
    not(vergate_kubernetes_output),
    ignore = "needs generated/kubernetes: cargo xtask regen --api kubernetes"
)]
fn kubernetes_lists_are_checked_item_by_item() {
    let gates = support::kubernetes_output();
    let gates = gates.display().to_string();
    let list = "tests/cli/kubernetes/list.yaml";
    let out = vergate(&[
        "check", "--strict", "--api", &gates, "--target", "1.29", list,
    ]);
    assert_eq!(code(&out), 1);
    assert_eq!(
        stdout(&out),
        "tests/cli/kubernetes/list.yaml:17: Service web: items[0].spec.trafficDistribution: not available in 1.29 (introduced in 1.30 as alpha, feature gate ServiceTrafficDistribution)\n\
         tests/cli/kubernetes/list.yaml:34: Deployment web: items[1].spec.template.spec.containers[0].imagePullPolicy: Unsupported value: \"IfNotPresnt\": supported values: \"Always\", \"IfNotPresent\", \"Never\"\n"
    );
    let out = vergate(&[
        "check", "--strict", "--api", &gates, "--target", "1.34", list,
    ]);
    assert_eq!(code(&out), 1);
    assert_eq!(
        stdout(&out),
        "tests/cli/kubernetes/list.yaml:34: Deployment web: items[1].spec.template.spec.containers[0].imagePullPolicy: value \"IfNotPresnt\" is not accepted in 1.34 (accepted: Always, IfNotPresent, Never)\n"
    );
}

/// List items and map values are held to their element enum where the
/// target lists one (Kubernetes from 1.34), with or without --strict, and
/// left open where it lists none, unless the server holds the field to its
/// own closed set there (a Service's `ipFamilies`: 1.33's server refuses
/// `IPv5`, #40).
#[test]
#[cfg_attr(
    not(vergate_kubernetes_output),
    ignore = "needs generated/kubernetes: cargo xtask regen --api kubernetes"
)]
fn kubernetes_elements_are_held_to_their_element_enum() {
    let gates = support::kubernetes_output();
    let gates = gates.display().to_string();
    let file = "tests/cli/kubernetes/service.yaml";
    let check = |target: &str| vergate(&["check", "--api", &gates, "--target", target, file]);
    let out = check("1.34");
    assert_eq!(code(&out), 1, "{file}");
    assert_eq!(
        stdout(&out),
        "tests/cli/kubernetes/service.yaml:10: Service web: spec.ipFamilies[1]: value \"IPv5\" is not accepted in 1.34 (accepted: \"\", IPv4, IPv6)\n"
    );
    // 1.33's spec lists no values there; its server holds the field to its
    // own closed set.
    let out = check("1.33");
    assert_eq!(
        (code(&out), stdout(&out).as_str()),
        (
            1,
            "tests/cli/kubernetes/service.yaml:10: Service web: spec.ipFamilies[1]: Unsupported value: \"IPv5\": supported values: \"IPv4\", \"IPv6\"\n"
        )
    );
    // A PersistentVolumeClaim's status is reset on create (the strategy's
    // PrepareForCreate), so its misspelt resize status is never read.
    let out = vergate(&[
        "check",
        "--api",
        &gates,
        "--target",
        "1.34",
        "tests/cli/kubernetes/pvc-status.yaml",
    ]);
    assert_eq!((code(&out), stdout(&out).as_str()), (0, ""));
}

#[test]
fn a_deprecated_target_minor_warns_with_api_tomls_note() {
    let output = vergate(&[
        "check",
        "--api",
        "generated/demo",
        "--target",
        "1.9",
        "tests/cli/demo/clean.yaml",
    ]);
    assert!(
        stderr(&output).contains(
            "warning: --target 1.9: demo 1.9 is deprecated: Shipyard 1.9 leaves support with 1.13"
        ),
        "{}",
        stderr(&output)
    );
    let output = vergate(&[
        "check",
        "--api",
        "generated/demo",
        "--target",
        "1.12",
        "tests/cli/demo/clean.yaml",
    ]);
    assert!(
        !stderr(&output).contains("deprecated:"),
        "{}",
        stderr(&output)
    );
}

#[test]
#[cfg_attr(
    not(vergate_kubernetes_output),
    ignore = "needs generated/kubernetes: cargo xtask regen --api kubernetes"
)]
fn kubernetes_diff_reports_required_flips() {
    let gates = support::kubernetes_output();
    let gates = gates.display().to_string();
    // HostAlias.ip is optional in 1.30 and required from 1.31.
    let out = vergate(&["diff", "1.30", "1.31", "--api", &gates]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("fields now required, breaking for documents without them ("),
        "{text}"
    );
    assert!(
        text.contains(
            "\n  io.k8s.api.core.v1.HostAlias.ip  (optional in 1.30, required in 1.31)\n"
        ),
        "{text}"
    );
    // A field added as required says so.
    let out = vergate(&["diff", "1.35", "1.36", "--api", &gates]);
    assert!(
        stdout(&out).contains(
            "\n  io.k8s.api.certificates.v1beta1.PodCertificateRequestSpec.stubPKCS10Request  (string(byte), required)\n"
        ),
        "{}",
        stdout(&out)
    );
    // StatefulSetSpec.serviceName is required up to 1.32 and optional from 1.33.
    let out = vergate(&["diff", "1.32", "1.33", "--api", &gates, "--format", "json"]);
    let json: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let optional: Vec<&str> = json["fields_now_optional"]
        .as_array()
        .unwrap()
        .iter()
        .map(|item| item["name"].as_str().unwrap())
        .collect();
    assert!(
        optional.contains(&"io.k8s.api.apps.v1.StatefulSetSpec.serviceName"),
        "{optional:?}"
    );
}

/// Kubernetes lists its enums from 1.34: 1.33 → 1.34 reports each enum as
/// first listed (once, with its values), not hundreds of values added; a
/// value added to an enum both minors list is a value added.
#[test]
#[cfg_attr(
    not(vergate_kubernetes_output),
    ignore = "needs generated/kubernetes: cargo xtask regen --api kubernetes"
)]
fn kubernetes_diff_tells_enums_first_listed_from_values_added() {
    let gates = support::kubernetes_output();
    let gates = gates.display().to_string();
    let diff = |old: &str, new: &str| {
        let out = vergate(&["diff", old, new, "--api", &gates, "--format", "json"]);
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        serde_json::from_str::<Value>(&stdout(&out)).unwrap()
    };
    let names = |json: &Value, list: &str| -> Vec<String> {
        json[list]
            .as_array()
            .unwrap()
            .iter()
            .map(|item| {
                format!(
                    "{} {}",
                    item["name"].as_str().unwrap(),
                    item["note"].as_str().unwrap_or("")
                )
            })
            .map(|line| line.trim_end().to_owned())
            .collect()
    };
    let first = diff("1.33", "1.34");
    let listed = names(&first, "enums_first_listed");
    assert!(
        listed.contains(
            &"io.k8s.api.core.v1.Container.imagePullPolicy Always, IfNotPresent, Never".to_owned()
        ),
        "{listed:?}"
    );
    assert!(
        listed.contains(&"io.k8s.api.core.v1.ServiceSpec.ipFamilies[] \"\", IPv4, IPv6".to_owned()),
        "{listed:?}"
    );
    // A map's values are named with `{}`.
    assert!(
        listed.contains(&"io.k8s.api.core.v1.PersistentVolumeClaimStatus.allocatedResourceStatuses{} ControllerResizeInProgress, ControllerResizeInfeasible, NodeResizeInProgress, NodeResizeInfeasible, NodeResizePending".to_owned()),
        "{listed:?}"
    );
    let added = names(&first, "values_added");
    assert!(
        !added.iter().any(|name| name.contains("imagePullPolicy")),
        "{added:?}"
    );
    // And the other way round.
    let back = diff("1.34", "1.33");
    assert!(
        names(&back, "enums_no_longer_listed").contains(
            &"io.k8s.api.core.v1.Container.imagePullPolicy Always, IfNotPresent, Never".to_owned()
        ),
        "{:?}",
        names(&back, "enums_no_longer_listed")
    );
    let next = diff("1.34", "1.35");
    assert!(
        names(&next, "values_added")
            .contains(&"io.k8s.api.core.v1.Toleration.operator=Gt".to_owned()),
        "{:?}",
        names(&next, "values_added")
    );
}

/// HostAlias.ip is optional in 1.30 and required from 1.31: upgrade cannot
/// make it up, so it refuses and writes nothing.
#[test]
#[cfg_attr(
    not(vergate_kubernetes_output),
    ignore = "needs generated/kubernetes: cargo xtask regen --api kubernetes"
)]
fn kubernetes_upgrade_refuses_a_field_that_becomes_required() {
    let gates = support::kubernetes_output();
    let gates = gates.display().to_string();
    let input = "tests/cli/kubernetes/pod-host-aliases.yaml";
    // The schema takes it in 1.30; the server's Go validation refused the
    // empty IP there too (ValidateHostAliases), which check says.
    let check = vergate(&["check", "--api", &gates, "--target", "1.30", input]);
    assert_eq!(code(&check), 1, "{}", stdout(&check));
    assert!(
        stdout(&check)
            .contains("spec.hostAliases[0].ip: Invalid value: \"\": must be a valid IP address"),
        "{}",
        stdout(&check)
    );
    let out = vergate(&[
        "upgrade", "--api", &gates, "--from", "1.30", "--to", "1.31", input,
    ]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert_eq!(stdout(&out), "");
    assert_eq!(
        stderr(&out),
        "tests/cli/kubernetes/pod-host-aliases.yaml:8: error: spec.hostAliases[0].ip: missing: required in 1.31 but not in 1.30; add it by hand, then run upgrade again\n\
         tests/cli/kubernetes/pod-host-aliases.yaml:2: error: refusing to write the document for 1.31: 1.31 would reject it (above); nothing written\n"
    );
}

#[test]
#[cfg_attr(
    not(vergate_kubernetes_output),
    ignore = "needs generated/kubernetes: cargo xtask regen --api kubernetes"
)]
fn kubernetes_upgrade_converts_a_retyped_field_field_by_field() {
    let gates = support::kubernetes_output();
    let gates = gates.display().to_string();
    // PersistentVolumeClaimSpec.resources: ResourceRequirements in 1.28,
    // VolumeResourceRequirements from 1.29.
    let input = "tests/cli/kubernetes/pvc.yaml";
    let tmp = tempfile::tempdir().unwrap();
    let output = tmp.path().join("pvc.yaml");
    let output = output.to_str().unwrap();
    let out = vergate(&[
        "upgrade", "--api", &gates, "--from", "1.28", "--to", "1.29", input, "-o", output,
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(
        stderr(&out),
        "tests/cli/kubernetes/pvc.yaml:10: spec.resources: type is io.k8s.api.core.v1.ResourceRequirements in 1.28 but io.k8s.api.core.v1.VolumeResourceRequirements in 1.29; converted field by field\n"
    );
    let check = vergate(&[
        "check", "--strict", "--api", &gates, "--target", "1.29", output,
    ]);
    assert_eq!(code(&check), 0, "{}", stdout(&check));
    assert!(std::fs::read_to_string(output)
        .unwrap()
        .contains("      storage: 10Gi\n"));
    // `claims` has no place in the new type: dropped, and said why.
    let text = std::fs::read_to_string(root().join(input)).unwrap();
    let claims = tmp.path().join("pvc-claims.yaml");
    std::fs::write(&claims, format!("{text}    claims:\n      - name: gpu\n")).unwrap();
    let out = vergate(&[
        "upgrade",
        "--api",
        &gates,
        "--from",
        "1.28",
        "--to",
        "1.29",
        claims.to_str().unwrap(),
    ]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    assert!(
        stderr(&out).contains("pvc-claims.yaml:13: warning: spec.resources.claims: dropped: 1.29 has no such field (its type in 1.29, io.k8s.api.core.v1.VolumeResourceRequirements, has none)"),
        "{}",
        stderr(&out)
    );
}

/// Runs `check` against the Kubernetes gates for 1.34 on `file`.
fn check_kubernetes(gates: &Path, strict: bool, file: &str) -> Output {
    let gates = gates.to_str().unwrap();
    let mut args = vec!["check", "--api", gates, "--target", "1.34", file];
    if strict {
        args.insert(1, "--strict");
    }
    vergate(&args)
}

#[test]
#[cfg_attr(
    not(vergate_kubernetes_output),
    ignore = "needs generated/kubernetes: cargo xtask regen --api kubernetes"
)]
fn kubernetes_types_the_api_server_decodes_itself_are_checked() {
    let gates = support::kubernetes_output();
    let file = "tests/cli/kubernetes/types-refused.yaml";
    for strict in [false, true] {
        let out = check_kubernetes(&gates, strict, file);
        assert_eq!(code(&out), 1, "{}", stderr(&out));
        assert_eq!(
            stdout(&out),
            "tests/cli/kubernetes/types-refused.yaml:7: Deployment web: metadata.creationTimestamp: expected a string (string(date-time) in 1.34), found an integer\n\
             tests/cli/kubernetes/types-refused.yaml:9: Deployment web: spec.replicas: expected an integer from -2147483648 to 2147483647 (integer(int32) in 1.34), found 3000000000\n\
             tests/cli/kubernetes/types-refused.yaml:20: Deployment web: spec.template.spec.containers[0].ports[0].containerPort: expected an integer (integer(int32) in 1.34), found 8080.5\n\
             tests/cli/kubernetes/types-refused.yaml:23: Deployment web: spec.template.spec.containers[0].resources.limits.memory: expected a string or a number (quantity in 1.34), found a mapping\n\
             tests/cli/kubernetes/types-refused.yaml:31: Service web: spec.ports[0].targetPort: expected an integer or a string (int-or-string in 1.34), found 8080.5\n\
             tests/cli/kubernetes/types-refused.yaml:33: Service web: spec.ports[1].targetPort: expected an integer or a string (int-or-string in 1.34), found a mapping\n\
             tests/cli/kubernetes/types-refused.yaml:39: PodDisruptionBudget web: spec.minAvailable: expected an integer or a string (int-or-string in 1.34), found a mapping\n"
        );
    }
}

#[test]
#[cfg_attr(
    not(vergate_kubernetes_output),
    ignore = "needs generated/kubernetes: cargo xtask regen --api kubernetes"
)]
fn kubernetes_values_kubectl_sends_as_the_server_takes_them_pass() {
    let gates = support::kubernetes_output();
    // `replicas: 2.0` and `1e3` are sent as 2 and 1000; quantities may be
    // numbers; int-or-string takes `8080.0` (sent as 8080) and `http`.
    for strict in [false, true] {
        let out = check_kubernetes(&gates, strict, "tests/cli/kubernetes/types-accepted.yaml");
        assert_eq!(code(&out), 0, "{}{}", stdout(&out), stderr(&out));
        assert_eq!(stdout(&out), "");
    }
}

#[test]
#[cfg_attr(
    not(vergate_kubernetes_output),
    ignore = "needs generated/kubernetes: cargo xtask regen --api kubernetes"
)]
fn kubernetes_strict_checks_quantities_timestamps_and_base64() {
    let gates = support::kubernetes_output();
    let file = "tests/cli/kubernetes/types-strict.yaml";
    // The API server's decoding refuses all three, so they are errors by
    // default since #40 (they were --strict's alone), and with --strict.
    for strict in [false, true] {
        let out = check_kubernetes(&gates, strict, file);
        assert_eq!(code(&out), 1, "{}", stderr(&out));
        assert_eq!(
            stdout(&out),
            "tests/cli/kubernetes/types-strict.yaml:7: Secret web: metadata.creationTimestamp: expected an RFC 3339 date-time such as 2024-01-02T15:04:05Z (string(date-time) in 1.34), found \"yesterday\"\n\
             tests/cli/kubernetes/types-strict.yaml:9: Secret web: data.key: expected base64-encoded bytes (string(byte) in 1.34), found \"not base64!\"\n\
             tests/cli/kubernetes/types-strict.yaml:18: LimitRange web: spec.limits[0].max.memory: expected a quantity such as 500m, 1Gi or 1.5 (quantity in 1.34), found \"1 GB\"\n"
        );
    }
}

/// A value whose description says it is deprecated warns where it is, and
/// its neighbours and its field do not.
#[test]
#[cfg_attr(
    not(vergate_kubernetes_output),
    ignore = "needs generated/kubernetes: cargo xtask regen --api kubernetes"
)]
fn kubernetes_deprecated_enum_values_warn() {
    let gates = support::kubernetes_output();
    let gates = gates.display().to_string();
    let file = "tests/cli/kubernetes/value-deprecations.yaml";
    let check = |target: &str| vergate(&["check", "--api", &gates, "--target", target, file]);
    // The Pod's `status.phase: Unknown` (deprecated since 1.34) says
    // nothing: the server resets a Pod's status on create, so it is never
    // read (`preflight/prepare.rs`).
    let fqdn = "tests/cli/kubernetes/value-deprecations.yaml:31: warning: EndpointSlice by-name: items[2].addressType: value \"FQDN\" is deprecated since 1.33 (inferred from its description)\n";
    let out = check("1.34");
    assert_eq!(code(&out), 0, "warnings do not fail");
    assert_eq!(stdout(&out), fqdn);
    let out = check("1.33");
    assert_eq!(stdout(&out), fqdn);
    let out = check("1.32");
    assert_eq!(stdout(&out), "");
}

#[test]
fn check_holds_integers_and_empty_strings_to_their_enums() {
    let file = "tests/cli/enums/release.yaml";
    let out = vergate(&["check", "--api", DEMO, file]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "tests/cli/enums/release.yaml:20: Release api: spec.pullPolicy: value \"if_not_present\" is not accepted in 1.12 (accepted: \"\", Always, IfNotPresent, Never, if-not-present)\n\
         tests/cli/enums/release.yaml:21: Release api: spec.priority: value \"5\" is not accepted in 1.12 (accepted: 0, 10, 100)\n"
    );
}

/// #16 item 4: the shapes of upstream-specs/kubernetes/refinements.toml
/// (port numbers, DNS labels) are constraints `check` enforces, from the
/// embedded data as from a regen.
#[test]
fn kubernetes_refinements_refuse_bad_ports_and_names() {
    let file = "tests/cli/kubernetes/ports-refined.yaml";
    let out = vergate(&["check", "--target", "1.34", file]);
    assert_eq!(code(&out), 1, "{}", stdout(&out));
    let text = stdout(&out);
    for expected in [
        "Service shop/web: spec.ports[0].targetPort: 70000 is greater than the maximum 65535",
        "Pod shop/web: spec.containers[0].name: \"Web_1\" does not match the pattern",
        "Pod shop/web: spec.containers[0].ports[0].containerPort: 0 is less than the minimum 1",
    ] {
        assert!(text.contains(expected), "{expected}\n{text}");
    }
}

/// `check` runs a file's documents grouped by kind (for the caches), and
/// reports them in the file's order all the same, with any number of
/// threads: a stream of two kinds in turn gives its findings line by line.
#[test]
fn findings_come_in_the_files_order_whatever_the_kinds() {
    let pipeline = std::fs::read_to_string(root().join("tests/cli/demo/pipeline.yaml")).unwrap();
    let releases = std::fs::read_to_string(root().join("tests/cli/demo/release.yaml")).unwrap();
    let release = releases.split("---").next().unwrap().trim_end();
    let mut stream = String::new();
    for _ in 0..30 {
        stream.push_str(pipeline.trim_end());
        stream.push_str("\n---\n");
        stream.push_str(release);
        stream.push_str("\n---\n");
    }
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("interleaved.yaml");
    std::fs::write(&file, &stream).unwrap();
    let file = file.to_str().unwrap();
    let run = |threads: &str| {
        let out = vergate(&[
            "check", "--api", DEMO, "--format", "json", "-j", threads, file,
        ]);
        serde_json::from_str::<Value>(&stdout(&out)).unwrap()
    };
    let one = run("1");
    assert_eq!(one["documents"], 60);
    let found: Vec<(u64, String)> = one["violations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| {
            (
                v["line"].as_u64().unwrap(),
                v["kind"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert_eq!(found.len(), 30 * 4, "{found:?}");
    assert!(
        found.windows(2).all(|pair| pair[0].0 <= pair[1].0),
        "{found:?}"
    );
    let kinds: Vec<&str> = found.iter().map(|(_, kind)| kind.as_str()).collect();
    assert_eq!(kinds[..4], ["Pipeline", "Pipeline", "Release", "Release"]);
    assert_eq!(run("4"), one);
}
