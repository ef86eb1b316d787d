//! The tree's links ([`FileTree::insert_link`]): files that hold exactly the
//! bytes of another file of the tree, written as hard links to it so that
//! the bytes are on disk once (the JSON Schema tree's kubeconform-layout
//! copies). Where the file system refuses a hard link, the file is a copy.
//!
//! A link is classified after the files: one that is the same file as its
//! target (same device and inode) differs exactly when the target does,
//! and is never read; any other is compared byte for byte. The journal
//! rewrites changed files in place, so a hard link follows its target
//! through a sync untouched; only a missing link, or a copy (left by an
//! older regen or a file system without hard links), is (re)made: linked
//! beside its place under a temporary name, then renamed over it.

use super::compare::{Listed, Status};
use super::{Contents, FileTree};
use crate::error::{Error, Result};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// One link of the tree and what the sync makes of it.
#[derive(Debug)]
pub(super) struct Planned<'t> {
    pub path: &'t Path,
    pub target: &'t Path,
    pub status: Status,
    /// True when the file at `path` must be (re)made: missing, or not the
    /// same file as its target.
    pub make: bool,
}

/// Classifies every link of `tree` against what is listed at its path.
pub(super) fn classify<'t>(
    tree: &'t FileTree,
    dir: &Path,
    listed: &HashMap<PathBuf, Listed>,
    target_status: &HashMap<&Path, Status>,
) -> Result<Vec<Planned<'t>>> {
    let mut planned = Vec::new();
    for (path, target) in tree.links() {
        let target_bytes: &Contents = tree.file(target).expect("a link's target is a file");
        let (status, make) = match listed.get(path) {
            None => (Status::Added, true),
            Some(_) if same_file(&dir.join(path), &dir.join(target)) => {
                let status = match target_status.get(target) {
                    Some(Status::Unchanged) => Status::Unchanged,
                    _ => Status::Changed,
                };
                (status, false)
            }
            Some(listed) => {
                let full = dir.join(path);
                let equal = listed.id.len == target_bytes.len() as u64
                    && std::fs::read(&full)
                        .map(|bytes| target_bytes.eq_bytes(&bytes))
                        .map_err(|source| Error::io(&full, "reading", source))?;
                let status = if equal {
                    Status::Unchanged
                } else {
                    Status::Changed
                };
                (status, true)
            }
        };
        planned.push(Planned {
            path,
            target,
            status,
            make,
        });
    }
    Ok(planned)
}

/// Makes every planned link that needs it, once the files are written.
pub(super) fn make(dir: &Path, tree: &FileTree, planned: &[Planned<'_>]) -> Result<()> {
    for link in planned.iter().filter(|link| link.make) {
        let full = dir.join(link.path);
        let target = dir.join(link.target);
        if let Some(parent) = full.parent() {
            std::fs::create_dir_all(parent)
                .map_err(|source| Error::io(parent, "creating", source))?;
        }
        let mut aside = full.clone().into_os_string();
        aside.push(".vergate-link");
        let aside = PathBuf::from(aside);
        let _ = std::fs::remove_file(&aside);
        if std::fs::hard_link(&target, &aside).is_err() {
            // No hard links here (another file system, or none at all): a copy.
            let bytes = tree
                .file(link.target)
                .expect("a link's target is a file")
                .as_bytes();
            std::fs::write(&aside, bytes).map_err(|source| Error::io(&aside, "writing", source))?;
        }
        std::fs::rename(&aside, &full).map_err(|source| Error::io(&full, "replacing", source))?;
    }
    Ok(())
}

/// True when `a` and `b` are the same file (one inode on one device).
#[cfg(unix)]
fn same_file(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (std::fs::symlink_metadata(a), std::fs::symlink_metadata(b)) {
        (Ok(a), Ok(b)) => a.is_file() && a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

/// Elsewhere, links are copies: never the same file.
#[cfg(not(unix))]
fn same_file(_: &Path, _: &Path) -> bool {
    false
}

#[cfg(all(test, unix))]
mod tests {
    use super::super::{sync_files, FileTree, Mode};
    use std::os::unix::fs::MetadataExt;
    use std::path::Path;

    fn tree(text: &str) -> FileTree {
        let mut tree = FileTree::new();
        tree.insert("json/v1/a.json", text.as_bytes().to_vec())
            .unwrap();
        tree.insert_link("json/v1.0/a.json", "json/v1/a.json")
            .unwrap();
        tree
    }

    fn inode(path: &Path) -> u64 {
        std::fs::metadata(path).unwrap().ino()
    }

    #[test]
    fn links_share_their_target_and_follow_it() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out");
        let first = sync_files(&tree("{}"), &out, Mode::Write).unwrap();
        assert_eq!(first.report.added.len(), 2);
        let (file, link) = (out.join("json/v1/a.json"), out.join("json/v1.0/a.json"));
        assert_eq!(inode(&file), inode(&link), "the copy is a hard link");
        assert_eq!(first.files.len(), 2, "the stamp sees both paths");

        let again = sync_files(&tree("{}"), &out, Mode::Write).unwrap();
        assert!(again.report.is_clean(), "{:?}", again.report);

        let check = sync_files(&tree("[]"), &out, Mode::Check).unwrap();
        assert_eq!(check.report.changed.len(), 2, "both paths would change");
        let changed = sync_files(&tree("[]"), &out, Mode::Write).unwrap();
        assert_eq!(changed.report.changed.len(), 2);
        assert_eq!(std::fs::read(&link).unwrap(), b"[]");
        assert_eq!(inode(&file), inode(&link), "still one file");
    }

    #[test]
    fn copies_become_links_and_dropped_links_go() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out");
        // As an older regen left it: two separate files.
        let mut copies = FileTree::new();
        copies.insert("json/v1/a.json", b"{}".to_vec()).unwrap();
        copies.insert("json/v1.0/a.json", b"{}".to_vec()).unwrap();
        sync_files(&copies, &out, Mode::Write).unwrap();
        let (file, link) = (out.join("json/v1/a.json"), out.join("json/v1.0/a.json"));
        assert_ne!(inode(&file), inode(&link));

        let linked = sync_files(&tree("{}"), &out, Mode::Write).unwrap();
        assert!(linked.report.is_clean(), "same bytes: {:?}", linked.report);
        assert_eq!(
            inode(&file),
            inode(&link),
            "the copy was replaced by a link"
        );

        let mut alone = FileTree::new();
        alone.insert("json/v1/a.json", b"{}".to_vec()).unwrap();
        let dropped = sync_files(&alone, &out, Mode::Write).unwrap();
        assert_eq!(dropped.report.removed.len(), 1);
        assert!(file.exists(), "{:?}", dropped.report);
        assert!(!link.exists(), "{:?}", dropped.report);
    }

    #[test]
    fn a_link_needs_its_target_in_the_tree() {
        let mut tree = FileTree::new();
        let err = tree.insert_link("b.json", "a.json").unwrap_err();
        assert!(err.to_string().contains("does not hold"), "{err}");
        tree.insert("a.json", b"1".to_vec()).unwrap();
        tree.insert_link("b.json", "a.json").unwrap();
        assert!(
            tree.insert("b.json", b"2".to_vec()).is_err(),
            "one path, one file"
        );
        assert_eq!(tree.get("b.json"), Some(&b"1"[..]));
        assert_eq!(tree.len(), 2);
    }
}
