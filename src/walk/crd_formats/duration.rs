//! The `duration` format: kube-openapi's `strfmt.ParseDuration`, which
//! takes what Go's `time.ParseDuration` takes (`1h30m`, `-1.5s`, `0`) and
//! otherwise the Scala-style durations it finds anywhere in the text
//! (`3 days`, `1 hr`, `10 minutes`).

/// True when `strfmt.ParseDuration(text)` returns no error.
pub(super) fn is_duration(text: &str) -> bool {
    go_duration(text) || scala_duration(text)
}

/// Nanoseconds per unit of `time.ParseDuration`.
fn go_unit(unit: &str) -> Option<u64> {
    Some(match unit {
        "ns" => 1,
        "us" | "\u{b5}s" | "\u{3bc}s" => 1_000,
        "ms" => 1_000_000,
        "s" => 1_000_000_000,
        "m" => 60_000_000_000,
        "h" => 3_600_000_000_000,
        _ => return None,
    })
}

/// Go's `time.ParseDuration`: a sign, then `0` or one or more of a
/// decimal number (`1`, `1.5`, `.5`) and a unit; the total within
/// 2^63 - 1 nanoseconds (2^63 when negative).
fn go_duration(text: &str) -> bool {
    let (negative, mut s) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    if s == "0" {
        return true;
    }
    if s.is_empty() {
        return false;
    }
    const LIMIT: u64 = 1 << 63;
    let mut total: u64 = 0;
    while !s.is_empty() {
        let b = s.as_bytes();
        if !(b[0] == b'.' || b[0].is_ascii_digit()) {
            return false;
        }
        let int_digits = b.iter().take_while(|b| b.is_ascii_digit()).count();
        let mut whole: u64 = 0;
        for &digit in &b[..int_digits] {
            if whole > LIMIT / 10 {
                return false;
            }
            whole = whole * 10 + u64::from(digit - b'0');
            if whole > LIMIT {
                return false;
            }
        }
        s = &s[int_digits..];
        let (mut fraction, mut scale, mut frac_digits) = (0u64, 1f64, 0);
        if let Some(rest) = s.strip_prefix('.') {
            frac_digits = rest.bytes().take_while(u8::is_ascii_digit).count();
            let mut overflow = false;
            for &digit in &rest.as_bytes()[..frac_digits] {
                // Go stops adding digits once they would overflow.
                if overflow || fraction > (LIMIT - 1) / 10 {
                    overflow = true;
                    continue;
                }
                let next = fraction * 10 + u64::from(digit - b'0');
                if next > LIMIT {
                    overflow = true;
                    continue;
                }
                fraction = next;
                scale *= 10.0;
            }
            s = &rest[frac_digits..];
        }
        if int_digits == 0 && frac_digits == 0 {
            return false;
        }
        let unit_len = s
            .find(|c: char| c == '.' || c.is_ascii_digit())
            .unwrap_or(s.len());
        if unit_len == 0 {
            return false;
        }
        let Some(unit) = go_unit(&s[..unit_len]) else {
            return false;
        };
        s = &s[unit_len..];
        if whole > LIMIT / unit {
            return false;
        }
        let mut value = whole * unit;
        if fraction > 0 {
            value = value.saturating_add((fraction as f64 * (unit as f64 / scale)) as u64);
            if value > LIMIT {
                return false;
            }
        }
        total = total.saturating_add(value);
        if total > LIMIT {
            return false;
        }
    }
    negative || total < LIMIT
}

/// The Scala-style units kube-openapi accepts: each group's first name is
/// the unit; the last name of a group also matches as a prefix (`hours`).
const SCALA_UNITS: &[&[&str]] = &[
    &["ns", "nano"],
    &["us", "\u{b5}s", "micro"],
    &["ms", "milli"],
    &["s", "sec"],
    &["m", "min"],
    &["h", "hr", "hour"],
    &["d", "day"],
    &["w", "wk", "week"],
];

/// kube-openapi's fallback: every `digits, spaces, letters` in the text
/// (`(\d+)\s*([A-Za-zµ]+)`); valid when some unit is known. A number that
/// does not fit Go's `int` (64 bits) is an error, whatever else matched.
fn scala_duration(text: &str) -> bool {
    static MATCHER: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"([0-9]+)[\t\n\f\r ]*([A-Za-z\x{b5}]+)").expect("a valid pattern")
    });
    let mut known = false;
    for found in MATCHER.captures_iter(text) {
        if found[1].parse::<i64>().is_err() {
            return false;
        }
        let unit = found[2].to_lowercase();
        known |= SCALA_UNITS.iter().any(|names| {
            let last = names.len() - 1;
            names.iter().enumerate().any(|(i, name)| {
                (i == last && unit.starts_with(name)) || name.eq_ignore_ascii_case(&unit)
            })
        });
    }
    known
}
