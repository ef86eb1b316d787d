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
    let model = GatedModel::merge(api.name(), minors)?;
    let tree = emit_all(&model, &api.config)?;
    Ok(Built {
        model,
        tree,
        warnings,
    })
}

/// Runs every emitter over the gated model. Each emitter adds its own
/// subtree (`gates.json`, `rust/`, `pkl/`, `json/`).
pub fn emit_all(model: &GatedModel, config: &ApiConfig) -> Result<FileTree> {
    let _ = config;
    let mut tree = FileTree::new();
    emit::gates::emit(model, &mut tree)?;
    emit::pkl::emit(model, config, &mut tree)?;
    emit::rust::emit(model, config, &mut tree)?;
    Ok(tree)
}

/// Builds `api` and syncs the result to `out_dir` (`generated/<api>/`).
/// Any error happens before the first write, so a failed regen leaves the
/// previous output exactly as it was.
pub fn regen(api: &Api, out_dir: &Path, mode: Mode) -> Result<(Built, SyncReport)> {
    let built = build(api)?;
    let report = output::sync(&built.tree, out_dir, mode)?;
    Ok((built, report))
}
