//! Reading JSON text into a [`Value`], as serde_json's `from_str::<Value>`
//! reads it: the same values, and `None` for every text it refuses.

use super::{Number, Object, Value};

/// The deepest nesting of arrays and objects [`parse`] reads: serde_json's
/// recursion limit (128 levels refused, 127 read), which also bounds this
/// reader's recursion.
pub const MAX_DEPTH: usize = 127;

/// The value `text` holds; `None` when it is not one JSON value (surrounded
/// by JSON whitespace at most), or nests deeper than [`MAX_DEPTH`], or
/// holds a number too large for a float, or a string with a control
/// character or a lone surrogate escape. A repeated object key keeps its
/// last value.
pub fn parse(text: &str) -> Option<Value> {
    let mut reader = Reader { text, at: 0 };
    let value = reader.value(0)?;
    reader.skip_whitespace();
    (reader.at == text.len()).then_some(value)
}

struct Reader<'a> {
    text: &'a str,
    /// The byte offset of the next byte to read.
    at: usize,
}

impl Reader<'_> {
    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    fn next(&mut self) -> Option<u8> {
        let byte = self.peek()?;
        self.at += 1;
        Some(byte)
    }

    /// Reads `byte`, or nothing and false.
    fn eat(&mut self, byte: u8) -> bool {
        let found = self.peek() == Some(byte);
        if found {
            self.at += 1;
        }
        found
    }

    fn skip_whitespace(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\n' | b'\t' | b'\r')) {
            self.at += 1;
        }
    }

    /// The value at the reader after whitespace, inside `depth` arrays and
    /// objects.
    fn value(&mut self, depth: usize) -> Option<Value> {
        self.skip_whitespace();
        match self.peek()? {
            b'n' => self.literal("null", Value::Null),
            b't' => self.literal("true", Value::Bool(true)),
            b'f' => self.literal("false", Value::Bool(false)),
            b'"' => self.string().map(Value::String),
            b'[' if depth < MAX_DEPTH => self.array(depth + 1),
            b'{' if depth < MAX_DEPTH => self.object(depth + 1),
            b'-' | b'0'..=b'9' => self.number().map(Value::Number),
            _ => None,
        }
    }

    fn literal(&mut self, word: &str, value: Value) -> Option<Value> {
        let found = self.text[self.at..].starts_with(word);
        found.then(|| {
            self.at += word.len();
            value
        })
    }

    fn array(&mut self, depth: usize) -> Option<Value> {
        self.at += 1;
        let mut items = Vec::new();
        self.skip_whitespace();
        if self.eat(b']') {
            return Some(Value::Array(items));
        }
        loop {
            items.push(self.value(depth)?);
            self.skip_whitespace();
            match self.next()? {
                b',' => {}
                b']' => return Some(Value::Array(items)),
                _ => return None,
            }
        }
    }

    fn object(&mut self, depth: usize) -> Option<Value> {
        self.at += 1;
        let mut members = Object::new();
        self.skip_whitespace();
        if self.eat(b'}') {
            return Some(Value::Object(members));
        }
        loop {
            self.skip_whitespace();
            if self.peek() != Some(b'"') {
                return None;
            }
            let key = self.string()?;
            self.skip_whitespace();
            if !self.eat(b':') {
                return None;
            }
            members.insert(key, self.value(depth)?);
            self.skip_whitespace();
            match self.next()? {
                b',' => {}
                b'}' => return Some(Value::Object(members)),
                _ => return None,
            }
        }
    }

    /// The string whose opening quote is at the reader.
    fn string(&mut self) -> Option<String> {
        self.at += 1;
        let mut out = String::new();
        let mut start = self.at;
        loop {
            match self.peek()? {
                b'"' => {
                    out.push_str(&self.text[start..self.at]);
                    self.at += 1;
                    return Some(out);
                }
                b'\\' => {
                    out.push_str(&self.text[start..self.at]);
                    self.at += 1;
                    out.push(self.escape()?);
                    start = self.at;
                }
                0x00..=0x1f => return None,
                _ => self.at += 1,
            }
        }
    }

    /// The character of the escape after a backslash.
    fn escape(&mut self) -> Option<char> {
        Some(match self.next()? {
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
                let code = match unit {
                    0xd800..=0xdbff => {
                        // A leading surrogate must be followed by `\u` and a
                        // trailing one.
                        if !(self.eat(b'\\') && self.eat(b'u')) {
                            return None;
                        }
                        let trailing = self.hex4()?;
                        if !(0xdc00..=0xdfff).contains(&trailing) {
                            return None;
                        }
                        0x10000 + ((unit - 0xd800) << 10) + (trailing - 0xdc00)
                    }
                    0xdc00..=0xdfff => return None,
                    other => other,
                };
                char::from_u32(code)?
            }
            _ => return None,
        })
    }

    /// Four hex digits.
    fn hex4(&mut self) -> Option<u32> {
        let digits = self.text.get(self.at..self.at + 4)?;
        if !digits.bytes().all(|byte| byte.is_ascii_hexdigit()) {
            return None;
        }
        self.at += 4;
        u32::from_str_radix(digits, 16).ok()
    }

    /// A number (`-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`): an
    /// integer when it has neither fraction nor exponent and fits 64 bits
    /// (`-0` excepted, which serde_json reads as the float `-0.0`), else a
    /// float, correctly rounded; `None` past the floats' range.
    fn number(&mut self) -> Option<Number> {
        let start = self.at;
        let negative = self.eat(b'-');
        match self.next()? {
            b'0' => {}
            b'1'..=b'9' => self.digits(),
            _ => return None,
        }
        let mut integral = true;
        if self.eat(b'.') {
            integral = false;
            self.some_digits()?;
        }
        if self.eat(b'e') || self.eat(b'E') {
            integral = false;
            let _sign = self.eat(b'+') || self.eat(b'-');
            self.some_digits()?;
        }
        let text = &self.text[start..self.at];
        if integral {
            let integer = if negative {
                text.parse::<i64>()
                    .ok()
                    .filter(|n| *n != 0)
                    .map(Number::from)
            } else {
                text.parse::<u64>().ok().map(Number::from)
            };
            if integer.is_some() {
                return integer;
            }
        }
        Number::from_f64(text.parse::<f64>().ok()?)
    }

    fn digits(&mut self) {
        while self.peek().is_some_and(|byte| byte.is_ascii_digit()) {
            self.at += 1;
        }
    }

    /// One digit or more.
    fn some_digits(&mut self) -> Option<()> {
        let start = self.at;
        self.digits();
        (self.at > start).then_some(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What serde_json reads from `text`, as compact text (`None` when it
    /// refuses it).
    fn serde_json_reads(text: &str) -> Option<String> {
        serde_json::from_str::<serde_json::Value>(text)
            .ok()
            .map(|value| value.to_string())
    }

    fn same_as_serde_json(text: &str) {
        assert_eq!(
            parse(text).map(|value| value.to_string()),
            serde_json_reads(text),
            "{text:?}"
        );
    }

    #[test]
    fn reads_what_serde_json_reads() {
        for text in [
            "null",
            " true ",
            "\tfalse\r\n",
            "0",
            "-0",
            "-0.0",
            "0.0",
            "1.0",
            "1e2",
            "1E+2",
            "1e-2",
            "-1",
            "18446744073709551615",
            "18446744073709551616",
            "-9223372036854775808",
            "-9223372036854775809",
            "123456789012345678901234567890",
            "1e308",
            "1e-400",
            "0e999999999999999999",
            "0.1",
            "0.30000000000000004",
            "65535",
            "\"\"",
            r#""\"\\\/\b\f\n\r\t""#,
            r#""\u00e9\u2028\uD83D\uDE00\u0000""#,
            "\"é\u{7f}\u{10ffff}\"",
            "[]",
            "[ ]",
            "[1, [2, [3]], {\"a\": [ ]}]",
            "{}",
            r#"{"b": 1, "a": {"c": null}, "": []}"#,
            r#"{"a": 1, "a": 2}"#,
            r#"[{"rule": "self.x > 0", "message": "m"}]"#,
        ] {
            assert!(parse(text).is_some(), "{text:?}");
            same_as_serde_json(text);
        }
    }

    #[test]
    fn refuses_what_serde_json_refuses() {
        for text in [
            "",
            " ",
            "nul",
            "nulll",
            "True",
            "01",
            "-",
            "-a",
            "+1",
            ".5",
            "1.",
            "1.e2",
            "1e",
            "1e+",
            "0x10",
            "1e400",
            "-1e400",
            "NaN",
            "Infinity",
            "\"",
            "\"abc",
            "\"\\\"",
            "\"\\x\"",
            "\"\\u12\"",
            "\"\\u12G4\"",
            "\"\\uD800\"",
            "\"\\uD800x\"",
            "\"\\uD800\\u0041\"",
            "\"\\uDC00\"",
            "\"tab\there\"",
            "\"line\nbreak\"",
            "[",
            "]",
            "[1,]",
            "[1 2]",
            "[,1]",
            "{",
            "{\"a\"}",
            "{\"a\" 1}",
            "{\"a\": 1,}",
            "{a: 1}",
            "{1: 1}",
            "{\"a\": 1} x",
            "1 2",
            "[1]]",
            "// comment",
        ] {
            assert_eq!(parse(text), None, "{text:?}");
            same_as_serde_json(text);
        }
    }

    #[test]
    fn nesting_stops_where_serde_jsons_does() {
        for depth in [MAX_DEPTH - 1, MAX_DEPTH, MAX_DEPTH + 1] {
            let arrays = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
            let objects = format!("{}1{}", r#"{"a":"#.repeat(depth), "}".repeat(depth));
            for text in [arrays, objects] {
                assert_eq!(parse(&text).is_some(), depth <= MAX_DEPTH);
                same_as_serde_json(&text);
            }
        }
    }

    #[test]
    fn hostile_texts_are_refused_without_a_panic() {
        let deep = "[".repeat(1_000_000);
        assert_eq!(parse(&deep), None);
        let deep_objects = r#"{"a":"#.repeat(100_000);
        assert_eq!(parse(&deep_objects), None);
        let long_number = "9".repeat(100_000);
        assert_eq!(parse(&long_number), None, "past the floats' range");
        let long_fraction = format!("0.{}", "1".repeat(100_000));
        assert!(parse(&long_fraction).is_some());
        for cut in [
            "\"\\u",
            "\"\\uD83D\\u",
            "\"\\uD83D\\",
            "\"é",
            "[1,",
            "{\"a\":",
            "-0.",
        ] {
            assert_eq!(parse(cut), None, "{cut:?}");
        }
        // Every prefix of a valid text, and every byte changed, is read or
        // refused without a panic, as serde_json reads or refuses it.
        let text = r#"{"a": [1, -2.5e3, "x\u00e9\n", true, null, {"b": []}], "c": "\uD83D\uDE00"}"#;
        for end in (0..=text.len()).filter(|end| text.is_char_boundary(*end)) {
            same_as_serde_json(&text[..end]);
        }
        for index in 0..text.len() {
            for byte in [b'"', b'\\', b'{', b']', b',', b':', b'0', b'-', b'e', b' '] {
                let mut bytes = text.as_bytes().to_vec();
                bytes[index] = byte;
                if let Ok(changed) = String::from_utf8(bytes) {
                    same_as_serde_json(&changed);
                }
            }
        }
    }

    #[test]
    fn random_texts_are_read_or_refused_as_serde_json_does() {
        const PIECES: [&str; 27] = [
            "[", "]", "{", "}", ",", ":", "\"", "\"a\"", "\\", "\\u", "D83D", "DE00", "00e9", "0",
            "7", "-", ".", "e", "E+", "true", "null", "fals", " ", "\n", "é", "\u{1}", "x",
        ];
        let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut read = 0;
        for _ in 0..20_000 {
            let length = next() % 24;
            let text: String = (0..length)
                .map(|_| PIECES[(next() % PIECES.len() as u64) as usize])
                .collect();
            let ours = parse(&text);
            let theirs = serde_json::from_str::<serde_json::Value>(&text).ok();
            assert_eq!(ours.is_some(), theirs.is_some(), "{text:?}");
            read += usize::from(ours.is_some());
            // Floats, and integers past 64 bits, may be read one unit in the
            // last place apart (see the module doc): the tests above compare
            // their values where serde_json's default reader is exact.
            let longest_digits = text
                .split(|c: char| !c.is_ascii_digit())
                .map(str::len)
                .max();
            if !text.contains(['.', 'e', 'E']) && longest_digits <= Some(19) {
                assert_eq!(
                    ours.map(|value| value.to_string()),
                    theirs.map(|value| value.to_string()),
                    "{text:?}"
                );
            }
        }
        assert!(read > 100, "the random texts include JSON: {read}");
    }

    #[test]
    fn floats_are_read_correctly_rounded() {
        // serde_json's default reader gives 7.0000000000000005e99 for
        // `700e97`.
        for text in [
            "0.1",
            "2.2250738585072011e-308",
            "9007199254740993.0",
            "1e23",
            "700e97",
        ] {
            let read = parse(text).and_then(|value| match value {
                Value::Number(number) => Some(number.as_f64()),
                _ => None,
            });
            assert_eq!(read, text.parse::<f64>().ok(), "{text}");
        }
    }
}
