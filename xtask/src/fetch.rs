//! `cargo xtask fetch-specs <api> --from DIR`.

use anyhow::Result;
use std::path::Path;
use vergate_codegen::api::Api;
use vergate_codegen::fetch::fetch_from_dir;

/// Copies and verifies every minor listed in `upstream-specs/<api>/api.toml`
/// from `from/v<X.Y>/`; nothing is written unless every file matches.
pub fn run(root: &Path, api_name: &str, from: &Path) -> Result<()> {
    let api = Api::open(&root.join("upstream-specs").join(api_name))?;
    let report = fetch_from_dir(&api, from)?;
    eprintln!(
        "{api_name}: {} spec files verified, {} written into {}",
        report.verified,
        report.written.len(),
        api.dir.display()
    );
    Ok(())
}
