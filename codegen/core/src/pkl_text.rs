//! Pkl source text: string literals that evaluate back to their text (the
//! Pkl emitter's and the runtime's local package swap's), and which bytes
//! of a Pkl source are code rather than comments or strings (the swap's
//! edits of a PklProject).

use std::borrow::Cow;

/// `text` as a Pkl string literal that evaluates back to `text`.
///
/// A single-line text becomes `"…"`; a text with line breaks becomes a
/// multi-line string `"""…"""` (one source line per line, so long
/// descriptions stay readable). In both, `\` is written `\\` (so `\(` never
/// starts an interpolation) and `"` is written `\"` (so `"""` never closes the
/// string early); control characters use `\n`, `\r`, `\t` or `\u{…}`. `#` and
/// backticks need nothing because no custom delimiter is used.
pub fn pkl_string(text: &str) -> String {
    let text = normalize_newlines(text);
    if !text.contains('\n') {
        return format!("\"{}\"", escape_body(&text, false));
    }
    let mut out = String::from("\"\"\"\n");
    for line in text.split('\n') {
        out.push_str(&escape_body(line, true));
        out.push('\n');
    }
    out.push_str("\"\"\"");
    out
}

fn escape_body(text: &str, multiline: bool) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' if !multiline => out.push_str("\\t"),
            '\t' => out.push('\t'),
            c if c.is_control() || is_unicode_line_break(c) => {
                out.push_str(&format!("\\u{{{:x}}}", c as u32));
            }
            c => out.push(c),
        }
    }
    out
}

/// `text` with every line break (`\r\n`, `\r`, U+2028, U+2029, U+0085)
/// written as `\n`.
pub fn normalize_newlines(text: &str) -> Cow<'_, str> {
    // `\r` is one byte; U+2028, U+2029 (E2 80 A8/A9) and U+0085 (C2 85)
    // start with E2 or C2: most text has none of these bytes.
    let maybe = text
        .bytes()
        .any(|byte| byte == b'\r' || byte == 0xe2 || byte == 0xc2);
    if !maybe || !text.contains(['\r', '\u{2028}', '\u{2029}', '\u{85}']) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(
        text.replace("\r\n", "\n")
            .replace(['\r', '\u{2028}', '\u{2029}', '\u{85}'], "\n"),
    )
}

fn is_unicode_line_break(c: char) -> bool {
    matches!(c, '\u{2028}' | '\u{2029}' | '\u{85}')
}

/// For each byte of the Pkl source `text`, true when it is code: not inside
/// a comment (`//`, `///`, `/* */`) or a string literal (`"…"`, `"""…"""`,
/// and their `#"…"#` forms). The code of a `\(…)` interpolation inside a
/// string counts as code.
pub fn code_bytes(text: &str) -> Vec<bool> {
    let mut scanner = Scanner {
        bytes: text.as_bytes(),
        pos: 0,
        code: vec![false; text.len()],
    };
    scanner.code(false);
    scanner.code
}

struct Scanner<'a> {
    bytes: &'a [u8],
    pos: usize,
    code: Vec<bool>,
}

impl Scanner<'_> {
    fn at(&self, prefix: &[u8]) -> bool {
        self.bytes[self.pos..].starts_with(prefix)
    }

    fn hashes(&self) -> usize {
        self.bytes[self.pos..]
            .iter()
            .take_while(|b| **b == b'#')
            .count()
    }

    /// Code up to the end, or (`interpolation`) up to the `)` closing a
    /// `\(`, which is left unread.
    fn code(&mut self, interpolation: bool) {
        let mut depth = 0usize;
        while self.pos < self.bytes.len() {
            if self.at(b"//") {
                let end = self.bytes[self.pos..]
                    .iter()
                    .position(|b| *b == b'\n')
                    .map_or(self.bytes.len(), |n| self.pos + n);
                self.pos = end;
                continue;
            }
            if self.at(b"/*") {
                let end = self.bytes[self.pos + 2..]
                    .windows(2)
                    .position(|w| w == b"*/")
                    .map_or(self.bytes.len(), |n| self.pos + 2 + n + 2);
                self.pos = end;
                continue;
            }
            let hashes = self.hashes();
            if self.bytes.get(self.pos + hashes) == Some(&b'"') {
                self.string(hashes);
                continue;
            }
            match self.bytes[self.pos] {
                b'(' if interpolation => depth += 1,
                b')' if interpolation && depth == 0 => return,
                b')' if interpolation => depth -= 1,
                _ => {}
            }
            self.code[self.pos] = true;
            self.pos += 1;
        }
    }

    /// A string literal with `hashes` `#`s around it, from its first `#`
    /// or quote to past its end.
    fn string(&mut self, hashes: usize) {
        self.pos += hashes;
        let multiline = self.at(b"\"\"\"");
        self.pos += if multiline { 3 } else { 1 };
        let quotes: &[u8] = if multiline { b"\"\"\"" } else { b"\"" };
        while self.pos < self.bytes.len() {
            if self.at(quotes)
                && self.bytes[self.pos + quotes.len()..].starts_with(&vec![b'#'; hashes])
            {
                self.pos += quotes.len() + hashes;
                return;
            }
            if !multiline && self.bytes[self.pos] == b'\n' {
                return;
            }
            if self.bytes[self.pos] == b'\\'
                && self.bytes[self.pos + 1..].starts_with(&vec![b'#'; hashes])
            {
                self.pos += 1 + hashes;
                if self.bytes.get(self.pos) == Some(&b'(') {
                    self.pos += 1;
                    self.code(true);
                }
                // The escaped character, or the interpolation's `)`.
                self.pos += 1;
                continue;
            }
            self.pos += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings() {
        assert_eq!(pkl_string("plain"), "\"plain\"");
        assert_eq!(pkl_string(r#"say "hi""#), r#""say \"hi\"""#);
        assert_eq!(pkl_string(r"a\(b)"), r#""a\\(b)""#);
        assert_eq!(pkl_string(r#"x"""y"#), r#""x\"\"\"y""#);
        assert_eq!(pkl_string("#`tick`#"), "\"#`tick`#\"");
        assert_eq!(pkl_string("tab\there\u{7}"), "\"tab\\there\\u{7}\"");
        assert_eq!(
            pkl_string("two\r\nlines \"\"\""),
            "\"\"\"\ntwo\nlines \\\"\\\"\\\"\n\"\"\""
        );
    }

    #[test]
    fn code_leaves_out_comments_and_strings() {
        let text = r##"a // b }
c /* d } */ "e }" f #"g "} \#(h)"# """
i }
""" j"##;
        let code: String = text
            .char_indices()
            .filter(|(offset, _)| code_bytes(text)[*offset])
            .map(|(_, c)| c)
            .collect();
        assert_eq!(
            code.split_whitespace().collect::<Vec<_>>(),
            ["a", "c", "f", "h", "j"]
        );
    }
}
