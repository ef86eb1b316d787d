//! The output tree: built in memory by the emitters, then synced to disk so
//! that only files whose bytes change are written and files no longer
//! produced are removed. Nothing is written until every emitter succeeded.
//!
//! - `compare`: the current tree's files and how each new file differs;
//! - `digests`: what the last sync left, so an untouched file is not read;
//! - `journal`: writing the differences through a journal, and finishing a
//!   sync that was cut off.

mod cache;
mod compare;
mod contents;
mod digests;
mod journal;
mod links;
mod tree_path;

use crate::error::{Error, Result};
use crate::file_id::FileId;
pub use cache::{RenderCache, CACHE_DIR};
pub use contents::{Contents, Piece};
pub use digests::Digests;
use std::collections::{BTreeMap, HashMap};
use std::path::{Component, Path, PathBuf};
use std::time::{Duration, Instant};
use tree_path::TreePath;

/// The regen stamp's file name inside `generated/<api>/` (`crate::stamp`):
/// the regen's own, like [`CACHE_DIR`], never listed as output.
pub const STAMP_FILE: &str = ".regen-stamp.json";

/// Files by path relative to `generated/<api>/`, in sorted order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FileTree {
    files: BTreeMap<TreePath, Contents>,
    /// Files that hold exactly the bytes of another file of the tree, by
    /// path: the file they copy. A sync writes each as a hard link to that
    /// file where the file system allows (a copy elsewhere), so the bytes
    /// are on disk once ([`links`]).
    links: BTreeMap<TreePath, TreePath>,
}

impl FileTree {
    /// An empty tree.
    pub fn new() -> Self {
        FileTree::default()
    }

    /// Adds a file. The path must be relative and stay inside the tree (no
    /// `..`, no root, no NUL); adding the same path twice is an error.
    pub fn insert(&mut self, path: impl AsRef<Path>, contents: Vec<u8>) -> Result<()> {
        self.insert_contents(path, Contents::from(contents))
    }

    /// Adds a file given as [`Contents`] (pieces shared with other files),
    /// with the checks of [`FileTree::insert`].
    pub fn insert_contents(&mut self, path: impl AsRef<Path>, contents: Contents) -> Result<()> {
        let path = path.as_ref();
        check_relative(path)?;
        let first = path.components().next().map(Component::as_os_str);
        if first.is_some_and(|name| name == STAMP_FILE || name == CACHE_DIR) {
            return Err(Error::Config {
                path: path.to_owned(),
                message:
                    "this name is the regen's own (its stamp and caches); emit the file elsewhere"
                        .into(),
            });
        }
        if untouched().covers(path) {
            return Err(Error::Config {
                path: path.to_owned(),
                message: "this name is left to the tools that use the output (the emitter \
                          registry's `untouched`); emit the file elsewhere"
                    .into(),
            });
        }
        let key = TreePath::new(path);
        if self.links.contains_key(&key) || self.files.insert(key, contents).is_some() {
            return Err(Error::Config {
                path: path.to_owned(),
                message: "two emitters wrote the same output file".into(),
            });
        }
        Ok(())
    }

    /// Adds `path` as a file with exactly the bytes of `target`, a file
    /// already in the tree: written as a hard link to it where the file
    /// system allows. The checks of [`FileTree::insert`] apply to `path`.
    pub fn insert_link(&mut self, path: impl AsRef<Path>, target: impl AsRef<Path>) -> Result<()> {
        let (path, target) = (path.as_ref(), target.as_ref());
        let target_key = TreePath::new(target);
        if !self.files.contains_key(&target_key) {
            return Err(Error::Config {
                path: path.to_owned(),
                message: format!(
                    "links to {}, which the tree does not hold (insert the file first)",
                    target.display()
                ),
            });
        }
        // The checks of a file, then the file moved to the links.
        self.insert_contents(path, Contents::from(Vec::new()))?;
        let key = TreePath::new(path);
        self.files.remove(&key);
        self.links.insert(key, target_key);
        Ok(())
    }

    /// The files written as links, with the file each holds the bytes of.
    pub fn links(&self) -> impl Iterator<Item = (&Path, &Path)> {
        self.links
            .iter()
            .map(|(path, target)| (path.as_path(), target.as_path()))
    }

    /// The contents of the file at `path`, links not followed.
    fn file(&self, path: &Path) -> Option<&Contents> {
        self.files.get(&TreePath::new(path))
    }

    /// Moves every file of `other` into this tree; a path both trees hold
    /// is an error, as with [`FileTree::insert`].
    pub fn merge(&mut self, mut other: FileTree) -> Result<()> {
        let clash = other
            .links
            .keys()
            .find(|path| self.files.contains_key(*path) || self.links.contains_key(*path))
            .or_else(|| {
                other
                    .files
                    .keys()
                    .find(|path| self.links.contains_key(*path))
            });
        if let Some(path) = clash {
            return Err(Error::Config {
                path: path.as_path().to_owned(),
                message: "two emitters wrote the same output file".into(),
            });
        }
        self.links.append(&mut other.links);
        if other.files.len() > self.files.len() {
            std::mem::swap(&mut self.files, &mut other.files);
        }
        if let Some(path) = other.files.keys().find(|p| self.files.contains_key(*p)) {
            return Err(Error::Config {
                path: path.as_path().to_owned(),
                message: "two emitters wrote the same output file".into(),
            });
        }
        self.files.append(&mut other.files);
        Ok(())
    }

    /// Every file with its bytes: the files sorted by path, then the links
    /// sorted by path (with their target's bytes). A file held as pieces is
    /// joined for this (once); [`FileTree::contents`] gives them without
    /// joining.
    pub fn iter(&self) -> impl Iterator<Item = (&Path, &[u8])> {
        let files = self
            .files
            .iter()
            .map(|(path, contents)| (path.as_path(), contents.as_bytes()));
        let links = self
            .links
            .iter()
            .map(|(path, target)| (path.as_path(), self.files[target].as_bytes()));
        files.chain(links)
    }

    /// The files as they are held, sorted by path, without the links.
    pub fn contents(&self) -> impl Iterator<Item = (&Path, &Contents)> {
        self.files
            .iter()
            .map(|(path, contents)| (path.as_path(), contents))
    }

    /// One file's bytes (joined, once, if the file is held as pieces).
    pub fn get(&self, path: impl AsRef<Path>) -> Option<&[u8]> {
        let key = TreePath::new(path.as_ref());
        let key = self.links.get(&key).unwrap_or(&key);
        self.files.get(key).map(Contents::as_bytes)
    }

    /// True when the tree has a file at `path`.
    pub fn contains(&self, path: impl AsRef<Path>) -> bool {
        let key = TreePath::new(path.as_ref());
        self.files.contains_key(&key) || self.links.contains_key(&key)
    }

    /// The number of files, links included.
    pub fn len(&self) -> usize {
        self.files.len() + self.links.len()
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

/// What other tools leave inside the output (the emitter registry's
/// [`untouched`](crate::emit::Emitter::untouched)): entries of these
/// directories whose names match are not the regen's. A sync does not list
/// them (nor walk a directory among them, such as a crate's `target/`), so
/// it never writes or removes them, `--check` does not call them stale and
/// the regen stamp does not see them change.
#[derive(Debug, Default)]
pub(crate) struct Untouched {
    dirs: Vec<(PathBuf, Vec<glob::Pattern>)>,
}

impl Untouched {
    /// The patterns of the directory `relative` (to the output), if any.
    pub(crate) fn in_dir(&self, relative: &Path) -> Option<&[glob::Pattern]> {
        self.dirs
            .iter()
            .find(|(dir, _)| dir == relative)
            .map(|(_, patterns)| patterns.as_slice())
    }

    /// True when `path` (relative to the output) is, or is below, an
    /// untouched entry.
    pub(crate) fn covers(&self, path: &Path) -> bool {
        self.dirs.iter().any(|(dir, patterns)| {
            let Ok(rest) = path.strip_prefix(dir) else {
                return false;
            };
            let Some(Component::Normal(name)) = rest.components().next() else {
                return false;
            };
            let name = name.to_string_lossy();
            patterns.iter().any(|pattern| pattern.matches(&name))
        })
    }
}

/// The registry's untouched entries, read once.
pub(crate) fn untouched() -> &'static Untouched {
    static UNTOUCHED: std::sync::OnceLock<Untouched> = std::sync::OnceLock::new();
    UNTOUCHED.get_or_init(|| {
        let mut dirs: Vec<(PathBuf, Vec<glob::Pattern>)> = Vec::new();
        for (dir, name) in crate::emit::registry::untouched() {
            let pattern = glob::Pattern::new(name).expect("the registry's patterns are valid");
            match dirs.iter_mut().find(|(known, _)| known == Path::new(dir)) {
                Some((_, patterns)) => patterns.push(pattern),
                None => dirs.push((PathBuf::from(dir), vec![pattern])),
            }
        }
        Untouched { dirs }
    })
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

/// What [`sync_files`] did, and the identity of every output file after it.
#[derive(Debug, Default)]
pub struct Synced {
    pub report: SyncReport,
    /// Every file below the output directory once the sync is done (in
    /// [`Mode::Check`], as it was), with its length and mtime: what the regen
    /// stamp records.
    pub files: BTreeMap<PathBuf, FileId>,
    /// How long each step took: compare, then stage and apply (or write
    /// whole).
    pub steps: Vec<(&'static str, Duration)>,
    /// The digest of every file's bytes, by path, when the listing asked
    /// for them ([`list_ahead`]); what [`save_digests`] records.
    pub digests: HashMap<PathBuf, u128>,
}

/// Records each file's identity after a sync (`files`) and its digest
/// (`digests`, [`Synced::digests`]) for the next sync; nothing when the
/// listing did not ask for digests.
pub fn save_digests(
    dir: &Path,
    files: &BTreeMap<PathBuf, FileId>,
    digests: &HashMap<PathBuf, u128>,
) -> Result<()> {
    if digests.is_empty() {
        return Ok(());
    }
    let recorded = files.iter().filter_map(|(path, id)| {
        let digest = digests.get(path)?;
        Some((path.as_path(), *id, *digest))
    });
    Digests::save(dir, recorded)
}

/// Makes `dir` hold exactly `tree`. See [`sync_files`].
pub fn sync(tree: &FileTree, dir: &Path, mode: Mode) -> Result<SyncReport> {
    sync_files(tree, dir, mode).map(|synced| synced.report)
}

/// Makes `dir` hold exactly `tree`, writing only what differs.
///
/// The current tree is listed and compared with `tree` in memory; a file
/// whose length differs is not even read. When nothing differs, nothing is
/// touched. Otherwise the bytes of every new and changed file are staged in
/// a sibling directory with a journal of the writes and removals to make,
/// and only once the journal is committed is `dir` touched: files no longer
/// produced are removed (with the directories they leave empty), changed
/// files are rewritten in place and new ones created. Unchanged files are
/// never touched, so they keep their bytes, inode and mtime and cargo does
/// not rebuild what did not change. Any failure before the commit leaves
/// `dir` exactly as it was; a sync cut off after it is finished from the
/// journal by the next one. A `dir` that does not exist yet is built aside
/// whole and renamed into place. See [`journal`] for the costs that chose
/// this scheme.
///
/// In [`Mode::Check`] nothing is written (an interrupted sync is still
/// finished first); the report says what would change.
pub fn sync_files(tree: &FileTree, dir: &Path, mode: Mode) -> Result<Synced> {
    sync_listed(tree, dir, mode, None)
}

/// The current files of an output directory, listed ahead of a sync (by
/// [`list_ahead`]) so that listing can overlap building the new tree.
#[derive(Debug)]
pub struct Listing {
    files: HashMap<PathBuf, compare::Listed>,
    /// What the last sync recorded, when asked for.
    known: Option<Digests>,
}

/// Lists `dir` for a later [`sync_listed`], touching nothing: `None` when
/// an interrupted sync must be finished first (the sync then lists itself).
/// With `digests`, also reads what the last sync recorded ([`Digests`]),
/// and the sync then returns every file's digest for the next record.
pub fn list_ahead(dir: &Path, digests: bool) -> Result<Option<Listing>> {
    if journal::pending(dir) {
        return Ok(None);
    }
    let known = digests.then(|| Digests::open(dir));
    compare::list(dir).map(|files| Some(Listing { files, known }))
}

/// [`sync_files`] with the current files listed ahead ([`list_ahead`]).
pub fn sync_listed(
    tree: &FileTree,
    dir: &Path,
    mode: Mode,
    listing: Option<Listing>,
) -> Result<Synced> {
    let started = Instant::now();
    let (mut existing, known) = match listing {
        Some(Listing { files, known }) if !journal::pending(dir) => (files, known),
        _ => {
            journal::recover(dir)?;
            (compare::list(dir)?, None)
        }
    };
    let (statuses, digests) = compare::classify(tree, dir, &existing, known.as_ref())?;
    let digests = digests_by_path(tree, digests);
    let target_status: HashMap<&Path, compare::Status> = if tree.links.is_empty() {
        HashMap::new()
    } else {
        let targets: std::collections::HashSet<&Path> =
            tree.links.values().map(TreePath::as_path).collect();
        tree.contents()
            .zip(&statuses)
            .filter(|((path, _), _)| targets.contains(path))
            .map(|((path, _), status)| (path, *status))
            .collect()
    };
    let links = links::classify(tree, dir, &existing, &target_status)?;
    let mut report = SyncReport::default();
    // The listed identity of each link, for a sync that writes nothing.
    let mut link_ids: Vec<(PathBuf, FileId)> = Vec::new();
    for link in &links {
        if let Some(listed) = existing.remove(link.path) {
            link_ids.push((link.path.to_owned(), listed.id));
        }
        match link.status {
            compare::Status::Unchanged => report.unchanged += 1,
            compare::Status::Changed => report.changed.push(link.path.to_owned()),
            compare::Status::Added => report.added.push(link.path.to_owned()),
        }
    }
    let mut writes = Vec::new();
    // Each file's identity after the sync, in the tree's order; `None` for
    // a file about to be written.
    let mut ids: Vec<Option<FileId>> = Vec::with_capacity(tree.len());
    for ((path, bytes), status) in tree.contents().zip(statuses) {
        let listed = existing.remove(path);
        let at_path = match (status, listed) {
            (compare::Status::Unchanged, Some(listed)) => {
                report.unchanged += 1;
                ids.push(Some(listed.id));
                continue;
            }
            (compare::Status::Changed, Some(listed)) => {
                report.changed.push(path.to_owned());
                // Only a regular file is rewritten in place; anything else
                // (a symbolic link) is removed first, so that nothing is
                // written through it.
                if listed.regular {
                    journal::Existing::Regular
                } else {
                    journal::Existing::Other
                }
            }
            _ => {
                report.added.push(path.to_owned());
                journal::Existing::Nothing
            }
        };
        ids.push(None);
        writes.push(journal::Write {
            path,
            bytes,
            existing: at_path,
        });
    }
    // What is left of the listing is no longer produced.
    let mut removed: Vec<(PathBuf, compare::Listed)> = existing.into_iter().collect();
    removed.sort_by(|a, b| a.0.cmp(&b.0));
    let mut steps = vec![("compare", started.elapsed())];
    let nothing_to_do =
        report.is_clean() && removed.is_empty() && !links.iter().any(|link| link.make);
    if mode == Mode::Check || nothing_to_do {
        let files = tree
            .contents()
            .zip(&ids)
            .filter_map(|((path, _), id)| Some((path.to_owned(), (*id)?)))
            .chain(link_ids)
            .chain(
                removed
                    .iter()
                    .map(|(path, listed)| (path.clone(), listed.id)),
            )
            .collect();
        report.removed = removed.into_iter().map(|(path, _)| path).collect();
        return Ok(Synced {
            report,
            files,
            steps,
            digests,
        });
    }
    report.removed = removed.into_iter().map(|(path, _)| path).collect();
    let written = if writes.is_empty() && report.removed.is_empty() {
        Vec::new()
    } else if dir.exists() {
        journal::apply(dir, &writes, &report.removed, &mut steps)?
    } else {
        let started = Instant::now();
        let written = journal::write_whole(dir, &writes)?;
        steps.push(("write whole", started.elapsed()));
        written
    };
    let started = Instant::now();
    links::make(dir, tree, &links)?;
    steps.push(("link", started.elapsed()));
    let mut written = written.into_iter();
    let mut files: BTreeMap<PathBuf, FileId> = tree
        .contents()
        .zip(ids)
        .map(|((path, _), id)| {
            let id = id.unwrap_or_else(|| written.next().expect("an identity per write"));
            (path.to_owned(), id)
        })
        .collect();
    for link in &links {
        let full = dir.join(link.path);
        let id = FileId::of(&full).ok_or_else(|| Error::Config {
            path: full.clone(),
            message: "the file just linked or copied here cannot be read".into(),
        })?;
        files.insert(link.path.to_owned(), id);
    }
    Ok(Synced {
        report,
        files,
        steps,
        digests,
    })
}

/// Each file's digest by path (`digests` in the tree's order; empty when
/// none were asked for); a link has its target's.
fn digests_by_path(tree: &FileTree, digests: Vec<u128>) -> HashMap<PathBuf, u128> {
    if digests.is_empty() {
        return HashMap::new();
    }
    let mut by_path: HashMap<PathBuf, u128> = tree
        .contents()
        .map(|(path, _)| path.to_owned())
        .zip(digests)
        .collect();
    for (link, target) in &tree.links {
        if let Some(digest) = by_path.get(target.as_path()).copied() {
            by_path.insert(link.as_path().to_owned(), digest);
        }
    }
    by_path
}

/// The files below `dir` (anything that is not a directory), relative to
/// it, with their length and mtime; the regen's stamp and caches are left
/// out. A missing directory has no files.
pub fn list_files(dir: &Path) -> Result<HashMap<PathBuf, FileId>> {
    Ok(compare::list(dir)?
        .into_iter()
        .map(|(path, listed)| (path, listed.id))
        .collect())
}

/// The sibling directory `.<name>.<suffix>` of `dir`.
fn sibling(dir: &Path, suffix: &str) -> PathBuf {
    let name = dir
        .file_name()
        .map_or_else(|| "out".into(), |n| n.to_string_lossy().into_owned());
    dir.with_file_name(format!(".{name}.{suffix}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_must_stay_inside() {
        let mut tree = FileTree::new();
        for bad in [
            "../x",
            "/etc/x",
            "a/../../b",
            "",
            "a\0b",
            ".regen-stamp.json",
            ".regen-cache/pkl",
        ] {
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

    /// #29: a regen deleted the `Cargo.lock` cargo writes in
    /// `generated/<api>/rust/` (and its `target/`). What the registry says
    /// other tools leave in an output is never listed, written or removed.
    #[test]
    fn what_cargo_and_the_user_leave_in_the_crate_is_left_alone() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("out");
        let rust = std::path::Path::new(crate::emit::rust::RUST_DIR);
        let mut tree = FileTree::new();
        tree.insert(rust.join("Cargo.toml"), b"[package]".to_vec())
            .unwrap();
        tree.insert(rust.join("src/lib.rs"), b"old".to_vec())
            .unwrap();
        sync(&tree, &dir, Mode::Write).unwrap();
        let left = [
            "Cargo.lock",
            "target/debug/build/x",
            ".cargo/config.toml",
            ".vscode/settings.json",
        ];
        for path in left {
            let path = dir.join(rust).join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, "theirs").unwrap();
        }
        // Below the crate's own folders nothing is theirs.
        std::fs::write(dir.join(rust).join("src/stray.rs"), "x").unwrap();
        let mut next = FileTree::new();
        next.insert(rust.join("Cargo.toml"), b"[package]".to_vec())
            .unwrap();
        next.insert(rust.join("src/lib.rs"), b"new".to_vec())
            .unwrap();
        let check = sync(&next, &dir, Mode::Check).unwrap();
        assert_eq!(
            check.differing(),
            [&rust.join("src/lib.rs"), &rust.join("src/stray.rs")],
            "{check}"
        );
        let report = sync(&next, &dir, Mode::Write).unwrap();
        assert_eq!(report.removed, [rust.join("src/stray.rs")]);
        for path in left {
            assert_eq!(
                std::fs::read_to_string(dir.join(rust).join(path)).unwrap(),
                "theirs",
                "{path}"
            );
        }
        let listed = list_files(&dir).unwrap();
        assert_eq!(listed.len(), 2, "{listed:?}");
        // A tree may not claim their files.
        let mut claims = FileTree::new();
        for path in ["Cargo.lock", "target/x", ".cargo/config.toml"] {
            let error = claims.insert(rust.join(path), vec![]).unwrap_err();
            assert!(error.to_string().contains("left to"), "{error}");
        }
        claims.insert(rust.join("src/target"), vec![]).unwrap();
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
