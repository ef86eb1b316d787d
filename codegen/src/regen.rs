//! The whole flow for one API: load every present minor, merge, run every
//! emitter into one in-memory tree, then sync it to `generated/<api>/`.

use crate::api::{Api, ApiConfig};
use crate::emit;
use crate::error::{Result, Warning};
use crate::load;
use crate::model::GatedModel;
use crate::output::{self, FileTree, Mode, SyncReport};
use std::path::Path;
use std::time::{Duration, Instant};

/// The gated model and output tree of one API, before anything is written.
#[derive(Debug)]
pub struct Built {
    pub model: GatedModel,
    pub tree: FileTree,
    pub warnings: Vec<Warning>,
    pub timings: Timings,
}

/// How long each phase of a build took, in order.
#[derive(Clone, Debug, Default)]
pub struct Timings(pub Vec<(&'static str, Duration)>);

impl Timings {
    fn time<T>(&mut self, phase: &'static str, run: impl FnOnce() -> T) -> T {
        let started = Instant::now();
        let result = run();
        self.0.push((phase, started.elapsed()));
        result
    }
}

impl std::fmt::Display for Timings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (index, (phase, took)) in self.0.iter().enumerate() {
            let sep = if index == 0 { "" } else { ", " };
            write!(f, "{sep}{phase} {:.0?}", took)?;
        }
        Ok(())
    }
}

/// An emitter: a pure function of the gated model adding one subtree.
type Emitter = fn(&GatedModel, &ApiConfig, &mut FileTree) -> Result<()>;

/// Every emitter of a spec-driven API: the schema trees, then the Rust crate.
const ALL: [(&str, Emitter); 4] = [
    SCHEMA_TREES[0],
    SCHEMA_TREES[1],
    SCHEMA_TREES[2],
    ("rust", emit::rust::emit),
];

/// The trees every API gets, whatever its front door: gates.json, Pkl and
/// JSON Schema.
const SCHEMA_TREES: [(&str, Emitter); 3] = [
    ("gates.json", emit::gates::emit),
    ("pkl", emit::pkl::emit),
    ("json", emit::json_schema::emit),
];

/// Loads, merges and emits everything for `api`, in memory.
pub fn build(api: &Api) -> Result<Built> {
    let mut timings = Timings::default();
    let loaded = timings.time("load", || load::load_api(api))?;
    let mut warnings = Vec::new();
    let mut minors = Vec::with_capacity(loaded.len());
    for minor in loaded {
        warnings.extend(minor.warnings);
        minors.push(minor.model);
    }
    let model = timings.time("merge", || -> Result<GatedModel> {
        let mut model = GatedModel::merge(api.name(), minors)?;
        crate::annotations::apply(&mut model, &api.dir)?;
        Ok(model)
    })?;
    let tree = run_emitters(&model, &api.config, &ALL, &mut timings)?;
    Ok(Built {
        model,
        tree,
        warnings,
        timings,
    })
}

fn run_emitters(
    model: &GatedModel,
    config: &ApiConfig,
    emitters: &[(&'static str, Emitter)],
    timings: &mut Timings,
) -> Result<FileTree> {
    let mut tree = FileTree::new();
    for (name, emitter) in emitters {
        timings.time(name, || emitter(model, config, &mut tree))?;
    }
    Ok(tree)
}

/// Runs every emitter over the gated model. Each emitter adds its own
/// subtree (`gates.json`, `pkl/`, `json/`, `rust/`).
pub fn emit_all(model: &GatedModel, config: &ApiConfig) -> Result<FileTree> {
    run_emitters(model, config, &ALL, &mut Timings::default())
}

/// The trees a plugin that writes its types in Rust needs besides the Rust:
/// gates.json, Pkl and JSON Schema (`cargo xtask regen --from-rust`).
pub fn emit_schema_trees(model: &GatedModel, config: &ApiConfig) -> Result<FileTree> {
    run_emitters(model, config, &SCHEMA_TREES, &mut Timings::default())
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
    let mut built = build(api)?;
    let report = built
        .timings
        .time("sync", || output::sync(&built.tree, out_dir, mode))?;
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
