//! The text `upgrade` writes for a value it changed, in the style of the
//! text around it: a scalar in its old quoting where that still reads as
//! the new value, a collection in flow style inside flow (and JSON), in
//! block style at its column inside block YAML.
//!
//! Every text written here is read back by the caller (`edit::rewrite`),
//! so a rule too loose shows as a refusal, never as a wrong file.

use crate::document::scalar::{self, Syntax};
use crate::document::spans::Style;
use crate::document::{Node, Value};
use std::fmt::Write as _;

/// How the surroundings of an edit are written.
#[derive(Clone, Copy, Debug)]
pub(super) struct Context<'a> {
    pub syntax: Syntax,
    /// Inside a flow collection (`[…]`, `{…}`): no block style, and plain
    /// scalars may not hold `,[]{}`.
    pub in_flow: bool,
    /// The file's line break (`\n` or `\r\n`).
    pub newline: &'a str,
}

/// The text of a scalar `value` (or a key), written in `style` where that
/// reads back as `value`, else in double quotes (JSON: as JSON).
pub(super) fn scalar_text(value: &Value, style: Style, context: Context<'_>) -> Option<String> {
    if context.syntax == Syntax::Json {
        return json_scalar(value);
    }
    let text = match value {
        Value::Null => "null".to_owned(),
        Value::Bool(flag) => flag.to_string(),
        Value::Int(number) => number.to_string(),
        Value::Float(text) => text.to_string(),
        Value::String(text) => return Some(yaml_string(text, style, context.in_flow)),
        Value::Seq(_) | Value::Map(_) => return None,
    };
    Some(text)
}

/// A string in YAML: plain where the old text was plain and the string
/// reads back as itself, single-quoted where it was single-quoted and has
/// no line break, else double-quoted.
fn yaml_string(text: &str, style: Style, in_flow: bool) -> String {
    match style {
        Style::Plain if plain_reads_back(text, in_flow) => text.to_owned(),
        Style::SingleQuoted if !text.chars().any(char::is_control) => {
            format!("'{}'", text.replace('\'', "''"))
        }
        _ => double_quoted(text),
    }
}

/// True when `text` written plain reads back as the string `text`.
fn plain_reads_back(text: &str, in_flow: bool) -> bool {
    let Some(first) = text.chars().next() else {
        return false;
    };
    let indicator = "-?:,[]{}#&*!|>'\"%@`".contains(first);
    let safe_chars = text
        .chars()
        .all(|c| (c.is_ascii_graphic() || c == ' ') && !(in_flow && ",[]{}".contains(c)));
    if indicator
        || !safe_chars
        || text.ends_with([' ', ':'])
        || text.contains(": ")
        || text.contains(" #")
    {
        return false;
    }
    matches!(
        scalar::resolve(text.into(), true, None, Syntax::Yaml),
        Ok(Value::String(read)) if read == text
    )
}

/// A YAML double-quoted string, every control character escaped.
fn double_quoted(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if c.is_control() || matches!(c, '\u{2028}' | '\u{2029}' | '\u{feff}') => {
                let _ = write!(out, "\\u{:04X}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A scalar as JSON writes it.
fn json_scalar(value: &Value) -> Option<String> {
    match value {
        Value::Seq(_) | Value::Map(_) => None,
        Value::Float(text) => Some(text.to_string()),
        _ => serde_json::to_string(&Node::new(value.clone()).to_json()).ok(),
    }
}

/// A whole value in flow style on one line: `{a: 1, b: [x, y]}`, or JSON.
pub(super) fn flow(node: &Node, context: Context<'_>) -> Option<String> {
    let context = Context {
        in_flow: true,
        ..context
    };
    let mut out = String::new();
    flow_into(&mut out, node, context)?;
    Some(out)
}

fn flow_into(out: &mut String, node: &Node, context: Context<'_>) -> Option<()> {
    match &node.value {
        Value::Seq(items) => {
            out.push('[');
            for (at, item) in items.iter().enumerate() {
                if at > 0 {
                    out.push_str(", ");
                }
                flow_into(out, item, context)?;
            }
            out.push(']');
        }
        Value::Map(entries) => {
            out.push('{');
            for (at, entry) in entries.iter().enumerate() {
                if at > 0 {
                    out.push_str(", ");
                }
                let key = Value::String(entry.key.clone());
                out.push_str(&scalar_text(&key, Style::Plain, context)?);
                out.push_str(": ");
                flow_into(out, &entry.value, context)?;
            }
            out.push('}');
        }
        scalar => out.push_str(&scalar_text(scalar, Style::Plain, context)?),
    }
    Some(())
}

/// A list or mapping in block style whose first line starts at `column`
/// (where the old node started); its other lines are indented to match.
pub(super) fn block(node: &Node, column: usize, context: Context<'_>) -> Option<String> {
    let mut lines = Vec::new();
    block_lines(&mut lines, node, 0, context)?;
    let mut out = String::new();
    for (at, line) in lines.iter().enumerate() {
        if at > 0 {
            out.push_str(context.newline);
            out.push_str(&" ".repeat(column));
        }
        out.push_str(line);
    }
    Some(out)
}

/// The lines of a block collection, each indented by `indent` more than
/// the collection's first line.
fn block_lines(
    lines: &mut Vec<String>,
    node: &Node,
    indent: usize,
    context: Context<'_>,
) -> Option<()> {
    let pad = " ".repeat(indent);
    match &node.value {
        Value::Map(entries) if !entries.is_empty() => {
            for entry in entries {
                let key = scalar_text(&Value::String(entry.key.clone()), Style::Plain, context)?;
                match &entry.value.value {
                    Value::Map(inner) if !inner.is_empty() => {
                        lines.push(format!("{pad}{key}:"));
                        block_lines(lines, &entry.value, indent + 2, context)?;
                    }
                    Value::Seq(inner) if !inner.is_empty() => {
                        lines.push(format!("{pad}{key}:"));
                        block_lines(lines, &entry.value, indent + 2, context)?;
                    }
                    _ => lines.push(format!("{pad}{key}: {}", flow(&entry.value, context)?)),
                }
            }
        }
        Value::Seq(items) if !items.is_empty() => {
            for item in items {
                let nested = matches!(&item.value, Value::Map(inner) if !inner.is_empty())
                    || matches!(&item.value, Value::Seq(inner) if !inner.is_empty());
                if !nested {
                    lines.push(format!("{pad}- {}", flow(item, context)?));
                    continue;
                }
                let mut inner = Vec::new();
                block_lines(&mut inner, item, 0, context)?;
                for (at, line) in inner.into_iter().enumerate() {
                    let lead = if at == 0 { "- " } else { "  " };
                    lines.push(format!("{pad}{lead}{line}"));
                }
            }
        }
        _ => lines.push(format!("{pad}{}", flow(node, context)?)),
    }
    Some(())
}

/// A value as JSON, in the layout of the text it replaces: on one line
/// when that was, else indented from `column` by `unit` per level.
pub(super) fn json(
    node: &Node,
    column: usize,
    unit: &str,
    one_line: bool,
    newline: &str,
) -> String {
    let value = node.to_json();
    let mut out = String::new();
    json_into(&mut out, &value, column, unit, one_line, newline);
    out
}

fn json_into(
    out: &mut String,
    value: &serde_json::Value,
    column: usize,
    unit: &str,
    one_line: bool,
    newline: &str,
) {
    use serde_json::Value as J;
    let (open, close, len) = match value {
        J::Array(items) => ('[', ']', items.len()),
        J::Object(members) => ('{', '}', members.len()),
        scalar => {
            out.push_str(&scalar.to_string());
            return;
        }
    };
    out.push(open);
    if len == 0 {
        out.push(close);
        return;
    }
    let inner = format!("{}{unit}", " ".repeat(column));
    let children: Vec<(Option<&String>, &J)> = match value {
        J::Array(items) => items.iter().map(|item| (None, item)).collect(),
        J::Object(members) => members.iter().map(|(k, v)| (Some(k), v)).collect(),
        _ => Vec::new(),
    };
    for (at, (key, child)) in children.into_iter().enumerate() {
        if at > 0 {
            out.push(',');
            if one_line {
                out.push(' ');
            }
        }
        if !one_line {
            out.push_str(newline);
            out.push_str(&inner);
        }
        if let Some(key) = key {
            out.push_str(&J::String(key.clone()).to_string());
            out.push_str(": ");
        }
        json_into(out, child, inner.len(), unit, one_line, newline);
    }
    if !one_line {
        out.push_str(newline);
        out.push_str(&" ".repeat(column));
    }
    out.push(close);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::parse;

    const YAML: Context<'static> = Context {
        syntax: Syntax::Yaml,
        in_flow: false,
        newline: "\n",
    };

    fn string(text: &str) -> Value {
        Value::String(text.into())
    }

    #[test]
    fn strings_keep_their_quoting_where_it_reads_back() {
        let plain = |text| scalar_text(&string(text), Style::Plain, YAML).unwrap();
        assert_eq!(plain("apps/v1"), "apps/v1");
        for (text, written) in [
            ("1.12", "\"1.12\""),
            ("8080", "\"8080\""),
            ("yes", "\"yes\""),
            ("a: b", "\"a: b\""),
            ("- x", "\"- x\""),
            ("", "\"\""),
            ("tab\there", "\"tab\\there\""),
        ] {
            assert_eq!(plain(text), written, "{text:?}");
        }
        let single = scalar_text(&string("it's"), Style::SingleQuoted, YAML).unwrap();
        assert_eq!(single, "'it''s'");
        let flow = Context {
            in_flow: true,
            ..YAML
        };
        assert_eq!(
            scalar_text(&string("a,b"), Style::Plain, flow).unwrap(),
            "\"a,b\""
        );
        let json = Context {
            syntax: Syntax::Json,
            ..YAML
        };
        assert_eq!(
            scalar_text(&string("x\"y"), Style::Plain, json).unwrap(),
            "\"x\\\"y\""
        );
    }

    #[test]
    fn collections_read_back_as_written() {
        let text = "a:\n  b: [1, 'x']\n  c:\n  - d: true\n    e: ~\n  - [1]\n  f: {}\n";
        let node = parse(text).documents.remove(0).root;
        let block = block(&node, 0, YAML).unwrap();
        let again = parse(&block).documents.remove(0).root;
        assert_eq!(again.to_json(), node.to_json(), "{block}");
        let flow = flow(&node, YAML).unwrap();
        assert_eq!(
            flow,
            "{a: {b: [1, x], c: [{d: true, e: null}, [1]], f: {}}}"
        );
        let json = json(&node, 0, "  ", false, "\n");
        assert_eq!(
            serde_json::from_str::<serde_json::Value>(&json).unwrap(),
            node.to_json()
        );
    }
}
