//! `vergate check --crd`: the CRD files given and the inputs handed to the
//! engine's [`CrdLoader`] (the engine reads them: `vergate::engine`), and
//! what it found, printed or kept as input errors.

use super::inputs::{self, ReadError, Source, Text, WalkOptions};
use super::results::InputError;
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use vergate::document;
use vergate::engine::{CrdLoader, Validator};

/// Adds to `validator` the CRDs in `crd_paths` (files, or directories
/// searched for them) and those among `sources` (read into `texts`, cut
/// into `parts`). Returns the `--crd` files that cannot be used, as input
/// errors; warnings go to stderr.
pub fn load(
    validator: Validator,
    crd_paths: &[PathBuf],
    sources: &[Source],
    texts: &[Result<Text, ReadError>],
    parts: &[Vec<document::Part<'_>>],
) -> (Validator, Vec<InputError>) {
    let mut loader = CrdLoader::new();
    let mut seen = HashSet::new();
    let (given, notes) = inputs::sources(crd_paths, &WalkOptions::default());
    for note in notes {
        eprintln!("warning: --crd: {note}");
    }
    for source in &given {
        let Some(path) = source.path() else {
            // A walk error, or `-`: standard input holds documents, not CRDs.
            let message = source.read().err().map_or(
                "--crd takes files and directories, not standard input".into(),
                |err| err.message,
            );
            loader.unreadable(InputError {
                file: source.name.clone(),
                line: 0,
                message,
            });
            continue;
        };
        seen.insert(std::fs::canonicalize(path).unwrap_or_else(|_| path.to_owned()));
        match source.read() {
            Ok(text) => loader.given(&source.name, path, &text, !source.walked),
            Err(err) => loader.unreadable(InputError {
                file: source.name.clone(),
                line: err.line,
                message: err.message,
            }),
        }
    }
    // Standard input is searched under its name; an input given with
    // `--crd` too is read once, as a CRD file.
    for ((source, text), parts) in sources.iter().zip(texts).zip(parts) {
        let path = match source.path() {
            Some(path) => {
                let key = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_owned());
                if seen.contains(&key) {
                    continue;
                }
                path
            }
            None if source.is_stdin() => Path::new(&source.name),
            None => continue,
        };
        if let Ok(text) = text {
            loader.input(&source.name, path, text, parts);
        }
    }
    let (validator, report) = validator.with_crd_loader(loader);
    for warning in &report.over_cost {
        eprintln!(
            "warning: --crd: {}:{}: {}",
            warning.file, warning.line, warning.message
        );
    }
    for warning in &report.warnings {
        eprintln!("{warning}");
    }
    let errors = report
        .errors
        .into_iter()
        .map(|error| InputError {
            message: format!("--crd: {}", error.message),
            ..error
        })
        .collect();
    (validator, errors)
}
