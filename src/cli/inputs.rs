//! Turning command-line inputs (files, directories, `-`) into texts to read.
//!
//! Directories are walked with the `ignore` crate (ripgrep's walker): it
//! skips hidden entries and what `.gitignore` lists, follows symbolic links
//! and detects loops. Every file is read once however many ways lead to it;
//! `check` reads all of its inputs before it checks any (the CRDs among
//! them are needed first), so its memory holds every input's text.

use super::read;
pub use super::read::{ReadError, Text};
use std::collections::HashSet;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use vergate::document::Encoding;

/// How directories are walked.
#[derive(Clone, Debug, Default)]
pub struct WalkOptions {
    /// Also enter hidden directories and read hidden files.
    pub hidden: bool,
    /// Do not skip what `.gitignore` (and `.ignore`) files list.
    pub no_ignore: bool,
    /// Globs (gitignore syntax, relative to each walked directory) whose
    /// files and directories are left out of the walk (`--ignore`).
    pub ignore: Vec<String>,
}

/// Something to read: a file, standard input, or a walk error to report.
pub struct Source {
    /// The name shown in messages.
    pub name: String,
    /// True when the file was found by walking a directory, not named.
    pub walked: bool,
    /// Where `upgrade --out DIR` writes it below DIR: its path relative to
    /// the directory walked, or its file name when named; `None` for
    /// standard input and walk errors.
    pub relative: Option<PathBuf>,
    kind: Kind,
}

enum Kind {
    File(PathBuf),
    /// Standard input, read once: the CRDs among the inputs and the check
    /// both see its text.
    Stdin(OnceLock<Result<(String, Encoding), ReadError>>),
    Failed(String),
}

impl Source {
    /// The file read, unless it is standard input or a walk error.
    pub fn path(&self) -> Option<&Path> {
        match &self.kind {
            Kind::File(path) => Some(path),
            Kind::Stdin(_) | Kind::Failed(_) => None,
        }
    }

    /// True for standard input.
    pub fn is_stdin(&self) -> bool {
        matches!(self.kind, Kind::Stdin(_))
    }

    /// The text of the source, decoded (see [`document::decode`]). Standard
    /// input is read on the first call; later calls give the same text.
    pub fn read(&self) -> Result<Text, ReadError> {
        match &self.kind {
            Kind::Failed(message) => Err(ReadError::whole(message.clone())),
            Kind::File(path) => read::file(path),
            Kind::Stdin(text) => text
                .get_or_init(|| read::stream(std::io::stdin().lock(), "standard input"))
                .clone()
                .map(|(text, encoding)| Text::owned(text, encoding)),
        }
    }

    /// True when the file lies in a Helm chart's `templates/` directory (a
    /// `templates` directory beside a `Chart.yaml`), where files are Go
    /// templates to render, not manifests.
    pub fn in_chart_templates(&self) -> bool {
        let Kind::File(path) = &self.kind else {
            return false;
        };
        path.ancestors().skip(1).any(|dir| {
            dir.file_name().is_some_and(|name| name == "templates")
                && dir
                    .parent()
                    .is_some_and(|chart| chart.join("Chart.yaml").is_file())
        })
    }
}

/// Standard input, or why it cannot be used: with no path given it is read
/// only when something is piped in; `-` on a terminal gets a hint.
pub fn stdin_source(explicit: bool) -> Result<Source, String> {
    let terminal = std::io::stdin().is_terminal();
    if terminal && !explicit {
        return Err("no input: name files or directories, or pipe documents in (`cat x.yaml | vergate check …`)".into());
    }
    if terminal {
        eprintln!("reading documents from standard input (the terminal); end with Ctrl-D, or name files instead of `-`");
    }
    Ok(Source {
        name: "<stdin>".into(),
        walked: false,
        relative: None,
        kind: Kind::Stdin(OnceLock::new()),
    })
}

/// Expands `paths` in order: a directory gives its `*.yaml`, `*.yml` and
/// `*.json` files (any case; recursively, sorted), `-` gives standard input.
/// A file reached twice (named twice, or through a link) comes once.
/// `options.ignore` leaves walked paths out; a file named is always read.
/// Problems of the walk that lose no file (a link loop) are returned as notes.
pub fn sources(paths: &[PathBuf], options: &WalkOptions) -> (Vec<Source>, Vec<String>) {
    let mut sources = Vec::new();
    let mut notes = Vec::new();
    let mut seen = HashSet::new();
    let mut add = |path: PathBuf, walked_from: Option<&Path>, sources: &mut Vec<Source>| {
        let key = std::fs::canonicalize(&path).unwrap_or_else(|_| path.clone());
        if seen.insert(key) {
            let relative = match walked_from {
                Some(dir) => path.strip_prefix(dir).ok().map(Path::to_owned),
                None => path.file_name().map(PathBuf::from),
            };
            sources.push(Source {
                name: path.display().to_string(),
                walked: walked_from.is_some(),
                relative,
                kind: Kind::File(path),
            });
        }
    };
    for path in paths {
        if path.as_os_str() == "-" {
            match stdin_source(true) {
                Ok(source) => sources.push(source),
                Err(message) => sources.push(failed(path, message)),
            }
        } else if path.is_dir() {
            let mut files = Vec::new();
            for problem in walk(path, options, &mut files) {
                match problem {
                    WalkProblem::Loop(note) => notes.push(note),
                    WalkProblem::Error(at, message) => sources.push(failed(&at, message)),
                }
            }
            files.sort();
            for file in files {
                add(file, Some(path), &mut sources);
            }
        } else {
            add(path.clone(), None, &mut sources);
        }
    }
    (sources, notes)
}

fn failed(path: &Path, message: String) -> Source {
    Source {
        name: path.display().to_string(),
        walked: false,
        relative: None,
        kind: Kind::Failed(message),
    }
}

enum WalkProblem {
    /// A link loop: reported, nothing lost.
    Loop(String),
    /// A directory or file that could not be read.
    Error(PathBuf, String),
}

fn walk(dir: &Path, options: &WalkOptions, files: &mut Vec<PathBuf>) -> Vec<WalkProblem> {
    let respect_ignore = !options.no_ignore;
    let mut overrides = ignore::overrides::OverrideBuilder::new(dir);
    for glob in &options.ignore {
        if let Err(err) = overrides.add(&format!("!{glob}")) {
            return vec![WalkProblem::Error(
                dir.to_path_buf(),
                format!("--ignore {glob}: {err}"),
            )];
        }
    }
    let overrides = match overrides.build() {
        Ok(overrides) => overrides,
        Err(err) => return vec![WalkProblem::Error(dir.to_path_buf(), err.to_string())],
    };
    let walker = ignore::WalkBuilder::new(dir)
        .overrides(overrides)
        .hidden(!options.hidden)
        .git_ignore(respect_ignore)
        .git_exclude(respect_ignore)
        .ignore(respect_ignore)
        .parents(respect_ignore)
        .git_global(false)
        .require_git(false)
        .follow_links(true)
        .build();
    let mut problems = Vec::new();
    for entry in walker {
        match entry {
            Ok(entry) => {
                let is_file = entry.file_type().is_some_and(|kind| kind.is_file());
                if is_file && has_document_extension(entry.path()) {
                    files.push(entry.into_path());
                }
            }
            Err(err) => problems.push(walk_problem(dir, err)),
        }
    }
    problems
}

fn walk_problem(dir: &Path, err: ignore::Error) -> WalkProblem {
    let mut path = dir.to_path_buf();
    let mut err = &err;
    loop {
        match err {
            ignore::Error::WithPath {
                path: at,
                err: inner,
            } => {
                path = at.clone();
                err = inner;
            }
            ignore::Error::WithDepth { err: inner, .. }
            | ignore::Error::WithLineNumber { err: inner, .. } => err = inner,
            ignore::Error::Loop { ancestor, child } => {
                return WalkProblem::Loop(format!(
                    "{}: a symbolic link loop back to {}; not followed again",
                    child.display(),
                    ancestor.display()
                ))
            }
            other => return WalkProblem::Error(path, format!("cannot read: {other}")),
        }
    }
}

fn has_document_extension(path: &Path) -> bool {
    path.extension()
        .and_then(|ext| ext.to_str())
        .is_some_and(|ext| {
            ["yaml", "yml", "json"]
                .iter()
                .any(|known| ext.eq_ignore_ascii_case(known))
        })
}
