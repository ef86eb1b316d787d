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

/// Key order: two keys that are both minor versions compare as versions;
/// otherwise byte order.
pub fn compare_keys(a: &str, b: &str) -> Ordering {
    match (a.parse::<Version>(), b.parse::<Version>()) {
        (Ok(x), Ok(y)) => x.cmp(&y).then_with(|| a.cmp(b)),
        _ => a.cmp(b),
    }
}

fn write_value(out: &mut String, value: &Value, depth: usize) {
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
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort_by(|a, b| compare_keys(a, b));
            out.push('{');
            for (index, key) in keys.iter().enumerate() {
                if index > 0 {
                    out.push(',');
                }
                newline(out, depth + 1);
                out.push_str(&Value::String((*key).clone()).to_string());
                out.push_str(": ");
                write_value(out, &map[key.as_str()], depth + 1);
            }
            newline(out, depth);
            out.push('}');
        }
        scalar => out.push_str(&scalar.to_string()),
    }
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
}
