//! The generated JSON trees work with kubeconform as they are: its
//! `-schema-location` template, expanded by kubeconform's own rules
//! (`pkg/registry/registry.go`, `schemaPath`, ported below), resolves to
//! the generated kind files for every kind of every minor, strict or not;
//! and `all.json` checks any kind of the minor by its file.

mod support;

use serde_json::Value;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// kubeconform's default layout, as `-schema-location <dir>/…` spells it
/// (the documented template: docs/json-schema.md).
const TEMPLATE: &str =
    "{{ .NormalizedKubernetesVersion }}-standalone{{ .StrictSuffix }}/{{ .ResourceKind }}{{ .KindSuffix }}.json";

/// kubeconform's `schemaPath`: the variables it gives a template.
fn variables(
    kind: &str,
    api_version: &str,
    k8s_version: &str,
    strict: bool,
) -> HashMap<&'static str, String> {
    let normalized = if k8s_version == "master" {
        k8s_version.to_owned()
    } else {
        format!("v{k8s_version}")
    };
    let group_parts: Vec<&str> = api_version.split('/').collect();
    let version_parts: Vec<&str> = group_parts[0].split('.').collect();
    let mut kind_suffix = format!("-{}", version_parts[0].to_lowercase());
    if group_parts.len() > 1 {
        kind_suffix.push_str(&format!("-{}", group_parts[1].to_lowercase()));
    }
    HashMap::from([
        ("NormalizedKubernetesVersion", normalized),
        (
            "StrictSuffix",
            if strict { "-strict" } else { "" }.to_owned(),
        ),
        ("ResourceKind", kind.to_lowercase()),
        (
            "ResourceAPIVersion",
            group_parts[group_parts.len() - 1].to_owned(),
        ),
        ("Group", group_parts[0].to_owned()),
        ("KindSuffix", kind_suffix),
    ])
}

/// Expands `{{ .Name }}` (with or without the spaces) as Go's text/template
/// does for a plain field; any other action fails the test.
fn expand(template: &str, variables: &HashMap<&str, String>) -> String {
    let mut out = String::new();
    let mut rest = template;
    while let Some(start) = rest.find("{{") {
        out.push_str(&rest[..start]);
        let end = rest[start..].find("}}").expect("an unclosed action") + start;
        let action = rest[start + 2..end].trim();
        let name = action.strip_prefix('.').expect("only field actions");
        out.push_str(&variables[name]);
        rest = &rest[end + 2..];
    }
    out.push_str(rest);
    out
}

/// kubeconform refuses any other `-kubernetes-version`.
fn kubeconform_accepts_version(version: &str) -> bool {
    version == "master" || {
        let parts: Vec<&str> = version.split('.').collect();
        parts.len() == 3
            && parts
                .iter()
                .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
    }
}

/// For every minor of a generated `json/` tree and every kind in its
/// `index.json`: the template, with `-kubernetes-version X.Y.0` and with
/// and without `-strict`, names a file with the bytes of the kind's file
/// in `v<X.Y>[-strict]/`. Returns how many paths were checked.
fn check_tree(json: &Path) -> usize {
    let mut checked = 0;
    let mut minors: Vec<PathBuf> = std::fs::read_dir(json)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.join("index.json").is_file())
        .filter(|path| {
            let name = path.file_name().unwrap().to_string_lossy();
            vergate::is_version_dir(&name) && !name.contains('-')
        })
        .collect();
    minors.sort();
    assert!(!minors.is_empty(), "no v<X.Y>/ in {}", json.display());
    for minor_dir in minors {
        let minor = minor_dir.file_name().unwrap().to_string_lossy()[1..].to_owned();
        let version = format!("{minor}.0");
        assert!(kubeconform_accepts_version(&version), "{version}");
        let index: Value =
            serde_json::from_slice(&std::fs::read(minor_dir.join("index.json")).unwrap()).unwrap();
        for entry in index["kinds"].as_array().unwrap() {
            let group = entry["group"].as_str().unwrap();
            let api_version = match group {
                "" => entry["version"].as_str().unwrap().to_owned(),
                group => format!("{group}/{}", entry["version"].as_str().unwrap()),
            };
            let kind = entry["kind"].as_str().unwrap();
            for strict in [false, true] {
                let location = format!("{}/{TEMPLATE}", json.display());
                let path = PathBuf::from(expand(
                    &location,
                    &variables(kind, &api_version, &version, strict),
                ));
                let ours = json
                    .join(format!("v{minor}{}", if strict { "-strict" } else { "" }))
                    .join(entry["file"].as_str().unwrap());
                let found = std::fs::read(&path).unwrap_or_else(|err| {
                    panic!("{api_version} {kind} ({minor}, strict: {strict}): kubeconform reads {}: {err}", path.display())
                });
                assert!(
                    found == std::fs::read(&ours).unwrap(),
                    "{} differs from {}",
                    path.display(),
                    ours.display()
                );
                checked += 1;
            }
        }
    }
    checked
}

#[test]
fn kubeconforms_variables_match_its_source() {
    let vars = variables("Deployment", "apps/v1", "1.34.0", true);
    assert_eq!(
        expand(&format!("x/{TEMPLATE}"), &vars),
        "x/v1.34.0-standalone-strict/deployment-apps-v1.json"
    );
    let vars = variables(
        "FlowSchema",
        "flowcontrol.apiserver.k8s.io/v1beta3",
        "1.29.0",
        false,
    );
    assert_eq!(
        expand(TEMPLATE, &vars),
        "v1.29.0-standalone/flowschema-flowcontrol-v1beta3.json"
    );
    assert_eq!(vars["Group"], "flowcontrol.apiserver.k8s.io");
    assert_eq!(vars["ResourceAPIVersion"], "v1beta3");
    let vars = variables("Service", "v1", "master", false);
    assert_eq!(
        expand(
            "{{.NormalizedKubernetesVersion}}/{{.ResourceKind}}{{.KindSuffix}}.json",
            &vars
        ),
        "master/service-v1.json"
    );
    assert!(!kubeconform_accepts_version("1.34"));
}

#[test]
fn the_template_resolves_to_the_demo_tree() {
    let checked = check_tree(&support::root().join("generated/demo/json"));
    // Pipeline and Release in 1.9–1.12, Notifier from 1.11; plain and strict.
    assert_eq!(
        checked,
        (4 * 2 + 2) * 2,
        "kinds of every minor, plain and strict"
    );
}

#[test]
#[cfg_attr(
    not(vergate_kubernetes_output),
    ignore = "needs generated/kubernetes: cargo xtask regen --api kubernetes"
)]
fn the_template_resolves_to_the_kubernetes_tree() {
    let checked = check_tree(&support::kubernetes_output().join("json"));
    assert!(checked > 9 * 100, "{checked}");
}

/// Serves the files of one directory to the validator by their file URIs.
struct Directory(PathBuf);

impl jsonschema::Retrieve for Directory {
    fn retrieve(
        &self,
        uri: &jsonschema::Uri<String>,
    ) -> Result<Value, Box<dyn std::error::Error + Send + Sync>> {
        let name = uri
            .path()
            .as_str()
            .rsplit('/')
            .next()
            .unwrap_or_default()
            .to_owned();
        let text = std::fs::read(self.0.join(name))?;
        Ok(serde_json::from_slice(&text)?)
    }
}

#[test]
fn all_json_checks_each_kind_by_its_file() {
    for dir in ["v1.11", "v1.11-strict", "v1.11.0-standalone-strict"] {
        let dir = support::root().join("generated/demo/json").join(dir);
        let schema: Value =
            serde_json::from_slice(&std::fs::read(dir.join("all.json")).unwrap()).unwrap();
        let validator = jsonschema::options()
            .with_base_uri(format!("file://{}/all.json", dir.display()))
            .with_retriever(Directory(dir.clone()))
            .build(&schema)
            .unwrap_or_else(|err| panic!("{}: {err}", dir.display()));
        let read = |file: &str| -> Value {
            serde_yaml_ng::from_str(
                &std::fs::read_to_string(support::root().join("tests/json_schema/demo").join(file))
                    .unwrap(),
            )
            .unwrap()
        };
        let pipeline = read("v1.11-pipeline.yaml");
        let release = read("v1.11-release.yaml");
        let errors: Vec<String> = validator
            .iter_errors(&pipeline)
            .map(|e| format!("{e} at {}", e.instance_path()))
            .collect();
        assert!(errors.is_empty(), "{}: {errors:?}", dir.display());
        assert!(validator.is_valid(&release), "{}", dir.display());
        // A field 1.11's Release lacks, as a wrong type: refused by the
        // Release file, so by all.json.
        let mut bad = release.clone();
        bad["spec"]["replicaCount"] = Value::String("three".into());
        bad["spec"]["target"] = Value::String("prod".into());
        assert!(!validator.is_valid(&bad), "{}", dir.display());
        // A kind the minor does not have is not checked (as kubeconform skips it).
        let other =
            serde_json::json!({"apiVersion": "example.com/v1", "kind": "Widget", "spec": 3});
        assert!(validator.is_valid(&other));
    }
}
