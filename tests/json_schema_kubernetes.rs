//! The Kubernetes JSON Schema trees (built in memory from the real specs of
//! v1.28 … v1.36), judged by a real validator:
//!
//! - every file of a few minors, and every minor's `_definitions.json`, is a
//!   valid JSON Schema 2020-12 that compiles (all `$ref`s resolve);
//! - every minor's `index.json` lists exactly its kind files;
//! - realistic manifests validate against each minor their `# minors:` header
//!   names, and in the strict tree fail against every other minor (each uses
//!   a field those minors lack), with the error naming the instance path;
//! - optional fields accept null; required ones refuse it.

#[path = "json_schema/check.rs"]
mod check;
mod support;

use check::{check_schema, errors, json_files, yaml_documents};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use vergate::Version;
use vergate_codegen::api::Api;
use vergate_codegen::emit::json_schema::kind_file;
use vergate_codegen::model::GroupVersionKind;

/// The generated `json/` files of all nine minors, built once per test binary.
fn kubernetes_trees() -> &'static BTreeMap<String, Value> {
    static FILES: OnceLock<BTreeMap<String, Value>> = OnceLock::new();
    FILES.get_or_init(|| {
        let specs = support::kubernetes_specs();
        let dir = support::api_dir_with_specs("kubernetes", &specs, &support::KUBERNETES_MINORS);
        let api = Api::open(dir.path()).unwrap();
        json_files(&check::emit(&api), "json/")
    })
}

fn minors() -> Vec<Version> {
    support::KUBERNETES_MINORS
        .iter()
        .map(|minor| minor.parse().unwrap())
        .collect()
}

#[test]
#[cfg_attr(
    not(vergate_kubernetes_specs),
    ignore = "needs the Kubernetes specs: ../shared/upstream-specs/kubernetes or VERGATE_KUBERNETES_SPECS"
)]
fn schemas_are_valid_2020_12() {
    let files = kubernetes_trees();
    let fully_checked = ["json/v1.29/", "json/v1.29-strict/", "json/v1.36-strict/"];
    let mut checked = 0;
    for (path, value) in files {
        let whole_minor = fully_checked.iter().any(|dir| path.starts_with(dir));
        let is_definitions = path.ends_with("/_definitions.json");
        if path.ends_with("/index.json") || !(whole_minor || is_definitions) {
            continue;
        }
        if path.ends_with("/all.json") {
            // Its `$ref`s name sibling files: compiled with them in
            // tests/json_schema_kubeconform.rs.
            check::check_meta(path, value);
            checked += 1;
            continue;
        }
        check_schema(path, value);
        checked += 1;
    }
    assert!(checked > 800, "only {checked} schemas checked");
}

#[test]
#[cfg_attr(
    not(vergate_kubernetes_specs),
    ignore = "needs the Kubernetes specs: ../shared/upstream-specs/kubernetes or VERGATE_KUBERNETES_SPECS"
)]
fn indexes_list_exactly_the_kind_files() {
    let files = kubernetes_trees();
    for minor in minors() {
        for suffix in ["", "-strict"] {
            let dir = format!("json/{}{suffix}/", minor.dir_name());
            let index = &files[&format!("{dir}index.json")];
            assert_eq!(index["minor"], minor.to_string());
            let mut listed = BTreeSet::new();
            for entry in index["kinds"].as_array().unwrap() {
                let gvk = GroupVersionKind {
                    group: entry["group"].as_str().unwrap().into(),
                    version: entry["version"].as_str().unwrap().into(),
                    kind: entry["kind"].as_str().unwrap().into(),
                };
                let file = entry["file"].as_str().unwrap();
                assert_eq!(file, kind_file(&gvk), "{dir}index.json");
                let schema = &files[&format!("{dir}{file}")];
                let definition = entry["definition"].as_str().unwrap();
                assert_eq!(schema["$ref"], format!("#/$defs/{definition}"));
                // WatchEvent has no `kind` property; every other kind holds it.
                if let Some(kinds) = schema["$defs"][definition]["properties"].get("kind") {
                    let allowed = kinds["const"] == gvk.kind.as_str()
                        || kinds["enum"]
                            .as_array()
                            .is_some_and(|values| values.contains(&Value::from(gvk.kind.as_str())));
                    assert!(allowed, "{dir}{file}: kind is not held to {}", gvk.kind);
                }
                listed.insert(file.to_owned());
            }
            let present: BTreeSet<String> = files
                .keys()
                .filter_map(|path| path.strip_prefix(&dir))
                .filter(|name| {
                    !name.contains('/')
                        && !name.starts_with('_')
                        && *name != "index.json"
                        && *name != "all.json"
                })
                .map(str::to_owned)
                .collect();
            assert_eq!(listed, present, "{dir}");
            assert!(
                present.contains("deployment-apps-v1.json") && present.contains("service-v1.json")
            );
        }
    }
}

/// A manifest file: its documents and the minors its header names.
struct Manifest {
    path: PathBuf,
    /// Exactly the minors whose specs have every field the file uses.
    minors: BTreeSet<Version>,
    documents: Vec<Value>,
}

/// The manifests shared with the other tests (`tests/manifests/kubernetes`)
/// and this test's own.
fn manifests() -> Vec<Manifest> {
    let root = support::root();
    let mut paths = check::files_in(&root.join("tests/manifests/kubernetes"), "yaml");
    paths.extend(check::files_in(
        &root.join("tests/json_schema/manifests"),
        "yaml",
    ));
    assert!(paths.len() >= 4, "manifests: {paths:?}");
    paths.iter().map(|path| read_manifest(path)).collect()
}

fn read_manifest(path: &Path) -> Manifest {
    let text = std::fs::read_to_string(path).unwrap();
    let header = text
        .lines()
        .find_map(|line| line.strip_prefix("# minors:"))
        .unwrap_or_else(|| panic!("{}: no `# minors: A..=B` (or `A, B`) line", path.display()));
    let parse = |text: &str| -> Version {
        text.trim()
            .parse()
            .unwrap_or_else(|err| panic!("{}: `# minors:{header}`: {err}", path.display()))
    };
    let listed: BTreeSet<Version> = match header.split_once("..=") {
        Some((first, last)) => {
            let range = parse(first)..=parse(last);
            minors()
                .into_iter()
                .filter(|minor| range.contains(minor))
                .collect()
        }
        None => header.split(',').map(parse).collect(),
    };
    Manifest {
        path: path.to_owned(),
        minors: listed,
        documents: yaml_documents(path),
    }
}

fn gvk_of(document: &Value) -> GroupVersionKind {
    let api_version = document["apiVersion"].as_str().unwrap();
    let (group, version) = api_version.rsplit_once('/').unwrap_or(("", api_version));
    GroupVersionKind {
        group: group.into(),
        version: version.into(),
        kind: document["kind"].as_str().unwrap().into(),
    }
}

/// Compiled validators by path, compiled on first use.
#[derive(Default)]
struct Validators(BTreeMap<String, Option<jsonschema::Validator>>);

impl Validators {
    /// The errors of `document` against `path`, or `None` when the minor has
    /// no schema for the kind.
    fn errors(
        &mut self,
        files: &BTreeMap<String, Value>,
        path: String,
        document: &Value,
    ) -> Option<Vec<(String, String)>> {
        let validator = self
            .0
            .entry(path.clone())
            .or_insert_with(|| files.get(&path).map(|schema| check_schema(&path, schema)));
        validator.as_ref().map(|v| errors(v, document))
    }
}

#[test]
#[cfg_attr(
    not(vergate_kubernetes_specs),
    ignore = "needs the Kubernetes specs: ../shared/upstream-specs/kubernetes or VERGATE_KUBERNETES_SPECS"
)]
fn manifests_validate_exactly_against_their_minors() {
    let files = kubernetes_trees();
    let mut validators = Validators::default();
    let mut refused = 0;
    for manifest in manifests() {
        let name = manifest.path.display();
        for minor in minors() {
            let in_range = manifest.minors.contains(&minor);
            let mut strict_failures = Vec::new();
            for document in &manifest.documents {
                let file = kind_file(&gvk_of(document));
                let strict = format!("json/{}-strict/{file}", minor.dir_name());
                let plain = format!("json/{}/{file}", minor.dir_name());
                let found = validators.errors(files, strict.clone(), document);
                if in_range {
                    let found = found.unwrap_or_else(|| panic!("{name}: no {strict}"));
                    assert!(found.is_empty(), "{name} fails {strict}: {found:#?}");
                    let found = validators.errors(files, plain.clone(), document).unwrap();
                    assert!(found.is_empty(), "{name} fails {plain}: {found:#?}");
                } else if found.is_none_or(|errors| !errors.is_empty()) {
                    strict_failures.push(strict);
                }
            }
            if !in_range {
                assert!(
                    !strict_failures.is_empty(),
                    "{name} says it needs minors {:?} but passes every strict schema of {minor}",
                    manifest.minors
                );
                refused += 1;
            }
        }
    }
    assert!(
        refused > 0,
        "no manifest was refused by a minor outside its range"
    );
}

#[test]
#[cfg_attr(
    not(vergate_kubernetes_specs),
    ignore = "needs the Kubernetes specs: ../shared/upstream-specs/kubernetes or VERGATE_KUBERNETES_SPECS"
)]
fn strict_1_29_names_the_field_it_lacks() {
    let files = kubernetes_trees();
    let manifest = read_manifest(
        &support::root().join("tests/json_schema/manifests/service-traffic-distribution.yaml"),
    );
    let service = &manifest.documents[0];
    let mut validators = Validators::default();
    let found = validators
        .errors(files, "json/v1.29-strict/service-v1.json".into(), service)
        .unwrap();
    assert_eq!(found.len(), 1, "{found:#?}");
    // The strict tree lists the field only to refuse it, at the field, with
    // vergate's sentence for editors (docs/editor.md).
    let (path, _) = &found[0];
    assert_eq!(path, "/spec/trafficDistribution");
    let refusal = &files["json/v1.29-strict/service-v1.json"]["$defs"]
        ["io.k8s.api.core.v1.ServiceSpec"]["properties"]["trafficDistribution"];
    let message = refusal["errorMessage"].as_str().unwrap();
    assert!(
        message.starts_with("trafficDistribution is not available in 1.29; introduced in 1.30"),
        "{message}"
    );
    let found = validators
        .errors(files, "json/v1.30-strict/service-v1.json".into(), service)
        .unwrap();
    assert!(found.is_empty(), "{found:#?}");
    // The plain tree of 1.29 accepts unknown fields, as the API server's
    // non-strict decoding does; only strict refuses them.
    let found = validators
        .errors(files, "json/v1.29/service-v1.json".into(), service)
        .unwrap();
    assert!(found.is_empty(), "{found:#?}");
}

/// A Deployment that sets optional fields of every shape to null: integers,
/// `$ref`s, maps, lists, an enum.
fn deployment_with_nulls() -> Value {
    serde_json::json!({
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": "web", "namespace": null, "labels": null},
        "spec": {
            "replicas": null,
            "strategy": null,
            "revisionHistoryLimit": null,
            "selector": {"matchLabels": {"app": "web"}, "matchExpressions": null},
            "template": {
                "metadata": {"labels": {"app": "web"}},
                "spec": {
                    "nodeSelector": null,
                    "containers": [{
                        "name": "web",
                        "image": "nginx:1.27",
                        "imagePullPolicy": null,
                        "ports": null,
                        "resources": null
                    }]
                }
            }
        }
    })
}

#[test]
#[cfg_attr(
    not(vergate_kubernetes_specs),
    ignore = "needs the Kubernetes specs: ../shared/upstream-specs/kubernetes or VERGATE_KUBERNETES_SPECS"
)]
fn optional_fields_accept_null_in_every_minor() {
    let files = kubernetes_trees();
    let deployment = deployment_with_nulls();
    let mut validators = Validators::default();
    for minor in minors() {
        for suffix in ["", "-strict"] {
            let path = format!("json/{}{suffix}/deployment-apps-v1.json", minor.dir_name());
            let found = validators.errors(files, path.clone(), &deployment).unwrap();
            assert!(found.is_empty(), "{path}: {found:#?}");
        }
    }
}

#[test]
#[cfg_attr(
    not(vergate_kubernetes_specs),
    ignore = "needs the Kubernetes specs: ../shared/upstream-specs/kubernetes or VERGATE_KUBERNETES_SPECS"
)]
fn required_fields_refuse_null_naming_the_field() {
    let files = kubernetes_trees();
    let mut validators = Validators::default();
    for pointer in [
        "/spec/selector",
        "/spec/template/spec/containers",
        "/spec/template/spec/containers/0/name",
    ] {
        let mut deployment = deployment_with_nulls();
        *deployment.pointer_mut(pointer).unwrap() = Value::Null;
        for path in [
            "json/v1.28/deployment-apps-v1.json",
            "json/v1.36-strict/deployment-apps-v1.json",
        ] {
            let found = validators.errors(files, path.into(), &deployment).unwrap();
            assert_eq!(found.len(), 1, "{path}, {pointer} null: {found:#?}");
            assert_eq!(found[0].0, pointer, "{path}: {found:#?}");
        }
    }
}

#[test]
#[cfg_attr(
    not(vergate_kubernetes_specs),
    ignore = "needs the Kubernetes specs: ../shared/upstream-specs/kubernetes or VERGATE_KUBERNETES_SPECS"
)]
fn kubernetes_specifics() {
    let files = kubernetes_trees();
    let deployment = &files["json/v1.34/deployment-apps-v1.json"]["$defs"];
    let properties = &deployment["io.k8s.api.apps.v1.Deployment"]["properties"];
    assert_eq!(properties["apiVersion"]["const"], "apps/v1");
    assert_eq!(properties["kind"]["const"], "Deployment");
    assert_eq!(
        deployment["io.k8s.apimachinery.pkg.util.intstr.IntOrString"]["type"],
        serde_json::json!(["integer", "string"])
    );
    assert_eq!(
        deployment["io.k8s.apimachinery.pkg.api.resource.Quantity"]["type"],
        serde_json::json!(["number", "string"])
    );
    let service = &files["json/v1.34/service-v1.json"]["$defs"]["io.k8s.api.core.v1.ServiceSpec"]
        ["properties"]["trafficDistribution"];
    assert_eq!(service["x-vergate"]["introduced_in"], "1.30");
    let delete = &files["json/v1.34/deleteoptions-apps-v1.json"]["$defs"]
        ["io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions"]["properties"]["apiVersion"]["enum"];
    assert!(delete.as_array().unwrap().contains(&Value::from("apps/v1")));
}
