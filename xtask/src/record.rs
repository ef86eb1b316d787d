//! `cargo xtask record <api> <X.Y> [--out DIR] [--apiserver BIN] [--against DIR]`
//! and `cargo xtask add-minor <api> <X.Y> --from MIRROR`: a new Kubernetes
//! minor recorded from its own API server (docs/new-minor.md).

use anyhow::{Context, Result};
use std::path::{Path, PathBuf};
use std::process::Command;
use vergate_codegen::api::Api;
use vergate_codegen::load::facts::compare;
use vergate_codegen::record::minor;
use vergate_codegen::Version;

/// Where the build script of vergate-apiserver lives in this repository.
const BUILD_SCRIPT: &str = "xtask/apiserver/build.sh";

/// Options of `cargo xtask record`.
pub struct Options<'a> {
    pub api: &'a str,
    pub minor: &'a str,
    pub out: Option<&'a Path>,
    pub apiserver: Option<&'a Path>,
    pub build_script: Option<&'a Path>,
    pub against: Option<&'a Path>,
}

/// Builds (or takes) the minor's vergate-apiserver, records the minor,
/// then compares the recording with what `against` holds for that minor.
pub fn run(root: &Path, options: &Options) -> Result<()> {
    let minor: Version = options
        .minor
        .parse()
        .map_err(|err| anyhow::anyhow!("minor {:?}: {err}", options.minor))?;
    let api = Api::open(&root.join("upstream-specs").join(options.api))?;
    let binary = match options.apiserver {
        Some(binary) => binary.to_owned(),
        None => build(
            options.build_script.unwrap_or(Path::new(BUILD_SCRIPT)),
            minor,
        )?,
    };
    eprintln!(
        "recording {} {minor} with {}",
        options.api,
        binary.display()
    );
    let recorded = minor::record(&api, minor, &binary, options.out)?;
    let out = options.out.map_or_else(|| api.dir.clone(), Path::to_owned);
    for path in &recorded.written {
        eprintln!("  wrote {}", path.display());
    }
    let digests = &recorded.recording_digests;
    for (file, sha256, _) in &digests.specs {
        eprintln!("  {}/{file}  sha256 {sha256}", minor.dir_name());
    }
    eprintln!(
        "  feature-gates/{}.json  sha256 {}",
        minor.dir_name(),
        digests.feature_gates
    );
    eprintln!(
        "  api-lifecycle/{}.json  sha256 {}",
        minor.dir_name(),
        digests.api_lifecycle
    );
    match &recorded.entries {
        Some(path) if path.ends_with("api.toml") => eprintln!(
            "{} gained the {minor} entries\nnext: cargo xtask regen --api {}",
            path.display(),
            options.api
        ),
        Some(path) => eprintln!(
            "the {minor} entries wait in {} (commit it); once the mirror CI reads holds {}/, apply them with\n  \
             cargo xtask add-minor {} {minor} --from <mirror>",
            path.display(),
            minor.dir_name(),
            options.api
        ),
        None => eprintln!("{minor} is listed in api.toml already; no entries written"),
    }
    if let Some(against) = options.against {
        print!("{}", compare::report(&out, against, minor)?);
    }
    Ok(())
}

/// `build.sh <X.Y>`: prints the binary's path (relative to the script's
/// repository) on its last line of stdout.
fn build(script: &Path, minor: Version) -> Result<PathBuf> {
    let shown = format!("{} {minor}", script.display());
    anyhow::ensure!(
        script.is_file(),
        "{} is missing: vergate-apiserver's build script (xtask/apiserver/, a Go module); \
         pass --apiserver <binary> or --build-script <path>",
        script.display()
    );
    eprintln!("building vergate-apiserver {minor}: {shown}");
    let output = Command::new("bash")
        .arg(script)
        .arg(minor.to_string())
        .stderr(std::process::Stdio::inherit())
        .output()
        .with_context(|| format!("could not run `{shown}`"))?;
    anyhow::ensure!(
        output.status.success(),
        "`{shown}` failed ({}); nothing was recorded",
        output.status
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    let line = stdout
        .lines()
        .rev()
        .find(|line| !line.trim().is_empty())
        .with_context(|| format!("`{shown}` printed no binary path"))?;
    let path = PathBuf::from(line.trim());
    // The script's repository root: xtask/apiserver/build.sh's third parent.
    let repo = std::path::absolute(script)?
        .ancestors()
        .nth(3)
        .map(Path::to_owned)
        .unwrap_or_default();
    let binary = if path.is_absolute() {
        path
    } else {
        repo.join(path)
    };
    anyhow::ensure!(
        binary.is_file(),
        "`{shown}` printed {}, which is no file",
        binary.display()
    );
    Ok(binary)
}

/// `cargo xtask add-minor`: applies `<api>/pending/<X.Y>.toml`.
pub fn add_minor(root: &Path, api: &str, minor: &str, mirror: &Path) -> Result<()> {
    let minor: Version = minor
        .parse()
        .map_err(|err| anyhow::anyhow!("minor {minor:?}: {err}"))?;
    let api_dir = root.join("upstream-specs").join(api);
    let report = minor::add_minor(&Api::open(&api_dir)?, minor, mirror)?;
    eprintln!(
        "{api} {minor}: api.toml gained the pending entries; {} files verified, {} written\n\
         next: cargo xtask regen --api {api} (it rewrites the embedded index), then commit api.toml, \
         the removed pending file and src/embedded/",
        report.verified,
        report.written.len()
    );
    Ok(())
}
