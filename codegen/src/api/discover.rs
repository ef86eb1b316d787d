//! Finding the APIs under `upstream-specs/`.

use super::{Api, API_TOML};
use crate::error::{Error, Result};
use std::path::{Path, PathBuf};

/// Every API under `upstream-specs/` (directories holding an api.toml), by
/// name. One broken api.toml fails the whole list: to go on with the other
/// APIs, open each of [`api_dirs`] alone.
pub fn discover(specs_root: &Path) -> Result<Vec<Api>> {
    api_dirs(specs_root)?
        .iter()
        .map(|dir| Api::open(dir))
        .collect()
}

/// The directories under `upstream-specs/` that hold an api.toml, sorted,
/// without reading any of them. Hidden ones (`.docker.add-api/`, where
/// `add-api` stages a new API) are not APIs.
pub fn api_dirs(specs_root: &Path) -> Result<Vec<PathBuf>> {
    let entries = std::fs::read_dir(specs_root)
        .map_err(|source| Error::io(specs_root, "listing APIs", source))?;
    let mut dirs: Vec<PathBuf> = entries
        .flatten()
        .filter(|entry| !entry.file_name().to_string_lossy().starts_with('.'))
        .map(|entry| entry.path())
        .filter(|path| path.join(API_TOML).is_file())
        .collect();
    dirs.sort();
    Ok(dirs)
}
