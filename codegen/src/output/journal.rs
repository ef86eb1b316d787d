//! Writing a sync through a journal.
//!
//! The bytes of every new and changed file are appended to one staging file,
//! `.<name>.staging/blob` beside the output directory; then a journal naming
//! the files to remove and, for each file to write, its place in the blob is
//! written there and committed by a rename. Only then is the output
//! directory touched: removals first (a removed file may be where a new
//! directory goes), then each file is rewritten in place or created. A run
//! cut off before the commit left the output as it was (its staging is
//! discarded); one cut off after it is finished by [`recover`], since every
//! step can be replayed from the blob.
//!
//! Why one blob and writes in place rather than a staged file per output
//! renamed over the old one: on ext4 (mounted with `discard`, as the
//! benchmark machine's is) a rename over an existing file frees the old
//! file's blocks at once, with a discard, and forces the new file's data out
//! first; creating a file costs an inode allocation. For the ~1,500 files a
//! new Kubernetes minor changes, renaming took over a second where writing in
//! place takes ~50 ms (docs/benchmarks.md § Regen). The price: a reader
//! running during the sync can see a changed file half written, where a
//! rename showed it old or new.

use super::{check_relative, sibling, Contents};
use crate::error::{Error, Result};
use crate::file_id::FileId;
use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The staged bytes, inside the staging directory: `blob.0`, `blob.1`…
/// (one per writing thread).
const BLOB: &str = "blob";
/// The committed journal, inside the staging directory.
const JOURNAL: &str = "journal";
/// The journal while it is being written.
const JOURNAL_PARTIAL: &str = "journal.partial";
/// The journal's first line: its format.
const HEADER: &[u8] = b"vergate sync journal 3\n";

/// One file to write.
#[derive(Debug)]
pub struct Write<'a> {
    pub path: &'a Path,
    pub bytes: &'a Contents,
    pub existing: Existing,
}

/// What is at a path to write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Existing {
    /// Nothing: the file is created.
    Nothing,
    /// A regular file: it is rewritten in place.
    Regular,
    /// Something else (a symbolic link): it is removed and the file
    /// created, so that nothing is written through a link.
    Other,
}

/// One step of a journal.
#[derive(Debug, PartialEq, Eq)]
enum Step {
    /// Remove this file (relative to the output directory).
    Remove(PathBuf),
    /// Write the bytes `offset..offset + len` of blob `part` to this file.
    Write {
        part: usize,
        offset: u64,
        len: u64,
        path: PathBuf,
    },
}

/// True when an interrupted sync left something beside `dir` for
/// [`recover`] to finish or discard.
pub fn pending(dir: &Path) -> bool {
    ["staging", "new", "previous"]
        .iter()
        .any(|suffix| sibling(dir, suffix).exists())
}

/// Finishes or discards what an interrupted sync left beside `dir`: a
/// committed journal is replayed, uncommitted staging removed. Also puts
/// back a tree that the whole-tree swap of earlier versions left aside.
pub fn recover(dir: &Path) -> Result<()> {
    let staging = sibling(dir, "staging");
    if staging.join(JOURNAL).is_file() {
        let steps = read_journal(&staging.join(JOURNAL))?;
        replay(dir, &steps, Source::Blobs(&staging))?;
    }
    for leftover in [staging, sibling(dir, "new")] {
        if leftover.exists() {
            remove_dir(&leftover)?;
        }
    }
    let previous = sibling(dir, "previous");
    if previous.is_dir() {
        if dir.exists() {
            remove_dir(&previous)?;
        } else {
            std::fs::rename(&previous, dir)
                .map_err(|source| Error::io(dir, "restoring the previous tree", source))?;
        }
    }
    Ok(())
}

/// Writes `writes` and removes `removals` below the existing `dir` through
/// a journal. Returns the identity of every file written, in order.
/// `steps` gets how long staging and applying took.
pub fn apply(
    dir: &Path,
    writes: &[Write],
    removals: &[PathBuf],
    steps: &mut Vec<(&'static str, Duration)>,
) -> Result<Vec<FileId>> {
    let started = Instant::now();
    let staging = sibling(dir, "staging");
    let journal = match stage(&staging, writes, removals) {
        Ok(journal) => journal,
        Err(err) => {
            let _ = std::fs::remove_dir_all(&staging);
            return Err(err);
        }
    };
    let staged = Instant::now();
    steps.push(("stage", staged - started));
    // Committed: from here on, an interruption is finished by `recover`.
    let written = replay(dir, &journal, Source::Memory(writes))?;
    remove_dir(&staging)?;
    steps.push(("apply", staged.elapsed()));
    Ok(written)
}

/// Writes every file (`writes`: the whole tree) into `.<name>.new` and
/// renames it to `dir`, which does not exist. Returns the identity of every
/// file written, in order.
pub fn write_whole(dir: &Path, writes: &[Write]) -> Result<Vec<FileId>> {
    let aside = sibling(dir, "new");
    let jobs = writes
        .iter()
        .enumerate()
        .map(|(index, write)| Job {
            index,
            path: write.path,
            bytes: Bytes::Memory(write.bytes),
            regular: Some(false),
        })
        .collect();
    let built = std::fs::create_dir_all(&aside)
        .map_err(|source| Error::io(&aside, "creating a directory", source))
        .and_then(|()| write_files(&aside, None, jobs));
    let written = match built {
        Ok(written) => written,
        Err(err) => {
            let _ = std::fs::remove_dir_all(&aside);
            return Err(err);
        }
    };
    if let Some(parent) = dir.parent() {
        std::fs::create_dir_all(parent)
            .map_err(|source| Error::io(parent, "creating a directory", source))?;
    }
    if let Err(source) = std::fs::rename(&aside, dir) {
        let _ = std::fs::remove_dir_all(&aside);
        return Err(Error::io(dir, "moving the new tree into place", source));
    }
    Ok(written)
}

/// Writes the blobs (on every core) and commits the journal.
fn stage(staging: &Path, writes: &[Write], removals: &[PathBuf]) -> Result<Vec<Step>> {
    std::fs::create_dir_all(staging)
        .map_err(|source| Error::io(staging, "creating the staging directory", source))?;
    let mut steps: Vec<Step> = removals.iter().cloned().map(Step::Remove).collect();
    steps.extend(
        writes
            .iter()
            .filter(|write| write.existing == Existing::Other)
            .map(|write| Step::Remove(write.path.to_owned())),
    );
    // Consecutive runs of writes of about equal size, one blob each.
    let total: usize = writes.iter().map(|write| write.bytes.len()).sum();
    // One blob per thread, written in parallel.
    let parts = crate::parallel::threads().min(writes.len()).max(1);
    let mut runs: Vec<&[Write]> = Vec::with_capacity(parts);
    let mut rest = writes;
    for part in 0..parts {
        let target = total.div_ceil(parts);
        let mut size = 0;
        let mut cut = 0;
        while cut < rest.len() && (size < target || part + 1 == parts) {
            size += rest[cut].bytes.len();
            cut += 1;
        }
        let (run, tail) = rest.split_at(cut);
        runs.push(run);
        rest = tail;
    }
    let parts: Vec<(usize, &[Write])> = runs.iter().copied().enumerate().collect();
    crate::parallel::try_map_each(&parts, |&(part, run)| {
        write_blob(&blob_path(staging, part), run)
    })?;
    for (part, run) in runs.iter().enumerate() {
        let mut offset = 0u64;
        for write in *run {
            let len = write.bytes.len() as u64;
            steps.push(Step::Write {
                part,
                offset,
                len,
                path: write.path.to_owned(),
            });
            offset += len;
        }
    }
    let partial = staging.join(JOURNAL_PARTIAL);
    std::fs::write(&partial, encode(&steps))
        .map_err(|source| Error::io(&partial, "writing the sync journal", source))?;
    let journal = staging.join(JOURNAL);
    std::fs::rename(&partial, &journal)
        .map_err(|source| Error::io(&journal, "committing the sync journal", source))?;
    Ok(steps)
}

fn blob_path(staging: &Path, part: usize) -> PathBuf {
    staging.join(format!("{BLOB}.{part}"))
}

fn write_blob(path: &Path, writes: &[Write]) -> Result<()> {
    let mut file = File::create(path).map_err(|source| Error::io(path, "writing", source))?;
    let chunks = writes.iter().flat_map(|write| write.bytes.chunks());
    super::contents::write_chunks(&mut file, chunks)
        .map_err(|source| Error::io(path, "writing", source))
}

/// Where a replay's bytes come from.
enum Source<'a> {
    /// The sync that wrote the journal: its writes, in the journal's order.
    Memory(&'a [Write<'a>]),
    /// A recovery: the blobs in this staging directory.
    Blobs(&'a Path),
}

/// One file to write.
struct Job<'a> {
    /// Its place in the order identities are returned in.
    index: usize,
    path: &'a Path,
    bytes: Bytes<'a>,
    /// Whether a regular file is known to be at the path (`None`: look).
    regular: Option<bool>,
}

enum Bytes<'a> {
    Memory(&'a Contents),
    Blob { part: usize, offset: u64, len: u64 },
}

/// Carries out a committed journal: removals, then writes. Every step may
/// already have been done by an earlier, interrupted replay, and doing it
/// again is harmless. Returns the identity of every file written, in the
/// journal's order.
fn replay(dir: &Path, steps: &[Step], source: Source) -> Result<Vec<FileId>> {
    let mut emptied = BTreeSet::new();
    for step in steps {
        if let Step::Remove(path) = step {
            let full = dir.join(path);
            match std::fs::symlink_metadata(&full) {
                Ok(meta) if !meta.is_dir() => {
                    std::fs::remove_file(&full).map_err(|source| unfinished(&full, source))?;
                }
                _ => {}
            }
            emptied.extend(path.ancestors().skip(1).map(Path::to_path_buf));
        }
    }
    // Deepest first, so a directory's emptied children go before it.
    for relative in emptied.iter().rev() {
        if !relative.as_os_str().is_empty() {
            // Fails, as it should, for a directory that still holds files.
            let _ = std::fs::remove_dir(dir.join(relative));
        }
    }
    let (mut memory, staging) = match source {
        Source::Memory(writes) => (Some(writes.iter()), None),
        Source::Blobs(staging) => (None, Some(staging)),
    };
    let mut jobs = Vec::new();
    for step in steps {
        if let Step::Write {
            part,
            offset,
            len,
            path,
        } = step
        {
            let (bytes, regular) = match memory.as_mut() {
                Some(writes) => {
                    let write = writes.next().expect("a write step per write");
                    let regular = write.existing == Existing::Regular;
                    (Bytes::Memory(write.bytes), Some(regular))
                }
                None => {
                    let (part, offset, len) = (*part, *offset, *len);
                    (Bytes::Blob { part, offset, len }, None)
                }
            };
            jobs.push(Job {
                index: jobs.len(),
                path,
                bytes,
                regular,
            });
        }
    }
    write_files(dir, staging, jobs)
}

/// Writes `jobs` below `root` on every core: directories first, then each
/// directory's files on one thread (creating files in a directory takes its
/// lock), the costliest directories first, each a task of its own for the
/// next free thread. Returns the identities in the jobs' order.
fn write_files(root: &Path, staging: Option<&Path>, jobs: Vec<Job>) -> Result<Vec<FileId>> {
    let count = jobs.len();
    let mut by_parent: BTreeMap<&Path, Vec<Job>> = BTreeMap::new();
    for job in jobs {
        by_parent
            .entry(job.path.parent().expect("below the root"))
            .or_default()
            .push(job);
    }
    let mut parents = HashSet::new();
    for parent in by_parent.keys() {
        ensure_dir(&root.join(parent), &mut parents)?;
    }
    let mut groups: Vec<(u64, Vec<Job>)> = by_parent
        .into_values()
        .map(|group| (group.iter().map(cost).sum(), group))
        .collect();
    groups.sort_by_key(|group| std::cmp::Reverse(group.0));
    let groups: Vec<Vec<Job>> = groups.into_iter().map(|(_, group)| group).collect();
    let results = crate::parallel::map_each(&groups, |group| write_jobs(root, staging, group));
    let mut ids = vec![None; count];
    for result in results {
        for (index, id) in result? {
            ids[index] = Some(id);
        }
    }
    Ok(ids
        .into_iter()
        .map(|id| id.expect("every job was written"))
        .collect())
}

/// A rough cost of writing a file, in microseconds: creating one costs an
/// inode (which can be slow on ext4 right after many files were deleted),
/// then each byte is copied once.
fn cost(job: &Job) -> u64 {
    let created = if job.regular == Some(true) { 10 } else { 400 };
    let len = match job.bytes {
        Bytes::Memory(contents) => contents.len() as u64,
        Bytes::Blob { len, .. } => len,
    };
    created + len / 2048
}

fn write_jobs(dir: &Path, staging: Option<&Path>, jobs: &[Job]) -> Result<Vec<(usize, FileId)>> {
    let mut blobs: BTreeMap<usize, File> = BTreeMap::new();
    let mut written = Vec::with_capacity(jobs.len());
    for job in jobs {
        let loaded;
        let contents = match job.bytes {
            Bytes::Memory(contents) => contents,
            Bytes::Blob { part, offset, len } => {
                let staging = staging.expect("blobs are read in a recovery");
                let path = blob_path(staging, part);
                let file = match blobs.entry(part) {
                    std::collections::btree_map::Entry::Occupied(entry) => entry.into_mut(),
                    std::collections::btree_map::Entry::Vacant(entry) => entry.insert(
                        File::open(&path).map_err(|source| Error::io(&path, "reading", source))?,
                    ),
                };
                let len = usize::try_from(len).map_err(|_| {
                    Error::io(&path, "reading", std::io::ErrorKind::InvalidData.into())
                })?;
                let mut buffer = vec![0; len];
                file.seek(SeekFrom::Start(offset))
                    .and_then(|_| file.read_exact(&mut buffer))
                    .map_err(|source| Error::io(&path, "reading", source))?;
                loaded = Contents::from(buffer);
                &loaded
            }
        };
        let target = dir.join(job.path);
        let regular = match job.regular {
            Some(known) => known,
            None => is_regular_or_clear(&target)?,
        };
        let id = if regular {
            overwrite(&target, contents)
        } else {
            create(&target, contents)
        };
        let id = id.map_err(|err| match err {
            Error::Io { path, source, .. } => unfinished(&path, source),
            other => other,
        })?;
        written.push((job.index, id));
    }
    Ok(written)
}

/// True when a regular file is at `path`; anything else but a directory is
/// removed.
fn is_regular_or_clear(path: &Path) -> Result<bool> {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.is_file() => Ok(true),
        Ok(meta) if !meta.is_dir() => {
            std::fs::remove_file(path).map_err(|source| unfinished(path, source))?;
            Ok(false)
        }
        _ => Ok(false),
    }
}

fn unfinished(path: &Path, source: std::io::Error) -> Error {
    Error::io(
        path,
        "finishing a sync (its journal is kept; run the regen again to finish it)",
        source,
    )
}

fn remove_dir(path: &Path) -> Result<()> {
    std::fs::remove_dir_all(path).map_err(|source| Error::io(path, "removing", source))
}

/// Creates `path` and its parents once per run.
fn ensure_dir(path: &Path, known: &mut HashSet<PathBuf>) -> Result<()> {
    if known.contains(path) {
        return Ok(());
    }
    std::fs::create_dir_all(path)
        .map_err(|source| Error::io(path, "creating a directory", source))?;
    known.extend(path.ancestors().map(Path::to_path_buf));
    Ok(())
}

/// Writes a file that does not exist yet; returns its identity.
fn create(path: &Path, bytes: &Contents) -> Result<FileId> {
    let file = File::options()
        .write(true)
        .create_new(true)
        .open(path)
        .map_err(|source| Error::io(path, "creating", source))?;
    write_out(file, path, bytes, false)
}

/// Rewrites an existing regular file in place; returns its identity.
fn overwrite(path: &Path, bytes: &Contents) -> Result<FileId> {
    let file = File::options()
        .write(true)
        .open(path)
        .map_err(|source| Error::io(path, "writing", source))?;
    write_out(file, path, bytes, true)
}

fn write_out(mut file: File, path: &Path, bytes: &Contents, truncate: bool) -> Result<FileId> {
    bytes
        .write_to(&mut file)
        .map_err(|source| Error::io(path, "writing", source))?;
    if truncate {
        file.set_len(bytes.len() as u64)
            .map_err(|source| Error::io(path, "writing", source))?;
    }
    let meta = file
        .metadata()
        .map_err(|source| Error::io(path, "inspecting", source))?;
    Ok(FileId::of_metadata(&meta))
}

/// The journal's bytes: the header, then one record per step, each field
/// ended by a NUL (the one byte no path holds): `R` path, or `W` blob
/// offset length path.
fn encode(steps: &[Step]) -> Vec<u8> {
    let mut out = HEADER.to_vec();
    for step in steps {
        match step {
            Step::Remove(path) => {
                out.extend_from_slice(b"R\0");
                out.extend_from_slice(path_bytes(path));
            }
            Step::Write {
                part,
                offset,
                len,
                path,
            } => {
                out.extend_from_slice(format!("W\0{part}\0{offset}\0{len}\0").as_bytes());
                out.extend_from_slice(path_bytes(path));
            }
        }
        out.push(0);
    }
    out
}

fn read_journal(path: &Path) -> Result<Vec<Step>> {
    let bytes = std::fs::read(path)
        .map_err(|source| Error::io(path, "reading the sync journal", source))?;
    decode(&bytes).ok_or_else(|| Error::Config {
        path: path.to_owned(),
        message: "not a sync journal this vergate can read; remove the staging directory \
                  that holds it and run the regen again"
            .into(),
    })
}

fn decode(bytes: &[u8]) -> Option<Vec<Step>> {
    let body = bytes.strip_prefix(HEADER)?;
    let mut fields = body.split(|byte| *byte == 0);
    let number = |field: &[u8]| -> Option<u64> { std::str::from_utf8(field).ok()?.parse().ok() };
    let mut steps = Vec::new();
    loop {
        let step = match fields.next()? {
            b"" => break,
            b"R" => Step::Remove(checked_path(fields.next()?)?),
            b"W" => Step::Write {
                part: usize::try_from(number(fields.next()?)?).ok()?,
                offset: number(fields.next()?)?,
                len: number(fields.next()?)?,
                path: checked_path(fields.next()?)?,
            },
            _ => return None,
        };
        steps.push(step);
    }
    fields.next().is_none().then_some(steps)
}

/// A journal's path, refused unless it stays inside the output directory.
fn checked_path(bytes: &[u8]) -> Option<PathBuf> {
    let path = path_from_bytes(bytes)?;
    check_relative(&path).ok()?;
    Some(path)
}

#[cfg(unix)]
fn path_bytes(path: &Path) -> &[u8] {
    std::os::unix::ffi::OsStrExt::as_bytes(path.as_os_str())
}

#[cfg(unix)]
fn path_from_bytes(bytes: &[u8]) -> Option<PathBuf> {
    Some(PathBuf::from(
        <std::ffi::OsStr as std::os::unix::ffi::OsStrExt>::from_bytes(bytes),
    ))
}

#[cfg(not(unix))]
fn path_bytes(path: &Path) -> &[u8] {
    // Output paths come from the emitters' UTF-8 names.
    path.to_str().unwrap_or_default().as_bytes()
}

#[cfg(not(unix))]
fn path_from_bytes(bytes: &[u8]) -> Option<PathBuf> {
    std::str::from_utf8(bytes).ok().map(PathBuf::from)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::{sync, FileTree, Mode};

    fn tree(files: &[(&str, &str)]) -> FileTree {
        let mut tree = FileTree::new();
        for (path, text) in files {
            tree.insert(path, text.as_bytes().to_vec()).unwrap();
        }
        tree
    }

    fn read(dir: &Path, path: &str) -> String {
        std::fs::read_to_string(dir.join(path)).unwrap()
    }

    fn siblings(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir.parent().unwrap())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_sync_cut_off_after_its_journal_is_finished_by_the_next() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("out");
        let old = tree(&[("keep", "k"), ("change", "old"), ("gone/x", "x")]);
        sync(&old, &dir, Mode::Write).unwrap();
        let new = tree(&[("keep", "k"), ("change", "new, longer"), ("add/y", "y")]);
        let (y, longer) = (
            Contents::from(b"y".to_vec()),
            Contents::from(b"new, longer".to_vec()),
        );
        let writes = [
            Write {
                path: Path::new("add/y"),
                bytes: &y,
                existing: Existing::Nothing,
            },
            Write {
                path: Path::new("change"),
                bytes: &longer,
                existing: Existing::Regular,
            },
        ];
        let staging = sibling(&dir, "staging");
        stage(&staging, &writes, &[PathBuf::from("gone/x")]).unwrap();
        // Cut off after the first write of a replay.
        std::fs::create_dir_all(dir.join("add")).unwrap();
        std::fs::write(dir.join("add/y"), "y").unwrap();

        let report = sync(&new, &dir, Mode::Check).unwrap();
        assert!(report.is_clean(), "the journal was finished: {report}");
        assert_eq!(read(&dir, "change"), "new, longer");
        assert!(!dir.join("gone").exists());
        assert_eq!(siblings(&dir), ["out"], "the staging is gone");
    }

    #[test]
    fn an_uncommitted_sync_leaves_the_output_as_it_was() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("out");
        let old = tree(&[("a", "old")]);
        sync(&old, &dir, Mode::Write).unwrap();
        let staging = sibling(&dir, "staging");
        std::fs::create_dir_all(&staging).unwrap();
        std::fs::write(blob_path(&staging, 0), "new").unwrap();
        std::fs::write(staging.join(JOURNAL_PARTIAL), HEADER).unwrap();
        assert!(sync(&old, &dir, Mode::Check).unwrap().is_clean());
        assert_eq!(read(&dir, "a"), "old");
        assert_eq!(siblings(&dir), ["out"]);
    }

    #[test]
    fn nothing_is_written_through_a_link() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("out");
        sync(&tree(&[("a", "1"), ("b", "2")]), &dir, Mode::Write).unwrap();
        let outside = tmp.path().join("outside");
        std::fs::write(&outside, "outside").unwrap();
        std::fs::remove_file(dir.join("a")).unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink(&outside, dir.join("a")).unwrap();
        #[cfg(not(unix))]
        std::fs::copy(&outside, dir.join("a")).unwrap();
        let report = sync(&tree(&[("a", "new"), ("b", "2")]), &dir, Mode::Write).unwrap();
        assert_eq!(report.changed, [PathBuf::from("a")]);
        assert_eq!(read(tmp.path(), "outside"), "outside");
        assert!(std::fs::symlink_metadata(dir.join("a")).unwrap().is_file());
        assert_eq!(read(&dir, "a"), "new");
    }

    #[test]
    fn a_file_may_become_a_directory_and_back() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("out");
        let file = tree(&[("a", "file"), ("z/deep/f", "f")]);
        let directory = tree(&[("a/b", "inside"), ("z", "now a file")]);
        sync(&file, &dir, Mode::Write).unwrap();
        let report = sync(&directory, &dir, Mode::Write).unwrap();
        assert_eq!(
            report.to_string(),
            "2 added, 0 changed, 2 removed, 0 unchanged"
        );
        assert_eq!(read(&dir, "a/b"), "inside");
        assert_eq!(read(&dir, "z"), "now a file");
        sync(&file, &dir, Mode::Write).unwrap();
        assert_eq!(read(&dir, "a"), "file");
        assert_eq!(read(&dir, "z/deep/f"), "f");
        assert!(sync(&file, &dir, Mode::Check).unwrap().is_clean());
    }

    #[test]
    fn journal_round_trips_and_refuses_escapes() {
        let steps = vec![
            Step::Remove("old/a.json".into()),
            Step::Write {
                part: 0,
                offset: 0,
                len: 3,
                path: "gates.json".into(),
            },
            Step::Write {
                part: 1,
                offset: 3,
                len: 12,
                path: "pkl/v1.36/PklProject".into(),
            },
        ];
        assert_eq!(decode(&encode(&steps)), Some(steps));
        assert_eq!(decode(&encode(&[])), Some(vec![]));
        let escaping = encode(&[Step::Remove("../x".into())]);
        assert_eq!(decode(&escaping), None);
        let mut cut = encode(&[Step::Remove("abc".into())]);
        cut.truncate(cut.len() - 2);
        assert_eq!(decode(&cut), None, "a cut-off journal is refused");
        assert_eq!(decode(b"something else"), None);
    }
}
