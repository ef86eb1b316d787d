//! Compact JSON text, as serde_json's `Value::to_string` writes it: no
//! spaces, object keys in the map's order (sorted), strings escaped as
//! serde_json escapes them.

use super::Value;
use std::fmt;

/// Compact JSON text (`{"a":[1,"x"]}`), byte for byte serde_json's.
impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = String::new();
        write_compact(&mut out, self);
        f.write_str(&out)
    }
}

fn write_compact(out: &mut String, value: &Value) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(true) => out.push_str("true"),
        Value::Bool(false) => out.push_str("false"),
        Value::Number(number) => out.push_str(&number.to_string()),
        Value::String(text) => push_string(out, text),
        Value::Array(items) => {
            out.push('[');
            for (index, item) in items.iter().enumerate() {
                if index > 0 {
                    out.push(',');
                }
                write_compact(out, item);
            }
            out.push(']');
        }
        Value::Object(members) => {
            out.push('{');
            for (index, (key, item)) in members.iter().enumerate() {
                if index > 0 {
                    out.push(',');
                }
                push_string(out, key);
                out.push(':');
                write_compact(out, item);
            }
            out.push('}');
        }
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::{parse, Number, Object};

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
            assert_eq!(out, serde_json::Value::String(text.clone()).to_string());
        }
    }

    #[test]
    fn compact_text_is_serde_jsons() {
        let texts = [
            r#"{"b": [1, -2, 0.5, 1e300, -0.0, 100.0, 18446744073709551615], "a": {}, "c": [], "1.10": null, "1.9": true, "é\n": false}"#,
            r#"[[], {}, [{"": ""}], "\u0001\"\\"]"#,
            "1.7976931348623157e308",
            "5e-324",
            "123456789.125",
            "1e16",
            "1e15",
            "0.0001",
            "0.00001",
        ];
        for text in texts {
            let ours = parse(text).expect("JSON");
            let theirs: serde_json::Value = serde_json::from_str(text).unwrap();
            assert_eq!(ours.to_string(), theirs.to_string(), "{text}");
        }
        let built = Value::Object(Object::from_iter([
            ("z".to_owned(), Value::Number(Number::from(-3i64))),
            (
                "a".to_owned(),
                Value::Number(Number::from_f64(0.1).unwrap()),
            ),
        ]));
        assert_eq!(built.to_string(), r#"{"a":0.1,"z":-3}"#);
    }
}
