//! Pkl text escaping: string literals (from `vergate_core::pkl_text`, which
//! the runtime's local package swap uses too), `///` doc comments and
//! identifiers, plus the tera filters that apply them (the templates turn
//! autoescape off and escape through these only).

use std::collections::HashMap;
use tera::{Result as TeraResult, Value};
use vergate_core::alias::pkl_identifier;
use vergate_core::pkl_text::normalize_newlines;
pub use vergate_core::pkl_text::pkl_string;

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
