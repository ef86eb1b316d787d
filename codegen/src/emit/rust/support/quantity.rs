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

/// The quantity in thousandths of its unit: `"250m"` → 250, `"1Ki"` →
/// 1_024_000, `"1.5"` → 1_500, `"1n"` → 1 (rounded up).
pub fn milli_value(text: &str) -> Result<i128, ParseQuantityError> {
    let error = |reason| ParseQuantityError {
        quantity: text.to_owned(),
        reason,
    };
    let (negative, rest) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    let number_len = rest
        .bytes()
        .take_while(|byte| byte.is_ascii_digit() || *byte == b'.')
        .count();
    let (number, suffix) = rest.split_at(number_len);
    let (whole, fraction) = number.split_once('.').unwrap_or((number, ""));
    if whole.is_empty() && fraction.is_empty() {
        return Err(error("no number"));
    }
    if fraction.contains('.') {
        return Err(error("two decimal points"));
    }
    let digits = format!("{whole}{fraction}");
    let digits = digits.trim_start_matches('0');
    if digits.len() > MAX_DIGITS {
        return Err(error("more digits than can be held exactly"));
    }
    let mantissa: i128 = if digits.is_empty() {
        0
    } else {
        digits.parse().map_err(|_| error("not a number"))?
    };
    // number = mantissa / 10^scale
    let scale = i32::try_from(fraction.len()).map_err(|_| error("too many digits"))?;
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
        other => match other.strip_prefix(['e', 'E']) {
            Some(power) if !power.is_empty() => {
                let power: i32 = power.parse().map_err(|_| error("a bad exponent"))?;
                if power.abs() > MAX_EXPONENT {
                    return Err(error("an exponent out of range"));
                }
                (0, power)
            }
            _ => {
                return Err(error(
                    "an unknown suffix (Ki Mi Gi Ti Pi Ei, n u m k M G T P E, or e<N>)",
                ))
            }
        },
    };
    // thousandths = mantissa * 2^binary * 10^(exponent + 3 - scale)
    let too_large = || error("too large");
    let mut numerator = mantissa
        .checked_mul(1i128 << binary)
        .ok_or_else(too_large)?;
    let mut denominator: i128 = 1;
    let power = exponent + 3 - scale;
    let ten = |count: i32| 10i128.checked_pow(count.unsigned_abs());
    if power >= 0 {
        numerator = numerator
            .checked_mul(ten(power).ok_or_else(too_large)?)
            .ok_or_else(too_large)?;
    } else {
        denominator = ten(power).ok_or_else(too_large)?;
    }
    // Rounded up (away from zero), as the API server rounds.
    let magnitude = numerator / denominator + i128::from(numerator % denominator != 0);
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
    use super::{milli_value, value};

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
