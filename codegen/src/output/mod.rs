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

/// Makes `dir` hold exactly `tree`.
///
/// The new tree is built aside, in a sibling staging directory: unchanged
/// files are hard-linked from the current tree (same bytes, same mtime, so
/// cargo does not rebuild what did not change), new and changed files are
/// written there. Then the staging directory is swapped in whole. A reader
/// never sees a half-written tree, and a failure before the swap leaves `dir`
/// exactly as it was. When nothing differs, nothing is touched.
///
/// In [`Mode::Check`] nothing is written; the report says what would change.
pub fn sync(tree: &FileTree, dir: &Path, mode: Mode) -> Result<SyncReport> {
    recover_interrupted_swap(dir)?;
    let existing = list_files(dir)?;
    let mut report = SyncReport::default();
    for (path, bytes) in tree.iter() {
        if existing.contains_key(path) {
            let full = dir.join(path);
            let current = std::fs::read(&full).map_err(|source| io(&full, "reading", source))?;
            if current == bytes {
                report.unchanged += 1;
                continue;
            }
            report.changed.push(path.to_owned());
        } else {
            report.added.push(path.to_owned());
        }
    }
    report.removed = existing
        .keys()
        .filter(|path| tree.get(path).is_none())
        .cloned()
        .collect();
    if mode == Mode::Write && !report.is_clean() {
        swap_in(tree, dir, &report)?;
    }
    Ok(report)
}

/// The sibling directories used while swapping `dir`.
fn sibling(dir: &Path, suffix: &str) -> PathBuf {
    let name = dir
        .file_name()
        .map_or_else(|| "out".into(), |n| n.to_string_lossy().into_owned());
    dir.with_file_name(format!(".{name}.{suffix}"))
}

fn swap_in(tree: &FileTree, dir: &Path, report: &SyncReport) -> Result<()> {
    let staging = sibling(dir, "staging");
    let previous = sibling(dir, "previous");
    for leftover in [&staging, &previous] {
        if leftover.exists() {
            std::fs::remove_dir_all(leftover)
                .map_err(|source| io(leftover, "removing a leftover", source))?;
        }
    }
    let built = build_staging(tree, dir, &staging, report);
    if let Err(err) = built {
        let _ = std::fs::remove_dir_all(&staging);
        return Err(err);
    }
    if dir.exists() {
        std::fs::rename(dir, &previous)
            .map_err(|source| io(dir, "moving the previous tree aside", source))?;
    }
    if let Err(source) = std::fs::rename(&staging, dir) {
        // Put the previous tree back before reporting.
        let _ = std::fs::rename(&previous, dir);
        return Err(io(dir, "swapping in the new tree", source));
    }
    if previous.exists() {
        std::fs::remove_dir_all(&previous)
            .map_err(|source| io(&previous, "removing the previous tree", source))?;
    }
    Ok(())
}

fn build_staging(tree: &FileTree, dir: &Path, staging: &Path, report: &SyncReport) -> Result<()> {
    let fresh: std::collections::BTreeSet<&PathBuf> =
        report.added.iter().chain(&report.changed).collect();
    for (path, bytes) in tree.iter() {
        let target = staging.join(path);
        let parent = target.parent().expect("output files live in a directory");
        std::fs::create_dir_all(parent)
            .map_err(|source| io(parent, "creating a directory", source))?;
        if fresh.contains(&path.to_path_buf()) {
            std::fs::write(&target, bytes).map_err(|source| io(&target, "writing", source))?;
        } else {
            let current = dir.join(path);
            if std::fs::hard_link(&current, &target).is_err() {
                // A file system without hard links: copy, keeping the mtime.
                std::fs::copy(&current, &target)
                    .map_err(|source| io(&target, "copying", source))?;
                let mtime = std::fs::metadata(&current)
                    .and_then(|meta| meta.modified())
                    .map_err(|source| io(&current, "reading the mtime", source))?;
                let file = std::fs::File::options()
                    .write(true)
                    .open(&target)
                    .map_err(|source| io(&target, "opening", source))?;
                file.set_modified(mtime)
                    .map_err(|source| io(&target, "setting the mtime", source))?;
            }
        }
    }
    if tree.is_empty() {
        std::fs::create_dir_all(staging)
            .map_err(|source| io(staging, "creating a directory", source))?;
    }
    Ok(())
}

/// A swap cut off between its two renames leaves the previous tree aside and
/// no tree in place: put it back.
fn recover_interrupted_swap(dir: &Path) -> Result<()> {
    let previous = sibling(dir, "previous");
    if previous.is_dir() && !dir.exists() {
        std::fs::rename(&previous, dir)
            .map_err(|source| io(dir, "restoring the previous tree", source))?;
    }
    Ok(())
}

fn io(path: &Path, action: &'static str, source: std::io::Error) -> Error {
    Error::Io {
        path: path.to_owned(),
        action,
        source,
    }
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
                if relative.as_os_str() != crate::stamp::STAMP_FILE {
                    files.insert(relative, ());
                }
            }
        }
    }
    Ok(files)
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
        let siblings: Vec<_> = std::fs::read_dir(tmp.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(
            siblings,
            ["out"],
            "no staging or previous tree is left behind"
        );
    }

    #[test]
    fn an_interrupted_swap_is_recovered() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("out");
        let mut tree = FileTree::new();
        tree.insert("a.txt", b"a".to_vec()).unwrap();
        sync(&tree, &dir, Mode::Write).unwrap();
        std::fs::rename(&dir, tmp.path().join(".out.previous")).unwrap();
        let report = sync(&tree, &dir, Mode::Check).unwrap();
        assert!(
            report.is_clean(),
            "the previous tree was put back: {report}"
        );
    }
}
