//! The gate tables of one API, ready for lookups: the gates index plus the
//! kind lookups preflight, upgrade and diff need.

use crate::gates::{GatesIndex, GroupVersionKind, TypeGate};
use crate::Version;
use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};

/// An API's gates index and its kind lookups.
#[derive(Debug)]
pub struct GateTables {
    index: GatesIndex,
    /// `(group, version, kind)` → the types served as it.
    by_gvk: HashMap<(String, String, String), Vec<String>>,
    /// `kind` → every `(gvk, type)` serving it.
    by_kind: HashMap<String, Vec<(GroupVersionKind, String)>>,
}

impl GateTables {
    /// Reads `gates.json`, or `<dir>/gates.json` when `path` is a directory
    /// (a generated API tree such as `generated/kubernetes`).
    pub fn load(path: &Path) -> Result<GateTables, TablesError> {
        let file = if path.is_dir() {
            path.join("gates.json")
        } else {
            path.to_owned()
        };
        let text = std::fs::read(&file).map_err(|source| TablesError::Io {
            path: file.clone(),
            source,
        })?;
        let index: GatesIndex =
            serde_json::from_slice(&text).map_err(|source| TablesError::Json {
                path: file.clone(),
                source,
            })?;
        if index.versions.is_empty() {
            return Err(TablesError::NoVersions { path: file });
        }
        Ok(GateTables::from_index(index))
    }

    /// Builds the lookups over an index read from anywhere (gates.json, or
    /// tables a build step produced).
    pub fn from_index(index: GatesIndex) -> GateTables {
        let mut by_gvk: HashMap<(String, String, String), Vec<String>> = HashMap::new();
        let mut by_kind: HashMap<String, Vec<(GroupVersionKind, String)>> = HashMap::new();
        for (name, ty) in &index.types {
            for gvk in &ty.kinds {
                by_gvk
                    .entry((gvk.group.clone(), gvk.version.clone(), gvk.kind.clone()))
                    .or_default()
                    .push(name.clone());
                by_kind
                    .entry(gvk.kind.clone())
                    .or_default()
                    .push((gvk.clone(), name.clone()));
            }
        }
        GateTables {
            index,
            by_gvk,
            by_kind,
        }
    }

    /// The whole index, taken out (to extend it and build new tables,
    /// as `vergate check --crd` does with the types of custom resources).
    pub fn into_index(self) -> GatesIndex {
        self.index
    }

    /// The whole index.
    pub fn index(&self) -> &GatesIndex {
        &self.index
    }

    /// The API's name.
    pub fn api(&self) -> &str {
        &self.index.api
    }

    /// The API's minors, ascending.
    pub fn versions(&self) -> &[Version] {
        &self.index.versions
    }

    /// True when `version` is one of the API's minors.
    pub fn has_version(&self, version: Version) -> bool {
        self.index.versions.binary_search(&version).is_ok()
    }

    /// The minors as `1.9, 1.10, …` for messages.
    pub fn versions_text(&self) -> String {
        let shown: Vec<String> = self.versions().iter().map(ToString::to_string).collect();
        shown.join(", ")
    }

    /// A type by definition name.
    pub fn ty(&self, name: &str) -> Option<&TypeGate> {
        self.index.types.get(name)
    }

    /// The types served as `(group, version, kind)`.
    pub fn types_for_gvk(&self, group: &str, version: &str, kind: &str) -> &[String] {
        self.by_gvk
            .get(&(group.to_owned(), version.to_owned(), kind.to_owned()))
            .map_or(&[], Vec::as_slice)
    }

    /// Every `(gvk, type)` serving `kind`, in any group and version.
    pub fn types_for_kind(&self, kind: &str) -> &[(GroupVersionKind, String)] {
        self.by_kind.get(kind).map_or(&[], Vec::as_slice)
    }

    /// The best served replacement for `kind` in `version`: a group/version
    /// whose type is present in `version`, preferring `group`, then the most
    /// stable API version (`v1` over `v1beta3` over `v1alpha1`).
    pub fn served_kind(
        &self,
        group: &str,
        kind: &str,
        version: Version,
    ) -> Option<&GroupVersionKind> {
        self.types_for_kind(kind)
            .iter()
            .filter(|(_, name)| self.ty(name).is_some_and(|t| t.gate.is_present_in(version)))
            .max_by_key(|(gvk, _)| (gvk.group == group, api_version_rank(&gvk.version)))
            .map(|(gvk, _)| gvk)
    }
}

/// Orders Kubernetes-style API versions: `v1alpha1 < v1beta1 < v1 < v2alpha1`.
fn api_version_rank(version: &str) -> (u32, u32, u32) {
    let rest = version.strip_prefix('v').unwrap_or(version);
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let major = rest[..digits].parse().unwrap_or(0);
    let tail = &rest[digits..];
    let (stage, number) = if let Some(n) = tail.strip_prefix("alpha") {
        (0, n)
    } else if let Some(n) = tail.strip_prefix("beta") {
        (1, n)
    } else {
        (2, "")
    };
    (major, stage, number.parse().unwrap_or(0))
}

/// Why the gate tables cannot be read.
#[derive(Debug)]
pub enum TablesError {
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    Json {
        path: PathBuf,
        source: serde_json::Error,
    },
    NoVersions {
        path: PathBuf,
    },
}

impl fmt::Display for TablesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TablesError::Io { path, source } => write!(
                f,
                "{}: cannot read the gates index: {source}; point --api at a generated API directory (e.g. generated/demo) or run `cargo xtask regen`",
                path.display()
            ),
            TablesError::Json { path, source } => write!(
                f,
                "{}: not a gates index: {source}; regenerate it with `cargo xtask regen`",
                path.display()
            ),
            TablesError::NoVersions { path } => {
                write!(f, "{}: the gates index lists no versions", path.display())
            }
        }
    }
}

impl std::error::Error for TablesError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn api_versions_rank_by_stability() {
        let mut versions = vec!["v1beta3", "v1", "v1alpha1", "v2beta1", "v1beta1"];
        versions.sort_by_key(|v| api_version_rank(v));
        assert_eq!(
            versions,
            ["v1alpha1", "v1beta1", "v1beta3", "v1", "v2beta1"]
        );
    }
}
