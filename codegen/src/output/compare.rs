//! The current output tree and how the new one differs from it: files are
//! listed with their length and mtime, and a file is read only when its
//! length equals the new bytes' length and the last sync's digests
//! ([`super::digests`]) cannot tell.

use super::digests::{digest, Digests};
use super::STAMP_FILE;
use super::{Contents, FileTree, CACHE_DIR};
use crate::error::{Error, Result};
use crate::file_id::FileId;
use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};

/// How a file of the new tree relates to the current one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Added,
    Changed,
    Unchanged,
}

/// A file of the current tree.
#[derive(Clone, Copy, Debug)]
pub struct Listed {
    /// Length and mtime (of the target, for a symbolic link).
    pub id: FileId,
    /// A regular file, as opposed to a symbolic link or a special file.
    pub regular: bool,
}

/// Lists the files below `dir` (anything that is not a directory), relative
/// to it; the regen stamp and caches, and what other tools leave in the
/// output ([`super::Untouched`]), are left out. A missing directory has no
/// files.
pub fn list(dir: &Path) -> Result<HashMap<PathBuf, Listed>> {
    let mut files = HashMap::new();
    if !dir.exists() {
        return Ok(files);
    }
    let untouched = super::untouched();
    let mut pending = vec![dir.to_owned()];
    while let Some(current) = pending.pop() {
        let entries =
            std::fs::read_dir(&current).map_err(|source| Error::io(&current, "listing", source))?;
        // Other tools' entries (a crate's Cargo.lock and target/) are not
        // the regen's: never listed, so never removed.
        let theirs = current
            .strip_prefix(dir)
            .ok()
            .and_then(|relative| untouched.in_dir(relative));
        for entry in entries {
            let entry = entry.map_err(|source| Error::io(&current, "listing", source))?;
            if let Some(patterns) = theirs {
                let name = entry.file_name();
                let name = name.to_string_lossy();
                if patterns.iter().any(|pattern| pattern.matches(&name)) {
                    continue;
                }
            }
            let path = entry.path();
            let kind = entry
                .file_type()
                .map_err(|source| Error::io(&path, "inspecting", source))?;
            if kind.is_dir() {
                // The render caches are the regen's own, like the stamp.
                if current != dir || entry.file_name() != CACHE_DIR {
                    pending.push(path);
                }
                continue;
            }
            let relative = path.strip_prefix(dir).expect("listed below dir").to_owned();
            if relative.as_os_str() == STAMP_FILE {
                continue;
            }
            // Follow a symbolic link, as reading the file does.
            let meta = if kind.is_symlink() {
                std::fs::metadata(&path).or_else(|_| entry.metadata())
            } else {
                entry.metadata()
            };
            let meta = meta.map_err(|source| Error::io(&path, "inspecting", source))?;
            let listed = Listed {
                id: FileId::of_metadata(&meta),
                regular: kind.is_file(),
            };
            files.insert(relative, listed);
        }
    }
    Ok(files)
}

/// The status of every file of `tree`, in the tree's order. Files whose
/// length matches are compared by their digest where `known` records the
/// file as it is listed now, and read and compared otherwise, on every core.
/// With `known`, also returns every file's digest (for the next record).
pub fn classify(
    tree: &FileTree,
    dir: &Path,
    existing: &HashMap<PathBuf, Listed>,
    known: Option<&Digests>,
) -> Result<(Vec<Status>, Vec<u128>)> {
    let files: Vec<(&Path, &Contents)> = tree.contents().collect();
    let digests = match known {
        Some(_) => crate::parallel::map(&files, |(_, bytes)| digest(bytes)),
        None => Vec::new(),
    };
    let mut statuses = Vec::with_capacity(files.len());
    let mut to_read: Vec<(usize, &Path, &Contents)> = Vec::new();
    for (index, &(path, bytes)) in files.iter().enumerate() {
        let status = match existing.get(path) {
            None => Status::Added,
            Some(listed) if listed.id.len != bytes.len() as u64 => Status::Changed,
            Some(listed) => {
                let recorded = known.and_then(|known| known.holds(path, listed.id, digests[index]));
                match recorded {
                    Some(true) => Status::Unchanged,
                    Some(false) => Status::Changed,
                    None => {
                        to_read.push((index, path, bytes));
                        Status::Unchanged
                    }
                }
            }
        };
        statuses.push(status);
    }
    let differing = crate::parallel::map(&to_read, |&(index, path, bytes)| {
        differs(&dir.join(path), bytes).map(|differs| differs.then_some(index))
    });
    for index in differing {
        if let Some(index) = index? {
            statuses[index] = Status::Changed;
        }
    }
    Ok((statuses, digests))
}

/// True when the file at `full` holds other bytes than `bytes`.
fn differs(full: &Path, bytes: &Contents) -> Result<bool> {
    let file = std::fs::File::open(full).map_err(|source| Error::io(full, "reading", source))?;
    let mut buffer = Vec::with_capacity(bytes.len() + 1);
    // One byte more than expected tells a file that grew since listing.
    file.take(bytes.len() as u64 + 1)
        .read_to_end(&mut buffer)
        .map_err(|source| Error::io(full, "reading", source))?;
    Ok(!bytes.eq_bytes(&buffer))
}
