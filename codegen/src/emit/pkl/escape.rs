//! Pkl text escaping: string literals, `///` doc comments and identifiers,
//! plus the tera filters that apply them (the templates turn autoescape off
//! and escape through these only).

use std::borrow::Cow;
use std::collections::HashMap;
use tera::{Result as TeraResult, Value};
use vergate_core::alias::pkl_identifier;

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

/// `text` as `///` doc comment lines, each indented by `indent` spaces.
/// Empty when there is no text. Line breaks of any kind become new comment
/// lines; trailing spaces are trimmed so the output has none.
pub fn doc_comment(text: &str, indent: usize) -> String {
    let mut out = String::new();
    push_doc_comment(&mut out, text, indent);
    out
}

/// Appends [`doc_comment`]`(text, indent)` to `out`.
fn push_doc_comment(out: &mut String, text: &str, indent: usize) {
    let text = normalize_newlines(text);
    let text = text.trim_matches('\n');
    if text.trim().is_empty() {
        return;
    }
    let pad = " ".repeat(indent);
    out.reserve(text.len() + 16);
    let controls = has_control(text);
    for line in text.split('\n') {
        let cleaned;
        let mut line = line.trim_end();
        if controls && line.contains(|c: char| c.is_control() && c != '\t') {
            cleaned = line
                .chars()
                .map(|c| if c.is_control() && c != '\t' { ' ' } else { c })
                .collect::<String>();
            line = cleaned.trim_end();
        }
        out.push_str(&pad);
        if line.is_empty() {
            out.push_str("///\n");
        } else {
            out.push_str("/// ");
            out.push_str(line);
            out.push('\n');
        }
    }
}

/// True when `text` may hold a control character other than tab and line
/// feed: a C0 byte, DEL, or the lead byte of a C1 control (U+0080–U+009F).
/// A byte test, where most text has none.
fn has_control(text: &str) -> bool {
    text.bytes()
        .any(|byte| (byte < 0x20 && byte != b'\t' && byte != b'\n') || byte == 0x7f || byte == 0xc2)
}

fn normalize_newlines(text: &str) -> Cow<'_, str> {
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

/// Registers `pkl_string`, `pkl_doc(indent=N)` and `pkl_ident` on `tera`.
pub fn register_filters(tera: &mut tera::Tera) {
    tera.register_filter(
        "pkl_string",
        |value: &Value, _: &HashMap<String, Value>| -> TeraResult<Value> {
            Ok(Value::String(pkl_string(as_text(value, "pkl_string")?)))
        },
    );
    tera.register_filter(
        "pkl_doc",
        |value: &Value, args: &HashMap<String, Value>| -> TeraResult<Value> {
            let indent = args.get("indent").and_then(Value::as_u64).unwrap_or(0) as usize;
            Ok(Value::String(doc_comment(
                as_text(value, "pkl_doc")?,
                indent,
            )))
        },
    );
    tera.register_filter(
        "pkl_ident",
        |value: &Value, _: &HashMap<String, Value>| -> TeraResult<Value> {
            Ok(Value::String(
                pkl_identifier(as_text(value, "pkl_ident")?).into_owned(),
            ))
        },
    );
}

fn as_text<'v>(value: &'v Value, filter: &str) -> TeraResult<&'v str> {
    match value {
        Value::String(text) => Ok(text),
        Value::Null => Ok(""),
        other => Err(tera::Error::msg(format!(
            "the {filter} filter takes a string, not {other}"
        ))),
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
    fn doc_comments() {
        assert_eq!(doc_comment("", 2), "");
        assert_eq!(
            doc_comment("One.\n\nTwo.  ", 2),
            "  /// One.\n  ///\n  /// Two.\n"
        );
        assert_eq!(doc_comment("a\rb\u{2028}c", 0), "/// a\n/// b\n/// c\n");
        assert_eq!(doc_comment("bell\u{7}\u{7}", 0), "/// bell\n");
    }
}
