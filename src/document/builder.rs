//! The tree builder both readers feed: YAML's parser events (`reader.rs`)
//! and JSON's (`json.rs`) become one [`Document`] of [`Node`]s, within the
//! limits that keep any input bounded (depth, copies made for aliases,
//! duplicate keys).

use super::scalar::{self, StandardTag, Syntax};
use super::yaml::parser::{Event, Tag};
use super::yaml::scanner::TScalarStyle;
use super::{CompactString, Document, DuplicateKey, Entry, Node, ParseError, Value};
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The deepest nesting of lists and mappings a document may have. No
/// Kubernetes object comes near it (a CRD's schema is a few dozen levels).
pub const MAX_DEPTH: usize = 1000;

/// The deepest nesting of flow collections (`[`, `{`) and of JSON: the
/// YAML parser counts flow levels in a `u8`.
pub(super) const MAX_FLOW_DEPTH: usize = 255;

/// What is said when a text nests flow collections deeper.
pub(super) const FLOW_DEPTH_MESSAGE: &str = "nested more than 255 levels deep in flow style (`[` and `{`), the most the YAML parser reads; no Kubernetes object nests this deep";

/// Copies made for anchors and aliases may weigh this much, or twice the
/// file, whichever is more (see [`weight`]).
const MIN_COPY_BUDGET: usize = 16 << 20;

/// Duplicate keys one document may have before reading stops (each is
/// reported with its path, which costs memory).
const MAX_DUPLICATE_KEYS: usize = 100;

/// An alias without its anchor in the same document.
pub(super) const UNKNOWN_ANCHOR: &str = "an alias refers to an unknown anchor";

/// What one node costs when copied, beyond its text: about its size in memory.
const NODE_WEIGHT: usize = 48;

/// The copy budget of a file of this text: [`MIN_COPY_BUDGET`] or twice
/// the text, whichever is more.
pub(super) fn copy_budget(text: &str) -> usize {
    MIN_COPY_BUDGET.max(text.len().saturating_mul(2))
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
