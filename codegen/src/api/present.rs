//! The minors present beside api.toml (`v<X.Y>/` directories) and their
//! spec files.

use super::{Api, PresentMinor, API_TOML};
use crate::error::{Error, Result};
use std::collections::BTreeMap;
use std::path::PathBuf;
use vergate_core::{is_version_dir, Version};

impl Api {
    /// The `v<X.Y>` directories present, ascending. Two directories naming one
    /// minor (`v1.34` and `v1.34.0`) are an error; a directory that looks like
    /// a version (`v1.x`) but is not one is an error too.
    pub fn present_minors(&self) -> Result<Vec<PresentMinor>> {
        let entries = std::fs::read_dir(&self.dir)
            .map_err(|source| Error::io(&self.dir, "listing spec directories", source))?;
        let mut found: BTreeMap<Version, PathBuf> = BTreeMap::new();
        for entry in entries {
            let entry =
                entry.map_err(|source| Error::io(&self.dir, "listing spec directories", source))?;
            let name = entry.file_name().to_string_lossy().into_owned();
            if !is_version_dir(&name) || !entry.path().is_dir() {
                continue;
            }
            let version: Version = name.parse().map_err(|err| Error::Config {
                path: entry.path(),
                message: format!("{err}; name minor directories v<major>.<minor>, e.g. v1.34"),
            })?;
            if let Some(previous) = found.insert(version, entry.path()) {
                let (first, second) = order(previous, entry.path());
                return Err(Error::Config {
                    path: self.dir.clone(),
                    message: format!(
                        "{} and {} are the same minor {version}; keep one",
                        first.display(),
                        second.display()
                    ),
                });
            }
        }
        Ok(found
            .into_iter()
            .map(|(version, dir)| PresentMinor { version, dir })
            .collect())
    }

    /// The spec files of a present minor, sorted by name.
    pub fn spec_files(&self, minor: &PresentMinor) -> Result<Vec<PathBuf>> {
        let patterns = self
            .config
            .spec_files
            .iter()
            .map(|pattern| {
                glob::Pattern::new(pattern).map_err(|err| Error::Config {
                    path: self.dir.join(API_TOML),
                    message: format!("spec_files pattern {pattern:?}: {err}"),
                })
            })
            .collect::<Result<Vec<_>>>()?;
        let entries = std::fs::read_dir(&minor.dir)
            .map_err(|source| Error::io(&minor.dir, "listing spec files", source))?;
        let mut files = Vec::new();
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if entry.path().is_file() && patterns.iter().any(|pattern| pattern.matches(&name)) {
                files.push(entry.path());
            }
        }
        files.sort();
        if files.is_empty() {
            return Err(Error::Config {
                path: minor.dir.clone(),
                message: format!(
                    "no spec file matching {:?}; put the minor's spec here (or fix spec_files in api.toml)",
                    self.config.spec_files
                ),
            });
        }
        Ok(files)
    }
}

fn order(a: PathBuf, b: PathBuf) -> (PathBuf, PathBuf) {
    if a <= b {
        (a, b)
    } else {
        (b, a)
    }
}
