//! The formats kube-openapi checks by a regular expression, a checksum or
//! a fixed layout: UUIDs, ISBNs, credit cards, colors, base64, BSON object
//! ids, host names, Kubernetes names, RFC 3339 dates and date-times.
//!
//! The patterns are Go's, compiled by the `regex` crate (RE2 syntax, as
//! Go's `regexp`), with Go's ASCII classes spelled out: Go's `\d` is
//! `[0-9]` and its `\s` is `[\t\n\f\r ]` (the crate's are wider).

use regex::Regex;
use std::sync::LazyLock;

/// A pattern of `strfmt` or govalidator.
#[derive(Clone, Copy)]
pub(super) enum Pattern {
    Uuid,
    Uuid3,
    Uuid4,
    Uuid5,
    Ssn,
    HexColor,
    RgbColor,
    Base64,
    K8sShortName,
    K8sLongName,
}

/// The RGB channel of govalidator's `RGBcolor`: 0 to 255, no leading zero.
const CHANNEL: &str = r"[\t\n\f\r ]*(0|[1-9][0-9]?|1[0-9][0-9]?|2[0-4][0-9]|25[0-5])[\t\n\f\r ]*";

/// A DNS label in lower case (kube-openapi's `shortNameFmt`).
const SHORT_NAME: &str = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";

impl Pattern {
    fn source(self) -> String {
        match self {
            Pattern::Uuid => {
                "(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$".into()
            }
            Pattern::Uuid3 => {
                "(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$".into()
            }
            Pattern::Uuid4 => {
                "(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$"
                    .into()
            }
            Pattern::Uuid5 => {
                "(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$"
                    .into()
            }
            Pattern::Ssn => "^[0-9]{3}[- ]?[0-9]{2}[- ]?[0-9]{4}$".into(),
            Pattern::HexColor => "^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$".into(),
            Pattern::RgbColor => format!(r"^rgb\({CHANNEL},{CHANNEL},{CHANNEL}\)$"),
            Pattern::Base64 => {
                "^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$"
                    .into()
            }
            Pattern::K8sShortName => format!("^{SHORT_NAME}$"),
            Pattern::K8sLongName => format!(r"^{SHORT_NAME}(\.{SHORT_NAME})*$"),
        }
    }
}

/// Every pattern compiled once.
static PATTERNS: LazyLock<Vec<Regex>> = LazyLock::new(|| {
    use Pattern::*;
    [
        Uuid,
        Uuid3,
        Uuid4,
        Uuid5,
        Ssn,
        HexColor,
        RgbColor,
        Base64,
        K8sShortName,
        K8sLongName,
    ]
    .iter()
    .map(|pattern| Regex::new(&pattern.source()).expect("a valid pattern"))
    .collect()
});

/// True when `pattern` matches `value`.
pub(super) fn matches(pattern: Pattern, value: &str) -> bool {
    PATTERNS[pattern as usize].is_match(value)
}

/// strfmt's `HostnamePattern` (`\p{S}` and `\p{L}` allowed, so `<foo>` and
/// `ôlà.ôlà` are host names, `1.1.1.1` is not), at most 255 bytes and no
/// label over 63 bytes.
pub(super) fn is_hostname(value: &str) -> bool {
    static HOSTNAME: LazyLock<Regex> = LazyLock::new(|| {
        let name = r"[a-zA-Z0-9\p{S}\p{L}]";
        let inner = r"[a-zA-Z0-9\-\p{S}\p{L}]";
        let pattern = format!(
            r"^({name}((-?{name}{{0,62}})?)|({name}(({inner}{{0,61}}{name})?)(\.)){{1,}}([a-zA-Z\p{{L}}]){{2,63}})$"
        );
        Regex::new(&pattern).expect("a valid pattern")
    });
    HOSTNAME.is_match(value) && value.len() <= 255 && value.split('.').all(|part| part.len() <= 63)
}

/// `bsonobjectid`: twelve bytes in hex (Go's `hex.DecodeString`, either case).
pub(super) fn is_bson_object_id(value: &str) -> bool {
    value.len() == 24 && value.bytes().all(|b| b.is_ascii_hexdigit())
}

/// govalidator's `IsCreditCard`: every non-digit dropped, one of the
/// card number patterns, then the Luhn checksum.
pub(super) fn is_credit_card(value: &str) -> bool {
    static CARD: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new("^(?:4[0-9]{12}(?:[0-9]{3})?|5[1-5][0-9]{14}|6(?:011|5[0-9][0-9])[0-9]{12}|3[47][0-9]{13}|3(?:0[0-5]|[68][0-9])[0-9]{11}|(?:2131|1800|35[0-9]{3})[0-9]{11})$")
            .expect("a valid pattern")
    });
    let digits: String = value.chars().filter(char::is_ascii_digit).collect();
    if !CARD.is_match(&digits) {
        return false;
    }
    let sum: u32 = digits
        .bytes()
        .rev()
        .enumerate()
        .map(|(i, b)| {
            let digit = u32::from(b - b'0');
            match i % 2 {
                0 => digit,
                _ if digit * 2 >= 10 => digit * 2 % 10 + 1,
                _ => digit * 2,
            }
        })
        .sum();
    sum % 10 == 0
}

/// govalidator's ISBN sanitizing: spaces (Go's `\s`) and `-` dropped.
fn isbn_digits(value: &str) -> Vec<u8> {
    value
        .bytes()
        .filter(|b| !matches!(b, b'\t' | b'\n' | b'\x0c' | b'\r' | b' ' | b'-'))
        .collect()
}

/// govalidator's `IsISBN10`: nine digits and a digit or `X`, weighted
/// sum divisible by 11.
pub(super) fn is_isbn10(value: &str) -> bool {
    let digits = isbn_digits(value);
    let layout = digits.len() == 10
        && digits[..9].iter().all(u8::is_ascii_digit)
        && (digits[9].is_ascii_digit() || digits[9] == b'X');
    if !layout {
        return false;
    }
    let mut sum: u32 = (0..9)
        .map(|i| (i + 1) * u32::from(digits[i as usize] - b'0'))
        .sum();
    sum += 10
        * if digits[9] == b'X' {
            10
        } else {
            u32::from(digits[9] - b'0')
        };
    sum % 11 == 0
}

/// govalidator's `IsISBN13`: thirteen digits, the last the check digit of
/// the alternating 1, 3 weights.
pub(super) fn is_isbn13(value: &str) -> bool {
    let digits = isbn_digits(value);
    if digits.len() != 13 || !digits.iter().all(u8::is_ascii_digit) {
        return false;
    }
    let sum: u32 = (0..12)
        .map(|i| [1, 3][i % 2] * u32::from(digits[i] - b'0'))
        .sum();
    u32::from(digits[12] - b'0') == (10 - sum % 10) % 10
}

/// `date`: Go's `time.Parse("2006-01-02", …)`: four digits, two, two,
/// the month 1 to 12 and the day within it (leap years counted).
pub(super) fn is_full_date(value: &str) -> bool {
    let b = value.as_bytes();
    let digits = |range: std::ops::Range<usize>| {
        b[range.clone()]
            .iter()
            .all(u8::is_ascii_digit)
            .then(|| value[range].parse::<u32>().ok())
            .flatten()
    };
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return false;
    }
    let (Some(year), Some(month), Some(day)) = (digits(0..4), digits(5..7), digits(8..10)) else {
        return false;
    };
    (1..=12).contains(&month) && day >= 1 && day <= crate::document::scalar::days_in(month, year)
}

/// `date-time`: strfmt's `IsDateTime`, which is not `time.Parse`: the text
/// lower-cased and cut at every `t`; the first piece a [`is_full_date`],
/// the second `hh:mm:ss`, an optional fraction (any character then
/// digits) and `z` or an offset, with the hour at most 23 and minute and
/// second at most 59. Pieces after a second `t` are not looked at.
pub(super) fn is_date_time(value: &str) -> bool {
    static TIME: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$")
            .expect("a valid pattern")
    });
    if value.len() < 4 {
        return false;
    }
    let lower = value.to_lowercase();
    let mut pieces = lower.split('t');
    let (Some(date), Some(time)) = (pieces.next(), pieces.next()) else {
        return false;
    };
    if !is_full_date(date) {
        return false;
    }
    TIME.captures(time)
        .is_some_and(|found| &found[1] <= "23" && &found[2] <= "59" && &found[3] <= "59")
}
