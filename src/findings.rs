//! The findings of one document, bounded whatever the input: at most
//! [`MAX_PER_RULE`] per rule and severity of each resource (the document,
//! or each item of a `List`) are kept, the rest only counted (reported as
//! one finding, `and N more …`, by [`Omitted::violation`]), and a message
//! longer than [`MAX_MESSAGE_BYTES`] is cut. A CRD rule with a long
//! message over a list of many items would otherwise make the report (and
//! the memory that holds it) grow with items × message.
//!
//! The bounds are far above what a real resource gives (a few findings a
//! rule), so a normal report is unchanged.

use crate::preflight::{Rule, Severity, Violation};
use std::collections::HashMap;

/// The most findings of one rule and severity kept for one resource.
pub const MAX_PER_RULE: usize = 100;

/// The longest message kept, in bytes; a longer one is cut at a character
/// boundary and says how much was left out (within this length). Messages that come from the
/// input (a CRD rule's `message`, a value quoted) are the long ones.
pub const MAX_MESSAGE_BYTES: usize = 4096;

/// The findings of one document, bounded.
#[derive(Debug, Default)]
pub struct Findings {
    kept: Vec<Violation>,
    /// Per resource, rule and severity: how many were pushed, and the
    /// first of those not kept (in the order each first fired).
    tally: Vec<Tally>,
    /// Where each resource, rule and severity is in `tally`.
    index: HashMap<(usize, Rule, Severity), usize>,
    /// Findings that end the checks of their resource, kept whatever the
    /// bound (see [`Findings::push_final`]).
    finals: Vec<Violation>,
}

/// The findings of one rule and severity of one resource not kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Omitted {
    /// The resource: 0, or the index of a `List`'s item.
    pub resource: usize,
    pub rule: Rule,
    pub severity: Severity,
    /// How many were left out.
    pub count: usize,
    /// The line of the first one left out.
    pub line: u32,
    /// The path of the first one left out (which names its resource).
    pub path: String,
}

#[derive(Debug)]
struct Tally {
    resource: usize,
    rule: Rule,
    severity: Severity,
    pushed: usize,
    /// The line and path of the first finding not kept.
    first_omitted: Option<(u32, String)>,
}

impl Findings {
    /// No findings.
    pub fn new() -> Findings {
        Findings::default()
    }

    /// Adds one finding of the document (or of its only resource).
    pub fn push(&mut self, violation: Violation) {
        self.push_in(0, violation);
    }

    /// Adds one finding of resource `resource` (0, or the index of a
    /// `List`'s item): kept while its resource, rule and severity have
    /// fewer than [`MAX_PER_RULE`], counted otherwise; its message cut to
    /// [`MAX_MESSAGE_BYTES`].
    pub fn push_in(&mut self, resource: usize, mut violation: Violation) {
        cut(&mut violation.message);
        self.add(resource, violation);
    }

    /// Adds a finding after which nothing more of its resource is checked
    /// (the API server's cost budget or per-call limit stopped its CEL
    /// rules): kept whatever the bound, as it says why the rest was not
    /// checked. The caller stops there, so a resource has at most one.
    pub fn push_final(&mut self, mut violation: Violation) {
        cut(&mut violation.message);
        self.finals.push(violation);
    }

    /// Adds `violation` (its message cut already) under the bound.
    fn add(&mut self, resource: usize, violation: Violation) {
        let tally = self.tally_mut(resource, violation.rule, violation.severity);
        tally.pushed += 1;
        if tally.pushed > MAX_PER_RULE {
            if tally.first_omitted.is_none() {
                tally.first_omitted = Some((violation.line, violation.path));
            }
            return;
        }
        self.kept.push(violation);
    }

    /// Adds what `other` found (kept and left out), all of resource 0, as
    /// if each of its findings had been pushed here.
    pub fn absorb(&mut self, mut other: Findings) {
        self.finals.append(&mut other.finals);
        let (kept, omitted) = other.into_parts();
        for violation in kept {
            // Cut when `other` kept it: cutting again would cut the note.
            self.add(0, violation);
        }
        for left_out in omitted {
            let tally = self.tally_mut(left_out.resource, left_out.rule, left_out.severity);
            let room = MAX_PER_RULE.saturating_sub(tally.pushed);
            tally.pushed += left_out.count;
            if left_out.count > room && tally.first_omitted.is_none() {
                tally.first_omitted = Some((left_out.line, left_out.path));
            }
        }
    }

    /// The tally of `rule` at `severity` in `resource`, made when it is
    /// the first.
    fn tally_mut(&mut self, resource: usize, rule: Rule, severity: Severity) -> &mut Tally {
        let next = self.tally.len();
        let index = *self.index.entry((resource, rule, severity)).or_insert(next);
        if index == next {
            self.tally.push(Tally {
                resource,
                rule,
                severity,
                pushed: 0,
                first_omitted: None,
            });
        }
        &mut self.tally[index]
    }

    /// True when nothing was pushed.
    pub fn is_empty(&self) -> bool {
        self.tally.is_empty() && self.finals.is_empty()
    }

    /// The findings kept (those that ended their resource's checks last),
    /// and what was left out per resource, rule and severity (in the order
    /// each first fired).
    pub fn into_parts(mut self) -> (Vec<Violation>, Vec<Omitted>) {
        self.kept.append(&mut self.finals);
        let omitted = self
            .tally
            .into_iter()
            .filter(|tally| tally.pushed > MAX_PER_RULE)
            .map(|tally| {
                let (line, path) = tally.first_omitted.unwrap_or_default();
                Omitted {
                    resource: tally.resource,
                    rule: tally.rule,
                    severity: tally.severity,
                    count: tally.pushed - MAX_PER_RULE,
                    line,
                    path,
                }
            })
            .collect();
        (self.kept, omitted)
    }
}

impl Extend<Violation> for Findings {
    fn extend<I: IntoIterator<Item = Violation>>(&mut self, violations: I) {
        for violation in violations {
            self.push(violation);
        }
    }
}

impl Omitted {
    /// The one finding that stands for those left out, at the line of the
    /// first of them, about their resource as a whole (no path): `and
    /// 9,900 more cel-rule findings for this resource (at most 100 are
    /// reported per rule and resource)`.
    pub fn violation(&self) -> Violation {
        Violation {
            severity: self.severity,
            rule: self.rule,
            path: String::new(),
            line: self.line,
            message: format!(
                "and {} more {} findings for this resource (at most {MAX_PER_RULE} are reported per rule and resource)",
                grouped(self.count),
                self.rule.id()
            ),
        }
    }
}

/// Room kept at the end of a cut message for the note that says so.
const NOTE_ROOM: usize = 64;

/// Cuts `message` to at most [`MAX_MESSAGE_BYTES`] (the note included) at
/// a character boundary, saying how many bytes were left out. A message
/// cut is not cut again.
pub fn cut(message: &mut String) {
    if message.len() <= MAX_MESSAGE_BYTES {
        return;
    }
    let mut end = MAX_MESSAGE_BYTES - NOTE_ROOM;
    while !message.is_char_boundary(end) {
        end -= 1;
    }
    let left_out = message.len() - end;
    message.truncate(end);
    message.push_str(&format!("… ({} more bytes not shown)", grouped(left_out)));
    message.shrink_to_fit();
}

/// `n` with its thousands grouped by commas (`9,990`), as messages show
/// counts.
pub fn grouped(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (index, digit) in digits.chars().enumerate() {
        if index > 0 && (digits.len() - index) % 3 == 0 {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finding(rule: Rule, line: u32, message: &str) -> Violation {
        Violation {
            severity: Severity::Error,
            rule,
            path: "spec".into(),
            line,
            message: message.into(),
        }
    }

    #[test]
    fn keeps_the_first_of_each_rule_and_counts_the_rest() {
        let mut findings = Findings::new();
        for line in 1..=(MAX_PER_RULE as u32 + 250) {
            findings.push(finding(Rule::CelRule, line, "no"));
        }
        findings.push(finding(Rule::Junctor, 7, "also no"));
        let (kept, omitted) = findings.into_parts();
        assert_eq!(kept.len(), MAX_PER_RULE + 1);
        assert_eq!(
            omitted,
            vec![Omitted {
                resource: 0,
                rule: Rule::CelRule,
                severity: Severity::Error,
                count: 250,
                line: MAX_PER_RULE as u32 + 1,
                path: "spec".into(),
            }]
        );
        assert_eq!(
            omitted[0].violation().message,
            "and 250 more cel-rule findings for this resource (at most 100 are reported per rule and resource)"
        );
    }

    #[test]
    fn the_finding_that_stopped_a_resource_is_kept_past_the_bound() {
        let mut cel = Findings::new();
        for line in 1..=(MAX_PER_RULE as u32 + 50) {
            cel.push(finding(Rule::CelRule, line, "failed"));
        }
        cel.push_final(finding(Rule::CelRule, 999, "running out of cost budget"));
        let mut all = Findings::new();
        all.absorb(cel);
        let (kept, omitted) = all.into_parts();
        assert_eq!(kept.len(), MAX_PER_RULE + 1);
        assert_eq!(kept.last().unwrap().message, "running out of cost budget");
        assert_eq!(omitted[0].count, 50);
    }

    #[test]
    fn each_resource_of_a_list_has_its_own_bound() {
        let mut findings = Findings::new();
        for item in 0..500 {
            for line in 0..3 {
                findings.push_in(item, finding(Rule::NotInMinor, line, "no"));
            }
        }
        let (kept, omitted) = findings.into_parts();
        assert_eq!(kept.len(), 1500);
        assert!(omitted.is_empty());
    }

    #[test]
    fn absorbing_counts_what_the_other_left_out() {
        let mut cel = Findings::new();
        for line in 10..(10 + MAX_PER_RULE as u32 + 5) {
            cel.push(finding(Rule::CelRule, line, "cel"));
        }
        let mut all = Findings::new();
        all.push(finding(Rule::CelRule, 1, "first"));
        all.absorb(cel);
        let (kept, omitted) = all.into_parts();
        assert_eq!(kept.len(), MAX_PER_RULE);
        assert_eq!(kept[0].message, "first");
        assert_eq!(omitted.len(), 1);
        assert_eq!(omitted[0].count, 6);
        // The first left out: the last one `cel` kept, which no longer fits.
        assert_eq!(omitted[0].line, 10 + MAX_PER_RULE as u32 - 1);
    }

    #[test]
    fn a_long_message_is_cut_at_a_character_boundary() {
        let mut findings = Findings::new();
        let long = "é".repeat(MAX_MESSAGE_BYTES);
        findings.push(finding(Rule::CelRule, 1, &long));
        findings.push(finding(Rule::CelRule, 2, "short"));
        let (kept, _) = findings.into_parts();
        assert!(kept[0].message.len() <= MAX_MESSAGE_BYTES);
        let left_out = 2 * MAX_MESSAGE_BYTES - (MAX_MESSAGE_BYTES - NOTE_ROOM);
        assert!(kept[0]
            .message
            .ends_with(&format!("é… ({} more bytes not shown)", grouped(left_out))));
        assert_eq!(kept[1].message, "short");
        // Absorbed, a message cut is not cut again.
        let mut cel = Findings::new();
        cel.push(finding(Rule::CelRule, 1, &long));
        let mut all = Findings::new();
        all.absorb(cel);
        assert_eq!(all.into_parts().0[0].message, kept[0].message);
    }

    #[test]
    fn numbers_are_grouped_by_thousands() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(9_990), "9,990");
        assert_eq!(grouped(1_234_567), "1,234,567");
    }
}
