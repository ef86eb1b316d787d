//! Builds [`Node`] trees from the YAML parser's events, one document at a
//! time, within fixed bounds.
//!
//! Nothing here recurses: open collections live on a heap stack, whose
//! height is the nesting depth and is bounded by [`MAX_DEPTH`]. Aliases are
//! expanded by copying the anchored node, and every copy is paid for: by
//! go-yaml's own rule for "excessive aliasing" (the one kubectl applies), and
//! by a budget of copied bytes per file, so a few hundred bytes cannot ask
//! for gigabytes.

use super::json;
use super::scalar::{self, StandardTag, Syntax};
use super::yaml::parser::{Event, Parser, Tag};
use super::yaml::scanner::{Marker, TScalarStyle};
use super::{CompactString, Document, DuplicateKey, Entry, Node, ParseError, Value};
use std::collections::HashMap;
use std::str::Chars;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// The deepest nesting of lists and mappings a document may have. No
/// Kubernetes object comes near it (a CRD's schema is a few dozen levels).
pub const MAX_DEPTH: usize = 1000;

/// The deepest nesting of flow collections (`[`, `{`) and of JSON: the
/// YAML parser counts flow levels in a `u8`.
pub(super) const MAX_FLOW_DEPTH: usize = 255;

/// What is said when a text nests flow collections deeper.
pub(super) const FLOW_DEPTH_MESSAGE: &str = "nested more than 255 levels deep in flow style (`[` and `{`), the most the YAML parser reads; no Kubernetes object nests this deep";

/// The largest file (in bytes) vergate reads.
pub const MAX_FILE_BYTES: usize = 64 << 20;

/// Copies made for anchors and aliases may weigh this much, or twice the
/// file, whichever is more (see [`weight`]).
const MIN_COPY_BUDGET: usize = 16 << 20;

/// Duplicate keys one document may have before reading stops (each is
/// reported with its path, which costs memory).
const MAX_DUPLICATE_KEYS: usize = 100;

/// An alias without its anchor in the same document.
const UNKNOWN_ANCHOR: &str = "an alias refers to an unknown anchor";

/// What one node costs when copied, beyond its text: about its size in memory.
const NODE_WEIGHT: usize = 48;

/// Reads the documents of one text in order. After an error it stops: the
/// error is the last item.
pub struct Reader<'a> {
    text: &'a str,
    /// The full parser, made when first needed.
    parser: Option<Parser<Chars<'a>>>,
    /// What the fast path read of a part, when it read it (see [`super::block`]).
    fast: Option<Option<Document>>,
    syntax: Syntax,
    /// The file's copy budget, shared by the readers of its parts.
    copy_budget: Arc<AtomicUsize>,
    /// Lines before the text read (a part of a file starts on a later line).
    line_offset: u32,
    /// The 0-based index the next non-empty document gets.
    index: usize,
    /// The file is too large: say so once, read nothing.
    too_large: bool,
    /// The documents of a JSON text, read at once (see [`super::json`]).
    json: Option<std::vec::IntoIter<Result<Document, ParseError>>>,
    done: bool,
}

impl<'a> Reader<'a> {
    /// A reader of `text`, in the syntax kubectl would read it in.
    pub fn new(text: &'a str) -> Reader<'a> {
        Reader {
            text,
            parser: None,
            fast: None,
            syntax: Syntax::sniff(text),
            copy_budget: Arc::new(AtomicUsize::new(copy_budget(text))),
            line_offset: 0,
            index: 0,
            too_large: text.len() > MAX_FILE_BYTES,
            json: None,
            done: false,
        }
    }

    /// A reader of one part of a file (see [`super::split`]): `part` starts
    /// on line `first_line` of the file, is read in the file's `syntax`
    /// and spends the file's `copy_budget`. Its documents are numbered from
    /// 0 within the part.
    pub(super) fn part(
        part: &'a str,
        first_line: u32,
        syntax: Syntax,
        copy_budget: Arc<AtomicUsize>,
    ) -> Reader<'a> {
        Reader::part_read(part, first_line, syntax, copy_budget, true)
    }

    /// A reader of one part of a file that only uses the full parser
    /// (to hold the fast path to it in tests).
    pub(super) fn part_full(
        part: &'a str,
        first_line: u32,
        syntax: Syntax,
        copy_budget: Arc<AtomicUsize>,
    ) -> Reader<'a> {
        Reader::part_read(part, first_line, syntax, copy_budget, false)
    }

    /// A reader of one part, trying the fast path first when `try_fast`.
    fn part_read(
        part: &'a str,
        first_line: u32,
        syntax: Syntax,
        copy_budget: Arc<AtomicUsize>,
        try_fast: bool,
    ) -> Reader<'a> {
        let line_offset = first_line.saturating_sub(1);
        let fast = if try_fast {
            super::block::read(part, line_offset, syntax)
        } else {
            None
        };
        Reader {
            text: part,
            parser: None,
            fast,
            syntax,
            copy_budget,
            line_offset,
            index: 0,
            too_large: false,
            json: None,
            done: false,
        }
    }

    /// True when the fast path read this reader's text.
    pub(super) fn is_fast(&self) -> bool {
        self.fast.is_some()
    }

    /// The syntax the text is read in.
    pub fn syntax(&self) -> Syntax {
        self.syntax
    }

    fn next_event(&mut self) -> Result<(Event, u32), ParseError> {
        let offset = self.line_offset;
        let text = self.text;
        let parser = self
            .parser
            .get_or_insert_with(|| Parser::new_from_str(text));
        let next = parser.next_token();
        if parser.unprintable() {
            return Err(unprintable(text, offset));
        }
        let (event, mark) = next.map_err(|err| ParseError {
            line: line_of(err.marker()).saturating_add(offset),
            message: match err.info() {
                // The parser (yaml-rust2's) counts flow levels in a u8.
                "recursion limit exceeded" => FLOW_DEPTH_MESSAGE.into(),
                // Anchors do not reach across documents: said as the
                // builder says it when the parser knew the anchor from an
                // earlier document of the stream.
                "while parsing node, found unknown anchor" => UNKNOWN_ANCHOR.into(),
                info => format!("invalid YAML: {info}"),
            },
        })?;
        Ok((event, line_of(&mark).saturating_add(offset)))
    }

    /// The next document, empty ones included; `None` at the end.
    fn document(&mut self) -> Result<Option<Document>, ParseError> {
        let line = loop {
            match self.next_event()? {
                (Event::DocumentStart, line) => break line,
                (Event::StreamEnd, _) => return Ok(None),
                _ => {}
            }
        };
        let mut builder = Builder::new(self.syntax, line);
        loop {
            let (event, line) = self.next_event()?;
            if event == Event::DocumentEnd {
                break;
            }
            builder.event(event, line, &self.copy_budget)?;
        }
        Ok(Some(builder.finish()))
    }
}

impl Iterator for Reader<'_> {
    type Item = Result<Document, ParseError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        if let Some(fast) = self.fast.take() {
            self.done = true;
            return fast
                .filter(|doc| !matches!(doc.root.value, Value::Null))
                .map(Ok);
        }
        if self.too_large {
            self.done = true;
            return Some(Err(ParseError {
                line: 1,
                message: format!(
                    "the file is larger than {} MiB, the most vergate reads; split it into smaller files",
                    MAX_FILE_BYTES >> 20
                ),
            }));
        }
        if self.syntax == Syntax::Json && self.json.is_none() {
            match json::read(self.text, self.line_offset, &self.copy_budget) {
                json::Outcome::Read(documents, error) => {
                    let read = documents.into_iter().map(Ok).chain(error.map(Err));
                    self.json = Some(read.collect::<Vec<_>>().into_iter());
                }
                // apimachinery 0.33: read again from the start, as YAML.
                json::Outcome::NotJson => self.syntax = Syntax::Yaml,
            }
        }
        if let Some(json) = &mut self.json {
            let next = json.next();
            match &next {
                Some(Ok(_)) => self.index += 1,
                Some(Err(_)) | None => self.done = true,
            }
            return next.map(|read| {
                read.map(|mut doc| {
                    doc.index = self.index - 1;
                    doc
                })
            });
        }
        loop {
            match self.document() {
                Ok(Some(doc)) if matches!(doc.root.value, Value::Null) => continue,
                Ok(Some(mut doc)) => {
                    doc.index = self.index;
                    self.index += 1;
                    return Some(Ok(doc));
                }
                Ok(None) => {
                    self.done = true;
                    return None;
                }
                Err(err) => {
                    self.done = true;
                    return Some(Err(err));
                }
            }
        }
    }
}

/// go-yaml's reader refuses any character outside YAML's printable set
/// (`readerc.go`): tab, line breaks, U+0020–U+007E, U+0085, U+00A0–U+D7FF,
/// U+E000–U+FFFD and above U+FFFF. So do kubectl and vergate, for YAML. The
/// scanner stops at the first one (see its `read_char`); this says where.
fn unprintable(text: &str, line_offset: u32) -> ParseError {
    let allowed = |c: char| {
        matches!(c, '\t' | '\n' | '\r' | ' '..='~' | '\u{85}' | '\u{a0}'..='\u{d7ff}' | '\u{e000}'..='\u{fffd}')
            || c > '\u{ffff}'
    };
    let at = text.find(|c: char| !allowed(c)).unwrap_or(text.len());
    let c = text[at..].chars().next().unwrap_or('\0');
    let line = u32::try_from(bytecount::count(&text.as_bytes()[..at], b'\n'))
        .unwrap_or(u32::MAX)
        .saturating_add(1)
        .saturating_add(line_offset);
    ParseError {
        line,
        message: format!(
            "a control character (U+{:04X}), which kubectl refuses in YAML (go-yaml reads only printable characters, tabs and line breaks); remove it, or write it as an escape in double quotes",
            u32::from(c)
        ),
    }
}

/// The copy budget of a file of this text: [`MIN_COPY_BUDGET`] or twice
/// the text, whichever is more.
pub(super) fn copy_budget(text: &str) -> usize {
    MIN_COPY_BUDGET.max(text.len().saturating_mul(2))
}

fn line_of(mark: &Marker) -> u32 {
    u32::try_from(mark.line()).unwrap_or(u32::MAX)
}

/// What copying a node costs: [`NODE_WEIGHT`] per node plus its text.
#[derive(Clone, Copy, Debug, Default)]
struct Size {
    /// Nodes, keys included (go-yaml counts one "decode" per node).
    nodes: usize,
    /// Weight in bytes.
    weight: usize,
}

impl Size {
    fn scalar(text_len: usize) -> Size {
        Size {
            nodes: 1,
            weight: NODE_WEIGHT + text_len,
        }
    }

    fn add(&mut self, other: Size) {
        self.nodes = self.nodes.saturating_add(other.nodes);
        self.weight = self.weight.saturating_add(other.weight);
    }
}

/// An open list or mapping.
struct Open {
    node: Node,
    anchor: usize,
    size: Size,
    /// For mappings: the key read, waiting for its value.
    pending_key: Option<PendingKey>,
    /// For large mappings: where each key is in `entries`.
    key_index: Option<HashMap<CompactString, usize>>,
    /// For mappings: which entries came from a merge (`<<`).
    merged: Vec<bool>,
}

struct PendingKey {
    text: CompactString,
    line: u32,
    /// A plain `<<`: merge the value's entries (YAML 1.1 merge keys).
    merge: bool,
}

/// Mappings this large get a hash index of their keys.
const INDEX_FROM: usize = 16;

struct Anchored {
    node: Node,
    size: Size,
}

/// go-yaml's count of decodes and of decodes done inside aliases, for its
/// "excessive aliasing" rule (`allowedAliasRatio` in yaml.v2 2.2.8+ and
/// yaml.v3, which sigs.k8s.io/yaml and so kubectl apply).
#[derive(Default)]
struct AliasRatio {
    decodes: usize,
    aliased: usize,
}

impl AliasRatio {
    fn allowed(decodes: usize) -> f64 {
        const LOW: usize = 400_000;
        const HIGH: usize = 4_000_000;
        if decodes <= LOW {
            0.99
        } else if decodes >= HIGH {
            0.10
        } else {
            0.99 - 0.89 * ((decodes - LOW) as f64 / (HIGH - LOW) as f64)
        }
    }

    /// Counts `nodes` decodes, `aliased` of them inside an alias; false when
    /// the rule is broken.
    fn count(&mut self, nodes: usize, aliased: usize) -> bool {
        self.decodes = self.decodes.saturating_add(nodes);
        self.aliased = self.aliased.saturating_add(aliased);
        !(self.aliased > 100
            && self.decodes > 1000
            && self.aliased as f64 / self.decodes as f64 > Self::allowed(self.decodes))
    }
}

/// Builds one document (from the YAML parser's events, or from those
/// [`super::json`] makes of JSON).
pub(super) struct Builder {
    syntax: Syntax,
    line: u32,
    stack: Vec<Open>,
    anchors: HashMap<usize, Anchored>,
    ratio: AliasRatio,
    root: Option<Node>,
    duplicates: Vec<DuplicateKey>,
}

impl Builder {
    pub(super) fn new(syntax: Syntax, line: u32) -> Builder {
        Builder {
            syntax,
            line,
            stack: Vec::new(),
            anchors: HashMap::new(),
            ratio: AliasRatio::default(),
            root: None,
            duplicates: Vec::new(),
        }
    }

    pub(super) fn finish(self) -> Document {
        Document {
            index: 0,
            line: self.line,
            root: self.root.unwrap_or(Node {
                value: Value::Null,
                line: self.line,
            }),
            duplicate_keys: self.duplicates,
        }
    }

    pub(super) fn event(
        &mut self,
        event: Event,
        line: u32,
        budget: &AtomicUsize,
    ) -> Result<(), ParseError> {
        let fail = |message: String| ParseError { line, message };
        match event {
            Event::Scalar(text, style, anchor, tag) => {
                let plain = style == TScalarStyle::Plain;
                let tag = tag.as_ref().map(standard_tag);
                let size = Size::scalar(text.len());
                self.ratio.count(1, 0);
                if self.key_expected() {
                    let merge =
                        plain && tag.is_none() && text == "<<" && self.syntax == Syntax::Yaml;
                    let value = scalar::resolve(text.into(), plain, tag, self.syntax)
                        .map_err(|err| fail(err.0))?;
                    let key = scalar::key_text(value).map_err(|err| fail(err.0))?;
                    self.set_key(key, line, merge, anchor, size, budget)?;
                } else {
                    let value = scalar::resolve(text.into(), plain, tag, self.syntax)
                        .map_err(|err| fail(err.0))?;
                    self.push(Node { value, line }, anchor, size, budget)?;
                }
            }
            Event::SequenceStart(anchor, _) => self.open(Value::Seq(Vec::new()), line, anchor)?,
            Event::MappingStart(anchor, _) => self.open(Value::Map(Vec::new()), line, anchor)?,
            Event::SequenceEnd | Event::MappingEnd => {
                if let Some(mut open) = self.stack.pop() {
                    match &mut open.node.value {
                        Value::Seq(items) => items.shrink_to_fit(),
                        Value::Map(entries) => entries.shrink_to_fit(),
                        _ => {}
                    }
                    self.push(open.node, open.anchor, open.size, budget)?;
                }
            }
            Event::Alias(anchor) => {
                let Some(anchored) = self.anchors.get(&anchor) else {
                    return Err(fail(UNKNOWN_ANCHOR.into()));
                };
                let size = anchored.size;
                if !self.ratio.count(size.nodes.saturating_add(1), size.nodes) {
                    return Err(fail(
                        "the document contains excessive aliasing (the limit kubectl applies); expand the aliases or reduce them".into(),
                    ));
                }
                spend(budget, size.weight, line)?;
                let node = Node {
                    value: anchored.node.value.clone(),
                    line,
                };
                if self.key_expected() {
                    if matches!(node.value, Value::Seq(_) | Value::Map(_)) {
                        return Err(fail(
                            "an alias used as a mapping key must name a scalar".into(),
                        ));
                    }
                    let key = scalar::key_text(node.value).map_err(|err| fail(err.0))?;
                    self.set_key(key, line, false, 0, size, budget)?;
                } else {
                    self.push(node, 0, size, budget)?;
                }
            }
            Event::Nothing
            | Event::StreamStart
            | Event::StreamEnd
            | Event::DocumentStart
            | Event::DocumentEnd => {}
        }
        Ok(())
    }

    /// True when the innermost open collection is a mapping waiting for a key.
    fn key_expected(&self) -> bool {
        self.stack.last().is_some_and(|open| {
            matches!(open.node.value, Value::Map(_)) && open.pending_key.is_none()
        })
    }

    fn open(&mut self, value: Value, line: u32, anchor: usize) -> Result<(), ParseError> {
        if self.key_expected() {
            return Err(ParseError {
                line,
                message: "a mapping key must be a scalar, found a collection".into(),
            });
        }
        if self.stack.len() >= MAX_DEPTH {
            return Err(ParseError {
                line,
                message: format!(
                    "nested more than {MAX_DEPTH} levels deep, the most vergate reads; no Kubernetes object nests this deep"
                ),
            });
        }
        self.ratio.count(1, 0);
        self.stack.push(Open {
            node: Node { value, line },
            anchor,
            size: Size {
                nodes: 1,
                weight: NODE_WEIGHT,
            },
            pending_key: None,
            key_index: None,
            merged: Vec::new(),
        });
        Ok(())
    }

    fn set_key(
        &mut self,
        text: CompactString,
        line: u32,
        merge: bool,
        anchor: usize,
        size: Size,
        budget: &AtomicUsize,
    ) -> Result<(), ParseError> {
        if anchor != 0 {
            let node = Node {
                value: Value::String(text.clone()),
                line,
            };
            self.remember(anchor, &node, size, budget, line)?;
        }
        let open = self
            .stack
            .last_mut()
            .expect("a key is read inside a mapping");
        open.size.add(size);
        open.pending_key = Some(PendingKey { text, line, merge });
        Ok(())
    }

    /// Keeps a copy of an anchored node for the aliases to come.
    fn remember(
        &mut self,
        anchor: usize,
        node: &Node,
        size: Size,
        budget: &AtomicUsize,
        line: u32,
    ) -> Result<(), ParseError> {
        spend(budget, size.weight, line)?;
        self.anchors.insert(
            anchor,
            Anchored {
                node: node.clone(),
                size,
            },
        );
        Ok(())
    }

    /// Places a finished node into its parent (or makes it the root).
    fn push(
        &mut self,
        node: Node,
        anchor: usize,
        size: Size,
        budget: &AtomicUsize,
    ) -> Result<(), ParseError> {
        if anchor != 0 {
            self.remember(anchor, &node, size, budget, node.line)?;
        }
        let Some(parent) = self.stack.last_mut() else {
            self.root = Some(node);
            return Ok(());
        };
        parent.size.add(size);
        let duplicate = match &mut parent.node.value {
            Value::Seq(items) => {
                items.push(node);
                None
            }
            Value::Map(_) => {
                let key = parent
                    .pending_key
                    .take()
                    .expect("a value is pushed into a mapping after its key");
                if key.merge {
                    merge(parent, node)?;
                    None
                } else {
                    insert(parent, key, node, false)
                }
            }
            _ => unreachable!("only collections are open"),
        };
        if let Some(mut duplicate) = duplicate {
            if self.duplicates.len() == MAX_DUPLICATE_KEYS {
                return Err(ParseError {
                    line: duplicate.line,
                    message: format!(
                        "more than {MAX_DUPLICATE_KEYS} duplicate keys in one document; this is no manifest kubectl would read as written"
                    ),
                });
            }
            duplicate.path = join(&self.path(), &duplicate.key);
            self.duplicates.push(duplicate);
        }
        Ok(())
    }

    /// The path of the value being read, for messages (`spec.ports[0]`).
    fn path(&self) -> String {
        let mut path = String::new();
        for open in &self.stack {
            match &open.node.value {
                Value::Seq(items) => path.push_str(&format!("[{}]", items.len())),
                Value::Map(_) => {
                    if let Some(key) = &open.pending_key {
                        if !path.is_empty() {
                            path.push('.');
                        }
                        path.push_str(&key.text);
                    }
                }
                _ => {}
            }
        }
        path
    }
}

/// Takes `weight` from the file's copy budget, or says the file asks too much.
fn spend(budget: &AtomicUsize, weight: usize, line: u32) -> Result<(), ParseError> {
    match budget.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |left| {
        left.checked_sub(weight)
    }) {
        Ok(_) => Ok(()),
        Err(_) => Err(ParseError {
            line,
            message: "the document contains excessive aliasing (its anchors and aliases would copy more than twice the file's size); expand the aliases or reduce them".into(),
        }),
    }
}

/// Adds an entry to an open mapping (a duplicate's path is filled in by
/// the caller). A key seen before keeps its place and
/// takes the new value (the last one wins, as in kubectl); that is reported
/// as a duplicate unless one of the two came from a merge (`<<`), which
/// written keys may override.
fn insert(open: &mut Open, key: PendingKey, value: Node, from_merge: bool) -> Option<DuplicateKey> {
    let Value::Map(entries) = &mut open.node.value else {
        unreachable!("keys are read inside mappings")
    };
    let existing = match &open.key_index {
        Some(index) => index.get(&key.text).copied(),
        None => entries.iter().position(|entry| entry.key == key.text),
    };
    if let Some(at) = existing {
        let first_line = entries[at].line;
        let was_merged = std::mem::replace(&mut open.merged[at], from_merge);
        let duplicate = (!was_merged && !from_merge).then(|| DuplicateKey {
            path: String::new(),
            key: key.text.to_string(),
            line: key.line,
            first_line,
        });
        entries[at] = Entry {
            key: key.text,
            line: key.line,
            value,
        };
        return duplicate;
    }
    if let Some(index) = &mut open.key_index {
        index.insert(key.text.clone(), entries.len());
    }
    entries.push(Entry {
        key: key.text,
        line: key.line,
        value,
    });
    open.merged.push(from_merge);
    if open.key_index.is_none() && entries.len() >= INDEX_FROM {
        open.key_index = Some(
            entries
                .iter()
                .enumerate()
                .map(|(at, entry)| (entry.key.clone(), at))
                .collect(),
        );
    }
    None
}

fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_owned()
    } else {
        format!("{path}.{key}")
    }
}

/// A YAML 1.1 merge key (`<<: *defaults`, `<<: [*a, *b]`), as go-yaml v2
/// applies it: the merged mappings' entries are set where the `<<` stands,
/// earlier mappings of a list taking precedence, and keys written after it
/// override them.
fn merge(open: &mut Open, value: Node) -> Result<(), ParseError> {
    let line = value.line;
    let mappings: Vec<Vec<Entry>> = match value.value {
        Value::Map(entries) => vec![entries],
        Value::Seq(items) => items
            .into_iter()
            .rev()
            .map(|item| match item.value {
                Value::Map(entries) => Ok(entries),
                _ => Err(merge_error(line)),
            })
            .collect::<Result<_, _>>()?,
        _ => return Err(merge_error(line)),
    };
    for entry in mappings.into_iter().flatten() {
        let key = PendingKey {
            text: entry.key,
            line: entry.line,
            merge: false,
        };
        insert(open, key, entry.value, true);
    }
    Ok(())
}

fn merge_error(line: u32) -> ParseError {
    ParseError {
        line,
        message: "a merge key (`<<`) needs a mapping or a list of mappings as its value".into(),
    }
}

fn standard_tag(tag: &Tag) -> StandardTag {
    StandardTag::from_parts(&tag.handle, &tag.suffix)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::parse;

    fn laughs(levels: usize) -> String {
        let mut text = String::from("a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
        for level in 1..=levels {
            let aliases = vec![format!("*a{}", level - 1); 9].join(", ");
            text.push_str(&format!("a{level}: &a{level} [{aliases}]\n"));
        }
        text
    }

    #[test]
    fn a_billion_laughs_is_excessive_aliasing() {
        let started = std::time::Instant::now();
        let parsed = parse(&laughs(9));
        let err = parsed.error.expect("refused");
        assert!(err.message.contains("excessive aliasing"), "{err}");
        assert!(err.line >= 4 && err.line <= 10, "{err}");
        assert!(started.elapsed().as_secs() < 2);
        // A few aliases are fine.
        let parsed = parse(&laughs(2));
        assert!(parsed.error.is_none(), "{:?}", parsed.error);
        assert_eq!(
            parsed.documents[0].root.get("a2").unwrap().to_json()[8][8][8],
            "lol"
        );
    }

    #[test]
    fn copies_of_long_text_are_bounded_by_size_not_only_count() {
        // Few nodes, so go-yaml's ratio allows it, but each copy is 1 MiB.
        let mut text = format!("a: &a {}\nb: [", "x".repeat(1 << 20));
        text.push_str(&vec!["*a"; 200].join(", "));
        text.push_str("]\n");
        let err = parse(&text).error.expect("refused");
        assert!(err.message.contains("excessive aliasing"), "{err}");
        assert_eq!(err.line, 2);
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_stack_overflow() {
        for text in [
            // Block sequences, 10,000 deep on one line.
            format!("{}x\n", "- ".repeat(10_000)),
            // Block mappings, one level per line.
            (0..10_000)
                .map(|depth| format!("{}k:\n", " ".repeat(depth)))
                .collect(),
        ] {
            let parsed = parse(&text);
            let err = parsed.error.expect("refused");
            assert!(
                err.message.contains("nested more than 1000 levels"),
                "{err}"
            );
            assert!(err.line >= 1, "{err}");
        }
        let fine = format!("{}x\n", "- ".repeat(MAX_DEPTH));
        assert!(parse(&fine).error.is_none());
    }

    #[test]
    fn a_file_over_the_size_limit_is_refused_before_reading() {
        let text = "#".repeat(MAX_FILE_BYTES + 1);
        let err = parse(&text).error.expect("refused");
        assert!(err.message.contains("larger than 64 MiB"), "{err}");
    }

    #[test]
    fn duplicate_keys_keep_the_last_value_and_name_both_lines() {
        let text = "spec:\n  containers:\n  - name: a\n    image: one\n    image: two\n";
        let parsed = parse(text);
        let doc = &parsed.documents[0];
        let container = &doc
            .root
            .get("spec")
            .unwrap()
            .get("containers")
            .unwrap()
            .to_json()[0];
        assert_eq!(container["image"], "two");
        assert_eq!(
            doc.duplicate_keys,
            vec![DuplicateKey {
                path: "spec.containers[0].image".into(),
                key: "image".into(),
                line: 5,
                first_line: 4,
            }]
        );
        // Keys that only resolve alike are duplicates too (`on` is `true`).
        let parsed = parse("x: {true: 1, on: 2}");
        assert_eq!(parsed.documents[0].duplicate_keys.len(), 1);
        // Large mappings use an index; still found.
        let mut big: String = (0..100).map(|i| format!("k{i}: {i}\n")).collect();
        big.push_str("k7: last\n");
        let parsed = parse(&big);
        assert_eq!(parsed.documents[0].duplicate_keys[0].first_line, 8);
        assert_eq!(
            parsed.documents[0].root.get("k7").unwrap().as_str(),
            Some("last")
        );
    }

    #[test]
    fn thousands_of_duplicate_keys_stop_the_reading() {
        let text = format!("{{{}}}\n", vec!["a: 1"; 10_000].join(", "));
        let err = parse(&format!("x: {text}")).error.expect("refused");
        assert!(
            err.message.contains("more than 100 duplicate keys"),
            "{err}"
        );
    }

    #[test]
    fn merge_keys_are_applied_as_go_yaml_v2_does() {
        let text = "base: &base {a: 1, b: 2}\nother: &other {b: 3, c: 4}\nx:\n  <<: [*base, *other]\n  c: 5\n";
        let parsed = parse(text);
        assert!(parsed.error.is_none(), "{:?}", parsed.error);
        let doc = &parsed.documents[0];
        assert!(doc.duplicate_keys.is_empty(), "{:?}", doc.duplicate_keys);
        assert_eq!(
            doc.root.get("x").unwrap().to_json(),
            serde_json::json!({"a": 1, "b": 2, "c": 5})
        );
        let err = parse("x:\n  <<: 1\n").error.expect("refused");
        assert!(err.message.contains("merge key"), "{err}");
        // A quoted "<<" is an ordinary key.
        let parsed = parse("x: {'<<': 1}\n");
        assert!(parsed.documents[0]
            .root
            .get("x")
            .unwrap()
            .get("<<")
            .is_some());
    }

    #[test]
    fn json_text_follows_json_and_is_read_as_yaml_when_it_is_not_json() {
        let parsed = parse("  {\"a\": 1.0, \"b\": \"yes\"}");
        assert!(parsed.error.is_none());
        assert_eq!(
            parsed.documents[0].root.to_json(),
            serde_json::json!({"a": 1.0, "b": "yes"})
        );
        // apimachinery 0.33 reads a `{` text that is not JSON as YAML.
        let parsed = parse("{\"a\": yes}");
        assert!(parsed.error.is_none(), "{:?}", parsed.error);
        assert_eq!(
            parsed.documents[0].root.to_json(),
            serde_json::json!({"a": true})
        );
        // Neither JSON nor YAML: the YAML error, at its line.
        let err = parse("{\"a\":\n 1").error.expect("refused");
        assert!(err.message.starts_with("invalid YAML"), "{err}");
        assert!(err.line >= 2, "{err}");
        // After a first JSON value, the stream stays JSON.
        let err = parse("{\"a\": 1}\n{\"a\": yes}").error.expect("refused");
        assert!(err.message.starts_with("invalid JSON"), "{err}");
        assert_eq!(err.line, 2, "{err}");
    }

    #[test]
    fn null_keys_are_refused() {
        let err = parse("~: 1\n").error.expect("refused");
        assert!(err.message.contains("null mapping key"), "{err}");
    }

    #[test]
    fn documents_come_one_at_a_time() {
        let mut reader = Reader::new("a: 1\n---\n---\nb: 2\n---\n[: bad\n");
        assert_eq!(reader.next().unwrap().unwrap().index, 0);
        let second = reader.next().unwrap().unwrap();
        assert_eq!((second.index, second.line), (1, 3));
        assert!(reader.next().unwrap().is_err());
        assert!(reader.next().is_none());
    }
}
