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
//! The codec destructures every model type without `..`, so a field added
//! to the model does not compile until it is encoded here too.

use super::LoadedMinor;
use crate::api::{Api, PresentMinor};
use crate::error::{Error, Result, Warning};
use crate::model::{Definition, MinorModel, ObjectSchema, Property, Schema, Source};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::UNIX_EPOCH;
use vergate_core::gates::GroupVersionKind;
use vergate_core::Version;

/// The file's first bytes: its format.
const MAGIC: &[u8] = b"vergate load cache 1\n";

/// The loaded minors of one API's last regen, and the ones to record.
#[derive(Debug)]
pub struct LoadCache {
    dir: PathBuf,
    tool: Option<FileStamp>,
    /// Entries built by this regen, to write once it succeeded.
    fresh: Mutex<BTreeMap<Version, Vec<u8>>>,
    /// The minors this regen loaded (entries of others are removed).
    present: Mutex<BTreeSet<Version>>,
}

/// A file's size and modification time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct FileStamp {
    len: u64,
    mtime_ns: u128,
}

impl FileStamp {
    fn of(path: &Path) -> Option<FileStamp> {
        let meta = std::fs::metadata(path).ok()?;
        let mtime = meta.modified().ok()?.duration_since(UNIX_EPOCH).ok()?;
        Some(FileStamp {
            len: meta.len(),
            mtime_ns: mtime.as_nanos(),
        })
    }
}

impl LoadCache {
    /// The cache kept in `dir` (`generated/<api>/.regen-cache`).
    pub fn new(dir: PathBuf) -> LoadCache {
        let tool = std::env::current_exe()
            .ok()
            .and_then(|exe| FileStamp::of(&exe));
        LoadCache {
            dir,
            tool,
            fresh: Mutex::default(),
            present: Mutex::default(),
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
        let mut reader = Reader(bytes.strip_prefix(MAGIC)?);
        if reader.bytes()? != key.as_slice() {
            return None;
        }
        let loaded = reader.loaded()?;
        reader.0.is_empty().then_some(loaded)
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
        let mut writer = Writer(MAGIC.to_vec());
        writer.bytes(&key);
        writer.loaded(loaded);
        self.fresh
            .lock()
            .expect("the load cache lock")
            .insert(minor.version, writer.0);
    }

    /// Writes the entries this regen built and removes those of minors that
    /// are gone. Called after a successful sync.
    pub fn save(&self) -> Result<()> {
        let io = |path: &Path, source| Error::Io {
            path: path.to_owned(),
            action: "writing the load cache",
            source,
        };
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

/// Everything an entry was built from: the program, the minor, and each
/// spec file's path, size, mtime and recorded digest. `None` when a file
/// cannot be inspected or has no digest (loading then reports it).
fn key(tool: FileStamp, api: &Api, minor: &PresentMinor, files: &[PathBuf]) -> Option<Vec<u8>> {
    let mut writer = Writer(Vec::new());
    writer.u64(tool.len);
    writer.u128(tool.mtime_ns);
    writer.version(minor.version);
    writer.u64(files.len() as u64);
    let listed = api.listed.get(&minor.version)?;
    for path in files {
        let stamp = FileStamp::of(path)?;
        let name = path.file_name()?.to_string_lossy();
        let digest = &listed.files.get(name.as_ref())?.sha256;
        writer.path(path);
        writer.u64(stamp.len);
        writer.u128(stamp.mtime_ns);
        writer.str(&digest.to_ascii_lowercase());
    }
    Some(writer.0)
}

/// Appends values in the cache's format (integers little-endian, strings
/// and byte strings length-prefixed).
struct Writer(Vec<u8>);

impl Writer {
    fn u64(&mut self, value: u64) {
        self.0.extend_from_slice(&value.to_le_bytes());
    }

    fn u128(&mut self, value: u128) {
        self.0.extend_from_slice(&value.to_le_bytes());
    }

    fn bool(&mut self, value: bool) {
        self.0.push(u8::from(value));
    }

    fn bytes(&mut self, bytes: &[u8]) {
        self.u64(bytes.len() as u64);
        self.0.extend_from_slice(bytes);
    }

    fn str(&mut self, text: &str) {
        self.bytes(text.as_bytes());
    }

    fn path(&mut self, path: &Path) {
        self.str(&path.to_string_lossy());
    }

    fn option(&mut self, text: &Option<String>) {
        self.bool(text.is_some());
        if let Some(text) = text {
            self.str(text);
        }
    }

    fn strings<'s>(&mut self, texts: impl ExactSizeIterator<Item = &'s String>) {
        self.u64(texts.len() as u64);
        for text in texts {
            self.str(text);
        }
    }

    fn map(&mut self, map: &BTreeMap<String, String>) {
        self.u64(map.len() as u64);
        for (key, value) in map {
            self.str(key);
            self.str(value);
        }
    }

    fn version(&mut self, version: Version) {
        self.u64(u64::from(version.major()));
        self.u64(u64::from(version.minor()));
    }

    fn source(&mut self, source: &Source) {
        let Source { path, pointer } = source;
        self.path(path);
        self.str(pointer);
    }

    fn loaded(&mut self, loaded: &LoadedMinor) {
        let LoadedMinor {
            model,
            files,
            warnings,
        } = loaded;
        let MinorModel {
            version,
            definitions,
        } = model;
        self.version(*version);
        self.u64(definitions.len() as u64);
        for definition in definitions.values() {
            self.definition(definition);
        }
        self.u64(files.len() as u64);
        for file in files {
            self.path(file);
        }
        self.u64(warnings.len() as u64);
        for warning in warnings {
            let Warning {
                path,
                pointer,
                message,
            } = warning;
            self.path(path);
            self.str(pointer);
            self.str(message);
        }
    }

    fn definition(&mut self, definition: &Definition) {
        let Definition {
            name,
            description,
            schema,
            enum_values,
            kinds,
            extensions,
            keywords,
            deprecated,
            hoisted,
            source,
        } = definition;
        self.str(name);
        self.option(description);
        self.schema(schema);
        self.strings(enum_values.iter());
        self.u64(kinds.len() as u64);
        for kind in kinds {
            let GroupVersionKind {
                group,
                version,
                kind,
            } = kind;
            self.str(group);
            self.str(version);
            self.str(kind);
        }
        self.map(extensions);
        self.map(keywords);
        self.bool(*deprecated);
        self.bool(*hoisted);
        self.source(source);
    }

    fn schema(&mut self, schema: &Schema) {
        match schema {
            Schema::Ref(name) => {
                self.0.push(0);
                self.str(name);
            }
            Schema::Boolean => self.0.push(1),
            Schema::Integer { format } => {
                self.0.push(2);
                self.option(format);
            }
            Schema::Number { format } => {
                self.0.push(3);
                self.option(format);
            }
            Schema::String { format } => {
                self.0.push(4);
                self.option(format);
            }
            Schema::IntOrString => self.0.push(5),
            Schema::Array(item) => {
                self.0.push(6);
                self.schema(item);
            }
            Schema::Map(value) => {
                self.0.push(7);
                self.schema(value);
            }
            Schema::Object(object) => {
                self.0.push(8);
                let ObjectSchema {
                    properties,
                    required,
                    additional,
                } = object;
                self.u64(properties.len() as u64);
                for (name, property) in properties {
                    self.str(name);
                    self.property(property);
                }
                self.strings(required.iter());
                self.bool(additional.is_some());
                if let Some(additional) = additional {
                    self.schema(additional);
                }
            }
            Schema::Any => self.0.push(9),
        }
    }

    fn property(&mut self, property: &Property) {
        let Property {
            schema,
            description,
            enum_values,
            default,
            extensions,
            keywords,
            deprecated,
            renamed_from,
            source,
        } = property;
        self.schema(schema);
        self.option(description);
        self.strings(enum_values.iter());
        self.option(default);
        self.map(extensions);
        self.map(keywords);
        self.bool(*deprecated);
        self.option(renamed_from);
        self.source(source);
    }
}

/// Reads what [`Writer`] wrote; `None` at the first thing amiss.
struct Reader<'b>(&'b [u8]);

impl<'b> Reader<'b> {
    fn take(&mut self, n: usize) -> Option<&'b [u8]> {
        let (head, tail) = self.0.split_at_checked(n)?;
        self.0 = tail;
        Some(head)
    }

    fn u64(&mut self) -> Option<u64> {
        Some(u64::from_le_bytes(self.take(8)?.try_into().ok()?))
    }

    fn count(&mut self) -> Option<usize> {
        let count = usize::try_from(self.u64()?).ok()?;
        // No count can exceed the bytes left: a damaged count fails here
        // instead of asking for a huge allocation.
        (count <= self.0.len()).then_some(count)
    }

    fn byte(&mut self) -> Option<u8> {
        Some(self.take(1)?[0])
    }

    fn bool(&mut self) -> Option<bool> {
        match self.byte()? {
            0 => Some(false),
            1 => Some(true),
            _ => None,
        }
    }

    fn bytes(&mut self) -> Option<&'b [u8]> {
        let len = self.count()?;
        self.take(len)
    }

    fn str(&mut self) -> Option<String> {
        std::str::from_utf8(self.bytes()?).ok().map(str::to_owned)
    }

    fn path(&mut self) -> Option<PathBuf> {
        self.str().map(PathBuf::from)
    }

    fn option(&mut self) -> Option<Option<String>> {
        if self.bool()? {
            self.str().map(Some)
        } else {
            Some(None)
        }
    }

    fn strings<C: FromIterator<String>>(&mut self) -> Option<C> {
        let count = self.count()?;
        (0..count).map(|_| self.str()).collect()
    }

    fn map(&mut self) -> Option<BTreeMap<String, String>> {
        let count = self.count()?;
        (0..count)
            .map(|_| Some((self.str()?, self.str()?)))
            .collect()
    }

    fn version(&mut self) -> Option<Version> {
        let major = u32::try_from(self.u64()?).ok()?;
        let minor = u32::try_from(self.u64()?).ok()?;
        Some(Version::new(major, minor))
    }

    fn source(&mut self) -> Option<Source> {
        Some(Source {
            path: self.path()?,
            pointer: self.str()?,
        })
    }

    fn loaded(&mut self) -> Option<LoadedMinor> {
        let version = self.version()?;
        let count = self.count()?;
        let mut definitions = BTreeMap::new();
        for _ in 0..count {
            let definition = self.definition()?;
            definitions.insert(definition.name.clone(), definition);
        }
        let count = self.count()?;
        let files = (0..count).map(|_| self.path()).collect::<Option<_>>()?;
        let count = self.count()?;
        let warnings = (0..count)
            .map(|_| {
                Some(Warning {
                    path: self.path()?,
                    pointer: self.str()?,
                    message: self.str()?,
                })
            })
            .collect::<Option<_>>()?;
        Some(LoadedMinor {
            model: MinorModel {
                version,
                definitions,
            },
            files,
            warnings,
        })
    }

    fn definition(&mut self) -> Option<Definition> {
        let name = self.str()?;
        let description = self.option()?;
        let schema = self.schema()?;
        let enum_values = self.strings()?;
        let count = self.count()?;
        let kinds = (0..count)
            .map(|_| {
                Some(GroupVersionKind {
                    group: self.str()?,
                    version: self.str()?,
                    kind: self.str()?,
                })
            })
            .collect::<Option<_>>()?;
        Some(Definition {
            name,
            description,
            schema,
            enum_values,
            kinds,
            extensions: self.map()?,
            keywords: self.map()?,
            deprecated: self.bool()?,
            hoisted: self.bool()?,
            source: self.source()?,
        })
    }

    fn schema(&mut self) -> Option<Schema> {
        Some(match self.byte()? {
            0 => Schema::Ref(self.str()?),
            1 => Schema::Boolean,
            2 => Schema::Integer {
                format: self.option()?,
            },
            3 => Schema::Number {
                format: self.option()?,
            },
            4 => Schema::String {
                format: self.option()?,
            },
            5 => Schema::IntOrString,
            6 => Schema::Array(Box::new(self.schema()?)),
            7 => Schema::Map(Box::new(self.schema()?)),
            8 => {
                let count = self.count()?;
                let mut properties = BTreeMap::new();
                for _ in 0..count {
                    let name = self.str()?;
                    properties.insert(name, self.property()?);
                }
                let required = self.strings()?;
                let additional = if self.bool()? {
                    Some(Box::new(self.schema()?))
                } else {
                    None
                };
                Schema::Object(ObjectSchema {
                    properties,
                    required,
                    additional,
                })
            }
            9 => Schema::Any,
            _ => return None,
        })
    }

    fn property(&mut self) -> Option<Property> {
        Some(Property {
            schema: self.schema()?,
            description: self.option()?,
            enum_values: self.strings()?,
            default: self.option()?,
            extensions: self.map()?,
            keywords: self.map()?,
            deprecated: self.bool()?,
            renamed_from: self.option()?,
            source: self.source()?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
