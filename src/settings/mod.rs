//! `vergate.toml`: one settings file for `vergate check` and `vergate lsp`.
//!
//! The nearest `vergate.toml` at or above a file's directory holds the
//! settings of that file ([`Settings::discover`]):
//!
//! ```toml
//! target = "1.31"                        # the minor to check against
//! crds = ["crds/", "vendor/cert-manager.crds.yaml"]
//! api = "generated/demo"                 # another API's gate tables
//! rules = { removed-ahead = "error", deprecated = "off" }
//! feature_gates = { ServiceTrafficDistribution = true }
//! ```
//!
//! Paths are relative to the directory holding the file. Every mistake
//! (TOML syntax, an unknown key, a rule id, a level, a value of the wrong
//! type, a path that does not exist) is a [`SettingsError`] at its line and
//! column, saying the fix; unknown names get a "did you mean".
//!
//! [`Settings::check_config`] turns the settings into what a check needs, so
//! the CLI (with its flags on top, [`CheckConfig::overlay`]) and the language
//! server build the same check from the same file. A file can set its own
//! target with a modeline ([`modeline_target`]).

mod modeline;
mod parse;

pub use modeline::{modeline, modeline_target, Modeline, ModelineError, MODELINE_LINES};

use crate::preflight::{FeatureGates, Rule, Severity};
use crate::Version;
use std::collections::BTreeMap;
use std::fmt;
use std::io::Read;
use std::path::{Path, PathBuf};

/// The settings file's name.
pub const FILE_NAME: &str = "vergate.toml";

/// The largest `vergate.toml` read (1 MiB): settings are a few lines, and a
/// larger file is a mistake, refused before it is read into memory.
pub const MAX_LEN: u64 = 1 << 20;

/// A rule's level in `rules = { … }`, as `--rule RULE=LEVEL` takes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RuleLevel {
    Error,
    Warning,
    /// The rule's findings are dropped.
    Off,
}

impl RuleLevel {
    /// The severity findings of the rule get; `None` drops them.
    pub fn severity(self) -> Option<Severity> {
        match self {
            RuleLevel::Error => Some(Severity::Error),
            RuleLevel::Warning => Some(Severity::Warning),
            RuleLevel::Off => None,
        }
    }
}

/// One `vergate.toml`, read and checked.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Settings {
    /// `target`: the minor to check against.
    pub target: Option<Version>,
    /// `crds`: CRD files or directories, relative to [`Settings::root`].
    pub crds: Vec<PathBuf>,
    /// `rules`: rule id → level; every id is one of [`Rule::ALL`].
    pub rules: BTreeMap<String, RuleLevel>,
    /// `feature_gates`: gate name → on or off.
    pub feature_gates: BTreeMap<String, bool>,
    /// `api`: a generated API directory (or its gates.json), relative to
    /// [`Settings::root`]; `None` is the embedded Kubernetes index.
    pub api: Option<PathBuf>,
    /// The directory holding the file.
    pub root: PathBuf,
    /// The file itself.
    pub file: PathBuf,
    /// Where `target` is written (line, column), for an error found later
    /// (a minor the API does not have).
    pub target_at: Option<(u32, u32)>,
}

/// A mistake in a `vergate.toml`: where, and what to write instead.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SettingsError {
    pub file: PathBuf,
    /// 1-based.
    pub line: u32,
    /// 1-based, in characters.
    pub column: u32,
    pub message: String,
}

impl fmt::Display for SettingsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: {}",
            self.file.display(),
            self.line,
            self.column,
            self.message
        )
    }
}

impl std::error::Error for SettingsError {}

impl Settings {
    /// The nearest `vergate.toml` at or above `dir` (made absolute first),
    /// read and checked; `Ok(None)` when there is none up to the root.
    pub fn discover(dir: &Path) -> Result<Option<Settings>, SettingsError> {
        let dir = std::path::absolute(dir).unwrap_or_else(|_| dir.to_owned());
        for ancestor in dir.ancestors() {
            let candidate = ancestor.join(FILE_NAME);
            if candidate.exists() {
                return Settings::load(&candidate).map(Some);
            }
        }
        Ok(None)
    }

    /// Reads and checks the settings file at `path` (`--config PATH`).
    pub fn load(path: &Path) -> Result<Settings, SettingsError> {
        let at_start = |message: String| SettingsError {
            file: path.to_owned(),
            line: 1,
            column: 1,
            message,
        };
        let file = std::fs::File::open(path)
            .map_err(|err| at_start(format!("cannot read the settings: {err}")))?;
        let mut bytes = Vec::new();
        file.take(MAX_LEN + 1)
            .read_to_end(&mut bytes)
            .map_err(|err| at_start(format!("cannot read the settings: {err}")))?;
        if bytes.len() as u64 > MAX_LEN {
            return Err(at_start(format!(
                "larger than {} KiB: settings are a few lines; is this the right file?",
                MAX_LEN >> 10
            )));
        }
        let text = String::from_utf8(bytes)
            .map_err(|_| at_start("not UTF-8: TOML files are UTF-8".to_owned()))?;
        Settings::parse(path, &text)
    }

    /// Checks the text of a settings file at `path` (its directory is the
    /// root its paths are relative to); the first mistake in the file.
    pub fn parse(path: &Path, text: &str) -> Result<Settings, SettingsError> {
        Settings::parse_all(path, text).map_err(|mut errors| errors.swap_remove(0))
    }

    /// [`Settings::parse`], with every mistake in the file in file order (an
    /// editor shows them all); never an empty list.
    pub fn parse_all(path: &Path, text: &str) -> Result<Settings, Vec<SettingsError>> {
        parse::parse(path, text)
    }

    /// What a check needs from these settings: paths made absolute, rule ids
    /// made rules, gates made [`FeatureGates`].
    pub fn check_config(&self) -> CheckConfig {
        let rules = self
            .rules
            .iter()
            .filter_map(|(id, level)| Some((rule(id)?, level.severity())))
            .collect();
        CheckConfig {
            target: self.target,
            crds: self.crds.iter().map(|crd| self.root.join(crd)).collect(),
            rules,
            feature_gates: self.feature_gates.clone(),
            api: self.api.as_ref().map(|api| self.root.join(api)),
        }
    }

    /// The error to give when the API's gate tables have no minor `target`
    /// (their minors are `minors`), at the line of `target`.
    pub fn unknown_target(&self, api: &str, minors: &str) -> Option<SettingsError> {
        let target = self.target?;
        let (line, column) = self.target_at.unwrap_or((1, 1));
        Some(SettingsError {
            file: self.file.clone(),
            line,
            column,
            message: format!(
                "target {target}: {api} has no minor {target} (its minors: {minors}); write one of them"
            ),
        })
    }
}

/// The rule whose id is `id`.
pub fn rule(id: &str) -> Option<Rule> {
    Rule::ALL.iter().copied().find(|rule| rule.id() == id)
}

/// What a check is run with, from a settings file, the command line, or
/// both (the command line over the file: [`CheckConfig::overlay`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CheckConfig {
    /// The minor to check against; `None`: each document's own.
    pub target: Option<Version>,
    /// CRD files and directories.
    pub crds: Vec<PathBuf>,
    /// Rule severity overrides, in order: a later one for the same rule
    /// wins (`None` drops the rule's findings).
    pub rules: Vec<(Rule, Option<Severity>)>,
    /// Feature gates set on or off.
    pub feature_gates: BTreeMap<String, bool>,
    /// The generated API directory; `None`: the embedded Kubernetes index.
    pub api: Option<PathBuf>,
}

impl CheckConfig {
    /// `flags` over `self`: a target or API given replaces the file's; rules
    /// and gates given win over the file's for the same rule or gate, the
    /// file's others stay; CRDs given are added to the file's.
    pub fn overlay(mut self, flags: CheckConfig) -> CheckConfig {
        self.target = flags.target.or(self.target);
        self.api = flags.api.or(self.api);
        self.crds.extend(flags.crds);
        self.rules.extend(flags.rules);
        self.feature_gates.extend(flags.feature_gates);
        self
    }

    /// The feature gates as preflight takes them.
    pub fn gates(&self) -> FeatureGates {
        let mut gates = FeatureGates::default();
        for (name, enabled) in &self.feature_gates {
            gates.set(name.clone(), *enabled);
        }
        gates
    }
}

/// The line and column (1-based, the column in characters) of byte
/// `offset` in `text`.
pub(crate) fn line_column(text: &str, offset: usize) -> (u32, u32) {
    let offset = offset.min(text.len());
    let offset = (0..=offset)
        .rev()
        .find(|at| text.is_char_boundary(*at))
        .unwrap_or(0);
    let before = &text[..offset];
    let line = before.bytes().filter(|byte| *byte == b'\n').count() + 1;
    let start = before.rfind('\n').map_or(0, |at| at + 1);
    let column = before[start..].chars().count() + 1;
    (
        u32::try_from(line).unwrap_or(u32::MAX),
        u32::try_from(column).unwrap_or(u32::MAX),
    )
}

/// The candidate closest to `name` (at most two edits, or a case
/// difference), for a "did you mean".
pub(crate) fn closest<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let folded = |text: &str| text.to_ascii_lowercase().replace('_', "-");
    candidates
        .into_iter()
        .map(|candidate| {
            let distance = if folded(candidate) == folded(name) {
                0
            } else {
                strsim::damerau_levenshtein(name, candidate)
            };
            (distance, candidate)
        })
        .filter(|(distance, _)| *distance <= 2)
        .min()
        .map(|(_, candidate)| candidate)
}

/// Expands CRD paths (files, or directories searched for `*.yaml`, `*.yml`
/// and `*.json`, hidden entries skipped) into files, sorted; at most
/// [`MAX_CRD_FILES`] files and [`MAX_DEPTH`] directories deep, so a
/// settings file naming `/` cannot walk the disk. For a front end without
/// the CLI's walker (the language server).
pub fn crd_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            walk(path, 0, &mut files)?;
        } else {
            files.push(path.clone());
        }
    }
    files.sort();
    files.dedup();
    Ok(files)
}

/// The most CRD files [`crd_files`] gives.
pub const MAX_CRD_FILES: usize = 10_000;
/// How deep [`crd_files`] walks.
pub const MAX_DEPTH: usize = 32;

fn walk(dir: &Path, depth: usize, files: &mut Vec<PathBuf>) -> Result<(), String> {
    if depth > MAX_DEPTH {
        return Err(format!(
            "{}: more than {MAX_DEPTH} directories deep; name the CRDs' directory",
            dir.display()
        ));
    }
    let entries = std::fs::read_dir(dir).map_err(|err| format!("{}: {err}", dir.display()))?;
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name.starts_with('.') {
            continue;
        }
        let path = entry.path();
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        if kind.is_dir() {
            walk(&path, depth + 1, files)?;
        } else if [".yaml", ".yml", ".json"]
            .iter()
            .any(|ext| name.to_ascii_lowercase().ends_with(ext))
        {
            if files.len() == MAX_CRD_FILES {
                return Err(format!(
                    "{}: more than {MAX_CRD_FILES} files; name the CRDs' directory",
                    dir.display()
                ));
            }
            files.push(path);
        }
    }
    Ok(())
}
