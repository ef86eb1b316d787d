//! `cargo xtask publish`: the Pkl package (by the real pkl CLI), each minor's
//! subtree and the JSON trees, reproducibly, with checksums that match.

mod pkl;
mod support;

use std::collections::BTreeMap;
use std::path::Path;
use vergate_codegen::api::sha256_hex;
use vergate_codegen::publish::publish;

fn read_all(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut files = BTreeMap::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            for (name, bytes) in read_all(&path) {
                files.insert(
                    format!("{}/{name}", path.file_name().unwrap().to_string_lossy()),
                    bytes,
                );
            }
        } else {
            files.insert(
                path.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read(&path).unwrap(),
            );
        }
    }
    files
}

#[test]
#[cfg_attr(
    not(vergate_pkl),
    ignore = "needs the pkl CLI: target/tools (see .ci/run) or VERGATE_PKL"
)]
fn publishing_twice_gives_identical_archives_with_matching_checksums() {
    let pkl = pkl::pkl();
    let binary = pkl.binary();
    let generated = support::root().join("generated/demo");
    let tmp = tempfile::tempdir().unwrap();
    let first = publish(&generated, &tmp.path().join("a"), binary).unwrap();
    let second = publish(&generated, &tmp.path().join("b"), binary).unwrap();
    assert_eq!(first, second);
    let (a, b) = (
        read_all(&tmp.path().join("a")),
        read_all(&tmp.path().join("b")),
    );
    assert_eq!(a, b, "publishing twice gives byte-identical artifacts");

    // The checksum manifest covers every artifact, with the right digests.
    let sums = String::from_utf8(a["SHA256SUMS"].clone()).unwrap();
    assert_eq!(sums.lines().count(), a.len() - 1);
    for line in sums.lines() {
        let (digest, name) = line.split_once("  ").unwrap();
        assert_eq!(digest, sha256_hex(&a[name]), "{name}");
    }

    // Pkl's own metadata carries the package zip's sha256; ours does the same per minor.
    let package: serde_json::Value = serde_json::from_slice(&a["pkl/shipyard@1.12.0"]).unwrap();
    assert_eq!(
        package["packageZipChecksums"]["sha256"],
        sha256_hex(&a["pkl/shipyard@1.12.0.zip"])
    );
    assert_eq!(
        package["packageUri"],
        "package://pkg.vergate.invalid/shipyard@1.12.0"
    );
    // Each minor is a package of its own, made by `pkl project package`.
    for minor in ["v1.9", "v1.10", "v1.11", "v1.12"] {
        let version = format!("{}.0", minor.trim_start_matches('v'));
        let stem = format!("pkl/shipyard-{minor}@{version}");
        let metadata: serde_json::Value = serde_json::from_slice(&a[&stem]).unwrap();
        assert_eq!(
            metadata["packageZipChecksums"]["sha256"],
            sha256_hex(&a[&format!("{stem}.zip")])
        );
        assert_eq!(
            metadata["packageUri"],
            format!("package://pkg.vergate.invalid/shipyard-{minor}@{version}")
        );
        assert!(
            a.contains_key(&format!("json/{minor}.tar.gz"))
                && a.contains_key(&format!("json/{minor}-strict.tar.gz"))
        );
    }
    assert!(a.contains_key("json/shipyard.schema.json"));
    assert!(a.contains_key("json/openapi.tar.gz"));
}

#[test]
fn a_missing_tree_says_to_regenerate() {
    let tmp = tempfile::tempdir().unwrap();
    let err = publish(tmp.path(), &tmp.path().join("out"), Path::new("pkl"))
        .unwrap_err()
        .to_string();
    assert!(err.contains("run `cargo xtask regen` first"), "{err}");
}
