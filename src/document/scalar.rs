//! What a scalar means: the rules Kubernetes reads YAML and JSON by.
//!
//! kubectl turns YAML into JSON with sigs.k8s.io/yaml, which resolves plain
//! (unquoted) scalars by YAML 1.1 as go-yaml v2 does (`resolve.go`):
//! `yes`/`on`/`y` are booleans, `017` is octal, `1_000` is a thousand. A file
//! whose first character is `{` is JSON to kubectl (its decoder sniffs for
//! that), and JSON has only `true`, `false`, `null` and JSON numbers.
//! docs/cli.md lists the rules with examples.

use super::{CompactString, Value};
use std::borrow::Cow;

/// Which rules plain scalars follow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Syntax {
    /// YAML 1.1 as go-yaml v2 (and so kubectl) reads it.
    Yaml,
    /// JSON: a plain scalar must be `true`, `false`, `null` or a JSON number.
    Json,
}

impl Syntax {
    /// The syntax kubectl would read `text` in: JSON when the first
    /// character that is not white space is `{`.
    pub fn sniff(text: &str) -> Syntax {
        if text.trim_start().starts_with('{') {
            Syntax::Json
        } else {
            Syntax::Yaml
        }
    }
}

/// Why a scalar cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScalarError(pub String);

/// An explicit standard tag on a scalar (`!!int 3`), as go-yaml v2 reads
/// it (`resolve.go`, `decode.go`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StandardTag {
    Str,
    Int,
    Float,
    Bool,
    Null,
    /// `!!timestamp`: the text must be a timestamp go-yaml reads; it stays
    /// the string written (sigs.k8s.io/yaml sends it as written).
    Timestamp,
    /// `!!binary`: base64, decoded; the bytes become the string.
    Binary,
    /// Any other tag (`!custom`, `!!set`, `!!foo`): the text stays a string.
    Other,
}

impl StandardTag {
    /// The tag for a YAML tag's handle and suffix: `!!int` (handle
    /// `tag:yaml.org,2002:`) and `!<tag:yaml.org,2002:int>` (verbatim, no
    /// handle) are the same tag.
    pub fn from_parts(handle: &str, suffix: &str) -> StandardTag {
        const PREFIX: &str = "tag:yaml.org,2002:";
        let name = if handle == PREFIX {
            suffix
        } else if handle.is_empty() {
            match suffix.strip_prefix(PREFIX) {
                Some(name) => name,
                None => return StandardTag::Other,
            }
        } else {
            return StandardTag::Other;
        };
        match name {
            "str" => StandardTag::Str,
            "int" => StandardTag::Int,
            "float" => StandardTag::Float,
            "bool" => StandardTag::Bool,
            "null" => StandardTag::Null,
            "timestamp" => StandardTag::Timestamp,
            "binary" => StandardTag::Binary,
            _ => StandardTag::Other,
        }
    }
}

/// The value of a scalar: `plain` when it was written without quotes,
/// `tag` when it carries an explicit one.
#[inline]
pub fn resolve(
    text: CompactString,
    plain: bool,
    tag: Option<StandardTag>,
    syntax: Syntax,
) -> Result<Value, ScalarError> {
    match tag {
        Some(StandardTag::Str | StandardTag::Other) => return Ok(Value::String(text)),
        Some(StandardTag::Binary) => return binary(&text),
        Some(StandardTag::Timestamp) => return timestamp(text),
        Some(wanted) => return tagged(text, wanted),
        None => {}
    }
    if !plain {
        return Ok(Value::String(text));
    }
    match syntax {
        Syntax::Yaml => Ok(yaml11(text)),
        Syntax::Json => json(text),
    }
}

/// A `!!binary` scalar as go-yaml v2 decodes it: base64 by Go's
/// `StdEncoding` (line breaks ignored), the bytes made a string; bytes
/// that are not UTF-8 become U+FFFD each, as encoding/json writes them.
fn binary(text: &str) -> Result<Value, ScalarError> {
    let bytes = go_base64(text).ok_or_else(|| {
        ScalarError(format!(
            "{text:?} is not base64, which `!!binary` needs (kubectl refuses it); fix the value or remove the tag"
        ))
    })?;
    Ok(Value::String(go_lossy_utf8(&bytes).into()))
}

/// Go's `base64.StdEncoding`: the standard alphabet, padding required,
/// stray bits after the last character allowed.
const GO_STD_ENCODING: base64::engine::GeneralPurpose = base64::engine::GeneralPurpose::new(
    &base64::alphabet::STANDARD,
    base64::engine::GeneralPurposeConfig::new()
        .with_decode_padding_mode(base64::engine::DecodePaddingMode::RequireCanonical)
        .with_decode_allow_trailing_bits(true),
);

/// `text` decoded as Go's `base64.StdEncoding.DecodeString` decodes it
/// (which ignores CR and LF), or `None`.
pub fn go_base64(text: &str) -> Option<Vec<u8>> {
    use base64::Engine;
    if text.contains(['\r', '\n']) {
        let text: String = text.chars().filter(|c| !matches!(c, '\r' | '\n')).collect();
        return GO_STD_ENCODING.decode(text).ok();
    }
    GO_STD_ENCODING.decode(text).ok()
}

/// Bytes as a string the way Go's encoding/json writes a string holding
/// them: each byte that does not start a valid UTF-8 sequence is U+FFFD.
fn go_lossy_utf8(mut bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    loop {
        match std::str::from_utf8(bytes) {
            Ok(valid) => {
                out.push_str(valid);
                return out;
            }
            Err(err) => {
                let (valid, rest) = bytes.split_at(err.valid_up_to());
                out.push_str(std::str::from_utf8(valid).expect("valid up to here"));
                out.push(char::REPLACEMENT_CHARACTER);
                bytes = &rest[1..];
            }
        }
    }
}

/// A `!!timestamp` scalar: go-yaml v2 refuses one its `parseTimestamp`
/// cannot read, and sigs.k8s.io/yaml sends one it reads as written.
fn timestamp(text: CompactString) -> Result<Value, ScalarError> {
    if go_yaml_timestamp(&text) {
        return Ok(Value::String(text));
    }
    Err(ScalarError(format!(
        "cannot read {text:?} as !!timestamp (a date `2001-12-14`, or a date and time `2001-12-14T21:59:43.10-05:00`); remove the tag or fix the value"
    )))
}

/// go-yaml v2's `parseTimestamp`: four digits and `-`, then Go's
/// `time.Parse` with one of `2006-1-2T15:4:5.999999999Z07:00`, the same
/// with `t`, `2006-1-2 15:4:5.999999999` or `2006-1-2`.
fn go_yaml_timestamp(text: &str) -> bool {
    let bytes = text.as_bytes();
    // Go's `getnum(value, false)`: one digit, or two.
    let number = |at: &mut usize| -> Option<u32> {
        let first = *bytes.get(*at)?;
        if !first.is_ascii_digit() {
            return None;
        }
        *at += 1;
        let mut value = u32::from(first - b'0');
        if let Some(second) = bytes.get(*at).filter(|byte| byte.is_ascii_digit()) {
            value = value * 10 + u32::from(second - b'0');
            *at += 1;
        }
        Some(value)
    };
    let fixed2 = |at: &mut usize| -> Option<u32> {
        let digits = bytes.get(*at..*at + 2)?;
        if !digits.iter().all(u8::is_ascii_digit) {
            return None;
        }
        *at += 2;
        Some(u32::from(digits[0] - b'0') * 10 + u32::from(digits[1] - b'0'))
    };
    let parse = || -> Option<()> {
        if bytes.len() < 5 || !bytes[..4].iter().all(u8::is_ascii_digit) || bytes[4] != b'-' {
            return None;
        }
        let year: u32 = text[..4].parse().ok()?;
        let mut at = 5;
        let month = number(&mut at)?;
        (bytes.get(at) == Some(&b'-')).then_some(())?;
        at += 1;
        let day = number(&mut at)?;
        if !(1..=12).contains(&month) || day < 1 || day > days_in(month, year) {
            return None;
        }
        if at == bytes.len() {
            return Some(());
        }
        let separator = bytes[at];
        if !matches!(separator, b'T' | b't' | b' ') {
            return None;
        }
        at += 1;
        let hour = number(&mut at)?;
        (bytes.get(at) == Some(&b':')).then_some(())?;
        at += 1;
        let minute = number(&mut at)?;
        (bytes.get(at) == Some(&b':')).then_some(())?;
        at += 1;
        let second = number(&mut at)?;
        if hour > 23 || minute > 59 || second > 59 {
            return None;
        }
        // A fraction: `.` or `,` and digits.
        if matches!(bytes.get(at), Some(b'.' | b','))
            && bytes.get(at + 1).is_some_and(u8::is_ascii_digit)
        {
            at += 1;
            while bytes.get(at).is_some_and(u8::is_ascii_digit) {
                at += 1;
            }
        }
        if separator == b' ' {
            return (at == bytes.len()).then_some(());
        }
        // `Z07:00`: `Z`, or a sign, two digits, `:`, two digits.
        match bytes.get(at)? {
            b'Z' => at += 1,
            b'+' | b'-' => {
                at += 1;
                let hours = fixed2(&mut at)?;
                (bytes.get(at) == Some(&b':')).then_some(())?;
                at += 1;
                let minutes = fixed2(&mut at)?;
                if hours > 24 || minutes > 59 {
                    return None;
                }
            }
            _ => return None,
        }
        (at == bytes.len()).then_some(())
    };
    parse().is_some()
}

/// The days of `month` (1–12) in `year` of the Gregorian calendar.
pub(crate) fn days_in(month: u32, year: u32) -> u32 {
    match month {
        2 if year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// A scalar with an explicit `!!int`, `!!float`, `!!bool` or `!!null` tag:
/// its text must resolve to that type (an integer may be tagged `!!float`).
fn tagged(text: CompactString, wanted: StandardTag) -> Result<Value, ScalarError> {
    let value = yaml11(text.clone());
    let fits = matches!(
        (&value, wanted),
        (Value::Int(_), StandardTag::Int | StandardTag::Float)
            | (Value::Float(_), StandardTag::Float)
            | (Value::Bool(_), StandardTag::Bool)
            | (Value::Null, StandardTag::Null)
    );
    if !fits {
        let name = match wanted {
            StandardTag::Int => "!!int",
            StandardTag::Float => "!!float",
            StandardTag::Bool => "!!bool",
            _ => "!!null",
        };
        return Err(ScalarError(format!(
            "cannot read {text:?} as {name}; remove the tag or fix the value"
        )));
    }
    Ok(match (value, wanted) {
        (Value::Int(int), StandardTag::Float) => Value::Float(int.to_string().into()),
        (value, _) => value,
    })
}

/// A plain scalar by go-yaml v2's `resolve` (YAML 1.1 without timestamps,
/// which sigs.k8s.io/yaml keeps as strings, and without base-60 numbers,
/// which go-yaml never read).
#[inline]
fn yaml11(text: CompactString) -> Value {
    if plain_is_string(&text) {
        return Value::String(text);
    }
    yaml11_special(text)
}

/// [`yaml11`] for a scalar that may be a word or a number.
fn yaml11_special(text: CompactString) -> Value {
    match text.as_str() {
        "y" | "Y" | "yes" | "Yes" | "YES" | "true" | "True" | "TRUE" | "on" | "On" | "ON" => {
            return Value::Bool(true)
        }
        "n" | "N" | "no" | "No" | "NO" | "false" | "False" | "FALSE" | "off" | "Off" | "OFF" => {
            return Value::Bool(false)
        }
        "" | "~" | "null" | "Null" | "NULL" => return Value::Null,
        ".nan" | ".NaN" | ".NAN" | ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF"
        | "-.inf" | "-.Inf" | "-.INF" => return Value::Float(text),
        _ => {}
    }
    match text.as_bytes()[0] {
        b'.' => dot_float(text),
        b'0'..=b'9' | b'+' | b'-' => number(text),
        _ => Value::String(text),
    }
}

/// True when a plain scalar is a string by YAML 1.1 at a glance, as most
/// are (names): it neither starts as a number does nor as one of the
/// words for booleans and null does (or is longer than all of them).
fn plain_is_string(text: &str) -> bool {
    let first = text.as_bytes().first().copied();
    let maybe_number = matches!(first, Some(b'0'..=b'9' | b'+' | b'-' | b'.'));
    let maybe_word = text.len() <= 5
        && matches!(
            first,
            None | Some(b'y' | b'Y' | b'n' | b'N' | b't' | b'T' | b'f' | b'F' | b'o' | b'O' | b'~')
        );
    !maybe_number && !maybe_word
}

/// A scalar starting with `.`: Go's `ParseFloat`, which takes `_` between
/// digits (`.5_0`).
fn dot_float(text: CompactString) -> Value {
    let bytes = text.as_bytes();
    let underscores_ok = bytes.iter().enumerate().all(|(at, &b)| {
        b != b'_'
            || (at > 0
                && bytes[at - 1].is_ascii_digit()
                && bytes.get(at + 1).is_some_and(u8::is_ascii_digit))
    });
    let plain: CompactString = text.chars().filter(|&c| c != '_').collect();
    if underscores_ok && finite_float(&plain) {
        Value::Float(plain)
    } else {
        Value::String(text)
    }
}

/// A scalar starting with a digit or a sign: Go's `ParseInt(s, 0, 64)`, then
/// `ParseUint`, then a decimal float, all after removing `_`.
fn number(text: CompactString) -> Value {
    let plain: Cow<'_, str> = if text.contains('_') {
        Cow::Owned(text.chars().filter(|&c| c != '_').collect())
    } else {
        Cow::Borrowed(&text)
    };
    match go_integer(&plain) {
        Some(GoInteger::Signed(int)) => return Value::Int(int),
        Some(GoInteger::Unsigned(uint)) => return Value::Float(uint.to_string().into()),
        None => {}
    }
    if yaml_style_float(&plain) && finite_float(&plain) {
        return Value::Float(plain.into());
    }
    Value::String(text)
}

enum GoInteger {
    Signed(i64),
    /// Above `i64::MAX`: go-yaml gives a uint64.
    Unsigned(u64),
}

/// Go's `strconv.ParseInt(s, 0, 64)` falling back to `ParseUint(s, 0, 64)`:
/// an optional sign, then `0x`/`0o`/`0b` or a leading `0` (octal) or decimal.
fn go_integer(text: &str) -> Option<GoInteger> {
    let (negative, rest) = match text.as_bytes().first()? {
        b'-' => (true, &text[1..]),
        b'+' => (false, &text[1..]),
        _ => (false, text),
    };
    let (radix, digits) = match rest.as_bytes() {
        [b'0', prefix, _, ..] if prefix.eq_ignore_ascii_case(&b'x') => (16, &rest[2..]),
        [b'0', prefix, _, ..] if prefix.eq_ignore_ascii_case(&b'o') => (8, &rest[2..]),
        [b'0', prefix, _, ..] if prefix.eq_ignore_ascii_case(&b'b') => (2, &rest[2..]),
        [b'0'] => return Some(GoInteger::Signed(0)),
        [b'0', ..] => (8, &rest[1..]),
        _ => (10, rest),
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    let magnitude = u64::from_str_radix(digits, radix).ok()?;
    if negative {
        if magnitude <= i64::MAX as u64 + 1 {
            return Some(GoInteger::Signed((magnitude as i64).wrapping_neg()));
        }
        return None;
    }
    match i64::try_from(magnitude) {
        Ok(int) => Some(GoInteger::Signed(int)),
        // `ParseUint` takes no sign: `+9223372036854775808` is a float.
        Err(_) if text.starts_with('+') => None,
        Err(_) => Some(GoInteger::Unsigned(magnitude)),
    }
}

/// go-yaml's `yamlStyleFloat`: `^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`.
fn yaml_style_float(text: &str) -> bool {
    let bytes = text.as_bytes();
    let mut at = usize::from(matches!(bytes.first(), Some(b'-' | b'+')));
    let digits = |at: &mut usize| {
        let start = *at;
        while bytes.get(*at).is_some_and(u8::is_ascii_digit) {
            *at += 1;
        }
        *at - start
    };
    if bytes.get(at) == Some(&b'.') {
        at += 1;
        if digits(&mut at) == 0 {
            return false;
        }
    } else {
        if digits(&mut at) == 0 {
            return false;
        }
        if bytes.get(at) == Some(&b'.') {
            at += 1;
            digits(&mut at);
        }
    }
    if matches!(bytes.get(at), Some(b'e' | b'E')) {
        at += 1;
        if matches!(bytes.get(at), Some(b'-' | b'+')) {
            at += 1;
        }
        if digits(&mut at) == 0 {
            return false;
        }
    }
    at == bytes.len()
}

/// Go's `ParseFloat` succeeds: a decimal float that does not overflow.
fn finite_float(text: &str) -> bool {
    text.bytes()
        .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'-' | b'+'))
        && text.parse::<f64>().is_ok_and(f64::is_finite)
}

/// A plain scalar in JSON: a literal or a number, nothing else.
fn json(text: CompactString) -> Result<Value, ScalarError> {
    match text.as_str() {
        "true" => return Ok(Value::Bool(true)),
        "false" => return Ok(Value::Bool(false)),
        "null" => return Ok(Value::Null),
        _ => {}
    }
    if !json_number(&text) {
        return Err(ScalarError(format!(
            "invalid JSON: `{text}` is not a JSON value; quote strings (\"{text}\") or write the file as YAML (a JSON file is one whose first character is `{{`)"
        )));
    }
    if !text.contains(['.', 'e', 'E']) {
        if let Ok(int) = text.parse::<i64>() {
            return Ok(Value::Int(int));
        }
    }
    Ok(Value::Float(text))
}

/// RFC 8259's `number`: `-? (0 | [1-9][0-9]*) (\.[0-9]+)? ([eE][-+]?[0-9]+)?`.
fn json_number(text: &str) -> bool {
    let bytes = text.as_bytes();
    let mut at = usize::from(bytes.first() == Some(&b'-'));
    let digits = |at: &mut usize| {
        let start = *at;
        while bytes.get(*at).is_some_and(u8::is_ascii_digit) {
            *at += 1;
        }
        *at - start
    };
    match bytes.get(at) {
        Some(b'0') => at += 1,
        Some(b'1'..=b'9') => {
            digits(&mut at);
        }
        _ => return false,
    }
    if bytes.get(at) == Some(&b'.') {
        at += 1;
        if digits(&mut at) == 0 {
            return false;
        }
    }
    if matches!(bytes.get(at), Some(b'e' | b'E')) {
        at += 1;
        if matches!(bytes.get(at), Some(b'-' | b'+')) {
            at += 1;
        }
        if digits(&mut at) == 0 {
            return false;
        }
    }
    at == bytes.len()
}

/// A resolved scalar as a mapping key, the way sigs.k8s.io/yaml turns keys
/// into JSON object keys: booleans become `true`/`false`, integers their
/// decimal text, floats Go's `FormatFloat(f, 'g', -1, 32)`. An error for
/// the keys it refuses: a null, and an integer beyond int64 (go-yaml's
/// uint64, a key type sigs.k8s.io/yaml does not convert).
pub fn key_text(value: Value) -> Result<CompactString, ScalarError> {
    match value {
        Value::Null | Value::Seq(_) | Value::Map(_) => Err(ScalarError(
            "a null mapping key (`~`, `null` or nothing before `:`); Kubernetes cannot read it: name the key".into(),
        )),
        Value::Bool(b) => Ok(b.to_string().into()),
        Value::Int(i) => Ok(i.to_string().into()),
        Value::Float(text) if is_uint64_text(&text) => Err(ScalarError(format!(
            "the key {text} is an integer beyond int64, which kubectl cannot turn into a JSON key; quote it"
        ))),
        Value::Float(text) => Ok(go_float32_text(&text).into()),
        Value::String(text) => Ok(text),
    }
}

/// True for the text [`number`] gives a uint64 (above `i64::MAX`): decimal
/// digits without a leading zero.
fn is_uint64_text(text: &str) -> bool {
    !text.starts_with('0')
        && text.bytes().all(|byte| byte.is_ascii_digit())
        && text
            .parse::<u64>()
            .is_ok_and(|value| value > i64::MAX as u64)
}

/// Go's `strconv.FormatFloat(f, 'g', -1, 32)` with sigs.k8s.io/yaml's
/// spelling of the infinities and NaN.
fn go_float32_text(text: &str) -> String {
    let lower = text.to_ascii_lowercase();
    match lower.as_str() {
        ".nan" => return ".nan".into(),
        ".inf" | "+.inf" => return ".inf".into(),
        "-.inf" => return "-.inf".into(),
        _ => {}
    }
    let Ok(value) = text.parse::<f32>() else {
        return text.to_owned();
    };
    if value.is_infinite() {
        return if value > 0.0 { ".inf" } else { "-.inf" }.into();
    }
    if value == 0.0 {
        return if value.is_sign_negative() { "-0" } else { "0" }.into();
    }
    // Shortest digits and the decimal exponent, from Rust's `{:e}`.
    let scientific = format!("{value:e}");
    let (mantissa, exponent) = scientific
        .split_once('e')
        .expect("`{:e}` always writes an exponent");
    let exponent: i32 = exponent.parse().expect("`{:e}` writes an integer exponent");
    // 'g' with the shortest precision writes an exponent below 1e-4 and
    // from 1e6 up (strconv's `eprec` is 6 when shortest).
    if !(-4..6).contains(&exponent) {
        return go_exponent(mantissa, exponent);
    }
    format!("{value}")
}

fn go_exponent(mantissa: &str, exponent: i32) -> String {
    let sign = if exponent < 0 { '-' } else { '+' };
    format!("{mantissa}e{sign}{:02}", exponent.abs())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(text: &str) -> Value {
        resolve(text.into(), true, None, Syntax::Yaml).unwrap()
    }

    #[test]
    fn yaml_1_1_booleans_in_every_case_form_go_yaml_v2_lists() {
        for text in [
            "y", "Y", "yes", "Yes", "YES", "on", "On", "ON", "true", "True",
        ] {
            assert_eq!(plain(text), Value::Bool(true), "{text}");
        }
        for text in [
            "n", "N", "no", "No", "NO", "off", "Off", "OFF", "false", "FALSE",
        ] {
            assert_eq!(plain(text), Value::Bool(false), "{text}");
        }
        // Other case forms are strings, as in go-yaml v2.
        for text in ["yES", "oN", "nO", "tRUE"] {
            assert_eq!(plain(text), Value::String(text.into()), "{text}");
        }
    }

    #[test]
    fn numbers_resolve_as_go_parse_int_and_parse_float_read_them() {
        let cases = [
            ("017", Value::Int(15)),
            ("0o17", Value::Int(15)),
            ("0x1F", Value::Int(31)),
            ("-0x1f", Value::Int(-31)),
            ("0b101", Value::Int(5)),
            ("1_000", Value::Int(1000)),
            ("+1", Value::Int(1)),
            ("-0", Value::Int(0)),
            ("0", Value::Int(0)),
            ("-9223372036854775808", Value::Int(i64::MIN)),
            (
                "9223372036854775808",
                Value::Float("9223372036854775808".into()),
            ),
            ("1e3", Value::Float("1e3".into())),
            ("2.0", Value::Float("2.0".into())),
            ("08", Value::Float("08".into())),
            ("1.", Value::Float("1.".into())),
            (".5", Value::Float(".5".into())),
            (".5_0", Value::Float(".50".into())),
            ("._5", Value::String("._5".into())),
            (".", Value::String(".".into())),
            ("1_000.5", Value::Float("1000.5".into())),
            (".inf", Value::Float(".inf".into())),
            ("-.Inf", Value::Float("-.Inf".into())),
            (".NaN", Value::Float(".NaN".into())),
            ("1e400", Value::String("1e400".into())),
            ("0x", Value::String("0x".into())),
            ("0b2", Value::String("0b2".into())),
            ("1.2.3", Value::String("1.2.3".into())),
            ("2001-12-14", Value::String("2001-12-14".into())),
            ("12:30", Value::String("12:30".into())),
            ("1.10", Value::Float("1.10".into())),
            ("~", Value::Null),
            ("", Value::Null),
        ];
        for (text, expected) in cases {
            assert_eq!(plain(text), expected, "{text}");
        }
    }

    #[test]
    fn quoted_and_str_tagged_scalars_stay_strings() {
        let quoted = resolve("yes".into(), false, None, Syntax::Yaml).unwrap();
        assert_eq!(quoted, Value::String("yes".into()));
        let tagged = resolve("017".into(), true, Some(StandardTag::Str), Syntax::Yaml).unwrap();
        assert_eq!(tagged, Value::String("017".into()));
    }

    #[test]
    fn explicit_tags_must_fit() {
        let int = resolve("3".into(), false, Some(StandardTag::Int), Syntax::Yaml).unwrap();
        assert_eq!(int, Value::Int(3));
        let float = resolve("3".into(), true, Some(StandardTag::Float), Syntax::Yaml).unwrap();
        assert_eq!(float, Value::Float("3".into()));
        let err = resolve("abc".into(), true, Some(StandardTag::Int), Syntax::Yaml).unwrap_err();
        assert!(err.0.contains("!!int"), "{}", err.0);
    }

    #[test]
    fn json_plain_scalars_are_literals_or_numbers() {
        let json = |text: &str| resolve(text.into(), true, None, Syntax::Json);
        assert_eq!(json("true").unwrap(), Value::Bool(true));
        assert_eq!(json("null").unwrap(), Value::Null);
        assert_eq!(json("-12").unwrap(), Value::Int(-12));
        assert_eq!(json("2.0").unwrap(), Value::Float("2.0".into()));
        assert_eq!(json("1e3").unwrap(), Value::Float("1e3".into()));
        for bad in ["yes", "on", "017", "0x1F", "+1", ".5", "1_000", "~", "abc"] {
            let err = json(bad).unwrap_err();
            assert!(err.0.starts_with("invalid JSON"), "{bad}: {}", err.0);
        }
    }

    #[test]
    fn keys_become_the_strings_sigs_k8s_io_yaml_writes() {
        let key = |text: &str| key_text(plain(text)).ok();
        assert_eq!(key("on").as_deref(), Some("true"));
        assert_eq!(key("n").as_deref(), Some("false"));
        assert_eq!(key("017").as_deref(), Some("15"));
        assert_eq!(key("1.5").as_deref(), Some("1.5"));
        assert_eq!(key("1e3").as_deref(), Some("1000"));
        assert_eq!(key("2.0").as_deref(), Some("2"));
        assert_eq!(key("1e6").as_deref(), Some("1e+06"));
        assert_eq!(key("0.00001").as_deref(), Some("1e-05"));
        assert_eq!(key(".inf").as_deref(), Some(".inf"));
        assert_eq!(key("name").as_deref(), Some("name"));
        assert_eq!(key("~"), None);
    }
}
