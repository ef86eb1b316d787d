//! A fast reader for the block-style YAML that manifests are written in,
//! which declines everything else.
//!
//! Most manifests use a small part of YAML: block mappings and sequences
//! indented with spaces, plain and quoted scalars (on one line or folded
//! over several), literal block scalars (`|`), one-line flow collections
//! (`[a, b]`, `{}`) and comments. This reader reads that part several
//! times faster than the full parser, by looking at whole lines instead of
//! scanning character by character, and builds the tree directly: the same
//! nodes, on the same lines, with scalars resolved by the same
//! [`scalar::resolve`], as the full parser (`yaml/`, which scans as go-yaml
//! v2) and the tree builder of `reader.rs` give.
//!
//! It never decides anything the full path would decide differently: on
//! anything outside that part (anchors, aliases, tags, directives, tabs,
//! CRLF, folded `>` scalars, explicit keys, control characters, a key
//! written twice, a merge key, a key that is not a string, a line it
//! cannot place, an error of any kind) it returns `None`, and the caller
//! reads the same text with the full parser, whose builder reports what
//! needs reporting. `tests/yaml_fast_path.rs` holds it to that: on the
//! YAML test suite, the repository's YAML, mutated copies of it and
//! generated folded scalars, what it reads equals what the full path reads.

use super::scalar::{self, Syntax};
use super::{CompactString, Document, Entry, Node, Value};

/// Nesting the fast reader follows before it declines (its functions
/// recurse once per level; the full parser's limit is far higher).
const MAX_FAST_DEPTH: usize = 64;

/// The longest key the fast reader reads (YAML's simple keys stop at 1024
/// characters; the full parser says so).
const MAX_KEY_BYTES: usize = 1000;

/// The document of `text` (a part of a stream, holding at most one
/// document: an optional `---` line, then block content), read by the fast
/// path: `Some(None)` when the part holds no document, `None` when the fast
/// path declines it.
pub(super) fn read(text: &str, line_offset: u32, syntax: Syntax) -> Option<Option<Document>> {
    if syntax != Syntax::Yaml || !plain_bytes(text.as_bytes()) {
        return None;
    }
    let mut cursor = Cursor::new(text.as_bytes());
    let mut marker_line = None;
    if is_marker_line(cursor.text) {
        let end = line_end(cursor.text, 0);
        if !blank_or_comment(&cursor.text[3..end]) {
            return None;
        }
        marker_line = Some(1);
        cursor.next_line();
    }
    let Some(first) = cursor.peek() else {
        // Only comments: no document (an explicit `---` gives a null
        // document, which readers leave out as well).
        return Some(None);
    };
    // A document is a mapping or a sequence here; a scalar document is
    // left to the full parser.
    if !is_entry(first.content) && key_end(first.content).is_none() {
        return None;
    }
    let document_line = marker_line.unwrap_or(first.line);
    let (entries, items) = STACKS.take();
    let mut reader = BlockReader {
        source: Source(text),
        cursor,
        line_offset,
        depth: 0,
        entries,
        items,
    };
    let root = reader.node_here(None);
    let rest = reader.cursor.peek();
    let (mut entries, mut items) = (reader.entries, reader.items);
    entries.clear();
    items.clear();
    STACKS.set((entries, items));
    let root = root.filter(|_| rest.is_none())?;
    Some(Some(Document {
        index: 0,
        line: document_line + line_offset,
        root,
        duplicate_keys: Vec::new(),
    }))
}

thread_local! {
    /// The reader's stacks (see [`BlockReader::entries`]), kept by each
    /// thread from one document to the next rather than grown anew.
    static STACKS: std::cell::Cell<(Vec<Entry>, Vec<Node>)> = const {
        std::cell::Cell::new((Vec::new(), Vec::new()))
    };
}

/// True when the text holds only bytes the fast path reads as written:
/// printable ASCII, newlines and UTF-8 outside the few characters YAML
/// treats specially (a byte order mark, NEL, the line and paragraph
/// separators, C1 controls and the non-characters U+FFFE/U+FFFF).
fn plain_bytes(bytes: &[u8]) -> bool {
    // Most texts are printable ASCII: checked 64 bytes at a time, without
    // branches, which the compiler turns into vector instructions.
    let printable = |byte: u8| (0x20..0x7f).contains(&byte) | (byte == b'\n');
    if bytes
        .chunks(64)
        .all(|chunk| chunk.iter().fold(true, |ok, byte| ok & printable(*byte)))
    {
        return true;
    }
    let mut at = 0;
    while at < bytes.len() {
        let byte = bytes[at];
        match byte {
            b'\n' | 0x20..=0x7e => at += 1,
            0xc2 => {
                // U+0080..U+009F: C1 controls and NEL.
                if bytes.get(at + 1).is_none_or(|next| *next < 0xa0) {
                    return false;
                }
                at += 2;
            }
            0xe2 if bytes.get(at + 1) == Some(&0x80)
                && matches!(bytes.get(at + 2), Some(0xa8 | 0xa9)) =>
            {
                return false
            }
            0xef if (bytes.get(at + 1) == Some(&0xbb) && bytes.get(at + 2) == Some(&0xbf))
                || (bytes.get(at + 1) == Some(&0xbf)
                    && matches!(bytes.get(at + 2), Some(0xbe | 0xbf))) =>
            {
                return false
            }
            0x80.. => at += 1,
            _ => return false,
        }
    }
    true
}

fn is_marker_line(text: &[u8]) -> bool {
    text.starts_with(b"---") && matches!(text.get(3), None | Some(b' ' | b'\n'))
}

/// The offset of the end of the line starting at or containing `from`.
fn line_end(text: &[u8], from: usize) -> usize {
    memchr::memchr(b'\n', &text[from..]).map_or(text.len(), |at| from + at)
}

/// True for nothing but spaces, or spaces then a comment.
fn blank_or_comment(rest: &[u8]) -> bool {
    let trimmed = trim_start(rest);
    trimmed.is_empty() || (trimmed[0] == b'#' && trimmed.len() < rest.len())
}

fn trim_start(bytes: &[u8]) -> &[u8] {
    let spaces = bytes.iter().take_while(|byte| **byte == b' ').count();
    &bytes[spaces..]
}

fn trim_end(bytes: &[u8]) -> &[u8] {
    let kept = bytes.len() - bytes.iter().rev().take_while(|byte| **byte == b' ').count();
    &bytes[..kept]
}

/// The text being read, to take `str` slices of it without validating
/// UTF-8 again (every cut the reader makes is at an ASCII byte).
#[derive(Clone, Copy)]
struct Source<'a>(&'a str);

impl<'a> Source<'a> {
    /// The text of `slice`, a part of the source's bytes.
    fn text(self, slice: &[u8]) -> Option<&'a str> {
        let start = (slice.as_ptr() as usize).checked_sub(self.0.as_ptr() as usize)?;
        self.0.get(start..start.checked_add(slice.len())?)
    }
}

/// The next line holding content: where its content starts (its column,
/// which is its indentation, or where a `- ` left off), the content up to
/// the line's end, and its 1-based line within the text.
#[derive(Clone, Copy)]
struct Line<'a> {
    column: usize,
    content: &'a [u8],
    line: u32,
}

/// Where reading stands: `pos` is in the line that starts at
/// `line_start` and ends at `line_end` (its newline, or the text's end).
/// A copy is a place to come back to.
#[derive(Clone, Copy)]
struct Cursor<'a> {
    text: &'a [u8],
    pos: usize,
    line_start: usize,
    line_end: usize,
    line: u32,
    /// The last line [`Cursor::peek`] gave and where it stood: a line is
    /// peeked several times (by the collection, the value, the check that
    /// nothing follows deeper).
    peeked: Option<(usize, Line<'a>)>,
}

impl<'a> Cursor<'a> {
    fn new(text: &'a [u8]) -> Cursor<'a> {
        Cursor {
            text,
            pos: 0,
            line_start: 0,
            line_end: line_end(text, 0),
            line: 1,
            peeked: None,
        }
    }

    /// Moves to the start of the line that starts at `start`, line `line`.
    fn start_line(&mut self, start: usize, line: u32) {
        self.pos = start;
        self.line_start = start;
        self.line_end = line_end(self.text, start);
        self.line = line;
    }

    /// Moves to the start of the next line (or the text's end).
    fn next_line(&mut self) {
        if self.line_end < self.text.len() {
            self.start_line(self.line_end + 1, self.line + 1);
        } else {
            self.pos = self.line_end;
        }
    }

    /// The next line holding content, skipping blank and comment-only
    /// lines (what is left of the current line counts as a line).
    #[inline]
    fn peek(&mut self) -> Option<Line<'a>> {
        match self.peeked {
            Some((at, line)) if at == self.pos => Some(line),
            _ => self.peek_again(),
        }
    }

    /// [`Cursor::peek`] where the line peeked last is not the one here.
    #[inline(never)]
    fn peek_again(&mut self) -> Option<Line<'a>> {
        loop {
            if self.pos >= self.text.len() {
                return None;
            }
            let end = self.line_end;
            let rest = &self.text[self.pos..end];
            let content = trim_start(rest);
            let column = self.pos - self.line_start + (rest.len() - content.len());
            if content.is_empty() || content[0] == b'#' {
                if end >= self.text.len() {
                    self.pos = end;
                    return None;
                }
                self.start_line(end + 1, self.line + 1);
                continue;
            }
            self.pos = end - content.len();
            let line = Line {
                column,
                content,
                line: self.line,
            };
            self.peeked = Some((self.pos, line));
            return Some(line);
        }
    }

    /// Moves past `bytes` bytes of the current line.
    fn advance(&mut self, bytes: usize) {
        self.pos += bytes;
    }

    /// Moves past `bytes` bytes of `line`, the line peeked last, to
    /// content that is neither blank nor a comment: what is left of the
    /// line is what [`Cursor::peek`] gives next, without looking again.
    fn advance_to(&mut self, line: Line<'a>, bytes: usize) {
        self.pos += bytes;
        let rest = Line {
            column: line.column + bytes,
            content: &line.content[bytes..],
            line: line.line,
        };
        self.peeked = Some((self.pos, rest));
    }
}

struct BlockReader<'a> {
    source: Source<'a>,
    cursor: Cursor<'a>,
    line_offset: u32,
    depth: usize,
    /// The entries of the mappings being read, innermost last: a mapping
    /// gathers its entries here and takes them out in one allocation of
    /// the right size (growing a vector per mapping would allocate and
    /// copy several times).
    entries: Vec<Entry>,
    /// The same for the items of the sequences being read.
    items: Vec<Node>,
}

/// A one-line scalar read from the text.
struct Scalar {
    text: CompactString,
    plain: bool,
}

impl<'a> BlockReader<'a> {
    /// A node on `line` of the part (a line of the file once offset).
    fn node(&self, value: Value, line: u32) -> Node {
        Node {
            value,
            line: line + self.line_offset,
        }
    }

    /// A scalar's node: resolved as the builder resolves it (YAML 1.1 for
    /// plain scalars, a string when quoted).
    fn scalar(&self, scalar: Scalar, line: u32) -> Option<Node> {
        let value = if scalar.plain {
            scalar::resolve(scalar.text, true, None, Syntax::Yaml).ok()?
        } else {
            Value::String(scalar.text)
        };
        Some(self.node(value, line))
    }

    fn empty(&self, line: u32) -> Node {
        self.node(Value::Null, line)
    }

    /// A mapping key's text. Only keys that are strings as written are read
    /// here: a merge key (`<<`), a key that resolves to a null, a number or
    /// a boolean is left to the full path and its builder.
    fn key(&self, key: Scalar) -> Option<CompactString> {
        if !key.plain {
            return Some(key.text);
        }
        if key.text == "<<" {
            return None;
        }
        match scalar::resolve(key.text, true, None, Syntax::Yaml).ok()? {
            Value::String(text) => Some(text),
            _ => None,
        }
    }

    fn enter(&mut self) -> Option<()> {
        self.depth += 1;
        (self.depth <= MAX_FAST_DEPTH).then_some(())
    }

    /// The node that starts where the cursor is (the content of the
    /// current line): a sequence, a mapping or a one-line value. `parent`
    /// is the column of the collection holding it (`None` at the root).
    fn node_here(&mut self, parent: Option<usize>) -> Option<Node> {
        let Line {
            column, content, ..
        } = self.cursor.peek()?;
        if parent.is_some_and(|parent| column <= parent) {
            return None;
        }
        if is_entry(content) {
            self.sequence(column)
        } else if let Some(colon) = key_end(content) {
            self.mapping(column, colon)
        } else {
            self.inline_value(parent, parent)
        }
    }

    /// The value of a key or sequence entry written on the lines after it:
    /// a nested block node, an indentless sequence (`key:` then `- a` at
    /// the key's column, when `indentless`), or nothing (null).
    fn value_below(&mut self, parent: usize, indentless: bool, line: u32) -> Option<Node> {
        match self.cursor.peek() {
            Some(next) if next.column > parent => self.node_here(Some(parent)),
            Some(next) if indentless && next.column == parent && is_entry(next.content) => {
                self.sequence(parent)
            }
            Some(next) => Some(self.empty(next.line.max(line))),
            // At the end of a text without its last newline, the full
            // parser's line for the null differs by case: left to it.
            None if !self.cursor.text.ends_with(b"\n") => None,
            None => Some(self.empty(self.cursor.line.max(line))),
        }
    }

    fn sequence(&mut self, column: usize) -> Option<Node> {
        self.enter()?;
        let first = self.cursor.peek()?;
        let start = self.items.len();
        while let Some(line) = self.cursor.peek() {
            if line.column < column {
                break;
            }
            if line.column > column {
                return None;
            }
            if !is_entry(line.content) {
                // A key at the column of an indentless sequence: the
                // mapping holding it goes on.
                break;
            }
            let rest = &line.content[1..];
            let item = if blank_or_comment(rest) {
                self.cursor.advance(1);
                self.cursor.next_line();
                self.value_below(column, false, line.line)?
            } else {
                self.cursor.advance_to(line, 1 + spaces(rest));
                self.node_here(Some(column))?
            };
            self.items.push(item);
        }
        self.depth -= 1;
        let items = self.items.split_off(start);
        Some(self.node(Value::Seq(items), first.line))
    }

    /// A block mapping at `column`; the colon of its first key, at
    /// `first_colon`, is known.
    fn mapping(&mut self, column: usize, first_colon: usize) -> Option<Node> {
        self.enter()?;
        let first = self.cursor.peek()?;
        let start = self.entries.len();
        let mut known_colon = Some(first_colon);
        while let Some(line) = self.cursor.peek() {
            if line.column < column {
                break;
            }
            if line.column > column || is_entry(line.content) {
                return None;
            }
            let colon = match known_colon.take() {
                Some(colon) => colon,
                None => key_end(line.content)?,
            };
            let (key, after) = read_key(self.source, line.content, colon)?;
            let key = self.key(key)?;
            let rest = &line.content[after..];
            let value = if blank_or_comment(rest) {
                self.cursor.advance(after);
                self.cursor.next_line();
                self.value_below(column, true, line.line)?
            } else {
                self.cursor.advance_to(line, after + spaces(rest));
                self.inline_value(Some(column), Some(column))?
            };
            self.entries.push(Entry {
                key,
                line: line.line + self.line_offset,
                value,
            });
        }
        self.depth -= 1;
        if has_duplicate_keys(&self.entries[start..]) {
            return None;
        }
        let entries = self.entries.split_off(start);
        Some(self.node(Value::Map(entries), first.line))
    }

    /// A value written on the current line: a quoted or plain scalar, a
    /// literal block scalar or a one-line flow collection. Nothing of it
    /// may continue on a later line deeper than `owner` (the column of
    /// the collection holding the value; at the root, no line may follow).
    fn inline_value(&mut self, owner: Option<usize>, parent: Option<usize>) -> Option<Node> {
        let line = self.cursor.peek()?;
        let content = line.content;
        let node = match content[0] {
            b'|' => return self.literal(content, parent),
            b'[' | b'{' => {
                let (node, used) = self.flow(content, line.line)?;
                if !blank_or_comment(&content[used..]) {
                    return None;
                }
                self.cursor.next_line();
                node
            }
            b'"' | b'\'' => match quoted(self.source, content) {
                Some((scalar, used)) => {
                    if !blank_or_comment(&content[used..]) {
                        return None;
                    }
                    self.cursor.next_line();
                    self.scalar(scalar, line.line)?
                }
                None => {
                    let scalar = self.multi_line_quoted(owner?)?;
                    self.scalar(scalar, line.line)?
                }
            },
            _ => {
                let (mut scalar, commented) = plain_value(self.source, content)?;
                self.cursor.next_line();
                if !commented {
                    if let Some(owner) = owner {
                        self.plain_continuation(&mut scalar.text, owner)?;
                    }
                }
                self.scalar(scalar, line.line)?
            }
        };
        self.nothing_deeper(owner)?;
        Some(node)
    }

    /// Fails when the next line holding content is deeper than `owner`
    /// (at the root, when there is one).
    fn nothing_deeper(&mut self, owner: Option<usize>) -> Option<()> {
        match self.cursor.peek() {
            Some(next) if owner.is_none_or(|owner| next.column > owner) => None,
            _ => Some(()),
        }
    }

    /// The lines that continue a plain scalar (deeper than `owner`), folded
    /// into `text` as YAML folds them: one line break becomes a space, `n`
    /// empty lines become `n` newlines. The cursor is at the start of the
    /// line after the scalar's first; it ends after the last line used.
    fn plain_continuation(&mut self, text: &mut CompactString, owner: usize) -> Option<()> {
        // Mostly the next line holding content is not deeper, and nothing
        // continues the scalar: the peek that says so is the one the
        // caller makes next (that nothing follows deeper).
        let before = self.cursor;
        match self.cursor.peek() {
            Some(next) if next.column > owner => self.cursor = before,
            _ => return Some(()),
        }
        let bytes = self.cursor.text;
        loop {
            let (mut pos, mut line, mut empty) = (self.cursor.pos, self.cursor.line, 0);
            let (content, end) = loop {
                if pos >= bytes.len() || pos != self.cursor.line_start && empty == 0 {
                    return Some(());
                }
                let end = line_end(bytes, pos);
                let raw = &bytes[pos..end];
                let content = trim_start(raw);
                if !content.is_empty() {
                    if raw.len() - content.len() <= owner || content[0] == b'#' {
                        return Some(());
                    }
                    break (content, end);
                }
                if end >= bytes.len() {
                    return Some(());
                }
                empty += 1;
                pos = end + 1;
                line += 1;
            };
            // A continuation line that could be read as structure or
            // holds a comment is left to the full parser.
            if !plain_start(content) || content[0] == b'-' {
                return None;
            }
            let (more, commented) = plain_value(self.source, content)?;
            if commented {
                return None;
            }
            if empty == 0 {
                text.push(' ');
            }
            for _ in 0..empty {
                text.push('\n');
            }
            text.push_str(&more.text);
            if end >= bytes.len() {
                self.cursor.start_line(pos, line);
                self.cursor.pos = end;
                return Some(());
            }
            self.cursor.start_line(end + 1, line + 1);
        }
    }

    /// A quoted scalar that starts at the cursor and closes on a later
    /// line, its lines deeper than `owner`, folded as YAML folds flow
    /// scalars. The cursor ends on the line after it.
    fn multi_line_quoted(&mut self, owner: usize) -> Option<Scalar> {
        let bytes = self.cursor.text;
        let start = self.cursor.pos;
        let quote = bytes[start];
        let mut at = start + 1;
        // The closing quote, across lines.
        let close = loop {
            let byte = *bytes.get(at)?;
            match byte {
                b'\\' if quote == b'"' => at += 2,
                b'\'' if quote == b'\'' && bytes.get(at + 1) == Some(&b'\'') => at += 2,
                _ if byte == quote => break at,
                _ => at += 1,
            }
        };
        let inner = self.source.text(&bytes[start + 1..close])?;
        let lines: Vec<&str> = inner.split('\n').collect();
        let mut text = String::with_capacity(inner.len());
        let mut empty = 0;
        let mut escaped_break = false;
        for (index, raw) in lines.iter().enumerate() {
            let first = index == 0;
            let last = index + 1 == lines.len();
            let mut segment = *raw;
            if !first {
                let stripped = segment.trim_start_matches(' ');
                if (!stripped.is_empty() || last) && segment.len() - stripped.len() <= owner {
                    return None;
                }
                segment = stripped;
                if segment.is_empty() && !last {
                    if escaped_break {
                        return None;
                    }
                    empty += 1;
                    continue;
                }
                if !escaped_break {
                    if empty == 0 {
                        text.push(' ');
                    }
                    for _ in 0..empty {
                        text.push('\n');
                    }
                }
                empty = 0;
            }
            escaped_break = false;
            if !last {
                let trailing_backslashes = segment.len() - segment.trim_end_matches('\\').len();
                if quote == b'"' && trailing_backslashes % 2 == 1 {
                    escaped_break = true;
                    segment = &segment[..segment.len() - 1];
                } else {
                    let trimmed = segment.trim_end_matches(' ');
                    if trimmed.len() < segment.len() && trimmed.ends_with('\\') {
                        return None;
                    }
                    segment = trimmed;
                }
            }
            if quote == b'"' {
                text.push_str(&unescape(segment)?);
            } else {
                text.push_str(&segment.replace("''", "'"));
            }
        }
        let end = line_end(bytes, close);
        if !blank_or_comment(&bytes[close + 1..end]) {
            return None;
        }
        let last_start = close - lines.last().map_or(0, |last| last.len());
        self.cursor
            .start_line(last_start, self.cursor.line + lines.len() as u32 - 1);
        self.cursor.next_line();
        Some(Scalar {
            text: text.into(),
            plain: false,
        })
    }

    /// A literal block scalar (`|`, `|-`, `|+`) whose header is `header`;
    /// its lines follow, indented deeper than `parent`.
    fn literal(&mut self, header: &[u8], parent: Option<usize>) -> Option<Node> {
        let (chomp, rest) = match header.get(1) {
            Some(b'-') => (Chomp::Strip, &header[2..]),
            Some(b'+') => (Chomp::Keep, &header[2..]),
            _ => (Chomp::Clip, &header[1..]),
        };
        if !blank_or_comment(rest) {
            return None;
        }
        let minimum = parent.map_or(0, |parent| parent + 1);
        let text = self.cursor.text;
        self.cursor.next_line();
        // The lines of the scalar: up to the first non-blank line indented
        // less than its content.
        let mut lines: Vec<&[u8]> = Vec::new();
        let mut indent = None;
        let mut first_content_line = self.cursor.line;
        let mut longest_blank = 0;
        while self.cursor.pos < text.len() && self.cursor.pos == self.cursor.line_start {
            let end = line_end(text, self.cursor.pos);
            let raw = &text[self.cursor.pos..end];
            let spaces = raw.len() - trim_start(raw).len();
            let blank = spaces == raw.len();
            match indent {
                None if blank => longest_blank = longest_blank.max(spaces),
                None if spaces < minimum.max(1) => break,
                None => {
                    if longest_blank > spaces {
                        return None;
                    }
                    indent = Some(spaces);
                    first_content_line = self.cursor.line;
                }
                Some(indent) if !blank && spaces < indent => break,
                Some(_) => {}
            }
            lines.push(raw);
            if end >= text.len() {
                // A last line without its newline (spaces too: go-yaml
                // gives it no break): left to the full parser.
                if !raw.is_empty() {
                    return None;
                }
                self.cursor.pos = end;
                break;
            }
            self.cursor.next_line();
        }
        let Some(indent) = indent else {
            // No content line: trailing blank lines stay for the parent.
            return None;
        };
        // Lines after the content that are blank belong to the scalar only
        // as trailing newlines; count them, keep the content.
        let mut value = String::new();
        let mut trailing = 0;
        for raw in &lines {
            if raw.len() <= indent && trim_start(raw).is_empty() {
                trailing += 1;
                continue;
            }
            for _ in 0..trailing {
                value.push('\n');
            }
            trailing = 0;
            value.push_str(self.source.text(&raw[indent..])?);
            value.push('\n');
        }
        match chomp {
            Chomp::Strip => {
                value.pop();
            }
            Chomp::Clip => {}
            Chomp::Keep => {
                let ended = self.cursor.pos >= text.len() && !text.ends_with(b"\n");
                for _ in 0..trailing {
                    value.push('\n');
                }
                if ended {
                    return None;
                }
            }
        }
        // The full parser marks a block scalar on its first content line.
        Some(self.node(Value::String(value.into()), first_content_line))
    }

    /// A flow collection that closes on its line, and the bytes it used.
    fn flow(&mut self, content: &[u8], line: u32) -> Option<(Node, usize)> {
        self.enter()?;
        let mapping = content[0] == b'{';
        let close = if mapping { b'}' } else { b']' };
        let mut items = Vec::new();
        let mut entries = Vec::new();
        let mut at = 1;
        at += spaces(&content[at..]);
        if content.get(at) != Some(&close) {
            loop {
                if mapping {
                    if matches!(content.get(at), Some(b'[' | b'{')) {
                        return None;
                    }
                    let (key, used) = self.flow_item(&content[at..], line)?;
                    // Strings only, and no merge key (see `key`).
                    let Value::String(key) = key.value else {
                        return None;
                    };
                    if key == "<<" {
                        return None;
                    }
                    at += used;
                    if content.get(at) != Some(&b':') || content.get(at + 1) != Some(&b' ') {
                        return None;
                    }
                    at += 1;
                    at += spaces(&content[at..]);
                    let (value, used) = self.flow_item(&content[at..], line)?;
                    at += used;
                    entries.push(Entry {
                        key,
                        line: line + self.line_offset,
                        value,
                    });
                } else {
                    let (item, used) = self.flow_item(&content[at..], line)?;
                    at += used;
                    items.push(item);
                }
                match content.get(at) {
                    Some(b',') => {
                        at += 1;
                        at += spaces(&content[at..]);
                        if matches!(content.get(at), Some(b']' | b'}' | b',')) {
                            return None;
                        }
                    }
                    Some(byte) if *byte == close => break,
                    _ => return None,
                }
            }
        }
        self.depth -= 1;
        let value = if mapping {
            if has_duplicate_keys(&entries) {
                return None;
            }
            Value::Map(entries)
        } else {
            Value::Seq(items)
        };
        Some((self.node(value, line), at + 1))
    }

    /// One item inside a flow collection: a nested flow collection, a
    /// quoted scalar or a plain scalar, and the bytes it used, trailing
    /// spaces included.
    fn flow_item(&mut self, content: &[u8], line: u32) -> Option<(Node, usize)> {
        let (node, used) = match content.first()? {
            b'[' | b'{' => self.flow(content, line)?,
            b'"' | b'\'' => {
                let (scalar, used) = quoted(self.source, content)?;
                (self.scalar(scalar, line)?, used)
            }
            _ => {
                // go-yaml ends a plain scalar in a flow at `?` too (`[0?]`
                // is an error): what follows is then declined.
                let len = content
                    .iter()
                    .position(|byte| {
                        matches!(byte, b',' | b'[' | b']' | b'{' | b'}' | b':' | b'#' | b'?')
                    })
                    .unwrap_or(content.len());
                let text = trim_end(&content[..len]);
                if text.is_empty() || !plain_start(text) {
                    return None;
                }
                let scalar = Scalar {
                    text: CompactString::new(self.source.text(text)?),
                    plain: true,
                };
                (self.scalar(scalar, line)?, len)
            }
        };
        Some((node, used + spaces(&content[used..])))
    }
}

/// True when a key is written twice: the full path's builder reports it
/// (and says which value wins), so the fast path declines.
fn has_duplicate_keys(entries: &[Entry]) -> bool {
    if entries.len() < 16 {
        // Keys marked in a 64-bit set by length and first byte: mostly
        // each key has a mark of its own, and no pair needs comparing.
        let mark = |key: &str| {
            let first = key.as_bytes().first().copied().unwrap_or(0);
            1u64 << ((key.len() * 7 + usize::from(first)) % 64)
        };
        let mut marks = 0u64;
        for (at, entry) in entries.iter().enumerate() {
            let key = entry.key.as_str();
            let mark = mark(key);
            if marks & mark != 0 && entries[..at].iter().any(|before| before.key == key) {
                return true;
            }
            marks |= mark;
        }
        return false;
    }
    let mut keys: Vec<&str> = entries.iter().map(|entry| entry.key.as_str()).collect();
    keys.sort_unstable();
    keys.windows(2).any(|pair| pair[0] == pair[1])
}

#[derive(Clone, Copy)]
enum Chomp {
    Strip,
    Clip,
    Keep,
}

fn spaces(bytes: &[u8]) -> usize {
    bytes.iter().take_while(|byte| **byte == b' ').count()
}

/// True for a sequence entry: `-` followed by a space or the line's end.
fn is_entry(content: &[u8]) -> bool {
    content[0] == b'-' && matches!(content.get(1), None | Some(b' '))
}

/// True when a plain scalar may start with these bytes: no indicator, or
/// a `-` followed by a character that is not a space (`--flag`, `-1`).
fn plain_start(text: &[u8]) -> bool {
    match text[0] {
        b'-' => text.get(1).is_some_and(|next| *next != b' '),
        b'?' | b':' | b',' | b'[' | b']' | b'{' | b'}' | b'#' | b'&' | b'*' | b'!' | b'|'
        | b'>' | b'\'' | b'"' | b'%' | b'@' | b'`' => false,
        _ => true,
    }
}

/// Where the key of a `key: value` line ends (the offset of its `:`), for
/// a plain or quoted key; `None` when the line is no such line.
fn key_end(content: &[u8]) -> Option<usize> {
    match content[0] {
        b'"' | b'\'' => {
            let used = quoted_len(content)?;
            let colon = used + spaces(&content[used..]);
            (content.get(colon) == Some(&b':') && separated(content, colon)).then_some(colon)
        }
        _ => {
            let colon = indicator_colon(content)?;
            Some(colon)
        }
    }
}

/// What ends the plain text at the start of a line's content.
enum Stop {
    /// A `:` followed by a space or the line's end: the text is a key.
    Colon(usize),
    /// A `#` after a space: a comment starts here.
    Comment(usize),
    /// Neither: the text runs to the line's end.
    End,
}

/// Where the plain text at the start of `content` stops (see [`Stop`]).
fn plain_stop(content: &[u8]) -> Stop {
    let mut at = 0;
    while let Some(found) = content[at..]
        .iter()
        .position(|byte| matches!(byte, b':' | b'#'))
    {
        let index = at + found;
        if content[index] == b'#' {
            if index > 0 && content[index - 1] == b' ' {
                return Stop::Comment(index);
            }
        } else if separated(content, index) {
            return Stop::Colon(index);
        }
        at = index + 1;
    }
    Stop::End
}

/// The first `:` followed by a space or the line's end, before any
/// comment; `None` when there is none.
fn indicator_colon(content: &[u8]) -> Option<usize> {
    match plain_stop(content) {
        Stop::Colon(index) => Some(index),
        Stop::Comment(_) | Stop::End => None,
    }
}

/// True when the byte after `index` is a space or the line's end.
fn separated(content: &[u8], index: usize) -> bool {
    matches!(content.get(index + 1), None | Some(b' '))
}

/// The key of a `key: value` line whose colon is at `colon` (see
/// [`key_end`]), and the bytes up to its value.
fn read_key(source: Source<'_>, content: &[u8], colon: usize) -> Option<(Scalar, usize)> {
    if colon > MAX_KEY_BYTES {
        return None;
    }
    let key = match content[0] {
        b'"' | b'\'' => quoted(source, content)?.0,
        _ => {
            let text = trim_end(&content[..colon]);
            if text.is_empty() || !plain_start(text) {
                return None;
            }
            Scalar {
                text: CompactString::new(source.text(text)?),
                plain: true,
            }
        }
    };
    Some((key, colon + 1))
}

/// A plain scalar that is the rest of its line, and whether a comment
/// follows it (left out). `None` for anything that would make it a key.
fn plain_value(source: Source<'_>, content: &[u8]) -> Option<(Scalar, bool)> {
    if !plain_start(content) {
        return None;
    }
    let (end, commented) = match plain_stop(content) {
        Stop::Colon(_) => return None,
        Stop::Comment(index) => (index, true),
        Stop::End => (content.len(), false),
    };
    let text = trim_end(&content[..end]);
    let scalar = Scalar {
        text: CompactString::new(source.text(text)?),
        plain: true,
    };
    Some((scalar, commented))
}

/// The length of a quoted scalar that closes on its line.
fn quoted_len(content: &[u8]) -> Option<usize> {
    let quote = content[0];
    let mut at = 1;
    loop {
        let byte = *content.get(at)?;
        if quote == b'\'' && byte == b'\'' {
            if content.get(at + 1) == Some(&b'\'') {
                at += 2;
                continue;
            }
            return Some(at + 1);
        }
        if quote == b'"' {
            if byte == b'\\' {
                at += 2;
                continue;
            }
            if byte == b'"' {
                return Some(at + 1);
            }
        }
        at += 1;
    }
}

/// A quoted scalar that closes on its line, and the bytes it used.
fn quoted(source: Source<'_>, content: &[u8]) -> Option<(Scalar, usize)> {
    let used = quoted_len(content)?;
    let inner = &content[1..used - 1];
    let text = if content[0] != b'\'' {
        unescape(source.text(inner)?)?
    } else if memchr::memchr(b'\'', inner).is_some() {
        CompactString::new(source.text(inner)?.replace("''", "'"))
    } else {
        CompactString::new(source.text(inner)?)
    };
    Some((Scalar { text, plain: false }, used))
}

/// The text of a double-quoted scalar's inside; `None` for an escape the
/// fast path leaves to the full parser.
fn unescape(inner: &str) -> Option<CompactString> {
    if memchr::memchr(b'\\', inner.as_bytes()).is_none() {
        return Some(CompactString::new(inner));
    }
    let mut text = CompactString::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            text.push(c);
            continue;
        }
        let escaped = match chars.next()? {
            '0' => '\0',
            'a' => '\x07',
            'b' => '\x08',
            't' => '\t',
            'n' => '\n',
            'v' => '\x0b',
            'f' => '\x0c',
            'r' => '\r',
            'e' => '\x1b',
            ' ' => ' ',
            '"' => '"',
            // Not JSON's `\/` (YAML 1.2's), which go-yaml refuses: declined,
            // for the full parser to refuse (and `\'`, which go-yaml reads
            // and YAML 1.2 does not, is left to it too).
            '\\' => '\\',
            'N' => '\u{85}',
            '_' => '\u{a0}',
            'L' => '\u{2028}',
            'P' => '\u{2029}',
            'x' => hex(&mut chars, 2)?,
            'u' => hex(&mut chars, 4)?,
            'U' => hex(&mut chars, 8)?,
            _ => return None,
        };
        text.push(escaped);
    }
    Some(text)
}

fn hex(chars: &mut std::str::Chars<'_>, digits: usize) -> Option<char> {
    let mut code = 0u32;
    for _ in 0..digits {
        code = code * 16 + chars.next()?.to_digit(16)?;
    }
    char::from_u32(code)
}
