//! Recording spec files in api.toml: every file not yet recorded, reported
//! at once with the lines to add, and a new API's api.toml written in one
//! step from a directory of `v<X.Y>/` minors (`cargo xtask add-api`).

pub mod entries;
pub mod minor;

use crate::api::{sha256_hex, Api, API_TOML};
use crate::error::{Error, Result};
use crate::fetch::FetchReport;
use heck::ToLowerCamelCase;
use std::collections::{BTreeMap, BTreeSet};
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
            "[minors.{}.files.{}]\nsha256 = \"{}\"\n",
            toml_string(&self.version.to_string()),
            toml_string(&file),
            self.sha256
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
    /// The copy of the specs: every file verified, the ones written (a
    /// file already in place with the same bytes is not).
    pub fetched: FetchReport,
}

/// Adds API `name` under `specs_root` (`upstream-specs/`) from `source`, a
/// directory holding one `v<X.Y>/` per minor: writes
/// `specs_root/<name>/api.toml` recording every spec file's digest (with
/// the defaults of [`api_toml`]) and copies the files beside it, into
/// `v<X.Y>/`, so that `cargo xtask regen --api <name>` works.
///
/// Everything is checked before anything is written: the name, the minors
/// (two folders for one minor, `v1.12/` and `v1.12.0/`, are an error naming
/// both), every spec file read once, api.toml read back, and every copy's
/// place (a file there must hold the same bytes). The result is then built
/// aside, in `specs_root/.<name>.add-api/`, and moved in: renamed whole when
/// `<name>/` does not exist, file by file (undone on failure) when it does.
/// A failure leaves `specs_root` as it was. Refuses to overwrite an
/// existing api.toml.
pub fn add_api(specs_root: &Path, name: &str, source: &Path) -> Result<Added> {
    check_name(name)?;
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
    let plan = plan(name, source)?;
    // Every copy's place: absent, or holding the same bytes.
    let mut copies = Vec::new();
    for (relative, bytes) in &plan.files {
        let target = dir.join(relative);
        match std::fs::symlink_metadata(&target) {
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
                copies.push((relative.as_path(), bytes.as_slice()));
            }
            Err(err) => return Err(Error::io(&target, "inspecting", err)),
            Ok(meta) if meta.is_file() => {
                let current =
                    std::fs::read(&target).map_err(|err| Error::io(&target, "reading", err))?;
                if current != *bytes {
                    return Err(Error::Config {
                        path: target,
                        message: format!(
                            "holds other bytes than {}; move it aside (or remove it) and run \
                             `cargo xtask add-api {name}` again",
                            source.join(relative).display()
                        ),
                    });
                }
            }
            Ok(_) => {
                return Err(Error::Config {
                    path: target,
                    message: format!(
                        "is in the way of a spec file's copy; move it aside and run \
                         `cargo xtask add-api {name}` again"
                    ),
                })
            }
        }
    }
    let created_root = !specs_root.exists();
    let result = stage_and_commit(specs_root, name, &plan.text, &copies);
    if result.is_err() && created_root {
        let _ = std::fs::remove_dir(specs_root);
    }
    result?;
    Ok(Added {
        api_toml: path,
        minors: plan.minors,
        fetched: FetchReport {
            verified: plan.files.len(),
            written: copies
                .iter()
                .map(|(relative, _)| dir.join(relative))
                .collect(),
        },
    })
}

/// Writes api.toml and the copies into `specs_root/.<name>.add-api/`,
/// reads api.toml back there, then moves the lot into `specs_root/<name>/`.
/// The staging directory never outlives the call.
fn stage_and_commit(
    specs_root: &Path,
    name: &str,
    text: &str,
    copies: &[(&Path, &[u8])],
) -> Result<()> {
    let stage = specs_root.join(format!(".{name}.add-api"));
    if stage.exists() {
        // A run killed while staging left it; it was never the API.
        std::fs::remove_dir_all(&stage)
            .map_err(|err| Error::io(&stage, "removing an earlier add-api's staging", err))?;
    }
    let result = stage_files(&stage, text, copies).and_then(|()| {
        // Read back as a regen will: a name TOML or glob would misread is
        // caught here, before anything is in place.
        let api = Api::open(&stage)?;
        require_recorded(&api)?;
        commit(&stage, &specs_root.join(name), copies)
    });
    if stage.exists() {
        let _ = std::fs::remove_dir_all(&stage);
    }
    result
}

fn stage_files(stage: &Path, text: &str, copies: &[(&Path, &[u8])]) -> Result<()> {
    let write = |relative: &Path, bytes: &[u8]| -> Result<()> {
        let target = stage.join(relative);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent).map_err(|err| Error::io(parent, "creating", err))?;
        }
        std::fs::write(&target, bytes).map_err(|err| Error::io(&target, "writing", err))
    };
    std::fs::create_dir_all(stage).map_err(|err| Error::io(stage, "creating", err))?;
    write(Path::new(API_TOML), text.as_bytes())?;
    for (relative, bytes) in copies {
        write(relative, bytes)?;
    }
    Ok(())
}

/// Moves the staged files into `dir`: the staging directory renamed whole
/// when `dir` does not exist, else each file (api.toml last), every move
/// undone when one fails.
fn commit(stage: &Path, dir: &Path, copies: &[(&Path, &[u8])]) -> Result<()> {
    if !dir.exists() {
        return std::fs::rename(stage, dir).map_err(|err| Error::io(dir, "moving into place", err));
    }
    let mut created_dirs: Vec<PathBuf> = Vec::new();
    let mut moved: Vec<PathBuf> = Vec::new();
    let relatives = copies
        .iter()
        .map(|(relative, _)| *relative)
        .chain(std::iter::once(Path::new(API_TOML)));
    let mut result = Ok(());
    for relative in relatives {
        let target = dir.join(relative);
        let step = (|| -> Result<()> {
            if let Some(parent) = target.parent() {
                if !parent.exists() {
                    std::fs::create_dir(parent)
                        .map_err(|err| Error::io(parent, "creating", err))?;
                    created_dirs.push(parent.to_owned());
                }
            }
            std::fs::rename(stage.join(relative), &target)
                .map_err(|err| Error::io(&target, "moving into place", err))
        })();
        match step {
            Ok(()) => moved.push(target),
            Err(err) => {
                result = Err(err);
                break;
            }
        }
    }
    if result.is_err() {
        for path in moved.iter().rev() {
            let _ = std::fs::remove_file(path);
        }
        for path in created_dirs.iter().rev() {
            let _ = std::fs::remove_dir(path);
        }
    }
    result
}

/// An API name is one directory name: ASCII letters, digits, `-` and `_`.
fn check_name(name: &str) -> Result<()> {
    let valid = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if valid {
        return Ok(());
    }
    Err(Error::Config {
        path: PathBuf::from(name),
        message: "an API name is a directory name of ASCII letters, digits, `-` and `_`".into(),
    })
}

/// What [`add_api`] will write: api.toml's text, the minors, and every
/// spec file's bytes by its path in the API's directory (`v1.12/x.json`).
struct Plan {
    text: String,
    minors: Vec<Version>,
    files: Vec<(PathBuf, Vec<u8>)>,
}

/// The api.toml of API `name` whose minors are the `v<X.Y>/` directories
/// of `source`: every JSON or YAML file in them is a spec file, recorded
/// with its digest. Defaults: `pkl_package` is the name,
/// `version_field` its lowerCamelCase + `Version` (`dockerVersion`).
pub fn api_toml(name: &str, source: &Path) -> Result<(String, Vec<Version>)> {
    check_name(name)?;
    plan(name, source).map(|plan| (plan.text, plan.minors))
}

/// Reads `source`'s minors and spec files (each once) into a [`Plan`].
/// Every problem with the minors is reported at once: folders naming no
/// version, two folders for one minor, a minor without a spec file.
fn plan(name: &str, source: &Path) -> Result<Plan> {
    let mut minors: BTreeMap<Version, PathBuf> = BTreeMap::new();
    let mut problems: Vec<String> = Vec::new();
    let entries =
        std::fs::read_dir(source).map_err(|err| Error::io(source, "listing minors", err))?;
    let mut dirs: Vec<(String, PathBuf)> = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|err| Error::io(source, "listing minors", err))?;
        let dir_name = entry.file_name().to_string_lossy().into_owned();
        if is_version_dir(&dir_name) && entry.path().is_dir() {
            dirs.push((dir_name, entry.path()));
        }
    }
    // In name order, so that `v1.12` is named before `v1.12.0`.
    dirs.sort();
    for (dir_name, path) in dirs {
        let version: Version = match dir_name.parse() {
            Ok(version) => version,
            Err(err) => {
                problems.push(format!(
                    "{}: {err}; name minor directories v<major>.<minor>, e.g. v1.34",
                    path.display()
                ));
                continue;
            }
        };
        if let Some(first) = minors.get(&version) {
            problems.push(format!(
                "{} and {} are the same minor {version}; keep one",
                first.display(),
                path.display()
            ));
            continue;
        }
        minors.insert(version, path);
    }
    if minors.is_empty() && problems.is_empty() {
        return Err(Error::Config {
            path: source.to_owned(),
            message: "no v<X.Y> directories here; put each minor's spec in v<major>.<minor>/"
                .into(),
        });
    }
    let mut listed: Vec<(Version, Vec<PathBuf>)> = Vec::new();
    for (version, dir) in &minors {
        let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
            .map_err(|err| Error::io(dir, "listing spec files", err))?
            .flatten()
            .map(|entry| entry.path())
            .filter(|path| path.is_file() && is_spec_file(path))
            .collect();
        files.sort();
        if files.is_empty() {
            problems.push(format!(
                "{}: no .json, .yaml or .yml spec file here",
                dir.display()
            ));
        }
        listed.push((*version, files));
    }
    if !problems.is_empty() {
        return Err(Error::Config {
            path: source.to_owned(),
            message: format!(
                "nothing was written; fix {}:\n  {}",
                if problems.len() == 1 { "this" } else { "these" },
                problems.join("\n  ")
            ),
        });
    }
    let mut file_names = BTreeSet::new();
    let mut records = String::new();
    let mut files = Vec::new();
    for (version, paths) in listed {
        for path in paths {
            let bytes =
                std::fs::read(&path).map_err(|err| Error::io(&path, "reading the spec", err))?;
            let file = file_name(&path);
            records.push_str(&format!(
                "\n[minors.{}.files.{}]\nsha256 = \"{}\"\n",
                toml_string(&version.to_string()),
                toml_string(&file),
                sha256_hex(&bytes)
            ));
            files.push((Path::new(&version.dir_name()).join(&file), bytes));
            file_names.insert(file);
        }
    }
    // Each name exactly, not as a pattern (`[a].json`).
    let spec_files: Vec<String> = file_names
        .iter()
        .map(|f| toml_string(&glob::Pattern::escape(f)))
        .collect();
    let text = format!(
        "# Written by `cargo xtask add-api {name}`; see README § Adding an API.\n\
         name = {}\n\
         pkl_package = {}\n\
         version_field = \"{}Version\"\n\
         spec_files = [{}]\n\
         \n\
         # The generated crate's package (docs/rust.md#the-crate-as-a-package): a\n\
         # registry wants the specs' license (SPDX) and the repository they come from.\n\
         [rust]\n\
         # license = \"Apache-2.0\"\n\
         # repository = \"https://github.com/…\"\n{records}",
        toml_string(name),
        toml_string(name),
        name.to_lower_camel_case(),
        spec_files.join(", ")
    );
    Ok(Plan {
        text,
        minors: minors.into_keys().collect(),
        files,
    })
}

/// A TOML basic string, quoted and escaped by the toml crate.
fn toml_string(text: &str) -> String {
    toml::Value::String(text.to_owned()).to_string()
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

    /// Every entry below `dir`, relative to it, sorted: what a failed add
    /// must not have changed.
    fn entries(dir: &Path) -> Vec<String> {
        let mut found = Vec::new();
        let mut pending = vec![dir.to_owned()];
        while let Some(current) = pending.pop() {
            for entry in std::fs::read_dir(&current).unwrap() {
                let path = entry.unwrap().path();
                found.push(path.strip_prefix(dir).unwrap().display().to_string());
                if path.is_dir() {
                    pending.push(path);
                }
            }
        }
        found.sort();
        found
    }

    /// #29: `v1.12/` and `v1.12.0/` wrote an api.toml with duplicate tables
    /// and copied nothing.
    #[test]
    fn two_folders_for_one_minor_are_refused_naming_both_and_nothing_is_written() {
        let source = mirror(&["v1.11", "v1.12", "v1.12.0"]);
        let root = tempfile::tempdir().unwrap();
        let error = add_api(root.path(), "twice", source.path())
            .unwrap_err()
            .to_string();
        let (short, long) = (
            source.path().join("v1.12").display().to_string(),
            source.path().join("v1.12.0").display().to_string(),
        );
        assert!(
            error.contains(&format!("{short} and {long} are the same minor 1.12")),
            "{error}"
        );
        assert!(error.contains("keep one"), "{error}");
        assert_eq!(entries(root.path()), Vec::<String>::new());
    }

    /// A minor found as `v1.12.0/` is copied from there (into `v1.12/`,
    /// where `fetch-specs` and the regen look for it).
    #[test]
    fn a_minor_named_with_its_patch_is_copied_from_its_folder() {
        let source = mirror(&["v1.12.0"]);
        let root = tempfile::tempdir().unwrap();
        let added = add_api(root.path(), "patch", source.path()).unwrap();
        assert_eq!(added.minors, [Version::new(1, 12)]);
        assert_eq!(
            entries(root.path()),
            [
                "patch",
                "patch/api.toml",
                "patch/v1.12",
                "patch/v1.12/swagger.json"
            ]
        );
        let api = Api::open(&root.path().join("patch")).unwrap();
        require_recorded(&api).unwrap();
    }

    /// Any failure, wherever it happens, leaves `upstream-specs/` as it was:
    /// a minor without a spec file, a copy that would overwrite a file of
    /// other bytes.
    #[test]
    fn a_failed_add_leaves_nothing_behind() {
        let source = mirror(&["v1.1", "v1.2"]);
        std::fs::create_dir_all(source.path().join("v1.3")).unwrap();
        let root = tempfile::tempdir().unwrap();
        let error = add_api(root.path(), "api", source.path()).unwrap_err();
        assert!(error.to_string().contains("v1.3"), "{error}");
        assert_eq!(entries(root.path()), Vec::<String>::new());

        // The API's folder holds a different v1.2/swagger.json already.
        std::fs::remove_dir(source.path().join("v1.3")).unwrap();
        std::fs::create_dir_all(root.path().join("api/v1.2")).unwrap();
        std::fs::write(root.path().join("api/v1.2/swagger.json"), "{}").unwrap();
        let before = entries(root.path());
        let error = add_api(root.path(), "api", source.path())
            .unwrap_err()
            .to_string();
        assert!(
            error.contains("v1.2/swagger.json") && error.contains("other bytes"),
            "{error}"
        );
        assert_eq!(entries(root.path()), before);
        assert_eq!(
            std::fs::read(root.path().join("api/v1.2/swagger.json")).unwrap(),
            b"{}"
        );
    }

    /// Specs already in place (the same bytes) are recorded where they are:
    /// `add-api x --from upstream-specs/x`.
    #[test]
    fn an_api_folder_holding_its_specs_is_recorded_in_place() {
        let root = tempfile::tempdir().unwrap();
        let source = mirror(&["v1.1"]);
        let dir = root.path().join("here");
        std::fs::create_dir_all(dir.join("v1.1")).unwrap();
        std::fs::copy(
            source.path().join("v1.1/swagger.json"),
            dir.join("v1.1/swagger.json"),
        )
        .unwrap();
        let added = add_api(root.path(), "here", &dir).unwrap();
        assert!(added.fetched.written.is_empty(), "{added:?}");
        require_recorded(&Api::open(&dir).unwrap()).unwrap();
    }

    /// File names TOML must quote, or that are glob patterns, are recorded
    /// so that api.toml reads back and matches exactly them.
    #[test]
    fn odd_file_names_are_recorded_exactly() {
        let root = tempfile::tempdir().unwrap();
        let source = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(source.path().join("v1.1")).unwrap();
        for name in ["we\"ird.json", "[a]*.yaml", "tab\t.yml"] {
            std::fs::write(source.path().join("v1.1").join(name), SPEC).unwrap();
        }
        add_api(root.path(), "odd", source.path()).unwrap();
        let api = Api::open(&root.path().join("odd")).unwrap();
        let minor = &api.present_minors().unwrap()[0];
        assert_eq!(api.spec_files(minor).unwrap().len(), 3);
        require_recorded(&api).unwrap();
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
