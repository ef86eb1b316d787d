//! The whole flow for one API: load every present minor, merge, run every
//! emitter into one in-memory tree, then sync it to `generated/<api>/`.

use crate::api::{Api, ApiConfig};
use crate::emit;
use crate::error::{Result, Warning};
use crate::load;
use crate::model::GatedModel;
use crate::output::{self, FileTree, Mode, SyncReport};
use std::path::Path;

/// The gated model and output tree of one API, before anything is written.
#[derive(Debug)]
pub struct Built {
    pub model: GatedModel,
    pub tree: FileTree,
    pub warnings: Vec<Warning>,
}

/// Loads, merges and emits everything for `api`, in memory.
pub fn build(api: &Api) -> Result<Built> {
    let loaded = load::load_api(api)?;
    let mut warnings = Vec::new();
    let mut minors = Vec::with_capacity(loaded.len());
    for minor in loaded {
        warnings.extend(minor.warnings);
        minors.push(minor.model);
    }
    let mut model = GatedModel::merge(api.name(), minors)?;
    crate::annotations::apply(&mut model, &api.dir)?;
    let tree = emit_all(&model, &api.config)?;
    Ok(Built {
        model,
        tree,
        warnings,
    })
}

/// Runs every emitter over the gated model. Each emitter adds its own
/// subtree (`gates.json`, `pkl/`, `json/`, `rust/`).
pub fn emit_all(model: &GatedModel, config: &ApiConfig) -> Result<FileTree> {
    emit_schema_trees(model, config)
}

/// The trees a plugin that writes its types in Rust needs besides the Rust:
/// gates.json, Pkl and JSON Schema (`cargo xtask regen --from-rust`).
pub fn emit_schema_trees(model: &GatedModel, config: &ApiConfig) -> Result<FileTree> {
    let mut tree = FileTree::new();
    emit::gates::emit(model, &mut tree)?;
    emit::pkl::emit(model, config, &mut tree)?;
    emit::json_schema::emit(model, config, &mut tree)?;
    Ok(tree)
}

/// Reads a plugin crate's versioned modules and syncs each one's schema trees
/// to `out_root/<module>/`.
pub fn regen_from_rust(
    crate_dir: &Path,
    out_root: &Path,
    mode: Mode,
) -> Result<Vec<(crate::from_rust::VersionedModule, SyncReport)>> {
    let modules = crate::from_rust::read_crate(crate_dir)?;
    let mut trees = Vec::with_capacity(modules.len());
    for module in &modules {
        trees.push(emit_schema_trees(&module.model, &module.config)?);
    }
    let mut reports = Vec::with_capacity(modules.len());
    for (module, tree) in modules.into_iter().zip(trees) {
        let report = output::sync(&tree, &out_root.join(&module.name), mode)?;
        reports.push((module, report));
    }
    Ok(reports)
}

/// Builds `api` and syncs the result to `out_dir` (`generated/<api>/`).
/// Any error happens before the first write, so a failed regen leaves the
/// previous output exactly as it was.
pub fn regen(api: &Api, out_dir: &Path, mode: Mode) -> Result<(Built, SyncReport)> {
    let built = build(api)?;
    let report = output::sync(&built.tree, out_dir, mode)?;
    Ok((built, report))
}

/// What [`regen_unless_fresh`] did.
#[derive(Debug)]
pub enum Outcome {
    /// Inputs, tool and outputs are as the last regen left them: nothing ran.
    Fresh,
    /// The flow ran; the report says what it wrote.
    Ran(Box<Built>, SyncReport),
}

/// Like [`regen`] in write mode, but skips all work when the regen stamp
/// says nothing changed since the last successful regen, and records a new
/// stamp after one.
pub fn regen_unless_fresh(api: &Api, out_dir: &Path) -> Result<Outcome> {
    if crate::stamp::Stamp::is_fresh(api, out_dir)? {
        return Ok(Outcome::Fresh);
    }
    let (built, report) = regen(api, out_dir, Mode::Write)?;
    crate::stamp::Stamp::record(api, out_dir)?;
    Ok(Outcome::Ran(Box::new(built), report))
}
