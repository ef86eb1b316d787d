//! A file's identity for freshness, the way make and cargo decide it: its
//! length and modification time. The regen stamp, the load cache and the
//! render cache all key on it, for their inputs and for the program itself.

use serde::{Deserialize, Serialize};
use std::path::Path;
use std::time::UNIX_EPOCH;

/// A file's length and mtime.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileId {
    pub len: u64,
    pub mtime_ns: u128,
}

impl FileId {
    /// The identity of the file at `path`; `None` when it cannot be read.
    pub fn of(path: &Path) -> Option<FileId> {
        std::fs::metadata(path)
            .ok()
            .map(|meta| FileId::of_metadata(&meta))
    }

    /// The identity in `meta`; a file system without mtimes gives 0, which
    /// only makes freshness checks less useful.
    pub fn of_metadata(meta: &std::fs::Metadata) -> FileId {
        let mtime = meta
            .modified()
            .ok()
            .and_then(|time| time.duration_since(UNIX_EPOCH).ok())
            .unwrap_or_default();
        FileId {
            len: meta.len(),
            mtime_ns: mtime.as_nanos(),
        }
    }

    /// The identity of the running program: a rebuilt tool (other
    /// templates, other emitters) invalidates whatever it keyed.
    pub fn of_current_exe() -> Option<FileId> {
        FileId::of(&std::env::current_exe().ok()?)
    }
}
