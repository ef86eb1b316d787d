//! The demo API's JSON Schema output, judged by a real validator: every
//! schema is valid 2020-12, each minor's documents pass its own schemas and
//! the combined `shipyard.schema.json`, and documents of another minor, of
//! no minor, or using a field their minor lacks fail. Optional fields accept
//! null; required ones refuse it.

#[path = "json_schema/check.rs"]
mod check;
mod support;

use check::{check_schema, errors, json_files, yaml_documents};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use vergate_codegen::api::Api;

struct Demo {
    files: BTreeMap<String, Value>,
}

fn demo() -> Demo {
    let api = Api::open(&support::root().join("upstream-specs/demo")).unwrap();
    Demo {
        files: json_files(&check::emit(&api), "json/"),
    }
}

impl Demo {
    fn file(&self, path: &str) -> &Value {
        self.files
            .get(path)
            .unwrap_or_else(|| panic!("no {path}; files: {:?}", self.files.keys()))
    }

    fn validator(&self, path: &str) -> jsonschema::Validator {
        check_schema(path, self.file(path))
    }
}

/// The demo documents: (minor, kind file, document).
fn documents() -> Vec<(String, String, Value)> {
    let dir = support::root().join("tests/json_schema/demo");
    let found = check::files_in(&dir, "yaml");
    assert_eq!(
        found.len(),
        8,
        "two documents per minor in {}",
        dir.display()
    );
    found
        .iter()
        .map(|path| {
            let name = path.file_stem().unwrap().to_string_lossy().into_owned();
            let (minor, kind) = name.split_once('-').unwrap();
            let file = match kind {
                "pipeline" => "pipeline-build-v1.json",
                "release" => "release-deploy-v1.json",
                other => panic!("unexpected demo document kind {other}"),
            };
            let mut documents = yaml_documents(path);
            assert_eq!(documents.len(), 1, "{}", path.display());
            (minor.to_owned(), file.to_owned(), documents.remove(0))
        })
        .collect()
}

#[test]
fn every_schema_is_valid_2020_12() {
    let demo = demo();
    let mut schemas = 0;
    for (path, value) in &demo.files {
        if path.ends_with("/index.json") {
            continue;
        }
        if path.ends_with("/all.json") {
            // Its `$ref`s name sibling files: compiled with them in
            // tests/json_schema_kubeconform.rs.
            check::check_meta(path, value);
            continue;
        }
        if path.starts_with("json/openapi/") {
            assert_eq!(value["openapi"], "3.1.0", "{path}");
            for (name, schema) in value["components"]["schemas"].as_object().unwrap() {
                let mut wrapped = json!({"$ref": format!("#/components/schemas/{name}")});
                wrapped["components"] = value["components"].clone();
                check::check_meta(&format!("{path}#/components/schemas/{name}"), schema);
                check_schema(&format!("{path} ({name})"), &wrapped);
                schemas += 1;
            }
            continue;
        }
        assert_eq!(
            value["$schema"], "https://json-schema.org/draft/2020-12/schema",
            "{path}"
        );
        check_schema(path, value);
        schemas += 1;
    }
    assert!(schemas > 40, "only {schemas} schemas checked");
}

#[test]
fn index_lists_exactly_the_kind_files() {
    let demo = demo();
    for minor in ["v1.9", "v1.10", "v1.11", "v1.12"] {
        for dir in [format!("json/{minor}"), format!("json/{minor}-strict")] {
            let index = demo.file(&format!("{dir}/index.json"));
            let listed: Vec<&str> = index["kinds"]
                .as_array()
                .unwrap()
                .iter()
                .map(|kind| kind["file"].as_str().unwrap())
                .collect();
            // The Notifier (unions) is served from 1.11.
            let expected: &[&str] = if ["v1.9", "v1.10"].contains(&minor) {
                &["pipeline-build-v1.json", "release-deploy-v1.json"]
            } else {
                &[
                    "notifier-notify-v1.json",
                    "pipeline-build-v1.json",
                    "release-deploy-v1.json",
                ]
            };
            assert_eq!(listed, expected);
            let present: Vec<&str> = demo
                .files
                .keys()
                .filter_map(|path| path.strip_prefix(&format!("{dir}/")))
                .filter(|name| {
                    !name.starts_with('_') && *name != "index.json" && *name != "all.json"
                })
                .collect();
            assert_eq!(present, listed, "{dir}");
            let release = listed.len() - 1;
            assert_eq!(index["kinds"][release - 1]["group"], "build.shipyard.dev");
            assert_eq!(index["kinds"][release]["kind"], "Release");
        }
    }
}

#[test]
fn each_minor_accepts_its_documents_in_both_trees() {
    let demo = demo();
    for (minor, file, document) in documents() {
        for dir in [minor.clone(), format!("{minor}-strict")] {
            let path = format!("json/{dir}/{file}");
            let found = errors(&demo.validator(&path), &document);
            assert!(found.is_empty(), "{minor} {file} fails {path}: {found:?}");
        }
    }
}

#[test]
fn strict_trees_refuse_fields_of_other_minors() {
    let demo = demo();
    // 1.12's Release uses replicaCount (new in 1.12) and BlueGreen (new in 1.12).
    let (_, file, release) = documents()
        .into_iter()
        .find(|(minor, file, _)| minor == "v1.12" && file.starts_with("release"))
        .unwrap();
    let mut as_1_11 = release.clone();
    as_1_11["apiVersion"] = json!("1.11");
    let found = errors(
        &demo.validator(&format!("json/v1.11-strict/{file}")),
        &as_1_11,
    );
    let paths: Vec<&str> = found.iter().map(|(path, _)| path.as_str()).collect();
    // A field of another minor is refused at the field itself: the strict
    // tree lists it with a schema no value passes (and vergate's message
    // for editors, `editor_keywords_say_when_things_come_and_go`).
    assert!(paths.contains(&"/spec/replicaCount"), "{found:?}");
    assert!(paths.contains(&"/spec/strategy"), "BlueGreen: {found:?}");
    // The plain tree lets the unknown field through (that is what strict is for),
    // but still refuses the enum value 1.11 lacks.
    let plain = errors(&demo.validator(&format!("json/v1.11/{file}")), &as_1_11);
    assert_eq!(
        plain.iter().map(|(p, _)| p.as_str()).collect::<Vec<_>>(),
        ["/spec/strategy"],
        "{plain:?}"
    );
    // apiVersion is held to the minor of the file.
    let found = errors(&demo.validator(&format!("json/v1.11/{file}")), &release);
    assert!(
        found.iter().any(|(path, _)| path == "/apiVersion"),
        "{found:?}"
    );
}

/// The keywords the YAML language server reads (docs/editor.md): a field of
/// another minor fails with vergate's sentence, a gated field's hover says
/// its history, a deprecated one warns, an enum says which values come later.
#[test]
fn editor_keywords_say_when_things_come_and_go() {
    // The committed tree (fresh by tests/generated_fresh.rs): it has the
    // annotations' stages and feature gates, which `demo()` leaves out.
    let committed = |path: &str| -> Value {
        let text = std::fs::read_to_string(support::root().join("generated/demo").join(path));
        serde_json::from_str(&text.unwrap()).unwrap()
    };
    let spec = |dir: &str| {
        committed(&format!("json/{dir}/release-deploy-v1.json"))["$defs"]
            ["dev.shipyard.deploy.v1.ReleaseSpec"]["properties"]
            .clone()
    };
    let strict = spec("v1.10-strict");
    assert_eq!(
        strict["canary"],
        json!({
            "doNotSuggest": true,
            "enum": [],
            "errorMessage": "canary is not available in 1.10; introduced in 1.11 (alpha, feature gate CanaryReleases)",
            "markdownDescription": "Not in 1.10: introduced in 1.11 (alpha, feature gate CanaryReleases)."
        })
    );
    assert_eq!(
        strict["replicas"]["deprecationMessage"],
        "replicas is deprecated since 1.10; renamed to replicaCount in 1.12"
    );
    assert!(strict["replicas"]["markdownDescription"]
        .as_str()
        .unwrap()
        .ends_with("\n\nDeprecated since 1.10 · removed in 1.12"));
    assert_eq!(strict["replicas"]["deprecated"], true);
    // The plain tree accepts unknown fields, so it does not list them; the
    // annotations are the same.
    let plain = spec("v1.10");
    assert_eq!(plain.get("canary"), None);
    assert_eq!(
        plain["replicas"]["deprecationMessage"],
        strict["replicas"]["deprecationMessage"]
    );
    let strategy =
        &committed("json/v1.10/release-deploy-v1.json")["$defs"]["dev.shipyard.deploy.v1.Strategy"];
    assert_eq!(
        strategy["errorMessage"],
        "Value is not accepted in 1.10. Valid values: \"Recreate\", \"RollingUpdate\". \"BlueGreen\" is not available in 1.10; introduced in 1.12 (alpha, feature gate BlueGreenReleases)."
    );
    let newer = spec("v1.12");
    assert!(
        newer["canary"]["markdownDescription"]
            .as_str()
            .unwrap()
            .ends_with("Introduced in 1.11 (alpha, feature gate CanaryReleases) · beta 1.12"),
        "{}",
        newer["canary"]
    );
}

#[test]
fn item_enums_hold_each_item_to_its_minor() {
    let demo = demo();
    let documents = documents();
    // The pipeline document of minor `v`, with `triggers` set.
    let pipeline = |v: &str, triggers: &Value| {
        let (_, _, document) = documents
            .iter()
            .find(|(minor, file, _)| minor == v && file.starts_with("pipeline"))
            .unwrap();
        let mut document = document.clone();
        document["spec"]["triggers"] = triggers.clone();
        document
    };
    let check = |dir: &str, document: &Value| {
        let found = errors(
            &demo.validator(&format!("json/{dir}/pipeline-build-v1.json")),
            document,
        );
        found.into_iter().map(|(path, _)| path).collect::<Vec<_>>()
    };
    // `PipelineSpec.triggers` items gain "schedule" in 1.11.
    let schedule = json!(["push", "schedule"]);
    for dir in ["v1.11", "v1.11-strict"] {
        assert!(
            check(dir, &pipeline("v1.11", &schedule)).is_empty(),
            "{dir}"
        );
    }
    for dir in ["v1.10", "v1.10-strict"] {
        assert_eq!(
            check(dir, &pipeline("v1.10", &schedule)),
            ["/spec/triggers/1"],
            "{dir}"
        );
    }
    let nightly = json!(["tag", "nightly"]);
    assert_eq!(
        check("v1.12", &pipeline("v1.12", &nightly)),
        ["/spec/triggers/1"]
    );
    let combined = demo.validator("json/shipyard.schema.json");
    assert!(combined.is_valid(&pipeline("v1.11", &schedule)));
    assert!(!combined.is_valid(&pipeline("v1.10", &schedule)));
}

#[test]
fn map_value_enums_hold_each_value_to_its_minor() {
    let demo = demo();
    let documents = documents();
    // The pipeline document of minor `v`, with `notify` set.
    let pipeline = |v: &str, notify: &Value| {
        let (_, _, document) = documents
            .iter()
            .find(|(minor, file, _)| minor == v && file.starts_with("pipeline"))
            .unwrap();
        let mut document = document.clone();
        document["spec"]["notify"] = notify.clone();
        document
    };
    let check = |dir: &str, document: &Value| {
        let found = errors(
            &demo.validator(&format!("json/{dir}/pipeline-build-v1.json")),
            document,
        );
        found.into_iter().map(|(path, _)| path).collect::<Vec<_>>()
    };
    // `PipelineSpec.notify` values gain "success" in 1.11.
    let success = json!({"ops": "failure", "dev": "success"});
    for dir in ["v1.11", "v1.11-strict"] {
        assert!(check(dir, &pipeline("v1.11", &success)).is_empty(), "{dir}");
    }
    for dir in ["v1.10", "v1.10-strict"] {
        assert_eq!(
            check(dir, &pipeline("v1.10", &success)),
            ["/spec/notify/dev"],
            "{dir}"
        );
    }
    let sometimes = json!({"ops": "sometimes"});
    assert_eq!(
        check("v1.12", &pipeline("v1.12", &sometimes)),
        ["/spec/notify/ops"]
    );
    let combined = demo.validator("json/shipyard.schema.json");
    assert!(combined.is_valid(&pipeline("v1.11", &success)));
    assert!(!combined.is_valid(&pipeline("v1.10", &success)));
}

#[test]
fn combined_schema_picks_the_minor_by_api_version() {
    let demo = demo();
    let combined = demo.validator("json/shipyard.schema.json");
    let documents = documents();
    for (minor, file, document) in &documents {
        let found = errors(&combined, document);
        assert!(found.is_empty(), "{minor} {file}: {found:?}");
    }
    let (_, _, release) = documents
        .iter()
        .find(|(minor, file, _)| minor == "v1.12" && file.starts_with("release"))
        .unwrap();
    let with = |version: Value| {
        let mut document = release.clone();
        document["apiVersion"] = version;
        document
    };
    // A minor the API does not have, or none at all, fails.
    for unknown in [json!("1.13"), json!("1.8"), json!("v1.12"), json!(1.1)] {
        assert!(
            !combined.is_valid(&with(unknown.clone())),
            "apiVersion {unknown} passed"
        );
    }
    let mut missing = release.clone();
    missing.as_object_mut().unwrap().remove("apiVersion");
    assert!(
        !combined.is_valid(&missing),
        "a document without apiVersion passed"
    );
    // A document of 1.12 relabelled 1.11 fails: 1.11 has no replicaCount.
    assert!(!combined.is_valid(&with(json!("1.11"))));
    // An unknown kind fails.
    let mut unknown_kind = release.clone();
    unknown_kind["kind"] = json!("Rollback");
    assert!(!combined.is_valid(&unknown_kind));
    // Every `if` requires the version field, and the chain ends in `false`.
    let root = demo.file("json/shipyard.schema.json");
    let mut branch = root;
    let mut minors = Vec::new();
    while let Some(condition) = branch.get("if") {
        assert_eq!(condition["required"], json!(["apiVersion"]), "{condition}");
        minors.push(condition["properties"]["apiVersion"]["const"].clone());
        branch = &branch["else"];
    }
    assert_eq!(branch, &Value::Bool(false));
    assert_eq!(
        minors,
        [json!("1.9"), json!("1.10"), json!("1.11"), json!("1.12")]
    );
}

/// A 1.12 Release that sets every optional field it can to null: all of the
/// spec but `target`, `image` included (optional from 1.11).
fn release_with_nulls() -> Value {
    json!({
        "apiVersion": "1.12",
        "kind": "Release",
        "metadata": {"name": "web", "labels": null},
        "spec": {
            "target": {"cluster": "eu", "namespace": null},
            "image": null,
            "canary": null,
            "healthCheck": null,
            "strategy": null,
            "maxUnavailable": null,
            "replicaCount": null
        }
    })
}

#[test]
fn optional_fields_accept_null() {
    let demo = demo();
    let release = release_with_nulls();
    for dir in ["v1.12", "v1.12-strict"] {
        let path = format!("json/{dir}/release-deploy-v1.json");
        let found = errors(&demo.validator(&path), &release);
        assert!(found.is_empty(), "{path}: {found:?}");
    }
    let found = errors(&demo.validator("json/shipyard.schema.json"), &release);
    assert!(found.is_empty(), "combined: {found:?}");
    // A `$ref` becomes anyOf with null, its annotations beside the anyOf; a
    // required `$ref` stays as it is.
    let spec = &demo.file("json/v1.12/release-deploy-v1.json")["$defs"]
        ["dev.shipyard.deploy.v1.ReleaseSpec"]["properties"];
    assert_eq!(
        spec["healthCheck"]["anyOf"],
        json!([{"$ref": "#/$defs/dev.shipyard.deploy.v1.ReleaseSpecHealthCheck"}, {"type": "null"}])
    );
    assert!(spec["healthCheck"]["description"].is_string());
    assert_eq!(
        spec["target"],
        json!({"$ref": "#/$defs/dev.shipyard.deploy.v1.Target"})
    );
    assert_eq!(spec["image"]["type"], json!(["string", "null"]));
    let exported = &demo.file("json/openapi/v1.12.json")["components"]["schemas"]
        ["dev.shipyard.deploy.v1.ReleaseSpec"]["properties"]["canary"]["anyOf"];
    assert_eq!(
        exported,
        &json!([{"$ref": "#/components/schemas/dev.shipyard.deploy.v1.Canary"}, {"type": "null"}])
    );
}

#[test]
fn required_fields_refuse_null_naming_the_field() {
    let demo = demo();
    let combined = demo.validator("json/shipyard.schema.json");
    // `apiVersion` and `kind` name the kind, so they refuse null as well.
    for pointer in [
        "/spec/target",
        "/spec/target/cluster",
        "/metadata/name",
        "/apiVersion",
        "/kind",
    ] {
        let mut release = release_with_nulls();
        *release.pointer_mut(pointer).unwrap() = Value::Null;
        for dir in ["v1.12", "v1.12-strict"] {
            let path = format!("json/{dir}/release-deploy-v1.json");
            let found = errors(&demo.validator(&path), &release);
            assert!(
                !found.is_empty() && found.iter().all(|(at, _)| at == pointer),
                "{path}, {pointer} null: {found:?}"
            );
        }
        assert!(!combined.is_valid(&release), "combined, {pointer} null");
    }
    // `image` is required up to 1.10: null is refused there, at the field.
    let release = json!({
        "apiVersion": "1.10",
        "kind": "Release",
        "metadata": {"name": "web"},
        "spec": {"image": null, "target": {"cluster": "eu"}}
    });
    for dir in ["v1.10", "v1.10-strict"] {
        let path = format!("json/{dir}/release-deploy-v1.json");
        let found = errors(&demo.validator(&path), &release);
        assert_eq!(found.len(), 1, "{path}: {found:?}");
        assert_eq!(found[0].0, "/spec/image", "{path}: {found:?}");
        assert!(found[0].1.contains("null"), "{path}: {found:?}");
    }
    assert!(!combined.is_valid(&release));
}

#[test]
fn gates_ride_along_in_x_vergate() {
    let demo = demo();
    let spec = &demo.file("json/v1.12/release-deploy-v1.json")["$defs"]
        ["dev.shipyard.deploy.v1.ReleaseSpec"]["properties"];
    assert_eq!(spec["canary"]["x-vergate"]["introduced_in"], "1.11");
    assert_eq!(
        spec["replicaCount"]["x-vergate"]["renamed_from"]["from"],
        "replicas"
    );
    assert_eq!(
        spec["maxUnavailable"]["type"],
        json!(["integer", "string", "null"])
    );
    let old = &demo.file("json/v1.10/release-deploy-v1.json")["$defs"]
        ["dev.shipyard.deploy.v1.ReleaseSpec"]["properties"]["replicas"];
    assert_eq!(old["deprecated"], true);
    assert_eq!(old["x-vergate"]["removed_in"], "1.12");
    let canary = &demo.file("json/openapi/v1.12.json")["components"]["schemas"]
        ["dev.shipyard.deploy.v1.Canary"]["properties"]["weight"];
    assert_eq!(
        (canary["minimum"].clone(), canary["maximum"].clone()),
        (json!(1), json!(99))
    );
}

#[test]
#[should_panic(expected = "is not a valid JSON Schema 2020-12")]
fn the_meta_schema_check_can_fail() {
    // OpenAPI 3.0's boolean exclusiveMinimum is not 2020-12: the emitter
    // rewrites it, and the check would catch it if it did not.
    check::check_meta(
        "openapi-3.0",
        &json!({"minimum": 1, "exclusiveMinimum": true}),
    );
}

/// 1.12's new shapes: `resources` is the allOf of `build.v1.Resources`
/// (another file of the minor), an inline object and a nested allOf, so it
/// requires `memory` and `cpu` and, strictly, refuses fields none of them
/// defines; `pullPolicy` accepts `""` and each spelling exactly; `priority`
/// takes the listed integers only.
#[test]
fn composed_objects_and_enums_of_any_value_are_enforced() {
    let demo = demo();
    let (_, file, release) = documents()
        .into_iter()
        .find(|(minor, file, _)| minor == "v1.12" && file.starts_with("release"))
        .unwrap();
    let strict = demo.validator(&format!("json/v1.12-strict/{file}"));
    assert!(errors(&strict, &release).is_empty());
    let with = |pointer: &str, value: Value| {
        let mut document = release.clone();
        *document.pointer_mut(pointer).unwrap() = value;
        document
    };
    let refused = |document: &Value, at: &str| {
        let found = errors(&strict, document);
        assert!(
            found.iter().any(|(path, _)| path == at),
            "expected an error at {at}: {found:?}"
        );
    };
    refused(
        &with("/spec/resources", json!({"cpu": "1"})),
        "/spec/resources",
    );
    refused(
        &with("/spec/resources", json!({"memory": "1Gi"})),
        "/spec/resources",
    );
    refused(
        &with(
            "/spec/resources",
            json!({"cpu": "1", "memory": "1Gi", "disk": "9"}),
        ),
        "/spec/resources",
    );
    for good in ["", "Always", "IfNotPresent", "if-not-present", "Never"] {
        let document = with("/spec/pullPolicy", json!(good));
        assert!(errors(&strict, &document).is_empty(), "{good:?} refused");
    }
    for bad in [json!("ifnotpresent"), json!("if_not_present"), json!(" ")] {
        refused(&with("/spec/pullPolicy", bad), "/spec/pullPolicy");
    }
    for bad in [json!(5), json!("10"), json!(10.5)] {
        refused(&with("/spec/priority", bad), "/spec/priority");
    }
    assert!(errors(&strict, &with("/spec/priority", json!(100))).is_empty());
}
