//! The render cache: texts an emitter rendered in the last regen, by a
//! 128-bit hash of everything they were rendered from, so that a regen that
//! renders the same data again (the unchanged minors, when one is added)
//! reuses the text instead of running the template engine.
//!
//! It lives in `generated/<api>/.regen-cache/<name>` (per machine,
//! git-ignored, skipped by the sync like the regen stamp), is read before the
//! emitters run and rewritten after a successful sync, holding exactly the
//! entries that regen used. An entry is only trusted by the program that
//! wrote it (its size and mtime are in the file, as in the stamp): a
//! rebuilt tool, with possibly other templates or escaping, starts empty.
//! Anything unreadable is an empty cache, never an error.

use super::{Contents, Piece};
use crate::error::{Error, Result};
use crate::file_id::FileId;
use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// The directory of the render caches inside `generated/<api>/`.
pub const CACHE_DIR: &str = ".regen-cache";

/// The cache file's first bytes: its format.
const MAGIC: &[u8] = b"vergate render cache 2 (postcard)\n";

/// Rendered texts by the hash of their inputs.
#[derive(Debug, Default)]
pub struct RenderCache {
    /// Where it is read from and written to; `None` for a cache that only
    /// serves one regen (tests, `build`).
    path: Option<PathBuf>,
    known: HashMap<u128, Arc<str>>,
    used: Mutex<HashMap<u128, Arc<str>>>,
}

impl RenderCache {
    /// A cache with no entries that is never saved: every text is rendered.
    pub fn none() -> RenderCache {
        RenderCache::default()
    }

    /// The cache `name` of the output directory `out_dir`, as the current
    /// program left it (empty when missing, unreadable or written by another
    /// build of the tool).
    pub fn open(out_dir: &Path, name: &str) -> RenderCache {
        let path = out_dir.join(CACHE_DIR).join(name);
        let known = FileId::of_current_exe()
            .and_then(|tool| {
                std::fs::read(&path)
                    .ok()
                    .and_then(|bytes| decode(&bytes, tool))
            })
            .unwrap_or_default();
        RenderCache {
            path: Some(path),
            known,
            used: Mutex::default(),
        }
    }

    /// The text rendered from `inputs` (with everything that decides the
    /// text: the template's name, the data): from the cache, or `render`'s.
    pub fn render(
        &self,
        inputs: &impl Hash,
        render: impl FnOnce() -> Result<Vec<u8>>,
    ) -> Result<Contents> {
        let text = self.text(inputs, || {
            String::from_utf8(render()?).map_err(|err| crate::Error::Config {
                path: self.path.clone().unwrap_or_default(),
                message: format!("a rendered text is not UTF-8: {err}"),
            })
        })?;
        Ok(Contents::from_pieces(vec![Piece::Shared(text)]))
    }

    /// Like [`RenderCache::render`], for a text made as a `String` (the Rust
    /// emitter's formatted files): from the cache, or `render`'s.
    pub fn text(
        &self,
        inputs: &impl Hash,
        render: impl FnOnce() -> Result<String>,
    ) -> Result<Arc<str>> {
        let key = key(inputs);
        let text = match self.known.get(&key) {
            Some(text) => Arc::clone(text),
            None => Arc::from(render()?),
        };
        self.used
            .lock()
            .expect("the render cache lock")
            .insert(key, Arc::clone(&text));
        Ok(text)
    }

    /// Writes the entries this regen used, when they differ from what was
    /// read. Called after a successful sync.
    pub fn save(&self) -> Result<()> {
        let (Some(path), Some(tool)) = (&self.path, FileId::of_current_exe()) else {
            return Ok(());
        };
        let used = self.used.lock().expect("the render cache lock");
        let same =
            used.len() == self.known.len() && used.keys().all(|key| self.known.contains_key(key));
        if same {
            return Ok(());
        }
        let dir = path
            .parent()
            .expect("a cache file is in the cache directory");
        std::fs::create_dir_all(dir)
            .map_err(|source| Error::io(dir, "creating a directory", source))?;
        let partial = path.with_extension("partial");
        std::fs::write(&partial, encode(&used, tool))
            .map_err(|source| Error::io(&partial, "writing the render cache", source))?;
        std::fs::rename(&partial, path)
            .map_err(|source| Error::io(path, "writing the render cache", source))
    }
}

/// A 128-bit hash of `inputs`: two SipHash passes told apart by a prefix.
fn key(inputs: &impl Hash) -> u128 {
    let half = |salt: u8| {
        let mut hasher = DefaultHasher::new();
        salt.hash(&mut hasher);
        inputs.hash(&mut hasher);
        hasher.finish()
    };
    (u128::from(half(0)) << 64) | u128::from(half(1))
}

/// The file: the magic, then the postcard encoding of the tool's identity
/// and the entries, sorted by key (so the same entries give the same bytes).
fn encode(entries: &HashMap<u128, Arc<str>>, tool: FileId) -> Vec<u8> {
    let mut sorted: Vec<(u128, &str)> = entries
        .iter()
        .map(|(key, text)| (*key, text.as_ref()))
        .collect();
    sorted.sort_unstable_by_key(|(key, _)| *key);
    postcard::to_extend(&(tool, sorted), MAGIC.to_vec())
        .expect("a cache of strings encodes into a vector")
}

fn decode(bytes: &[u8], tool: FileId) -> Option<HashMap<u128, Arc<str>>> {
    let (written_by, entries): (FileId, Vec<(u128, &str)>) =
        postcard::from_bytes(bytes.strip_prefix(MAGIC)?).ok()?;
    (written_by == tool).then(|| {
        entries
            .into_iter()
            .map(|(key, text)| (key, Arc::from(text)))
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_survive_a_save_and_only_for_the_same_tool() {
        let dir = tempfile::tempdir().unwrap();
        let cache = RenderCache::open(dir.path(), "test");
        let rendered = cache
            .render(&("template", 1), || Ok(b"one".to_vec()))
            .unwrap();
        assert_eq!(rendered.as_bytes(), b"one");
        cache.save().unwrap();

        let again = RenderCache::open(dir.path(), "test");
        let cached = again
            .render(&("template", 1), || panic!("rendered again"))
            .unwrap();
        assert_eq!(cached.as_bytes(), b"one");
        let other = again
            .render(&("template", 2), || Ok(b"two".to_vec()))
            .unwrap();
        assert_eq!(other.as_bytes(), b"two");

        let tool = FileId::of_current_exe().unwrap();
        let bytes = std::fs::read(dir.path().join(CACHE_DIR).join("test")).unwrap();
        assert_eq!(decode(&bytes, tool).unwrap().len(), 1);
        let other_tool = FileId {
            len: tool.len + 1,
            ..tool
        };
        assert_eq!(
            decode(&bytes, other_tool),
            None,
            "another build starts empty"
        );
        assert_eq!(
            decode(&bytes[..bytes.len() - 1], tool),
            None,
            "a cut file is ignored"
        );
    }
}
