//! Helpers shared by the integration tests.
#![allow(dead_code)]

pub mod capped;
pub mod cli;
pub mod inputs;

use inputs::Input;
use std::path::{Path, PathBuf};

/// The repository root.
pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// `cargo` for a test's harness crate (a generated crate built under
/// `target/generated/`): with its own target directory given by the caller,
/// and without debug info or incremental artifacts, which no test reads. For
/// the nine-minor Kubernetes harness, that is about a quarter less build
/// time and a fifth of the disk (565 s / 2.8 GB against 416 s / 0.6 GB cold).
pub fn harness_cargo() -> std::process::Command {
    let mut cargo = std::process::Command::new(env!("CARGO"));
    cargo
        .env("CARGO_PROFILE_DEV_DEBUG", "false")
        .env("CARGO_INCREMENTAL", "0")
        .env_remove("CARGO_TARGET_DIR");
    cargo
}

/// The real Kubernetes specs (`../shared/upstream-specs/kubernetes`, or
/// `$VERGATE_KUBERNETES_SPECS`); fails the test, naming the fix, without
/// them. A test that calls it carries
/// `#[cfg_attr(not(vergate_kubernetes_specs), ignore = "<its reason>")]`.
pub fn kubernetes_specs() -> PathBuf {
    Input::kubernetes_specs(root()).require()
}

/// The Kubernetes output `generated/kubernetes/`; fails the test, naming the
/// fix, without it. A test that calls it carries
/// `#[cfg_attr(not(vergate_kubernetes_output), ignore = "<its reason>")]`.
pub fn kubernetes_output() -> PathBuf {
    Input::kubernetes_output(root()).require()
}

/// A checkout of apple/pkl-k8s (`$PKL_K8S`); fails the test, naming the
/// fix, without it. A test that calls it carries
/// `#[cfg_attr(not(vergate_pkl_k8s), ignore = "<its reason>")]`.
pub fn pkl_k8s_checkout() -> PathBuf {
    Input::pkl_k8s(root()).require()
}

/// A checkout of apple/pkl-pantry (`$PKL_PANTRY`); fails the test, naming
/// the fix, without it. A test that calls it carries
/// `#[cfg_attr(not(vergate_pkl_pantry), ignore = "<its reason>")]`.
pub fn pkl_pantry_checkout() -> PathBuf {
    Input::pkl_pantry(root()).require()
}

/// The Docker Engine API specs (`../shared/upstream-specs/docker`, or
/// `$VERGATE_DOCKER_SPECS`); fails the test, naming the fix, without them.
/// A test that calls it carries
/// `#[cfg_attr(not(vergate_docker_specs), ignore = "<its reason>")]`.
pub fn docker_specs() -> PathBuf {
    Input::docker_specs(root()).require()
}

/// openapi-spec-validator; fails the test, naming the fix, without it. A
/// test that calls it carries
/// `#[cfg_attr(not(vergate_openapi_spec_validator), ignore = "<its reason>")]`.
pub fn openapi_spec_validator() -> PathBuf {
    Input::openapi_spec_validator(root()).require()
}

/// pytest with pytest-lsp (`target/venv-openapi/bin/pytest`, or
/// `$VERGATE_PYTEST`); fails the test, naming the fix, without it. A test
/// that calls it carries `#[cfg_attr(not(vergate_pytest_lsp), ignore =
/// "<its reason>")]`.
pub fn pytest_lsp() -> PathBuf {
    Input::pytest_lsp(root()).require()
}

/// kubectl-validate's own test documents (the Go module's `testcases/`,
/// linked by `.ci/run`, or `$VERGATE_KUBECTL_VALIDATE_TESTCASES`); fails the
/// test, naming the fix, without them. A test that calls it carries
/// `#[cfg_attr(not(vergate_kubectl_validate_testcases), ignore = "<its reason>")]`.
pub fn kubectl_validate_testcases() -> PathBuf {
    Input::kubectl_validate_testcases(root()).require()
}

/// The real CRDs (`../shared/crds`, or `$VERGATE_CRDS`); fails the test,
/// naming the fix, without them. A test that calls it carries
/// `#[cfg_attr(not(vergate_crds), ignore = "<its reason>")]`.
pub fn crds() -> PathBuf {
    Input::crds(root()).require()
}

/// The YAML test suite's `data/` directory; fails the test, naming the fix,
/// without it. A test that calls it carries
/// `#[cfg_attr(not(vergate_yaml_test_suite), ignore = "<its reason>")]`.
pub fn yaml_test_suite() -> PathBuf {
    Input::yaml_test_suite(root()).require()
}

/// yaml-language-server's script; fails the test, naming the fix, without
/// it. A test that calls it carries
/// `#[cfg_attr(not(vergate_yaml_language_server), ignore = "<its reason>")]`.
pub fn yaml_language_server() -> PathBuf {
    Input::yaml_language_server(root()).require()
}

/// An API directory in a temporary place: the project's api.toml for `api`
/// plus links to each `v<X.Y>` directory of `specs`.
pub fn api_dir_with_specs(api: &str, specs: &Path, minors: &[&str]) -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::copy(
        root().join("upstream-specs").join(api).join("api.toml"),
        tmp.path().join("api.toml"),
    )
    .unwrap();
    for minor in minors {
        std::os::unix::fs::symlink(specs.join(minor), tmp.path().join(minor)).unwrap();
    }
    // The fact tables api.toml records sit beside the minors in a mirror.
    for table in vergate_codegen::api::FactTable::ALL {
        let dir = specs.join(table.dir_name());
        if dir.is_dir() {
            std::os::unix::fs::symlink(&dir, tmp.path().join(table.dir_name())).unwrap();
        }
    }
    tmp
}

#[allow(unused_imports)]
pub use inputs::KUBERNETES_MINORS;

/// The gates.json a regen of the whole Kubernetes corpus at `specs` writes
/// (what users read), built once per test binary.
pub fn kubernetes_corpus_gates(specs: &Path) -> &'static vergate::gates::GatesIndex {
    static INDEX: std::sync::OnceLock<vergate::gates::GatesIndex> = std::sync::OnceLock::new();
    INDEX.get_or_init(|| {
        let api_dir = api_dir_with_specs("kubernetes", specs, &KUBERNETES_MINORS);
        let api = vergate_codegen::api::Api::open(api_dir.path()).unwrap();
        let built = vergate_codegen::regen::build(&api).unwrap_or_else(|err| panic!("{err}"));
        let text = built.tree.get("gates.json").expect("gates.json is emitted");
        serde_json::from_slice(text).unwrap()
    })
}

/// Copies a directory tree.
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let target = to.join(path.file_name().unwrap());
        if path.is_dir() {
            copy_dir(&path, &target);
        } else {
            std::fs::copy(&path, &target).unwrap();
        }
    }
}
