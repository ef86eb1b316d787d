//! `cargo xtask regen`.

use anyhow::{bail, Context, Result};
use std::path::Path;
use std::time::Instant;
use vergate_codegen::api::{self, Api};
use vergate_codegen::output::Mode;
use vergate_codegen::regen::{self, Outcome};

/// `cargo xtask regen [--api NAME] [--check]`. With `--api`, only
/// `upstream-specs/NAME/api.toml` is read; without, every API is, and one
/// that cannot be opened (a broken api.toml) is reported while the others
/// are regenerated; the run then fails naming it.
pub fn run(root: &Path, only: Option<&str>, check: bool, timings: bool) -> Result<()> {
    let specs_root = root.join("upstream-specs");
    let dirs = api::api_dirs(&specs_root)?;
    let dir_name = |dir: &Path| {
        dir.file_name()
            .map(|name| name.to_string_lossy().into_owned())
            .unwrap_or_default()
    };
    let mut broken = Vec::new();
    let selected: Vec<Api> = match only {
        Some(name) => {
            let Some(dir) = dirs.iter().find(|dir| dir_name(dir) == name) else {
                let known: Vec<String> = dirs.iter().map(|dir| dir_name(dir)).collect();
                bail!(
                    "no API named {name:?} under {} (a directory holding an api.toml); known: {}",
                    specs_root.display(),
                    known.join(", ")
                );
            };
            vec![Api::open(dir)?]
        }
        None => dirs
            .iter()
            .filter_map(|dir| match Api::open(dir) {
                Ok(api) => Some(api),
                Err(err) => {
                    eprintln!(
                        "{}: skipped, its api.toml cannot be read (below); the other APIs go on",
                        dir_name(dir)
                    );
                    broken.push(err.to_string());
                    None
                }
            })
            .collect(),
    };
    let result = regen_each(root, &selected, only.is_some(), check, timings);
    if broken.is_empty() {
        return result;
    }
    let broken = format!(
        "{} API{} not regenerated:\n{}",
        broken.len(),
        if broken.len() == 1 { "" } else { "s" },
        broken.join("\n")
    );
    Err(match result {
        Ok(()) => anyhow::anyhow!("{broken}\n(the other APIs were regenerated)"),
        Err(err) => err.context(broken),
    })
}

fn regen_each(root: &Path, selected: &[Api], one: bool, check: bool, timings: bool) -> Result<()> {
    let mode = if check { Mode::Check } else { Mode::Write };
    let mut stale = Vec::new();
    for api in selected {
        let present = api.present_minors()?;
        if present.is_empty() {
            if one {
                bail!(
                    "{}: no v<X.Y> spec directories; run `cargo xtask fetch-specs {} --from <dir>` first",
                    api.dir.display(),
                    api.name()
                );
            }
            eprintln!(
                "{}: skipped, no specs present (run `cargo xtask fetch-specs {} --from <dir>` to add them)",
                api.name(),
                api.name()
            );
            continue;
        }
        let started = Instant::now();
        let out_dir = root.join("generated").join(api.name());
        let context = || format!("regenerating {}", api.name());
        let (built, report) = if check {
            regen::regen(api, &out_dir, mode).with_context(context)?
        } else {
            match regen::regen_unless_fresh(api, &out_dir).with_context(context)? {
                Outcome::Fresh => {
                    embed(
                        root,
                        api.name(),
                        &std::fs::read(out_dir.join("gates.json"))?,
                        false,
                    )?;
                    eprintln!(
                        "{}: up to date (specs, annotations, tool and output unchanged since the last regen) in {:.2?}",
                        api.name(),
                        started.elapsed()
                    );
                    continue;
                }
                Outcome::Ran(built, report) => (*built, report),
            }
        };
        for warning in &built.warnings {
            eprintln!("{warning}");
        }
        if !built.prose_overrides.is_empty() {
            eprintln!(
                "{}: {} annotations override the stage their fields' descriptions give (`cargo xtask gates-review {}` lists them)",
                api.name(),
                built.prose_overrides.len(),
                api.name()
            );
        }
        let versions: Vec<String> = built
            .model
            .versions
            .iter()
            .map(ToString::to_string)
            .collect();
        let verb = if check { "would change" } else { "wrote" };
        eprintln!(
            "{}: {} minors ({}), {} types; {verb}: {report} in {:.2?}",
            api.name(),
            versions.len(),
            versions.join(", "),
            built.model.types.len(),
            started.elapsed()
        );
        if timings {
            eprintln!("  timings: {}", built.timings);
        }
        let gates = built
            .tree
            .get("gates.json")
            .context("the regen wrote no gates.json")?;
        if embed(root, api.name(), gates, check)? {
            stale.push(format!(
                "{} ({})",
                api.name(),
                vergate::embedded::KUBERNETES_PATH
            ));
        }
        if check && !report.is_clean() {
            for path in report.differing() {
                eprintln!("  stale: generated/{}/{}", api.name(), path.display());
            }
            stale.push(api.name().to_owned());
        }
        // The process ends soon: freeing the model and the output tree (a
        // few hundred MB in many small allocations for Kubernetes) would
        // only add to the regen's time, so the OS reclaims them at exit.
        std::mem::forget(built);
    }
    if !stale.is_empty() {
        bail!(
            "generated/ is stale for {}; run `cargo xtask regen` and commit the result",
            stale.join(", ")
        );
    }
    Ok(())
}

/// Writes (or in check mode compares) the index the `vergate` binary embeds,
/// for the API that has one (Kubernetes), from the regen's `gates.json`.
/// True when check mode finds it stale.
fn embed(root: &Path, api: &str, gates_json: &[u8], check: bool) -> Result<bool> {
    if api != vergate::embedded::KUBERNETES {
        return Ok(false);
    }
    let index: vergate::gates::GatesIndex =
        serde_json::from_slice(gates_json).context("reading the regen's gates.json")?;
    let text = vergate::embedded::render(&index);
    let path = root.join(vergate::embedded::KUBERNETES_PATH);
    let current = std::fs::read_to_string(&path).unwrap_or_default();
    if current == text {
        return Ok(false);
    }
    if check {
        eprintln!("  stale: {}", vergate::embedded::KUBERNETES_PATH);
        return Ok(true);
    }
    std::fs::write(&path, text).with_context(|| format!("writing {}", path.display()))?;
    eprintln!(
        "{api}: wrote the embedded index {} ({} bytes)",
        vergate::embedded::KUBERNETES_PATH,
        std::fs::metadata(&path)?.len()
    );
    Ok(false)
}

/// `cargo xtask regen --from-rust <crate dir> [--out DIR] [--check]`.
pub fn run_from_rust(crate_dir: &Path, out: Option<&Path>, check: bool) -> Result<()> {
    let out_root = out.map_or_else(|| crate_dir.join("generated"), Path::to_owned);
    let mode = if check { Mode::Check } else { Mode::Write };
    let reports = regen::regen_from_rust(crate_dir, &out_root, mode)
        .with_context(|| format!("reading {}", crate_dir.display()))?;
    let mut stale = false;
    for (module, report) in &reports {
        let versions: Vec<String> = module
            .model
            .versions
            .iter()
            .map(ToString::to_string)
            .collect();
        let verb = if check { "would change" } else { "wrote" };
        eprintln!(
            "{} ({}): {} minors ({}), {} types; {verb} {}: {report}",
            module.name,
            module.file.display(),
            versions.len(),
            versions.join(", "),
            module.model.types.len(),
            out_root.join(&module.name).display(),
        );
        if check && !report.is_clean() {
            stale = true;
            for path in report.differing() {
                eprintln!(
                    "  stale: {}",
                    out_root.join(&module.name).join(path).display()
                );
            }
        }
    }
    if stale {
        bail!(
            "the trees are stale; run `cargo xtask regen --from-rust {}`",
            crate_dir.display()
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPEC: &str = r#"{"swagger": "2.0", "definitions": {"a.v1.T": {"type": "object", "properties": {"x": {"type": "string"}}}}}"#;

    /// A repository root with two APIs: `good` (one minor) and `broken`,
    /// whose api.toml has the duplicate tables #29 measured.
    fn two_apis() -> tempfile::TempDir {
        let root = tempfile::tempdir().unwrap();
        let mirror = root.path().join("mirror");
        std::fs::create_dir_all(mirror.join("v1.1")).unwrap();
        std::fs::write(mirror.join("v1.1/swagger.json"), SPEC).unwrap();
        let specs = root.path().join("upstream-specs");
        vergate_codegen::record::add_api(&specs, "good", &mirror).unwrap();
        std::fs::create_dir_all(specs.join("broken")).unwrap();
        std::fs::write(
            specs.join("broken/api.toml"),
            "name = \"broken\"\n[minors.\"1.1\"]\n[minors.\"1.1\"]\n",
        )
        .unwrap();
        root
    }

    /// #29: `regen --api X` reads X only.
    #[test]
    fn regen_of_one_api_reads_that_api_only() {
        let root = two_apis();
        run(root.path(), Some("good"), false, false).unwrap();
        assert!(root.path().join("generated/good/gates.json").is_file());
        let error = format!(
            "{:#}",
            run(root.path(), Some("nope"), false, false).unwrap_err()
        );
        assert!(
            error.contains("no API named \"nope\"") && error.contains("broken, good"),
            "{error}"
        );
    }

    /// #29: a plain `regen` reports the broken API and regenerates the rest.
    #[test]
    fn a_broken_api_toml_stops_only_its_own_regen() {
        let root = two_apis();
        let error = format!("{:#}", run(root.path(), None, false, false).unwrap_err());
        assert!(
            error.contains(&format!(
                "{}",
                Path::new("upstream-specs/broken/api.toml").display()
            )),
            "{error}"
        );
        assert!(error.contains("broken"), "{error}");
        assert!(root.path().join("generated/good/gates.json").is_file());
        assert!(!root.path().join("generated/broken").exists());
    }
}
