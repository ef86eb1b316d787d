//! The whole flow for one API: load every present minor, merge, run every
//! emitter into one in-memory tree, then sync it to `generated/<api>/`.

use crate::api::{Api, ApiConfig};
use crate::emit::{Emitter, EMITTERS};
use crate::error::{Result, Warning};
use crate::load::{self, LoadCache};
use crate::model::{FactNotes, GatedModel};
use crate::output::{self, FileTree, Mode, RenderCache, SyncReport, Synced};
use crate::parallel;
use std::path::Path;
use std::time::{Duration, Instant};

/// The gated model and output tree of one API, before anything is written.
#[derive(Debug)]
pub struct Built {
    pub model: GatedModel,
    pub tree: FileTree,
    pub warnings: Vec<Warning>,
    /// Annotations that override the stage the descriptions' prose gives
    /// (`annotations::apply`); `cargo xtask gates-review` lists them.
    pub prose_overrides: Vec<Warning>,
    /// What the API's fact tables replaced or could not decide.
    pub fact_notes: FactNotes,
    pub timings: Timings,
}

/// How long each phase of a regen took, in order. Phases that ran at the
/// same time are listed as the lanes of the phase that holds them.
#[derive(Clone, Debug, Default)]
pub struct Timings(pub Vec<Phase>);

/// One phase of a regen: its wall-clock time and, for a phase whose work ran
/// on several threads at once, each lane's steps.
#[derive(Clone, Debug)]
pub struct Phase {
    pub name: &'static str,
    pub took: Duration,
    /// Concurrent lanes, each a sequence of named steps; empty for a phase
    /// that is one step.
    pub lanes: Vec<Vec<(&'static str, Duration)>>,
}

impl Timings {
    fn time<T>(&mut self, phase: &'static str, run: impl FnOnce() -> T) -> T {
        let started = Instant::now();
        let result = run();
        self.push(phase, started.elapsed());
        result
    }

    fn push(&mut self, name: &'static str, took: Duration) {
        self.0.push(Phase {
            name,
            took,
            lanes: Vec::new(),
        });
    }

    /// The sum of the phases' wall-clock times.
    pub fn total(&self) -> Duration {
        self.0.iter().map(|phase| phase.took).sum()
    }
}

impl std::fmt::Display for Timings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let ms = |took: &Duration| format!("{:.0} ms", took.as_secs_f64() * 1000.0);
        for (index, phase) in self.0.iter().enumerate() {
            let sep = if index == 0 { "" } else { ", " };
            write!(f, "{sep}{} {}", phase.name, ms(&phase.took))?;
            if !phase.lanes.is_empty() {
                let lanes: Vec<String> = phase
                    .lanes
                    .iter()
                    .map(|steps| {
                        let steps: Vec<String> = steps
                            .iter()
                            .map(|(name, took)| format!("{name} {}", ms(took)))
                            .collect();
                        steps.join(" + ")
                    })
                    .collect();
                write!(f, " ({})", lanes.join(" | "))?;
            }
        }
        Ok(())
    }
}

/// The render caches of one regen's emitters (see [`RenderCache`]), one per
/// emitter of [`EMITTERS`], in its order.
#[derive(Debug)]
struct Caches(Vec<RenderCache>);

impl Caches {
    /// Caches that start empty and are never saved.
    fn none() -> Caches {
        Caches(EMITTERS.iter().map(|_| RenderCache::none()).collect())
    }

    /// The caches `out_dir` holds from the last regen.
    fn open(out_dir: &Path) -> Caches {
        Caches(
            EMITTERS
                .iter()
                .map(|emitter| RenderCache::open(out_dir, emitter.name))
                .collect(),
        )
    }

    /// Records what this regen rendered, after a successful sync.
    fn save(&self) -> Result<()> {
        self.0.iter().try_for_each(RenderCache::save)
    }
}

/// Loads, merges and emits everything for `api`, in memory.
pub fn build(api: &Api) -> Result<Built> {
    let mut timings = Timings::default();
    let (model, warnings) = load_and_merge(api, None, &mut timings)?;
    emit_model(api, model, warnings, &Caches::none(), timings)
}

/// The gates review of `api` from `since` (`codegen::review`), followed by
/// the annotations that override what the descriptions' prose says.
pub fn review(api: &Api, since: Option<vergate_core::Version>) -> Result<String> {
    let mut timings = Timings::default();
    let (model, warnings) = load_and_merge(api, None, &mut timings)?;
    let mut out = crate::review::gates_review(&model.gates_index(), since);
    out.push_str(&crate::review::fact_notes(&warnings.2));
    let overrides = &warnings.1;
    if !overrides.is_empty() {
        out.push_str("\nannotations overriding the stage the descriptions give\n");
        for warning in overrides {
            out.push_str(&format!(
                "  {}#{}: {}\n",
                warning.path.display(),
                warning.pointer,
                warning.message
            ));
        }
    }
    Ok(out)
}

/// Runs every emitter over a loaded and merged model.
fn emit_model(
    api: &Api,
    model: GatedModel,
    (warnings, prose_overrides, fact_notes): Notices,
    caches: &Caches,
    mut timings: Timings,
) -> Result<Built> {
    let tree = run_emitters(&model, &api.config, |_| true, caches, &mut timings)?;
    Ok(Built {
        model,
        tree,
        warnings,
        prose_overrides,
        fact_notes,
        timings,
    })
}

/// The loader's warnings, the annotations that override prose, and what
/// the fact tables replaced.
type Notices = (Vec<Warning>, Vec<Warning>, FactNotes);

/// Loads every present minor (those `cache` holds from it) and merges
/// them, with the annotations. Returns the loader's warnings and the
/// annotations that override prose.
fn load_and_merge(
    api: &Api,
    cache: Option<&LoadCache>,
    timings: &mut Timings,
) -> Result<(GatedModel, Notices)> {
    let loaded = timings.time("load", || load::load_api_cached(api, cache))?;
    let mut warnings = Vec::new();
    let mut minors = Vec::with_capacity(loaded.len());
    for minor in loaded {
        warnings.extend(minor.warnings);
        minors.push(minor.model);
    }
    let rules = crate::refinements::apply(&mut minors, &api.dir)?;
    load::mark_configured_kinds(&mut minors, api)?;
    warnings.extend(load::no_kinds_warning(&minors, api));
    let facts = timings.time("facts", || load::facts::load_cached(api, cache))?;
    let model = timings.time(
        "merge",
        || -> Result<(GatedModel, Vec<Warning>, FactNotes)> {
            let mut model = GatedModel::merge_as(api.name(), api.dialect, minors)?;
            rules.apply(&mut model);
            let overrides = crate::annotations::apply(&mut model, &api.dir)?;
            let notes = facts.apply(&mut model);
            Ok((model, overrides, notes))
        },
    )?;
    let (model, overrides, notes) = model;
    Ok((model, (warnings, overrides, notes)))
}

/// Runs the emitters `selected` picks, in parallel, then merges their
/// trees. Emitters are pure functions of the model into their own output,
/// so the result does not depend on which finishes first; the first error
/// in the registry's order wins.
fn run_emitters(
    model: &GatedModel,
    config: &ApiConfig,
    selected: impl Fn(&Emitter) -> bool,
    caches: &Caches,
    timings: &mut Timings,
) -> Result<FileTree> {
    let started = Instant::now();
    let jobs: Vec<(&Emitter, &RenderCache)> = EMITTERS
        .iter()
        .zip(&caches.0)
        .filter(|(emitter, _)| selected(emitter))
        .collect();
    let results = parallel::map_each(&jobs, |&(emitter, cache)| {
        let step = Instant::now();
        let mut tree = FileTree::new();
        let result = (emitter.emit)(model, config, cache, &mut tree).map(|()| tree);
        debug_assert!(result.as_ref().map_or(true, |tree| tree
            .contents()
            .all(|(path, _)| emitter.output.owns(path))));
        (result, (emitter.name, step.elapsed()))
    });
    let mut trees = Vec::with_capacity(results.len());
    let mut lanes = Vec::with_capacity(results.len());
    for (result, step) in results {
        trees.push(result);
        lanes.push(vec![step]);
    }
    timings.0.push(Phase {
        name: "emit",
        took: started.elapsed(),
        lanes,
    });
    let mut tree = FileTree::new();
    for emitted in trees {
        tree.merge(emitted?)?;
    }
    Ok(tree)
}

/// The trees a plugin that writes its types in Rust needs besides the Rust:
/// every emitter marked `from_rust` (`cargo xtask regen --from-rust`).
pub fn emit_schema_trees(model: &GatedModel, config: &ApiConfig) -> Result<FileTree> {
    let selected = |emitter: &Emitter| emitter.from_rust;
    run_emitters(
        model,
        config,
        selected,
        &Caches::none(),
        &mut Timings::default(),
    )
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
    let (built, synced) = build_and_sync(api, out_dir, mode, false)?;
    Ok((built, synced.report))
}

/// Builds `api` and syncs it to `out_dir`. Meanwhile, in parallel, the
/// current output is listed (touching nothing, so a failed build still
/// leaves it as it was) and, with `cached`, the render caches are read; both
/// are small jobs that fit beside loading.
fn build_and_sync(api: &Api, out_dir: &Path, mode: Mode, cached: bool) -> Result<(Built, Synced)> {
    let mut timings = Timings::default();
    let load_cache = cached.then(|| LoadCache::new(out_dir.join(output::CACHE_DIR)));
    let (model, (caches, listing)) = parallel::join(
        || load_and_merge(api, load_cache.as_ref(), &mut timings),
        || {
            let caches = if cached {
                Caches::open(out_dir)
            } else {
                Caches::none()
            };
            (caches, output::list_ahead(out_dir, cached))
        },
    );
    let built =
        model.and_then(|(model, warnings)| emit_model(api, model, warnings, &caches, timings));
    let mut built = built?;
    let started = Instant::now();
    let synced = output::sync_listed(&built.tree, out_dir, mode, listing?)?;
    let mut steps = synced.steps.clone();
    if mode == Mode::Write {
        let saving = Instant::now();
        caches.save()?;
        if let Some(load_cache) = &load_cache {
            load_cache.save()?;
        }
        steps.push(("save caches", saving.elapsed()));
    }
    built.timings.0.push(Phase {
        name: "sync",
        took: started.elapsed(),
        lanes: vec![steps],
    });
    Ok((built, synced))
}

/// What [`regen_unless_fresh`] did.
#[derive(Debug)]
pub enum Outcome {
    /// Inputs, tool and outputs are as the last regen left them: nothing ran.
    Fresh,
    /// The flow ran; the report says what it wrote.
    Ran(Box<Built>, SyncReport),
}

/// Like [`regen`] in write mode, but with the per-machine state that
/// `cargo xtask regen` keeps in `generated/<api>/`: skips all work when the
/// regen stamp says nothing changed since the last successful regen, takes
/// the texts of unchanged Pkl modules from the render cache (the same bytes,
/// without running the template), and records a new stamp and cache after a
/// successful sync.
pub fn regen_unless_fresh(api: &Api, out_dir: &Path) -> Result<Outcome> {
    let started = Instant::now();
    if crate::stamp::Stamp::is_fresh(api, out_dir)? {
        return Ok(Outcome::Fresh);
    }
    let checked = started.elapsed();
    let (mut built, synced) = build_and_sync(api, out_dir, Mode::Write, true)?;
    built.timings.0.insert(
        0,
        Phase {
            name: "stamp check",
            took: checked,
            lanes: Vec::new(),
        },
    );
    let Synced {
        report,
        files,
        digests,
        ..
    } = synced;
    built.timings.time("stamp", || {
        output::save_digests(out_dir, &files, &digests)?;
        crate::stamp::Stamp::record_outputs(api, out_dir, files)
    })?;
    Ok(Outcome::Ran(Box::new(built), report))
}
