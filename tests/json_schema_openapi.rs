//! The OpenAPI 3.1 exports judged by a real OpenAPI validator,
//! `openapi-spec-validator` (PyPI; `.ci/run` installs it and sets
//! `VERGATE_OPENAPI_SPEC_VALIDATOR`): the demo's four minors and one
//! Kubernetes minor.

#[path = "json_schema/check.rs"]
mod check;
mod support;

use std::path::{Path, PathBuf};
use std::process::Command;
use vergate_codegen::api::Api;

/// The validator's command, or `None` (said loudly) when it is not installed;
/// under CI its absence fails the test.
fn validator(test: &str) -> Option<PathBuf> {
    let candidate = std::env::var_os("VERGATE_OPENAPI_SPEC_VALIDATOR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("openapi-spec-validator"));
    let works = Command::new(&candidate)
        .arg("--help")
        .output()
        .is_ok_and(|output| output.status.success());
    if works {
        return Some(candidate);
    }
    let message = format!(
        "{test}: {} is not installed (pip install openapi-spec-validator, or set \
         VERGATE_OPENAPI_SPEC_VALIDATOR); this test did NOT run",
        candidate.display()
    );
    if std::env::var_os("CI").is_some() {
        panic!("{message}; CI must have it");
    }
    eprintln!("\n!!!!!!!! SKIPPED !!!!!!!! {message}\n");
    None
}

/// Writes the tree's OpenAPI exports below `dir` and validates each.
fn validate_exports(validator: &Path, api: &Api, only: Option<&str>) -> usize {
    let tree = check::emit(api);
    let dir = tempfile::tempdir().unwrap();
    let mut checked = 0;
    for (path, bytes) in tree.iter() {
        let name = path.to_string_lossy();
        let Some(file) = name.strip_prefix("json/openapi/") else {
            continue;
        };
        if only.is_some_and(|only| only != file) {
            continue;
        }
        let written = dir.path().join(file);
        std::fs::write(&written, bytes).unwrap();
        let output = Command::new(validator).arg(&written).output().unwrap();
        assert!(
            output.status.success(),
            "{name} is not valid OpenAPI 3.1:\n{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        checked += 1;
    }
    checked
}

#[test]
fn demo_exports_are_valid_openapi_3_1() {
    let Some(validator) = validator("demo_exports_are_valid_openapi_3_1") else {
        return;
    };
    let api = Api::open(&support::root().join("upstream-specs/demo")).unwrap();
    assert_eq!(validate_exports(&validator, &api, None), 4);
}

#[test]
fn a_kubernetes_export_is_valid_openapi_3_1() {
    let Some(validator) = validator("a_kubernetes_export_is_valid_openapi_3_1") else {
        return;
    };
    let Some(specs) = support::kubernetes_specs("a_kubernetes_export_is_valid_openapi_3_1") else {
        return;
    };
    let dir = support::api_dir_with_specs("kubernetes", &specs, &["v1.36"]);
    let api = Api::open(dir.path()).unwrap();
    assert_eq!(validate_exports(&validator, &api, Some("v1.36.json")), 1);
}
