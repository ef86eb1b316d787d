//! `cargo xtask add-api <name> --from <dir>`: a new API in one step.

use anyhow::Result;
use std::path::Path;
use vergate_codegen::record::add_api;

/// Writes `upstream-specs/<name>/api.toml` recording every spec file of
/// `from`'s `v<X.Y>/` directories, and copies those files beside it.
pub fn run(root: &Path, name: &str, from: &Path) -> Result<()> {
    let added = add_api(&root.join("upstream-specs"), name, from)?;
    let minors: Vec<String> = added.minors.iter().map(ToString::to_string).collect();
    eprintln!(
        "{name}: wrote {} ({} minors: {}) and copied {} spec files beside it\n\
         next: cargo xtask regen --api {name}\n\
         (the copies are yours to commit, or to git-ignore as upstream-specs/kubernetes/v*/ is, \
         with each file's `url` in api.toml for `cargo xtask fetch-specs`)",
        added.api_toml.display(),
        minors.len(),
        minors.join(", "),
        added.fetched.written.len(),
    );
    Ok(())
}
