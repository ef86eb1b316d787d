//! `check`'s modelines: each input's `# vergate: target=…`
//! (`vergate::settings::modeline` says where one may be), read once, and
//! the minors they name beside the run's target.

use crate::cli::inputs::{ReadError, Text};
use rayon::prelude::*;
use vergate::tables::GateTables;
use vergate::Version;

/// What one input's modeline says.
pub(super) enum FileTarget {
    /// No modeline (or `--target` given): the run's target.
    Run,
    /// The modeline's minor.
    Own(Version),
    /// A modeline that does not read, or names a minor the API lacks: an
    /// input error at its line, the file left unchecked.
    Error { line: u32, message: String },
}

/// The modeline of each input, in input order.
pub(super) struct Modelines(Vec<FileTarget>);

/// Reads the modelines of `texts` (none when `enabled` is false: `--target`
/// was given).
pub(super) fn read(
    texts: &[Result<Text, ReadError>],
    tables: &GateTables,
    enabled: bool,
) -> Modelines {
    if !enabled {
        return Modelines(texts.iter().map(|_| FileTarget::Run).collect());
    }
    Modelines(
        texts
            .par_iter()
            .map(|text| match text.as_deref() {
                Ok(text) => of(text, tables),
                Err(_) => FileTarget::Run,
            })
            .collect(),
    )
}

fn of(text: &str, tables: &GateTables) -> FileTarget {
    match vergate::settings::modeline(text) {
        None => FileTarget::Run,
        Some(Err(err)) => FileTarget::Error {
            line: err.line,
            message: format!("column {}: {}", err.column, err.message),
        },
        Some(Ok(found)) if !tables.has_version(found.target) => FileTarget::Error {
            line: found.line,
            message: format!(
                "column {}: modeline: target {target}: {} has no minor {target} (its minors: {}); write one of them",
                found.column,
                tables.api(),
                tables.versions_text(),
                target = found.target,
            ),
        },
        Some(Ok(found)) => FileTarget::Own(found.target),
    }
}

impl Modelines {
    /// The minors modelines name other than `run` (the run's target),
    /// ascending: one validator each.
    pub(super) fn targets(&self, run: Option<Version>) -> Vec<Version> {
        let mut targets: Vec<Version> = self
            .0
            .iter()
            .filter_map(|target| match target {
                FileTarget::Own(minor) if Some(*minor) != run => Some(*minor),
                _ => None,
            })
            .collect();
        targets.sort();
        targets.dedup();
        targets
    }

    /// The modeline of input `index`.
    pub(super) fn of(&self, index: usize) -> &FileTarget {
        &self.0[index]
    }
}
