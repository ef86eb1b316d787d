//! A Kubernetes-style API whose swagger has no
//! `x-kubernetes-group-version-kind`: KubeVirt's (`tests/kubevirt/`, three
//! releases trimmed to three kinds; README.md there says how and its
//! licence). Its kinds are only told by its REST paths and their request
//! bodies, so vergate finds them there (`load/resources.rs`): each kind gets
//! its schemas, Pkl module and `Resource` impl, and `check` catches a field a
//! release removed. The same specs without their paths leave the API with no
//! kinds: the regen says so loudly, `check --api` refuses it (exit 2) and
//! every `all.json` is still valid JSON Schema.

#[path = "json_schema/check.rs"]
mod check;
mod support;

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use support::cli::{code, stderr, stdout, vergate};
use vergate_codegen::api::Api;
use vergate_codegen::output::Mode;

/// An API added from a copy of the fixture (`edit` may change each spec
/// first) and regenerated, in its own project under `target/generated/`.
struct Regenerated {
    out: PathBuf,
    warnings: Vec<String>,
    gates: Value,
}

fn regenerate(project: &str, edit: fn(&mut Value), api_toml: &str) -> Regenerated {
    let project = support::root().join("target/generated").join(project);
    if project.exists() {
        std::fs::remove_dir_all(&project).unwrap();
    }
    let specs = project.join("specs");
    for minor in ["v1.7", "v1.8", "v1.9"] {
        let from = support::root().join("tests/kubevirt").join(minor);
        let mut spec: Value =
            serde_json::from_slice(&std::fs::read(from.join("swagger.json")).unwrap()).unwrap();
        edit(&mut spec);
        std::fs::create_dir_all(specs.join(minor)).unwrap();
        std::fs::write(
            specs.join(minor).join("swagger.json"),
            serde_json::to_vec_pretty(&spec).unwrap(),
        )
        .unwrap();
    }
    let specs_root = project.join("upstream-specs");
    vergate_codegen::record::add_api(&specs_root, "kubevirt", &specs)
        .unwrap_or_else(|err| panic!("add-api: {err}"));
    let toml = specs_root.join("kubevirt/api.toml");
    let mut text = std::fs::read_to_string(&toml).unwrap();
    text.push_str(api_toml);
    std::fs::write(&toml, text).unwrap();
    let api = Api::open(&specs_root.join("kubevirt")).unwrap();
    let out = project.join("generated/kubevirt");
    let (built, _) = vergate_codegen::regen::regen(&api, &out, Mode::Write)
        .unwrap_or_else(|err| panic!("regen: {err}"));
    let gates = serde_json::from_slice(&std::fs::read(out.join("gates.json")).unwrap()).unwrap();
    Regenerated {
        out,
        warnings: built.warnings.iter().map(ToString::to_string).collect(),
        gates,
    }
}

/// The fixture as it is.
fn kubevirt() -> &'static Regenerated {
    static KUBEVIRT: OnceLock<Regenerated> = OnceLock::new();
    KUBEVIRT.get_or_init(|| regenerate("kubevirt-api", |_| {}, ""))
}

/// The fixture without `paths`: nothing says which types are kinds.
fn kubevirt_without_paths() -> &'static Regenerated {
    static BARE: OnceLock<Regenerated> = OnceLock::new();
    BARE.get_or_init(|| regenerate("kubevirt-api-no-paths", without_paths, ""))
}

fn without_paths(spec: &mut Value) {
    spec.as_object_mut().unwrap().remove("paths");
}

/// The fixture without `paths`, its one kind listed in api.toml.
fn kubevirt_with_listed_kinds() -> &'static Regenerated {
    static LISTED: OnceLock<Regenerated> = OnceLock::new();
    LISTED.get_or_init(|| {
        regenerate(
            "kubevirt-api-listed-kinds",
            without_paths,
            "\n[kinds]\n\"v1.VirtualMachineInstance\" = \"kubevirt.io/v1\"\n",
        )
    })
}

fn kinds_of<'g>(gates: &'g Value, ty: &str) -> Vec<(&'g str, &'g str, &'g str)> {
    gates["types"][ty]["kinds"]
        .as_array()
        .map(|kinds| {
            kinds
                .iter()
                .map(|gvk| {
                    (
                        gvk["group"].as_str().unwrap_or_default(),
                        gvk["version"].as_str().unwrap(),
                        gvk["kind"].as_str().unwrap(),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn kinds_are_found_from_the_rest_paths_request_bodies() {
    let gates = &kubevirt().gates;
    assert_eq!(
        kinds_of(gates, "v1alpha1.MigrationPolicy"),
        [("migrations.kubevirt.io", "v1alpha1", "MigrationPolicy")]
    );
    assert_eq!(
        kinds_of(gates, "v1.VirtualMachineInstance"),
        [("kubevirt.io", "v1", "VirtualMachineInstance")]
    );
    assert_eq!(
        kinds_of(gates, "v1beta1.VirtualMachineExport"),
        [("export.kubevirt.io", "v1beta1", "VirtualMachineExport")]
    );
    assert_eq!(
        kinds_of(gates, "v1.VirtualMachineExport"),
        [("export.kubevirt.io", "v1", "VirtualMachineExport")]
    );
    // A subresource's body, the lists the collections answer with and the
    // body of a delete are not kinds.
    for not_a_kind in [
        "v1.PauseOptions",
        "v1.VirtualMachineInstanceList",
        "v1alpha1.MigrationPolicyList",
        "k8s.io.apimachinery.pkg.apis.meta.v1.DeleteOptions",
        "k8s.io.apimachinery.pkg.apis.meta.v1.Status",
    ] {
        assert!(
            gates["types"].get(not_a_kind).is_some(),
            "{not_a_kind} is in the fixture"
        );
        assert_eq!(kinds_of(gates, not_a_kind), [], "{not_a_kind}");
    }
    let no_kinds: Vec<&String> = kubevirt()
        .warnings
        .iter()
        .filter(|warning| warning.contains("no kinds"))
        .collect();
    assert!(no_kinds.is_empty(), "{no_kinds:#?}");
}

#[test]
fn each_kind_has_its_schema_pkl_module_and_rust_resource() {
    let out = &kubevirt().out;
    let kind_files: Vec<String> = std::fs::read_dir(out.join("json/v1.9"))
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    for file in [
        "migrationpolicy-migrations-v1alpha1.json",
        "virtualmachineinstance-kubevirt-v1.json",
        "virtualmachineexport-export-v1.json",
    ] {
        assert!(
            kind_files.iter().any(|name| name == file),
            "no json/v1.9/{file}: {kind_files:?}"
        );
    }
    let rust = walk_text(&out.join("rust"));
    assert!(
        rust.contains("impl crate::Resource for VirtualMachineInstance"),
        "no Resource impl for VirtualMachineInstance in generated/kubevirt/rust"
    );
    let pkl = walk_text(&out.join("pkl/v1.9"));
    assert!(
        pkl.contains("kind: \"VirtualMachineInstance\""),
        "no Pkl resource module for VirtualMachineInstance"
    );
}

/// The text of every file below `dir`, concatenated.
fn walk_text(dir: &Path) -> String {
    let mut text = String::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            text.push_str(&walk_text(&path));
        } else if let Ok(file) = std::fs::read_to_string(&path) {
            text.push_str(&file);
        }
    }
    text
}

/// A VirtualMachineInstance whose status has `deviceStatus`, which KubeVirt
/// 1.8 removed.
const REMOVED_FIELD: &str = "apiVersion: kubevirt.io/v1
kind: VirtualMachineInstance
metadata:
  name: vm
  namespace: default
spec: {}
status:
  deviceStatus:
    gpuStatuses: []
";

fn check_document(api: &Path, target: &str, document: &str) -> std::process::Output {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("vmi.yaml");
    std::fs::write(&file, document).unwrap();
    vergate(&[
        "check",
        "--api",
        api.to_str().unwrap(),
        "--target",
        target,
        file.to_str().unwrap(),
    ])
}

#[test]
fn check_catches_a_field_a_release_removed() {
    let out = &kubevirt().out;
    let before = check_document(out, "1.7", REMOVED_FIELD);
    assert_eq!(code(&before), 0, "{}{}", stdout(&before), stderr(&before));
    let after = check_document(out, "1.8", REMOVED_FIELD);
    assert_eq!(code(&after), 1, "{}{}", stdout(&after), stderr(&after));
    assert!(
        stdout(&after).contains("status.deviceStatus: not available in 1.8"),
        "{}",
        stdout(&after)
    );
}

#[test]
fn every_json_schema_is_valid_with_kinds_and_without() {
    for regenerated in [kubevirt(), kubevirt_without_paths()] {
        for minor in ["v1.7", "v1.8", "v1.9"] {
            let path = regenerated.out.join("json").join(minor).join("all.json");
            let schema: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
            check::check_meta(&path.display().to_string(), &schema);
        }
    }
}

#[test]
fn an_api_without_kinds_is_warned_about_at_regen() {
    let bare = kubevirt_without_paths();
    assert!(bare.gates["types"]["v1.VirtualMachineInstance"]["kinds"].is_null());
    let warning = bare
        .warnings
        .iter()
        .find(|warning| warning.contains("no kinds"))
        .unwrap_or_else(|| panic!("no warning about kinds: {:#?}", bare.warnings));
    assert!(warning.contains("api.toml"), "{warning}");
    assert!(
        warning.contains("x-kubernetes-group-version-kind"),
        "{warning}"
    );
}

#[test]
fn check_refuses_an_api_without_kinds() {
    let out = &kubevirt_without_paths().out;
    let refused = check_document(out, "1.8", REMOVED_FIELD);
    assert_eq!(
        code(&refused),
        2,
        "{}{}",
        stdout(&refused),
        stderr(&refused)
    );
    let message = stderr(&refused);
    assert!(message.contains("gates.json"), "{message}");
    assert!(message.contains("no kinds"), "{message}");
    assert!(message.contains("api.toml"), "{message}");
}

#[test]
fn kinds_listed_in_api_toml_stand_in_for_the_paths() {
    let listed = kubevirt_with_listed_kinds();
    assert_eq!(
        kinds_of(&listed.gates, "v1.VirtualMachineInstance"),
        [("kubevirt.io", "v1", "VirtualMachineInstance")]
    );
    assert_eq!(kinds_of(&listed.gates, "v1alpha1.MigrationPolicy"), []);
    assert!(
        !listed
            .warnings
            .iter()
            .any(|warning| warning.contains("no kinds")),
        "{:#?}",
        listed.warnings
    );
    let after = check_document(&listed.out, "1.8", REMOVED_FIELD);
    assert_eq!(code(&after), 1, "{}{}", stdout(&after), stderr(&after));
    assert!(stdout(&after).contains("status.deviceStatus: not available in 1.8"));
}
