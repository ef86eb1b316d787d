//! The demo API exercises every case the gated model handles; each is checked
//! here on the gated model built from the committed specs.

mod support;

use vergate::gates::{FieldGate, GatesIndex, TypeGate};
use vergate::Version;
use vergate_codegen::api::Api;
use vergate_codegen::regen;

fn index() -> GatesIndex {
    let api = Api::open(&support::root().join("upstream-specs/demo")).unwrap();
    regen::build(&api).unwrap().model.gates_index()
}

fn v(text: &str) -> Version {
    text.parse().unwrap()
}

fn ty<'i>(index: &'i GatesIndex, name: &str) -> &'i TypeGate {
    index
        .types
        .get(&format!("dev.shipyard.{name}"))
        .unwrap_or_else(|| panic!("no type {name}"))
}

fn field<'i>(index: &'i GatesIndex, name: &str, field: &str) -> &'i FieldGate {
    ty(index, name)
        .fields
        .get(field)
        .unwrap_or_else(|| panic!("no field {name}.{field}"))
}

#[test]
fn versions_sort_numerically() {
    let versions: Vec<String> = index().versions.iter().map(ToString::to_string).collect();
    assert_eq!(versions, ["1.9", "1.10", "1.11", "1.12"]);
}

#[test]
fn a_field_added_and_a_field_removed() {
    let index = index();
    let timeout = field(&index, "build.v1.PipelineSpec", "timeout");
    assert_eq!(
        (timeout.gate.introduced_in, timeout.gate.removed_in),
        (v("1.10"), None)
    );
    let cache = field(&index, "build.v1.PipelineSpec", "legacyCache");
    assert_eq!(
        (cache.gate.introduced_in, cache.gate.removed_in),
        (v("1.9"), Some(v("1.11")))
    );
}

#[test]
fn a_type_added_and_a_type_removed() {
    let index = index();
    assert_eq!(ty(&index, "deploy.v1.Canary").gate.introduced_in, v("1.11"));
    assert_eq!(
        ty(&index, "build.v1.CacheConfig").gate.removed_in,
        Some(v("1.11"))
    );
}

#[test]
fn enum_values_added() {
    let index = index();
    let runtime = field(&index, "build.v1.Step", "runtime");
    assert_eq!(runtime.values["wasm"].introduced_in, v("1.11"));
    assert_eq!(runtime.values["docker"].introduced_in, v("1.9"));
    let strategy = ty(&index, "deploy.v1.Strategy");
    assert_eq!(strategy.values["BlueGreen"].introduced_in, v("1.12"));
}

#[test]
fn element_enum_values_added() {
    let index = index();
    let triggers = field(&index, "build.v1.PipelineSpec", "triggers");
    assert!(triggers.values.is_empty());
    let added: Vec<(&str, Version)> = triggers
        .element_values
        .iter()
        .map(|(value, gate)| (value.as_str(), gate.introduced_in))
        .collect();
    assert_eq!(
        added,
        [
            ("push", v("1.9")),
            ("schedule", v("1.11")),
            ("tag", v("1.9"))
        ]
    );
}

#[test]
fn map_value_enum_values_added() {
    let index = index();
    let notify = field(&index, "build.v1.PipelineSpec", "notify");
    assert_eq!(notify.ty, "map[string]string");
    assert!(notify.values.is_empty());
    let added: Vec<(&str, Version)> = notify
        .element_values
        .iter()
        .map(|(value, gate)| (value.as_str(), gate.introduced_in))
        .collect();
    assert_eq!(
        added,
        [
            ("always", v("1.9")),
            ("failure", v("1.9")),
            ("success", v("1.11"))
        ]
    );
}

#[test]
fn required_becomes_optional() {
    let image = &field(&index(), "deploy.v1.ReleaseSpec", "image").clone();
    assert_eq!(image.required_in, vec![v("1.9"), v("1.10")]);
    assert!(image.is_required_in(v("1.10")) && !image.is_required_in(v("1.11")));
}

#[test]
fn a_type_change() {
    let index = index();
    let retries = field(&index, "build.v1.PipelineSpec", "retries");
    assert_eq!(retries.type_changed_in, vec![v("1.11")]);
    assert_eq!(retries.type_in(v("1.10")), "integer(int32)");
    assert_eq!(
        retries.type_in(v("1.11")),
        "dev.shipyard.build.v1.RetryPolicy"
    );
}

#[test]
fn deprecations_structural_and_inferred() {
    let index = index();
    let replicas = field(&index, "deploy.v1.ReleaseSpec", "replicas");
    assert_eq!(replicas.gate.deprecated_in, Some(v("1.10")));
    assert!(
        replicas.gate.inferred.is_empty(),
        "`deprecated: true` is structural"
    );
    let privileged = field(&index, "build.v1.Step", "privileged");
    assert_eq!(privileged.gate.deprecated_in, Some(v("1.11")));
    assert_eq!(privileged.gate.inferred, ["deprecated_in"]);
}

#[test]
fn a_rename() {
    let index = index();
    let count = field(&index, "deploy.v1.ReleaseSpec", "replicaCount");
    let rename = count
        .renamed_from
        .as_ref()
        .expect("replicaCount records its old name");
    assert_eq!(
        (rename.from.as_str(), rename.in_version),
        ("replicas", v("1.12"))
    );
    assert_eq!(
        field(&index, "deploy.v1.ReleaseSpec", "replicas")
            .gate
            .removed_in,
        Some(v("1.12"))
    );
}

#[test]
fn presence_with_a_gap() {
    let shell = &field(&index(), "build.v1.Step", "shell").gate.clone();
    assert_eq!(shell.present_in, Some(vec![v("1.9"), v("1.11"), v("1.12")]));
    assert!(!shell.is_present_in(v("1.10")));
}

#[test]
fn recursion_keywords_odd_names_and_int_or_string() {
    let index = index();
    assert_eq!(
        field(&index, "build.v1.Step", "steps").ty,
        "[]dev.shipyard.build.v1.Step"
    );
    assert_eq!(field(&index, "build.v1.Step", "type").ty, "string");
    assert_eq!(field(&index, "build.v1.Step", "move").ty, "[]string");
    assert_eq!(field(&index, "build.v1.Artifact", "$ref").ty, "string");
    assert_eq!(field(&index, "build.v1.Artifact", "x-foo").ty, "string");
    assert_eq!(
        field(&index, "deploy.v1.ReleaseSpec", "maxUnavailable").ty,
        "int-or-string"
    );
    assert_eq!(
        field(&index, "deploy.v1.ReleaseSpec", "healthCheck").ty,
        "dev.shipyard.deploy.v1.ReleaseSpecHealthCheck",
        "inline objects are hoisted"
    );
}

#[test]
fn same_short_name_in_two_groups_and_kinds() {
    let index = index();
    assert!(index.types.contains_key("dev.shipyard.build.v1.Target"));
    assert!(index.types.contains_key("dev.shipyard.deploy.v1.Target"));
    let pipeline = ty(&index, "build.v1.Pipeline");
    assert_eq!(pipeline.kinds[0].api_version(), "build.shipyard.dev/v1");
    assert_eq!(pipeline.kinds[0].kind, "Pipeline");
}
