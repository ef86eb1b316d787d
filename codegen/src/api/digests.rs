//! The sha256 digests api.toml records, and checking files against them.

use super::{Api, API_TOML};
use crate::error::{Error, Result};
use sha2::{Digest, Sha256};
use std::path::Path;
use vergate_core::Version;

impl Api {
    /// Checks a spec file's bytes against its digest in api.toml.
    pub fn verify(&self, version: Version, path: &Path, bytes: &[u8]) -> Result<()> {
        let file_name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let actual = sha256_hex(bytes);
        let expected = self
            .listed
            .get(&version)
            .and_then(|entry| entry.files.get(&file_name));
        match expected {
            Some(spec) => check_digest(path, bytes, &spec.sha256),
            None => Err(Error::Config {
                path: path.to_owned(),
                message: format!(
                    "this spec file is not recorded in {}; add\n\n[minors.\"{version}\".files.\"{file_name}\"]\nsha256 = \"{actual}\"\n",
                    self.dir.join(API_TOML).display()
                ),
            }),
        }
    }
}

/// The lowercase hex sha256 of some bytes.
pub fn sha256_hex(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    digest.iter().map(|byte| format!("{byte:02x}")).collect()
}

/// Checks `bytes` (read from `path`) against the digest api.toml records
/// for them, `expected` (hex, either case).
pub fn check_digest(path: &Path, bytes: &[u8], expected: &str) -> Result<()> {
    let actual = sha256_hex(bytes);
    if actual.eq_ignore_ascii_case(expected) {
        return Ok(());
    }
    Err(Error::DigestMismatch {
        path: path.to_owned(),
        expected: expected.to_ascii_lowercase(),
        actual,
    })
}
