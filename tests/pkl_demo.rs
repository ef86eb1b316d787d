//! The committed demo package `generated/demo/pkl/`, judged by the real pkl
//! CLI: every module of every minor evaluates, the examples evaluate, and a
//! field exists exactly in the subtrees of the minors that accept it.

mod pkl;
mod support;

use serde_json::Value;
use std::path::{Path, PathBuf};

const MINORS: [&str; 4] = ["v1.9", "v1.10", "v1.11", "v1.12"];

fn package_dir() -> PathBuf {
    pkl::root().join("generated/demo/pkl")
}

#[test]
#[cfg_attr(
    not(vergate_pkl),
    ignore = "needs the pkl CLI: target/tools (see .ci/run) or VERGATE_PKL"
)]
fn every_module_of_every_minor_evaluates() {
    let pkl = pkl::pkl();
    let project = pkl::user_project(&pkl, "shipyard", &package_dir());
    let mut files = Vec::new();
    for minor in MINORS {
        let modules = pkl::modules_below(&package_dir().join(minor));
        assert!(
            modules.contains(&"build/Pipeline.pkl".to_owned())
                && modules.contains(&"deploy/Release.pkl".to_owned()),
            "{minor}: {modules:?}"
        );
        let file = format!("all_{minor}.pkl");
        std::fs::write(
            project.path().join(&file),
            pkl::import_all_module(&format!("@shipyard/{minor}"), &modules),
        )
        .unwrap();
        files.push(file);
    }
    let root_modules = ["target.pkl", "shared.pkl"].map(String::from);
    std::fs::write(
        project.path().join("all_root.pkl"),
        pkl::import_all_module("@shipyard", &root_modules),
    )
    .unwrap();
    files.push("all_root.pkl".into());
    let names: Vec<&str> = files.iter().map(String::as_str).collect();
    let output = pkl.eval_json(project.path(), &names);
    // One JSON document per module; the gated ones carry their annotation.
    assert!(
        output.contains(r#""introducedIn": "1.10""#),
        "annotations are rendered:\n{output}"
    );
}

#[test]
#[cfg_attr(
    not(vergate_pkl),
    ignore = "needs the pkl CLI: target/tools (see .ci/run) or VERGATE_PKL"
)]
fn examples_evaluate_and_render_every_kind() {
    let pkl = pkl::pkl();
    let examples = package_dir().join("examples");
    for minor in MINORS {
        let file = format!("{minor}.pkl");
        let json: Value = serde_json::from_str(&pkl.eval_json(&examples, &[&file])).unwrap();
        assert_eq!(
            json["config"]["shipyardVersion"],
            minor.trim_start_matches('v')
        );
        let kinds: Vec<&str> = json["resources"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["kind"].as_str().unwrap())
            .collect();
        // The Notifier (unions) is served from 1.11.
        let expected: &[&str] = if ["v1.9", "v1.10"].contains(&minor) {
            &["Pipeline", "Release"]
        } else {
            &["Pipeline", "Release", "Notifier"]
        };
        assert_eq!(kinds, expected, "{minor}");
        // The demo's documents carry their own minor (api.toml's
        // document_version_field), not a group/version.
        assert_eq!(
            json["resources"][1]["apiVersion"],
            minor.trim_start_matches('v'),
            "{minor}"
        );
    }
}

#[test]
#[cfg_attr(
    not(vergate_pkl),
    ignore = "needs the pkl CLI: target/tools (see .ci/run) or VERGATE_PKL"
)]
fn generated_deps_json_is_what_pkl_resolves() {
    let pkl = pkl::pkl();
    let copy = tempfile::tempdir().unwrap();
    support::copy_dir(&package_dir(), copy.path());
    for project in ["examples", "v1.12"] {
        let dir = copy.path().join(project);
        let committed = std::fs::read(dir.join("PklProject.deps.json")).unwrap();
        std::fs::remove_file(dir.join("PklProject.deps.json")).unwrap();
        pkl.resolve(&dir);
        let resolved: Value =
            serde_json::from_slice(&std::fs::read(dir.join("PklProject.deps.json")).unwrap())
                .unwrap();
        let committed: Value = serde_json::from_slice(&committed).unwrap();
        assert_eq!(committed, resolved, "{project}/PklProject.deps.json");
    }
}

/// A user file amending a resource module of `minor`.
fn amend(pkl: &pkl::Pkl, project: &Path, minor: &str, module: &str, body: &str) -> (bool, String) {
    let file = format!(
        "user_{}_{}.pkl",
        minor.replace('.', "_"),
        module.replace('/', "_")
    );
    std::fs::write(
        project.join(&file),
        format!("amends \"@shipyard/{minor}/{module}.pkl\"\n\n{body}\n"),
    )
    .unwrap();
    let output = pkl.eval(project, &[&file]);
    let text = if output.status.success() {
        String::from_utf8(output.stdout).unwrap()
    } else {
        String::from_utf8(output.stderr).unwrap()
    };
    (output.status.success(), text)
}

#[test]
#[cfg_attr(
    not(vergate_pkl),
    ignore = "needs the pkl CLI: target/tools (see .ci/run) or VERGATE_PKL"
)]
fn a_field_exists_only_in_the_minors_that_accept_it() {
    let pkl = pkl::pkl();
    let project = pkl::user_project(&pkl, "shipyard", &package_dir());
    let project = project.path();
    // Added in 1.10.
    let timeout = r#"metadata { name = "p" }
spec { timeout = "30m" }"#;
    let (ok, text) = amend(&pkl, project, "v1.10", "build/Pipeline", timeout);
    assert!(ok, "{text}");
    let json: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(json["apiVersion"], "1.10");
    assert_eq!(json["kind"], "Pipeline");
    assert_eq!(json["spec"]["timeout"], "30m");
    let (ok, text) = amend(&pkl, project, "v1.9", "build/Pipeline", timeout);
    assert!(
        !ok && text.contains("timeout is not available in 1.9; introduced in 1.10"),
        "{text}"
    );

    // Removed in 1.11.
    let legacy = r#"metadata { name = "p" }
spec { legacyCache { path = "/cache" } }"#;
    let (ok, text) = amend(&pkl, project, "v1.10", "build/Pipeline", legacy);
    assert!(ok, "{text}");
    let (ok, text) = amend(&pkl, project, "v1.11", "build/Pipeline", legacy);
    assert!(
        !ok && text.contains("legacyCache is not available in 1.11; removed in 1.11"),
        "{text}"
    );

    // An enum value added in 1.12; int-or-string; a recursive type.
    let release = r#"metadata { name = "r" }
spec {
  target { cluster = "c" }
  strategy = "BlueGreen"
  maxUnavailable = "25%"
}"#;
    let (ok, text) = amend(&pkl, project, "v1.12", "deploy/Release", release);
    assert!(ok, "{text}");
    let (ok, text) = amend(&pkl, project, "v1.11", "deploy/Release", release);
    assert!(!ok && text.contains("but got `\"BlueGreen\"`"), "{text}");
    let nested = r#"metadata { name = "p" }
spec { steps { new { name = "outer"; steps { new { name = "inner"; type = "script" } } } } }"#;
    let (ok, text) = amend(&pkl, project, "v1.12", "build/Pipeline", nested);
    assert!(ok, "{text}");
    assert!(text.contains("\"inner\""), "{text}");

    // apiVersion and kind are fixed.
    let (ok, text) = amend(
        &pkl,
        project,
        "v1.12",
        "build/Pipeline",
        "kind = \"Release\"\nmetadata { name = \"p\" }",
    );
    assert!(
        !ok && text.contains("Cannot assign to fixed property `kind`"),
        "{text}"
    );
}

#[test]
#[cfg_attr(
    not(vergate_pkl),
    ignore = "needs the pkl CLI: target/tools (see .ci/run) or VERGATE_PKL"
)]
fn element_enum_values_are_checked_per_minor() {
    let pkl = pkl::pkl();
    let project = pkl::user_project(&pkl, "shipyard", &package_dir());
    let project = project.path();
    // `PipelineSpec.triggers` is a list whose items gain "schedule" in 1.11.
    let triggers = |values: &str| {
        format!("metadata {{ name = \"p\" }}\nspec {{ steps {{}}; triggers {{ {values} }} }}")
    };
    let schedule = triggers(r#""push"; "schedule""#);
    let (ok, text) = amend(&pkl, project, "v1.11", "build/Pipeline", &schedule);
    assert!(ok, "{text}");
    let json: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        json["spec"]["triggers"],
        serde_json::json!(["push", "schedule"])
    );
    let (ok, text) = amend(&pkl, project, "v1.10", "build/Pipeline", &schedule);
    assert!(!ok && text.contains("but got `\"schedule\"`"), "{text}");
    let (ok, text) = amend(
        &pkl,
        project,
        "v1.12",
        "build/Pipeline",
        &triggers(r#""nightly""#),
    );
    assert!(!ok && text.contains("but got `\"nightly\"`"), "{text}");
}

#[test]
#[cfg_attr(
    not(vergate_pkl),
    ignore = "needs the pkl CLI: target/tools (see .ci/run) or VERGATE_PKL"
)]
fn map_value_enum_values_are_checked_per_minor() {
    let pkl = pkl::pkl();
    let project = pkl::user_project(&pkl, "shipyard", &package_dir());
    let project = project.path();
    // `PipelineSpec.notify` is a map whose values gain "success" in 1.11.
    let notify = |entries: &str| {
        format!("metadata {{ name = \"p\" }}\nspec {{ steps {{}}; notify {{ {entries} }} }}")
    };
    let success = notify(r#"["ops"] = "failure"; ["dev"] = "success""#);
    let (ok, text) = amend(&pkl, project, "v1.11", "build/Pipeline", &success);
    assert!(ok, "{text}");
    let json: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        json["spec"]["notify"],
        serde_json::json!({"ops": "failure", "dev": "success"})
    );
    let (ok, text) = amend(&pkl, project, "v1.10", "build/Pipeline", &success);
    assert!(!ok && text.contains("but got `\"success\"`"), "{text}");
    let sometimes = notify(r#"["ops"] = "sometimes""#);
    let (ok, text) = amend(&pkl, project, "v1.12", "build/Pipeline", &sometimes);
    assert!(!ok && text.contains("but got `\"sometimes\"`"), "{text}");
}
