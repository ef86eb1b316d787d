//! The output tree: built in memory by the emitters, then synced to disk so
//! that only files whose bytes change are written and files no longer
//! produced are removed. Nothing is written until every emitter succeeded.

use crate::error::{Error, Result};
use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};

/// Files by path relative to `generated/<api>/`, in sorted order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FileTree {
    files: BTreeMap<PathBuf, Vec<u8>>,
}

impl FileTree {
    /// An empty tree.
    pub fn new() -> Self {
        FileTree::default()
    }

    /// Adds a file. The path must be relative and stay inside the tree (no
    /// `..`, no root, no NUL); adding the same path twice is an error.
    pub fn insert(&mut self, path: impl AsRef<Path>, contents: Vec<u8>) -> Result<()> {
        let path = path.as_ref();
        check_relative(path)?;
        if self.files.insert(path.to_owned(), contents).is_some() {
            return Err(Error::Config {
                path: path.to_owned(),
                message: "two emitters wrote the same output file".into(),
            });
        }
        Ok(())
    }

    /// The files, sorted by path.
    pub fn iter(&self) -> impl Iterator<Item = (&Path, &[u8])> {
        self.files
            .iter()
            .map(|(path, bytes)| (path.as_path(), bytes.as_slice()))
    }

    /// One file's bytes.
    pub fn get(&self, path: impl AsRef<Path>) -> Option<&[u8]> {
        self.files.get(path.as_ref()).map(Vec::as_slice)
    }

    /// The number of files.
    pub fn len(&self) -> usize {
        self.files.len()
    }

    /// True when the tree has no file.
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }
}

fn check_relative(path: &Path) -> Result<()> {
    let text = path.to_string_lossy();
    let escapes = path.as_os_str().is_empty()
        || text.contains('\0')
        || path
            .components()
            .any(|component| !matches!(component, Component::Normal(_)));
    if escapes {
        return Err(Error::Config {
            path: path.to_owned(),
            message: "an output path must stay inside generated/<api>/ (relative, no `..`, no NUL)"
                .into(),
        });
    }
    Ok(())
}

/// Whether [`sync`] writes or only compares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Write,
    Check,
}

/// What a sync did (or, in check mode, would do), with paths relative to
/// the output directory.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SyncReport {
    pub added: Vec<PathBuf>,
    pub changed: Vec<PathBuf>,
    pub removed: Vec<PathBuf>,
    pub unchanged: usize,
}

impl SyncReport {
    /// True when nothing differs.
    pub fn is_clean(&self) -> bool {
        self.added.is_empty() && self.changed.is_empty() && self.removed.is_empty()
    }

    /// Every differing path, sorted.
    pub fn differing(&self) -> Vec<&PathBuf> {
        let mut all: Vec<&PathBuf> = self
            .added
            .iter()
            .chain(&self.changed)
            .chain(&self.removed)
            .collect();
        all.sort();
        all
    }
}

impl std::fmt::Display for SyncReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} added, {} changed, {} removed, {} unchanged",
            self.added.len(),
            self.changed.len(),
            self.removed.len(),
            self.unchanged
        )
    }
}

/// Makes `dir` hold exactly `tree`: writes new and changed files (through a
/// temporary file and a rename, so no reader sees half a file), removes files
/// the tree no longer has, and leaves unchanged files untouched (same bytes,
/// same mtime). In [`Mode::Check`] nothing is written.
pub fn sync(tree: &FileTree, dir: &Path, mode: Mode) -> Result<SyncReport> {
    let existing = list_files(dir)?;
    let mut report = SyncReport::default();
    for (path, bytes) in tree.iter() {
        let full = dir.join(path);
        if existing.contains_key(path) {
            let current = std::fs::read(&full).map_err(|source| io(&full, "reading", source))?;
            if current == bytes {
                report.unchanged += 1;
                continue;
            }
            report.changed.push(path.to_owned());
        } else {
            report.added.push(path.to_owned());
        }
        if mode == Mode::Write {
            write_atomically(&full, bytes)?;
        }
    }
    for path in existing.keys() {
        if tree.get(path).is_none() {
            report.removed.push(path.clone());
            if mode == Mode::Write {
                let full = dir.join(path);
                std::fs::remove_file(&full)
                    .map_err(|source| io(&full, "removing a stale file", source))?;
            }
        }
    }
    if mode == Mode::Write {
        remove_empty_dirs(dir)?;
    }
    Ok(report)
}

fn io(path: &Path, action: &'static str, source: std::io::Error) -> Error {
    Error::Io {
        path: path.to_owned(),
        action,
        source,
    }
}

fn write_atomically(path: &Path, bytes: &[u8]) -> Result<()> {
    let parent = path.parent().expect("output files live in a directory");
    std::fs::create_dir_all(parent).map_err(|source| io(parent, "creating a directory", source))?;
    let file_name = path
        .file_name()
        .expect("output files have names")
        .to_string_lossy();
    let temporary = parent.join(format!(".{file_name}.vergate-tmp"));
    std::fs::write(&temporary, bytes).map_err(|source| io(&temporary, "writing", source))?;
    std::fs::rename(&temporary, path).map_err(|source| io(path, "replacing", source))
}

/// Lists the regular files below `dir`, relative to it. A missing directory
/// has no files.
fn list_files(dir: &Path) -> Result<BTreeMap<PathBuf, ()>> {
    let mut files = BTreeMap::new();
    if !dir.exists() {
        return Ok(files);
    }
    let mut pending = vec![dir.to_owned()];
    while let Some(current) = pending.pop() {
        let entries =
            std::fs::read_dir(&current).map_err(|source| io(&current, "listing", source))?;
        for entry in entries {
            let entry = entry.map_err(|source| io(&current, "listing", source))?;
            let path = entry.path();
            let kind = entry
                .file_type()
                .map_err(|source| io(&path, "inspecting", source))?;
            if kind.is_dir() {
                pending.push(path);
            } else {
                let relative = path.strip_prefix(dir).expect("listed below dir").to_owned();
                files.insert(relative, ());
            }
        }
    }
    Ok(files)
}

fn remove_empty_dirs(dir: &Path) -> Result<bool> {
    if !dir.is_dir() {
        return Ok(false);
    }
    let mut empty = true;
    for entry in std::fs::read_dir(dir).map_err(|source| io(dir, "listing", source))? {
        let path = entry.map_err(|source| io(dir, "listing", source))?.path();
        if path.is_dir() && remove_empty_dirs(&path)? {
            std::fs::remove_dir(&path)
                .map_err(|source| io(&path, "removing an empty directory", source))?;
        } else {
            empty = false;
        }
    }
    Ok(empty)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_must_stay_inside() {
        let mut tree = FileTree::new();
        for bad in ["../x", "/etc/x", "a/../../b", "", "a\0b"] {
            assert!(tree.insert(bad, vec![]).is_err(), "{bad:?}");
        }
        tree.insert("a/b.json", vec![1]).unwrap();
        assert!(tree.insert("a/b.json", vec![2]).is_err());
    }

    #[test]
    fn sync_writes_only_what_changed() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("out");
        let mut tree = FileTree::new();
        tree.insert("keep.txt", b"same".to_vec()).unwrap();
        tree.insert("sub/change.txt", b"old".to_vec()).unwrap();
        tree.insert("gone/stale.txt", b"x".to_vec()).unwrap();
        let first = sync(&tree, &dir, Mode::Write).unwrap();
        assert_eq!(first.added.len(), 3);

        let keep_mtime = std::fs::metadata(dir.join("keep.txt"))
            .unwrap()
            .modified()
            .unwrap();
        let mut next = FileTree::new();
        next.insert("keep.txt", b"same".to_vec()).unwrap();
        next.insert("sub/change.txt", b"new".to_vec()).unwrap();
        next.insert("sub/new.txt", b"n".to_vec()).unwrap();

        let check = sync(&next, &dir, Mode::Check).unwrap();
        assert_eq!(check.differing().len(), 3);
        assert_eq!(
            std::fs::read(dir.join("sub/change.txt")).unwrap(),
            b"old",
            "check mode writes nothing"
        );

        let report = sync(&next, &dir, Mode::Write).unwrap();
        assert_eq!(
            report.to_string(),
            "1 added, 1 changed, 1 removed, 1 unchanged"
        );
        assert_eq!(std::fs::read(dir.join("sub/change.txt")).unwrap(), b"new");
        assert!(!dir.join("gone").exists(), "empty directories are removed");
        let after = std::fs::metadata(dir.join("keep.txt"))
            .unwrap()
            .modified()
            .unwrap();
        assert_eq!(keep_mtime, after, "unchanged files are not rewritten");
        assert!(sync(&next, &dir, Mode::Write).unwrap().is_clean());
    }
}
