//! `vergate upgrade`: rewrite documents for a newer minor, or with `--all`
//! for every minor they hold in without loss.

use super::{
    atomic_write, inputs, known_minor, load_tables, write_bytes_out, Outcome, UpgradeArgs,
};
use destinations::Destination;
use std::borrow::Cow;
use vergate::document::{self, Encoding, Node};
use vergate::tables::GateTables;
use vergate::upgrade::edit;
use vergate::upgrade::{self, Conversion};
use vergate::Version;

mod destinations;

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
    let destinations = match destinations::of(args, &sources) {
        Ok(destinations) => destinations,
        Err(message) => {
            eprintln!("error: {message}");
            return Outcome::InputError;
        }
    };
    // Every file is converted before anything is written: a refusal in
    // one file writes none.
    let mut converted: Vec<(Output, &Destination)> = Vec::new();
    let mut outcome = Outcome::Clean;
    let mut refused = 0;
    let mut unchanged = 0;
    for (source, destination) in sources.iter().zip(&destinations) {
        let mut messages = Vec::new();
        let upgraded = upgrade_source(&tables, args, source, &mut messages);
        if !matches!(upgraded, Upgraded::Skipped(_)) {
            for message in messages {
                eprintln!("{message}");
            }
        }
        match upgraded {
            Upgraded::Written(output, result) => {
                outcome = outcome.max(result);
                converted.push((output, destination));
            }
            Upgraded::Unchanged(text, result) => {
                outcome = outcome.max(result);
                unchanged += 1;
                // In place, a file with nothing to change is not touched.
                if !args.in_place {
                    converted.push((Output::AsRead(text), destination));
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
    for (output, destination) in &converted {
        let bytes = output.bytes();
        match destination {
            // Standard output gets the bytes a file would get.
            Destination::Stdout => write_bytes_out(std::io::stdout().lock(), &bytes),
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
                let links = atomic_write::link_count(path);
                match atomic_write::write(path, &bytes) {
                    Ok(written) => {
                        if let Some(real) = written.through_link {
                            eprintln!(
                                "{}: note: a symbolic link: the file it points to, {}, was written (the link is kept)",
                                path.display(),
                                real.display()
                            );
                        }
                        if args.in_place && links > 1 {
                            eprintln!(
                                "{}: warning: the file had {links} names (hard links); it was replaced by a new file, so its other names keep the old text",
                                path.display()
                            );
                        }
                    }
                    Err(message) => {
                        eprintln!("{message}");
                        return Outcome::InputError;
                    }
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

/// The text one input becomes.
enum Output {
    /// A new text (without a byte order mark), stored as the input was
    /// (UTF-8 or UTF-16, with or without the mark).
    New(String, Encoding),
    /// The input as read, copied as it is.
    AsRead(inputs::Text),
}

impl Output {
    /// The bytes to write, in the input's encoding.
    fn bytes(&self) -> Cow<'_, [u8]> {
        let (text, encoding): (&str, Encoding) = match self {
            Output::New(text, encoding) => (text, *encoding),
            Output::AsRead(text) => (text, text.encoding()),
        };
        match encoding {
            Encoding::Utf8 => Cow::Borrowed(text.as_bytes()),
            other => Cow::Owned(other.encode(text)),
        }
    }
}

/// What became of one input.
enum Upgraded {
    /// Its new text, and whether something was lost (exit 1).
    Written(Output, Outcome),
    /// Nothing to change: its text as read (never rewritten in place).
    Unchanged(inputs::Text, Outcome),
    /// A walked file that is no manifest (a template, a values file).
    Skipped(&'static str),
    /// Refused or unreadable (said in the messages).
    Refused,
}

/// Reads and converts one input. Its messages are gathered in `messages`
/// (printed unless the input is skipped).
fn upgrade_source(
    tables: &GateTables,
    args: &UpgradeArgs,
    source: &inputs::Source,
    messages: &mut Vec<String>,
) -> Upgraded {
    let text = match source.read() {
        Ok(text) => text,
        Err(err) => {
            messages.push(match err.line {
                0 => format!("{}: error: {}", source.name, err.message),
                line => format!("{}:{line}: error: {}", source.name, err.message),
            });
            return Upgraded::Refused;
        }
    };
    if source.walked && super::check::is_template(source, &text) {
        return Upgraded::Skipped(super::check::TEMPLATE);
    }
    match args.to.filter(|_| !args.all) {
        Some(to) => one_minor_of(tables, args, source, text, to, messages),
        None => all_minors_of(tables, args, source, text, messages),
    }
}

/// True for a document `upgrade` converts when found in a directory.
fn is_manifest(doc: &document::Document) -> bool {
    doc.root.get("apiVersion").is_some() && doc.root.get("kind").is_some()
}

/// Refuses a document with a key written twice, as `check` does (exit 2,
/// each key with both lines): its tree holds one of the two values, so a
/// text written from it would drop the other line unsaid. True when
/// refused.
fn refuse_duplicates(name: &str, doc: &document::Document, messages: &mut Vec<String>) -> bool {
    if doc.duplicate_keys.is_empty() {
        return false;
    }
    for duplicate in &doc.duplicate_keys {
        messages.push(format!("{name}:{}: error: {duplicate}", duplicate.line));
    }
    messages.push(format!(
        "{name}:{}: error: refusing to upgrade a document with a duplicate key (above); nothing written",
        doc.line
    ));
    true
}

/// `--to`: the file read and edited one part at a time (`document::split`:
/// the documents between two `---` lines), so that a large file never has
/// more than one part's trees in memory; the new text is the parts' texts,
/// edited where they change.
fn one_minor_of(
    tables: &GateTables,
    args: &UpgradeArgs,
    source: &inputs::Source,
    text: inputs::Text,
    to: Version,
    messages: &mut Vec<String>,
) -> Upgraded {
    let name = &source.name;
    let mut edited = String::new();
    let mut changed = false;
    let mut outcome = Outcome::Clean;
    let mut documents = 0usize;
    let mut offset = 0;
    for part in document::split(&text) {
        let part_start = offset;
        offset += part.text().len();
        let mut read = Vec::new();
        for result in part.reader() {
            match result {
                Ok(doc) => read.push(doc),
                Err(err) => {
                    messages.push(format!("{name}:{}: error: {}", err.line, err.message));
                    return Upgraded::Refused;
                }
            }
        }
        if source.walked && !read.iter().all(is_manifest) {
            return Upgraded::Skipped(super::check::NOT_A_MANIFEST);
        }
        documents += read.len();
        let mut intended: Vec<Node> = Vec::with_capacity(read.len());
        for doc in &read {
            if refuse_duplicates(name, doc, messages) {
                outcome = Outcome::InputError;
                continue;
            }
            outcome = outcome.max(one_minor(
                tables,
                name,
                &doc.root,
                args.from,
                to,
                &mut intended,
                messages,
            ));
        }
        if outcome == Outcome::InputError {
            // Go on reading, to report every refused document at once.
            continue;
        }
        let targets = edit::targets(&read, &intended);
        match edit::rewrite_part(part.text(), part.first_line(), &targets) {
            Ok(Some(new)) => {
                if !changed {
                    // The parts before this one, as they were (the parts
                    // are the text, cut).
                    edited.reserve(text.len() + text.len() / 8);
                    edited.push_str(&text[..part_start]);
                    changed = true;
                }
                edited.push_str(&new);
            }
            Ok(None) if changed => edited.push_str(part.text()),
            Ok(None) => {}
            Err(err) => {
                messages.push(format!("{name}:{}: error: {}", err.line, err.message));
                outcome = Outcome::InputError;
            }
        }
    }
    if documents == 0 {
        messages.push(format!("{name}: error: no document to upgrade"));
        return Upgraded::Refused;
    }
    if outcome == Outcome::InputError {
        return Upgraded::Refused;
    }
    if changed {
        Upgraded::Written(Output::New(edited, text.encoding()), outcome)
    } else {
        Upgraded::Unchanged(text, outcome)
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
    text: inputs::Text,
    messages: &mut Vec<String>,
) -> Upgraded {
    let name = &source.name;
    let parsed = document::parse(&text);
    if let Some(err) = &parsed.error {
        messages.push(format!("{name}:{}: error: {}", err.line, err.message));
        return Upgraded::Refused;
    }
    let documents = &parsed.documents;
    if documents.is_empty() {
        messages.push(format!("{name}: error: no document to upgrade"));
        return Upgraded::Refused;
    }
    if source.walked && !documents.iter().all(is_manifest) {
        return Upgraded::Skipped(super::check::NOT_A_MANIFEST);
    }
    let mut outcome = Outcome::Clean;
    for doc in documents {
        if refuse_duplicates(name, doc, messages) {
            outcome = Outcome::InputError;
        }
    }
    if outcome == Outcome::InputError {
        return Upgraded::Refused;
    }
    let own_texts = upgrade::copies::document_texts(&text, documents.len());
    let mut yaml = String::new();
    for (at, doc) in documents.iter().enumerate() {
        let mut written: Vec<Node> = Vec::new();
        let result = all_minors(tables, name, &doc.root, args.from, &mut written, messages);
        outcome = outcome.max(result);
        let header = header_comments(&text, doc.root.line);
        let own = own_texts.as_ref().map(|texts| texts[at]);
        for node in &written {
            match own.map(|own| upgrade::copies::edited(own, &doc.root, node)) {
                Some(Ok(copy)) => yaml.push_str(&edited_with_header(&copy, &header)),
                Some(Err(err)) => {
                    messages.push(format!(
                        "{name}:{}: note: written anew, without the comments inside it: {}",
                        doc.root.line, err.message
                    ));
                    yaml.push_str(&with_header(&upgrade::to_yaml(&[node]), &header));
                }
                None => yaml.push_str(&with_header(&upgrade::to_yaml(&[node]), &header)),
            }
        }
    }
    if outcome == Outcome::InputError {
        return Upgraded::Refused;
    }
    Upgraded::Written(Output::New(yaml, text.encoding()), outcome)
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
    messages: &mut Vec<String>,
) -> Result<Conversion, Outcome> {
    upgrade::convert(tables, root, from, to).map_err(|err| {
        messages.push(format!("{name}:{}: error: {}", err.line, err.message));
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
    messages: &mut Vec<String>,
) -> Outcome {
    let conversion = match convert(tables, name, root, from, to, messages) {
        Ok(conversion) => conversion,
        Err(outcome) => return outcome,
    };
    if to < conversion.from {
        messages.push(format!(
            "{name}:{}: error: the document is written for {}; refusing to convert it to the older {to} (--all writes every minor it holds in without loss)",
            root.line, conversion.from
        ));
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
        messages.push(format!("{name}:{}: {label}{change}", change.line));
    }
    if conversion.is_refused() {
        messages.push(format!(
            "{name}:{}: error: refusing to write the document for {to}: {to} would reject it (above); nothing written",
            root.line
        ));
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
    messages: &mut Vec<String>,
) -> Outcome {
    let mut kept = Vec::new();
    for &to in tables.versions() {
        let conversion = match convert(tables, name, root, from, to, messages) {
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
            messages.push(format!(
                "{name}:{}: skipped {to}: {}",
                root.line,
                losses.join("; ")
            ));
        }
    }
    messages.push(format!(
        "{name}:{}: written for {}",
        root.line,
        kept.join(", ")
    ));
    Outcome::Clean
}
