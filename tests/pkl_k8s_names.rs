//! #34: every public name of apple/pkl-k8s's package is in each minor's
//! package of vergate, or listed with the reason in
//! `tests/pkl/pkl_k8s_names.txt`.
//!
//! A name is a module path (`api/core/v1/Service.pkl`) or what a module
//! declares (`typealias`, `class`, `function`, a property), its own or
//! inherited through `extends`. For each minor, a pkl-k8s name that is
//! missing is accepted when: its module is a kind the minor does not serve
//! (the module explains itself, #34's absent kinds); another minor's
//! package has it (a class or field of another minor); or the list names
//! it. A listed name that every minor has is stale and fails the test.
//!
//! Needs a checkout of apple/pkl-k8s (its `generated-package/`), named by
//! `PKL_K8S` as for `xtask/bench/pkl.sh` (or at `target/peers/pkl-k8s`);
//! without it the test is ignored, CI included (`support::inputs`):
//!
//! ```text
//! PKL_K8S=<checkout> cargo test --test pkl_k8s_names
//! ```

mod support;

use regex::Regex;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

/// A top-level `typealias`, `class` or `function`, with its modifiers.
static MEMBER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?m)^((?:local |open |abstract |external |const |hidden |fixed )*)(?:typealias|class|function)\s+`?([A-Za-z_$][\w$]*)",
    )
    .unwrap()
});

/// A top-level property, with its modifiers.
static PROPERTY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?m)^((?:local |hidden |fixed |abstract )*)`?([A-Za-z_$][\w$]*)`?\s*:").unwrap()
});

/// The module a module extends.
static EXTENDS: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#"(?m)^extends "([^"]+)""#).unwrap());

const LISTED: &str = include_str!("pkl/pkl_k8s_names.txt");

/// Every `.pkl` module below `root`, by path relative to it.
fn modules(root: &Path) -> BTreeMap<String, PathBuf> {
    let mut out = BTreeMap::new();
    let mut stack = vec![root.to_owned()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "pkl") {
                let relative = path
                    .strip_prefix(root)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                out.insert(relative, path);
            }
        }
    }
    out
}

/// The names `path` declares at its top level, with those of the modules
/// it extends (`extends "…"`, pkl-k8s's `.../` included). `local` members
/// are not public.
fn declared(path: &Path) -> BTreeSet<String> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut names: BTreeSet<String> = MEMBER
        .captures_iter(&text)
        .chain(PROPERTY.captures_iter(&text))
        .filter(|c| !c[1].contains("local"))
        .map(|c| c[2].to_owned())
        .collect();
    if let Some(target) = EXTENDS.captures(&text) {
        let target = &target[1];
        let parent = match target.strip_prefix(".../") {
            Some(rest) => {
                let mut dir = path.parent().unwrap().parent().map(Path::to_owned);
                loop {
                    let here = dir.clone().expect("pkl-k8s's `.../` target exists above");
                    if here.join(rest).is_file() {
                        break here.join(rest);
                    }
                    dir = here.parent().map(Path::to_owned);
                }
            }
            None => path.parent().unwrap().join(target),
        };
        names.extend(declared(&parent));
    }
    names
}

#[test]
#[cfg_attr(
    not(all(vergate_kubernetes_output, vergate_pkl_k8s)),
    ignore = "needs generated/kubernetes: cargo xtask regen --api kubernetes; needs a checkout of apple/pkl-k8s: PKL_K8S or target/peers/pkl-k8s"
)]
fn every_pkl_k8s_name_is_present_or_listed_with_its_reason() {
    let checkout = support::pkl_k8s_checkout();
    let peer = modules(&checkout.join("generated-package"));
    assert!(
        peer.len() > 400,
        "{} holds too few modules",
        checkout.display()
    );
    let listed: BTreeMap<&str, &str> = LISTED
        .lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .map(|line| line.split_once('\t').expect("<name><TAB><reason>"))
        .collect();
    let output = support::kubernetes_output().join("pkl");
    let minors: Vec<(String, BTreeMap<String, PathBuf>)> = support::inputs::KUBERNETES_MINORS
        .iter()
        .map(|minor| ((*minor).to_owned(), modules(&output.join(minor))))
        .collect();
    let mut declared_in: BTreeMap<PathBuf, BTreeSet<String>> = BTreeMap::new();
    let mut names_of = |path: &Path| {
        declared_in
            .entry(path.to_owned())
            .or_insert_with(|| declared(path))
            .clone()
    };
    let mut unexplained = Vec::new();
    let mut used: BTreeSet<&str> = BTreeSet::new();
    let mut present_everywhere: BTreeSet<String> = listed.keys().map(|k| (*k).to_owned()).collect();
    for (minor, ours) in &minors {
        for (module, path) in &peer {
            let theirs = names_of(path);
            let mut missing = Vec::new();
            match ours.get(module) {
                None => missing.push(module.clone()),
                Some(mine) => {
                    if std::fs::read_to_string(mine)
                        .unwrap()
                        .contains("is not served in")
                    {
                        continue; // a kind this minor does not serve: it explains itself
                    }
                    let have = names_of(mine);
                    missing.extend(
                        theirs
                            .difference(&have)
                            .map(|name| format!("{module}#{name}")),
                    );
                }
            }
            for entry in missing {
                present_everywhere.remove(&entry);
                let (module, name) = entry.split_once('#').unwrap_or((&entry, ""));
                let elsewhere = minors.iter().any(|(_, other)| {
                    other
                        .get(module)
                        .is_some_and(|path| name.is_empty() || names_of(path).contains(name))
                });
                if elsewhere {
                    continue; // a module, class or field of another minor
                }
                match listed.get_key_value(entry.as_str()) {
                    Some((key, _)) => {
                        used.insert(key);
                    }
                    None => unexplained.push(format!("{minor}: {entry}")),
                }
            }
        }
    }
    assert!(
        unexplained.is_empty(),
        "pkl-k8s names missing without a reason in tests/pkl/pkl_k8s_names.txt:\n{}",
        unexplained.join("\n")
    );
    let stale: Vec<&&str> = listed.keys().filter(|k| !used.contains(**k)).collect();
    assert!(
        stale.is_empty(),
        "listed but present in every minor: {stale:?} ({present_everywhere:?})"
    );
}
