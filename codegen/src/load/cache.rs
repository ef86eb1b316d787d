//! The load cache: each minor's loaded model as the last regen built it, so
//! that a regen whose spec files are untouched decodes the model instead of
//! reading, hashing, parsing and converting ~3.5 MB of JSON per minor.
//!
//! One file per minor, `generated/<api>/.regen-cache/load-v<X.Y>`, written
//! after a successful regen (so a failed one writes nothing). An entry is
//! used only when everything it was built from is as it was: the program
//! (size and mtime), and each spec file's path, size, mtime and the digest
//! api.toml records for it. That is the regen stamp's notion of an
//! unchanged file (make's): a spec verified against its digest when the
//! entry was written and untouched since is not hashed again. Anything
//! unreadable is a miss, never an error.
//!
//! Beside the minors, `facts-verified` lists the fact files (feature-gate
//! pages, lifecycle files) the last regen checked against their digests,
//! with their size and mtime, so that unchanged ones are not hashed again.
//!
//! An entry is the [`postcard`] encoding of its key, then of the
//! [`LoadedMinor`] (the model types derive serde under the `load` feature),
//! after a line naming the format.

use super::LoadedMinor;
use crate::api::{Api, PresentMinor};
use crate::error::{Error, Result};
use crate::file_id::FileId;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};
use vergate_core::Version;

/// The file's first bytes: its format.
const MAGIC: &[u8] = b"vergate load cache 4 (postcard)\n";

/// The loaded minors of one API's last regen, and the ones to record.
#[derive(Debug)]
pub struct LoadCache {
    dir: PathBuf,
    tool: Option<FileId>,
    /// Entries built by this regen, to write once it succeeded.
    fresh: Mutex<BTreeMap<Version, Vec<u8>>>,
    /// The minors this regen loaded (entries of others are removed).
    present: Mutex<BTreeSet<Version>>,
    /// The fact files the last regen checked against their digests, read
    /// from [`FACTS_FILE`] when first asked.
    facts_known: OnceLock<HashMap<PathBuf, (FileId, String)>>,
    /// The fact files this regen checked or found checked, to write.
    facts_seen: Mutex<BTreeMap<PathBuf, (FileId, String)>>,
}

/// The file of [`LoadCache::fact_verified`]'s entries inside the cache
/// directory.
const FACTS_FILE: &str = "facts-verified";

/// That file's first bytes: its format.
const FACTS_MAGIC: &[u8] = b"vergate verified fact files 1 (postcard)\n";

impl LoadCache {
    /// The cache kept in `dir` (`generated/<api>/.regen-cache`).
    pub fn new(dir: PathBuf) -> LoadCache {
        let tool = FileId::of_current_exe();
        LoadCache {
            dir,
            tool,
            fresh: Mutex::default(),
            present: Mutex::default(),
            facts_known: OnceLock::new(),
            facts_seen: Mutex::default(),
        }
    }

    fn file(&self, version: Version) -> PathBuf {
        self.dir.join(format!("load-{}", version.dir_name()))
    }

    /// True when the cache has an entry for `version` (which may still be
    /// stale).
    pub(super) fn holds(&self, version: Version) -> bool {
        self.file(version).is_file()
    }

    /// The minor as the last regen loaded it, when nothing it was built
    /// from changed.
    pub(super) fn lookup(
        &self,
        api: &Api,
        minor: &PresentMinor,
        files: &[PathBuf],
    ) -> Option<LoadedMinor> {
        self.present
            .lock()
            .expect("the load cache lock")
            .insert(minor.version);
        let key = key(self.tool?, api, minor, files)?;
        let bytes = std::fs::read(self.file(minor.version)).ok()?;
        let (stored, rest) = postcard::take_from_bytes::<Key>(bytes.strip_prefix(MAGIC)?).ok()?;
        if stored != key {
            return None;
        }
        postcard::from_bytes(rest).ok()
    }

    /// True when the last regen checked the fact file at `path` against
    /// `sha256` and the file still has the size and mtime (`id`) it had then:
    /// make's notion of an unchanged file, as for the specs, so that ~500
    /// unchanged fact files (~20 MB) are not hashed on every regen.
    pub(crate) fn fact_verified(&self, path: &Path, id: FileId, sha256: &str) -> bool {
        let known = self.facts_known.get_or_init(|| {
            std::fs::read(self.dir.join(FACTS_FILE))
                .ok()
                .and_then(|bytes| {
                    let body = bytes.strip_prefix(FACTS_MAGIC)?;
                    postcard::from_bytes::<Vec<(PathBuf, FileId, String)>>(body).ok()
                })
                .map(|entries| {
                    entries
                        .into_iter()
                        .map(|(path, id, digest)| (path, (id, digest)))
                        .collect()
                })
                .unwrap_or_default()
        });
        known.get(path).is_some_and(|(known_id, digest)| {
            *known_id == id && digest.eq_ignore_ascii_case(sha256)
        })
    }

    /// Records that the fact file at `path`, as `id`, has the digest `sha256`
    /// (checked now or by the last regen), to be written by [`save`].
    ///
    /// [`save`]: LoadCache::save
    pub(crate) fn remember_fact(&self, path: &Path, id: FileId, sha256: &str) {
        self.facts_seen
            .lock()
            .expect("the load cache lock")
            .insert(path.to_owned(), (id, sha256.to_ascii_lowercase()));
    }

    /// Records a minor loaded from its specs, to be written by [`save`].
    ///
    /// [`save`]: LoadCache::save
    pub(super) fn remember(
        &self,
        api: &Api,
        minor: &PresentMinor,
        files: &[PathBuf],
        loaded: &LoadedMinor,
    ) {
        let Some(key) = self.tool.and_then(|tool| key(tool, api, minor, files)) else {
            return;
        };
        // A model that cannot be encoded (a path that is not UTF-8) is
        // simply not cached.
        let Ok(bytes) = postcard::to_extend(&key, MAGIC.to_vec())
            .and_then(|bytes| postcard::to_extend(loaded, bytes))
        else {
            return;
        };
        self.fresh
            .lock()
            .expect("the load cache lock")
            .insert(minor.version, bytes);
    }

    /// Writes the entries this regen built and removes those of minors that
    /// are gone. Called after a successful sync.
    pub fn save(&self) -> Result<()> {
        let io = |path: &Path, source| Error::io(path, "writing the load cache", source);
        let fresh = std::mem::take(&mut *self.fresh.lock().expect("the load cache lock"));
        if !fresh.is_empty() {
            std::fs::create_dir_all(&self.dir).map_err(|source| io(&self.dir, source))?;
        }
        for (version, bytes) in fresh {
            let path = self.file(version);
            let partial = path.with_extension("partial");
            std::fs::write(&partial, bytes).map_err(|source| io(&partial, source))?;
            std::fs::rename(&partial, &path).map_err(|source| io(&path, source))?;
        }
        self.save_facts()?;
        let present = self.present.lock().expect("the load cache lock");
        let Ok(entries) = std::fs::read_dir(&self.dir) else {
            return Ok(());
        };
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let Some(minor) = name.strip_prefix("load-") else {
                continue;
            };
            let gone = minor
                .parse::<Version>()
                .map_or(true, |version| !present.contains(&version));
            if gone {
                std::fs::remove_file(entry.path()).map_err(|source| io(&entry.path(), source))?;
            }
        }
        Ok(())
    }
}

impl LoadCache {
    /// Writes the fact files this regen saw as checked, when they differ
    /// from what the last regen wrote.
    fn save_facts(&self) -> Result<()> {
        let seen = std::mem::take(&mut *self.facts_seen.lock().expect("the load cache lock"));
        let unchanged = self.facts_known.get().is_some_and(|known| {
            known.len() == seen.len()
                && seen
                    .iter()
                    .all(|(path, entry)| known.get(path) == Some(entry))
        });
        if seen.is_empty() || unchanged {
            return Ok(());
        }
        let io = |path: &Path, source| Error::io(path, "writing the load cache", source);
        std::fs::create_dir_all(&self.dir).map_err(|source| io(&self.dir, source))?;
        let entries: Vec<(&PathBuf, &FileId, &String)> = seen
            .iter()
            .map(|(path, (id, digest))| (path, id, digest))
            .collect();
        let Ok(bytes) = postcard::to_extend(&entries, FACTS_MAGIC.to_vec()) else {
            // A path that cannot be encoded: the files are hashed next time.
            return Ok(());
        };
        let path = self.dir.join(FACTS_FILE);
        let partial = path.with_extension("partial");
        std::fs::write(&partial, bytes).map_err(|source| io(&partial, source))?;
        std::fs::rename(&partial, &path).map_err(|source| io(&path, source))
    }
}

/// Everything an entry was built from: the program, the minor, and each
/// spec file's path, size, mtime and recorded digest. `None` when a file
/// cannot be inspected or has no digest (loading then reports it).
fn key(tool: FileId, api: &Api, minor: &PresentMinor, files: &[PathBuf]) -> Option<Key> {
    let listed = api.listed.get(&minor.version)?;
    let files = files
        .iter()
        .map(|path| {
            let stamp = FileId::of(path)?;
            let name = path.file_name()?.to_string_lossy();
            let digest = listed.files.get(name.as_ref())?.sha256.to_ascii_lowercase();
            Some((path.clone(), stamp, digest))
        })
        .collect::<Option<_>>()?;
    Some(Key {
        tool,
        version: minor.version,
        files,
    })
}

/// What an entry is valid for (see [`key`]).
#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Key {
    tool: FileId,
    version: Version,
    files: Vec<(PathBuf, FileId, String)>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_verified_fact_file_is_trusted_only_unchanged_and_with_its_digest() {
        let tmp = tempfile::tempdir().unwrap();
        let fact = tmp.path().join("Gate.md");
        std::fs::write(&fact, "a page").unwrap();
        let id = FileId::of(&fact).unwrap();
        let cache = LoadCache::new(tmp.path().join("cache"));
        assert!(!cache.fact_verified(&fact, id, "ab"), "nothing saved yet");
        cache.remember_fact(&fact, id, "AB");
        cache.save().unwrap();

        let again = LoadCache::new(tmp.path().join("cache"));
        assert!(again.fact_verified(&fact, id, "ab"));
        assert!(
            !again.fact_verified(&fact, id, "cd"),
            "another digest in api.toml"
        );
        let grown = FileId {
            len: id.len + 1,
            ..id
        };
        assert!(!again.fact_verified(&fact, grown, "ab"), "a changed file");
        let other = tmp.path().join("Other.md");
        assert!(!again.fact_verified(&other, id, "ab"), "another path");
        std::fs::write(tmp.path().join("cache").join(FACTS_FILE), b"damaged").unwrap();
        let damaged = LoadCache::new(tmp.path().join("cache"));
        assert!(
            !damaged.fact_verified(&fact, id, "ab"),
            "a damaged file is empty"
        );
    }

    #[test]
    fn the_demo_minors_round_trip_and_a_changed_spec_misses() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../upstream-specs/demo");
        let api = Api::open(&dir).unwrap();
        let tmp = tempfile::tempdir().unwrap();
        let cache = LoadCache::new(tmp.path().to_owned());
        for minor in api.present_minors().unwrap() {
            let files = api.spec_files(&minor).unwrap();
            let loaded = super::super::load_minor(&api, &minor).unwrap();
            assert!(cache.lookup(&api, &minor, &files).is_none());
            cache.remember(&api, &minor, &files, &loaded);
            cache.save().unwrap();
            let cached = cache.lookup(&api, &minor, &files).expect("a hit");
            assert_eq!(cached.model, loaded.model);
            assert_eq!(cached.files, loaded.files);
            assert_eq!(cached.warnings, loaded.warnings);

            // The same spec elsewhere (another path) is another key.
            let other: Vec<PathBuf> = files
                .iter()
                .map(|f| tmp.path().join(f.file_name().unwrap()))
                .collect();
            assert!(key(cache.tool.unwrap(), &api, &minor, &other).is_none());
            // A damaged entry is a miss.
            let path = cache.file(minor.version);
            let bytes = std::fs::read(&path).unwrap();
            std::fs::write(&path, &bytes[..bytes.len() - 1]).unwrap();
            assert!(cache.lookup(&api, &minor, &files).is_none());
        }
    }
}
