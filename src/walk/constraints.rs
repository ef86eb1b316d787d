//! The value constraints of gates.json (`pattern`, `minimum`, `maxLength`,
//! `minItems`, `uniqueItems`, …): which of them a value breaks, as
//! messages. The walker asks for every field and every definition with a
//! value of its own, whatever API the gates come from.
//!
//! Patterns are read by the `regex` crate, whose syntax is RE2's, as Go's
//! `regexp` (which the Kubernetes API server uses) is; it matches in linear
//! time, so no pattern can make a check hang. Differences from Go: `\d`,
//! `\w`, `\s` and `\b` are Unicode-aware here (ASCII-only in Go), so a
//! pattern may accept non-ASCII digits or letters the server refuses.
//! A pattern that does not compile within [`REGEX_SIZE_LIMIT`] (or uses
//! syntax RE2 lacks, such as look-around) is reported as not checked (a
//! warning), never guessed.

use super::formats::float_value;
use crate::document::{Node, Value};
use crate::gates::{Constraints, Number};
use regex::Regex;
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

/// The most memory one compiled pattern (and its lazy DFA) may take, in
/// bytes: far above any real API's pattern, far below harm.
pub(crate) const REGEX_SIZE_LIMIT: usize = 1 << 20;

/// How many compiled patterns a thread keeps (a real API has tens).
const CACHE_LIMIT: usize = 4096;

/// What a value's constraints say about it.
pub(crate) enum Verdict {
    /// The value breaks a constraint: the message says which and why.
    Broken(String),
    /// A pattern that could not be compiled, so it was not checked.
    Unchecked(String),
}

/// The constraints `value` breaks (nothing for null and for values of a
/// kind a constraint does not apply to, as in JSON Schema).
pub(crate) fn verdicts(node: &Node, constraints: &Constraints) -> Vec<Verdict> {
    let mut out = Vec::new();
    match &node.value {
        Value::String(text) => string(text, constraints, &mut out),
        Value::Int(integer) => number(*integer as f64, constraints, &mut out),
        Value::Float(text) => {
            if let Some(value) = float_value(text).filter(|value| value.is_finite()) {
                number(value, constraints, &mut out);
            }
        }
        Value::Seq(items) => list(items, constraints, &mut out),
        Value::Map(entries) => {
            let count = entries.len() as u64;
            if let Some(min) = constraints.min_properties.filter(|min| count < *min) {
                out.push(Verdict::Broken(format!(
                    "has {count} entries, fewer than the minimum {min}"
                )));
            }
            if let Some(max) = constraints.max_properties.filter(|max| count > *max) {
                out.push(Verdict::Broken(format!(
                    "has {count} entries, more than the maximum {max}"
                )));
            }
        }
        Value::Null | Value::Bool(_) => {}
    }
    out
}

fn string(text: &str, constraints: &Constraints, out: &mut Vec<Verdict>) {
    let length = text.chars().count() as u64;
    if let Some(min) = constraints.min_length.filter(|min| length < *min) {
        out.push(Verdict::Broken(format!(
            "is {length} characters long, shorter than the minimum {min}"
        )));
    }
    if let Some(max) = constraints.max_length.filter(|max| length > *max) {
        out.push(Verdict::Broken(format!(
            "is {length} characters long, longer than the maximum {max}"
        )));
    }
    if let Some(pattern) = &constraints.pattern {
        match compiled(pattern) {
            Ok(regex) if regex.is_match(text) => {}
            Ok(_) => out.push(Verdict::Broken(format!(
                "{text:?} does not match the pattern {pattern:?}"
            ))),
            Err(why) => out.push(Verdict::Unchecked(format!(
                "the pattern {pattern:?} was not checked: {why}"
            ))),
        }
    }
}

fn number(value: f64, constraints: &Constraints, out: &mut Vec<Verdict>) {
    let shown = Number(value);
    let mut broken = |what: &str, bound: Number| {
        out.push(Verdict::Broken(format!("{shown} is {what} {bound}")));
    };
    if let Some(min) = constraints.minimum.filter(|min| value < min.0) {
        broken("less than the minimum", min);
    }
    if let Some(min) = constraints.exclusive_minimum.filter(|min| value <= min.0) {
        broken("not greater than the exclusive minimum", min);
    }
    if let Some(max) = constraints.maximum.filter(|max| value > max.0) {
        broken("greater than the maximum", max);
    }
    if let Some(max) = constraints.exclusive_maximum.filter(|max| value >= max.0) {
        broken("not less than the exclusive maximum", max);
    }
    if let Some(step) = constraints.multiple_of {
        let quotient = value / step.0;
        if quotient.is_finite() && (quotient - quotient.round()).abs() > 1e-9 {
            broken("not a multiple of", step);
        }
    }
}

fn list(items: &[Node], constraints: &Constraints, out: &mut Vec<Verdict>) {
    let count = items.len() as u64;
    if let Some(min) = constraints.min_items.filter(|min| count < *min) {
        out.push(Verdict::Broken(format!(
            "has {count} items, fewer than the minimum {min}"
        )));
    }
    if let Some(max) = constraints.max_items.filter(|max| count > *max) {
        out.push(Verdict::Broken(format!(
            "has {count} items, more than the maximum {max}"
        )));
    }
    // A CRD's `x-kubernetes-list-type: set` reads as `uniqueItems`; where
    // the list type is known, the walker checks it as the API server does.
    if constraints.unique_items && constraints.list_type.is_none() {
        let mut seen = HashSet::with_capacity(items.len());
        for (index, item) in items.iter().enumerate() {
            if !seen.insert(item.to_json().to_string()) {
                out.push(Verdict::Broken(format!(
                    "item [{index}] repeats an earlier item; the items must be unique"
                )));
                break;
            }
        }
    }
}

/// Compiled patterns (or why they do not compile), by their text, hashed
/// with foldhash (std's SipHash cost a few hundred instructions a lookup,
/// one lookup per constrained string).
type Patterns = HashMap<String, Result<Rc<Regex>, String>, foldhash::fast::RandomState>;

thread_local! {
    static PATTERNS: RefCell<Patterns> = RefCell::new(Patterns::default());
}

/// `pattern` compiled once per thread, within the size limit.
pub(crate) fn compiled(pattern: &str) -> Result<Rc<Regex>, String> {
    PATTERNS.with(|cache| {
        if let Some(found) = cache.borrow().get(pattern) {
            return found.clone();
        }
        let result = regex::RegexBuilder::new(pattern)
            .size_limit(REGEX_SIZE_LIMIT)
            .dfa_size_limit(REGEX_SIZE_LIMIT)
            .build()
            .map(Rc::new)
            .map_err(|err| match err {
                regex::Error::CompiledTooBig(limit) => {
                    format!("it compiles to more than {limit} bytes")
                }
                other => format!(
                    "RE2 syntax (Go's and the regex crate's) does not take it: {}",
                    other.to_string().lines().last().unwrap_or_default().trim()
                ),
            });
        let mut cache = cache.borrow_mut();
        if cache.len() >= CACHE_LIMIT {
            cache.clear();
        }
        cache.insert(pattern.to_owned(), result.clone());
        result
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(value: Value) -> Node {
        Node::new(value)
    }

    fn messages(node: &Node, constraints: &Constraints) -> Vec<String> {
        verdicts(node, constraints)
            .into_iter()
            .map(|verdict| match verdict {
                Verdict::Broken(message) => format!("broken: {message}"),
                Verdict::Unchecked(message) => format!("unchecked: {message}"),
            })
            .collect()
    }

    #[test]
    fn strings_numbers_lists_and_maps() {
        let name = Constraints {
            pattern: Some("^[a-z]+$".into()),
            max_length: Some(5),
            ..Constraints::default()
        };
        assert!(messages(&node(Value::String("web".into())), &name).is_empty());
        assert_eq!(
            messages(&node(Value::String("Web-Server".into())), &name),
            [
                "broken: is 10 characters long, longer than the maximum 5",
                "broken: \"Web-Server\" does not match the pattern \"^[a-z]+$\""
            ]
        );
        let port = Constraints {
            minimum: Some(Number(1.0)),
            exclusive_maximum: Some(Number(65536.0)),
            multiple_of: Some(Number(0.5)),
            ..Constraints::default()
        };
        assert!(messages(&node(Value::Int(8080)), &port).is_empty());
        assert_eq!(
            messages(&node(Value::Int(0)), &port),
            ["broken: 0 is less than the minimum 1"]
        );
        assert_eq!(
            messages(&node(Value::Float("65536.25".into())), &port),
            [
                "broken: 65536.25 is not less than the exclusive maximum 65536",
                "broken: 65536.25 is not a multiple of 0.5"
            ]
        );
        let list = Constraints {
            min_items: Some(1),
            unique_items: true,
            ..Constraints::default()
        };
        let a = || node(Value::String("a".into()));
        assert_eq!(
            messages(&node(Value::Seq(vec![a(), a()])), &list),
            ["broken: item [1] repeats an earlier item; the items must be unique"]
        );
        assert_eq!(
            messages(&node(Value::Seq(vec![])), &list),
            ["broken: has 0 items, fewer than the minimum 1"]
        );
        let map = Constraints {
            max_properties: Some(0),
            ..Constraints::default()
        };
        let entry = crate::document::Entry {
            key: "k".into(),
            line: 1,
            value: a(),
        };
        assert_eq!(
            messages(&node(Value::Map(vec![entry])), &map),
            ["broken: has 1 entries, more than the maximum 0"]
        );
        assert!(messages(&node(Value::Null), &name).is_empty());
    }

    #[test]
    fn patterns_re2_cannot_take_or_too_big_are_reported_not_guessed() {
        let lookahead = Constraints {
            pattern: Some("^(?!kube-).*$".into()),
            ..Constraints::default()
        };
        let found = messages(&node(Value::String("x".into())), &lookahead);
        assert_eq!(found.len(), 1);
        assert!(found[0].starts_with("unchecked: the pattern"), "{found:?}");
        let huge = Constraints {
            pattern: Some("(((a{100}){100}){100})".into()),
            ..Constraints::default()
        };
        let found = messages(&node(Value::String("a".into())), &huge);
        assert!(found[0].contains("compiles to more than"), "{found:?}");
        // A pattern that backtracking engines take exponential time on.
        let evil = Constraints {
            pattern: Some("^(a+)+$".into()),
            ..Constraints::default()
        };
        let text = format!("{}!", "a".repeat(100_000));
        let started = std::time::Instant::now();
        assert_eq!(messages(&node(Value::String(text.into())), &evil).len(), 1);
        assert!(started.elapsed() < std::time::Duration::from_secs(5));
    }
}
