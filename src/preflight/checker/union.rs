//! `check` on a value of a union: with a discriminator, the property picks
//! the member and the value is checked as that member; without one, the
//! value is checked against each member present in the target, and must
//! match exactly one (`oneOf`) or at least one (`anyOf`). A value that
//! matches none is reported once, naming each member tried and the first
//! thing that member refused.
//!
//! Trying members multiplies work by the members of every union nested in
//! the value, so it is bounded: at most [`MAX_UNION_DEPTH`] unions tried
//! inside one another and [`MAX_MEMBER_TRIES`] member checks per document.
//! Past either, the value is accepted unchecked with a warning saying so.

use super::super::violation::{Rule, Severity, Violation};
use super::{absent_reason, short, Checker};
use crate::document::{Node, Value};
use crate::gates::{DiscriminatorGate, TypeExpr, UnionGate, UnionKind};
use crate::walk::Walk;
use std::cell::Cell;
use std::fmt::Write;
use std::rc::Rc;

/// The most unions tried inside one another.
pub const MAX_UNION_DEPTH: usize = 16;
/// The most member checks of one document.
pub const MAX_MEMBER_TRIES: usize = 4096;
/// The most members a "matches no member" message describes.
const MAX_LISTED: usize = 8;

/// The member checks a document has left, shared by the checkers that try
/// members on its behalf.
#[derive(Debug)]
pub(in crate::preflight) struct UnionBudget {
    tries: Cell<usize>,
}

impl UnionBudget {
    pub fn new() -> Rc<Self> {
        Rc::new(UnionBudget {
            tries: Cell::new(MAX_MEMBER_TRIES),
        })
    }

    /// Takes one member check; false when none is left.
    fn take(&self) -> bool {
        let left = self.tries.get();
        self.tries.set(left.saturating_sub(1));
        left > 0
    }
}

/// The most bytes of one member's reason a message quotes (a nested
/// union's reason holds its own members' reasons).
const MAX_REASON: usize = 400;

/// `reason`, cut to [`MAX_REASON`] bytes (at a character boundary) with `…`.
fn clip(reason: &str) -> std::borrow::Cow<'_, str> {
    if reason.len() <= MAX_REASON {
        return reason.into();
    }
    let mut end = MAX_REASON;
    while !reason.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &reason[..end]).into()
}

/// A member as messages name it: a definition's short name, else its type.
fn member_name(ty: &TypeExpr) -> String {
    match ty.definition() {
        Some(name) => short(name).to_owned(),
        None => ty.to_string(),
    }
}

impl<'a> Checker<'a> {
    /// Checks `node`, a value of the union `name`.
    pub(super) fn check_union(
        &mut self,
        walk: &mut Walk<'a>,
        node: &'a Node,
        line: u32,
        name: &'a str,
        union: &'a UnionGate,
    ) {
        if self.union_depth >= MAX_UNION_DEPTH {
            let message = format!(
                "not checked against the members of {}: unions nest more than {MAX_UNION_DEPTH} deep here; vergate stops there and accepts the value",
                short(name)
            );
            self.report(
                walk,
                Severity::Warning,
                Rule::WrongType,
                None,
                line,
                message,
            );
            return;
        }
        match &union.discriminator {
            Some(discriminator) => self.discriminated(walk, node, line, name, union, discriminator),
            None => self.untagged(walk, node, line, name, union),
        }
    }

    /// The member the discriminator property names, checked as such.
    fn discriminated(
        &mut self,
        walk: &mut Walk<'a>,
        node: &'a Node,
        line: u32,
        name: &'a str,
        union: &'a UnionGate,
        discriminator: &'a DiscriminatorGate,
    ) {
        let target = self.target;
        let property = discriminator.property.as_str();
        let present = |member: &String| {
            union
                .members
                .get(&TypeExpr::Definition(member.clone()))
                .is_some_and(|gate| gate.is_present_in(target))
        };
        let known: Vec<&str> = discriminator
            .mapping
            .iter()
            .filter(|(_, member)| present(member))
            .map(|(value, _)| value.as_str())
            .collect();
        let known = known.join(", ");
        let Some(entries) = node.as_map() else {
            let message = format!(
                "expected a mapping ({} in {target}), found {}",
                short(name),
                node.describe()
            );
            self.report(walk, Severity::Error, Rule::WrongType, None, line, message);
            return;
        };
        let entry = entries.iter().find(|entry| entry.key == property);
        let tag = match entry.map(|entry| (&entry.value.value, entry.line)) {
            None | Some((Value::Null, _)) => {
                let message = format!(
                    "missing: {} picks its member by {property:?} (in {target} one of: {known})",
                    short(name)
                );
                self.report(
                    walk,
                    Severity::Error,
                    Rule::MissingRequired,
                    Some(property),
                    line,
                    message,
                );
                return;
            }
            Some((Value::String(tag), tag_line)) => (tag, tag_line),
            Some((_, tag_line)) => {
                let found = entry.map_or("nothing", |entry| entry.value.describe());
                let message = format!(
                    "expected a string naming the member of {} (in {target} one of: {known}), found {found}",
                    short(name)
                );
                self.report(
                    walk,
                    Severity::Error,
                    Rule::WrongType,
                    Some(property),
                    tag_line,
                    message,
                );
                return;
            }
        };
        let (tag, tag_line) = tag;
        let Some(member) = discriminator.mapping.get(tag.as_str()) else {
            let message = format!(
                "value {tag:?} names no member of {} (known in {target}: {known})",
                short(name)
            );
            self.report(
                walk,
                Severity::Error,
                Rule::ValueNotAvailable,
                Some(property),
                tag_line,
                message,
            );
            return;
        };
        let ty = TypeExpr::Definition(member.clone());
        if let Some(gate) = union
            .members
            .get(&ty)
            .filter(|gate| !gate.is_present_in(target))
        {
            let (rule, reason) = absent_reason(gate, target, None);
            let message = format!(
                "value {tag:?} picks {}, which is not a member of {} in {target} ({reason}; known in {target}: {known})",
                short(member),
                short(name)
            );
            self.report(
                walk,
                Severity::Error,
                rule,
                Some(property),
                tag_line,
                message,
            );
            return;
        }
        self.union_depth += 1;
        walk.value(self, node, line, &ty, &ty);
        self.union_depth -= 1;
    }

    /// Tries every member present in the target.
    fn untagged(
        &mut self,
        walk: &mut Walk<'a>,
        node: &'a Node,
        line: u32,
        name: &'a str,
        union: &'a UnionGate,
    ) {
        let target = self.target;
        let mut matched: Vec<(&TypeExpr, Vec<Violation>)> = Vec::new();
        let mut refused: Vec<(&TypeExpr, Violation)> = Vec::new();
        for member in union.members_in(target) {
            if !self.budget.take() {
                let message = format!(
                    "not checked against the members of {}: the document needs more than {MAX_MEMBER_TRIES} member checks; vergate stops there and accepts the value",
                    short(name)
                );
                self.report(
                    walk,
                    Severity::Warning,
                    Rule::WrongType,
                    None,
                    line,
                    message,
                );
                return;
            }
            let mut trial = self.trial();
            walk.branch().value(&mut trial, node, line, member, member);
            let first_error = trial
                .violations
                .iter()
                .position(|violation| violation.severity == Severity::Error);
            match first_error {
                Some(index) => refused.push((member, trial.violations.swap_remove(index))),
                None => matched.push((member, trial.violations)),
            }
        }
        let union_name = short(name);
        match (union.kind, matched.len()) {
            (_, 0) => {
                let mut message = format!("matches no member of {union_name} in {target}");
                for (member, violation) in refused.iter().take(MAX_LISTED) {
                    let at = if violation.path.is_empty() || violation.path == walk.path_text(None)
                    {
                        String::new()
                    } else {
                        format!("{}: ", violation.path)
                    };
                    let reason = clip(&violation.message);
                    let _ = write!(message, "; as {}: {at}{reason}", member_name(member));
                }
                if refused.len() > MAX_LISTED {
                    let _ = write!(message, "; and {} more", refused.len() - MAX_LISTED);
                }
                self.report(walk, Severity::Error, Rule::WrongType, None, line, message);
            }
            (UnionKind::OneOf, count) if count > 1 => {
                let names: Vec<String> = matched
                    .iter()
                    .map(|(member, _)| member_name(member))
                    .collect();
                let message = format!(
                    "matches {count} members of {union_name} ({}); oneOf accepts a value that matches exactly one",
                    names.join(", ")
                );
                self.report(walk, Severity::Error, Rule::WrongType, None, line, message);
            }
            _ => {
                // The first match's warnings (deprecations) are the value's;
                // of several (anyOf), the first that knows every field the
                // value has, so its unknown-field warnings are not another
                // member's fields.
                let unknown = |warnings: &[Violation]| {
                    warnings
                        .iter()
                        .filter(|violation| violation.rule == Rule::UnknownField)
                        .count()
                };
                let best = (0..matched.len())
                    .min_by_key(|&index| unknown(&matched[index].1))
                    .unwrap_or(0);
                let (_, warnings) = matched.swap_remove(best);
                self.violations.extend(warnings);
            }
        }
    }

    /// A checker for trying one member: same target and strictness, the
    /// document's budget, one union deeper.
    fn trial(&self) -> Checker<'a> {
        let mut trial = Checker::new(self.tables, self.target, self.strict);
        trial.feature_gates = self.feature_gates;
        trial.fields = self.fields;
        trial.budget = Rc::clone(&self.budget);
        trial.union_depth = self.union_depth + 1;
        trial
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gates::{Gate, GatesIndex, Scalar, TypeGate};
    use crate::tables::GateTables;
    use crate::Version;
    use std::collections::BTreeMap;

    const V: Version = Version::new(1, 0);

    fn present() -> Gate {
        Gate {
            introduced_in: V,
            ..Gate::default()
        }
    }

    /// `U0 = U1 | integer`, `U1 = U2 | integer`, … 40 deep, the last
    /// `string`: a value that is a list tries every member of every level.
    fn nested(depth: usize, kind: UnionKind) -> GateTables {
        let mut types = BTreeMap::new();
        for level in 0..depth {
            let next: TypeExpr = if level + 1 == depth {
                TypeExpr::Scalar(Scalar::String(None))
            } else {
                TypeExpr::Definition(format!("U{}", level + 1))
            };
            let integer = TypeExpr::Scalar(Scalar::Integer(None));
            let union = UnionGate {
                kind,
                members: BTreeMap::from([(next.clone(), present()), (integer.clone(), present())]),
                order: vec![next, integer],
                discriminator: None,
            };
            let ty = TypeGate {
                gate: present(),
                ty: Some(TypeExpr::Scalar(Scalar::Any)),
                union: Some(union),
                ..TypeGate::default()
            };
            types.insert(format!("U{level}"), ty);
        }
        GateTables::from_index(GatesIndex {
            api: "nested".into(),
            dialect: Default::default(),
            versions: vec![V],
            deprecated_versions: BTreeMap::new(),
            feature_gates: BTreeMap::new(),
            retired_kinds: Vec::new(),
            types,
        })
    }

    fn check(tables: &GateTables, text: &str) -> Vec<Violation> {
        let parsed = crate::document::parse(text);
        let root = &parsed.documents[0].root;
        let mut checker = Checker::new(tables, V, false);
        checker.document(root, "U0");
        checker.violations
    }

    #[test]
    fn a_value_no_member_fits_is_reported_once_naming_each_member() {
        let tables = nested(3, UnionKind::AnyOf);
        let violations = check(&tables, "- 1\n- 2\n");
        assert_eq!(violations.len(), 1, "{violations:#?}");
        assert_eq!(violations[0].severity, Severity::Error);
        assert_eq!(
            violations[0].message,
            "matches no member of U0 in 1.0; as U1: matches no member of U1 in 1.0; \
             as U2: matches no member of U2 in 1.0; as string: expected a string (string in 1.0), found a list; \
             as integer: expected an integer (integer in 1.0), found a list; \
             as integer: expected an integer (integer in 1.0), found a list; \
             as integer: expected an integer (integer in 1.0), found a list"
        );
        assert!(check(&tables, "7\n").is_empty());
        assert!(check(&tables, "text\n").is_empty());
    }

    #[test]
    fn nested_unions_stop_at_the_depth_limit_and_say_so() {
        // 40 levels, two members each: tried all the way, 2^40 member
        // checks. The walk stops 16 unions deep and accepts the value
        // there, with a warning; the levels above take it as a match.
        let tables = nested(40, UnionKind::OneOf);
        let violations = check(&tables, "a: 1\n");
        assert_eq!(violations.len(), 1, "{violations:#?}");
        assert_eq!(violations[0].severity, Severity::Warning);
        assert!(
            violations[0].message.starts_with(
                "not checked against the members of U16: unions nest more than 16 deep"
            ),
            "{violations:#?}"
        );
        let budget = UnionBudget::new();
        for _ in 0..MAX_MEMBER_TRIES {
            assert!(budget.take());
        }
        assert!(!budget.take());
    }

    #[test]
    fn a_deeper_union_than_the_limit_is_accepted_with_a_warning() {
        let tables = nested(40, UnionKind::AnyOf);
        let parsed = crate::document::parse("true\n");
        let root = &parsed.documents[0].root;
        let mut checker = Checker::new(&tables, V, false);
        checker.union_depth = MAX_UNION_DEPTH;
        checker.document(root, "U0");
        assert_eq!(checker.violations.len(), 1);
        assert_eq!(checker.violations[0].severity, Severity::Warning);
        assert!(checker.violations[0]
            .message
            .contains("nest more than 16 deep"));
    }
}
