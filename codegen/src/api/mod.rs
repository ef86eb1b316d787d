//! `upstream-specs/<api>/api.toml` and the minors present beside it, one
//! module per job:
//!
//! - `settings`: what api.toml holds, as read;
//! - `fact_tables`: its `[facts]` tables and their files;
//! - `open`: reading api.toml and checking every value;
//! - `present`: the minor directories and spec files on disk;
//! - `digests`: the recorded sha256 digests and checking files against them;
//! - `discover`: the APIs under `upstream-specs/`.

mod digests;
mod discover;
mod fact_tables;
mod open;
mod present;
mod settings;

pub use digests::{check_digest, sha256_hex};
pub use discover::{api_dirs, discover};
pub use fact_tables::{FactFiles, FactTable, Facts};
pub use settings::{ApiConfig, MinorEntry, RustCrate, SpecFile};

use crate::model::Dialect;
use std::collections::BTreeMap;
use std::path::PathBuf;
use vergate_core::Version;

/// The name of the file that describes an API.
pub const API_TOML: &str = "api.toml";

/// An API's spec directory: its config and its minors.
#[derive(Clone, Debug)]
pub struct Api {
    /// `upstream-specs/<api>`.
    pub dir: PathBuf,
    pub config: ApiConfig,
    /// api.toml's minors, parsed.
    pub listed: BTreeMap<Version, MinorEntry>,
    /// api.toml's `dialect`, parsed.
    pub dialect: Dialect,
}

/// One minor whose spec directory is present.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PresentMinor {
    pub version: Version,
    pub dir: PathBuf,
}

impl Api {
    /// The API's name.
    pub fn name(&self) -> &str {
        &self.config.name
    }
}

#[cfg(test)]
mod tests;
