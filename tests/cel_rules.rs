//! Custom resources checked by their CRDs' CEL validation rules
//! (`x-kubernetes-validations`), as the API server checks them on create:
//! Gateway API's own CEL test tables, translated into custom resources
//! (`tests/cel/gateway-api/`, two releases of its CRDs), and vergate's
//! cases for each behaviour (`tests/cel/features/`).

mod support;

use serde_json::Value;
use std::collections::BTreeMap;
use support::cli::{code, finding_lines as findings, stderr, stdout, vergate};

/// One case of a case file: its name and the errors expected, by release
/// (`""`: every release).
struct Case {
    name: String,
    expect: Vec<(String, String)>,
}

/// The cases of a case file, one per YAML document (`# case:` and
/// `# expect:` / `# expect <release>:` comment lines at its top).
fn cases(path: &str) -> Vec<Case> {
    let text = std::fs::read_to_string(support::root().join(path)).unwrap();
    let mut cases = Vec::new();
    for part in text.split("\n---\n").skip(1) {
        let mut case = Case {
            name: String::new(),
            expect: Vec::new(),
        };
        for line in part.lines().take_while(|line| line.starts_with('#')) {
            if let Some(name) = line.strip_prefix("# case: ") {
                case.name = name.to_owned();
            } else if let Some(rest) = line.strip_prefix("# expect") {
                let (release, message) = rest
                    .split_once(": ")
                    .expect("`# expect[ release]: message`");
                case.expect
                    .push((release.trim().to_owned(), message.to_owned()));
            }
        }
        assert!(
            !case.name.is_empty(),
            "{path}: a document without `# case:`:\n{part}"
        );
        cases.push(case);
    }
    cases
}

/// Runs `vergate check --format json` and returns its JSON.
fn check_json(args: &[&str]) -> Value {
    let mut all = vec!["check", "--format", "json"];
    all.extend_from_slice(args);
    let output = vergate(&all);
    assert!(code(&output) <= 1, "{}", stderr(&output));
    serde_json::from_str(&stdout(&output))
        .unwrap_or_else(|err| panic!("{err}: {}", stdout(&output)))
}

/// The error messages of each document of `file`, by document index.
fn errors_by_document(json: &Value, file: &str) -> BTreeMap<u64, Vec<String>> {
    let mut errors: BTreeMap<u64, Vec<String>> = BTreeMap::new();
    for violation in json["violations"].as_array().unwrap() {
        if violation["file"] == file && violation["severity"] == "error" {
            errors
                .entry(violation["document"].as_u64().unwrap())
                .or_default()
                .push(violation["message"].as_str().unwrap().to_owned());
        }
    }
    errors
}

const CASE_FILES: [&str; 4] = [
    "tests/cel/gateway-api/cases/httproute.yaml",
    "tests/cel/gateway-api/cases/gateway.yaml",
    "tests/cel/gateway-api/cases/grpcroute.yaml",
    "tests/cel/gateway-api/cases/httproute-mirror.yaml",
];

#[test]
fn gateway_api_cases_get_the_api_servers_verdicts_in_both_releases() {
    let mut counted = BTreeMap::new();
    for release in ["v1.2.0", "v1.3.0"] {
        let crds = format!("tests/cel/gateway-api/{release}");
        // The recorded verdicts are the API server's own default field
        // validation's: a field the release's CRD lacks (v1.2.0's mirror
        // `percent`) is pruned, not refused as `kubectl apply` would.
        let mut args = vec![
            "--target",
            "1.31",
            "--validate=warn",
            "--crd",
            crds.as_str(),
        ];
        args.extend(CASE_FILES);
        let json = check_json(&args);
        assert!(
            json["summary"]["cel"]["evaluated"].as_u64().unwrap() > 1000,
            "{}",
            json["summary"]
        );
        for file in CASE_FILES {
            let errors = errors_by_document(&json, file);
            let cases = cases(file);
            for (index, case) in cases.iter().enumerate() {
                let found = errors.get(&(index as u64)).cloned().unwrap_or_default();
                let expected: Vec<&str> = case
                    .expect
                    .iter()
                    .filter(|(only, _)| only.is_empty() || only == release)
                    .map(|(_, message)| message.as_str())
                    .collect();
                if expected.is_empty() {
                    assert!(
                        found.is_empty(),
                        "{release} {file} {:?}: accepted by the API server, but:\n{found:#?}",
                        case.name
                    );
                } else {
                    for message in &expected {
                        assert!(
                            found.iter().any(|error| error.contains(message)),
                            "{release} {file} {:?}: expected {message:?} among:\n{found:#?}",
                            case.name
                        );
                    }
                }
                *counted.entry((release, expected.is_empty())).or_insert(0) += 1;
            }
            assert!(
                errors.keys().last().map_or(0, |last| *last as usize + 1) <= cases.len(),
                "{file}: findings past its last case"
            );
        }
    }
    // Both verdicts, in both releases, over HTTPRoute, Gateway and GRPCRoute.
    for release in ["v1.2.0", "v1.3.0"] {
        assert!(counted[&(release, true)] >= 25, "{counted:?}");
        assert!(counted[&(release, false)] >= 40, "{counted:?}");
    }
}

const PROBE_CRD: &str = "tests/cel/features/crd.yaml";
const PROBES: &str = "tests/cel/features/probes.yaml";

#[test]
fn rules_run_where_and_as_the_api_server_runs_them() {
    let json = check_json(&["--target", "1.31", "--crd", PROBE_CRD, PROBES]);
    let found = findings(&json);
    let has = |needle: &str| {
        assert!(
            found.iter().any(|line| line.contains(needle)),
            "{needle:?} not in:\n{found:#?}"
        );
    };
    // messageExpression, evaluated; the root's metadata holds its name.
    has("15 error : Invalid value: \"object\": name wrong must start with probe-");
    // fieldPath and reason; maxReplicas defaulted to 10 before the rule ran.
    has("19 error spec.minReplicas: Forbidden: minReplicas must not exceed maxReplicas");
    // Library functions: IP (1.30), quantity (1.28).
    has("20 error spec.address: Invalid value: \"string\": must be an IP address");
    has("21 error spec.memory: Invalid value: \"string\": must be less than 2Gi");
    // An integer written where `number` is declared is a double.
    has("22 error spec.ratio: Invalid value: \"number\": at most 1");
    // Per list item (with its default), per map value.
    has("23 error spec.ports[0]: Invalid value: \"object\": ports up to 1024 need privileged");
    has("24 error spec.labels.a: Invalid value: \"string\": label values are at most 8 characters");
    // A property named by a CEL reserved word is `__namespace__`.
    has("error spec: Invalid value: \"object\": an escaped property name");
    // The accepted probe has no error.
    assert!(
        !found
            .iter()
            .any(|line| line.starts_with("5 error") || line.starts_with("7 error")),
        "{found:#?}"
    );
    // Unsupported functions warn, naming the rule and the function.
    has("warning spec: the rule `self.mode != 'reversed' || self.mode.reverse() == 'desrever'` was not evaluated: vergate does not support the function `reverse`");
    // Transition rules: `oldSelf` skipped and counted (one per probe); the
    // one with optionalOldSelf runs with oldSelf = optional.none().
    assert_eq!(
        json["summary"]["cel"]["transition_skipped"], 2,
        "{}",
        json["summary"]
    );
    assert!(
        !found.iter().any(|line| line.contains("immutable")),
        "{found:#?}"
    );
}

#[test]
fn a_function_the_target_minor_lacks_is_a_warning_not_a_pass() {
    let json = check_json(&["--target", "1.29", "--crd", PROBE_CRD, PROBES]);
    let found = findings(&json);
    assert!(
        found.iter().any(|line| line.contains(
            "warning spec.address: the rule `isIP(self)` calls `isIP` (IP and CIDR library, from 1.30), which the API server of 1.29 does not offer"
        )),
        "{found:#?}"
    );
    assert!(
        !found
            .iter()
            .any(|line| line.contains("must be an IP address")),
        "{found:#?}"
    );
}

#[test]
fn the_text_summary_counts_rules_run_and_transition_rules_skipped() {
    let output = vergate(&["check", "--target", "1.31", "--crd", PROBE_CRD, PROBES]);
    assert_eq!(code(&output), 1);
    let err = stderr(&output);
    assert!(
        err.contains(
            "CEL rules: 21 evaluated, 2 transition rules skipped (oldSelf: not run on create)"
        ),
        "{err}"
    );
}

/// 1,100 hosts compared pairwise cost about 6 per pair: the rule passes
/// the per-call limit as it runs and is cancelled with the API server's
/// error (was: not run, by an estimate).
#[test]
fn a_rule_past_the_per_call_limit_is_cancelled_with_the_api_servers_error() {
    let dir = tempfile::tempdir().unwrap();
    let hosts: Vec<String> = (0..1100).map(|i| format!("h{i}")).collect();
    let probe = format!(
        "apiVersion: example.com/v1\nkind: Probe\nmetadata: {{name: probe-big}}\nspec:\n  hosts: [{}]\n",
        hosts.join(", ")
    );
    let path = dir.path().join("big.yaml");
    std::fs::write(&path, probe).unwrap();
    let path = path.to_str().unwrap();
    let json = check_json(&["--target", "1.31", "--crd", PROBE_CRD, path]);
    let found = findings(&json);
    assert!(
        found.contains(&"5 error spec.hosts: Invalid value: \"array\": 'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: hosts compared pairwise (its runtime cost passed the API server's per-call limit, 1000000)".to_owned()),
        "{found:#?}"
    );
}

#[test]
fn custom_resources_without_rules_count_nothing() {
    let json = check_json(&[
        "--api",
        "generated/demo",
        "--target",
        "1.12",
        "--crd",
        "tests/custom-resources/widgets-crd.yaml",
        "tests/custom-resources/good.yaml",
    ]);
    assert_eq!(json["summary"]["cel"]["transition_skipped"], 0);
}

#[test]
fn rules_added_between_releases_show_in_gates_json_and_diff() {
    // Gateway API's HTTPRoute CRD at v1.2.0 and v1.3.0 as the minors 1.2
    // and 1.3 of a CRD-based API, regenerated as `cargo xtask add-api`
    // and `regen` would.
    let project = tempfile::tempdir().unwrap();
    let specs = project.path().join("specs");
    for (minor, release) in [("v1.2", "v1.2.0"), ("v1.3", "v1.3.0")] {
        std::fs::create_dir_all(specs.join(minor)).unwrap();
        std::fs::copy(
            support::root().join(format!("tests/cel/gateway-api/{release}/httproutes.yaml")),
            specs.join(minor).join("httproutes.yaml"),
        )
        .unwrap();
    }
    let specs_root = project.path().join("upstream-specs");
    vergate_codegen::record::add_api(&specs_root, "gateway-api", &specs)
        .unwrap_or_else(|err| panic!("add-api: {err}"));
    let api = vergate_codegen::api::Api::open(&specs_root.join("gateway-api")).unwrap();
    let out = project.path().join("generated/gateway-api");
    vergate_codegen::regen::regen(&api, &out, vergate_codegen::output::Mode::Write)
        .unwrap_or_else(|err| panic!("regen: {err}"));
    // gates.json: the rule is a constraint of the mirror filter in 1.3 only.
    let gates: Value =
        serde_json::from_slice(&std::fs::read(out.join("gates.json")).unwrap()).unwrap();
    let text = gates.to_string();
    assert!(
        text.contains(r#""rule":"!(has(self.percent) && has(self.fraction))""#),
        "the rule is not in gates.json"
    );
    // `vergate diff` names the rules added, with their messages.
    let output = vergate(&["diff", "--api", out.to_str().unwrap(), "1.2", "1.3"]);
    let diff = stdout(&output);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    assert!(
        diff.contains("rule added `!(has(self.percent) && has(self.fraction))`: Only one of percent or fraction may be specified in HTTPRequestMirrorFilter"),
        "{diff}"
    );
    // `check` runs each release's rules from gates.json: the mirror filter
    // with both percent and fraction is refused by 1.3's rule only.
    let mirror = "tests/cel/gateway-api/cases/httproute-mirror.yaml";
    let refused = |minor: &str| {
        let json = check_json(&["--api", out.to_str().unwrap(), "--target", minor, mirror]);
        errors_by_document(&json, mirror)
            .get(&1)
            .is_some_and(|errors| {
                errors
                    .iter()
                    .any(|e| e.contains("Only one of percent or fraction"))
            })
    };
    assert!(!refused("1.2"), "1.2 has no such rule");
    assert!(refused("1.3"), "1.3's rule refuses it");
    // The JSON Schema and the Pkl of 1.3 carry each rule and its message.
    for output in ["json", "pkl"] {
        let text = walk_files(&out.join(output));
        assert!(
            text.contains("!(has(self.percent) && has(self.fraction))")
                && text.contains("Only one of percent or fraction may be specified"),
            "no {output} file carries the rule and its message"
        );
    }
}

/// The text of every file below `dir`.
fn walk_files(dir: &std::path::Path) -> String {
    let mut text = String::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            text.push_str(&walk_files(&path));
        } else if let Ok(contents) = std::fs::read_to_string(&path) {
            text.push_str(&contents);
        }
    }
    text
}

/// A CRD document among the inputs is checked as a create: the API server
/// compiles a new CRD's rules with the libraries of the minor before its
/// own, so `isIP` (1.30) is refused by 1.30 and 1.29 and accepted by 1.31;
/// `quantity` (1.28) is accepted by all three.
#[test]
fn a_crd_using_a_library_of_the_target_minor_is_refused_on_create() {
    let at = |target: &str| {
        let json = check_json(&["--target", target, PROBE_CRD]);
        findings(&json)
            .into_iter()
            .filter(|line| line.contains("x-kubernetes-validations"))
            // The probe CRD is also over the estimated cost limits on
            // purpose (its pairwise `hosts` rule): tests/cli_cel_cost.rs.
            .filter(|line| !line.contains("the API server refuses this CRD"))
            .collect::<Vec<_>>()
    };
    let refused = at("1.30");
    assert_eq!(refused.len(), 1, "{refused:#?}");
    assert!(
        refused[0].starts_with("47 error spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.address.x-kubernetes-validations[0].rule: the rule calls `isIP` (IP and CIDR library, new in 1.30)")
            && refused[0].contains("refuses it on create"),
        "{refused:#?}"
    );
    let older = at("1.29");
    assert!(
        older.len() == 1 && older[0].contains("which the API server of 1.29 does not offer"),
        "{older:#?}"
    );
    assert!(at("1.31").is_empty(), "{:#?}", at("1.31"));
}

/// A value met again is judged as the first time: the passes a rule keeps
/// per value never turn a failure into a pass, in either order. Each case
/// file twice in one input (one thread, so the second copy meets every
/// pass the first left) has the same findings per copy.
#[test]
fn a_value_met_again_gets_the_same_verdict() {
    let dir = tempfile::tempdir().unwrap();
    for file in CASE_FILES {
        let text = std::fs::read_to_string(file).unwrap();
        let copies = dir.path().join("twice.yaml");
        std::fs::write(&copies, format!("{text}\n---\n{text}")).unwrap();
        let copies = copies.to_str().unwrap();
        let json = check_json(&[
            "-j",
            "1",
            "--target",
            "1.31",
            "--crd",
            "tests/cel/gateway-api/v1.3.0",
            copies,
        ]);
        let errors = errors_by_document(&json, copies);
        let count = cases(file).len() as u64;
        for index in 0..count {
            assert_eq!(
                errors.get(&index),
                errors.get(&(index + count)),
                "{file}: case {index} and its copy"
            );
        }
        assert!(!errors.is_empty(), "{file}: no findings");
    }
}

/// A pass is kept by the part of a value its rules read, so it must never
/// reach a value that differs where a rule looks. Every case file in one
/// input, in both orders and on one thread (each case meets every pass the
/// cases before it left, of every kind), has the findings each case has
/// when its file is checked alone.
#[test]
fn passes_kept_by_what_rules_read_never_reach_another_value() {
    let crds = "tests/cel/gateway-api/v1.3.0";
    let alone: Vec<Vec<Vec<String>>> = CASE_FILES
        .iter()
        .map(|file| {
            let json = check_json(&["-j", "1", "--target", "1.31", "--crd", crds, file]);
            let errors = errors_by_document(&json, file);
            (0..cases(file).len() as u64)
                .map(|index| errors.get(&index).cloned().unwrap_or_default())
                .collect()
        })
        .collect();
    let dir = tempfile::tempdir().unwrap();
    for order in [[0, 1, 2, 3], [3, 2, 1, 0]] {
        // The cases alone, without each file's leading comment.
        let texts: Vec<String> = order
            .iter()
            .flat_map(|&at| {
                let text = std::fs::read_to_string(CASE_FILES[at]).unwrap();
                let cases: Vec<String> = text.split("\n---\n").skip(1).map(str::to_owned).collect();
                cases
            })
            .collect();
        let mixed = dir.path().join("mixed.yaml");
        std::fs::write(&mixed, texts.join("\n---\n")).unwrap();
        let mixed = mixed.to_str().unwrap();
        let json = check_json(&["-j", "1", "--target", "1.31", "--crd", crds, mixed]);
        let errors = errors_by_document(&json, mixed);
        let mut document = 0u64;
        for &at in &order {
            for (index, expected) in alone[at].iter().enumerate() {
                let found = errors.get(&document).cloned().unwrap_or_default();
                assert_eq!(
                    &found, expected,
                    "{}: case {index} in {order:?}",
                    CASE_FILES[at]
                );
                document += 1;
            }
        }
    }
}

/// Two-variable comprehensions (1.32) run: a map whose values break the
/// rule fails at 1.32 with the rule's message, a good one passes, and at
/// 1.31 the rule is a warning naming the macro (that API server does not
/// offer it).
#[test]
fn two_variable_comprehensions_run_from_1_32() {
    let dir = tempfile::tempdir().unwrap();
    let crd = dir.path().join("crd.yaml");
    std::fs::write(
        &crd,
        "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: quotas.example.com}\nspec:\n  group: example.com\n  scope: Namespaced\n  names: {kind: Quota, plural: quotas}\n  versions:\n  - name: v1\n    served: true\n    storage: true\n    schema:\n      openAPIV3Schema:\n        type: object\n        properties:\n          spec:\n            type: object\n            properties:\n              limits:\n                type: object\n                maxProperties: 16\n                additionalProperties: {type: integer}\n                x-kubernetes-validations:\n                - rule: \"self.all(name, limit, limit <= 100 || name.startsWith('big-'))\"\n                  message: only big- limits may pass 100\n",
    )
    .unwrap();
    let resources = dir.path().join("quotas.yaml");
    std::fs::write(
        &resources,
        "apiVersion: example.com/v1\nkind: Quota\nmetadata: {name: good}\nspec: {limits: {cpu: 10, big-memory: 500}}\n---\napiVersion: example.com/v1\nkind: Quota\nmetadata: {name: bad}\nspec: {limits: {cpu: 500}}\n",
    )
    .unwrap();
    let (crd, resources) = (crd.to_str().unwrap(), resources.to_str().unwrap());
    let json = check_json(&["--target", "1.32", "--crd", crd, resources]);
    let errors = errors_by_document(&json, resources);
    assert_eq!(errors.get(&0), None, "{json:#}");
    assert_eq!(
        errors.get(&1).map(Vec::as_slice),
        Some(&["Invalid value: \"object\": only big- limits may pass 100".to_owned()][..]),
        "{json:#}"
    );
    // The CRD itself, created on 1.33: its rules compile and their
    // estimated cost (cel-go's two-variable comprehension) is in budget.
    let created = check_json(&["--target", "1.33", crd]);
    assert!(errors_by_document(&created, crd).is_empty(), "{created:#}");
    let earlier = findings(&check_json(&["--target", "1.31", "--crd", crd, resources]));
    assert!(
        earlier.iter().any(|line| line.contains(
            "calls `all` (two-variable comprehensions (cel-go ext.TwoVarComprehensions) library, from 1.32), which the API server of 1.31 does not offer"
        )),
        "{earlier:#?}"
    );
}

/// Rules nested as deep as vergate compiles them (64 levels: parentheses,
/// calls) run on vergate's threads without exhausting their stacks, even in
/// an unoptimised build (the test's own): as a `--crd` CRD on one thread
/// and on all, and as a CRD document among the inputs (its cost estimate).
#[test]
fn rules_nested_to_the_bound_never_exhaust_a_stack() {
    let dir = tempfile::tempdir().unwrap();
    for (name, rule) in [
        (
            "calls",
            format!("{}self{} > 0", "size(".repeat(62), ")".repeat(62)),
        ),
        (
            "parens",
            format!("{}self{} == 'abc'", "(".repeat(63), ")".repeat(63)),
        ),
    ] {
        let crd = dir.path().join(format!("{name}-crd.yaml"));
        std::fs::write(
            &crd,
            format!("apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {{name: deeps.example.com}}\nspec:\n  group: example.com\n  scope: Namespaced\n  names: {{kind: Deep, plural: deeps}}\n  versions:\n  - name: v1\n    served: true\n    storage: true\n    schema:\n      openAPIV3Schema:\n        type: object\n        properties:\n          spec:\n            type: string\n            maxLength: 8\n            x-kubernetes-validations:\n            - rule: \"{rule}\"\n"),
        )
        .unwrap();
        let resource = dir.path().join(format!("{name}.yaml"));
        std::fs::write(
            &resource,
            "apiVersion: example.com/v1\nkind: Deep\nmetadata: {name: d}\nspec: abc\n",
        )
        .unwrap();
        let (crd, resource) = (crd.to_str().unwrap(), resource.to_str().unwrap());
        for jobs in ["1", "0"] {
            let json = check_json(&["-j", jobs, "--target", "1.33", "--crd", crd, resource]);
            assert!(json["violations"].is_array(), "{name}: {json:#}");
        }
        check_json(&["--target", "1.33", crd]);
    }
}

/// The semver library (1.33) runs: a version below the rule's floor fails
/// with the rule's message at 1.33, and at 1.32 the rule is a warning (that
/// API server does not offer `semver`).
#[test]
fn semver_rules_run_from_1_33() {
    let dir = tempfile::tempdir().unwrap();
    let crd = dir.path().join("crd.yaml");
    std::fs::write(
        &crd,
        "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: releases.example.com}\nspec:\n  group: example.com\n  scope: Namespaced\n  names: {kind: Release, plural: releases}\n  versions:\n  - name: v1\n    served: true\n    storage: true\n    schema:\n      openAPIV3Schema:\n        type: object\n        properties:\n          spec:\n            type: object\n            properties:\n              version:\n                type: string\n                x-kubernetes-validations:\n                - rule: \"isSemver(self, true) && semver(self, true).isGreaterThan(semver('1.4.0'))\"\n                  message: must be a version after 1.4.0\n",
    )
    .unwrap();
    let resources = dir.path().join("releases.yaml");
    std::fs::write(
        &resources,
        "apiVersion: example.com/v1\nkind: Release\nmetadata: {name: new}\nspec: {version: v1.10}\n---\napiVersion: example.com/v1\nkind: Release\nmetadata: {name: old}\nspec: {version: 1.2.0}\n",
    )
    .unwrap();
    let (crd, resources) = (crd.to_str().unwrap(), resources.to_str().unwrap());
    let found = findings(&check_json(&["--target", "1.33", "--crd", crd, resources]));
    assert_eq!(
        found,
        ["9 error spec.version: Invalid value: \"string\": must be a version after 1.4.0"],
        "{found:#?}"
    );
    let found = findings(&check_json(&["--target", "1.32", "--crd", crd, resources]));
    assert!(
        found.len() == 2
            && found.iter().all(|line| line.contains("warning")
                && line.contains("which the API server of 1.32 does not offer")),
        "{found:#?}"
    );
}
