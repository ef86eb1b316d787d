//! Recording spec files in api.toml: every file not yet recorded, reported
//! at once with the lines to add, and a new API's api.toml written in one
//! step from a directory of `v<X.Y>/` minors (`cargo xtask add-api`).

use crate::api::{sha256_hex, Api, API_TOML};
use crate::error::{Error, Result};
use crate::fetch::{fetch_from_dir, FetchReport};
use heck::ToLowerCamelCase;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use vergate_core::{is_version_dir, Version};

/// A present spec file that api.toml does not record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unrecorded {
    pub version: Version,
    pub path: PathBuf,
    /// Its lowercase hex sha256.
    pub sha256: String,
}

impl Unrecorded {
    /// The api.toml lines that record it.
    pub fn toml_lines(&self) -> String {
        let file = file_name(&self.path);
        format!(
            "[minors.\"{}\".files.\"{file}\"]\nsha256 = \"{}\"\n",
            self.version, self.sha256
        )
    }
}

/// Every spec file of every present minor that api.toml does not record
/// (by minor, then file name). Only those files are read.
pub fn unrecorded(api: &Api) -> Result<Vec<Unrecorded>> {
    let mut found = Vec::new();
    for minor in api.present_minors()? {
        let recorded = api.listed.get(&minor.version);
        for path in api.spec_files(&minor)? {
            let listed = recorded.is_some_and(|entry| entry.files.contains_key(&file_name(&path)));
            if listed {
                continue;
            }
            let bytes = std::fs::read(&path)
                .map_err(|source| Error::io(&path, "reading the spec", source))?;
            found.push(Unrecorded {
                version: minor.version,
                path,
                sha256: sha256_hex(&bytes),
            });
        }
    }
    Ok(found)
}

/// Fails, listing every unrecorded spec file and the lines that record
/// them all, when api.toml does not record each present spec file.
pub fn require_recorded(api: &Api) -> Result<()> {
    let missing = unrecorded(api)?;
    if missing.is_empty() {
        return Ok(());
    }
    let files: Vec<String> = missing
        .iter()
        .map(|file| format!("  {}", file.path.display()))
        .collect();
    let lines: Vec<String> = missing.iter().map(Unrecorded::toml_lines).collect();
    Err(Error::Config {
        path: api.dir.join(API_TOML),
        message: format!(
            "{} spec file{} not recorded here:\n{}\nadd\n\n{}",
            missing.len(),
            if missing.len() == 1 { " is" } else { "s are" },
            files.join("\n"),
            lines.join("\n")
        ),
    })
}

/// What [`add_api`] did.
#[derive(Debug)]
pub struct Added {
    /// The api.toml written.
    pub api_toml: PathBuf,
    /// The minors found.
    pub minors: Vec<Version>,
    /// The copy of the specs.
    pub fetched: FetchReport,
}

/// Adds API `name` under `specs_root` (`upstream-specs/`) from `source`, a
/// directory holding one `v<X.Y>/` per minor: writes
/// `specs_root/<name>/api.toml` recording every spec file's digest (with
/// the defaults of [`api_toml`]), then copies the files beside it, verified,
/// so that `cargo xtask regen --api <name>` works. Refuses to overwrite an
/// existing api.toml.
pub fn add_api(specs_root: &Path, name: &str, source: &Path) -> Result<Added> {
    let dir = specs_root.join(name);
    let path = dir.join(API_TOML);
    if path.exists() {
        return Err(Error::Config {
            path,
            message: format!(
                "API {name:?} exists already; to add minors, put their directories beside \
                 api.toml and run `cargo xtask regen --api {name}`, which prints the lines to add"
            ),
        });
    }
    let (text, minors) = api_toml(name, source)?;
    std::fs::create_dir_all(&dir).map_err(|err| Error::io(&dir, "creating", err))?;
    std::fs::write(&path, text).map_err(|err| Error::io(&path, "writing", err))?;
    let api = Api::open(&dir)?;
    let fetched = fetch_from_dir(&api, source)?;
    Ok(Added {
        api_toml: path,
        minors,
        fetched,
    })
}

/// The api.toml of API `name` whose minors are the `v<X.Y>/` directories
/// of `source`: every JSON or YAML file in them is a spec file, recorded
/// with its digest. Defaults: `pkl_package` is the name,
/// `version_field` its lowerCamelCase + `Version` (`dockerVersion`).
pub fn api_toml(name: &str, source: &Path) -> Result<(String, Vec<Version>)> {
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        return Err(Error::Config {
            path: PathBuf::from(name),
            message: "an API name is a directory name of ASCII letters, digits, `-` and `_`".into(),
        });
    }
    let mut minors: Vec<(Version, PathBuf)> = Vec::new();
    let entries =
        std::fs::read_dir(source).map_err(|err| Error::io(source, "listing minors", err))?;
    for entry in entries.flatten() {
        let dir_name = entry.file_name().to_string_lossy().into_owned();
        if !is_version_dir(&dir_name) || !entry.path().is_dir() {
            continue;
        }
        let version: Version = dir_name.parse().map_err(|err| Error::Config {
            path: entry.path(),
            message: format!("{err}; name minor directories v<major>.<minor>, e.g. v1.34"),
        })?;
        minors.push((version, entry.path()));
    }
    minors.sort();
    if minors.is_empty() {
        return Err(Error::Config {
            path: source.to_owned(),
            message: "no v<X.Y> directories here; put each minor's spec in v<major>.<minor>/"
                .into(),
        });
    }
    let mut file_names = BTreeSet::new();
    let mut records = String::new();
    for (version, dir) in &minors {
        let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
            .map_err(|err| Error::io(dir, "listing spec files", err))?
            .flatten()
            .map(|entry| entry.path())
            .filter(|path| path.is_file() && is_spec_file(path))
            .collect();
        files.sort();
        if files.is_empty() {
            return Err(Error::Config {
                path: dir.clone(),
                message: "no .json, .yaml or .yml spec file here".into(),
            });
        }
        for path in files {
            let bytes =
                std::fs::read(&path).map_err(|err| Error::io(&path, "reading the spec", err))?;
            let record = Unrecorded {
                version: *version,
                path: path.clone(),
                sha256: sha256_hex(&bytes),
            };
            records.push('\n');
            records.push_str(&record.toml_lines());
            file_names.insert(file_name(&path));
        }
    }
    let spec_files: Vec<String> = file_names.iter().map(|f| format!("{f:?}")).collect();
    let text = format!(
        "# Written by `cargo xtask add-api {name}`; see README § Adding an API.\n\
         name = {name:?}\n\
         pkl_package = {name:?}\n\
         version_field = \"{}Version\"\n\
         spec_files = [{}]\n{records}",
        name.to_lower_camel_case(),
        spec_files.join(", ")
    );
    Ok((
        text,
        minors.into_iter().map(|(version, _)| version).collect(),
    ))
}

fn is_spec_file(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| matches!(e, "json" | "yaml" | "yml"))
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPEC: &str = r#"{"swagger": "2.0", "definitions": {"a.v1.T": {"type": "object", "properties": {"x": {"type": "string"}}}}}"#;

    fn mirror(minors: &[&str]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for minor in minors {
            std::fs::create_dir_all(dir.path().join(minor)).unwrap();
            std::fs::write(dir.path().join(minor).join("swagger.json"), SPEC).unwrap();
        }
        std::fs::create_dir_all(dir.path().join("notes")).unwrap();
        dir
    }

    #[test]
    fn add_api_records_every_minor_and_copies_the_specs() {
        let source = mirror(&["v1.41", "v1.9"]);
        let root = tempfile::tempdir().unwrap();
        let added = add_api(root.path(), "my-api", source.path()).unwrap();
        assert_eq!(added.minors, [Version::new(1, 9), Version::new(1, 41)]);
        assert_eq!(added.fetched.written.len(), 2);
        let api = Api::open(&root.path().join("my-api")).unwrap();
        assert_eq!(api.config.version_field, "myApiVersion");
        assert_eq!(api.config.spec_files, ["swagger.json"]);
        assert!(unrecorded(&api).unwrap().is_empty());
        require_recorded(&api).unwrap();
        // A second add refuses to overwrite.
        let error = add_api(root.path(), "my-api", source.path()).unwrap_err();
        assert!(error.to_string().contains("exists already"), "{error}");
    }

    #[test]
    fn every_unrecorded_file_is_reported_at_once() {
        let source = mirror(&["v1.1"]);
        let root = tempfile::tempdir().unwrap();
        add_api(root.path(), "api", source.path()).unwrap();
        let dir = root.path().join("api");
        for minor in ["v1.2", "v1.3"] {
            std::fs::create_dir_all(dir.join(minor)).unwrap();
            std::fs::write(dir.join(minor).join("swagger.json"), SPEC).unwrap();
        }
        let api = Api::open(&dir).unwrap();
        let missing = unrecorded(&api).unwrap();
        assert_eq!(missing.len(), 2);
        let message = require_recorded(&api).unwrap_err().to_string();
        assert!(
            message.contains("2 spec files are not recorded"),
            "{message}"
        );
        assert!(
            message.contains("[minors.\"1.2\".files.\"swagger.json\"]"),
            "{message}"
        );
        assert!(
            message.contains("[minors.\"1.3\".files.\"swagger.json\"]"),
            "{message}"
        );
    }

    #[test]
    fn a_directory_without_minors_or_a_bad_name_is_refused() {
        let empty = tempfile::tempdir().unwrap();
        let error = api_toml("x", empty.path()).unwrap_err();
        assert!(
            error.to_string().contains("no v<X.Y> directories"),
            "{error}"
        );
        let error = api_toml("../x", empty.path()).unwrap_err();
        assert!(error.to_string().contains("an API name"), "{error}");
    }
}
