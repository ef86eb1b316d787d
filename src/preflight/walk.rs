//! Walks one document through its type's gates for one target minor.

use super::violation::{Rule, Severity, Violation};
use crate::document::{Entry, Node, Place, Value};
use crate::gates::{show_values, type_expr, values_listed_in, FieldGate, Gate, TypeGate};
use crate::tables::GateTables;
use crate::Version;
use std::collections::BTreeMap;
use std::fmt::Write;

/// One step of a path: a key or a list index.
#[derive(Clone, Copy)]
enum Step<'a> {
    Key(&'a str),
    Index(usize),
}

/// The walk's state: the tables, the target, the path so far, the findings.
pub(super) struct Walker<'a> {
    pub tables: &'a GateTables,
    pub target: Version,
    pub strict: bool,
    path: Vec<Step<'a>>,
    pub violations: Vec<Violation>,
}

impl<'a> Walker<'a> {
    pub fn new(tables: &'a GateTables, target: Version, strict: bool) -> Self {
        Walker {
            tables,
            target,
            strict,
            path: Vec::new(),
            violations: Vec::new(),
        }
    }

    fn path_text(&self, last: Option<&str>) -> String {
        let mut text = String::new();
        let steps = self.path.iter().copied().chain(last.map(Step::Key));
        for step in steps {
            match step {
                Step::Key(key) => {
                    if !text.is_empty() {
                        text.push('.');
                    }
                    text.push_str(key);
                }
                Step::Index(index) => {
                    let _ = write!(text, "[{index}]");
                }
            }
        }
        text
    }

    fn report(
        &mut self,
        severity: Severity,
        rule: Rule,
        last: Option<&str>,
        line: u32,
        message: String,
    ) {
        let path = self.path_text(last);
        self.violations.push(Violation {
            severity,
            rule,
            path,
            line,
            message,
        });
    }

    /// Checks `node` against the type expression `ty`; `line` is the line of
    /// the key (or list item) holding it.
    pub fn value(&mut self, node: &'a Node, ty: &'a str, line: u32) {
        if matches!(node.value, Value::Null) {
            return;
        }
        if let Some(item) = type_expr::array_item(ty) {
            match &node.value {
                Value::Seq(items) => {
                    for (index, item_node) in items.iter().enumerate() {
                        self.path.push(Step::Index(index));
                        self.value(item_node, item, item_node.line);
                        self.path.pop();
                    }
                }
                _ => self.wrong_type(node, "a list", ty, line),
            }
        } else if let Some(value_ty) = type_expr::map_value(ty) {
            match &node.value {
                Value::Map(entries) => {
                    for entry in entries {
                        self.path.push(Step::Key(&entry.key));
                        self.value(&entry.value, value_ty, entry.line);
                        self.path.pop();
                    }
                }
                _ => self.wrong_type(node, "a mapping", ty, line),
            }
        } else if type_expr::is_builtin(ty) {
            self.builtin(node, ty, line);
        } else if let Some(def) = self.tables.ty(ty) {
            self.definition(node, ty, def, line);
        }
    }

    fn builtin(&mut self, node: &Node, ty: &str, line: u32) {
        let head = type_expr::base(ty);
        let ok = match head {
            "string" => matches!(node.value, Value::String(_)),
            "integer" => matches!(node.value, Value::Int(_)),
            "number" => matches!(node.value, Value::Int(_) | Value::Float(_)),
            "boolean" => matches!(node.value, Value::Bool(_)),
            "object" => matches!(node.value, Value::Map(_)),
            "int-or-string" => matches!(node.value, Value::Int(_) | Value::String(_)),
            _ => true,
        };
        if !ok {
            let expected = match head {
                "string" => "a string",
                "integer" => "an integer",
                "number" => "a number",
                "boolean" => "a boolean",
                "object" => "a mapping",
                _ => "an integer or a string",
            };
            self.wrong_type(node, expected, ty, line);
        }
    }

    fn wrong_type(&mut self, node: &Node, expected: &str, ty: &str, line: u32) {
        let message = format!(
            "expected {expected} ({ty} in {}), found {}",
            self.target,
            node.describe()
        );
        self.report(Severity::Error, Rule::WrongType, None, line, message);
    }

    fn definition(&mut self, node: &'a Node, name: &'a str, def: &'a TypeGate, line: u32) {
        if !def.values.is_empty() {
            if let Value::String(text) = &node.value {
                self.enum_value(text, &def.values, line, None);
            }
        }
        if def.fields.is_empty() {
            return;
        }
        let Value::Map(entries) = &node.value else {
            self.wrong_type(node, "a mapping", short(name), line);
            return;
        };
        for entry in entries {
            match def.fields.get(entry.key.as_str()) {
                Some(field) => self.field(entry, field, def),
                None if self.strict => {
                    let mut message = format!(
                        "unknown field ({} has no field {:?} in any minor)",
                        short(name),
                        entry.key
                    );
                    if let Some(suggestion) = closest_field(def, &entry.key, self.target) {
                        let _ = write!(message, "; did you mean {suggestion:?}?");
                    }
                    self.report(
                        Severity::Error,
                        Rule::UnknownField,
                        Some(&entry.key),
                        entry.line,
                        message,
                    );
                }
                None => {}
            }
        }
        for (field_name, field) in &def.fields {
            if !field.is_required_in(self.target) {
                continue;
            }
            // `null` means unset, so a required field set to null is missing.
            let (line, message) = match entries.iter().find(|entry| entry.key == *field_name) {
                None => (line, format!("missing: required in {}", self.target)),
                Some(entry) if matches!(entry.value.value, Value::Null) => (
                    entry.line,
                    format!("null counts as missing: required in {}", self.target),
                ),
                Some(_) => continue,
            };
            self.report(
                Severity::Error,
                Rule::MissingRequired,
                Some(field_name),
                line,
                message,
            );
        }
    }

    fn field(&mut self, entry: &'a Entry, field: &'a FieldGate, def: &'a TypeGate) {
        let target = self.target;
        let key = entry.key.as_str();
        if !field.gate.is_present_in(target) {
            let (rule, message) = absent_message(&field.gate, target, renamed_to(def, key, target));
            self.report(Severity::Error, rule, Some(key), entry.line, message);
            return;
        }
        if field.gate.is_deprecated_in(target) {
            let mut message = format!(
                "deprecated since {}",
                field.gate.deprecated_in.unwrap_or(target)
            );
            if field.gate.inferred.iter().any(|key| key == "deprecated_in") {
                message.push_str(" (inferred from its description)");
            }
            if let Some((new_name, since)) = renamed_to(def, key, Version::new(u32::MAX, 0)) {
                let _ = write!(message, "; renamed to {new_name} in {since}");
            }
            self.report(
                Severity::Warning,
                Rule::Deprecated,
                Some(key),
                entry.line,
                message,
            );
        }
        if !field.values.is_empty() {
            if let Value::String(text) = &entry.value.value {
                self.enum_value(text, &field.values, entry.line, Some(key));
            }
        }
        self.path.push(Step::Key(key));
        if !field.element_values.is_empty() {
            self.element_values(&entry.value, &field.element_values);
        }
        self.value(&entry.value, field.type_in(target), entry.line);
        self.path.pop();
    }

    /// Checks each string element of a list or map (each item, each map
    /// value) against the field's element enum; the path already ends with
    /// the field.
    fn element_values(&mut self, node: &'a Node, values: &BTreeMap<String, Gate>) {
        for (place, text, line) in node.string_elements() {
            self.path.push(match place {
                Place::Index(index) => Step::Index(index),
                Place::Key(key) => Step::Key(key),
            });
            self.enum_value(text, values, line, None);
            self.path.pop();
        }
    }

    fn enum_value(
        &mut self,
        text: &str,
        values: &BTreeMap<String, Gate>,
        line: u32,
        last: Option<&str>,
    ) {
        let target = self.target;
        let accepted = values_listed_in(values, target);
        // A minor whose spec lists none of the values leaves the field open.
        if accepted.is_empty() {
            return;
        }
        match values.get(text) {
            Some(gate) if gate.is_present_in(target) => {}
            Some(gate) => {
                let (_, reason) = absent_reason(gate, target, None);
                let message = format!("value {text:?} is not available in {target} ({reason})");
                self.report(
                    Severity::Error,
                    Rule::ValueNotAvailable,
                    last,
                    line,
                    message,
                );
            }
            // The target lists its values and this is none of them: the
            // API refuses it (and so do the JSON Schemas), strict or not.
            None => {
                let message = format!(
                    "value {text:?} is not accepted in {target} (accepted: {})",
                    show_values(&accepted)
                );
                self.report(
                    Severity::Error,
                    Rule::ValueNotAvailable,
                    last,
                    line,
                    message,
                );
            }
        }
    }
}

/// Why an item with `gate` is absent in `target`: the rule and the message
/// (`not available in 1.29 (introduced in 1.30 as beta, feature gate X)`).
pub(super) fn absent_message(
    gate: &Gate,
    target: Version,
    renamed: Option<(&str, Version)>,
) -> (Rule, String) {
    let (rule, reason) = absent_reason(gate, target, renamed);
    (rule, format!("not available in {target} ({reason})"))
}

/// The reason alone: `introduced in 1.30 as beta, feature gate X`,
/// `removed in 1.32; renamed to y in 1.32`, `present in 1.9, 1.11`.
pub(crate) fn absent_reason(
    gate: &Gate,
    target: Version,
    renamed: Option<(&str, Version)>,
) -> (Rule, String) {
    if target < gate.introduced_in {
        let mut why = format!("introduced in {}", gate.introduced_in);
        if let Some(stage) = gate.stage_in(gate.introduced_in) {
            let _ = write!(why, " as {}", stage_name(stage));
        }
        if let Some(feature_gate) = &gate.feature_gate {
            let _ = write!(why, ", feature gate {feature_gate}");
        }
        return (Rule::NotYetIntroduced, why);
    }
    if let Some(removed) = gate.removed_in.filter(|removed| target >= *removed) {
        let mut why = format!("removed in {removed}");
        if let Some((new_name, since)) = renamed {
            let _ = write!(why, "; renamed to {new_name} in {since}");
        }
        return (Rule::Removed, why);
    }
    let present: Vec<String> = gate
        .present_in
        .iter()
        .flatten()
        .map(ToString::to_string)
        .collect();
    (
        Rule::NotInMinor,
        format!("present in {}", present.join(", ")),
    )
}

/// The field that replaced `old` by a rename at or before `by`, if any.
pub(super) fn renamed_to<'d>(
    def: &'d TypeGate,
    old: &str,
    by: Version,
) -> Option<(&'d str, Version)> {
    def.fields.iter().find_map(|(name, field)| {
        field
            .renamed_from
            .as_ref()
            .filter(|rename| rename.from == old && rename.in_version <= by)
            .map(|rename| (name.as_str(), rename.in_version))
    })
}

fn stage_name(stage: crate::gates::Stage) -> &'static str {
    match stage {
        crate::gates::Stage::Alpha => "alpha",
        crate::gates::Stage::Beta => "beta",
        crate::gates::Stage::Ga => "GA",
    }
}

/// The field of `def` present in `target` whose name is closest to `key`
/// (at most two edits away).
fn closest_field<'d>(def: &'d TypeGate, key: &str, target: Version) -> Option<&'d str> {
    def.fields
        .iter()
        .filter(|(_, field)| field.gate.is_present_in(target))
        .map(|(name, _)| (strsim::damerau_levenshtein(key, name), name.as_str()))
        .filter(|(distance, _)| *distance <= 2)
        .min()
        .map(|(_, name)| name)
}

/// The short name of a definition (`io.k8s.api.core.v1.ServiceSpec` → `ServiceSpec`).
pub(super) fn short(name: &str) -> &str {
    name.rsplit('.').next().unwrap_or(name)
}
