//! A CronJob's `schedule` as the server parses it (robfig/cron v3's
//! standard parser, which batch `validateScheduleFormat` calls): five
//! fields (minute, hour, day of month, month, day of week) or a
//! descriptor, with the parser's error texts. Linear in the schedule's
//! length; nothing is allocated for a valid schedule but the field list.

/// A field's bounds and names (`bounds` in robfig/cron).
struct Bounds {
    min: u64,
    max: u64,
    names: &'static [(&'static str, u64)],
}

const MINUTES: Bounds = Bounds {
    min: 0,
    max: 59,
    names: &[],
};
const HOURS: Bounds = Bounds {
    min: 0,
    max: 23,
    names: &[],
};
const DOM: Bounds = Bounds {
    min: 1,
    max: 31,
    names: &[],
};
const MONTHS: Bounds = Bounds {
    min: 1,
    max: 12,
    names: &[
        ("jan", 1),
        ("feb", 2),
        ("mar", 3),
        ("apr", 4),
        ("may", 5),
        ("jun", 6),
        ("jul", 7),
        ("aug", 8),
        ("sep", 9),
        ("oct", 10),
        ("nov", 11),
        ("dec", 12),
    ],
};
const DOW: Bounds = Bounds {
    min: 0,
    max: 6,
    names: &[
        ("sun", 0),
        ("mon", 1),
        ("tue", 2),
        ("wed", 3),
        ("thu", 4),
        ("fri", 5),
        ("sat", 6),
    ],
};

/// The parser's error for `schedule`, if it refuses it. A `TZ=` prefix is
/// taken as given (its zone is checked by the server's time zone
/// database, which this does not carry).
pub(super) fn parse_error(schedule: &str) -> Option<String> {
    if schedule.is_empty() {
        return Some("empty spec string".to_owned());
    }
    let mut spec = schedule;
    if spec.starts_with("TZ=") || spec.starts_with("CRON_TZ=") {
        spec = spec.split_once(' ').map_or("", |(_, rest)| rest.trim());
    }
    if let Some(descriptor) = spec.strip_prefix('@') {
        return descriptor_error(descriptor, spec);
    }
    let fields: Vec<&str> = spec.split_whitespace().collect();
    if fields.len() != 5 {
        return Some(format!(
            "expected exactly 5 fields, found {}: [{}]",
            fields.len(),
            fields.join(" ")
        ));
    }
    for (field, bounds) in fields.iter().zip([&MINUTES, &HOURS, &DOM, &MONTHS, &DOW]) {
        for expression in field.split(',').filter(|part| !part.is_empty()) {
            if let Err(error) = range(expression, bounds) {
                return Some(error);
            }
        }
    }
    None
}

/// `parseDescriptor`.
fn descriptor_error(descriptor: &str, spec: &str) -> Option<String> {
    match descriptor {
        "yearly" | "annually" | "monthly" | "weekly" | "daily" | "midnight" | "hourly" => None,
        _ => match descriptor.strip_prefix("every ") {
            Some(duration) if is_duration(duration) => None,
            Some(duration) => Some(format!(
                "failed to parse duration {spec}: time: invalid duration \"{duration}\""
            )),
            None => Some(format!("unrecognized descriptor: {spec}")),
        },
    }
}

/// Go's `time.ParseDuration` grammar: `[-+]?([0-9]*(\.[0-9]*)?[a-z]+)+`,
/// or `0`.
fn is_duration(text: &str) -> bool {
    let text = text.strip_prefix(['-', '+']).unwrap_or(text);
    if text == "0" {
        return true;
    }
    let mut rest = text;
    if rest.is_empty() {
        return false;
    }
    while !rest.is_empty() {
        let number = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len());
        if number == 0 || rest[..number] == *"." {
            return false;
        }
        rest = &rest[number..];
        let Some(unit) = ["ns", "us", "µs", "μs", "ms", "s", "m", "h"]
            .iter()
            .find(|unit| rest.starts_with(**unit))
        else {
            return false;
        };
        // "ms" before "m" and "s": the list is in that order.
        rest = &rest[unit.len()..];
    }
    true
}

/// `getRange`: one `a`, `a-b`, `*` with an optional `/step`.
fn range(expression: &str, bounds: &Bounds) -> Result<(), String> {
    let mut range_and_step = expression.split('/');
    let range = range_and_step.next().unwrap_or_default();
    let step_text = range_and_step.next();
    if range_and_step.next().is_some() {
        // Go splits everything first; hyphens are looked at before slashes.
        let parts = range.split('-').count();
        if range != "*" && range != "?" && parts > 2 {
            return Err(format!("too many hyphens: {expression}"));
        }
        return Err(format!("too many slashes: {expression}"));
    }
    let mut low_high = range.split('-');
    let low = low_high.next().unwrap_or_default();
    let high = low_high.next();
    let single = high.is_none();
    let (start, mut end) = if low == "*" || low == "?" {
        (bounds.min, bounds.max)
    } else {
        let start = int_or_name(low, bounds)?;
        let end = match high {
            None => start,
            Some(high) => int_or_name(high, bounds)?,
        };
        if low_high.next().is_some() {
            return Err(format!("too many hyphens: {expression}"));
        }
        (start, end)
    };
    let step = match step_text {
        None => 1,
        Some(text) => {
            let step = must_parse_int(text)?;
            if single {
                end = bounds.max;
            }
            step
        }
    };
    if start < bounds.min {
        return Err(format!(
            "beginning of range ({start}) below minimum ({}): {expression}",
            bounds.min
        ));
    }
    if end > bounds.max {
        return Err(format!(
            "end of range ({end}) above maximum ({}): {expression}",
            bounds.max
        ));
    }
    if start > end {
        return Err(format!(
            "beginning of range ({start}) beyond end of range ({end}): {expression}"
        ));
    }
    if step == 0 {
        return Err(format!(
            "step of range should be a positive number: {expression}"
        ));
    }
    Ok(())
}

/// `parseIntOrName`.
fn int_or_name(text: &str, bounds: &Bounds) -> Result<u64, String> {
    let lower = text.to_ascii_lowercase();
    if let Some((_, value)) = bounds.names.iter().find(|(name, _)| *name == lower) {
        return Ok(*value);
    }
    must_parse_int(text)
}

/// `mustParseInt`: Go's `strconv.Atoi`, not negative.
fn must_parse_int(text: &str) -> Result<u64, String> {
    let digits = text.strip_prefix(['+', '-']).unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!(
            "failed to parse int from {text}: strconv.Atoi: parsing \"{text}\": invalid syntax"
        ));
    }
    let Ok(number) = text.parse::<i64>() else {
        return Err(format!(
            "failed to parse int from {text}: strconv.Atoi: parsing \"{text}\": value out of range"
        ));
    };
    u64::try_from(number).map_err(|_| format!("negative number ({number}) not allowed: {text}"))
}

#[cfg(test)]
mod tests {
    use super::parse_error;

    #[test]
    fn schedules_parse_as_the_servers() {
        for good in [
            "0 3 * * *",
            "*/5 * * * *",
            "0 0 1-15/2 jan-jun MON",
            "@hourly",
            "@every 1h30m",
            "TZ=UTC 0 3 * * *",
            "5,10 * * * ?",
        ] {
            assert_eq!(parse_error(good), None, "{good}");
        }
        assert_eq!(
            parse_error("bad").as_deref(),
            Some("expected exactly 5 fields, found 1: [bad]")
        );
        assert_eq!(
            parse_error("61 * * * *").as_deref(),
            Some("end of range (61) above maximum (59): 61")
        );
        assert_eq!(
            parse_error("* * 0 * *").as_deref(),
            Some("beginning of range (0) below minimum (1): 0")
        );
        assert_eq!(
            parse_error("5-1 * * * *").as_deref(),
            Some("beginning of range (5) beyond end of range (1): 5-1")
        );
        assert_eq!(
            parse_error("x * * * *").as_deref(),
            Some("failed to parse int from x: strconv.Atoi: parsing \"x\": invalid syntax")
        );
        assert_eq!(
            parse_error("@sometimes").as_deref(),
            Some("unrecognized descriptor: @sometimes")
        );
        assert_eq!(
            parse_error("*/0 * * * *").as_deref(),
            Some("step of range should be a positive number: */0")
        );
    }
}
