//! `vergate.toml` and the modeline as `vergate check` reads them
//! (src/settings/, docs/cli.md "Settings"): discovery from the current
//! directory (the nearest file wins), the flags over the file, `--config`
//! and `--no-config`, every broken form as one error at its line and
//! column (exit 2), and `# vergate: target=…` per file. Each case runs in
//! its own temporary directory (no vergate.toml above it).

mod support;

use std::path::Path;
use std::process::{Command, Output};
use support::cli::{code, stderr, stdout};

/// A Service with a field introduced in 1.30 (alpha, gate
/// ServiceTrafficDistribution; beta and on in 1.31) and a FlowSchema of an
/// apiVersion deprecated before 1.32, which removes it.
const MANIFESTS: &str = "\
apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  selector:
    app: web
  ports:
    - port: 80
  trafficDistribution: PreferClose
---
apiVersion: flowcontrol.apiserver.k8s.io/v1beta3
kind: FlowSchema
metadata:
  name: fs
spec:
  priorityLevelConfiguration:
    name: global-default
";

const CRD: &str = "\
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  names: {kind: Widget, plural: widgets, singular: widget, listKind: WidgetList}
  scope: Namespaced
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              properties:
                size: {type: integer, minimum: 1}
";

const WIDGET: &str = "\
apiVersion: example.com/v1
kind: Widget
metadata:
  name: w
spec:
  size: 0
";

/// A temporary workspace: `files` written (directories made).
fn workspace(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in files {
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    dir
}

/// `vergate check --format json <args>` run in `dir`.
fn check_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_vergate"))
        .arg("check")
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the vergate binary runs")
}

/// The findings of a JSON report as `rule severity line`, in report order.
fn findings(output: &Output) -> Vec<String> {
    assert!(code(output) < 2, "{}", stderr(output));
    let json: serde_json::Value = serde_json::from_str(&stdout(output)).unwrap();
    json["violations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| {
            format!(
                "{} {} {}",
                v["rule"].as_str().unwrap(),
                v["severity"].as_str().unwrap(),
                v["line"]
            )
        })
        .collect()
}

fn json_check(dir: &Path, args: &[&str]) -> Vec<String> {
    let mut all = vec!["--format", "json"];
    all.extend_from_slice(args);
    findings(&check_in(dir, &all))
}

#[test]
fn the_nearest_settings_file_above_the_current_directory_wins() {
    let dir = workspace(&[
        ("vergate.toml", "target = \"1.29\"\n"),
        ("app/m.yaml", MANIFESTS),
        ("legacy/vergate.toml", "target = \"1.31\"\n"),
        ("legacy/deep/m.yaml", MANIFESTS),
    ]);
    // From the root and from a directory below it without its own file.
    for cwd in [dir.path().to_owned(), dir.path().join("app")] {
        let found = json_check(&cwd, &[dir.path().join("app/m.yaml").to_str().unwrap()]);
        assert!(
            found.contains(&"not-yet-introduced error 10".to_owned()),
            "{found:?}"
        );
    }
    // Below legacy/, its own file (1.31) wins over the root's.
    let found = json_check(&dir.path().join("legacy/deep"), &["m.yaml"]);
    assert_eq!(found, ["deprecated warning 12"]);
}

#[test]
fn flags_win_over_the_file_and_the_file_acts_as_the_flags_do() {
    let settings = "\
target = \"1.30\"
rules = { deprecated = \"error\" }
feature_gates = { ServiceTrafficDistribution = true }
";
    let dir = workspace(&[("vergate.toml", settings), ("m.yaml", MANIFESTS)]);
    let root = dir.path();
    let from_file = check_in(root, &["--format", "json", "m.yaml"]);
    let from_flags = check_in(
        root,
        &[
            "--no-config",
            "--format",
            "json",
            "--target",
            "1.30",
            "--rule",
            "deprecated=error",
            "--feature-gates",
            "ServiceTrafficDistribution=true",
            "m.yaml",
        ],
    );
    // The same report, byte for byte, and the same exit code.
    assert_eq!(stdout(&from_file), stdout(&from_flags));
    assert_eq!(code(&from_file), code(&from_flags));
    assert_eq!(findings(&from_file), ["deprecated error 12"]);
    // Without the file: the gate is off at 1.30 (a warning), the rule at
    // its default; the target is each document's own (none here: newest).
    assert_eq!(
        json_check(root, &["--no-config", "--target", "1.30", "m.yaml"]),
        ["feature-gate-off warning 10", "deprecated warning 12"]
    );
    // A flag wins for its rule, gate and target; the file's others stay.
    assert_eq!(
        json_check(root, &["--rule", "deprecated=off", "m.yaml"]),
        Vec::<String>::new()
    );
    assert_eq!(
        json_check(
            root,
            &[
                "--feature-gates",
                "ServiceTrafficDistribution=false",
                "m.yaml"
            ]
        ),
        ["feature-gate-off warning 10", "deprecated error 12"]
    );
    assert_eq!(
        json_check(root, &["--target", "1.29", "m.yaml"]),
        ["not-yet-introduced error 10", "deprecated error 12"]
    );
}

#[test]
fn config_names_the_file_and_no_config_reads_none() {
    let dir = workspace(&[
        ("vergate.toml", "target = \"1.29\"\n"),
        (
            "other.toml",
            "target = \"1.31\"\nrules = { deprecated = \"off\" }\n",
        ),
        ("m.yaml", MANIFESTS),
    ]);
    let root = dir.path();
    assert!(json_check(root, &["m.yaml"]).contains(&"not-yet-introduced error 10".to_owned()));
    assert_eq!(
        json_check(root, &["--config", "other.toml", "m.yaml"]),
        Vec::<String>::new()
    );
    // --no-config: no target, and these documents do not say theirs.
    let none = check_in(root, &["--no-config", "m.yaml"]);
    assert_eq!(code(&none), 2);
    assert!(
        stderr(&none).contains("does not say which minor it is for; pass --target"),
        "{}",
        stderr(&none)
    );
    let both = check_in(root, &["--config", "other.toml", "--no-config", "m.yaml"]);
    assert_eq!(code(&both), 2, "{}", stderr(&both));
    let missing = check_in(root, &["--config", "nowhere.toml", "m.yaml"]);
    assert_eq!(code(&missing), 2);
    assert!(
        stderr(&missing).starts_with("error: nowhere.toml:1:1: cannot read the settings"),
        "{}",
        stderr(&missing)
    );
}

#[test]
fn crds_and_api_paths_are_relative_to_the_file() {
    let dir = workspace(&[
        ("vergate.toml", "target = \"1.31\"\ncrds = [\"crds/\"]\n"),
        ("crds/widget.yaml", CRD),
        ("deploy/widget.yaml", WIDGET),
    ]);
    // Run from deploy/: the CRD folder is found relative to vergate.toml.
    let found = json_check(&dir.path().join("deploy"), &["widget.yaml"]);
    assert_eq!(found, ["constraint error 6"]);
    let without = json_check(
        &dir.path().join("deploy"),
        &["--no-config", "--target", "1.31", "widget.yaml"],
    );
    assert!(
        !without.contains(&"constraint error 6".to_owned()),
        "{without:?}"
    );
    // api: another API's gate tables, relative to the file.
    let retype = support::root().join("tests/cli/retype");
    let dir = workspace(&[(
        "vergate.toml",
        &format!("api = {:?}\ntarget = \"1.1\"\n", retype.to_str().unwrap()),
    )]);
    // The retype API's Widget 1.1 retypes three fields (the embedded
    // Kubernetes index knows no Widget at all).
    let widget = retype.join("widget.yaml");
    assert_eq!(
        json_check(dir.path(), &[widget.to_str().unwrap()]),
        [
            "wrong-type error 6",
            "wrong-type error 10",
            "wrong-type error 11"
        ]
    );
}

/// `vergate check` in a workspace whose vergate.toml is `settings`: exit 2
/// and one error, at `place` (`line:column`), saying `says`.
fn broken(settings: &str, place: &str, says: &str) {
    let dir = workspace(&[("vergate.toml", settings), ("m.yaml", MANIFESTS)]);
    let run = check_in(dir.path(), &["m.yaml"]);
    let err = stderr(&run);
    assert_eq!(code(&run), 2, "{settings}: {err}");
    assert!(stdout(&run).is_empty(), "{settings}: nothing checked");
    let file = dir.path().join("vergate.toml");
    let expected = format!("error: {}:{place}: ", file.display());
    assert!(
        err.starts_with(&expected),
        "{settings}: {err} (expected {expected})"
    );
    assert!(err.contains(says), "{settings}: {err} (expected {says:?})");
    assert_eq!(err.lines().count(), 1, "{settings}: one error: {err}");
}

#[test]
fn each_broken_form_is_one_error_at_its_line_and_column() {
    broken("target = \"1.29\"\nrules = {\n", "2:10", "not TOML");
    broken(
        "target = \"1.29\"\ntargets = \"1.30\"\n",
        "2:1",
        "did you mean `target`?",
    );
    broken(
        "feature-gates = { A = true }\n",
        "1:1",
        "did you mean `feature_gates`?",
    );
    broken(
        "rules = { removed-ahed = \"error\" }\n",
        "1:11",
        "did you mean `removed-ahead`?",
    );
    broken(
        "rules = { removed-ahead = \"eror\" }\n",
        "1:27",
        "did you mean \"error\"?",
    );
    broken(
        "[rules]\nremoved-ahead = 1\n",
        "2:17",
        "\"error\", \"warning\" or \"off\"",
    );
    broken(
        "target = 1.30\n",
        "1:10",
        "write it as a string: target = \"1.30\"",
    );
    broken("target = \"one\"\n", "1:10", "write the minor as a string");
    broken(
        "\n\ntarget = \"1.24\"\n",
        "3:10",
        "kubernetes has no minor 1.24",
    );
    broken(
        "crds = [\"crds/\", \"missing/\"]\n",
        "1:9",
        "\"crds/\" does not exist",
    );
    broken("crds = 3\n", "1:8", "crds is a list");
    broken("api = \"generated/nothing\"\n", "1:7", "has no gates.json");
    broken(
        "feature_gates = { Foo = \"yes\" }\n",
        "1:25",
        "true or false",
    );
    broken(
        "feature_gates = [\"Foo\"]\n",
        "1:17",
        "feature_gates is a table",
    );
    broken(
        "feature_gates = { \"Foo-Bar\" = true }\n",
        "1:19",
        "no feature gate name",
    );
}

#[test]
fn an_editor_sees_every_mistake_of_the_file() {
    let text = "targt = \"1.29\"\nrules = { nope = \"off\" }\n";
    let errors =
        vergate::settings::Settings::parse_all(Path::new("x/vergate.toml"), text).unwrap_err();
    let places: Vec<(u32, u32)> = errors.iter().map(|err| (err.line, err.column)).collect();
    assert_eq!(places, [(1, 1), (2, 11)]);
}

#[test]
fn a_modeline_sets_the_files_target_unless_target_is_given() {
    let moded = format!("# vergate: target=1.29\n{MANIFESTS}");
    let tail = format!("{MANIFESTS}# vergate: target=1.29\n");
    let dir = workspace(&[
        ("vergate.toml", "target = \"1.31\"\n"),
        ("head.yaml", &moded),
        ("tail.yaml", &tail),
        ("plain.yaml", MANIFESTS),
        ("bad.yaml", &format!("# vergate: target=1.2x\n{MANIFESTS}")),
        (
            "unknown.yaml",
            &format!("{MANIFESTS}# vergate: target=1.20\n"),
        ),
    ]);
    let root = dir.path();
    // The modeline over vergate.toml: 1.29 for its file, 1.31 for the other.
    assert_eq!(
        json_check(root, &["head.yaml"]),
        ["not-yet-introduced error 11", "deprecated warning 13"]
    );
    assert_eq!(
        json_check(root, &["tail.yaml"]),
        ["not-yet-introduced error 10", "deprecated warning 12"]
    );
    assert_eq!(json_check(root, &["plain.yaml"]), ["deprecated warning 12"]);
    // --target over the modeline.
    assert_eq!(
        json_check(root, &["--target", "1.31", "head.yaml"]),
        ["deprecated warning 13"]
    );
    // A modeline that does not read: the file is an input error at its line.
    let bad = check_in(root, &["bad.yaml", "plain.yaml"]);
    assert_eq!(code(&bad), 2);
    assert!(
        stderr(&bad).contains("bad.yaml:1: error: column 19: modeline: target \"1.2x\""),
        "{}",
        stderr(&bad)
    );
    let unknown = check_in(root, &["unknown.yaml"]);
    assert_eq!(code(&unknown), 2);
    assert!(
        stderr(&unknown).contains("unknown.yaml:19: error: column 12: modeline: target 1.20: kubernetes has no minor 1.20"),
        "{}",
        stderr(&unknown)
    );
}
