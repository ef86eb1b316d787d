//! `cargo xtask fetch-specs <api> [--from DIR | --base-url URL]`.

use anyhow::Result;
use std::path::Path;
use vergate_codegen::api::Api;
use vergate_codegen::fetch::{fetch_from_dir, fetch_from_network};

/// Copies and verifies every spec file listed in `upstream-specs/<api>/api.toml`:
/// from a local mirror (`from`), from an HTTP mirror (`base_url`), or from each
/// file's `url`. Nothing is written unless every file matches its sha256.
pub fn run(root: &Path, api_name: &str, from: Option<&Path>, base_url: Option<&str>) -> Result<()> {
    let api = Api::open(&root.join("upstream-specs").join(api_name))?;
    let report = match from {
        Some(dir) => fetch_from_dir(&api, dir)?,
        None => fetch_from_network(&api, base_url)?,
    };
    eprintln!(
        "{api_name}: {} spec files verified, {} written into {}",
        report.verified,
        report.written.len(),
        api.dir.display()
    );
    Ok(())
}
