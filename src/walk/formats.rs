//! The value rules of the types Kubernetes' API server decodes itself: an
//! integer written as a float, quantities, RFC 3339 timestamps and base64.
//! Each follows the Go code that decodes the value on the server.

/// A YAML float's value (`1.5`, `1_000.0`, `.inf`); `None` when the text is
/// no number. Underscores are dropped, as YAML 1.1 readers do.
pub(crate) fn float_value(text: &str) -> Option<f64> {
    match text {
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" => return Some(f64::INFINITY),
        "-.inf" | "-.Inf" | "-.INF" => return Some(f64::NEG_INFINITY),
        ".nan" | ".NaN" | ".NAN" => return Some(f64::NAN),
        _ => {}
    }
    let digits: String = text.chars().filter(|c| *c != '_').collect();
    // Rust also reads `inf` and `nan`, which YAML does not have.
    if digits
        .bytes()
        .any(|b| b.is_ascii_alphabetic() && !matches!(b, b'e' | b'E'))
    {
        return None;
    }
    digits.parse().ok()
}

/// The integer a float stands for when kubectl sends it: kubectl turns YAML
/// into JSON with Go's encoding/json, which writes an integral float64
/// below 1e21 without a fraction (`2.0` → `2`, `1e3` → `1000`), so the
/// server reads an integer. `None` for a fraction, infinity, NaN, or a value
/// outside `i64` (the server refuses those).
pub(super) fn integral(value: f64) -> Option<i64> {
    // 2^63 is exactly representable; every f64 below it and integral fits.
    const LIMIT: f64 = 9_223_372_036_854_775_808.0;
    (value.is_finite() && value.fract() == 0.0 && (-LIMIT..LIMIT).contains(&value))
        .then_some(value as i64)
}

/// The quantity grammar the generated crate carries as `src/quantity.rs`:
/// one grammar for `check` and the generated readers.
use vergate_core::support::quantity;

/// True when `text` parses as a Kubernetes quantity, as
/// `resource.ParseQuantity` reads it after trimming spaces: a signed decimal
/// number (`1`, `1.5`, `.5`, `5.`, even none: `.`, `Gi` are 0) and one suffix: a binary SI one (`Ki` …
/// `Ei`), a decimal SI one (`n`, `u`, `m`, none, `k`, `M`, `G`, `T`, `P`,
/// `E`) or a decimal exponent (`e3`, `E-2`).
pub(super) fn is_quantity(text: &str) -> bool {
    quantity::parse_quantity(text.trim()).is_ok()
}

/// True when `text` is a timestamp Go's `time.Parse(time.RFC3339, …)` reads
/// (what `metav1.Time` decodes with): `2006-01-02T15:04:05`, an optional
/// fraction of a second, then `Z` or an offset `±hh:mm`; every part in its
/// range (the day within its month), an upper-case `T` and `Z`.
pub(super) fn is_rfc3339(text: &str) -> bool {
    let bytes = text.as_bytes();
    if bytes.len() < 20 || !text.is_ascii() {
        return false;
    }
    let number = |range: std::ops::Range<usize>| -> Option<u32> {
        let digits = &text[range];
        digits
            .bytes()
            .all(|b| b.is_ascii_digit())
            .then(|| digits.parse().ok())
            .flatten()
    };
    let separators = bytes[4] == b'-'
        && bytes[7] == b'-'
        && bytes[10] == b'T'
        && bytes[13] == b':'
        && bytes[16] == b':';
    let (Some(year), Some(month), Some(day), Some(hour), Some(minute), Some(second)) = (
        number(0..4),
        number(5..7),
        number(8..10),
        number(11..13),
        number(14..16),
        number(17..19),
    ) else {
        return false;
    };
    if !separators
        || !(1..=12).contains(&month)
        || day < 1
        || day > crate::document::scalar::days_in(month, year)
        || hour > 23
        || minute > 59
        || second > 59
    {
        return false;
    }
    let mut rest = &text[19..];
    if let Some(fraction) = rest.strip_prefix('.') {
        let digits = fraction.bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 {
            return false;
        }
        rest = &fraction[digits..];
    }
    if rest == "Z" {
        return true;
    }
    let offset = rest.as_bytes();
    offset.len() == 6
        && matches!(offset[0], b'+' | b'-')
        && offset[3] == b':'
        && number_in(&rest[1..3], 23)
        && number_in(&rest[4..6], 59)
}

/// True when `digits` are two ASCII digits no greater than `max`.
fn number_in(digits: &str, max: u32) -> bool {
    digits.bytes().all(|b| b.is_ascii_digit()) && digits.parse::<u32>().is_ok_and(|n| n <= max)
}

/// True when `text` decodes as Go's encoding/json decodes a `[]byte`
/// (`base64.StdEncoding`: the standard alphabet, padding required, line
/// breaks ignored, stray bits after the last character allowed).
pub(super) fn is_base64(text: &str) -> bool {
    crate::document::scalar::go_base64(text).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integral_floats_are_what_kubectl_sends_as_integers() {
        assert_eq!(float_value("2.0").and_then(integral), Some(2));
        assert_eq!(float_value("1e3").and_then(integral), Some(1000));
        assert_eq!(float_value("-0.0").and_then(integral), Some(0));
        assert_eq!(float_value("1_000.0").and_then(integral), Some(1000));
        assert_eq!(float_value("2.5").and_then(integral), None);
        assert_eq!(float_value(".inf").and_then(integral), None);
        assert_eq!(float_value(".nan").and_then(integral), None);
        assert_eq!(float_value("1e19").and_then(integral), None);
        assert_eq!(float_value("inf"), None);
    }

    #[test]
    fn quantities() {
        for good in [
            "1", "500m", "1Gi", "1.5", ".5", "5.", "+1", "-1Ki", "1e3", "1E-2", " 2Mi ", "100n",
            "3E", // No digits is 0 to the API server's scanner.
            "Gi", ".",
        ] {
            assert!(is_quantity(good), "{good}");
        }
        for bad in ["", "1 GB", "1GB", "1.5.5", "1e", "1e1.5", "abc", "1Kib"] {
            assert!(!is_quantity(bad), "{bad}");
        }
    }

    #[test]
    fn timestamps() {
        for good in [
            "2024-01-02T15:04:05Z",
            "2024-02-29T00:00:00Z",
            "2024-01-02T15:04:05.123456789Z",
            "2024-01-02T15:04:05+02:00",
            "2024-01-02T15:04:05.5-07:30",
        ] {
            assert!(is_rfc3339(good), "{good}");
        }
        for bad in [
            "yesterday",
            "2024-01-02",
            "2024-01-02 15:04:05Z",
            "2024-01-02t15:04:05Z",
            "2023-02-29T00:00:00Z",
            "2024-13-01T00:00:00Z",
            "2024-01-02T24:00:00Z",
            "2024-01-02T15:04:05",
            "2024-01-02T15:04:05.Z",
            "2024-01-02T15:04:05+0200",
            "2024-01-02T15:04:05z",
        ] {
            assert!(!is_rfc3339(bad), "{bad}");
        }
    }

    #[test]
    fn base64_as_go_reads_it() {
        for good in ["", "aGVsbG8=", "aGVsbG8h", "aGVs\nbG8=", "aGVsbG9=", "YQ=="] {
            assert!(is_base64(good), "{good}");
        }
        for bad in ["aGVsbG8", "not base64!", "aGVsbG8-", "YQ", "Y==="] {
            assert!(!is_base64(bad), "{bad}");
        }
    }
}
