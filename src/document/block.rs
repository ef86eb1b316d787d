//! A fast reader for the block-style YAML that manifests are written in,
//! which declines everything else.
//!
//! Most manifests use a small part of YAML: block mappings and sequences
//! indented with spaces, one-line plain and quoted scalars, literal block
//! scalars (`|`), one-line flow collections (`[a, b]`, `{}`) and comments.
//! This reader reads that part several times faster than the full parser,
//! by looking at whole lines instead of scanning character by character,
//! and hands the same events, on the same lines, to the same [`Builder`]
//! (so scalars resolve, duplicate keys and merge keys are handled, and
//! limits apply exactly as on the full path).
//!
//! It never decides anything the full parser would decide differently: on
//! anything outside that part (anchors, aliases, tags, directives, tabs,
//! multi-line plain or quoted scalars, folded scalars, explicit keys,
//! control characters, a line it cannot place, an error of any kind) it
//! returns `None`, and the caller reads the same text with the full parser.
//! `tests/yaml_fast_path.rs` holds it to that: on the YAML test suite, the
//! repository's manifests and mutated copies of them, what it reads equals
//! what the full parser reads.

use super::reader::Builder;
use super::scalar::Syntax;
use super::Document;
use std::sync::atomic::AtomicUsize;
use yaml_rust2::parser::Event;
use yaml_rust2::scanner::TScalarStyle;

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
pub(super) fn read(
    text: &str,
    line_offset: u32,
    syntax: Syntax,
    budget: &AtomicUsize,
) -> Option<Option<Document>> {
    if syntax != Syntax::Yaml || !plain_bytes(text.as_bytes()) {
        return None;
    }
    let mut cursor = Cursor {
        text: text.as_bytes(),
        pos: 0,
        line_start: 0,
        line: 1,
    };
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
    let mut reader = BlockReader {
        cursor,
        builder: Builder::new(syntax, document_line + line_offset),
        budget,
        line_offset,
        depth: 0,
    };
    reader.node_here(None)?;
    if reader.cursor.peek().is_some() {
        return None;
    }
    Some(Some(reader.builder.finish()))
}

/// True when the text holds only bytes the fast path reads as written:
/// printable ASCII, newlines and UTF-8 outside the few characters YAML
/// treats specially (a byte order mark, NEL, the line and paragraph
/// separators, C1 controls and the non-characters U+FFFE/U+FFFF).
fn plain_bytes(bytes: &[u8]) -> bool {
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
    memchr(b'\n', &text[from..]).map_or(text.len(), |at| from + at)
}

fn memchr(needle: u8, haystack: &[u8]) -> Option<usize> {
    haystack.iter().position(|byte| *byte == needle)
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

/// The next line holding content: where its content starts (its column,
/// which is its indentation, or where a `- ` left off), the content up to
/// the line's end, and its 1-based line within the text.
#[derive(Clone, Copy)]
struct Line<'a> {
    column: usize,
    content: &'a [u8],
    line: u32,
}

/// Where reading stands: `pos` is in the line starting at `line_start`.
struct Cursor<'a> {
    text: &'a [u8],
    pos: usize,
    line_start: usize,
    line: u32,
}

impl<'a> Cursor<'a> {
    /// Moves to the start of the next line.
    fn next_line(&mut self) {
        let end = line_end(self.text, self.pos);
        if end < self.text.len() {
            self.pos = end + 1;
            self.line_start = self.pos;
            self.line += 1;
        } else {
            self.pos = end;
        }
    }

    /// The next line holding content, skipping blank and comment-only
    /// lines (what is left of the current line counts as a line).
    fn peek(&mut self) -> Option<Line<'a>> {
        loop {
            if self.pos >= self.text.len() {
                return None;
            }
            let end = line_end(self.text, self.pos);
            let rest = &self.text[self.pos..end];
            let content = trim_start(rest);
            let column = self.pos - self.line_start + (rest.len() - content.len());
            if content.is_empty() || content[0] == b'#' {
                if end >= self.text.len() {
                    self.pos = end;
                    return None;
                }
                self.pos = end + 1;
                self.line_start = self.pos;
                self.line += 1;
                continue;
            }
            self.pos = end - content.len();
            return Some(Line {
                column,
                content,
                line: self.line,
            });
        }
    }

    /// Moves past `bytes` bytes of the current line.
    fn advance(&mut self, bytes: usize) {
        self.pos += bytes;
    }
}

struct BlockReader<'a, 'b> {
    cursor: Cursor<'a>,
    builder: Builder,
    budget: &'b AtomicUsize,
    line_offset: u32,
    depth: usize,
}

/// A one-line scalar read from the text.
struct Scalar {
    text: String,
    plain: bool,
}

impl<'a> BlockReader<'a, '_> {
    fn emit(&mut self, event: Event, line: u32) -> Option<()> {
        self.builder
            .event(event, line + self.line_offset, self.budget)
            .ok()
    }

    fn scalar(&mut self, scalar: Scalar, line: u32) -> Option<()> {
        let style = if scalar.plain {
            TScalarStyle::Plain
        } else {
            TScalarStyle::DoubleQuoted
        };
        self.emit(Event::Scalar(scalar.text, style, 0, None), line)
    }

    fn empty(&mut self, line: u32) -> Option<()> {
        self.emit(
            Event::Scalar("~".into(), TScalarStyle::Plain, 0, None),
            line,
        )
    }

    fn enter(&mut self) -> Option<()> {
        self.depth += 1;
        (self.depth <= MAX_FAST_DEPTH).then_some(())
    }

    /// The node that starts where the cursor is (the content of the
    /// current line): a sequence, a mapping or a one-line value. `parent`
    /// is the column of the collection holding it (`None` at the root).
    fn node_here(&mut self, parent: Option<usize>) -> Option<()> {
        let Line {
            column, content, ..
        } = self.cursor.peek()?;
        if parent.is_some_and(|parent| column <= parent) {
            return None;
        }
        if is_entry(content) {
            self.sequence(column)
        } else if key_end(content).is_some() {
            self.mapping(column)
        } else {
            self.inline_value(parent, parent)
        }
    }

    /// The value of a key or sequence entry written on the lines after it:
    /// a nested block node, an indentless sequence (`key:` then `- a` at
    /// the key's column, when `indentless`), or nothing (null).
    fn value_below(&mut self, parent: usize, indentless: bool, line: u32) -> Option<()> {
        match self.cursor.peek() {
            Some(next) if next.column > parent => self.node_here(Some(parent)),
            Some(next) if indentless && next.column == parent && is_entry(next.content) => {
                self.sequence(parent)
            }
            Some(next) => self.empty(next.line.max(line)),
            // At the end of a text without its last newline, the full
            // parser's line for the null differs by case: left to it.
            None if !self.cursor.text.ends_with(b"\n") => None,
            None => self.empty(self.cursor.line.max(line)),
        }
    }

    fn sequence(&mut self, column: usize) -> Option<()> {
        self.enter()?;
        let first = self.cursor.peek()?;
        self.emit(Event::SequenceStart(0, None), first.line)?;
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
            self.cursor.advance(1);
            if blank_or_comment(&line.content[1..]) {
                self.cursor.next_line();
                self.value_below(column, false, line.line)?;
            } else {
                self.node_here(Some(column))?;
            }
        }
        self.depth -= 1;
        self.emit(Event::SequenceEnd, self.cursor.line)
    }

    fn mapping(&mut self, column: usize) -> Option<()> {
        self.enter()?;
        let first = self.cursor.peek()?;
        self.emit(Event::MappingStart(0, None), first.line)?;
        while let Some(line) = self.cursor.peek() {
            if line.column < column {
                break;
            }
            if line.column > column || is_entry(line.content) {
                return None;
            }
            let (key, after) = read_key(line.content)?;
            self.scalar(key, line.line)?;
            self.cursor.advance(after);
            let rest = &line.content[after..];
            if blank_or_comment(rest) {
                self.cursor.next_line();
                self.value_below(column, true, line.line)?;
            } else {
                let skipped = rest.len() - trim_start(rest).len();
                self.cursor.advance(skipped);
                self.inline_value(Some(column), Some(column))?;
            }
        }
        self.depth -= 1;
        self.emit(Event::MappingEnd, self.cursor.line)
    }

    /// A value written on the current line: a quoted or plain scalar, a
    /// literal block scalar or a one-line flow collection. Nothing of it
    /// may continue on a later line deeper than `owner` (the column of
    /// the collection holding the value; at the root, no line may follow).
    fn inline_value(&mut self, owner: Option<usize>, parent: Option<usize>) -> Option<()> {
        let line = self.cursor.peek()?;
        let content = line.content;
        match content[0] {
            b'|' => return self.literal(content, line.line, parent),
            b'[' | b'{' => {
                let used = self.flow(content, line.line)?;
                if !blank_or_comment(&content[used..]) {
                    return None;
                }
            }
            b'"' | b'\'' => {
                let (scalar, used) = quoted(content)?;
                if !blank_or_comment(&content[used..]) {
                    return None;
                }
                self.scalar(scalar, line.line)?;
            }
            _ => {
                let scalar = plain_value(content)?;
                self.scalar(scalar, line.line)?;
            }
        }
        self.cursor.next_line();
        match self.cursor.peek() {
            Some(next) if owner.is_none_or(|owner| next.column > owner) => None,
            _ => Some(()),
        }
    }

    /// A literal block scalar (`|`, `|-`, `|+`) whose header is `header`;
    /// its lines follow, indented deeper than `parent`.
    fn literal(&mut self, header: &[u8], line: u32, parent: Option<usize>) -> Option<()> {
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
                // A last line without its newline: left to the full parser.
                if !blank {
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
            value.push_str(std::str::from_utf8(&raw[indent..]).ok()?);
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
        let _ = line;
        self.emit(
            Event::Scalar(value, TScalarStyle::Literal, 0, None),
            first_content_line,
        )
    }

    /// A flow collection that closes on its line; the bytes it used.
    fn flow(&mut self, content: &[u8], line: u32) -> Option<usize> {
        self.enter()?;
        let mapping = content[0] == b'{';
        let close = if mapping { b'}' } else { b']' };
        let start = if mapping {
            Event::MappingStart(0, None)
        } else {
            Event::SequenceStart(0, None)
        };
        self.emit(start, line)?;
        let mut at = 1;
        at += spaces(&content[at..]);
        if content.get(at) == Some(&close) {
            self.depth -= 1;
            let end = if mapping {
                Event::MappingEnd
            } else {
                Event::SequenceEnd
            };
            self.emit(end, line)?;
            return Some(at + 1);
        }
        loop {
            at += self.flow_item(&content[at..], line)?;
            if mapping {
                if content.get(at) != Some(&b':') {
                    return None;
                }
                at += 1;
                if content.get(at) != Some(&b' ') {
                    return None;
                }
                at += spaces(&content[at..]);
                at += self.flow_item(&content[at..], line)?;
            }
            match content.get(at) {
                Some(b',') => {
                    at += 1;
                    at += spaces(&content[at..]);
                    if matches!(content.get(at), Some(b']' | b'}' | b',')) {
                        return None;
                    }
                }
                Some(byte) if *byte == close => {
                    self.depth -= 1;
                    let end = if mapping {
                        Event::MappingEnd
                    } else {
                        Event::SequenceEnd
                    };
                    self.emit(end, line)?;
                    return Some(at + 1);
                }
                _ => return None,
            }
        }
    }

    /// One item inside a flow collection: a nested flow collection, a
    /// quoted scalar or a plain scalar; the bytes it used, trailing spaces
    /// included.
    fn flow_item(&mut self, content: &[u8], line: u32) -> Option<usize> {
        let used = match content.first()? {
            b'[' | b'{' => self.flow(content, line)?,
            b'"' | b'\'' => {
                let (scalar, used) = quoted(content)?;
                self.scalar(scalar, line)?;
                used
            }
            _ => {
                let len = content
                    .iter()
                    .position(|byte| matches!(byte, b',' | b'[' | b']' | b'{' | b'}' | b':' | b'#'))
                    .unwrap_or(content.len());
                let text = trim_end(&content[..len]);
                if text.is_empty() || !plain_start(text) {
                    return None;
                }
                let text = std::str::from_utf8(text).ok()?;
                self.scalar(
                    Scalar {
                        text: text.to_owned(),
                        plain: true,
                    },
                    line,
                )?;
                len
            }
        };
        Some(used + spaces(&content[used..]))
    }
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

/// True when a plain scalar may start with these bytes (no indicator).
fn plain_start(text: &[u8]) -> bool {
    !matches!(
        text[0],
        b'-' | b'?'
            | b':'
            | b','
            | b'['
            | b']'
            | b'{'
            | b'}'
            | b'#'
            | b'&'
            | b'*'
            | b'!'
            | b'|'
            | b'>'
            | b'\''
            | b'"'
            | b'%'
            | b'@'
            | b'`'
    ) || (matches!(text[0], b'-') && text.get(1).is_some_and(|next| next.is_ascii_alphanumeric()))
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

/// The first `:` followed by a space or the line's end, before any
/// comment; `None` when there is none.
fn indicator_colon(content: &[u8]) -> Option<usize> {
    let mut at = 0;
    while let Some(found) = content[at..]
        .iter()
        .position(|byte| matches!(byte, b':' | b'#'))
    {
        let index = at + found;
        if content[index] == b'#' {
            if index > 0 && content[index - 1] == b' ' {
                return None;
            }
        } else if separated(content, index) {
            return Some(index);
        }
        at = index + 1;
    }
    None
}

/// True when the byte after `index` is a space or the line's end.
fn separated(content: &[u8], index: usize) -> bool {
    matches!(content.get(index + 1), None | Some(b' '))
}

/// The key of a `key: value` line and the bytes up to its value.
fn read_key(content: &[u8]) -> Option<(Scalar, usize)> {
    let colon = key_end(content)?;
    if colon > MAX_KEY_BYTES {
        return None;
    }
    let key = match content[0] {
        b'"' | b'\'' => quoted(content)?.0,
        _ => {
            let text = trim_end(&content[..colon]);
            if text.is_empty() || !plain_start(text) {
                return None;
            }
            Scalar {
                text: std::str::from_utf8(text).ok()?.to_owned(),
                plain: true,
            }
        }
    };
    Some((key, colon + 1))
}

/// A plain scalar that is the rest of its line (a comment after it left
/// out). `None` for anything that would make it a key or need more.
fn plain_value(content: &[u8]) -> Option<Scalar> {
    if !plain_start(content) {
        return None;
    }
    let mut end = content.len();
    let mut at = 0;
    while let Some(found) = content[at..]
        .iter()
        .position(|byte| matches!(byte, b':' | b'#'))
    {
        let index = at + found;
        if content[index] == b'#' {
            if content[index - 1] == b' ' {
                end = index;
                break;
            }
        } else if separated(content, index) {
            return None;
        }
        at = index + 1;
    }
    let text = trim_end(&content[..end]);
    Some(Scalar {
        text: std::str::from_utf8(text).ok()?.to_owned(),
        plain: true,
    })
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
fn quoted(content: &[u8]) -> Option<(Scalar, usize)> {
    let used = quoted_len(content)?;
    let inner = &content[1..used - 1];
    let text = if content[0] == b'\'' {
        std::str::from_utf8(inner).ok()?.replace("''", "'")
    } else {
        unescape(inner)?
    };
    Some((Scalar { text, plain: false }, used))
}

/// The text of a double-quoted scalar's inside; `None` for an escape the
/// fast path leaves to the full parser.
fn unescape(inner: &[u8]) -> Option<String> {
    let inner = std::str::from_utf8(inner).ok()?;
    if !inner.contains('\\') {
        return Some(inner.to_owned());
    }
    let mut text = String::with_capacity(inner.len());
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
            '/' => '/',
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
