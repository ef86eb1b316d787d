//! Preflight, upgrade and changelog through the library API, on the demo
//! API's committed gates (`generated/demo/gates.json`).

use vergate::changelog;
use vergate::document::{self, Node};
use vergate::preflight::{self, FieldValidation, Options, Rule, Severity};
use vergate::tables::GateTables;
use vergate::upgrade::{self, ChangeKind};
use vergate::Version;

fn tables() -> GateTables {
    GateTables::load(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("generated/demo"))
        .unwrap()
}

fn v(text: &str) -> Version {
    text.parse().unwrap()
}

fn doc(yaml: &str) -> Node {
    let parsed = document::parse(yaml);
    assert!(parsed.error.is_none(), "{:?}", parsed.error);
    parsed.documents.into_iter().next().unwrap().root
}

fn rules(report: &preflight::Report) -> Vec<(Rule, &str, u32)> {
    report
        .violations
        .iter()
        .map(|violation| (violation.rule, violation.path.as_str(), violation.line))
        .collect()
}

const RELEASE_1_10: &str = r#"apiVersion: "1.10"
kind: Release
metadata:
  name: web
spec:
  image: web:1
  replicas: 2
  target: {cluster: prod}
  canary: {weight: 5}
  healthCheck: {path: /healthz, port: http}
"#;

#[test]
fn each_rule_with_its_path_and_line() {
    let tables = tables();
    let report = preflight::check(&tables, &doc(RELEASE_1_10), Options::default()).unwrap();
    assert_eq!(report.target, v("1.10"));
    assert_eq!(
        rules(&report),
        [
            (Rule::Deprecated, "spec.replicas", 7),
            (Rule::NotYetIntroduced, "spec.canary", 9),
            (Rule::WrongType, "spec.healthCheck.port", 10),
        ]
    );
    assert_eq!(report.violations[0].severity, Severity::Warning);
    assert_eq!(
        report.violations[1].message,
        "not available in 1.10 (introduced in 1.11 as alpha, feature gate CanaryReleases)"
    );
    assert_eq!(
        report.violations[2].message,
        "expected an integer (integer(int32) in 1.10), found a string"
    );
    assert!(!report.passes());
}

#[test]
fn null_is_unset_but_still_names_its_field() {
    let tables = tables();
    let yaml = r#"apiVersion: "1.10"
kind: Release
metadata:
  name: web
  labels: null
spec:
  image: null
  target: {cluster: prod, namespace: null}
  canary: null
  healthCheck: null
"#;
    let report = preflight::check(&tables, &doc(yaml), Options::default()).unwrap();
    // Optional fields set to null pass; a required one is missing; a field
    // 1.10 lacks is refused whatever its value, as the strict schemas do.
    assert_eq!(
        rules(&report),
        [
            (Rule::MissingRequired, "spec.image", 7),
            (Rule::NotYetIntroduced, "spec.canary", 9),
        ]
    );
    assert_eq!(
        report.violations[0].message,
        "null counts as missing: required in 1.10"
    );
}

#[test]
fn removed_fields_name_their_rename() {
    let tables = tables();
    let options = Options {
        target: Some(v("1.12")),
        strict: false,
        ..Default::default()
    };
    let report = preflight::check(&tables, &doc(RELEASE_1_10), options).unwrap();
    let removed = report
        .violations
        .iter()
        .find(|violation| violation.rule == Rule::Removed)
        .unwrap();
    assert_eq!(removed.path, "spec.replicas");
    assert_eq!(
        removed.message,
        "not available in 1.12 (removed in 1.12; renamed to replicaCount in 1.12)"
    );
    let mismatch = &report.violations[0];
    assert_eq!(mismatch.rule, Rule::VersionMismatch);
    assert!(mismatch.message.contains("vergate upgrade --to 1.12"));
}

#[test]
fn strict_mode_reports_unknown_fields_and_kinds_and_any_mode_unknown_values() {
    let tables = tables();
    let yaml = "apiVersion: \"1.12\"\nkind: Pipeline\nmetadata: {name: p}\nspec:\n  steps:\n    - {name: a, runtime: rkt, colour: red, shel: sh}\n";
    // With the API server's default field validation (`Warn`), unknown
    // fields are warnings (the default is `Strict`, as `kubectl apply`,
    // since #40); a value outside the enum the target lists is an error
    // (the API and the JSON Schemas refuse it).
    let warn = Options {
        fields: FieldValidation::Warn,
        ..Default::default()
    };
    let lenient = preflight::check(&tables, &doc(yaml), warn).unwrap();
    assert_eq!(
        rules(&lenient),
        [
            (Rule::ValueNotAvailable, "spec.steps[0].runtime", 6),
            (Rule::UnknownField, "spec.steps[0].colour", 6),
            (Rule::UnknownField, "spec.steps[0].shel", 6),
        ]
    );
    assert!(lenient.violations[1..]
        .iter()
        .all(|violation| violation.severity == Severity::Warning));
    let default = preflight::check(&tables, &doc(yaml), Options::default()).unwrap();
    assert_eq!(rules(&default), rules(&lenient));
    assert!(default
        .violations
        .iter()
        .all(|violation| violation.severity == Severity::Error));
    let strict = Options {
        target: None,
        strict: true,
        ..Default::default()
    };
    let report = preflight::check(&tables, &doc(yaml), strict).unwrap();
    assert_eq!(
        rules(&report),
        [
            (Rule::ValueNotAvailable, "spec.steps[0].runtime", 6),
            (Rule::UnknownField, "spec.steps[0].colour", 6),
            (Rule::UnknownField, "spec.steps[0].shel", 6),
        ]
    );
    assert_eq!(
        report.violations[2].message,
        "strict decoding error: unknown field \"spec.steps[0].shel\" (Step has no field \"shel\" in any minor; did you mean \"shell\"?)"
    );
    assert_eq!(
        report.violations[0].message,
        "value \"rkt\" is not accepted in 1.12 (accepted: docker, podman, wasm)"
    );
    let unknown = doc("apiVersion: \"1.12\"\nkind: Artifact\n");
    let report = preflight::check(&tables, &unknown, Options::default()).unwrap();
    assert_eq!(report.violations[0].rule, Rule::UnknownKind);
    assert_eq!(report.violations[0].severity, Severity::Error);
    assert_eq!(
        report.violations[0].message,
        "1.12 Artifact: demo 1.12 has no such kind; --rule unknown-kind=warning leaves it unchecked"
    );
    let report = preflight::check(&tables, &unknown, strict).unwrap();
    assert_eq!(report.violations[0].severity, Severity::Error);
}

#[test]
fn list_items_are_held_to_the_item_enum_of_the_target() {
    let tables = tables();
    let yaml = "apiVersion: \"1.10\"\nkind: Pipeline\nmetadata: {name: p}\nspec:\n  steps: []\n  triggers:\n    - tag\n    - schedule\n";
    let report = preflight::check(&tables, &doc(yaml), Options::default()).unwrap();
    assert_eq!(
        rules(&report),
        [(Rule::ValueNotAvailable, "spec.triggers[1]", 8)]
    );
    assert_eq!(
        report.violations[0].message,
        "value \"schedule\" is not available in 1.10 (introduced in 1.11)"
    );
    let newer = Options {
        target: Some(v("1.11")),
        strict: true,
        ..Default::default()
    };
    let report = preflight::check(&tables, &doc(yaml), newer).unwrap();
    assert_eq!(rules(&report), [(Rule::VersionMismatch, "apiVersion", 1)]);
}

#[test]
fn map_values_are_held_to_the_element_enum_of_the_target() {
    let tables = tables();
    let yaml = "apiVersion: \"1.10\"\nkind: Pipeline\nmetadata: {name: p}\nspec:\n  steps: []\n  notify:\n    ops: failure\n    dev: success\n    chat: sometimes\n";
    let report = preflight::check(&tables, &doc(yaml), Options::default()).unwrap();
    assert_eq!(
        rules(&report),
        [
            (Rule::ValueNotAvailable, "spec.notify.dev", 8),
            (Rule::ValueNotAvailable, "spec.notify.chat", 9)
        ]
    );
    assert_eq!(
        report.violations[0].message,
        "value \"success\" is not available in 1.10 (introduced in 1.11)"
    );
    assert_eq!(
        report.violations[1].message,
        "value \"sometimes\" is not accepted in 1.10 (accepted: always, failure)"
    );
}

#[test]
fn documents_that_cannot_be_checked_say_why() {
    let tables = tables();
    let err = |yaml: &str, options: Options| {
        preflight::check(&tables, &doc(yaml), options)
            .unwrap_err()
            .message
    };
    assert!(err("[1, 2]", Options::default()).contains("not a mapping"));
    assert!(err("kind: Pipeline\n", Options::default()).contains("has no apiVersion"));
    assert!(
        err("apiVersion: 1.10\nkind: Pipeline\n", Options::default())
            .contains("apiVersion must be a string, found a number")
    );
    assert!(err("apiVersion: v1\nkind: Service\n", Options::default()).contains("pass --target"));
    let options = Options {
        target: Some(v("1.99")),
        strict: false,
        ..Default::default()
    };
    assert!(err(RELEASE_1_10, options).contains("demo has no minor 1.99"));
}

#[test]
fn upgrade_renames_bumps_and_reports_losses() {
    let tables = tables();
    let conversion = upgrade::convert(&tables, &doc(RELEASE_1_10), None, v("1.12")).unwrap();
    let kinds: Vec<(&ChangeKind, &str)> = conversion
        .changes
        .iter()
        .map(|change| (&change.kind, change.path.as_str()))
        .collect();
    assert_eq!(
        kinds,
        [
            (&ChangeKind::VersionBumped, "apiVersion"),
            (&ChangeKind::Renamed, "spec.replicas"),
        ]
    );
    assert!(conversion.is_lossless());
    let spec = conversion.document.get("spec").unwrap();
    assert_eq!(spec.get("replicaCount").unwrap().to_json(), 2);
    assert!(spec.get("replicas").is_none());
    assert_eq!(
        conversion.document.get("apiVersion").unwrap().as_str(),
        Some("1.12")
    );
    // And back: the rename is undone, the 1.12-only enum value is a loss.
    let newer = doc("apiVersion: \"1.12\"\nkind: Release\nmetadata: {name: r}\nspec: {replicaCount: 4, strategy: BlueGreen, target: {cluster: c}}\n");
    let back = upgrade::convert(&tables, &newer, None, v("1.11")).unwrap();
    assert_eq!(
        back.document
            .get("spec")
            .unwrap()
            .get("replicas")
            .unwrap()
            .to_json(),
        4
    );
    assert!(!back.is_lossless());
    let value = back
        .changes
        .iter()
        .find(|change| change.kind == ChangeKind::ValueNotAccepted)
        .unwrap();
    assert_eq!(value.path, "spec.strategy");
    assert!(
        value
            .message
            .contains("(introduced in 1.12 as alpha, feature gate BlueGreenReleases; accepted: Recreate, RollingUpdate)"),
        "{}",
        value.message
    );
    // 1.11 would reject the value, so the conversion must not be written.
    assert!(back.is_refused());
}

#[test]
fn a_conversion_that_would_miss_a_newly_required_field_is_refused() {
    let tables = tables();
    // ReleaseSpec.image is required in 1.10 and optional from 1.11: a 1.11
    // Release without it cannot go down to 1.10 (what `upgrade --all` tries).
    let release = doc("apiVersion: \"1.11\"\nkind: Release\nmetadata: {name: r}\nspec: {replicas: 2, target: {cluster: c}}\n");
    let down = upgrade::convert(&tables, &release, None, v("1.10")).unwrap();
    assert!(down.is_refused(), "{:?}", down.changes);
    let missing = down
        .changes
        .iter()
        .find(|change| change.kind == ChangeKind::MissingRequired)
        .unwrap();
    assert_eq!((missing.path.as_str(), missing.line), ("spec.image", 4));
    // A null is no value either; with one, nothing is missing.
    let null = doc("apiVersion: \"1.11\"\nkind: Release\nmetadata: {name: r}\nspec: {image: null, replicas: 2, target: {cluster: c}}\n");
    assert!(upgrade::convert(&tables, &null, None, v("1.10"))
        .unwrap()
        .is_refused());
    let given = doc("apiVersion: \"1.11\"\nkind: Release\nmetadata: {name: r}\nspec: {image: i, replicas: 2, target: {cluster: c}}\n");
    let down = upgrade::convert(&tables, &given, None, v("1.10")).unwrap();
    assert!(
        !down.is_refused() && down.is_lossless(),
        "{:?}",
        down.changes
    );
}

#[test]
fn upgrade_refuses_a_type_change_it_cannot_convert() {
    let tables = tables();
    let pipeline = doc("apiVersion: \"1.10\"\nkind: Pipeline\nmetadata: {name: p}\nspec:\n  retries: 3\n  steps: [{name: s}]\n");
    let conversion = upgrade::convert(&tables, &pipeline, None, v("1.12")).unwrap();
    assert!(conversion.is_refused());
    let refusal = conversion
        .changes
        .iter()
        .find(|change| change.kind.refuses())
        .unwrap();
    assert_eq!(
        (&refusal.kind, refusal.path.as_str(), refusal.line),
        (&ChangeKind::TypeChanged, "spec.retries", 5)
    );
    // Up to 1.10 nothing changes type, so nothing is refused.
    let same = upgrade::convert(&tables, &pipeline, None, v("1.10")).unwrap();
    assert!(!same.is_refused() && same.is_lossless());
}

#[test]
fn upgrade_reports_list_items_the_new_minor_does_not_accept() {
    let tables = tables();
    let pipeline = doc("apiVersion: \"1.9\"\nkind: Pipeline\nmetadata: {name: p}\nspec:\n  steps: []\n  triggers: [push, schedule]\n");
    let conversion = upgrade::convert(&tables, &pipeline, None, v("1.10")).unwrap();
    let value = conversion
        .changes
        .iter()
        .find(|change| change.kind == ChangeKind::ValueNotAccepted)
        .unwrap();
    assert_eq!(value.path, "spec.triggers[1]");
    assert_eq!(
        value.message,
        "value \"schedule\" is not accepted in 1.10 (introduced in 1.11; accepted: push, tag); choose one of those by hand, then run upgrade again"
    );
    assert!(!conversion.is_lossless() && conversion.is_refused());
    let onward = upgrade::convert(&tables, &pipeline, None, v("1.11")).unwrap();
    assert!(onward.is_lossless(), "{:?}", onward.changes);
}

#[test]
fn upgrade_reports_map_values_the_new_minor_does_not_accept() {
    let tables = tables();
    let pipeline = doc("apiVersion: \"1.9\"\nkind: Pipeline\nmetadata: {name: p}\nspec:\n  steps: []\n  notify: {ops: always, dev: success}\n");
    let conversion = upgrade::convert(&tables, &pipeline, None, v("1.10")).unwrap();
    let refused: Vec<(&str, &str)> = conversion
        .changes
        .iter()
        .filter(|change| change.kind == ChangeKind::ValueNotAccepted)
        .map(|change| (change.path.as_str(), change.message.as_str()))
        .collect();
    assert_eq!(
        refused,
        [(
            "spec.notify.dev",
            "value \"success\" is not accepted in 1.10 (introduced in 1.11; accepted: always, failure); choose one of those by hand, then run upgrade again"
        )]
    );
    assert!(conversion.is_refused());
    let onward = upgrade::convert(&tables, &pipeline, None, v("1.11")).unwrap();
    assert!(onward.is_lossless(), "{:?}", onward.changes);
}

#[test]
fn the_changelog_names_adds_removes_deprecations_and_type_changes() {
    let tables = tables();
    let log = changelog::diff(&tables, v("1.10"), v("1.11"));
    // The notify group (unions) arrives in 1.11 too.
    let added: Vec<&str> = log
        .types_added
        .iter()
        .map(String::as_str)
        .filter(|name| !name.starts_with("dev.shipyard.notify."))
        .collect();
    assert_eq!(
        added,
        [
            "dev.shipyard.build.v1.RetryPolicy",
            "dev.shipyard.deploy.v1.Canary"
        ]
    );
    assert!(log
        .types_added
        .contains(&"dev.shipyard.notify.v1.Channel".to_owned()));
    assert_eq!(log.types_removed, ["dev.shipyard.build.v1.CacheConfig"]);
    let names = |items: &[changelog::Item]| -> Vec<String> {
        items.iter().map(|item| item.name.clone()).collect()
    };
    assert_eq!(
        names(&log.fields_added),
        [
            "dev.shipyard.build.v1.Step.shell",
            "dev.shipyard.deploy.v1.ReleaseSpec.canary"
        ]
    );
    assert_eq!(
        names(&log.fields_removed),
        ["dev.shipyard.build.v1.PipelineSpec.legacyCache"]
    );
    assert_eq!(
        names(&log.fields_deprecated),
        ["dev.shipyard.build.v1.Step.privileged"]
    );
    assert_eq!(
        names(&log.values_added),
        [
            "dev.shipyard.build.v1.PipelineSpec.notify{}=success",
            "dev.shipyard.build.v1.PipelineSpec.triggers[]=schedule",
            "dev.shipyard.build.v1.Step.runtime=wasm"
        ]
    );
    assert!(changelog::diff(&tables, v("1.12"), v("1.12")).is_empty());
}

#[test]
fn the_changelog_names_fields_that_become_required_or_optional() {
    let tables = tables();
    let forward = changelog::diff(&tables, v("1.10"), v("1.11"));
    assert_eq!(
        forward.fields_now_optional,
        [changelog::Item {
            name: "dev.shipyard.deploy.v1.ReleaseSpec.image".into(),
            note: "required in 1.10, optional in 1.11".into(),
        }]
    );
    assert!(forward.fields_now_required.is_empty());
    let back = changelog::diff(&tables, v("1.11"), v("1.10"));
    assert_eq!(back.fields_now_required.len(), 1);
    assert!(back.fields_now_optional.is_empty());
}
