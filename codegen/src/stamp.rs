//! The regen stamp: what the last successful regen read and wrote, by size
//! and modification time (the way make and cargo decide freshness), so a
//! regen whose inputs, tool and outputs are all untouched can skip the work.
//!
//! The stamp lives inside the output directory as `.regen-stamp.json`; it is
//! per machine (git-ignored) and [`output::sync`](crate::output::sync)
//! leaves it alone. `--check` never trusts it.

use crate::annotations::ANNOTATIONS_FILE;
use crate::api::{Api, API_TOML};
use crate::error::{Error, Result};
pub use crate::file_id::FileId;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

pub use crate::output::STAMP_FILE;

/// What one successful regen read and wrote.
#[derive(Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stamp {
    /// The program that ran the regen (a rebuilt emitter invalidates the stamp).
    pub tool: Option<FileId>,
    pub inputs: BTreeMap<PathBuf, FileId>,
    pub outputs: BTreeMap<PathBuf, FileId>,
}

/// A stamp without its outputs.
#[derive(Deserialize)]
struct StampHead {
    tool: Option<FileId>,
    inputs: BTreeMap<PathBuf, FileId>,
}

/// A stamp's outputs, unordered.
#[derive(Deserialize)]
struct StampOutputs {
    outputs: HashMap<PathBuf, FileId>,
}

impl Stamp {
    fn tool_and_inputs(api: &Api) -> Result<(Option<FileId>, BTreeMap<PathBuf, FileId>)> {
        let mut inputs = BTreeMap::new();
        let mut files = vec![
            api.dir.join(API_TOML),
            api.dir.join(ANNOTATIONS_FILE),
            api.dir.join(crate::refinements::REFINEMENTS_FILE),
        ];
        for minor in api.present_minors()? {
            files.extend(api.spec_files(&minor)?);
        }
        files.extend(api.fact_files().into_iter().map(|(_, path, _, _)| path));
        for file in files {
            if let Some(id) = FileId::of(&file) {
                inputs.insert(file, id);
            }
        }
        Ok((FileId::of_current_exe(), inputs))
    }

    /// True when `out_dir`'s stamp equals the current state: nothing to do.
    /// The tool and the inputs are compared first, so a regen that has work
    /// to do does not list the outputs.
    pub fn is_fresh(api: &Api, out_dir: &Path) -> Result<bool> {
        let Ok(text) = std::fs::read(out_dir.join(STAMP_FILE)) else {
            return Ok(false);
        };
        // Tool and inputs first: when they differ, the outputs are neither
        // parsed nor listed.
        let Ok(head) = serde_json::from_slice::<StampHead>(&text) else {
            return Ok(false);
        };
        let (tool, inputs) = Stamp::tool_and_inputs(api)?;
        if head.tool.is_none() || head.tool != tool || head.inputs != inputs {
            return Ok(false);
        }
        // Hash maps on both sides: ordering 7,000 paths costs more than
        // everything else a no-op regen does.
        let Ok(recorded) = serde_json::from_slice::<StampOutputs>(&text) else {
            return Ok(false);
        };
        Ok(crate::output::list_files(out_dir).is_ok_and(|found| found == recorded.outputs))
    }

    /// Records the state after a successful regen whose sync reported the
    /// output files (see [`crate::output::Synced`]), without listing them
    /// again.
    pub fn record_outputs(
        api: &Api,
        out_dir: &Path,
        outputs: BTreeMap<PathBuf, FileId>,
    ) -> Result<()> {
        let (tool, inputs) = Stamp::tool_and_inputs(api)?;
        Stamp {
            tool,
            inputs,
            outputs,
        }
        .write(out_dir)
    }

    fn write(&self, out_dir: &Path) -> Result<()> {
        let text = serde_json::to_vec(self).expect("a stamp always serializes");
        let path = out_dir.join(STAMP_FILE);
        std::fs::write(&path, text)
            .map_err(|source| Error::io(&path, "writing the regen stamp", source))
    }
}
