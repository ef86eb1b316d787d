//! Schema manifest discovery: which version subtrees an installed package ships.

use crate::{is_version_dir, ParseVersionError, Version};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The version subtrees of an installed package and the default one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SchemaManifest {
    /// The package directory that was scanned.
    pub dir: PathBuf,
    /// Every version directory, ascending (`v1.9` before `v1.10`), with its
    /// name on disk.
    pub versions: BTreeMap<Version, String>,
}

impl SchemaManifest {
    /// Scans `dir` for version subdirectories (the [`is_version_dir`] test:
    /// `v1.34` is one, `vpcaccess` is not). `Ok(None)` when there is none: the
    /// package is unversioned and gets unrestricted globs.
    pub fn discover(dir: &Path) -> Result<Option<SchemaManifest>, ManifestError> {
        let io = |source| ManifestError::Io {
            dir: dir.to_owned(),
            source,
        };
        let mut versions: BTreeMap<Version, String> = BTreeMap::new();
        for entry in std::fs::read_dir(dir).map_err(io)? {
            let entry = entry.map_err(io)?;
            let name = entry.file_name().to_string_lossy().into_owned();
            if !is_version_dir(&name) || !entry.path().is_dir() {
                continue;
            }
            let version: Version = name
                .parse()
                .map_err(|source| ManifestError::BadVersionDir {
                    path: entry.path(),
                    source,
                })?;
            if let Some(previous) = versions.insert(version, name.clone()) {
                let (first, second) = if previous <= name {
                    (previous, name)
                } else {
                    (name, previous)
                };
                return Err(ManifestError::SameVersionTwice {
                    dir: dir.to_owned(),
                    first,
                    second,
                });
            }
        }
        if versions.is_empty() {
            return Ok(None);
        }
        Ok(Some(SchemaManifest {
            dir: dir.to_owned(),
            versions,
        }))
    }

    /// The default version: the highest.
    pub fn default_version(&self) -> Version {
        *self
            .versions
            .keys()
            .next_back()
            .expect("a manifest has at least one version")
    }

    /// True when the package ships a subtree for `version`.
    pub fn contains(&self, version: Version) -> bool {
        self.versions.contains_key(&version)
    }

    /// The directory of `version`'s subtree, if shipped.
    pub fn subtree(&self, version: Version) -> Option<PathBuf> {
        self.versions.get(&version).map(|name| self.dir.join(name))
    }

    /// The directory names, ascending (`["v1.9", "v1.10"]`).
    pub fn dir_names(&self) -> Vec<&str> {
        self.versions.values().map(String::as_str).collect()
    }
}

/// Why a package directory has no usable manifest.
#[derive(Debug, thiserror::Error)]
pub enum ManifestError {
    /// The directory cannot be listed.
    #[error("{}: cannot list the package: {source}", dir.display())]
    Io {
        dir: PathBuf,
        source: std::io::Error,
    },
    /// A directory passes the version-directory test but is no version (`v1.x`).
    #[error(
        "{}: {source}; name version directories v<major>.<minor>, e.g. v1.34",
        path.display()
    )]
    BadVersionDir {
        path: PathBuf,
        source: ParseVersionError,
    },
    /// Two directories name one minor (`v1.34` and `v1.34.0`).
    #[error("{}: {first} and {second} are the same version; keep one", dir.display())]
    SameVersionTwice {
        dir: PathBuf,
        first: String,
        second: String,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    fn package(dirs: &[&str]) -> tempfile::TempDir {
        let tmp = tempfile::tempdir().unwrap();
        for dir in dirs {
            std::fs::create_dir_all(tmp.path().join(dir)).unwrap();
        }
        std::fs::write(tmp.path().join("target.pkl"), "").unwrap();
        std::fs::write(tmp.path().join("v1.99"), "a file, not a subtree").unwrap();
        tmp
    }

    #[test]
    fn versions_sort_numerically_and_the_highest_is_default() {
        let tmp = package(&["v1.10", "v1.9", "v1.11", "vpcaccess", "helm/v1.34"]);
        let manifest = SchemaManifest::discover(tmp.path()).unwrap().unwrap();
        assert_eq!(manifest.dir_names(), ["v1.9", "v1.10", "v1.11"]);
        assert_eq!(manifest.default_version(), Version::new(1, 11));
        assert!(manifest.contains(Version::new(1, 9)));
        assert!(!manifest.contains(Version::new(1, 34)));
        assert_eq!(
            manifest.subtree(Version::new(1, 10)),
            Some(tmp.path().join("v1.10"))
        );
    }

    #[test]
    fn no_version_directories_means_no_manifest() {
        let tmp = package(&["vpcaccess", "core"]);
        assert_eq!(SchemaManifest::discover(tmp.path()).unwrap(), None);
    }

    #[test]
    fn an_unparsable_version_directory_is_named() {
        let tmp = package(&["v1.10", "v1.x"]);
        let err = SchemaManifest::discover(tmp.path())
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("v1.x") && err.contains("\"x\" is not a number"),
            "{err}"
        );
    }

    #[test]
    fn two_names_for_one_version_are_refused() {
        let tmp = package(&["v1.10", "v1.10.0"]);
        let err = SchemaManifest::discover(tmp.path())
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("v1.10 and v1.10.0 are the same version"),
            "{err}"
        );
    }

    #[test]
    fn a_missing_package_is_an_io_error_naming_it() {
        let tmp = tempfile::tempdir().unwrap();
        let missing = tmp.path().join("nope");
        let err = SchemaManifest::discover(&missing).unwrap_err().to_string();
        assert!(err.contains("nope") && err.contains("cannot list"), "{err}");
    }
}
