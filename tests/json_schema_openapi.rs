//! The OpenAPI 3.1 exports judged by a real OpenAPI validator,
//! `openapi-spec-validator` (PyPI; `.ci/run` installs it and sets
//! `VERGATE_OPENAPI_SPEC_VALIDATOR`): the demo's four minors and one
//! Kubernetes minor.

#[path = "json_schema/check.rs"]
mod check;
mod support;

use std::path::Path;
use std::process::Command;
use vergate_codegen::api::Api;

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
#[cfg_attr(
    not(vergate_openapi_spec_validator),
    ignore = "needs openapi-spec-validator: target/venv-openapi (see .ci/run) or VERGATE_OPENAPI_SPEC_VALIDATOR"
)]
fn demo_exports_are_valid_openapi_3_1() {
    let validator = support::openapi_spec_validator();
    let api = Api::open(&support::root().join("upstream-specs/demo")).unwrap();
    assert_eq!(validate_exports(&validator, &api, None), 4);
}

#[test]
#[cfg_attr(
    not(all(vergate_kubernetes_specs, vergate_openapi_spec_validator)),
    ignore = "needs the Kubernetes specs: ../shared/upstream-specs/kubernetes or VERGATE_KUBERNETES_SPECS; needs openapi-spec-validator: target/venv-openapi (see .ci/run) or VERGATE_OPENAPI_SPEC_VALIDATOR"
)]
fn a_kubernetes_export_is_valid_openapi_3_1() {
    let validator = support::openapi_spec_validator();
    let specs = support::kubernetes_specs();
    let dir = support::api_dir_with_specs("kubernetes", &specs, &["v1.36"]);
    let api = Api::open(dir.path()).unwrap();
    assert_eq!(validate_exports(&validator, &api, Some("v1.36.json")), 1);
}
