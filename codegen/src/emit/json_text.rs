//! Deterministic JSON text: object keys sorted (minor-version keys such as
//! `"1.9"` and `"1.10"` numerically, all others by their bytes), two-space
//! indentation, a final newline.

use serde_json::Value;
use std::cmp::Ordering;
use vergate_core::Version;

/// Pretty-prints `value` with sorted keys.
pub fn to_sorted_pretty(value: &Value) -> String {
    let mut out = String::new();
    write_value(&mut out, value, 0);
    out.push('\n');
    out
}

/// Appends `value` as [`to_sorted_pretty`] writes it nested `depth` levels
/// deep: every line after the first indented by `depth` more levels, and no
/// final newline.
pub fn write_value(out: &mut String, value: &Value, depth: usize) {
    match value {
        Value::Array(items) if !items.is_empty() => {
            out.push('[');
            for (index, item) in items.iter().enumerate() {
                if index > 0 {
                    out.push(',');
                }
                newline(out, depth + 1);
                write_value(out, item, depth + 1);
            }
            newline(out, depth);
            out.push(']');
        }
        Value::Object(map) if !map.is_empty() => {
            let mut entries: Vec<(&String, &Value)> = map.iter().collect();
            // serde_json's map is usually ordered by bytes already (unless
            // its `preserve_order` feature is on); then only keys that are
            // minor versions can need another order.
            let sorted = entries.windows(2).all(|pair| pair[0].0 < pair[1].0);
            if !sorted || entries.iter().any(|(key, _)| maybe_version(key)) {
                entries.sort_by(|a, b| compare_keys(a.0, b.0));
            }
            out.push('{');
            for (index, (key, item)) in entries.into_iter().enumerate() {
                if index > 0 {
                    out.push(',');
                }
                newline(out, depth + 1);
                push_string(out, key);
                out.push_str(": ");
                write_value(out, item, depth + 1);
            }
            newline(out, depth);
            out.push('}');
        }
        Value::Array(_) => out.push_str("[]"),
        Value::Object(_) => out.push_str("{}"),
        Value::String(text) => push_string(out, text),
        Value::Null => out.push_str("null"),
        Value::Bool(true) => out.push_str("true"),
        Value::Bool(false) => out.push_str("false"),
        number => out.push_str(&number.to_string()),
    }
}

/// Key order: two keys that are both minor versions compare as versions;
/// otherwise byte order.
pub fn compare_keys(a: &str, b: &str) -> Ordering {
    if !maybe_version(a) || !maybe_version(b) {
        return a.cmp(b);
    }
    match (a.parse::<Version>(), b.parse::<Version>()) {
        (Ok(x), Ok(y)) => x.cmp(&y).then_with(|| a.cmp(b)),
        _ => a.cmp(b),
    }
}

/// False for a key that cannot be a version (`v1.2`, `1.2`, `1.2.3`): a
/// cheap test that spares parsing almost every key.
fn maybe_version(key: &str) -> bool {
    let body = key.strip_prefix('v').unwrap_or(key);
    body.as_bytes().first().is_some_and(u8::is_ascii_digit)
}

/// Appends `text` as a JSON string, escaped exactly as serde_json escapes
/// it: `"`, `\\` and control characters only.
pub fn push_string(out: &mut String, text: &str) {
    out.push('"');
    let bytes = text.as_bytes();
    let mut start = 0;
    let mut index = 0;
    while index < bytes.len() {
        // Eight bytes at a time while none needs escaping: most text is plain.
        if let Some(word) = bytes.get(index..index + 8) {
            let word = u64::from_le_bytes(word.try_into().expect("eight bytes"));
            if !needs_escape(word) {
                index += 8;
                continue;
            }
        }
        let byte = bytes[index];
        let escape: &str = match byte {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0x08 => "\\b",
            0x0c => "\\f",
            0x00..=0x1f => "",
            _ => {
                index += 1;
                continue;
            }
        };
        out.push_str(&text[start..index]);
        if escape.is_empty() {
            const HEX: &[u8; 16] = b"0123456789abcdef";
            out.push_str("\\u00");
            out.push(HEX[usize::from(byte >> 4)] as char);
            out.push(HEX[usize::from(byte & 0xf)] as char);
        } else {
            out.push_str(escape);
        }
        index += 1;
        start = index;
    }
    out.push_str(&text[start..]);
    out.push('"');
}

/// True when one of the eight bytes of `word` is a control character, `"`
/// or `\\` (the usual SWAR tests; they may flag a clean word next to a hit,
/// never miss one, and a flagged word is then checked byte by byte).
fn needs_escape(word: u64) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let has_zero = |x: u64| x.wrapping_sub(ONES) & !x & HIGH;
    let below_space = word.wrapping_sub(ONES * 0x20) & !word & HIGH;
    let quote = has_zero(word ^ (ONES * u64::from(b'"')));
    let backslash = has_zero(word ^ (ONES * u64::from(b'\\')));
    below_space | quote | backslash != 0
}

fn newline(out: &mut String, depth: usize) {
    out.push('\n');
    for _ in 0..depth {
        out.push_str("  ");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_sorted_versions_numerically() {
        let value = serde_json::json!({"b": [1, {"y": null, "x": "\"q\""}], "a": {}, "1.10": 1, "1.9": 2, "c": []});
        let text = to_sorted_pretty(&value);
        assert_eq!(
            text,
            "{\n  \"1.9\": 2,\n  \"1.10\": 1,\n  \"a\": {},\n  \"b\": [\n    1,\n    {\n      \"x\": \"\\\"q\\\"\",\n      \"y\": null\n    }\n  ],\n  \"c\": []\n}\n"
        );
        let back: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(back, value);
    }

    #[test]
    fn strings_escape_as_serde_json_does() {
        let mut every: String = (0u32..0x300).filter_map(char::from_u32).collect();
        every.push_str("\u{2028}\u{ffff}\u{10ffff}é\"\\/");
        let mut texts = vec![every, String::new(), "\u{0}".into(), "end\\".into()];
        for offset in 0..20 {
            for special in ["\"", "\\", "\u{1f}", "\u{7f}", "é", " "] {
                let plain = "abcdefghijklmnopqrstuvwxyz";
                texts.push(format!("{}{special}{}", &plain[..offset], &plain[offset..]));
            }
        }
        for text in &texts {
            let mut out = String::new();
            push_string(&mut out, text);
            assert_eq!(out, Value::String(text.clone()).to_string());
        }
    }

    #[test]
    fn nested_writing_matches_indenting_the_whole() {
        let value = serde_json::json!({"a": [1, {"b": "x\ny"}], "1.10": {}, "1.9": [], "v": null});
        let whole = to_sorted_pretty(&value);
        let mut nested = String::new();
        write_value(&mut nested, &value, 2);
        assert_eq!(nested, whole.trim_end().replace('\n', "\n    "));
    }
}
