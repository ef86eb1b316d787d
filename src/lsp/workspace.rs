//! What a document is checked with: the settings of the nearest
//! `vergate.toml` above it (`crate::settings`), its modeline's target, and
//! a [`Validator`] built from them once and shared, with the CRDs of the
//! settings' `crds`, of the workspace's files on disk, and of the open
//! documents (an open document's text wins over its file's).
//!
//! Validators are cached by settings file and target; a change to a CRD
//! among the open documents, or to a `vergate.toml`, drops the cache and
//! every open document is checked again.
//!
//! The workspace scan is bounded: [`MAX_SCANNED_FILES`] files (YAML and
//! JSON, hidden and git-ignored ones left out, as `vergate check DIR`
//! leaves them out), each up to the document bound, and only the texts
//! that name a `CustomResourceDefinition` are kept.

use super::crd_descriptions::CrdDescriptions;
use super::descriptions::Descriptions;
use super::documents::{OpenDocuments, MAX_DOCUMENT_BYTES};
use crate::engine::{CheckOptions, CrdLoader, InputError, Validator};
use crate::settings::{self, Settings, SettingsError};
use crate::tables::GateTables;
use crate::Version;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The most files of the workspace looked at for CRDs.
pub const MAX_SCANNED_FILES: usize = 20_000;

/// The settings and validator of one document.
pub struct Context {
    pub validator: Arc<Validator>,
    /// The target hover, completion and fixes work in: the settings' or
    /// modeline's, else the newest minor of the tables.
    pub target: Version,
    /// What is wrong with the settings or the modeline, said at the
    /// document's first line (a modeline error stops the check, as in
    /// `check`).
    pub problems: Vec<Problem>,
    /// False when the document is not to be checked (its modeline does
    /// not read).
    pub check: bool,
    /// Where hover finds descriptions: the generated tree of the tables.
    pub descriptions: Arc<Descriptions>,
    /// The CRD texts the validator was built with, for their descriptions.
    pub crds: Arc<CrdDescriptions>,
}

/// A problem with what a document is checked with.
#[derive(Clone, Debug)]
pub struct Problem {
    /// 1-based line in the document (1 for the settings file's problems).
    pub line: u32,
    pub message: String,
}

/// The workspace's folders, settings, CRDs and validators.
#[derive(Default)]
pub struct Workspace {
    folders: Vec<PathBuf>,
    /// CRD texts found on disk, by path; `None` until first asked for.
    disk_crds: Option<Vec<(PathBuf, String)>>,
    settings: HashMap<PathBuf, Result<Option<Arc<Settings>>, SettingsError>>,
    validators: HashMap<(Option<PathBuf>, Option<Version>), Built>,
    /// The newest minor of the embedded index, once a validator without a
    /// target was built.
    newest: Option<Option<Version>>,
    /// The descriptions of each generated tree (`None`: the embedded
    /// index), kept when validators are rebuilt for a CRD's edit.
    descriptions: HashMap<Option<PathBuf>, Arc<Descriptions>>,
}

struct Built {
    validator: Arc<Validator>,
    problems: Vec<Problem>,
    descriptions: Arc<Descriptions>,
    crds: Arc<CrdDescriptions>,
}

/// The file a `file://` URI names.
pub fn file_path(uri: &str) -> Option<PathBuf> {
    let rest = uri.strip_prefix("file://")?;
    let path = rest.get(rest.find('/')?..)?;
    let mut bytes = Vec::with_capacity(path.len());
    let raw = path.as_bytes();
    let mut at = 0;
    while at < raw.len() {
        let hex = raw
            .get(at + 1..at + 3)
            .and_then(|hex| std::str::from_utf8(hex).ok());
        if let Some(byte) = hex
            .filter(|_| raw[at] == b'%')
            .and_then(|hex| u8::from_str_radix(hex, 16).ok())
        {
            bytes.push(byte);
            at += 3;
            continue;
        }
        bytes.push(raw[at]);
        at += 1;
    }
    Some(PathBuf::from(String::from_utf8(bytes).ok()?))
}

/// True when a text names the CRD kind (what a CRD scan looks for first).
pub fn mentions_crd(text: &str) -> bool {
    memchr::memmem::find(text.as_bytes(), b"CustomResourceDefinition").is_some()
}

impl Workspace {
    /// A workspace of `folders` (none: only open documents are seen).
    pub fn new(folders: Vec<PathBuf>) -> Workspace {
        Workspace {
            folders,
            ..Workspace::default()
        }
    }

    /// Forgets every settings file and validator (a CRD or a settings
    /// file changed); the next check builds them anew.
    pub fn invalidate(&mut self, settings_too: bool) {
        self.validators.clear();
        if settings_too {
            self.settings.clear();
            self.disk_crds = None;
            self.descriptions.clear();
        }
    }

    fn settings_for(&mut self, dir: &Path) -> Result<Option<Arc<Settings>>, SettingsError> {
        self.settings
            .entry(dir.to_owned())
            .or_insert_with(|| Settings::discover(dir).map(|found| found.map(Arc::new)))
            .clone()
    }

    /// The context of the document `uri` whose text is `text`.
    pub fn context(&mut self, uri: &str, text: &str, open: &OpenDocuments) -> Context {
        let path = file_path(uri);
        let mut problems = Vec::new();
        let settings = match path.as_deref().and_then(Path::parent) {
            Some(dir) => match self.settings_for(dir) {
                Ok(found) => found,
                Err(err) => {
                    problems.push(Problem {
                        line: 1,
                        message: format!("{err}; checked without it"),
                    });
                    None
                }
            },
            None => None,
        };
        let config = settings
            .as_deref()
            .map(Settings::check_config)
            .unwrap_or_default();
        let mut check = true;
        let target = match settings::modeline_target(text) {
            Some(Ok(minor)) => Some(minor),
            Some(Err(err)) => {
                problems.push(Problem {
                    line: err.line,
                    message: format!("{}; the file is not checked until it reads", err.message),
                });
                check = false;
                config.target
            }
            None => config.target,
        };
        // Without a target, a Kubernetes document cannot be checked (`check`
        // asks for --target): the editor checks against the newest minor
        // of the embedded index. Another API's documents carry their own.
        let newest = target.is_none() && config.api.is_none();
        let target = match (newest, self.newest) {
            (true, Some(minor)) => minor,
            _ => target,
        };
        let file = settings.as_ref().map(|s| s.file.clone());
        let mut key = (file.clone(), target);
        if !self.validators.contains_key(&key) || (newest && self.newest.is_none()) {
            let (built, resolved) = self.build(&config, target, newest, open);
            if newest {
                self.newest = Some(resolved);
            }
            key = (file, resolved);
            self.validators.insert(key.clone(), built);
        }
        let target = key.1;
        let built = &self.validators[&key];
        problems.extend(built.problems.iter().cloned());
        let tables = built.validator.tables();
        let target = target
            .filter(|minor| tables.has_version(*minor))
            .or_else(|| tables.versions().last().copied())
            .unwrap_or_default();
        Context {
            validator: Arc::clone(&built.validator),
            target,
            problems,
            check,
            descriptions: Arc::clone(&built.descriptions),
            crds: Arc::clone(&built.crds),
        }
    }

    /// The validator of `config` at `target` (or, when `newest`, at the
    /// newest minor of its tables), and the target it has.
    fn build(
        &mut self,
        config: &settings::CheckConfig,
        target: Option<Version>,
        newest: bool,
        open: &OpenDocuments,
    ) -> (Built, Option<Version>) {
        let mut problems = Vec::new();
        let mut tree = config.api.clone();
        let tables = match &config.api {
            Some(api) => match GateTables::load(api) {
                Ok(tables) => tables,
                Err(err) => {
                    tree = None;
                    problems.push(Problem {
                        line: 1,
                        message: format!("vergate.toml: api: {err}; the embedded Kubernetes index is used instead"),
                    });
                    crate::embedded::kubernetes()
                }
            },
            None => crate::embedded::kubernetes(),
        };
        let target = match target {
            None if newest => tables.versions().last().copied(),
            Some(minor) if !tables.has_version(minor) => {
                problems.push(Problem {
                    line: 1,
                    message: format!(
                        "target {minor}: {} has no minor {minor} (its minors: {}); each document is checked against its own",
                        tables.api(),
                        tables.versions_text()
                    ),
                });
                None
            }
            other => other,
        };
        let validator = Validator::new(tables).target(target).options(CheckOptions {
            feature_gates: config.gates(),
            rules: config.rules.clone(),
            ..CheckOptions::default()
        });
        // The CRD texts: the settings' files, then the workspace's and the
        // open documents' (an open one over its file on disk).
        let mut given: Vec<(String, PathBuf, String)> = Vec::new();
        match settings::crd_files(&config.crds) {
            Ok(files) => {
                for file in files {
                    match read_bounded(&file) {
                        Ok(text) => given.push((file.display().to_string(), file, text)),
                        Err(message) => problems.push(Problem {
                            line: 1,
                            message: format!("vergate.toml: crds: {}: {message}", file.display()),
                        }),
                    }
                }
            }
            Err(message) => problems.push(Problem {
                line: 1,
                message: format!("vergate.toml: crds: {message}"),
            }),
        }
        let open_crds: Vec<(String, PathBuf, String)> = open
            .iter()
            .filter_map(|(uri, _)| {
                let (text, _) = open.text(uri)?;
                mentions_crd(text).then(|| {
                    let path = file_path(uri).unwrap_or_else(|| PathBuf::from(uri));
                    (name_of(uri), path, text.to_owned())
                })
            })
            .collect();
        let open_paths: Vec<&PathBuf> = open_crds.iter().map(|(_, path, _)| path).collect();
        let given_paths: Vec<&PathBuf> = given.iter().map(|(_, path, _)| path).collect();
        let disk: Vec<(String, PathBuf, String)> = self
            .disk_crds()
            .iter()
            .filter(|(path, _)| !open_paths.contains(&path) && !given_paths.contains(&path))
            .map(|(path, text)| (path.display().to_string(), path.clone(), text.clone()))
            .collect();
        let inputs: Vec<(String, PathBuf, String)> = open_crds.into_iter().chain(disk).collect();
        let parts: Vec<Vec<crate::document::Part<'_>>> = inputs
            .iter()
            .map(|(_, _, text)| crate::document::split(text))
            .collect();
        let mut loader = CrdLoader::new();
        for (name, path, text) in &given {
            loader.given(name, path, text, true);
        }
        for ((name, path, text), parts) in inputs.iter().zip(&parts) {
            loader.input(name, path, text, parts);
        }
        let (validator, report) = validator.with_crd_loader(loader);
        problems.extend(report.errors.iter().map(|error: &InputError| Problem {
            line: 1,
            message: format!("vergate.toml: crds: {}: {}", error.file, error.message),
        }));
        let descriptions = self
            .descriptions
            .entry(tree.clone())
            .or_insert_with(|| {
                Arc::new(match &tree {
                    Some(dir) => Descriptions::tree(dir),
                    None => Descriptions::embedded(),
                })
            })
            .clone();
        drop(parts);
        let texts = given
            .into_iter()
            .chain(inputs)
            .map(|(_, _, text)| text)
            .collect();
        let built = Built {
            validator: Arc::new(validator),
            problems,
            descriptions,
            crds: Arc::new(CrdDescriptions::new(texts)),
        };
        (built, target)
    }

    /// The CRD texts of the workspace's files on disk, scanned once.
    fn disk_crds(&mut self) -> &[(PathBuf, String)] {
        let folders = &self.folders;
        self.disk_crds.get_or_insert_with(|| scan(folders))
    }
}

/// The name a document goes by in messages (and the CRD loader): its path,
/// or its URI when it is not a file.
pub fn name_of(uri: &str) -> String {
    file_path(uri).map_or_else(|| uri.to_owned(), |path| path.display().to_string())
}

fn read_bounded(path: &Path) -> Result<String, String> {
    use std::io::Read;
    let file = std::fs::File::open(path).map_err(|err| err.to_string())?;
    let mut bytes = Vec::new();
    file.take(MAX_DOCUMENT_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|err| err.to_string())?;
    if bytes.len() > MAX_DOCUMENT_BYTES {
        return Err(format!("larger than {} MiB", MAX_DOCUMENT_BYTES >> 20));
    }
    String::from_utf8(bytes).map_err(|_| "not UTF-8".to_owned())
}

/// The texts naming a CRD among the folders' YAML and JSON files.
fn scan(folders: &[PathBuf]) -> Vec<(PathBuf, String)> {
    let mut found = Vec::new();
    let mut seen = 0;
    for folder in folders {
        for entry in ignore::WalkBuilder::new(folder).build().flatten() {
            if seen >= MAX_SCANNED_FILES {
                return found;
            }
            let path = entry.path();
            let yaml_or_json = path
                .extension()
                .and_then(|ext| ext.to_str())
                .is_some_and(|ext| matches!(ext, "yaml" | "yml" | "json"));
            if !yaml_or_json || !entry.file_type().is_some_and(|kind| kind.is_file()) {
                continue;
            }
            seen += 1;
            if let Ok(text) = read_bounded(path) {
                if mentions_crd(&text) {
                    found.push((path.to_owned(), text));
                }
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn uri(path: &Path) -> String {
        format!("file://{}", path.display())
    }

    fn v(minor: u32) -> Version {
        Version::new(1, minor)
    }

    const WIDGET: &str = "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\nspec:\n  name: w\n  tier: huge\n";

    #[test]
    fn settings_then_modeline_then_the_newest_minor() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("a.yaml");
        let open = OpenDocuments::default();
        let mut workspace = Workspace::new(Vec::new());
        let newest = crate::embedded::kubernetes()
            .versions()
            .last()
            .copied()
            .unwrap();
        let context = workspace.context(&uri(&file), "kind: x\n", &open);
        assert_eq!((context.target, context.problems.len()), (newest, 0));
        std::fs::write(dir.path().join("vergate.toml"), "target = \"1.29\"\n").unwrap();
        workspace.invalidate(true);
        assert_eq!(
            workspace.context(&uri(&file), "kind: x\n", &open).target,
            v(29)
        );
        let modeline = "# vergate: target=1.31\nkind: x\n";
        assert_eq!(
            workspace.context(&uri(&file), modeline, &open).target,
            v(31)
        );
        // A modeline that does not read stops the check.
        let context = workspace.context(&uri(&file), "# vergate: target=banana\n", &open);
        assert!(!context.check);
        assert_eq!(context.problems[0].line, 1);
        // A broken settings file: one problem, checked without it.
        std::fs::write(
            dir.path().join("vergate.toml"),
            "target = \"1.29\"\ntarget = 3\n",
        )
        .unwrap();
        workspace.invalidate(true);
        let context = workspace.context(&uri(&file), "kind: x\n", &open);
        assert_eq!(context.problems.len(), 1, "{:?}", context.problems);
        assert!(
            context.problems[0].message.contains("vergate.toml:2:"),
            "{:?}",
            context.problems
        );
        assert!(context.check);
    }

    #[test]
    fn crds_from_open_documents_and_the_workspace_on_disk() {
        let dir = tempfile::tempdir().unwrap();
        // Without the fixture's look-ahead pattern, for which the API
        // server refuses the CRD (and so serves no Widget).
        let crd = std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/custom-resources/widgets-crd.yaml"),
        )
        .unwrap()
        .replace("^(?!kube-).*$", "^[a-z-]*$");
        let widget = uri(&dir.path().join("w.yaml"));
        let mut open = OpenDocuments::default();
        let mut workspace = Workspace::new(vec![dir.path().to_owned()]);
        let rules = |workspace: &mut Workspace, open: &OpenDocuments| -> Vec<&'static str> {
            let context = workspace.context(&widget, WIDGET, open);
            let report = context.validator.check_text("w.yaml", WIDGET);
            report
                .findings
                .iter()
                .map(|f| f.violation.rule.id())
                .collect()
        };
        assert_eq!(rules(&mut workspace, &open), ["unknown-kind"]);
        // Open: its CRD is used.
        open.open(
            &uri(&dir.path().join("crd.yaml")),
            "yaml".into(),
            1,
            crd.clone(),
        );
        workspace.invalidate(false);
        assert!(rules(&mut workspace, &open).contains(&"value-not-available"));
        // Closed, but on disk in the workspace: used too.
        open.close(&uri(&dir.path().join("crd.yaml")));
        std::fs::write(dir.path().join("crd.yaml"), &crd).unwrap();
        workspace.invalidate(true);
        let found = rules(&mut workspace, &open);
        assert!(found.contains(&"value-not-available") && !found.contains(&"unknown-kind"));
    }

    #[test]
    fn file_uris_become_paths() {
        assert_eq!(
            file_path("file:///a/b%20c.yaml"),
            Some(PathBuf::from("/a/b c.yaml"))
        );
        assert_eq!(file_path("file://host/x"), Some(PathBuf::from("/x")));
        assert_eq!(file_path("untitled:Untitled-1"), None);
        assert_eq!(
            file_path("file:///bad%zz%"),
            Some(PathBuf::from("/bad%zz%"))
        );
    }
}
