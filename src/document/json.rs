//! JSON as kubectl reads it: a stream of JSON values read by Go's
//! `encoding/json` `Decoder`, as apimachinery's `YAMLOrJSONDecoder` does
//! for a text whose first character (after white space) is `{`.
//!
//! - Values follow one another, with or without white space between them
//!   (`{…}{…}` is two documents); `null` documents are left out, as kubectl
//!   leaves them out.
//! - Strings as `encoding/json` decodes them: the escapes of RFC 8259, a
//!   surrogate pair (`\ud83d\ude00`, as Python and jq write emoji) is one
//!   character, a lone surrogate is U+FFFD; a raw control character (below
//!   U+0020) is an error, DEL and U+0080–U+009F are not.
//! - Since apimachinery 0.33, a text whose first value is not JSON is read
//!   again from its start as YAML (`{a: 1}`, `{"a": yes}`): [`read`] says
//!   so with [`Outcome::NotJson`]. An error after the first value is an
//!   error of the file.
//!
//! The tree is built by the same [`Builder`] as YAML's, from the events the
//! YAML parser would give, so duplicate keys, depth and every other bound
//! are the same. Nothing here recurses.

use super::builder::{Builder, MAX_FLOW_DEPTH};
use super::scalar::Syntax;
use super::yaml::parser::Event;
use super::yaml::scanner::TScalarStyle;
use super::{Document, ParseError};
use std::sync::atomic::AtomicUsize;

/// What reading a text as JSON gave.
pub(super) enum Outcome {
    /// The documents, and the error that stopped the reading after them.
    Read(Vec<Document>, Option<ParseError>),
    /// The first value is not JSON: read the text as YAML.
    NotJson,
}

/// Reads `text` as a JSON stream; lines count from `line_offset + 1`.
pub(super) fn read(text: &str, line_offset: u32, budget: &AtomicUsize) -> Outcome {
    let mut lexer = Lexer {
        bytes: text.as_bytes(),
        text,
        at: 0,
        line: line_offset.saturating_add(1),
    };
    let mut documents = Vec::new();
    let mut first = true;
    loop {
        lexer.skip_space();
        if lexer.at == lexer.bytes.len() {
            return Outcome::Read(documents, None);
        }
        match value(&mut lexer, budget) {
            Ok(Some(document)) => documents.push(document),
            Ok(None) => {}
            Err(Failure::Syntax(_)) if first => return Outcome::NotJson,
            Err(Failure::Syntax(err) | Failure::Bound(err)) => {
                return Outcome::Read(documents, Some(err))
            }
        }
        first = false;
    }
}

/// True when `text` reads as a JSON stream to its end (not as YAML, nor
/// with an error).
pub(super) fn is_stream(text: &str) -> bool {
    let budget = AtomicUsize::new(super::builder::copy_budget(text));
    matches!(read(text, 0, &budget), Outcome::Read(_, None))
}

/// One token of a JSON text, with its place in bytes (commas and colons
/// left out): what `spans.rs` builds the spans of a JSON text from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Token {
    /// `{` (`map`) or `[` at `at`.
    Open { at: usize, map: bool },
    /// `}` or `]`, ending at `end`.
    Close { end: usize },
    /// A string (`quoted`) or a literal (`true`, `null`, a number).
    Scalar {
        start: usize,
        end: usize,
        quoted: bool,
    },
}

/// The tokens of a JSON stream; `None` when the text is not one. Commas
/// and colons are skipped, not checked: the text is one [`read`] has read
/// (see [`is_stream`]).
pub(super) fn tokens(text: &str) -> Option<Vec<Token>> {
    let mut lexer = Lexer {
        bytes: text.as_bytes(),
        text,
        at: 0,
        line: 1,
    };
    let mut tokens = Vec::new();
    loop {
        lexer.skip_space();
        let start = lexer.at;
        let Some(byte) = lexer.peek() else {
            return Some(tokens);
        };
        let token = match byte {
            b'{' | b'[' => {
                lexer.at += 1;
                Token::Open {
                    at: start,
                    map: byte == b'{',
                }
            }
            b'}' | b']' => {
                lexer.at += 1;
                Token::Close { end: lexer.at }
            }
            b',' | b':' => {
                lexer.at += 1;
                continue;
            }
            b'"' => {
                lexer.string().ok()?;
                Token::Scalar {
                    start,
                    end: lexer.at,
                    quoted: true,
                }
            }
            _ => {
                lexer.literal().ok()?;
                Token::Scalar {
                    start,
                    end: lexer.at,
                    quoted: false,
                }
            }
        };
        tokens.push(token);
    }
}

/// Why a value could not be read: its text is not JSON, or it is JSON that
/// goes past one of vergate's bounds (never retried as YAML).
enum Failure {
    Syntax(ParseError),
    Bound(ParseError),
}

struct Lexer<'a> {
    text: &'a str,
    bytes: &'a [u8],
    at: usize,
    line: u32,
}

/// One value of the stream as a document: `None` for `null`.
fn value(lexer: &mut Lexer<'_>, budget: &AtomicUsize) -> Result<Option<Document>, Failure> {
    let line = lexer.line;
    let mut builder = Builder::new(Syntax::Json, line);
    // What each open collection expects next.
    let mut open: Vec<Expect> = Vec::new();
    loop {
        lexer.skip_space();
        let expect = open.last().copied();
        // After a member or item: a comma or the end.
        if let Some(Expect::CommaOrEnd(close)) = expect {
            match lexer.peek() {
                Some(b',') => {
                    lexer.at += 1;
                    let top = open.last_mut().expect("an open collection");
                    *top = if close == b'}' {
                        Expect::Key { first: false }
                    } else {
                        Expect::Value {
                            first: false,
                            close,
                        }
                    };
                    continue;
                }
                Some(byte) if byte == close => {
                    lexer.at += 1;
                    open.pop();
                    let end = if close == b'}' {
                        Event::MappingEnd
                    } else {
                        Event::SequenceEnd
                    };
                    emit(&mut builder, end, lexer.line, budget)?;
                    if !after_value(&mut open) {
                        break;
                    }
                    continue;
                }
                _ => return Err(lexer.syntax("expected `,` or the end of the collection")),
            }
        }
        if let Some(Expect::Key { first }) = expect {
            match lexer.peek() {
                Some(b'}') if first => {
                    lexer.at += 1;
                    open.pop();
                    emit(&mut builder, Event::MappingEnd, lexer.line, budget)?;
                    if !after_value(&mut open) {
                        break;
                    }
                    continue;
                }
                Some(b'"') => {
                    let key_line = lexer.line;
                    let key = lexer.string()?;
                    emit(&mut builder, quoted(key), key_line, budget)?;
                    lexer.skip_space();
                    if lexer.peek() != Some(b':') {
                        return Err(lexer.syntax("expected `:` after an object key"));
                    }
                    lexer.at += 1;
                    *open.last_mut().expect("an open object") = Expect::Member;
                    continue;
                }
                _ => return Err(lexer.syntax("expected a string as an object key")),
            }
        }
        if let Some(Expect::Value { first: true, close }) = expect {
            if lexer.peek() == Some(close) {
                lexer.at += 1;
                open.pop();
                emit(&mut builder, Event::SequenceEnd, lexer.line, budget)?;
                if !after_value(&mut open) {
                    break;
                }
                continue;
            }
        }
        // A value.
        let value_line = lexer.line;
        match lexer.peek() {
            Some(b'{') | Some(b'[') => {
                if open.len() >= MAX_FLOW_DEPTH {
                    return Err(Failure::Bound(ParseError {
                        line: value_line,
                        message: super::builder::FLOW_DEPTH_MESSAGE.into(),
                    }));
                }
                let object = lexer.peek() == Some(b'{');
                lexer.at += 1;
                if object {
                    emit(
                        &mut builder,
                        Event::MappingStart(0, None),
                        value_line,
                        budget,
                    )?;
                    open.push(Expect::Key { first: true });
                } else {
                    emit(
                        &mut builder,
                        Event::SequenceStart(0, None),
                        value_line,
                        budget,
                    )?;
                    open.push(Expect::Value {
                        first: true,
                        close: b']',
                    });
                }
                continue;
            }
            Some(b'"') => {
                let text = lexer.string()?;
                emit(&mut builder, quoted(text), value_line, budget)?;
            }
            Some(_) => {
                let text = lexer.literal()?;
                let event = Event::Scalar(text, TScalarStyle::Plain, 0, None);
                emit(&mut builder, event, value_line, budget)?;
            }
            None => return Err(lexer.syntax("unexpected end of JSON input")),
        }
        if !after_value(&mut open) {
            break;
        }
    }
    let document = builder.finish();
    Ok((!matches!(document.root.value, super::Value::Null)).then_some(document))
}

/// What an open collection expects next.
#[derive(Clone, Copy)]
enum Expect {
    /// An object's key (or, when `first`, its end).
    Key { first: bool },
    /// The value of the key just read.
    Member,
    /// An array's item (or, when `first`, its end).
    Value { first: bool, close: u8 },
    /// A comma or the closing bracket.
    CommaOrEnd(u8),
}

/// Marks the innermost collection as having read a value; false when no
/// collection is open (the value was the document).
fn after_value(open: &mut [Expect]) -> bool {
    match open.last_mut() {
        Some(top) => {
            *top = match *top {
                Expect::Member | Expect::Key { .. } => Expect::CommaOrEnd(b'}'),
                Expect::Value { close, .. } | Expect::CommaOrEnd(close) => {
                    Expect::CommaOrEnd(close)
                }
            };
            true
        }
        None => false,
    }
}

fn quoted(text: String) -> Event {
    Event::Scalar(text, TScalarStyle::DoubleQuoted, 0, None)
}

fn emit(
    builder: &mut Builder,
    event: Event,
    line: u32,
    budget: &AtomicUsize,
) -> Result<(), Failure> {
    builder.event(event, line, budget).map_err(Failure::Bound)
}

impl Lexer<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    /// JSON's white space: space, tab, CR and LF.
    fn skip_space(&mut self) {
        while let Some(byte) = self.peek() {
            match byte {
                b'\n' => self.line = self.line.saturating_add(1),
                b' ' | b'\t' | b'\r' => {}
                _ => break,
            }
            self.at += 1;
        }
    }

    fn syntax(&self, what: &str) -> Failure {
        let found = match self
            .text
            .get(self.at..)
            .and_then(|rest| rest.chars().next())
        {
            Some(c) => format!("found {c:?}"),
            None => "found the end of the text".into(),
        };
        Failure::Syntax(ParseError {
            line: self.line,
            message: format!("invalid JSON: {what}, {found}"),
        })
    }

    /// `true`, `false`, `null` or a number (RFC 8259), as written. Like
    /// Go's scanner, it ends where the grammar ends: at the top level
    /// `truefalse` is two values, and inside a collection what follows
    /// must be `,` or the end.
    fn literal(&mut self) -> Result<String, Failure> {
        let start = self.at;
        let rest = &self.bytes[start..];
        for word in ["true", "false", "null"] {
            if rest.starts_with(word.as_bytes()) {
                self.at += word.len();
                return Ok(word.to_owned());
            }
        }
        let digits = |lexer: &mut Self| {
            let from = lexer.at;
            while lexer.peek().is_some_and(|byte| byte.is_ascii_digit()) {
                lexer.at += 1;
            }
            lexer.at - from
        };
        if self.peek() == Some(b'-') {
            self.at += 1;
        }
        let whole = match self.peek() {
            Some(b'0') => {
                self.at += 1;
                1
            }
            _ => digits(self),
        };
        let mut valid = whole > 0;
        if valid && self.peek() == Some(b'.') {
            self.at += 1;
            valid = digits(self) > 0;
        }
        if valid && matches!(self.peek(), Some(b'e' | b'E')) {
            self.at += 1;
            if matches!(self.peek(), Some(b'-' | b'+')) {
                self.at += 1;
            }
            valid = digits(self) > 0;
        }
        if !valid {
            return Err(self.syntax("expected a JSON value"));
        }
        Ok(self.text[start..self.at].to_owned())
    }

    /// A string, its escapes decoded as `encoding/json` decodes them.
    fn string(&mut self) -> Result<String, Failure> {
        self.at += 1;
        let mut out = String::new();
        loop {
            let start = self.at;
            while self
                .peek()
                .is_some_and(|byte| byte != b'"' && byte != b'\\' && byte >= 0x20)
            {
                self.at += 1;
            }
            out.push_str(&self.text[start..self.at]);
            match self.peek() {
                Some(b'"') => {
                    self.at += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.at += 1;
                    let escape = self.peek();
                    self.at += 1;
                    match escape {
                        Some(b'"') => out.push('"'),
                        Some(b'\\') => out.push('\\'),
                        Some(b'/') => out.push('/'),
                        Some(b'b') => out.push('\u{8}'),
                        Some(b'f') => out.push('\u{c}'),
                        Some(b'n') => out.push('\n'),
                        Some(b'r') => out.push('\r'),
                        Some(b't') => out.push('\t'),
                        Some(b'u') => {
                            let unit = self.hex4()?;
                            out.push(self.code_point(unit));
                        }
                        _ => {
                            self.at -= 1;
                            return Err(self.syntax("an unknown escape in a string"));
                        }
                    }
                }
                Some(_) => return Err(self.syntax("a control character in a string")),
                None => return Err(self.syntax("an unterminated string")),
            }
        }
    }

    /// The character of a `\u` escape whose first unit is `unit`: a
    /// surrogate pair joined, a lone surrogate U+FFFD (Go's `unquote`).
    fn code_point(&mut self, unit: u16) -> char {
        if (0xd800..0xdc00).contains(&unit)
            && self.bytes.get(self.at) == Some(&b'\\')
            && self.bytes.get(self.at + 1) == Some(&b'u')
        {
            let back = self.at;
            self.at += 2;
            if let Ok(low) = self.hex4() {
                if (0xdc00..0xe000).contains(&low) {
                    let high = u32::from(unit - 0xd800);
                    let low = u32::from(low - 0xdc00);
                    return char::from_u32(0x10000 + (high << 10) + low)
                        .unwrap_or(char::REPLACEMENT_CHARACTER);
                }
            }
            self.at = back;
        }
        char::from_u32(u32::from(unit)).unwrap_or(char::REPLACEMENT_CHARACTER)
    }

    fn hex4(&mut self) -> Result<u16, Failure> {
        let digits = self
            .text
            .get(self.at..self.at + 4)
            .filter(|digits| digits.bytes().all(|byte| byte.is_ascii_hexdigit()));
        let Some(digits) = digits else {
            return Err(self.syntax("four hexadecimal digits after `\\u`"));
        };
        self.at += 4;
        Ok(u16::from_str_radix(digits, 16).expect("four hexadecimal digits"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values(text: &str) -> Result<Vec<serde_json::Value>, String> {
        match read(text, 0, &AtomicUsize::new(usize::MAX)) {
            Outcome::Read(documents, None) => {
                Ok(documents.iter().map(|doc| doc.root.to_json()).collect())
            }
            Outcome::Read(_, Some(err)) => Err(err.to_string()),
            Outcome::NotJson => Err("not JSON".into()),
        }
    }

    #[test]
    fn a_stream_of_values_is_read_as_encoding_json_reads_it() {
        assert_eq!(
            values("{\"a\": [1, {\"b\": null}]}{\"c\": \"\\ud83d\\ude00\\ud83d\"}\nnull [true]"),
            Ok(vec![
                serde_json::json!({"a": [1, {"b": null}]}),
                serde_json::json!({"c": "\u{1f600}\u{fffd}"}),
                serde_json::json!([true]),
            ])
        );
        assert_eq!(
            values("{}\n[]"),
            Ok(vec![serde_json::json!({}), serde_json::json!([])])
        );
        assert_eq!(values("{\"a\": yes}").unwrap_err(), "not JSON");
        assert_eq!(values("{\"a\": \"x\ty\"}").unwrap_err(), "not JSON");
        let err = values("{\"a\": 1}\n{\"a\": 1,}").unwrap_err();
        assert!(err.starts_with("line 2: invalid JSON"), "{err}");
    }

    #[test]
    fn depth_is_bounded_and_not_retried() {
        let deep = format!("{{\"a\": {}{}}}", "[".repeat(300), "]".repeat(300));
        let err = values(&deep).unwrap_err();
        assert!(err.contains("nested more than 255 levels"), "{err}");
    }
}
