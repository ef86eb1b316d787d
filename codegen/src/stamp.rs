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
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::UNIX_EPOCH;

/// The stamp's file name inside `generated/<api>/`.
pub const STAMP_FILE: &str = ".regen-stamp.json";

/// A file's identity for freshness: its length and mtime.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileId {
    pub len: u64,
    pub mtime_ns: u128,
}

impl FileId {
    fn of(path: &Path) -> Option<FileId> {
        let meta = std::fs::metadata(path).ok()?;
        let mtime = meta.modified().ok()?.duration_since(UNIX_EPOCH).ok()?;
        Some(FileId {
            len: meta.len(),
            mtime_ns: mtime.as_nanos(),
        })
    }
}

/// What one successful regen read and wrote.
#[derive(Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stamp {
    /// The program that ran the regen (a rebuilt emitter invalidates the stamp).
    pub tool: Option<FileId>,
    pub inputs: BTreeMap<PathBuf, FileId>,
    pub outputs: BTreeMap<PathBuf, FileId>,
}

impl Stamp {
    /// The stamp of the current state of `api`'s inputs and `out_dir`.
    pub fn current(api: &Api, out_dir: &Path) -> Result<Stamp> {
        let mut inputs = BTreeMap::new();
        let mut files = vec![api.dir.join(API_TOML), api.dir.join(ANNOTATIONS_FILE)];
        for minor in api.present_minors()? {
            files.extend(api.spec_files(&minor)?);
        }
        for file in files {
            if let Some(id) = FileId::of(&file) {
                inputs.insert(file, id);
            }
        }
        Ok(Stamp {
            tool: std::env::current_exe()
                .ok()
                .and_then(|exe| FileId::of(&exe)),
            inputs,
            outputs: outputs(out_dir),
        })
    }

    /// True when `out_dir`'s stamp equals the current state: nothing to do.
    pub fn is_fresh(api: &Api, out_dir: &Path) -> Result<bool> {
        let Ok(text) = std::fs::read(out_dir.join(STAMP_FILE)) else {
            return Ok(false);
        };
        let Ok(recorded) = serde_json::from_slice::<Stamp>(&text) else {
            return Ok(false);
        };
        Ok(recorded.tool.is_some() && recorded == Stamp::current(api, out_dir)?)
    }

    /// Records the current state after a successful regen.
    pub fn record(api: &Api, out_dir: &Path) -> Result<()> {
        let stamp = Stamp::current(api, out_dir)?;
        let text = serde_json::to_vec(&stamp).expect("a stamp always serializes");
        let path = out_dir.join(STAMP_FILE);
        std::fs::write(&path, text).map_err(|source| Error::Io {
            path,
            action: "writing the regen stamp",
            source,
        })
    }
}

/// Every output file's identity, except the stamp itself.
fn outputs(dir: &Path) -> BTreeMap<PathBuf, FileId> {
    let mut found = BTreeMap::new();
    let mut pending = vec![dir.to_owned()];
    while let Some(current) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&current) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if entry.file_type().is_ok_and(|kind| kind.is_dir()) {
                pending.push(path);
            } else if path != dir.join(STAMP_FILE) {
                if let Some(id) = FileId::of(&path) {
                    found.insert(path.strip_prefix(dir).unwrap_or(&path).to_owned(), id);
                }
            }
        }
    }
    found
}
