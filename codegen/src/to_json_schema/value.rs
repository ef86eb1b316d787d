//! A JSON value small enough to build, read and write without serde_json,
//! which stays out of the proc macro's dependency tree.
//!
//! The model keeps keywords, defaults and non-string enum values as compact
//! JSON text (written by serde_json when a spec is loaded); [`Json::parse`]
//! reads that text back, accepting exactly what serde_json accepts, and keeps
//! each number as its text so that nothing is rounded on the way.

use std::collections::BTreeMap;
use std::fmt::Write;

/// An object's members, sorted by key (as serde_json's map sorts them).
pub type Map = BTreeMap<String, Json>;

/// A JSON value.
#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    /// A number as its JSON text (`1`, `-2.5e3`).
    Number(String),
    String(String),
    Array(Vec<Json>),
    Object(Map),
}

/// How deep arrays and objects may nest in text [`Json::parse`] reads
/// (serde_json's limit).
const MAX_DEPTH: usize = 127;

impl Json {
    /// A string value.
    pub fn string(value: impl Into<String>) -> Json {
        Json::String(value.into())
    }

    /// The value of JSON text (RFC 8259, whitespace around it allowed), or
    /// `None` when the text is not JSON, nests deeper than 127 levels or
    /// holds a number beyond the range of an `f64` (what serde_json rejects).
    pub fn parse(text: &str) -> Option<Json> {
        let mut parser = Parser {
            bytes: text.as_bytes(),
            at: 0,
        };
        let value = parser.value(MAX_DEPTH)?;
        parser.skip_whitespace();
        (parser.at == parser.bytes.len()).then_some(value)
    }

    /// Compact JSON text: no whitespace, object keys in byte order.
    pub fn to_compact(&self) -> String {
        let mut out = String::new();
        self.write_compact(&mut out);
        out
    }

    fn write_compact(&self, out: &mut String) {
        match self {
            Json::Null => out.push_str("null"),
            Json::Bool(value) => out.push_str(if *value { "true" } else { "false" }),
            Json::Number(text) => out.push_str(text),
            Json::String(value) => write_string(value, out),
            Json::Array(items) => {
                out.push('[');
                for (index, item) in items.iter().enumerate() {
                    if index > 0 {
                        out.push(',');
                    }
                    item.write_compact(out);
                }
                out.push(']');
            }
            Json::Object(members) => {
                out.push('{');
                for (index, (key, value)) in members.iter().enumerate() {
                    if index > 0 {
                        out.push(',');
                    }
                    write_string(key, out);
                    out.push(':');
                    value.write_compact(out);
                }
                out.push('}');
            }
        }
    }
}

/// Writes a JSON string literal, escaped as serde_json escapes it: quote,
/// backslash and control characters only.
fn write_string(value: &str, out: &mut String) {
    out.push('"');
    for c in value.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// A recursive-descent reader of JSON text; every method returns `None` on
/// malformed input and never panics.
struct Parser<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Parser<'_> {
    fn value(&mut self, depth: usize) -> Option<Json> {
        self.skip_whitespace();
        match *self.bytes.get(self.at)? {
            b'n' => self.literal("null", Json::Null),
            b't' => self.literal("true", Json::Bool(true)),
            b'f' => self.literal("false", Json::Bool(false)),
            b'"' => self.string().map(Json::String),
            b'[' => self.array(depth.checked_sub(1)?),
            b'{' => self.object(depth.checked_sub(1)?),
            b'-' | b'0'..=b'9' => self.number(),
            _ => None,
        }
    }

    fn skip_whitespace(&mut self) {
        while matches!(self.bytes.get(self.at), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    fn eat(&mut self, byte: u8) -> bool {
        let found = self.bytes.get(self.at) == Some(&byte);
        if found {
            self.at += 1;
        }
        found
    }

    fn literal(&mut self, word: &str, value: Json) -> Option<Json> {
        let end = self.at + word.len();
        (self.bytes.get(self.at..end)? == word.as_bytes()).then(|| {
            self.at = end;
            value
        })
    }

    fn array(&mut self, depth: usize) -> Option<Json> {
        self.at += 1;
        let mut items = Vec::new();
        self.skip_whitespace();
        if self.eat(b']') {
            return Some(Json::Array(items));
        }
        loop {
            items.push(self.value(depth)?);
            self.skip_whitespace();
            if self.eat(b']') {
                return Some(Json::Array(items));
            }
            if !self.eat(b',') {
                return None;
            }
        }
    }

    fn object(&mut self, depth: usize) -> Option<Json> {
        self.at += 1;
        let mut members = Map::new();
        self.skip_whitespace();
        if self.eat(b'}') {
            return Some(Json::Object(members));
        }
        loop {
            self.skip_whitespace();
            if self.bytes.get(self.at) != Some(&b'"') {
                return None;
            }
            let key = self.string()?;
            self.skip_whitespace();
            if !self.eat(b':') {
                return None;
            }
            members.insert(key, self.value(depth)?);
            self.skip_whitespace();
            if self.eat(b'}') {
                return Some(Json::Object(members));
            }
            if !self.eat(b',') {
                return None;
            }
        }
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, finite as an
    /// `f64`.
    fn number(&mut self) -> Option<Json> {
        let start = self.at;
        self.eat(b'-');
        if !self.eat(b'0') && self.digits() == 0 {
            return None;
        }
        if self.eat(b'.') && self.digits() == 0 {
            return None;
        }
        if self.eat(b'e') || self.eat(b'E') {
            if !self.eat(b'+') {
                self.eat(b'-');
            }
            if self.digits() == 0 {
                return None;
            }
        }
        let text = std::str::from_utf8(&self.bytes[start..self.at]).ok()?;
        let finite = text.parse::<f64>().is_ok_and(f64::is_finite);
        finite.then(|| Json::Number(text.to_owned()))
    }

    fn digits(&mut self) -> usize {
        let start = self.at;
        while self.bytes.get(self.at).is_some_and(u8::is_ascii_digit) {
            self.at += 1;
        }
        self.at - start
    }

    /// A string literal starting at its opening quote.
    fn string(&mut self) -> Option<String> {
        self.at += 1;
        let mut out = String::new();
        loop {
            let start = self.at;
            while let Some(&byte) = self.bytes.get(self.at) {
                if byte == b'"' || byte == b'\\' || byte < 0x20 {
                    break;
                }
                self.at += 1;
            }
            out.push_str(std::str::from_utf8(&self.bytes[start..self.at]).ok()?);
            match *self.bytes.get(self.at)? {
                b'"' => {
                    self.at += 1;
                    return Some(out);
                }
                b'\\' => {
                    self.at += 1;
                    out.push(self.escape()?);
                }
                _ => return None,
            }
        }
    }

    /// The character of an escape, after its backslash.
    fn escape(&mut self) -> Option<char> {
        let byte = *self.bytes.get(self.at)?;
        self.at += 1;
        Some(match byte {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => {
                let unit = self.hex4()?;
                if (0xD800..0xDC00).contains(&unit) {
                    if !(self.eat(b'\\') && self.eat(b'u')) {
                        return None;
                    }
                    let low = self.hex4()?;
                    if !(0xDC00..0xE000).contains(&low) {
                        return None;
                    }
                    char::from_u32(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))?
                } else {
                    char::from_u32(unit)?
                }
            }
            _ => return None,
        })
    }

    fn hex4(&mut self) -> Option<u32> {
        let digits = self.bytes.get(self.at..self.at + 4)?;
        let text = std::str::from_utf8(digits).ok()?;
        if !text.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        self.at += 4;
        u32::from_str_radix(text, 16).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_what_it_writes() {
        let text = r#"{"a":[1,-2.5e3,true,false,null],"b":"say \"hi\"\\\n\u0001é\b\f","c":{}}"#;
        let value = Json::parse(text).unwrap();
        assert_eq!(value.to_compact(), text);
        let Json::Object(members) = &value else {
            panic!("an object")
        };
        assert_eq!(members["b"], Json::string("say \"hi\"\\\n\u{1}é\u{8}\u{c}"));
    }

    #[test]
    fn surrogate_pairs_and_slashes() {
        assert_eq!(
            Json::parse(r#" "\ud83d\ude00\/" "#),
            Some(Json::string("😀/"))
        );
        assert_eq!(Json::parse(r#""\ud83d""#), None);
        assert_eq!(Json::parse(r#""\ude00""#), None);
    }

    #[test]
    fn numbers_keep_their_text() {
        for text in ["0", "-0", "1.0", "1e5", "-2.5E-3", "18446744073709551616"] {
            assert_eq!(Json::parse(text), Some(Json::Number(text.into())));
        }
        for text in ["01", "1.", ".5", "-", "1e", "+1", "1e400", "--1", "0x10"] {
            assert_eq!(Json::parse(text), None, "{text}");
        }
    }

    #[test]
    fn malformed_text_is_none() {
        for text in [
            "",
            " ",
            "[1,]",
            "{\"a\":1,}",
            "{a:1}",
            "[1 2]",
            "nul",
            "true false",
            "\"\u{1}\"",
            "\"open",
            "[",
            "{\"a\"}",
            "\"\\x\"",
            "\"\\u12\"",
        ] {
            assert_eq!(Json::parse(text), None, "{text:?}");
        }
    }

    #[test]
    fn nesting_is_bounded() {
        let deep = |depth: usize| format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        assert!(Json::parse(&deep(MAX_DEPTH)).is_some());
        assert_eq!(Json::parse(&deep(MAX_DEPTH + 1)), None);
        assert_eq!(Json::parse(&"[".repeat(1_000_000)), None);
    }

    /// serde_json is the reference: the two accept the same texts and, on
    /// those, read the same values.
    #[cfg(feature = "load")]
    #[test]
    fn agrees_with_serde_json() {
        let deep = |depth: usize| format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        let texts = [
            "1".to_owned(),
            "-0".into(),
            "1e400".into(),
            "-1e400".into(),
            "1.7976931348623157e308".into(),
            "123456789012345678901234567890".into(),
            " [1, {\"a\": [null, \"x\"]}] ".into(),
            "{\"a\":1,\"a\":2}".into(),
            "\"\\ud800\"".into(),
            "\"\\u00e9\\u0000\"".into(),
            "\"tab\there\"".into(),
            "[1,]".into(),
            "01".into(),
            deep(127),
            deep(128),
            deep(129),
        ];
        for text in &texts {
            let ours = Json::parse(text).map(|value| value.to_compact());
            let theirs = serde_json::from_str::<serde_json::Value>(text).ok();
            assert_eq!(ours.is_some(), theirs.is_some(), "{text}");
            if let (Some(ours), Some(theirs)) = (ours, theirs) {
                assert_eq!(
                    serde_json::from_str::<serde_json::Value>(&ours).unwrap(),
                    theirs
                );
            }
        }
    }
}
