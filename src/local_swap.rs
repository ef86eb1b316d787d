//! Local-package swap: point a user project's PklProject at the local plugin
//! install (where the `v<X.Y>/` subtrees live) instead of the published
//! package, for every namespace with a resolved version.
//!
//! Only in [`SchemaLocation::Local`] runs: a remote run keeps the published
//! packages even when a local install happens to exist.

use crate::resolve::Resolution;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use vergate_core::pkl_text::{code_bytes, pkl_string};

/// Where a run takes its schema packages from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SchemaLocation {
    /// The local plugin installs (plugin development).
    Local,
    /// The published packages (the production default).
    Remote,
}

/// A namespace's package: its name in PklProject (`k8s`) and its local install
/// (the directory holding the package's own `PklProject`).
#[derive(Clone, Debug)]
pub struct LocalInstall {
    pub package: String,
    pub dir: PathBuf,
}

/// The rewritten PklProject text and the packages that now point at a local
/// install, sorted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Swapped {
    pub text: String,
    pub swapped: Vec<String>,
}

/// Rewrites the dependency entries (`["k8s"] { uri = "package://…" }`) of
/// `project` (a PklProject's text) to `["k8s"] = import("<install>/PklProject")`
/// for every namespace of `versions` that is resolved and has an install.
/// A resolved package that `project` does not depend on is left alone.
pub fn swap_versioned_deps_to_local(
    project: &str,
    versions: &BTreeMap<String, Resolution>,
    installs: &BTreeMap<String, LocalInstall>,
    location: SchemaLocation,
) -> Result<Swapped, SwapError> {
    let mut swapped = Swapped {
        text: project.to_owned(),
        swapped: Vec::new(),
    };
    if location == SchemaLocation::Remote {
        return Ok(swapped);
    }
    for (namespace, resolution) in versions {
        if resolution.version().is_none() {
            continue;
        }
        let Some(install) = installs.get(namespace) else {
            continue;
        };
        let project_file = install.dir.join("PklProject");
        if !project_file.is_file() {
            return Err(SwapError::NoLocalProject {
                namespace: namespace.clone(),
                path: project_file,
            });
        }
        if let Some(text) = replace_entry(&swapped.text, &install.package, &project_file) {
            swapped.text = text;
            swapped.swapped.push(install.package.clone());
        }
    }
    swapped.swapped.sort();
    Ok(swapped)
}

/// Replaces the `["name"] { … }` (or `["name"] = …` line) entry with a local
/// import. Comments and strings are no code: a key or brace inside them is
/// not the entry's.
fn replace_entry(text: &str, name: &str, project_file: &Path) -> Option<String> {
    let code = code_bytes(text);
    let key = format!("[{}]", pkl_string(name));
    let start = text
        .match_indices(&key)
        .map(|(offset, _)| offset)
        .find(|offset| code[*offset])?;
    let after_key = start + key.len();
    let rest = &text[after_key..];
    let trimmed = rest.trim_start();
    let gap = rest.len() - trimmed.len();
    let end = if trimmed.starts_with('{') {
        matching_brace(&code, text, after_key + gap)? + 1
    } else if trimmed.starts_with('=') {
        after_key + rest.find('\n').unwrap_or(rest.len())
    } else {
        return None;
    };
    let replacement = format!(
        "{key} = import({})",
        pkl_string(&project_file.to_string_lossy())
    );
    Some(format!("{}{replacement}{}", &text[..start], &text[end..]))
}

/// The offset of the `}` closing the `{` at `open`, counting only braces
/// that are code.
fn matching_brace(code: &[bool], text: &str, open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (offset, byte) in text.bytes().enumerate().skip(open) {
        if !code[offset] {
            continue;
        }
        match byte {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(offset);
                }
            }
            _ => {}
        }
    }
    None
}

/// Why the swap cannot be done.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum SwapError {
    /// The local install has no PklProject to import.
    #[error(
        "namespace {namespace}: the local install has no {}; reinstall the plugin or run remote",
        path.display()
    )]
    NoLocalProject { namespace: String, path: PathBuf },
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Version;

    const PROJECT: &str = r#"amends "pkl:Project"

dependencies {
  ["formae"] { uri = "package://hub.example/formae@0.80.0" }
  ["k8s"] {
    uri = "package://hub.example/plugins/k8s@0.3.0" // published
  }
  ["shipyard"] = import("../shipyard/PklProject")
}
"#;

    fn setup() -> (tempfile::TempDir, BTreeMap<String, LocalInstall>) {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::write(tmp.path().join("PklProject"), "amends \"pkl:Project\"\n").unwrap();
        let mut installs = BTreeMap::new();
        installs.insert(
            "K8S".to_owned(),
            LocalInstall {
                package: "k8s".into(),
                dir: tmp.path().to_owned(),
            },
        );
        (tmp, installs)
    }

    fn resolved(ns: &str) -> BTreeMap<String, Resolution> {
        let mut map = BTreeMap::new();
        map.insert(
            ns.to_owned(),
            Resolution::ManifestDefault {
                version: Version::new(1, 34),
            },
        );
        map.insert("AWS".to_owned(), Resolution::Unresolved);
        map
    }

    #[test]
    fn local_mode_swaps_resolved_namespaces_only() {
        let (tmp, installs) = setup();
        let out = swap_versioned_deps_to_local(
            PROJECT,
            &resolved("K8S"),
            &installs,
            SchemaLocation::Local,
        )
        .unwrap();
        assert_eq!(out.swapped, ["k8s"]);
        let expected = format!(
            "[\"k8s\"] = import(\"{}\")",
            tmp.path().join("PklProject").display()
        );
        assert!(out.text.contains(&expected), "{}", out.text);
        assert!(!out.text.contains("plugins/k8s@0.3.0"), "{}", out.text);
        assert!(out.text.contains("formae@0.80.0"));
        assert!(out
            .text
            .contains("[\"shipyard\"] = import(\"../shipyard/PklProject\")"));
    }

    #[test]
    fn remote_mode_never_swaps() {
        let (_tmp, installs) = setup();
        let out = swap_versioned_deps_to_local(
            PROJECT,
            &resolved("K8S"),
            &installs,
            SchemaLocation::Remote,
        )
        .unwrap();
        assert_eq!(out.text, PROJECT);
        assert!(out.swapped.is_empty());
    }

    #[test]
    fn unresolved_namespace_is_not_swapped() {
        let (_tmp, installs) = setup();
        let mut versions = resolved("K8S");
        versions.insert("K8S".into(), Resolution::Unresolved);
        let out =
            swap_versioned_deps_to_local(PROJECT, &versions, &installs, SchemaLocation::Local)
                .unwrap();
        assert_eq!(out.text, PROJECT);
    }

    #[test]
    fn an_install_without_pkl_project_is_an_error() {
        let tmp = tempfile::tempdir().unwrap();
        let mut installs = BTreeMap::new();
        installs.insert(
            "K8S".to_owned(),
            LocalInstall {
                package: "k8s".into(),
                dir: tmp.path().to_owned(),
            },
        );
        let err = swap_versioned_deps_to_local(
            PROJECT,
            &resolved("K8S"),
            &installs,
            SchemaLocation::Local,
        )
        .unwrap_err()
        .to_string();
        assert!(err.contains("K8S") && err.contains("PklProject"), "{err}");
    }

    #[test]
    fn keys_and_braces_in_comments_and_strings_are_not_code() {
        let (tmp, installs) = setup();
        let project = r#"amends "pkl:Project"

dependencies {
  // was: ["k8s"] { uri = "package://old/k8s@0.1.0" }
  ["k8s"] {
    /* pinned } until 0.4 */
    uri = "package://hub.example/plugins/k8s@0.3.0" // see { notes }
    note = "a } in a string"
  }
  ["shipyard"] = import("../shipyard/PklProject")
}
"#;
        let out = swap_versioned_deps_to_local(
            project,
            &resolved("K8S"),
            &installs,
            SchemaLocation::Local,
        )
        .unwrap();
        let expected = format!(
            r#"amends "pkl:Project"

dependencies {{
  // was: ["k8s"] {{ uri = "package://old/k8s@0.1.0" }}
  ["k8s"] = import("{}")
  ["shipyard"] = import("../shipyard/PklProject")
}}
"#,
            tmp.path().join("PklProject").display()
        );
        assert_eq!(out.text, expected);
    }
}
