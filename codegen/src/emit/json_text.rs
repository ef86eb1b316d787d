//! Deterministic JSON text: object keys sorted (minor-version keys such as
//! `"1.9"` and `"1.10"` numerically, all others by their bytes), two-space
//! indentation, a final newline.

use serde_json::Value;
use std::cmp::Ordering;
use vergate_core::json::push_string;
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
    fn nested_writing_matches_indenting_the_whole() {
        let value = serde_json::json!({"a": [1, {"b": "x\ny"}], "1.10": {}, "1.9": [], "v": null});
        let whole = to_sorted_pretty(&value);
        let mut nested = String::new();
        write_value(&mut nested, &value, 2);
        assert_eq!(nested, whole.trim_end().replace('\n', "\n    "));
    }
}
