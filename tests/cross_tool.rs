//! One gated model, every output agreeing: each demo minor's Pkl example,
//! rendered by the real pkl CLI, is a valid document for that minor in the
//! combined JSON Schema, in that minor's strict JSON Schemas, and in the
//! runtime preflight (strict) — and is refused by them for an older minor
//! that lacks one of its fields. To each of them a null field is unset.

mod pkl;
mod support;

use serde_json::Value;
use vergate::tables::GateTables;
use vergate::{document, preflight};

fn demo() -> std::path::PathBuf {
    support::root().join("generated/demo")
}

fn schema(path: &str) -> jsonschema::Validator {
    let text = std::fs::read(demo().join("json").join(path)).unwrap();
    jsonschema::validator_for(&serde_json::from_slice(&text).unwrap()).unwrap()
}

fn preflight_errors(tables: &GateTables, resource: &Value, target: &str) -> Vec<String> {
    let parsed = document::parse(&resource.to_string());
    assert_eq!(parsed.documents.len(), 1);
    let report = preflight::check(
        tables,
        &parsed.documents[0].root,
        preflight::Options {
            target: Some(target.parse().unwrap()),
            strict: true,
            ..Default::default()
        },
    )
    .unwrap();
    report
        .violations
        .iter()
        .filter(|v| v.severity == preflight::Severity::Error)
        .map(ToString::to_string)
        .collect()
}

#[test]
#[cfg_attr(
    not(vergate_pkl),
    ignore = "needs the pkl CLI: target/tools (see .ci/run) or VERGATE_PKL"
)]
fn pkl_output_passes_json_schema_and_preflight_of_its_minor() {
    let pkl = pkl::pkl();
    let tables = GateTables::load(&demo()).unwrap();
    let combined = schema("shipyard.schema.json");
    let examples = demo().join("pkl/examples");
    for minor in ["1.9", "1.10", "1.11", "1.12"] {
        let rendered: Value =
            serde_json::from_str(&pkl.eval_json(&examples, &[&format!("v{minor}.pkl")])).unwrap();
        assert_eq!(rendered["config"]["shipyardVersion"], minor);
        let resources = rendered["resources"].as_array().unwrap();
        // The Notifier (unions) is served from 1.11.
        let kinds = if ["1.9", "1.10"].contains(&minor) {
            2
        } else {
            3
        };
        assert_eq!(
            resources.len(),
            kinds,
            "a Pipeline, a Release (and a Notifier)"
        );
        for resource in resources {
            assert_eq!(
                resource["apiVersion"], minor,
                "the document carries its minor"
            );
            let errors: Vec<String> = combined
                .iter_errors(resource)
                .map(|e| format!("{} at {}", e, e.instance_path()))
                .collect();
            assert!(
                errors.is_empty(),
                "{minor}: combined schema refuses pkl's output: {errors:?}\n{resource:#}"
            );
            let kind = resource["kind"].as_str().unwrap().to_lowercase();
            let group = match kind.as_str() {
                "pipeline" => "build",
                "notifier" => "notify",
                _ => "deploy",
            };
            let strict = schema(&format!("v{minor}-strict/{kind}-{group}-v1.json"));
            assert!(
                strict.is_valid(resource),
                "{minor}: strict schema refuses pkl's output"
            );
            let errors = preflight_errors(&tables, resource, minor);
            assert!(
                errors.is_empty(),
                "{minor}: preflight refuses pkl's output: {errors:?}"
            );
        }
    }
}

#[test]
fn a_newer_document_is_refused_by_every_tool_for_an_older_minor() {
    // A 1.11 Release using canary (introduced in 1.11), checked as 1.10.
    let release = serde_json::json!({
        "apiVersion": "1.10",
        "kind": "Release",
        "metadata": {"name": "web"},
        "spec": {"image": "web:1", "target": {"cluster": "eu"}, "canary": {"weight": 5}}
    });
    assert!(!schema("shipyard.schema.json").is_valid(&release));
    assert!(!schema("v1.10-strict/release-deploy-v1.json").is_valid(&release));
    let tables = GateTables::load(&demo()).unwrap();
    let errors = preflight_errors(&tables, &release, "1.10");
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].contains("spec.canary: not available in 1.10 (introduced in 1.11"),
        "{errors:?}"
    );
}

#[test]
fn null_means_unset_to_every_tool() {
    let tables = GateTables::load(&demo()).unwrap();
    let combined = schema("shipyard.schema.json");
    let strict = schema("v1.12-strict/release-deploy-v1.json");
    let release = |spec: Value| serde_json::json!({"apiVersion": "1.12", "kind": "Release", "metadata": {"name": "web"}, "spec": spec});
    // Optional fields set to null pass every tool.
    let optional = release(serde_json::json!({
        "target": {"cluster": "eu", "namespace": null},
        "image": null,
        "canary": null,
        "strategy": null
    }));
    assert!(combined.is_valid(&optional));
    assert!(strict.is_valid(&optional));
    assert_eq!(
        preflight_errors(&tables, &optional, "1.12"),
        [] as [String; 0]
    );
    // A required field set to null is missing to every tool.
    let required = release(serde_json::json!({"target": null}));
    assert!(!combined.is_valid(&required));
    assert!(!strict.is_valid(&required));
    assert_eq!(
        preflight_errors(&tables, &required, "1.12"),
        ["spec.target: null counts as missing: required in 1.12"]
    );
    // A null for a field the minor lacks is still that field: refused.
    let removed = release(serde_json::json!({"target": {"cluster": "eu"}, "replicas": null}));
    assert!(!combined.is_valid(&removed));
    assert!(!strict.is_valid(&removed));
    assert_eq!(
        preflight_errors(&tables, &removed, "1.12"),
        ["spec.replicas: not available in 1.12 (removed in 1.12; renamed to replicaCount in 1.12)"]
    );
}
