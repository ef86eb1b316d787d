//! Glob narrowing: the Pkl import globs of a package for its resolved version.
//!
//! Resolved: the root's `*.pkl`, each non-version directory, then the chosen
//! `v<X.Y>/**` last. A non-version directory that itself ships version
//! subtrees (`helm/v1.34/…`) is narrowed the same way. Unresolved: the
//! unrestricted `@pkg/*.pkl` and `@pkg/**/*.pkl`.

use crate::manifest::{ManifestError, SchemaManifest};
use crate::{is_version_dir, Version};
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

/// The globs for package `name` (without `@`) installed at `dir`, narrowed to
/// `version` when it is `Some`.
pub fn import_globs(
    name: &str,
    dir: &Path,
    version: Option<Version>,
) -> Result<Vec<String>, GlobError> {
    let prefix = format!("@{name}");
    let Some(version) = version else {
        return Ok(unrestricted(&prefix));
    };
    let mut globs = Vec::new();
    narrow(&prefix, dir, version, true, &mut globs)?;
    Ok(globs)
}

/// The unrestricted globs of a package: `["@k8s/*.pkl", "@k8s/**/*.pkl"]`.
pub fn unrestricted(prefix: &str) -> Vec<String> {
    vec![format!("{prefix}/*.pkl"), format!("{prefix}/**/*.pkl")]
}

fn narrow(
    prefix: &str,
    dir: &Path,
    version: Version,
    required: bool,
    globs: &mut Vec<String>,
) -> Result<(), GlobError> {
    let manifest = SchemaManifest::discover(dir).map_err(GlobError::Manifest)?;
    globs.push(format!("{prefix}/*.pkl"));
    let mut others: Vec<String> = std::fs::read_dir(dir)
        .map_err(|source| {
            GlobError::Manifest(ManifestError::Io {
                dir: dir.to_owned(),
                source,
            })
        })?
        .flatten()
        .filter(|entry| entry.path().is_dir())
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .filter(|name| !is_version_dir(name))
        .collect();
    others.sort();
    for other in others {
        let sub = dir.join(&other);
        let sub_prefix = format!("{prefix}/{other}");
        if SchemaManifest::discover(&sub)
            .map_err(GlobError::Manifest)?
            .is_some()
        {
            narrow(&sub_prefix, &sub, version, false, globs)?;
        } else {
            globs.push(format!("{sub_prefix}/**/*.pkl"));
        }
    }
    match manifest.as_ref().and_then(|m| m.versions.get(&version)) {
        Some(dir_name) => globs.push(format!("{prefix}/{dir_name}/**/*.pkl")),
        None if required => {
            return Err(GlobError::MissingSubtree {
                dir: dir.to_owned(),
                version,
            })
        }
        None => {}
    }
    Ok(())
}

/// The `schemaVersions` external property for the imports generator:
/// `k8s=v1.34,shipyard=v1.12` (sorted by package).
pub fn schema_versions_property(versions: &BTreeMap<String, Version>) -> String {
    versions
        .iter()
        .map(|(package, version)| format!("{package}={}", version.dir_name()))
        .collect::<Vec<_>>()
        .join(",")
}

/// Why a package's globs cannot be narrowed.
#[derive(Debug)]
pub enum GlobError {
    Manifest(ManifestError),
    /// The package root has no subtree for the version.
    MissingSubtree {
        dir: PathBuf,
        version: Version,
    },
}

impl fmt::Display for GlobError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GlobError::Manifest(err) => err.fmt(f),
            GlobError::MissingSubtree { dir, version } => write!(
                f,
                "{}: no {} subtree to narrow to; install a package that ships {version}",
                dir.display(),
                version.dir_name()
            ),
        }
    }
}

impl std::error::Error for GlobError {}

#[cfg(test)]
mod tests {
    use super::*;

    fn k8s_package() -> tempfile::TempDir {
        let tmp = tempfile::tempdir().unwrap();
        for dir in [
            "v1.33/core",
            "v1.34/apps",
            "helm/v1.33",
            "helm/v1.34",
            "vpcaccess",
            "extras/deep",
        ] {
            std::fs::create_dir_all(tmp.path().join(dir)).unwrap();
        }
        tmp
    }

    #[test]
    fn resolved_package_keeps_root_and_others_and_the_chosen_subtree_last() {
        let tmp = k8s_package();
        let globs = import_globs("k8s", tmp.path(), Some(Version::new(1, 34))).unwrap();
        assert_eq!(
            globs,
            [
                "@k8s/*.pkl",
                "@k8s/extras/**/*.pkl",
                "@k8s/helm/*.pkl",
                "@k8s/helm/v1.34/**/*.pkl",
                "@k8s/vpcaccess/**/*.pkl",
                "@k8s/v1.34/**/*.pkl",
            ]
        );
    }

    #[test]
    fn unresolved_is_unrestricted() {
        let tmp = k8s_package();
        assert_eq!(
            import_globs("k8s", tmp.path(), None).unwrap(),
            ["@k8s/*.pkl", "@k8s/**/*.pkl"]
        );
    }

    #[test]
    fn a_missing_subtree_is_an_error() {
        let tmp = k8s_package();
        let err = import_globs("k8s", tmp.path(), Some(Version::new(1, 29)))
            .unwrap_err()
            .to_string();
        assert!(err.contains("no v1.29 subtree"), "{err}");
    }

    #[test]
    fn property_is_sorted_pairs() {
        let mut versions = BTreeMap::new();
        versions.insert("shipyard".to_owned(), Version::new(1, 12));
        versions.insert("k8s".to_owned(), Version::new(1, 34));
        assert_eq!(
            schema_versions_property(&versions),
            "k8s=v1.34,shipyard=v1.12"
        );
    }
}
