//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// The repository root.
pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The real Kubernetes specs beside the project (`../shared/upstream-specs/kubernetes`,
/// or `$VERGATE_KUBERNETES_SPECS`). Returns `None` on a machine without them,
/// after saying so loudly; under CI (`CI` set) their absence fails the test.
pub fn kubernetes_specs(test: &str) -> Option<PathBuf> {
    let dir = std::env::var_os("VERGATE_KUBERNETES_SPECS")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("../shared/upstream-specs/kubernetes"));
    if dir.join("v1.28/swagger.json").is_file() {
        return Some(dir);
    }
    let message = format!(
        "{test}: the Kubernetes specs are not at {} (set VERGATE_KUBERNETES_SPECS); this test did NOT run",
        dir.display()
    );
    if std::env::var_os("CI").is_some() {
        panic!("{message}; CI must have them");
    }
    eprintln!("\n!!!!!!!! SKIPPED !!!!!!!! {message}\n");
    None
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
    tmp
}

/// The Kubernetes minors of the reference corpus.
pub const KUBERNETES_MINORS: [&str; 9] = [
    "v1.28", "v1.29", "v1.30", "v1.31", "v1.32", "v1.33", "v1.34", "v1.35", "v1.36",
];

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
