//! `vergate upgrade`: rewrite documents for a newer minor, or with `--all`
//! for every minor they hold in without loss.

use super::{inputs, known_minor, load_tables, write_bytes_out, Outcome, UpgradeArgs};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use vergate::document::{self, Encoding, Node};
use vergate::tables::GateTables;
use vergate::upgrade::edit;
use vergate::upgrade::{self, Conversion};
use vergate::Version;

pub fn run(args: &UpgradeArgs) -> Outcome {
    let tables = match load_tables(args.api.as_deref()) {
        Ok(tables) => tables,
        Err(outcome) => return outcome,
    };
    for (flag, version) in [("--from", args.from), ("--to", args.to)] {
        if let Some(version) = version {
            if let Err(outcome) = known_minor(&tables, flag, version) {
                return outcome;
            }
        }
    }
    if let (Some(from), Some(to)) = (args.from, args.to) {
        if to < from {
            eprintln!("error: refusing to convert {from} → {to}: upgrade never goes to an older minor (--all writes every minor the document holds in without loss)");
            return Outcome::InputError;
        }
    }
    let (sources, notes) = inputs::sources(&args.inputs, &inputs::WalkOptions::default());
    for note in notes {
        eprintln!("warning: {note}");
    }
    let destinations = match destinations(args, &sources) {
        Ok(destinations) => destinations,
        Err(message) => {
            eprintln!("error: {message}");
            return Outcome::InputError;
        }
    };
    // Every file is converted before anything is written: a refusal in
    // one file writes none.
    let mut converted: Vec<(String, &Destination, Encoding)> = Vec::new();
    let mut outcome = Outcome::Clean;
    let mut refused = 0;
    let mut unchanged = 0;
    for (source, destination) in sources.iter().zip(&destinations) {
        match upgrade_source(&tables, args, source) {
            Upgraded::Written(yaml, encoding, result) => {
                outcome = outcome.max(result);
                converted.push((yaml, destination, encoding));
            }
            Upgraded::Unchanged(text, encoding, result) => {
                outcome = outcome.max(result);
                unchanged += 1;
                // In place, a file with nothing to change is not touched.
                if !args.in_place {
                    converted.push((text, destination, encoding));
                }
            }
            Upgraded::Skipped(reason) => eprintln!("{}: note: skipped: {reason}", source.name),
            Upgraded::Refused => refused += 1,
        }
    }
    if refused > 0 {
        if sources.len() > 1 {
            eprintln!(
                "error: {refused} of {} files cannot be upgraded (above); nothing written",
                sources.len()
            );
        }
        return Outcome::InputError;
    }
    for (yaml, destination, encoding) in &converted {
        match destination {
            // Standard output gets the bytes a file would get.
            Destination::Stdout => {
                write_bytes_out(std::io::stdout().lock(), &encoding.encode(yaml))
            }
            Destination::File(path) => {
                if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
                    if let Err(err) = std::fs::create_dir_all(parent) {
                        eprintln!(
                            "{}: error: cannot create the directory: {err}",
                            parent.display()
                        );
                        return Outcome::InputError;
                    }
                }
                if let Err(err) = std::fs::write(path, encoding.encode(yaml)) {
                    eprintln!("{}: error: cannot write: {err}", path.display());
                    return Outcome::InputError;
                }
            }
        }
    }
    let total = converted.len() + if args.in_place { unchanged } else { 0 };
    if total > 1 || args.out.is_some() {
        let changed = total - unchanged;
        eprintln!(
            "upgraded {total} file{}{}{}",
            if total == 1 { "" } else { "s" },
            match &args.out {
                Some(dir) => format!(" into {}", dir.display()),
                None if args.in_place => " in place".to_owned(),
                None => String::new(),
            },
            match (unchanged, args.in_place) {
                (0, _) => String::new(),
                (_, true) =>
                    format!(" ({changed} changed, {unchanged} left untouched: nothing to change)"),
                (_, false) => format!(
                    " ({changed} changed, {unchanged} copied as they were: nothing to change)"
                ),
            }
        );
    }
    outcome
}

/// Where one converted input goes.
enum Destination {
    Stdout,
    File(PathBuf),
}

/// Where each source's result goes, or why the command refuses to run:
/// several inputs (or a directory) need `--out DIR` or `--in-place`;
/// standard input cannot be written in place or mirrored; `--out` never
/// overwrites an input, nor writes two inputs to one file.
fn destinations(
    args: &UpgradeArgs,
    sources: &[inputs::Source],
) -> Result<Vec<Destination>, String> {
    let directories: Vec<String> = args
        .inputs
        .iter()
        .filter(|path| path.is_dir())
        .map(|path| path.display().to_string())
        .collect();
    if sources.is_empty() {
        return Err(format!(
            "no YAML or JSON files found in {}; nothing to upgrade",
            directories.join(", ")
        ));
    }
    let many = sources.len() > 1 || !directories.is_empty();
    if many && args.out.is_none() && !args.in_place {
        let what = if directories.is_empty() {
            format!("{} files", sources.len())
        } else {
            format!(
                "{} ({} file{})",
                directories.join(", "),
                sources.len(),
                if sources.len() == 1 { "" } else { "s" }
            )
        };
        let flag = if args.output.is_some() {
            "-o FILE takes one input"
        } else {
            "standard output takes one input"
        };
        return Err(format!(
            "refusing to upgrade {what}: {flag}; pass --out DIR to write each file under DIR (mirroring its path) or --in-place to overwrite each"
        ));
    }
    let mut targets: Vec<Destination> = Vec::new();
    let mut written: HashMap<PathBuf, &str> = HashMap::new();
    for source in sources {
        let Some(path) = source.path() else {
            if args.out.is_some() || args.in_place {
                return Err(format!(
                    "{}: --out and --in-place need files, not standard input",
                    source.name
                ));
            }
            targets.push(Destination::Stdout);
            continue;
        };
        let target = if args.in_place {
            path.to_owned()
        } else if let Some(dir) = &args.out {
            dir.join(source.relative.as_deref().unwrap_or(path))
        } else if let Some(output) = &args.output {
            if same_file(output, path) {
                return Err(format!(
                    "{}: refusing to overwrite the input; pass --in-place to do that",
                    path.display()
                ));
            }
            output.clone()
        } else {
            targets.push(Destination::Stdout);
            continue;
        };
        if args.out.is_some() {
            if let Some(input) = sources
                .iter()
                .filter_map(inputs::Source::path)
                .find(|input| same_file(&target, input))
            {
                return Err(format!(
                    "--out {}: would overwrite the input {}; choose a directory outside the inputs, or pass --in-place",
                    args.out.as_deref().unwrap_or(Path::new("")).display(),
                    input.display()
                ));
            }
        }
        let key = std::fs::canonicalize(&target).unwrap_or_else(|_| target.clone());
        if let Some(other) = written.insert(key, &source.name) {
            return Err(format!(
                "{} and {} would both be written to {}; upgrade them in separate runs or name their directory instead",
                other,
                source.name,
                target.display()
            ));
        }
        targets.push(Destination::File(target));
    }
    Ok(targets)
}

/// True when both paths name the same existing file.
fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// What became of one input.
enum Upgraded {
    /// Its new text (without a byte order mark), to be stored as the input
    /// was (UTF-8 or UTF-16, with or without the mark), and whether
    /// something was lost (exit 1).
    Written(String, Encoding, Outcome),
    /// Nothing to change: its text as read, likewise (never rewritten in
    /// place).
    Unchanged(String, Encoding, Outcome),
    /// A walked file that is no manifest (a template, a values file).
    Skipped(&'static str),
    /// Refused or unreadable (reported on stderr).
    Refused,
}

/// Reads and converts one input; messages go to stderr as they come.
fn upgrade_source(tables: &GateTables, args: &UpgradeArgs, source: &inputs::Source) -> Upgraded {
    let text = match source.read() {
        Ok(text) => text,
        Err(err) => {
            match err.line {
                0 => eprintln!("{}: error: {}", source.name, err.message),
                line => eprintln!("{}:{line}: error: {}", source.name, err.message),
            }
            return Upgraded::Refused;
        }
    };
    if source.walked && super::check::is_template(source, &text) {
        return Upgraded::Skipped(super::check::TEMPLATE);
    }
    let parsed = document::parse(&text);
    if let Some(err) = &parsed.error {
        eprintln!("{}:{}: error: {}", source.name, err.line, err.message);
        return Upgraded::Refused;
    }
    if parsed.documents.is_empty() {
        eprintln!("{}: error: no document to upgrade", source.name);
        return Upgraded::Refused;
    }
    let is_manifest = |doc: &document::Document| {
        doc.root.get("apiVersion").is_some() && doc.root.get("kind").is_some()
    };
    if source.walked && !parsed.documents.iter().all(is_manifest) {
        return Upgraded::Skipped(super::check::NOT_A_MANIFEST);
    }
    let Some(to) = args.to.filter(|_| !args.all) else {
        return all_minors_of(tables, args, source, &text, &parsed.documents);
    };
    let mut intended: Vec<Node> = Vec::new();
    let mut outcome = Outcome::Clean;
    for doc in &parsed.documents {
        let result = one_minor(
            tables,
            &source.name,
            &doc.root,
            args.from,
            to,
            &mut intended,
        );
        outcome = outcome.max(result);
    }
    if outcome == Outcome::InputError {
        return Upgraded::Refused;
    }
    let targets = edit::targets(&parsed.documents, &intended);
    match edit::rewrite(&text, &targets) {
        Ok(Some(edited)) => Upgraded::Written(edited, text.encoding(), outcome),
        Ok(None) => Upgraded::Unchanged(text.to_string(), text.encoding(), outcome),
        Err(err) => {
            eprintln!("{}:{}: error: {}", source.name, err.line, err.message);
            Upgraded::Refused
        }
    }
}

/// `--all`: each document written for every minor it holds in without
/// loss, each copy its own text with only what that minor changes edited
/// (so its comments are kept); written anew from its values where it
/// cannot be edited in place (JSON, nodes shared through anchors), with a
/// note.
fn all_minors_of(
    tables: &GateTables,
    args: &UpgradeArgs,
    source: &inputs::Source,
    text: &inputs::Text,
    documents: &[document::Document],
) -> Upgraded {
    let own_texts = upgrade::copies::document_texts(text, documents.len());
    let mut yaml = String::new();
    let mut outcome = Outcome::Clean;
    for (at, doc) in documents.iter().enumerate() {
        let mut written: Vec<Node> = Vec::new();
        let result = all_minors(tables, &source.name, &doc.root, args.from, &mut written);
        outcome = outcome.max(result);
        let header = header_comments(text, doc.root.line);
        let own = own_texts.as_ref().map(|texts| texts[at]);
        for node in &written {
            match own.map(|own| upgrade::copies::edited(own, &doc.root, node)) {
                Some(Ok(copy)) => yaml.push_str(&edited_with_header(&copy, &header)),
                Some(Err(err)) => {
                    eprintln!(
                        "{}:{}: note: written anew, without the comments inside it: {}",
                        source.name, doc.root.line, err.message
                    );
                    yaml.push_str(&with_header(&upgrade::to_yaml(&[node]), &header));
                }
                None => yaml.push_str(&with_header(&upgrade::to_yaml(&[node]), &header)),
            }
        }
    }
    if outcome == Outcome::InputError {
        return Upgraded::Refused;
    }
    Upgraded::Written(yaml, text.encoding(), outcome)
}

/// The comment lines just above a document's first line (`first`,
/// 1-based), up to its `---` or the previous document's content: a
/// license header, `# Source: chart/templates/web.yaml` from `helm
/// template`, kept by `--all` (which writes each document anew, so
/// comments inside it are not kept).
fn header_comments(text: &str, first: u32) -> Vec<&str> {
    let lines: Vec<&str> = text
        .lines()
        .take(first.saturating_sub(1) as usize)
        .collect();
    let mut start = lines.len();
    while start > 0 {
        let line = lines[start - 1].trim();
        if line.starts_with('#') || line.is_empty() {
            start -= 1;
        } else {
            break;
        }
    }
    let block = &lines[start..];
    let first_comment = block.iter().position(|line| !line.trim().is_empty());
    match first_comment {
        Some(from) => block[from..]
            .iter()
            .map(|line| line.trim_end())
            .filter(|line| !line.is_empty())
            .collect(),
        None => Vec::new(),
    }
}

/// An edited copy of a document's own text, after `---` and its header
/// comments, in the copy's line breaks; a copy whose root starts on its
/// own `---` line (`--- {a: 1}`) gets its header before it.
fn edited_with_header(copy: &str, header: &[&str]) -> String {
    let newline = if copy.contains("\r\n") { "\r\n" } else { "\n" };
    let mut out = String::new();
    if !copy.starts_with("---") {
        out.push_str("---");
        out.push_str(newline);
    }
    for line in header {
        out.push_str(line);
        out.push_str(newline);
    }
    out.push_str(copy);
    out
}

/// One document's YAML (`---` first) with its header comments after `---`.
fn with_header(yaml: &str, header: &[&str]) -> String {
    if header.is_empty() {
        return yaml.to_owned();
    }
    let (separator, body) = yaml.split_once('\n').unwrap_or((yaml, ""));
    let mut out = format!("{separator}\n");
    for line in header {
        out.push_str(line);
        out.push('\n');
    }
    out.push_str(body);
    out
}

fn convert(
    tables: &GateTables,
    name: &str,
    root: &Node,
    from: Option<Version>,
    to: Version,
) -> Result<Conversion, Outcome> {
    upgrade::convert(tables, root, from, to).map_err(|err| {
        eprintln!("{name}:{}: error: {}", err.line, err.message);
        Outcome::InputError
    })
}

fn one_minor(
    tables: &GateTables,
    name: &str,
    root: &Node,
    from: Option<Version>,
    to: Version,
    written: &mut Vec<Node>,
) -> Outcome {
    let conversion = match convert(tables, name, root, from, to) {
        Ok(conversion) => conversion,
        Err(outcome) => return outcome,
    };
    if to < conversion.from {
        eprintln!(
            "{name}:{}: error: the document is written for {}; refusing to convert it to the older {to} (--all writes every minor it holds in without loss)",
            root.line, conversion.from
        );
        return Outcome::InputError;
    }
    for change in &conversion.changes {
        let label = if change.kind.refuses() {
            "error: "
        } else if change.kind.is_loss() {
            "warning: "
        } else {
            ""
        };
        eprintln!("{name}:{}: {label}{change}", change.line);
    }
    if conversion.is_refused() {
        eprintln!(
            "{name}:{}: error: refusing to write the document for {to}: {to} would reject it (above); nothing written",
            root.line
        );
        return Outcome::InputError;
    }
    let outcome = if conversion.is_lossless() {
        Outcome::Clean
    } else {
        Outcome::Violations
    };
    written.push(conversion.document);
    outcome
}

fn all_minors(
    tables: &GateTables,
    name: &str,
    root: &Node,
    from: Option<Version>,
    written: &mut Vec<Node>,
) -> Outcome {
    let mut kept = Vec::new();
    for &to in tables.versions() {
        let conversion = match convert(tables, name, root, from, to) {
            Ok(conversion) => conversion,
            Err(outcome) => return outcome,
        };
        if conversion.is_lossless() {
            kept.push(to.to_string());
            written.push(conversion.document);
        } else {
            let losses: Vec<String> = conversion
                .changes
                .iter()
                .filter(|change| change.kind.is_loss())
                .map(ToString::to_string)
                .collect();
            eprintln!("{name}:{}: skipped {to}: {}", root.line, losses.join("; "));
        }
    }
    eprintln!("{name}:{}: written for {}", root.line, kept.join(", "));
    Outcome::Clean
}
