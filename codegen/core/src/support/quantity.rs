//! Kubernetes quantities (`500m`, `1.5Gi`, `2e3`, `100Mi`), read as the API
//! server reads them (`k8s.io/apimachinery/pkg/api/resource`): a signed
//! decimal number and a suffix, binary (`Ki` … `Ei`), decimal (`n`, `u`,
//! `m`, `k`, `M` … `E`) or an exponent (`e3`, `E-2`). Values are exact
//! integers of thousandths, as `MilliValue` gives them; finer precision is
//! rounded up, as the API server rounds.

use std::fmt;

/// Why a quantity does not parse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseQuantityError {
    /// The text that did not parse.
    pub quantity: String,
    /// What is wrong with it.
    pub reason: &'static str,
    /// Which of `ParseQuantity`'s errors the API server gives for it.
    pub kind: QuantityErrorKind,
}

/// `resource.ParseQuantity`'s two errors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QuantityErrorKind {
    /// `ErrFormatWrong`: the text is no number followed by suffix letters.
    Format,
    /// `ErrSuffix`: the suffix is none of the known ones.
    Suffix,
    /// A quantity the API server reads, past what [`milli_value`] holds
    /// exactly (its digits or exponent).
    Range,
}

impl ParseQuantityError {
    /// The API server's words for it (`ErrFormatWrong`, `ErrSuffix`);
    /// `None` for a quantity it reads.
    pub fn go_message(&self) -> Option<&'static str> {
        match self.kind {
            QuantityErrorKind::Format => Some("quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"),
            QuantityErrorKind::Suffix => Some("unable to parse quantity's suffix"),
            QuantityErrorKind::Range => None,
        }
    }
}

impl fmt::Display for ParseQuantityError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid quantity {:?}: {}", self.quantity, self.reason)
    }
}

impl std::error::Error for ParseQuantityError {}

/// Digits beyond this many cannot be held exactly.
const MAX_DIGITS: usize = 30;

/// Decimal exponents beyond this are refused (1e30 thousandths is far past
/// any quantity a cluster holds).
const MAX_EXPONENT: i32 = 24;

/// A quantity's parts, as `resource.ParseQuantity` splits them: its sign,
/// the digits before and after the decimal point, and the suffix as a
/// power of two (`Ki` … `Ei`) and a power of ten (`n` … `E`, `e<N>`).
/// This is the one quantity grammar: the generated crate's readers below,
/// `vergate check` and its CEL `quantity()` all use it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QuantityParts<'a> {
    /// A leading `-`.
    pub negative: bool,
    /// The digits before the decimal point (may be empty: `.5`, and even
    /// `.`, `-` or `Ki`, which the API server reads as 0).
    pub whole: &'a str,
    /// The digits after the decimal point (may be empty: `5.`).
    pub fraction: &'a str,
    /// The binary suffix's power of two (`Ki` → 10), else 0.
    pub binary: u32,
    /// The decimal suffix's or exponent's power of ten (`m` → -3, `e3` →
    /// 3). An exponent is read as a 64-bit integer and kept in 32 bits, as
    /// Go's `int32(parsed)` keeps it (`e4294967296` → 0).
    pub exponent: i32,
}

/// Splits a quantity into its parts, or says why it is no quantity:
/// `resource.ParseQuantity`'s scanner (`parseQuantityString`) and its
/// suffixes (`interpret`), limit for limit. A sign, digits, an optional
/// `.` and digits (none at all is 0), then letters of `eEinumkKMGTP`, an
/// optional sign and digits, which must name a suffix: `Ki` … `Ei`, `n`,
/// `u`, `m`, `k`, `M`, `G`, `T`, `P`, `E`, or `e`/`E` and a 64-bit integer.
/// The text is not trimmed, and has no limit on its digits.
pub fn parse_quantity(text: &str) -> Result<QuantityParts<'_>, ParseQuantityError> {
    let error = |reason, kind| ParseQuantityError {
        quantity: text.to_owned(),
        reason,
        kind,
    };
    if text.is_empty() {
        return Err(error("no number", QuantityErrorKind::Format));
    }
    let (negative, rest) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    let whole_len = rest.bytes().take_while(u8::is_ascii_digit).count();
    let (whole, rest) = rest.split_at(whole_len);
    let (fraction, suffix) = match rest.strip_prefix('.') {
        Some(after_point) => {
            let fraction_len = after_point.bytes().take_while(u8::is_ascii_digit).count();
            after_point.split_at(fraction_len)
        }
        None => ("", rest),
    };
    // The suffix's shape: letters, an optional sign, digits, to the end.
    let letters = suffix
        .bytes()
        .take_while(|byte| b"eEinumkKMGTP".contains(byte))
        .count();
    let after_letters = &suffix[letters..];
    let signed = after_letters
        .strip_prefix(['+', '-'])
        .unwrap_or(after_letters);
    if !signed.bytes().all(|byte| byte.is_ascii_digit()) {
        let reason = if suffix.starts_with('.') {
            "two decimal points"
        } else if whole.is_empty() && fraction.is_empty() && letters == 0 {
            "no number"
        } else {
            "an unknown suffix (Ki Mi Gi Ti Pi Ei, n u m k M G T P E, or e<N>)"
        };
        return Err(error(reason, QuantityErrorKind::Format));
    }
    let (binary, exponent) = match suffix {
        "" => (0, 0),
        "Ki" => (10, 0),
        "Mi" => (20, 0),
        "Gi" => (30, 0),
        "Ti" => (40, 0),
        "Pi" => (50, 0),
        "Ei" => (60, 0),
        "n" => (0, -9),
        "u" => (0, -6),
        "m" => (0, -3),
        "k" => (0, 3),
        "M" => (0, 6),
        "G" => (0, 9),
        "T" => (0, 12),
        "P" => (0, 15),
        "E" => (0, 18),
        other => match other.strip_prefix(['e', 'E']).map(str::parse::<i64>) {
            // Go's `int32(parsed)`: the low 32 bits.
            Some(Ok(power)) => (0, power as i32),
            _ => {
                return Err(error(
                    "an unknown suffix (Ki Mi Gi Ti Pi Ei, n u m k M G T P E, or e<N>)",
                    QuantityErrorKind::Suffix,
                ))
            }
        },
    };
    Ok(QuantityParts {
        negative,
        whole,
        fraction,
        binary,
        exponent,
    })
}

/// The quantity in thousandths of its unit: `"250m"` → 250, `"1Ki"` →
/// 1_024_000, `"1.5"` → 1_500, `"1n"` → 1 (rounded up).
pub fn milli_value(text: &str) -> Result<i128, ParseQuantityError> {
    let error = |reason| ParseQuantityError {
        quantity: text.to_owned(),
        reason,
        kind: QuantityErrorKind::Range,
    };
    let QuantityParts {
        negative,
        whole,
        fraction,
        binary,
        exponent,
    } = parse_quantity(text)?;
    if exponent.unsigned_abs() > MAX_EXPONENT.unsigned_abs() {
        return Err(error("an exponent out of range"));
    }
    // The digits of both parts as one number, leading zeros aside, read
    // in place (no string is built: `check` reads every quantity).
    let mut mantissa: i128 = 0;
    let mut significant = 0usize;
    for byte in whole.bytes().chain(fraction.bytes()) {
        if significant == 0 && byte == b'0' {
            continue;
        }
        significant += 1;
        if significant > MAX_DIGITS {
            return Err(error("more digits than can be held exactly"));
        }
        // At most MAX_DIGITS digits: below 10^30, far within i128.
        mantissa = mantissa * 10 + i128::from(byte - b'0');
    }
    // number = mantissa / 10^scale
    let scale = i32::try_from(fraction.len()).map_err(|_| error("too many digits"))?;
    // thousandths = mantissa * 2^binary * 10^(exponent + 3 - scale)
    let too_large = || error("too large");
    let numerator = mantissa
        .checked_mul(1i128 << binary)
        .ok_or_else(too_large)?;
    let power = exponent + 3 - scale;
    let ten = |count: i32| 10i128.checked_pow(count.unsigned_abs());
    let magnitude = if power >= 0 {
        numerator
            .checked_mul(ten(power).ok_or_else(too_large)?)
            .ok_or_else(too_large)?
    } else {
        let denominator = ten(power).ok_or_else(too_large)?;
        // Rounded up (away from zero), as the API server rounds.
        numerator / denominator + i128::from(numerator % denominator != 0)
    };
    Ok(if negative { -magnitude } else { magnitude })
}

/// The quantity in whole units, rounded up: `"1.5Gi"` → 1_610_612_736,
/// `"250m"` → 1.
pub fn value(text: &str) -> Result<i128, ParseQuantityError> {
    let milli = milli_value(text)?;
    Ok(milli.div_euclid(1000) + i128::from(milli.rem_euclid(1000) != 0))
}

#[cfg(test)]
mod tests {
    use super::{milli_value, parse_quantity, value, QuantityErrorKind};

    /// What k8s.io/apimachinery v0.36's `resource.ParseQuantity` answers at
    /// the grammar's limits (run on each text; `Some(kind)`: its error).
    #[test]
    fn the_grammar_accepts_what_parse_quantity_accepts() {
        use QuantityErrorKind::{Format, Suffix};
        for (text, go) in [
            ("0", None),
            (".5", None),
            ("5.", None),
            ("-.5", None),
            ("+5.", None),
            // No digits at all is 0 to Go's scanner.
            (".", None),
            ("-", None),
            ("+", None),
            ("Ki", None),
            ("e3", None),
            (".e3", None),
            ("1e3", None),
            ("1E3", None),
            ("1e+3", None),
            ("1E-3", None),
            ("+1e-0", None),
            ("1e01", None),
            ("1E", None),
            ("1Ki", None),
            ("1k", None),
            ("1.e3", None),
            ("00001", None),
            ("1e-1000", None),
            // Read as an int64, kept in 32 bits.
            ("1e4294967296", None),
            ("1e9223372036854775807", None),
            ("1e-9223372036854775808", None),
            ("1234567890123456789012345678901234567890", None),
            ("", Some(Format)),
            (" 1", Some(Format)),
            ("1 ", Some(Format)),
            ("1..2", Some(Format)),
            ("1.2.3", Some(Format)),
            ("1.5.Ki", Some(Format)),
            ("1Qi", Some(Format)),
            ("1Kib", Some(Format)),
            ("1e3Ki", Some(Format)),
            ("1e1.5", Some(Format)),
            ("lots", Some(Format)),
            ("--1", Some(Suffix)),
            ("1K", Some(Suffix)),
            ("1ki", Some(Suffix)),
            ("1i", Some(Suffix)),
            ("1e", Some(Suffix)),
            ("1e+", Some(Suffix)),
            ("1Ki1", Some(Suffix)),
            ("1ee3", Some(Suffix)),
            ("1e9223372036854775808", Some(Suffix)),
        ] {
            let parsed = parse_quantity(text);
            assert_eq!(
                parsed.as_ref().err().map(|err| err.kind),
                go,
                "{text}: {parsed:?}"
            );
        }
        let exponent = |text| parse_quantity(text).map(|parts| parts.exponent);
        assert_eq!(exponent("1e4294967296"), Ok(0));
        assert_eq!(exponent("1e4294967297"), Ok(1));
        assert_eq!(exponent("1E-3"), Ok(-3));
        assert_eq!(exponent("1e-2147483648"), Ok(i32::MIN));
    }

    #[test]
    fn suffixes_and_decimals_read_as_the_api_server_reads_them() {
        for (text, milli) in [
            ("250m", 250),
            ("1", 1_000),
            ("1.5", 1_500),
            ("+2", 2_000),
            ("-2", -2_000),
            ("0.1", 100),
            (".5", 500),
            ("1Ki", 1_024_000),
            ("1.5Gi", 1_610_612_736_000),
            ("100Mi", 104_857_600_000),
            ("2k", 2_000_000),
            ("1M", 1_000_000_000),
            ("2e3", 2_000_000),
            ("1E-3", 1),
            ("1n", 1),
            ("1500u", 2),
            ("0", 0),
            ("8Ei", 9_223_372_036_854_775_808_000),
            // Leading zeros are no digits of the limit; the last digit is
            // the 30th.
            ("0000000000000000000000000000000001", 1_000),
            ("0.000000000000000000000000000001", 1),
            ("100000000000000000000000000000", 10i128.pow(32)),
            ("-0.5m", -1),
        ] {
            assert_eq!(milli_value(text), Ok(milli), "{text}");
        }
        assert_eq!(value("250m"), Ok(1));
        assert_eq!(value("1.5Gi"), Ok(1_610_612_736));
    }

    #[test]
    fn bad_quantities_say_why() {
        for (text, reason) in [
            ("", "no number"),
            ("lots", "no number"),
            ("1.2.3", "two decimal points"),
            ("1Kb", "unknown suffix"),
            ("1e", "unknown suffix"),
            ("1e99", "out of range"),
            ("1234567890123456789012345678901", "more digits"),
        ] {
            let err = milli_value(text).unwrap_err();
            assert!(err.to_string().contains(reason), "{text}: {err}");
        }
    }
}
