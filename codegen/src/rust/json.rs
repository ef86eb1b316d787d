//! A JSON value small enough to build and write without serde_json, which
//! stays out of the proc macro's dependency tree. Object keys keep the order
//! they were inserted in; callers insert in a deterministic order.

use std::fmt::Write;

/// A JSON value; [`Json::Raw`] holds JSON text written by someone else (the
/// model keeps validation keywords as compact JSON text).
#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    Bool(bool),
    String(String),
    Array(Vec<Json>),
    Object(Vec<(String, Json)>),
    Raw(String),
}

impl Json {
    /// An empty object.
    pub fn object() -> Json {
        Json::Object(Vec::new())
    }

    /// A string value.
    pub fn string(value: impl Into<String>) -> Json {
        Json::String(value.into())
    }

    /// Adds `key` to an object (a no-op on anything else).
    pub fn with(mut self, key: &str, value: Json) -> Json {
        if let Json::Object(entries) = &mut self {
            entries.push((key.to_owned(), value));
        }
        self
    }

    /// Compact JSON text.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        self.write(&mut out);
        out
    }

    fn write(&self, out: &mut String) {
        match self {
            Json::Bool(value) => out.push_str(if *value { "true" } else { "false" }),
            Json::String(value) => write_string(value, out),
            Json::Raw(text) => out.push_str(text),
            Json::Array(items) => {
                out.push('[');
                for (index, item) in items.iter().enumerate() {
                    if index > 0 {
                        out.push(',');
                    }
                    item.write(out);
                }
                out.push(']');
            }
            Json::Object(entries) => {
                out.push('{');
                for (index, (key, value)) in entries.iter().enumerate() {
                    if index > 0 {
                        out.push(',');
                    }
                    write_string(key, out);
                    out.push(':');
                    value.write(out);
                }
                out.push('}');
            }
        }
    }
}

/// Writes a JSON string literal (RFC 8259 §7: quote, backslash and control
/// characters escaped).
fn write_string(value: &str, out: &mut String) {
    out.push('"');
    for c in value.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_and_order() {
        let value = Json::object()
            .with("b", Json::string("say \"hi\"\\\n\u{1}é"))
            .with(
                "a",
                Json::Array(vec![Json::Bool(true), Json::Raw("1".into())]),
            );
        assert_eq!(
            value.to_text(),
            r#"{"b":"say \"hi\"\\\n\u0001é","a":[true,1]}"#
        );
    }
}
