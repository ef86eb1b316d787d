//! What the last sync left in the output: each file's identity (length and
//! mtime, [`FileId`]) and a 128-bit digest of its bytes, so that the next
//! sync knows a file still holds those bytes without reading it.
//!
//! Adding a Kubernetes minor leaves about 11,400 of 18,200 files as they
//! were, most of them the same length as their new bytes. Reading them to
//! compare is cheap while they are in the page cache, but a regen that adds
//! a minor usually runs months after the last one, when they come from disk:
//! half a second of a two-second regen on the reference machine. Hashing
//! the new tree costs about what reading it from the page cache did
//! (docs/benchmarks.md, "An idle machine, the page cache, …").
//!
//! A file is trusted only while its length and mtime are those the digest
//! was recorded with, the rule the regen stamp already applies to the whole
//! output (a no-op regen trusts every file on it); anything else is read and
//! compared as before. The file lives in `generated/<api>/.regen-cache/`
//! (per machine, git-ignored); a missing, damaged or foreign file is an
//! empty record, which only makes the sync read more.

use super::{Contents, CACHE_DIR};
use crate::error::{Error, Result};
use crate::file_id::FileId;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use xxhash_rust::xxh3::Xxh3;

/// The record's file name inside the cache directory.
const FILE: &str = "outputs";
/// The record's first bytes: its format.
const MAGIC: &[u8] = b"vergate output digests 1\n";

/// A 128-bit digest of a file's bytes (XXH3: fast, and it tells bytes
/// apart; it is no defence against someone forging them).
pub fn digest(contents: &Contents) -> u128 {
    let mut hasher = Xxh3::new();
    for chunk in contents.chunks() {
        hasher.update(chunk);
    }
    hasher.digest128()
}

/// The digests the last sync recorded, by path relative to the output.
#[derive(Debug, Default)]
pub struct Digests(HashMap<PathBuf, (FileId, u128)>);

impl Digests {
    /// What `out_dir` records; empty when there is no readable record.
    pub fn open(out_dir: &Path) -> Digests {
        std::fs::read(out_dir.join(CACHE_DIR).join(FILE))
            .ok()
            .and_then(|bytes| decode(&bytes))
            .map(Digests)
            .unwrap_or_default()
    }

    /// Whether the file at `path`, listed now as `listed`, holds bytes of
    /// digest `digest`: `None` when the record cannot say (no entry, or
    /// the file was touched since it was recorded).
    pub fn holds(&self, path: &Path, listed: FileId, digest: u128) -> Option<bool> {
        let (recorded, known) = self.0.get(path)?;
        (*recorded == listed).then_some(*known == digest)
    }

    /// Records `files` (path, identity after the sync, digest) as
    /// `out_dir`'s, replacing the record atomically.
    pub fn save<'a>(
        out_dir: &Path,
        files: impl Iterator<Item = (&'a Path, FileId, u128)>,
    ) -> Result<()> {
        let dir = out_dir.join(CACHE_DIR);
        std::fs::create_dir_all(&dir)
            .map_err(|source| Error::io(&dir, "creating a directory", source))?;
        let path = dir.join(FILE);
        let partial = path.with_extension("partial");
        std::fs::write(&partial, encode(files))
            .map_err(|source| Error::io(&partial, "writing the output digests", source))?;
        std::fs::rename(&partial, &path)
            .map_err(|source| Error::io(&path, "writing the output digests", source))
    }
}

/// One entry of the file.
type Entry<'a> = (&'a str, u64, u128, u128);

fn encode<'a>(files: impl Iterator<Item = (&'a Path, FileId, u128)>) -> Vec<u8> {
    let entries: Vec<Entry> = files
        .filter_map(|(path, id, digest)| Some((path.to_str()?, id.len, id.mtime_ns, digest)))
        .collect();
    let mut bytes = MAGIC.to_vec();
    bytes.extend(postcard::to_stdvec(&entries).expect("entries always serialize"));
    bytes
}

fn decode(bytes: &[u8]) -> Option<HashMap<PathBuf, (FileId, u128)>> {
    let entries: Vec<Entry> = postcard::from_bytes(bytes.strip_prefix(MAGIC)?).ok()?;
    Some(
        entries
            .into_iter()
            .map(|(path, len, mtime_ns, digest)| {
                (PathBuf::from(path), (FileId { len, mtime_ns }, digest))
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_reads_back_and_trusts_only_untouched_files() {
        let tmp = tempfile::tempdir().unwrap();
        let id = FileId {
            len: 3,
            mtime_ns: 7,
        };
        let bytes = digest(&Contents::from(b"abc".to_vec()));
        Digests::save(tmp.path(), [(Path::new("a/b.json"), id, bytes)].into_iter()).unwrap();
        let record = Digests::open(tmp.path());
        assert_eq!(record.holds(Path::new("a/b.json"), id, bytes), Some(true));
        let other = digest(&Contents::from(b"abd".to_vec()));
        assert_eq!(record.holds(Path::new("a/b.json"), id, other), Some(false));
        let touched = FileId {
            len: 3,
            mtime_ns: 8,
        };
        assert_eq!(record.holds(Path::new("a/b.json"), touched, bytes), None);
        assert_eq!(record.holds(Path::new("c.json"), id, bytes), None);
    }

    #[test]
    fn a_damaged_or_foreign_record_is_empty() {
        let tmp = tempfile::tempdir().unwrap();
        let id = FileId {
            len: 1,
            mtime_ns: 1,
        };
        Digests::save(tmp.path(), [(Path::new("x"), id, 5)].into_iter()).unwrap();
        let path = tmp.path().join(CACHE_DIR).join(FILE);
        let whole = std::fs::read(&path).unwrap();
        std::fs::write(&path, &whole[..whole.len() - 3]).unwrap();
        assert_eq!(Digests::open(tmp.path()).holds(Path::new("x"), id, 5), None);
        std::fs::write(&path, b"something else").unwrap();
        assert_eq!(Digests::open(tmp.path()).holds(Path::new("x"), id, 5), None);
    }

    /// A sync through a listing that asks for digests, its record saved
    /// as the regen saves it.
    fn sync_recording(tree: &crate::output::FileTree, dir: &Path) -> String {
        use crate::output::{list_ahead, save_digests, sync_listed, Mode};
        let listing = list_ahead(dir, true).unwrap();
        let synced = sync_listed(tree, dir, Mode::Write, listing).unwrap();
        save_digests(dir, &synced.files, &synced.digests).unwrap();
        synced.report.to_string()
    }

    #[test]
    fn a_sync_compares_a_recorded_file_by_digest_and_a_touched_one_by_its_bytes() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("out");
        let tree = |a: &str, b: &str| {
            let mut tree = crate::output::FileTree::new();
            tree.insert("a.txt", a.as_bytes().to_vec()).unwrap();
            tree.insert("sub/b.txt", b.as_bytes().to_vec()).unwrap();
            tree
        };
        sync_recording(&tree("same", "old"), &dir);
        sync_recording(&tree("same", "old"), &dir);
        let next = tree("same", "new");
        // The same length, other bytes: told apart by the digest.
        assert_eq!(
            sync_recording(&next, &dir),
            "0 added, 1 changed, 0 removed, 1 unchanged"
        );
        assert_eq!(std::fs::read(dir.join("sub/b.txt")).unwrap(), b"new");

        // Other bytes under the recorded length and mtime are taken as
        // recorded: the rule the regen stamp applies to the whole output.
        let a = dir.join("a.txt");
        let mtime = std::fs::metadata(&a).unwrap().modified().unwrap();
        std::fs::write(&a, b"SAME").unwrap();
        let file = std::fs::File::options().write(true).open(&a).unwrap();
        file.set_modified(mtime).unwrap();
        drop(file);
        assert_eq!(
            sync_recording(&next, &dir),
            "0 added, 0 changed, 0 removed, 2 unchanged"
        );
        assert_eq!(std::fs::read(&a).unwrap(), b"SAME", "not read");

        // Touched since (another mtime): read, found different, rewritten.
        std::fs::write(&a, b"SAME").unwrap();
        let touched = mtime + std::time::Duration::from_secs(1);
        let file = std::fs::File::options().write(true).open(&a).unwrap();
        file.set_modified(touched).unwrap();
        drop(file);
        assert_eq!(
            sync_recording(&next, &dir),
            "0 added, 1 changed, 0 removed, 1 unchanged"
        );
        assert_eq!(std::fs::read(&a).unwrap(), b"same");
    }

    #[test]
    fn a_digest_does_not_depend_on_how_the_bytes_are_cut() {
        let whole = Contents::from(b"one two three".to_vec());
        let pieces = Contents::from_pieces(vec![
            crate::output::Piece::Static("one "),
            crate::output::Piece::Owned("two three".into()),
        ]);
        assert_eq!(digest(&whole), digest(&pieces));
    }
}
