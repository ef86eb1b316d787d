//! When a new minor lands: regen with v1.28–v1.35, add v1.36, regen again.
//! Only new files, gates.json and files whose gates changed may differ;
//! unchanged files keep their bytes and mtime; the result equals a full regen;
//! a further regen writes nothing.

mod support;

use std::collections::BTreeMap;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use vergate_codegen::api::Api;
use vergate_codegen::output::{sync, Mode};
use vergate_codegen::regen;

/// (inode, mtime) of every file below `dir`.
fn stamps(dir: &Path) -> BTreeMap<PathBuf, (u64, i64, i64)> {
    let mut found = BTreeMap::new();
    let mut pending = vec![dir.to_owned()];
    while let Some(current) = pending.pop() {
        for entry in std::fs::read_dir(&current).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                pending.push(path);
            } else {
                let meta = std::fs::metadata(&path).unwrap();
                found.insert(
                    path.strip_prefix(dir).unwrap().to_owned(),
                    (meta.ino(), meta.mtime(), meta.mtime_nsec()),
                );
            }
        }
    }
    found
}

#[test]
#[cfg_attr(
    not(vergate_kubernetes_specs),
    ignore = "needs the Kubernetes specs: ../shared/upstream-specs/kubernetes or VERGATE_KUBERNETES_SPECS"
)]
fn adding_v1_36_rewrites_only_what_changed() {
    let specs = support::kubernetes_specs();
    let minors = &support::KUBERNETES_MINORS;
    let api_dir = support::api_dir_with_specs("kubernetes", &specs, &minors[..8]);
    let out = tempfile::tempdir().unwrap();
    let out_dir = out.path().join("kubernetes");

    let api = Api::open(api_dir.path()).unwrap();
    let (_, first) = regen::regen(&api, &out_dir, Mode::Write).unwrap();
    assert!(first.changed.is_empty() && first.removed.is_empty());
    let before = stamps(&out_dir);
    let old_bytes: BTreeMap<PathBuf, Vec<u8>> = before
        .keys()
        .map(|p| (p.clone(), std::fs::read(out_dir.join(p)).unwrap()))
        .collect();

    std::os::unix::fs::symlink(specs.join("v1.36"), api_dir.path().join("v1.36")).unwrap();
    let api = Api::open(api_dir.path()).unwrap();
    let (built, report) = regen::regen(&api, &out_dir, Mode::Write).unwrap();
    assert!(
        report.removed.is_empty(),
        "adding a minor removes nothing: {:?}",
        report.removed
    );
    for path in &report.added {
        // 1.36's own files, or in an older minor's Pkl package the module
        // of a kind 1.36 brings, which fails on use saying so.
        let shown = path.display().to_string();
        let text = String::from_utf8_lossy(built.tree.get(path).unwrap());
        assert!(
            shown.contains("1.36") || shown.contains("1_36") || text.contains("introduced in 1.36"),
            "{shown} was added but is not 1.36's"
        );
    }
    assert!(report.changed.iter().any(|p| p == Path::new("gates.json")));

    // Every changed file changed because of 1.36: its new text mentions it.
    for path in &report.changed {
        let text = String::from_utf8_lossy(built.tree.get(path).unwrap());
        assert!(
            text.contains("1.36") || text.contains("1_36"),
            "{} changed but says nothing about 1.36",
            path.display()
        );
    }
    // Unchanged files were not rewritten: same inode, same mtime.
    let after = stamps(&out_dir);
    let mut kept = 0;
    for (path, stamp) in &before {
        if !report.changed.contains(path) {
            assert_eq!(
                after.get(path),
                Some(stamp),
                "{} was rewritten",
                path.display()
            );
            assert_eq!(std::fs::read(out_dir.join(path)).unwrap(), old_bytes[path]);
            kept += 1;
        }
    }
    assert_eq!(kept + report.changed.len(), before.len());

    // The result equals a full regen of the nine minors, and a regen after it is a no-op.
    let full = regen::build(&api).unwrap();
    assert!(sync(&full.tree, &out_dir, Mode::Check).unwrap().is_clean());
    let (_, again) = regen::regen(&api, &out_dir, Mode::Write).unwrap();
    assert!(again.is_clean());
    assert_eq!(stamps(&out_dir), after, "a no-op regen touches nothing");
}
