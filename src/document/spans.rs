//! Where each node of a document is written: the byte ranges `upgrade`
//! edits, so that it changes only the nodes that change and leaves every
//! other byte of the file (comments, quoting, flow or block style, key
//! order) as it was.
//!
//! Spans are read by the full YAML parser (the one [`super::Reader`] falls
//! back to, which reads everything the fast path reads) or, for a JSON
//! text, by the JSON reader's own lexer, so they follow the same grammar as
//! the trees. They are read only for files `upgrade` changes, never on
//! `check`'s path. Nothing here recurses: open collections are a heap stack,
//! as deep as the text's nesting, which the reader has already bounded.

use super::json::{self, Token};
use super::scalar::{self, StandardTag, Syntax};
use super::yaml::parser::{Event, Parser};
use super::yaml::scanner::TScalarStyle;
use super::Value;

/// How a scalar is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    Plain,
    SingleQuoted,
    DoubleQuoted,
    /// `|`
    Literal,
    /// `>`
    Folded,
}

/// One node's place in the text: `start..end` in bytes, from its first
/// character to just after its last (a closing quote or bracket included;
/// a block scalar from its `|` or `>` to the end of its last line's text).
#[derive(Clone, Debug, PartialEq)]
pub struct Spanned {
    pub start: usize,
    pub end: usize,
    pub written: Written,
}

/// What is written at a span.
#[derive(Clone, Debug, PartialEq)]
pub enum Written {
    /// A scalar, and where its tag is written when it has one (`!!binary`):
    /// a new value is written without it.
    Scalar {
        style: Style,
        tag: Option<(usize, usize)>,
    },
    /// An alias (`*name`): a copy of an anchored node.
    Alias,
    /// A list, in flow style (`[a, b]`, JSON) or block style (`- a`).
    Seq { flow: bool, items: Vec<Spanned> },
    /// A mapping, in flow style (`{a: 1}`, JSON) or block style, each key
    /// with its value (merge keys and repeated keys as written).
    Map {
        flow: bool,
        entries: Vec<(Spanned, Spanned)>,
    },
}

impl Spanned {
    /// True when the node is a flow collection (or JSON).
    pub fn is_flow(&self) -> bool {
        match &self.written {
            Written::Seq { flow, .. } | Written::Map { flow, .. } => *flow,
            Written::Scalar { .. } | Written::Alias => false,
        }
    }
}

/// The spans of a text: the syntax it was read in and each document's root,
/// in the order [`super::Reader`] gives the documents (null documents left
/// out, as it leaves them out).
#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    pub syntax: Syntax,
    pub documents: Vec<Spanned>,
}

/// Reads the spans of `text`; `None` when it cannot be read (a text the
/// reader has read never is).
pub fn layout(text: &str) -> Option<Layout> {
    if Syntax::sniff(text) == Syntax::Json && json::is_stream(text) {
        if let Some(documents) = json_spans(text) {
            return Some(Layout {
                syntax: Syntax::Json,
                documents,
            });
        }
    }
    Some(Layout {
        syntax: Syntax::Yaml,
        documents: yaml(text)?,
    })
}

/// The spans of a JSON stream's documents, from the JSON reader's tokens,
/// `null` documents left out as the reader leaves them out.
fn json_spans(text: &str) -> Option<Vec<Spanned>> {
    let mut tree = Tree::default();
    let mut documents = Vec::new();
    for token in json::tokens(text)? {
        match token {
            Token::Open { at, map } => tree.open(at, true, map),
            Token::Close { end } => tree.close(Some(end)),
            Token::Scalar { start, end, quoted } => {
                if tree.at_root() && !quoted && text.get(start..end) == Some("null") {
                    continue;
                }
                let style = if quoted {
                    Style::DoubleQuoted
                } else {
                    Style::Plain
                };
                tree.leaf(Spanned {
                    start,
                    end,
                    written: Written::Scalar { style, tag: None },
                });
            }
        }
        documents.extend(tree.take_root());
    }
    tree.at_root().then_some(documents)
}

/// The spans of a YAML stream's documents, from the parser's events.
fn yaml(text: &str) -> Option<Vec<Spanned>> {
    let offsets = CharOffsets::new(text);
    let mut parser = Parser::new_from_str(text);
    let mut tree = Tree::default();
    let mut documents = Vec::new();
    loop {
        let (event, mark) = parser.next_token().ok()?;
        if parser.unprintable() {
            return None;
        }
        let start = offsets.byte(mark.index());
        match event {
            Event::StreamEnd => return Some(documents),
            Event::Scalar(value, style, _, tag) => {
                let end = parser
                    .scalar_end()
                    .map_or(start, |end| offsets.byte(end.index()));
                if tree.at_root() {
                    let tag = tag
                        .as_ref()
                        .map(|tag| StandardTag::from_parts(&tag.handle, &tag.suffix));
                    let plain = style == TScalarStyle::Plain;
                    if let Ok(Value::Null) = scalar::resolve(value.into(), plain, tag, Syntax::Yaml)
                    {
                        continue;
                    }
                }
                let mut span = scalar_span(text, start, end, style);
                if tag.is_some() {
                    if let Written::Scalar { tag, .. } = &mut span.written {
                        *tag = tag_before(text, span.start);
                    }
                }
                tree.leaf(span);
            }
            Event::Alias(_) => {
                let name = text.get(start + 1..).unwrap_or("");
                let length = name
                    .find(|c: char| c.is_whitespace() || ",[]{}".contains(c))
                    .unwrap_or(name.len());
                tree.leaf(Spanned {
                    start,
                    end: start + 1 + length,
                    written: Written::Alias,
                });
            }
            Event::SequenceStart(..) | Event::MappingStart(..) => {
                let opener = text.as_bytes().get(start).copied();
                let map = matches!(event, Event::MappingStart(..));
                let flow = opener == Some(if map { b'{' } else { b'[' });
                tree.open(start, flow, map);
            }
            Event::SequenceEnd | Event::MappingEnd => {
                let closer = text.as_bytes().get(start).copied();
                let closed = matches!(closer, Some(b']' | b'}')).then_some(start + 1);
                tree.close(closed);
            }
            Event::DocumentEnd => documents.extend(tree.take_root()),
            Event::Nothing | Event::StreamStart | Event::DocumentStart => {}
        }
    }
}

/// A scalar's span. The parser marks a block scalar at its first line of
/// content and ends it after the lines that follow it; its span runs from
/// its indicator to the end of its text.
fn scalar_span(text: &str, start: usize, end: usize, style: TScalarStyle) -> Spanned {
    let style = match style {
        TScalarStyle::Plain => Style::Plain,
        TScalarStyle::SingleQuoted => Style::SingleQuoted,
        TScalarStyle::DoubleQuoted => Style::DoubleQuoted,
        TScalarStyle::Literal => Style::Literal,
        TScalarStyle::Folded => Style::Folded,
    };
    let (start, end) = match style {
        Style::Literal | Style::Folded => {
            let indicator = if style == Style::Literal { '|' } else { '>' };
            let before = text.get(..start).unwrap_or("");
            let start = before.rfind(indicator).unwrap_or(start);
            let after = text.get(start..end.max(start)).unwrap_or("");
            (start, start + after.trim_end().len())
        }
        _ => (start, end.max(start)),
    };
    Spanned {
        start,
        end,
        written: Written::Scalar { style, tag: None },
    }
}

/// Where the tag of a scalar starting at `start` is written: one of the
/// two words before it (a tag and an anchor come in either order).
fn tag_before(text: &str, start: usize) -> Option<(usize, usize)> {
    let mut end = start;
    for _ in 0..2 {
        let before = text.get(..end)?.trim_end_matches([' ', '\t']);
        let word_start = before
            .char_indices()
            .rev()
            .find(|(_, c)| c.is_whitespace())
            .map_or(0, |(at, c)| at + c.len_utf8());
        let word = &before[word_start..];
        if word.starts_with('!') {
            return Some((word_start, before.len()));
        }
        if !word.starts_with('&') {
            return None;
        }
        end = word_start;
    }
    None
}

/// The builder of a span tree, for the YAML parser's events and the JSON
/// lexer alike.
#[derive(Default)]
struct Tree {
    stack: Vec<Open>,
    root: Option<Spanned>,
}

/// An open collection and the spans of what it holds so far (a mapping's
/// keys and values alternate).
struct Open {
    start: usize,
    flow: bool,
    map: bool,
    children: Vec<Spanned>,
}

impl Tree {
    /// True when the next node is a document's root.
    fn at_root(&self) -> bool {
        self.stack.is_empty()
    }

    fn open(&mut self, start: usize, flow: bool, map: bool) {
        self.stack.push(Open {
            start,
            flow,
            map,
            children: Vec::new(),
        });
    }

    /// Closes the innermost collection; `closed` is where its closing
    /// bracket ends (flow style), else it ends with its last child.
    fn close(&mut self, closed: Option<usize>) {
        let Some(open) = self.stack.pop() else {
            return;
        };
        let end = closed.unwrap_or_else(|| open.children.last().map_or(open.start, |c| c.end));
        // A block mapping is marked where its first key's `:` is found.
        let start = match open.children.first() {
            Some(first) if !open.flow => first.start.min(open.start),
            _ => open.start,
        };
        let written = if open.map {
            let mut entries = Vec::with_capacity(open.children.len() / 2);
            let mut children = open.children.into_iter();
            while let (Some(key), Some(value)) = (children.next(), children.next()) {
                entries.push((key, value));
            }
            Written::Map {
                flow: open.flow,
                entries,
            }
        } else {
            Written::Seq {
                flow: open.flow,
                items: open.children,
            }
        };
        self.leaf(Spanned {
            start,
            end,
            written,
        });
    }

    /// Places a finished node in its collection, or makes it the root.
    fn leaf(&mut self, node: Spanned) {
        match self.stack.last_mut() {
            Some(open) => open.children.push(node),
            None => self.root = Some(node),
        }
    }

    /// The document's root once it is complete.
    fn take_root(&mut self) -> Option<Spanned> {
        if self.stack.is_empty() {
            self.root.take()
        } else {
            None
        }
    }
}

/// Byte offsets of the parser's marks, which count characters. A text in
/// ASCII needs no table; any other keeps the offset of every 64th
/// character (a sixteenth of the text's size at most) and counts from there.
struct CharOffsets<'a> {
    text: &'a str,
    checkpoints: Option<Vec<usize>>,
}

const CHECKPOINT_EVERY: usize = 64;

impl<'a> CharOffsets<'a> {
    fn new(text: &'a str) -> CharOffsets<'a> {
        let checkpoints = (!text.is_ascii()).then(|| {
            text.char_indices()
                .step_by(CHECKPOINT_EVERY)
                .map(|(at, _)| at)
                .collect()
        });
        CharOffsets { text, checkpoints }
    }

    /// The byte offset of the character at `index` (the text's length past
    /// its end).
    fn byte(&self, index: usize) -> usize {
        let length = self.text.len();
        let Some(checkpoints) = &self.checkpoints else {
            return index.min(length);
        };
        let Some(&from) = checkpoints.get(index / CHECKPOINT_EVERY) else {
            return length;
        };
        self.text[from..]
            .char_indices()
            .nth(index % CHECKPOINT_EVERY)
            .map_or(length, |(at, _)| from + at)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text_of<'t>(text: &'t str, node: &Spanned) -> &'t str {
        &text[node.start..node.end]
    }

    fn entries(node: &Spanned) -> &[(Spanned, Spanned)] {
        match &node.written {
            Written::Map { entries, .. } => entries,
            other => panic!("not a mapping: {other:?}"),
        }
    }

    #[test]
    fn block_and_flow_nodes_span_their_text() {
        let text = "# head\na: &a 1 # one\nb: [cat, -]\nc: {x: 'y z'}\nd:\n  - \"q\\\"\"\n  - plain text\ne: |\n  line\n  more\n\nf: *a\n";
        let read = layout(text).unwrap();
        assert_eq!(read.syntax, Syntax::Yaml);
        let root = &read.documents[0];
        assert!(!root.is_flow());
        let found: Vec<(&str, &str)> = entries(root)
            .iter()
            .map(|(key, value)| (text_of(text, key), text_of(text, value)))
            .collect();
        assert_eq!(
            found,
            [
                ("a", "1"),
                ("b", "[cat, -]"),
                ("c", "{x: 'y z'}"),
                ("d", "- \"q\\\"\"\n  - plain text"),
                ("e", "|\n  line\n  more"),
                ("f", "*a"),
            ]
        );
        assert!(entries(root)[1].1.is_flow());
        assert_eq!(text_of(text, root), &text[7..text.len() - 1]);
    }

    #[test]
    fn documents_follow_the_reader_and_offsets_count_bytes() {
        let text = "---\n~\n---\nä: \"ö\" # ü\nb: ü\n...\n---\nc: d\n";
        let read = layout(text).unwrap();
        assert_eq!(read.documents.len(), 2);
        let first = entries(&read.documents[0]);
        assert_eq!(text_of(text, &first[0].0), "ä");
        assert_eq!(text_of(text, &first[0].1), "\"ö\"");
        assert_eq!(text_of(text, &first[1].1), "ü");
        assert_eq!(text_of(text, &entries(&read.documents[1])[0].1), "d");
        let long = format!("a: {}\nb: c\n", "é".repeat(300));
        let read = layout(&long).unwrap();
        assert_eq!(text_of(&long, &entries(&read.documents[0])[1].1), "c");
    }

    #[test]
    fn json_streams_span_their_text() {
        let text = "{\"a\": [1, \"x\\\"\"],\n \"b\": {}}\nnull\n{\"c\": true}";
        let read = layout(text).unwrap();
        assert_eq!(read.syntax, Syntax::Json);
        assert_eq!(read.documents.len(), 2);
        let first = entries(&read.documents[0]);
        assert_eq!(text_of(text, &first[0].1), "[1, \"x\\\"\"]");
        assert_eq!(text_of(text, &first[1].0), "\"b\"");
        assert_eq!(text_of(text, &first[1].1), "{}");
        assert_eq!(text_of(text, &read.documents[1]), "{\"c\": true}");
        // A `{` text that is not JSON is YAML, as the reader reads it.
        let read = layout("{a: yes}").unwrap();
        assert_eq!(read.syntax, Syntax::Yaml);
    }
}
