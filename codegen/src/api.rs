//! `upstream-specs/<api>/api.toml` and the minors present beside it.

use crate::error::{Error, Result};
use crate::model::Dialect;
use serde::Deserialize;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use vergate_core::{is_version_dir, Version};

/// The name of the file that describes an API.
pub const API_TOML: &str = "api.toml";

/// What api.toml says about an API.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ApiConfig {
    /// The API's name; also its directory names under `upstream-specs/` and `generated/`.
    pub name: String,
    /// One sentence on what the API is.
    #[serde(default)]
    pub description: Option<String>,
    /// What kind of API it is, which decides the rules that apply to it:
    /// `kubernetes` (the API server's own), `custom-resources` (an
    /// operator's CRDs) or `openapi` (a plain service; the default).
    #[serde(default)]
    pub dialect: Option<String>,
    /// The fact tables the API's project publishes beside its specs
    /// (`[facts.feature_gates]`, `[facts.api_lifecycle]`; the `kubernetes`
    /// dialect's), recorded by digest like the specs.
    #[serde(default)]
    pub facts: Facts,
    /// The Pkl package name (`k8s` gives `@k8s/v1.34/…`).
    pub pkl_package: String,
    /// The field of a target's Config that carries the minor (`kubernetesVersion`).
    pub version_field: String,
    /// The name of the Pkl annotation class for gates (`K8sVersion`).
    #[serde(default)]
    pub annotation_class: Option<String>,
    /// When the API's documents carry their own minor, the field that holds it
    /// (`apiVersion`); the JSON emitter then writes a combined schema.
    #[serde(default)]
    pub document_version_field: Option<String>,
    /// `[kinds]`: definitions served as resource kinds, each with the
    /// `apiVersion` it is served as (`"v1.VirtualMachine" = "kubevirt.io/v1"`;
    /// `"v1"` for the core group); the kind is the definition's short name.
    /// For a spec that says it neither by `x-kubernetes-group-version-kind`
    /// nor by Kubernetes-style paths (`load/resources.rs`); a definition the
    /// spec gives kinds keeps those.
    #[serde(default)]
    pub kinds: BTreeMap<String, String>,
    /// Where the Pkl packages are published (`https://pkg.example.com/k8s`):
    /// the root package is `package://pkg.example.com/k8s/<pkl_package>`, a
    /// minor's `…/<pkl_package>-v1.34`, their zips `<that>@<version>.zip`.
    /// Unset, they name the reserved host `pkg.vergate.invalid`: fine for
    /// local dependencies, not for publishing.
    #[serde(default)]
    pub pkl_publish_url: Option<String>,
    /// Classes (definition names) that are Pkl modules of their own in a
    /// Kubernetes-style API though one module uses them all: pkl-k8s's
    /// choice for some of `io.k8s.api.core.v1`, kept so that its users'
    /// imports resolve (`emit/pkl/owners.rs`).
    #[serde(default)]
    pub pkl_own_modules: Vec<String>,
    /// The generated Rust crate's package metadata (`[rust]`).
    #[serde(default)]
    pub rust: RustCrate,
    /// The spec file names (or `*` patterns) inside each `v<X.Y>/` directory.
    pub spec_files: Vec<String>,
    /// Per minor: each spec file's digest and public URL.
    #[serde(default)]
    pub minors: BTreeMap<String, MinorEntry>,
}

/// api.toml's `[rust]`: what the generated crate's Cargo.toml says about
/// it. Unset, the crate is `vergate-<api>`, versioned by the newest minor it
/// holds (`1.36.0`), without license or repository, and not publishable.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RustCrate {
    /// The package name (default `vergate-<api>`).
    #[serde(default)]
    pub name: Option<String>,
    /// The crate version, SemVer (default: the newest minor the crate
    /// holds, `1.36.0`, as the Pkl package's).
    #[serde(default)]
    pub version: Option<String>,
    /// Whether `cargo publish` may publish it (default false); true needs
    /// `license` and `repository`, as crates.io users expect.
    #[serde(default)]
    pub publish: bool,
    /// An SPDX license expression (`Apache-2.0`): the specs' license, which
    /// the generated code carries.
    #[serde(default)]
    pub license: Option<String>,
    /// The source repository's URL: where the specs come from
    /// (`https://github.com/kubernetes/kubernetes`), or where you keep the
    /// generated crate.
    #[serde(default)]
    pub repository: Option<String>,
}

/// api.toml's `[facts]`: the fact tables of the API, each a directory
/// beside api.toml (`feature-gates/`, `api-lifecycle/`) whose files are
/// recorded here with their sha256 and copied by `fetch-specs` from a
/// mirror laid out the same way.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Facts {
    /// The feature-gate pages (`feature-gates/<Gate>.md`): each gate's
    /// stage and default by minor.
    #[serde(default)]
    pub feature_gates: Option<FactFiles>,
    /// The prerelease-lifecycle files of each minor
    /// (`api-lifecycle/v<X.Y>/<group>/<version>/zz_generated.prerelease-lifecycle.go`).
    #[serde(default)]
    pub api_lifecycle: Option<FactFiles>,
}

/// The recorded files of one fact table.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FactFiles {
    /// Where upstream publishes them.
    #[serde(default)]
    pub source: Option<String>,
    /// Each file's path inside the table's directory, and its sha256.
    #[serde(default)]
    pub files: BTreeMap<String, String>,
}

/// One of an API's fact tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FactTable {
    FeatureGates,
    ApiLifecycle,
}

impl FactTable {
    /// Every table, in api.toml's order.
    pub const ALL: [FactTable; 2] = [FactTable::FeatureGates, FactTable::ApiLifecycle];

    /// Its key under `[facts]`.
    pub fn key(self) -> &'static str {
        match self {
            FactTable::FeatureGates => "feature_gates",
            FactTable::ApiLifecycle => "api_lifecycle",
        }
    }

    /// Its directory beside api.toml (and in a mirror).
    pub fn dir_name(self) -> &'static str {
        match self {
            FactTable::FeatureGates => "feature-gates",
            FactTable::ApiLifecycle => "api-lifecycle",
        }
    }
}

impl Facts {
    /// The recorded files of `table`, if api.toml has it.
    pub fn files(&self, table: FactTable) -> Option<&FactFiles> {
        match table {
            FactTable::FeatureGates => self.feature_gates.as_ref(),
            FactTable::ApiLifecycle => self.api_lifecycle.as_ref(),
        }
    }
}

impl RustCrate {
    /// Checks each value as cargo and crates.io would, before a regen
    /// writes a manifest they refuse; the error names the key and the fix.
    fn check(&self) -> std::result::Result<(), String> {
        if let Some(name) = &self.name {
            let valid = name.len() <= 64
                && name.starts_with(|c: char| c.is_ascii_alphabetic())
                && name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
            if !valid {
                return Err(format!(
                    "[rust] name {name:?}: a crate name starts with a letter and holds up to 64 \
                     ASCII letters, digits, `-` and `_`, e.g. \"vergate-kubernetes\""
                ));
            }
        }
        if let Some(version) = &self.version {
            if !is_semver(version) {
                return Err(format!(
                    "[rust] version {version:?}: give a SemVer version MAJOR.MINOR.PATCH, \
                     e.g. \"1.36.0\" (or leave it out: the newest minor the crate holds)"
                ));
            }
        }
        if let Some(license) = &self.license {
            if license.trim().is_empty() {
                return Err(
                    "[rust] license is empty; give an SPDX expression, e.g. \"Apache-2.0\"".into(),
                );
            }
        }
        if let Some(repository) = &self.repository {
            let host = repository
                .strip_prefix("https://")
                .or_else(|| repository.strip_prefix("http://"))
                .unwrap_or_default();
            if host.is_empty() || host.contains(char::is_whitespace) {
                return Err(format!(
                    "[rust] repository {repository:?}: give the repository's URL, \
                     e.g. \"https://github.com/kubernetes/kubernetes\""
                ));
            }
        }
        if self.publish {
            let missing: Vec<&str> = [
                ("license", self.license.is_none()),
                ("repository", self.repository.is_none()),
            ]
            .iter()
            .filter(|(_, missing)| *missing)
            .map(|(key, _)| *key)
            .collect();
            if !missing.is_empty() {
                return Err(format!(
                    "[rust] publish = true needs {} too: crates.io shows them",
                    missing.join(" and ")
                ));
            }
        }
        Ok(())
    }
}

/// True for a SemVer version cargo takes: three numbers without leading
/// zeros, then an optional `-pre-release` and `+build`, dot-separated
/// identifiers of ASCII letters, digits and `-`.
fn is_semver(version: &str) -> bool {
    let (rest, build) = match version.split_once('+') {
        Some((rest, build)) => (rest, Some(build)),
        None => (version, None),
    };
    let (core, pre) = match rest.split_once('-') {
        Some((core, pre)) => (core, Some(pre)),
        None => (rest, None),
    };
    let number = |part: &str| {
        !part.is_empty()
            && part.bytes().all(|b| b.is_ascii_digit())
            && (part == "0" || !part.starts_with('0'))
    };
    let identifiers = |text: &str| {
        text.split('.')
            .all(|id| !id.is_empty() && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-'))
    };
    let parts: Vec<&str> = core.split('.').collect();
    parts.len() == 3
        && parts.iter().all(|part| number(part))
        && pre.is_none_or(identifiers)
        && build.is_none_or(identifiers)
}

/// One minor's entry in api.toml.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MinorEntry {
    /// Set when the minor is deprecated: why, or what users should do. It
    /// goes into gates.json; `vergate check` and runtime resolution warn.
    #[serde(default)]
    pub deprecated: Option<String>,
    /// Spec files by name.
    #[serde(default)]
    pub files: BTreeMap<String, SpecFile>,
}

/// One spec file's digest and where it is published.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpecFile {
    /// The lowercase hex sha256 of the file's bytes.
    pub sha256: String,
    /// Where the file is published upstream.
    #[serde(default)]
    pub url: Option<String>,
}

/// An API's spec directory: its config and its minors.
#[derive(Clone, Debug)]
pub struct Api {
    /// `upstream-specs/<api>`.
    pub dir: PathBuf,
    pub config: ApiConfig,
    /// api.toml's minors, parsed.
    pub listed: BTreeMap<Version, MinorEntry>,
    /// api.toml's `dialect`, parsed.
    pub dialect: Dialect,
}

/// One minor whose spec directory is present.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PresentMinor {
    pub version: Version,
    pub dir: PathBuf,
}

impl Api {
    /// Reads `dir/api.toml`.
    pub fn open(dir: &Path) -> Result<Api> {
        let path = dir.join(API_TOML);
        let text = std::fs::read_to_string(&path)
            .map_err(|source| Error::io(&path, "reading the API description", source))?;
        let config: ApiConfig = toml::from_str(&text).map_err(|err| {
            let (line, column) = err
                .span()
                .map(|span| line_column(&text, span.start))
                .unwrap_or((0, 0));
            Error::Syntax {
                path: path.clone(),
                line,
                column,
                message: err.message().to_owned(),
                snippet: crate::error::snippet(&text, line, column),
            }
        })?;
        let config_error = |message: String| Error::Config {
            path: path.clone(),
            message,
        };
        if let Some(url) = &config.pkl_publish_url {
            let host = url.strip_prefix("https://").unwrap_or_default();
            if host.is_empty() || host.contains(['?', '#', ' ', '@']) {
                return Err(config_error(format!(
                    "pkl_publish_url {url:?}: give the HTTPS URL the Pkl packages are served from, e.g. \"https://pkg.example.com/k8s\""
                )));
            }
        }
        config.rust.check().map_err(config_error)?;
        for (definition, api_version) in &config.kinds {
            let (group, version) =
                vergate_core::gates::GroupVersionKind::split_api_version(api_version);
            if !crate::model::naming::is_api_version(version)
                || group.contains(['/', ' '])
                || api_version.starts_with('/')
            {
                return Err(config_error(format!(
                    "[kinds] {definition:?} = {api_version:?}: give the apiVersion the kind is served as, \
                     e.g. \"example.com/v1\" (or \"v1\" for the core group)"
                )));
            }
        }
        if config.spec_files.is_empty() {
            return Err(config_error(
                "`spec_files` is empty; name the spec file of each minor, e.g. [\"swagger.json\"]"
                    .into(),
            ));
        }
        let dialect: Dialect = match &config.dialect {
            Some(name) => name
                .parse()
                .map_err(|err| config_error(format!("{err}; say which kind of API this is")))?,
            None => Dialect::default(),
        };
        for table in FactTable::ALL {
            let Some(recorded) = config.facts.files(table) else {
                continue;
            };
            if !dialect.has_fact_tables() {
                return Err(config_error(format!(
                    "[facts.{}]: the {dialect} dialect reads no fact tables (only \"kubernetes\" does); remove it or set dialect",
                    table.key()
                )));
            }
            for (file, sha256) in &recorded.files {
                let plain = !file.is_empty()
                    && !file.starts_with('/')
                    && file
                        .split('/')
                        .all(|part| !part.is_empty() && part != "." && part != "..")
                    && !file.contains('\\');
                if !plain {
                    return Err(config_error(format!(
                        "[facts.{}.files] {file:?}: give a relative path inside {}/, without `..`",
                        table.key(),
                        table.dir_name()
                    )));
                }
                if sha256.len() != 64 || !sha256.bytes().all(|b| b.is_ascii_hexdigit()) {
                    return Err(config_error(format!(
                        "[facts.{}.files] {file:?}: sha256 must be 64 hex digits, found {sha256:?}",
                        table.key()
                    )));
                }
            }
        }
        let mut listed = BTreeMap::new();
        for (key, entry) in &config.minors {
            let version: Version = key
                .parse()
                .map_err(|err| config_error(format!("[minors.{key:?}]: {err}")))?;
            if listed.insert(version, entry.clone()).is_some() {
                return Err(config_error(format!(
                    "minor {version} is listed twice under [minors]"
                )));
            }
            for (file, spec) in &entry.files {
                if spec.sha256.len() != 64 || !spec.sha256.bytes().all(|b| b.is_ascii_hexdigit()) {
                    return Err(config_error(format!(
                        "[minors.{key:?}.files.{file:?}]: sha256 must be 64 hex digits, found {:?}",
                        spec.sha256
                    )));
                }
            }
        }
        Ok(Api {
            dir: dir.to_owned(),
            config,
            listed,
            dialect,
        })
    }

    /// The API's name.
    pub fn name(&self) -> &str {
        &self.config.name
    }

    /// Every recorded fact file: its table, its path beside api.toml, its
    /// path inside the table's directory, and its sha256.
    pub fn fact_files(&self) -> Vec<(FactTable, PathBuf, &str, &str)> {
        let mut found = Vec::new();
        for table in FactTable::ALL {
            if let Some(recorded) = self.config.facts.files(table) {
                for (file, sha256) in &recorded.files {
                    let path = self.dir.join(table.dir_name()).join(file);
                    found.push((table, path, file.as_str(), sha256.as_str()));
                }
            }
        }
        found
    }

    /// The `v<X.Y>` directories present, ascending. Two directories naming one
    /// minor (`v1.34` and `v1.34.0`) are an error; a directory that looks like
    /// a version (`v1.x`) but is not one is an error too.
    pub fn present_minors(&self) -> Result<Vec<PresentMinor>> {
        let entries = std::fs::read_dir(&self.dir)
            .map_err(|source| Error::io(&self.dir, "listing spec directories", source))?;
        let mut found: BTreeMap<Version, PathBuf> = BTreeMap::new();
        for entry in entries {
            let entry =
                entry.map_err(|source| Error::io(&self.dir, "listing spec directories", source))?;
            let name = entry.file_name().to_string_lossy().into_owned();
            if !is_version_dir(&name) || !entry.path().is_dir() {
                continue;
            }
            let version: Version = name.parse().map_err(|err| Error::Config {
                path: entry.path(),
                message: format!("{err}; name minor directories v<major>.<minor>, e.g. v1.34"),
            })?;
            if let Some(previous) = found.insert(version, entry.path()) {
                let (first, second) = order(previous, entry.path());
                return Err(Error::Config {
                    path: self.dir.clone(),
                    message: format!(
                        "{} and {} are the same minor {version}; keep one",
                        first.display(),
                        second.display()
                    ),
                });
            }
        }
        Ok(found
            .into_iter()
            .map(|(version, dir)| PresentMinor { version, dir })
            .collect())
    }

    /// The spec files of a present minor, sorted by name.
    pub fn spec_files(&self, minor: &PresentMinor) -> Result<Vec<PathBuf>> {
        let patterns = self
            .config
            .spec_files
            .iter()
            .map(|pattern| {
                glob::Pattern::new(pattern).map_err(|err| Error::Config {
                    path: self.dir.join(API_TOML),
                    message: format!("spec_files pattern {pattern:?}: {err}"),
                })
            })
            .collect::<Result<Vec<_>>>()?;
        let entries = std::fs::read_dir(&minor.dir)
            .map_err(|source| Error::io(&minor.dir, "listing spec files", source))?;
        let mut files = Vec::new();
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if entry.path().is_file() && patterns.iter().any(|pattern| pattern.matches(&name)) {
                files.push(entry.path());
            }
        }
        files.sort();
        if files.is_empty() {
            return Err(Error::Config {
                path: minor.dir.clone(),
                message: format!(
                    "no spec file matching {:?}; put the minor's spec here (or fix spec_files in api.toml)",
                    self.config.spec_files
                ),
            });
        }
        Ok(files)
    }

    /// Checks a spec file's bytes against its digest in api.toml.
    pub fn verify(&self, version: Version, path: &Path, bytes: &[u8]) -> Result<()> {
        let file_name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let actual = sha256_hex(bytes);
        let expected = self
            .listed
            .get(&version)
            .and_then(|entry| entry.files.get(&file_name));
        match expected {
            Some(spec) => check_digest(path, bytes, &spec.sha256),
            None => Err(Error::Config {
                path: path.to_owned(),
                message: format!(
                    "this spec file is not recorded in {}; add\n\n[minors.\"{version}\".files.\"{file_name}\"]\nsha256 = \"{actual}\"\n",
                    self.dir.join(API_TOML).display()
                ),
            }),
        }
    }
}

/// The lowercase hex sha256 of some bytes.
pub fn sha256_hex(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    digest.iter().map(|byte| format!("{byte:02x}")).collect()
}

/// Checks `bytes` (read from `path`) against the digest api.toml records
/// for them, `expected` (hex, either case).
pub fn check_digest(path: &Path, bytes: &[u8], expected: &str) -> Result<()> {
    let actual = sha256_hex(bytes);
    if actual.eq_ignore_ascii_case(expected) {
        return Ok(());
    }
    Err(Error::DigestMismatch {
        path: path.to_owned(),
        expected: expected.to_ascii_lowercase(),
        actual,
    })
}

fn order(a: PathBuf, b: PathBuf) -> (PathBuf, PathBuf) {
    if a <= b {
        (a, b)
    } else {
        (b, a)
    }
}

fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

/// Every API under `upstream-specs/` (directories holding an api.toml), by
/// name. One broken api.toml fails the whole list: to go on with the other
/// APIs, open each of [`api_dirs`] alone.
pub fn discover(specs_root: &Path) -> Result<Vec<Api>> {
    api_dirs(specs_root)?
        .iter()
        .map(|dir| Api::open(dir))
        .collect()
}

/// The directories under `upstream-specs/` that hold an api.toml, sorted,
/// without reading any of them. Hidden ones (`.docker.add-api/`, where
/// `add-api` stages a new API) are not APIs.
pub fn api_dirs(specs_root: &Path) -> Result<Vec<PathBuf>> {
    let entries = std::fs::read_dir(specs_root)
        .map_err(|source| Error::io(specs_root, "listing APIs", source))?;
    let mut dirs: Vec<PathBuf> = entries
        .flatten()
        .filter(|entry| !entry.file_name().to_string_lossy().starts_with('.'))
        .map(|entry| entry.path())
        .filter(|path| path.join(API_TOML).is_file())
        .collect();
    dirs.sort();
    Ok(dirs)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write_api(dir: &Path, toml: &str) {
        std::fs::write(dir.join(API_TOML), toml).unwrap();
    }

    const MINIMAL: &str = "name = \"t\"\npkl_package = \"t\"\nversion_field = \"tVersion\"\nspec_files = [\"spec.json\"]\n";

    #[test]
    fn minors_are_sorted_numerically_and_duplicates_refused() {
        let tmp = tempfile::tempdir().unwrap();
        write_api(tmp.path(), MINIMAL);
        for dir in ["v1.10", "v1.9", "vpcaccess", "annotations"] {
            std::fs::create_dir(tmp.path().join(dir)).unwrap();
        }
        let api = Api::open(tmp.path()).unwrap();
        let minors: Vec<String> = api
            .present_minors()
            .unwrap()
            .iter()
            .map(|m| m.version.to_string())
            .collect();
        assert_eq!(minors, ["1.9", "1.10"]);
        std::fs::create_dir(tmp.path().join("v1.9.0")).unwrap();
        let err = api.present_minors().unwrap_err().to_string();
        assert!(err.contains("are the same minor 1.9"), "{err}");
    }

    #[test]
    fn a_pkl_publish_url_must_be_https() {
        let tmp = tempfile::tempdir().unwrap();
        for (url, ok) in [
            ("https://pkg.example.com/k8s", true),
            ("http://pkg.example.com/k8s", false),
            ("https://", false),
            ("pkg.example.com", false),
        ] {
            write_api(
                tmp.path(),
                &format!("{MINIMAL}pkl_publish_url = \"{url}\"\n"),
            );
            let result = Api::open(tmp.path());
            assert_eq!(result.is_ok(), ok, "{url}");
            if let Err(err) = result {
                assert!(err.to_string().contains("pkl_publish_url"), "{err}");
            }
        }
    }

    #[test]
    fn a_published_crate_needs_license_and_repository() {
        let tmp = tempfile::tempdir().unwrap();
        write_api(tmp.path(), &format!("{MINIMAL}[rust]\npublish = true\n"));
        let err = Api::open(tmp.path()).unwrap_err().to_string();
        assert!(err.contains("needs license and repository"), "{err}");
    }

    /// `[rust]`'s values are checked where they are written: a version
    /// cargo would refuse, a package name crates.io would, a repository
    /// that is no URL, an empty license.
    #[test]
    fn the_rust_table_is_checked() {
        let tmp = tempfile::tempdir().unwrap();
        for (table, wanted) in [
            ("version = \"1.2\"", "[rust] version \"1.2\""),
            ("version = \"1.2.x\"", "[rust] version \"1.2.x\""),
            ("name = \"my crate\"", "[rust] name \"my crate\""),
            ("name = \"9lives\"", "[rust] name \"9lives\""),
            (
                "repository = \"github.com/x\"",
                "[rust] repository \"github.com/x\"",
            ),
            ("license = \" \"", "[rust] license"),
        ] {
            write_api(tmp.path(), &format!("{MINIMAL}[rust]\n{table}\n"));
            let err = Api::open(tmp.path()).unwrap_err().to_string();
            assert!(
                err.contains(wanted) && err.contains("api.toml"),
                "{table}: {err}"
            );
        }
        write_api(
            tmp.path(),
            &format!(
                "{MINIMAL}[rust]\nname = \"t-api_2\"\nversion = \"1.36.0-rc.1+build.5\"\n\
                 license = \"Apache-2.0 OR MIT\"\nrepository = \"https://github.com/o/t\"\n"
            ),
        );
        Api::open(tmp.path()).unwrap();
    }

    #[test]
    fn kinds_name_an_api_version() {
        let tmp = tempfile::tempdir().unwrap();
        for (api_version, ok) in [
            ("kubevirt.io/v1", true),
            ("v1", true),
            ("example.com/v2beta1", true),
            ("kubevirt.io", false),
            ("kubevirt.io/latest", false),
            ("/v1", false),
            ("a/b/v1", false),
        ] {
            write_api(
                tmp.path(),
                &format!("{MINIMAL}[kinds]\n\"v1.Widget\" = {api_version:?}\n"),
            );
            let result = Api::open(tmp.path());
            assert_eq!(result.is_ok(), ok, "{api_version}");
            if let Err(err) = result {
                let err = err.to_string();
                assert!(err.contains("api.toml") && err.contains("[kinds]"), "{err}");
            }
        }
    }

    #[test]
    fn a_bad_version_directory_is_named() {
        let tmp = tempfile::tempdir().unwrap();
        write_api(tmp.path(), MINIMAL);
        std::fs::create_dir(tmp.path().join("v1.x")).unwrap();
        let err = Api::open(tmp.path())
            .unwrap()
            .present_minors()
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("v1.x") && err.contains("\"x\" is not a number"),
            "{err}"
        );
    }

    #[test]
    fn toml_errors_have_line_and_column() {
        let tmp = tempfile::tempdir().unwrap();
        write_api(tmp.path(), "name = \"t\"\npkl_package = 3\n");
        let err = Api::open(tmp.path()).unwrap_err().to_string();
        assert!(err.contains("api.toml:2:15"), "{err}");
        write_api(tmp.path(), &format!("{MINIMAL}surprise = 1\n"));
        let err = Api::open(tmp.path()).unwrap_err().to_string();
        assert!(err.contains("unknown field `surprise`"), "{err}");
    }

    #[test]
    fn digests_are_verified() {
        let tmp = tempfile::tempdir().unwrap();
        let digest = sha256_hex(b"{}");
        write_api(
            tmp.path(),
            &format!("{MINIMAL}[minors.\"1.2\".files.\"spec.json\"]\nsha256 = \"{digest}\"\n"),
        );
        let api = Api::open(tmp.path()).unwrap();
        let v = Version::new(1, 2);
        api.verify(v, Path::new("v1.2/spec.json"), b"{}").unwrap();
        let err = api
            .verify(v, Path::new("v1.2/spec.json"), b"{ }")
            .unwrap_err()
            .to_string();
        assert!(
            err.contains(&digest) && err.contains(&sha256_hex(b"{ }")),
            "{err}"
        );
        let err = api
            .verify(Version::new(1, 3), Path::new("v1.3/spec.json"), b"{}")
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("[minors.\"1.3\".files.\"spec.json\"]"),
            "{err}"
        );
    }
}
