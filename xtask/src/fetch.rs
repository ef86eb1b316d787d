//! `cargo xtask fetch-specs <api> --from DIR`.

use anyhow::{bail, Context, Result};
use std::path::Path;
use vergate_codegen::api::{sha256_hex, Api};

/// Copies every minor listed in api.toml from `from/v<X.Y>/` into
/// `upstream-specs/<api>/v<X.Y>/`. Every file is read and verified first;
/// nothing is written unless all of them match their digests.
pub fn run(root: &Path, api_name: &str, from: &Path) -> Result<()> {
    let api_dir = root.join("upstream-specs").join(api_name);
    let api = Api::open(&api_dir)?;
    if api.listed.is_empty() {
        bail!(
            "{}: lists no minors under [minors]",
            api_dir.join("api.toml").display()
        );
    }
    let mut verified = Vec::new();
    for (version, entry) in &api.listed {
        for (file, spec) in &entry.files {
            let source = from.join(version.dir_name()).join(file);
            let bytes = std::fs::read(&source).with_context(|| {
                format!("reading {} (minor {version} in api.toml)", source.display())
            })?;
            let actual = sha256_hex(&bytes);
            if !actual.eq_ignore_ascii_case(&spec.sha256) {
                bail!(
                    "{}: sha256 is {actual} but api.toml records {} for minor {version}; nothing was written",
                    source.display(),
                    spec.sha256
                );
            }
            verified.push((api_dir.join(version.dir_name()).join(file), bytes));
        }
    }
    let mut copied = 0;
    for (target, bytes) in &verified {
        let unchanged = std::fs::read(target).is_ok_and(|current| current == *bytes);
        if unchanged {
            continue;
        }
        let dir = target
            .parent()
            .expect("spec files live in a minor directory");
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        std::fs::write(target, bytes).with_context(|| format!("writing {}", target.display()))?;
        copied += 1;
    }
    eprintln!(
        "{api_name}: {} spec files verified, {copied} copied into {}",
        verified.len(),
        api_dir.display()
    );
    Ok(())
}
