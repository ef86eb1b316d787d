//! The runtime's Pkl side on the generated demo package (`generated/demo/pkl`),
//! judged by the real `pkl` CLI: discovery, resolution, the local swap of a
//! user project's dependency, and the narrowed import globs.

mod pkl;
mod support;

use serde_json::Value;
use std::collections::BTreeMap;
use vergate::globs::import_globs;
use vergate::local_swap::{swap_versioned_deps_to_local, LocalInstall, SchemaLocation};
use vergate::manifest::SchemaManifest;
use vergate::resolve::{resolve_schema_versions, Package, Resolution, Target};
use vergate::Version;

const PUBLISHED: &str = r#"amends "pkl:Project"

dependencies {
  ["shipyard"] { uri = "package://pkg.vergate.invalid/shipyard@1.12.0" }
}
"#;

#[test]
#[cfg_attr(
    not(vergate_pkl),
    ignore = "needs the pkl CLI: target/tools (see .ci/run) or VERGATE_PKL"
)]
fn a_local_run_resolves_swaps_and_narrows_to_the_chosen_minor() {
    let package_dir = pkl::root()
        .join("generated/demo/pkl")
        .canonicalize()
        .unwrap();
    let manifest = SchemaManifest::discover(&package_dir).unwrap().unwrap();
    assert_eq!(manifest.dir_names(), ["v1.9", "v1.10", "v1.11", "v1.12"]);
    assert_eq!(manifest.default_version(), Version::new(1, 12));

    let targets = [Target {
        label: "staging".into(),
        namespace: "SHIPYARD".into(),
        config: serde_json::json!({ "shipyardVersion": "1.11" }),
    }];
    let mut packages = BTreeMap::new();
    packages.insert(
        "SHIPYARD".to_owned(),
        Package {
            version_field: Some("shipyardVersion".into()),
            manifest: Some(manifest),
        },
    );
    let versions = resolve_schema_versions(&targets, &packages).unwrap();
    let version = versions["SHIPYARD"].version().unwrap();
    assert!(matches!(
        versions["SHIPYARD"],
        Resolution::FromConfig { .. }
    ));

    let globs = import_globs("shipyard", &package_dir, Some(version)).unwrap();
    assert_eq!(
        globs,
        [
            "@shipyard/*.pkl",
            "@shipyard/examples/**/*.pkl",
            "@shipyard/v1.11/**/*.pkl"
        ]
    );

    let mut installs = BTreeMap::new();
    installs.insert(
        "SHIPYARD".to_owned(),
        LocalInstall {
            package: "shipyard".into(),
            dir: package_dir.clone(),
        },
    );
    let remote =
        swap_versioned_deps_to_local(PUBLISHED, &versions, &installs, SchemaLocation::Remote)
            .unwrap();
    assert_eq!(remote.text, PUBLISHED);
    let local =
        swap_versioned_deps_to_local(PUBLISHED, &versions, &installs, SchemaLocation::Local)
            .unwrap();
    assert_eq!(local.swapped, ["shipyard"]);

    let pkl = pkl::pkl();
    let project = tempfile::tempdir().unwrap();
    // The published URI is unreachable: resolving only works because the swap
    // pointed the dependency at the local install.
    std::fs::write(project.path().join("PklProject"), &local.text).unwrap();
    pkl.resolve(project.path());
    // The root files and the chosen subtree, as the imports generator uses them
    // (examples/ is left out: it is excluded from the package and has its own project).
    let used: Vec<&String> = globs.iter().filter(|g| !g.contains("examples")).collect();
    let mut module = String::new();
    for (index, glob) in used.iter().enumerate() {
        module.push_str(&format!("local g{index} = import*(\"{glob}\")\n"));
    }
    let keys: Vec<String> = (0..used.len())
        .map(|i| format!("g{i}.keys.toList()"))
        .collect();
    module.push_str(&format!("modules = {}\n", keys.join(" + ")));
    std::fs::write(project.path().join("narrowed.pkl"), module).unwrap();
    let json: Value =
        serde_json::from_str(&pkl.eval_json(project.path(), &["narrowed.pkl"])).unwrap();
    let modules: Vec<&str> = json["modules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert!(modules.contains(&"@shipyard/target.pkl"), "{modules:?}");
    assert!(
        modules.contains(&"@shipyard/v1.11/build/Pipeline.pkl"),
        "{modules:?}"
    );
    for module in &modules {
        let in_root = module.matches('/').count() == 1;
        assert!(
            in_root || module.starts_with("@shipyard/v1.11/"),
            "{module} is outside the root and v1.11: {modules:?}"
        );
    }
}
