//! `vergate upgrade` on many files: every file given or found in a
//! directory converts (`--out DIR` mirrors the tree, `--in-place`
//! overwrites), or the command refuses with exit 2 and writes nothing.

mod support;

use std::path::{Path, PathBuf};
use support::cli::{code, stderr, stdout, vergate};

const DEMO: &str = "generated/demo";

/// A tree of demo documents that all upgrade to 1.12, a values file that
/// is no manifest, and (when `refused`) pipeline.yaml, which 1.12 refuses.
fn tree(refused: bool) -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("in");
    let demo = support::root().join("tests/cli/demo");
    for (from, to) in [
        ("triggers.yaml", "a/triggers.yaml"),
        ("notify.yaml", "b/c/notify.yaml"),
        ("release.yaml", "release.yaml"),
    ] {
        let to = input.join(to);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(demo.join(from), to).unwrap();
    }
    std::fs::write(input.join("values.yaml"), "replicas: 3\nimage: web\n").unwrap();
    if refused {
        std::fs::copy(demo.join("pipeline.yaml"), input.join("a/pipeline.yaml")).unwrap();
    }
    (tmp, input)
}

/// What `upgrade --to 1.12 FILE` prints for one file.
fn upgraded_alone(file: &Path) -> String {
    let out = vergate(&[
        "upgrade",
        "--api",
        DEMO,
        "--to",
        "1.12",
        file.to_str().unwrap(),
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    stdout(&out)
}

/// Every file below `dir`, relative, sorted.
fn files(dir: &Path) -> Vec<String> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(at) = stack.pop() {
        for entry in std::fs::read_dir(&at).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                found.push(path.strip_prefix(dir).unwrap().display().to_string());
            }
        }
    }
    found.sort();
    found
}

#[test]
fn a_directory_without_a_destination_is_refused_naming_why() {
    let (_tmp, input) = tree(false);
    let out = vergate(&[
        "upgrade",
        "--api",
        DEMO,
        "--to",
        "1.12",
        input.to_str().unwrap(),
    ]);
    assert_eq!(code(&out), 2);
    assert_eq!(stdout(&out), "", "nothing written");
    let expected = format!(
        "error: refusing to upgrade {} (4 files): standard output takes one input; pass --out DIR",
        input.display()
    );
    assert!(stderr(&out).starts_with(&expected), "{}", stderr(&out));
    // Several files named: the same.
    let a = input.join("release.yaml");
    let b = input.join("a/triggers.yaml");
    let out = vergate(&[
        "upgrade",
        "--api",
        DEMO,
        "--to",
        "1.12",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
    ]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("refusing to upgrade 2 files"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn out_mirrors_the_tree_and_every_file_converts() {
    let (tmp, input) = tree(false);
    let out_dir = tmp.path().join("out");
    let out = vergate(&[
        "upgrade",
        "--api",
        DEMO,
        "--to",
        "1.12",
        "--out",
        out_dir.to_str().unwrap(),
        input.to_str().unwrap(),
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(
        stderr(&out).contains("values.yaml: note: skipped: not a manifest"),
        "{}",
        stderr(&out)
    );
    assert!(stderr(&out).ends_with(&format!("upgraded 3 files into {}\n", out_dir.display())));
    assert_eq!(
        files(&out_dir),
        ["a/triggers.yaml", "b/c/notify.yaml", "release.yaml"]
    );
    for file in files(&out_dir) {
        assert_eq!(
            std::fs::read_to_string(out_dir.join(&file)).unwrap(),
            upgraded_alone(&input.join(&file)),
            "{file}"
        );
    }
    // triggers.yaml is its input with the version replaced, comments kept.
    let triggers = std::fs::read_to_string(out_dir.join("a/triggers.yaml")).unwrap();
    let input = std::fs::read_to_string(input.join("a/triggers.yaml")).unwrap();
    assert_eq!(
        triggers,
        input.replace("apiVersion: \"1.10\"", "apiVersion: \"1.12\""),
    );
}

#[test]
fn in_place_rewrites_every_file() {
    let (_tmp, input) = tree(false);
    let before = std::fs::read_to_string(input.join("b/c/notify.yaml")).unwrap();
    let expected = upgraded_alone(&input.join("b/c/notify.yaml"));
    let out = vergate(&[
        "upgrade",
        "--api",
        DEMO,
        "--to",
        "1.12",
        "--in-place",
        input.to_str().unwrap(),
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let after = std::fs::read_to_string(input.join("b/c/notify.yaml")).unwrap();
    assert_ne!(after, before);
    assert_eq!(after, expected);
    for file in ["a/triggers.yaml", "release.yaml"] {
        let text = std::fs::read_to_string(input.join(file)).unwrap();
        assert!(text.contains("apiVersion: \"1.12\""), "{file}: {text}");
    }
    assert_eq!(
        std::fs::read_to_string(input.join("values.yaml")).unwrap(),
        "replicas: 3\nimage: web\n",
        "a file that is no manifest is left alone"
    );
}

#[test]
fn one_refused_file_writes_nothing() {
    let (tmp, input) = tree(true);
    let out_dir = tmp.path().join("out");
    let out = vergate(&[
        "upgrade",
        "--api",
        DEMO,
        "--to",
        "1.12",
        "--out",
        out_dir.to_str().unwrap(),
        input.to_str().unwrap(),
    ]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("error: 1 of 5 files cannot be upgraded (above); nothing written"),
        "{}",
        stderr(&out)
    );
    assert!(
        stderr(&out).contains("pipeline.yaml:8: error: spec.retries"),
        "{}",
        stderr(&out)
    );
    assert!(!out_dir.exists(), "nothing written");
    let before = std::fs::read_to_string(input.join("release.yaml")).unwrap();
    let out = vergate(&[
        "upgrade",
        "--api",
        DEMO,
        "--to",
        "1.12",
        "--in-place",
        input.to_str().unwrap(),
    ]);
    assert_eq!(code(&out), 2);
    assert_eq!(
        std::fs::read_to_string(input.join("release.yaml")).unwrap(),
        before
    );
}

#[test]
fn out_never_overwrites_an_input_nor_writes_two_inputs_to_one_file() {
    let (tmp, input) = tree(false);
    let out = vergate(&[
        "upgrade",
        "--api",
        DEMO,
        "--to",
        "1.12",
        "--out",
        input.to_str().unwrap(),
        input.to_str().unwrap(),
    ]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("would overwrite the input"),
        "{}",
        stderr(&out)
    );
    let twin = tmp.path().join("twin");
    std::fs::create_dir_all(&twin).unwrap();
    std::fs::copy(input.join("release.yaml"), twin.join("release.yaml")).unwrap();
    let out_dir = tmp.path().join("out");
    let out = vergate(&[
        "upgrade",
        "--api",
        DEMO,
        "--to",
        "1.12",
        "--out",
        out_dir.to_str().unwrap(),
        input.join("release.yaml").to_str().unwrap(),
        twin.join("release.yaml").to_str().unwrap(),
    ]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("would both be written to"),
        "{}",
        stderr(&out)
    );
    assert!(!out_dir.exists());
}
