//! A regen whose inputs, tool and outputs are untouched does nothing; any
//! change to a spec, api.toml, the annotations or an output file makes it run.

mod support;

use std::path::Path;
use vergate_codegen::api::Api;
use vergate_codegen::regen::{regen_unless_fresh, Outcome};

fn ran(api_dir: &Path, out: &Path) -> bool {
    let api = Api::open(api_dir).unwrap();
    matches!(regen_unless_fresh(&api, out).unwrap(), Outcome::Ran(..))
}

/// Moves a file's mtime forward, as an edit would.
fn touch(path: &Path) {
    let file = std::fs::File::options().append(true).open(path).unwrap();
    let later =
        std::fs::metadata(path).unwrap().modified().unwrap() + std::time::Duration::from_secs(5);
    file.set_modified(later).unwrap();
}

#[test]
fn only_a_change_makes_regen_run() {
    let tmp = tempfile::tempdir().unwrap();
    let api_dir = tmp.path().join("demo");
    support::copy_dir(&support::root().join("upstream-specs/demo"), &api_dir);
    let out = tmp.path().join("out");

    assert!(ran(&api_dir, &out), "the first regen runs");
    assert!(!ran(&api_dir, &out), "nothing changed");

    touch(&api_dir.join("v1.10/openapi.yaml"));
    assert!(ran(&api_dir, &out), "a spec was touched");
    assert!(!ran(&api_dir, &out));

    touch(&api_dir.join("annotations.rs"));
    assert!(ran(&api_dir, &out), "the annotations were touched");

    let gates = out.join("gates.json");
    let original = std::fs::read(&gates).unwrap();
    std::fs::write(&gates, b"{}").unwrap();
    assert!(ran(&api_dir, &out), "an output was edited by hand");
    assert_eq!(std::fs::read(&gates).unwrap(), original, "and is restored");

    std::fs::remove_file(out.join("json/v1.9/index.json")).unwrap();
    assert!(ran(&api_dir, &out), "an output was deleted");
    assert!(out.join("json/v1.9/index.json").is_file());
    assert!(!ran(&api_dir, &out));
}
