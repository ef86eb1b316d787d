//! The CRD-based demo API, `upstream-specs/demo-operator/` (Harbormaster,
//! releases 0.1–0.3 of a made-up operator's CRDs): each release's change
//! is in gates.json, `vergate check` checks its custom resources against
//! the committed gates, its JSON Schemas accept known-good and refuse
//! known-bad custom resources with a real validator, and its Pkl evaluates
//! with the real pkl CLI, constraints enforced. (Freshness:
//! `tests/generated_fresh.rs`; the Rust crate: `tests/rust_output.rs`.)

#[path = "json_schema/check.rs"]
mod check;
mod pkl;
mod support;

use serde_json::Value;
use support::cli::{code, stderr, stdout, vergate};
use vergate::gates::GatesIndex;
use vergate::Version;

const DOCKS: &str = "tests/custom-resources/demo-operator/docks-0.2.yaml";
const BAD: &str = "tests/custom-resources/demo-operator/docks-bad.yaml";
const LONG_NAME: &str = "tests/custom-resources/demo-operator/docks-long-name.yaml";

fn v(text: &str) -> Version {
    text.parse().unwrap()
}

fn gates() -> GatesIndex {
    let text = std::fs::read(support::root().join("generated/demo-operator/gates.json")).unwrap();
    serde_json::from_slice(&text).unwrap()
}

#[test]
fn gates_record_each_release_change() {
    let gates = gates();
    assert_eq!(gates.versions, [v("0.1"), v("0.2"), v("0.3")]);
    // Dock v1alpha1: served from 0.1, deprecated in 0.2 with its warning,
    // not served in 0.3.
    let old = &gates.types["com.example.harbor.v1alpha1.Dock"];
    assert_eq!(old.gate.introduced_in, v("0.1"));
    assert_eq!(old.gate.deprecated_in, Some(v("0.2")));
    assert_eq!(old.gate.removed_in, Some(v("0.3")));
    assert_eq!(
        old.deprecation_warning.as_deref(),
        Some("harbor.example.com/v1alpha1 Dock is deprecated; use harbor.example.com/v1beta1")
    );
    assert_eq!(old.kinds[0].api_version(), "harbor.example.com/v1alpha1");
    // Dock v1beta1 and Crane arrive in 0.2; `lighthouse` in 0.3.
    let spec = &gates.types["com.example.harbor.v1beta1.DockSpec"];
    assert_eq!(spec.gate.introduced_in, v("0.2"));
    assert_eq!(spec.fields["lighthouse"].gate.introduced_in, v("0.3"));
    assert_eq!(
        gates.types["com.example.harbor.v1beta1.Crane"]
            .gate
            .introduced_in,
        v("0.2")
    );
    // A constraint that changes is gated per release.
    let name = &spec.fields["name"];
    assert_eq!(name.constraints_in(v("0.2")).max_length, Some(20));
    assert_eq!(name.constraints_in(v("0.3")).max_length, Some(63));
    assert_eq!(
        name.constraints.pattern.as_deref(),
        Some("^[a-z][a-z0-9-]*$")
    );
    // int-or-string, preserve-unknown-fields, metadata as ObjectMeta.
    assert_eq!(spec.fields["port"].ty, "int-or-string");
    assert_eq!(spec.fields["extra"].ty, "map[string]any");
    let dock = &gates.types["com.example.harbor.v1beta1.Dock"];
    assert_eq!(
        dock.fields["metadata"].ty,
        "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"
    );
    assert!(gates
        .types
        .contains_key("io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"));
}

#[test]
fn check_takes_each_release_from_the_committed_gates() {
    let run = |target: &str, file: &str| {
        let output = vergate(&[
            "check",
            "--api",
            "generated/demo-operator",
            "--target",
            target,
            "--strict",
            file,
        ]);
        (code(&output), stdout(&output), stderr(&output))
    };
    let (exit, out, err) = run("0.2", DOCKS);
    assert_eq!(exit, 0, "{out}{err}");
    assert_eq!(
        out.trim(),
        format!(
            "{DOCKS}:17: warning: Dock south: harbor.example.com/v1alpha1 Dock is removed in 0.3 (served through 0.2); use apiVersion harbor.example.com/v1beta1 (served in 0.3)\n\
             {DOCKS}:17: warning: Dock south: harbor.example.com/v1alpha1 Dock is deprecated; use harbor.example.com/v1beta1"
        )
    );
    let (exit, out, _) = run("0.3", DOCKS);
    assert_eq!(exit, 1);
    assert!(
        out.contains(":17: Dock south: harbor.example.com/v1alpha1 Dock is not served in 0.3 (removed in 0.3); use apiVersion harbor.example.com/v1beta1"),
        "{out}"
    );
    let (exit, out, _) = run("0.3", BAD);
    assert_eq!(exit, 1);
    for needle in [
        r#":7: Dock west: spec.name: "West_Pier" does not match the pattern"#,
        ":8: Dock west: spec.berths: 65 is greater than the maximum 64",
        r#":9: Dock west: spec.tier: value "lagoon" is not accepted in 0.3"#,
        ":10: Dock west: spec.port: expected an integer or a string",
        r#":11: Dock west: spec.cranes[2]: Duplicate value: "a""#,
        ":18: Crane lifty: spec.liftTons: 0 is not greater than the exclusive minimum 0",
        ":19: Crane lifty: spec.operators: has 0 items, fewer than the minimum 1",
    ] {
        assert!(out.contains(needle), "{needle:?} in:\n{out}");
    }
    let (exit, out, _) = run("0.2", LONG_NAME);
    assert_eq!(exit, 1);
    assert!(
        out.contains(":7: Dock long: spec.name: is 30 characters long, longer than the maximum 20"),
        "{out}"
    );
    let (exit, out, err) = run("0.3", LONG_NAME);
    assert_eq!(exit, 0, "{out}{err}");
}

/// The documents of `file`, as JSON.
fn documents(file: &str) -> Vec<Value> {
    check::yaml_documents(&support::root().join(file))
}

#[test]
fn json_schemas_accept_good_and_refuse_bad_custom_resources() {
    let api =
        vergate_codegen::api::Api::open(&support::root().join("upstream-specs/demo-operator"))
            .unwrap();
    let files = check::json_files(&check::emit(&api), "json/");
    for (path, schema) in &files {
        if !path.ends_with("/index.json") && !path.starts_with("json/openapi/") {
            check::check_meta(path, schema);
        }
    }
    let validator = |path: &str| check::check_schema(path, &files[path]);
    let good = documents(DOCKS);
    for minor in ["v0.2", "v0.3"] {
        for strict in ["", "-strict"] {
            let path = format!("json/{minor}{strict}/dock-harbor-v1beta1.json");
            let found = check::errors(&validator(&path), &good[0]);
            assert!(found.is_empty(), "{path}: {found:?}");
        }
    }
    let alpha = "json/v0.2-strict/dock-harbor-v1alpha1.json";
    assert!(check::errors(&validator(alpha), &good[1]).is_empty());
    assert!(
        !files.contains_key("json/v0.3/dock-harbor-v1alpha1.json"),
        "unserved in 0.3"
    );
    let bad = documents(BAD);
    let found = check::errors(&validator("json/v0.3/dock-harbor-v1beta1.json"), &bad[0]);
    let at: Vec<&str> = found.iter().map(|(at, _)| at.as_str()).collect();
    for place in [
        "/spec/name",
        "/spec/berths",
        "/spec/tier",
        "/spec/port",
        "/spec/cranes",
    ] {
        assert!(at.contains(&place), "{place} refused: {found:?}");
    }
    let found = check::errors(&validator("json/v0.3/crane-harbor-v1beta1.json"), &bad[1]);
    let at: Vec<&str> = found.iter().map(|(at, _)| at.as_str()).collect();
    for place in ["/spec/liftTons", "/spec/operators"] {
        assert!(at.contains(&place), "{place} refused: {found:?}");
    }
    let long = &documents(LONG_NAME)[0];
    assert!(!check::errors(&validator("json/v0.2/dock-harbor-v1beta1.json"), long).is_empty());
    assert!(check::errors(&validator("json/v0.3/dock-harbor-v1beta1.json"), long).is_empty());
}

#[test]
#[cfg_attr(
    not(vergate_pkl),
    ignore = "needs the pkl CLI: target/tools (see .ci/run) or VERGATE_PKL"
)]
fn pkl_evaluates_and_enforces_the_constraints_of_each_release() {
    let pkl = pkl::pkl();
    let package = support::root().join("generated/demo-operator/pkl");
    for minor in ["v0.1", "v0.2", "v0.3"] {
        let json: Value = serde_json::from_str(
            &pkl.eval_json(&package.join("examples"), &[&format!("{minor}.pkl")]),
        )
        .unwrap();
        assert_eq!(
            json["config"]["harbormasterVersion"],
            minor.trim_start_matches('v')
        );
    }
    let project = pkl::user_project(&pkl, "harbormaster", &package);
    let mut all = Vec::new();
    for minor in ["v0.1", "v0.2", "v0.3"] {
        let modules = pkl::modules_below(&package.join(minor));
        let file = format!("all_{minor}.pkl");
        std::fs::write(
            project.path().join(&file),
            pkl::import_all_module(&format!("@harbormaster/{minor}"), &modules),
        )
        .unwrap();
        all.push(file);
    }
    let names: Vec<&str> = all.iter().map(String::as_str).collect();
    pkl.eval_json(project.path(), &names);
    let dock = |minor: &str, name: &str, berths: u32| {
        let file = format!("dock_{}_{name}_{berths}.pkl", minor.replace('.', "_"));
        std::fs::write(
            project.path().join(&file),
            format!(
                "amends \"@harbormaster/{minor}/harbor/Dock.pkl\"\n\nspec {{\n  name = \"{name}\"\n  berths = {berths}\n}}\n"
            ),
        )
        .unwrap();
        let output = pkl.eval(project.path(), &[&file]);
        (
            output.status.success(),
            String::from_utf8_lossy(&output.stderr).into_owned(),
        )
    };
    let long = "a-dock-name-of-thirty-letters0";
    assert!(dock("v0.2", "north", 6).0);
    let (ok, err) = dock("v0.2", long, 6);
    assert!(
        !ok && err.contains("Type constraint `length <= 20` violated"),
        "{err}"
    );
    assert!(dock("v0.3", long, 6).0);
    let (ok, err) = dock("v0.3", "North_Pier", 6);
    assert!(!ok && err.contains("contains(Regex("), "{err}");
    let (ok, err) = dock("v0.3", "north", 65);
    assert!(!ok && err.contains("isBetween(1, 64)"), "{err}");
    // A `format: duration` field takes a Pkl Duration, rendered as Go
    // writes durations (the JSON renderer here, the YAML one alike), or
    // the string itself.
    for (value, rendered) in [
        ("8.h", "8h"),
        ("90.min", "90m"),
        ("1.d", "24h"),
        ("1.5.s", "1.5s"),
        ("\"45m\"", "45m"),
    ] {
        let file = "crane.pkl";
        std::fs::write(
            project.path().join(file),
            format!(
                "amends \"@harbormaster/v0.3/harbor/Crane.pkl\"\n\nspec {{\n  liftTons = 40\n  maxShift = {value}\n}}\n"
            ),
        )
        .unwrap();
        let output = pkl.eval(project.path(), &[file]);
        let json = String::from_utf8_lossy(&output.stdout);
        assert!(
            output.status.success() && json.contains(&format!("\"maxShift\": \"{rendered}\"")),
            "{value}: {json}{}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
}

#[test]
fn diff_lists_deprecated_kinds_and_constraint_changes() {
    let diff = |old: &str, new: &str| {
        let output = vergate(&["diff", "--api", "generated/demo-operator", old, new]);
        assert_eq!(code(&output), 0, "{}", stderr(&output));
        stdout(&output)
    };
    let out = diff("0.1", "0.2");
    assert!(
        out.contains("kinds deprecated (1):\n  harbor.example.com/v1alpha1 Dock  (harbor.example.com/v1alpha1 Dock is deprecated; use harbor.example.com/v1beta1)"),
        "{out}"
    );
    let out = diff("0.2", "0.3");
    assert!(
        out.contains("fields whose constraints change (1):\n  com.example.harbor.v1beta1.DockSpec.name  (maxLength 20 → 63)"),
        "{out}"
    );
    assert!(
        out.contains("kinds no longer served (1):\n  harbor.example.com/v1alpha1 Dock"),
        "{out}"
    );
}
