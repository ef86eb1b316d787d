//! `vergate check`: preflight every document of every input.
//!
//! - `source`: reading one input and checking its documents, files and the
//!   parts of a file in parallel, merged back in input order.

use super::{
    config, crd_inputs, inputs, json_report::JsonReport, junit, known_minor, load_tables,
    print_json, sarif, tap, text, write_out, CheckArgs, Outcome, ReportFormat,
};
mod modeline;
mod source;

use rayon::prelude::*;

use vergate::document;
use vergate::engine::{CheckOptions, Validator};

pub use super::results::{Checked, Found, InputError, Results, Skipped};

/// The stack of each checking thread: CEL rules compile and run on them
/// (see `STACK` in main.rs for why it is larger than the default 2 MiB).
const WORKER_STACK: usize = 32 << 20;
pub(super) use source::is_template;

/// The advice for a Go template found among the inputs.
pub(super) const TEMPLATE: &str = vergate::engine::TEMPLATE;

/// The reason for skipping a document that is not a Kubernetes-style object.
pub(super) const NOT_A_MANIFEST: &str = "not a manifest (it lacks apiVersion or kind); \
     name the file to make this an error";

/// An API without kinds would pass every document unchecked ("no such
/// kind"): `check` refuses it, naming its gates.json and the fix.
fn has_kinds(tables: &vergate::tables::GateTables, api: &std::path::Path) -> Result<(), Outcome> {
    if !tables.kinds().is_empty() {
        return Ok(());
    }
    let file = if api.is_dir() {
        api.join("gates.json")
    } else {
        api.to_owned()
    };
    let name = tables.api();
    eprintln!(
        "error: {}: {name} has no kinds (no type is served as a resource kind), so no document \
         could be checked against it; list its kinds in upstream-specs/{name}/api.toml under `[kinds]` \
         (`\"<definition name>\" = \"<group>/<version>\"`) and run `cargo xtask regen --api {name}`",
        file.display()
    );
    Err(Outcome::InputError)
}

pub fn run(args: &CheckArgs) -> Outcome {
    // vergate.toml, with the flags over it.
    let resolved = match config::resolve(args) {
        Ok(resolved) => resolved,
        Err(outcome) => return outcome,
    };
    let config = &resolved.config;
    let sources = if args.inputs.is_empty() {
        match inputs::stdin_source(false) {
            Ok(source) => vec![source],
            Err(message) => {
                eprintln!("error: {message}");
                return Outcome::InputError;
            }
        }
    } else {
        let walk = inputs::WalkOptions {
            hidden: args.hidden,
            no_ignore: args.no_ignore,
            ignore: args.ignore.clone(),
        };
        let (sources, notes) = inputs::sources(&args.inputs, &walk);
        for note in notes {
            eprintln!("warning: {note}");
        }
        sources
    };
    // Fails only when the pool was built before: this comes before the
    // first parallel step (reading the inputs), and says so if that
    // changes. Its threads compile and run CEL rules, which recurse along
    // a rule's nesting: they get the stack the main one has.
    if let Err(err) = rayon::ThreadPoolBuilder::new()
        .num_threads(args.jobs)
        .stack_size(WORKER_STACK)
        .build_global()
    {
        eprintln!("warning: -j {} not applied: {err}", args.jobs);
    }
    // The tables load on the pool while this thread reads the inputs and
    // cuts them into parts (`document::split`, once, for the CRD scan and
    // the check): this thread is awake, where a second worker would first
    // have to be woken (on two cores, the read often waited for the tables
    // to be done). Many inputs are read on the pool as well. Their texts
    // are kept to the process's end, as everything the check holds (see
    // below), so the parts can borrow them from here on.
    let mut tables = None;
    let (texts, parts) = rayon::in_place_scope(|scope| {
        scope.spawn(|_| {
            tables = Some(load_tables(config.api.as_deref()));
        });
        let texts: &'static [Result<inputs::Text, inputs::ReadError>] =
            Vec::leak(here_or_pooled(&sources, inputs::Source::read));
        let parts: Vec<Vec<document::Part<'static>>> = here_or_pooled(texts, |text| {
            text.as_deref().map_or_else(|_| Vec::new(), document::split)
        });
        (texts, parts)
    });
    let tables = match tables.expect("the scope waits for its job") {
        Ok(tables) => tables,
        Err(outcome) => return outcome,
    };
    if let Some(api) = &config.api {
        if let Err(outcome) = has_kinds(&tables, api) {
            return outcome;
        }
    }
    if let Err(outcome) = resolved.check_settings_target(&tables) {
        return outcome;
    }
    if let Some(target) = config.target {
        if let Err(outcome) = known_minor(&tables, "--target", target) {
            return outcome;
        }
        if let Some(note) = tables.deprecated_versions().get(&target) {
            eprintln!(
                "warning: {} {target}: {} {target} is deprecated: {note}",
                if resolved.target_from_flag {
                    "--target"
                } else {
                    "target"
                },
                tables.api()
            );
        }
    }
    let options = CheckOptions {
        strict: args.strict,
        fields: args.validate,
        feature_gates: config.gates(),
        rules: config.rules.clone(),
        skip_kinds: args.skip.clone(),
        reject_kinds: args.reject.clone(),
    };
    // A file's modeline sets its target unless --target is given; each
    // other target a modeline names gets its validator (CRDs are built for
    // one minor), loaded again from the same API.
    let modelines = modeline::read(texts, &tables, !resolved.target_from_flag);
    let mut validators = Vec::new();
    for target in modelines.targets(config.target) {
        match load_tables(config.api.as_deref()) {
            Ok(tables) => validators.push(
                Validator::new(tables)
                    .target(target)
                    .options(options.clone()),
            ),
            Err(outcome) => return outcome,
        }
    }
    let validator = Validator::new(tables)
        .target(config.target)
        .options(options);
    let (validator, crd_errors) =
        crd_inputs::load(validator, &config.crds, &sources, texts, &parts);
    // The same CRDs for the modelines' targets; their errors are the ones
    // already reported.
    let moded: Vec<Validator> = validators
        .into_iter()
        .map(|moded| crd_inputs::load(moded, &config.crds, &sources, texts, &parts).0)
        .collect();
    let mut results = Results::default();
    results.errors.extend(crd_errors);
    let checked = source::check_all(&validator, &moded, &modelines, &sources, texts, &parts);
    for file in checked {
        results.append(file);
    }
    match args.format {
        ReportFormat::Text => text::print(&results, validator.tables().api(), args.color),
        ReportFormat::Json => print_json(&JsonReport::of(&results)),
        ReportFormat::Sarif => print_json(&sarif::report(&results)),
        ReportFormat::Junit => write_out(&junit::report(&results, validator.tables().api())),
        ReportFormat::Tap => write_out(&tap::report(&results)),
    }
    let outcome = results.outcome();
    // The process ends here: the system takes its memory back at once,
    // where freeing the gate tables and the results piece by piece would
    // take a few milliseconds of a run that may take fifty.
    std::mem::forget(results);
    std::mem::forget(validator);
    std::mem::forget(moded);
    std::mem::forget(parts);
    outcome
}

/// `each` of every item, in order: of one item on this thread, of many on
/// the pool (one item handed to the pool from here would wait for a
/// worker to take it).
fn here_or_pooled<'a, T: Sync, R: Send>(
    items: &'a [T],
    each: impl Fn(&'a T) -> R + Sync + Send,
) -> Vec<R> {
    match items {
        [item] => vec![each(item)],
        items => items.par_iter().map(each).collect(),
    }
}
