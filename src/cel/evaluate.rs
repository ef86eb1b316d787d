//! Running a CRD version's rules over one custom resource, where and when
//! the API server runs them: each rule at its schema node with `self` bound
//! to the node's value (after defaulting), per item of a list and per value
//! of a map; a node whose value is absent or null runs nothing below it.

use super::library;
use super::passed;
use super::rule::{Rule, ENV};
use super::schema;
use super::value;
use crate::document::{Node, Value as Doc};
use crate::preflight::{Severity, Violation};
use crate::Version;
use cel::common::types::{CelBool, CelInt, CelString};
use cel::common::value::Val;
use cel::objects::{OptionalValue, Value};
use cel::{Context, ExecutionError};
use std::cell::RefCell;
use std::fmt::Write as _;
use std::sync::Arc;

/// The API server's runtime cost limit for one evaluation of a rule
/// (`PerCallLimit` of k8s.io/apiserver `pkg/apis/cel/config.go`).
pub const PER_CALL_LIMIT: u64 = 1_000_000;

/// What running a resource's rules found.
#[derive(Debug, Default)]
pub struct Outcome {
    /// Failed rules (errors) and rules not evaluated (warnings), bounded
    /// per rule and in length (a rule over many items).
    pub violations: crate::findings::Findings,
    /// Rules run.
    pub evaluated: usize,
    /// Transition rules (`oldSelf`) skipped, as on create.
    pub transition_skipped: usize,
}

thread_local! {
    /// One context per thread with the Kubernetes functions registered
    /// (registering them is the costly part); each evaluation binds `self`
    /// in a child scope of it.
    static ROOT: RefCell<Option<Context<'static, 'static>>> = const { RefCell::new(None) };
}

/// Runs the rules of `tree` over the resource `root`, for the Kubernetes
/// API server of minor `target` (`None`: a minor not known, whose API
/// server is taken to offer every library).
pub fn evaluate(tree: &schema::Node, root: &Node, target: Option<Version>) -> Outcome {
    let mut outcome = Outcome::default();
    if !tree.rules_below {
        return outcome;
    }
    ROOT.with(|cell| {
        let mut cell = cell.borrow_mut();
        let context = cell.get_or_insert_with(|| {
            let mut context = Context::with_env(Arc::clone(&ENV));
            library::register(&mut context);
            context
        });
        let mut walk = Walk {
            context,
            target,
            defaults_unknown: tree.defaults_unknown,
            path: String::new(),
            outcome: &mut outcome,
        };
        walk.node(tree, root, root.line, true, None);
    });
    outcome
}

struct Walk<'w> {
    context: &'w Context<'static, 'static>,
    target: Option<Version>,
    /// The tree comes from gates, without the schema's defaults.
    defaults_unknown: bool,
    /// The dotted path of the node being visited (`spec.rules[0]`).
    path: String,
    outcome: &'w mut Outcome,
}

impl Walk<'_> {
    /// Runs the rules at `node` (of schema `schema`) and below; `cel` is
    /// the node's CEL value when its parent's holds it (`None`: built here).
    fn node(
        &mut self,
        schema: &schema::Node,
        node: &Node,
        line: u32,
        is_root: bool,
        cel: Option<&dyn Val>,
    ) {
        if !schema.rules_below || matches!(node.value, Doc::Null) {
            return;
        }
        // The rules that passed on a value that reads alike are not run
        // again; when all of them have, the value is not even converted.
        let key = if schema.rules.is_empty() {
            None
        } else {
            schema.passed.key(node, self.target)
        };
        let known = key.as_ref().map_or(0, |key| schema.passed.lookup(key));
        let all_known = (0..schema.rules.len()).all(|index| known & passed::bit(index) != 0);
        if all_known {
            self.outcome.evaluated += schema.rules.len();
        }
        // A node's value is converted where the first rule on the way down
        // runs; each node below takes its value from that one (shared, not
        // copied). The rest of the resource is never converted.
        let built;
        let cel: Option<&dyn Val> = match cel {
            Some(cel) => Some(cel),
            None if !all_known => {
                built = value::of_node(node, Some(schema), is_root);
                Some(&*built)
            }
            None => None,
        };
        if let Some(cel) = cel.filter(|_| !all_known) {
            let context: &Context<'_, '_> = self.context;
            let mut scope = context.new_inner_scope();
            scope.add_variable_as_val("self", cel.clone_as_boxed());
            if schema.rules.iter().any(|rule| rule.transition) {
                let none = Value::Opaque(Arc::new(OptionalValue::none()));
                scope.add_variable_from_value("oldSelf", none);
            }
            // The values a comprehension may range over, for its cost bound.
            let size = if schema.rules.iter().any(|rule| rule.comprehensions > 0) {
                value::size(node)
            } else {
                0
            };
            let mut passes = 0;
            for (index, rule) in schema.rules.iter().enumerate() {
                let bit = passed::bit(index);
                if known & bit != 0 {
                    self.outcome.evaluated += 1;
                } else if self.rule(rule, schema, &scope, node, line, size) {
                    passes |= bit;
                }
            }
            if let Some(key) = key {
                schema.passed.record(key, passes);
            }
        }
        let index = cel.and_then(|cel| cel.as_indexer());
        match &node.value {
            Doc::Map(entries) => {
                for (name, property) in &schema.properties {
                    if !property.rules_below {
                        continue;
                    }
                    let entry = entries.iter().find(|entry| entry.key == name.as_str());
                    // The key is built only when this node has a value.
                    let child = index
                        .and_then(|index| index.get(&CelString::from(value::escape(name))).ok());
                    let child = child.as_ref().map(|child| child.as_ref());
                    let before = self.path.len();
                    self.push_key(name);
                    match (entry, &property.default) {
                        (Some(entry), _) => {
                            self.node(property, &entry.value, entry.line, false, child)
                        }
                        // Defaulted by the API server before validation.
                        (None, Some(default)) => {
                            let defaulted = value::node_of_json(default, line);
                            self.node(property, &defaulted, line, false, child);
                        }
                        (None, None) => {}
                    }
                    self.path.truncate(before);
                }
                if let Some(values) = schema.values.as_deref().filter(|values| values.rules_below) {
                    for entry in entries {
                        if schema.properties.contains_key(entry.key.as_str()) {
                            continue;
                        }
                        let child = index
                            .and_then(|index| index.get(&CelString::from(entry.key.as_str())).ok());
                        let child = child.as_ref().map(|child| child.as_ref());
                        let before = self.path.len();
                        self.push_key(&entry.key);
                        self.node(values, &entry.value, entry.line, false, child);
                        self.path.truncate(before);
                    }
                }
            }
            Doc::Seq(items) => {
                if let Some(item_schema) = schema.items.as_deref().filter(|items| items.rules_below)
                {
                    for (position, item) in items.iter().enumerate() {
                        let child =
                            index.and_then(|index| index.get(&CelInt::from(position as i64)).ok());
                        let child = child.as_ref().map(|child| child.as_ref());
                        let before = self.path.len();
                        let _ = write!(self.path, "[{position}]");
                        self.node(item_schema, item, item.line, false, child);
                        self.path.truncate(before);
                    }
                }
            }
            _ => {}
        }
    }

    fn push_key(&mut self, key: &str) {
        if !self.path.is_empty() {
            self.path.push('.');
        }
        self.path.push_str(key);
    }

    fn report(&mut self, severity: Severity, path: String, line: u32, message: String) {
        self.outcome.violations.push(Violation {
            severity,
            rule: crate::preflight::Rule::CelRule,
            path,
            line,
            message,
        });
    }

    fn rule(
        &mut self,
        rule: &Rule,
        schema: &schema::Node,
        scope: &Context<'_, '_>,
        node: &Node,
        line: u32,
        size: u64,
    ) -> bool {
        let planned = match &rule.program {
            Ok(planned) => planned,
            Err(why) => {
                let message = format!(
                    "the rule `{}` does not compile, so the API server refuses the CRD: {why}",
                    rule.source
                );
                self.report(Severity::Warning, self.path.clone(), line, message);
                return false;
            }
        };
        if rule.transition && !rule.optional_old_self {
            self.outcome.transition_skipped += 1;
            return false;
        }
        if let Some(message) = self.unavailable(rule) {
            self.report(Severity::Warning, self.path.clone(), line, message);
            return false;
        }
        let comprehensions = rule.comprehensions;
        let estimate = size
            .saturating_add(1)
            .checked_pow(comprehensions)
            .unwrap_or(u64::MAX);
        // Over the crude bound, the cost estimated at the value's own sizes
        // decides (computed only then: it costs far more than the count).
        let (estimate, how) = if comprehensions > 0 && estimate > PER_CALL_LIMIT {
            match super::cost::runtime_bound(rule, schema, node) {
                Some(cost) => (cost, "estimated at their sizes"),
                None => (estimate, "bounded by their count"),
            }
        } else {
            (0, "")
        };
        if estimate > PER_CALL_LIMIT {
            let message = format!(
                "the rule `{}` was not evaluated: over {size} values its cost, {how}, is {estimate}, over the API server's per-call limit ({PER_CALL_LIMIT}), where the API server says \"'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: {}\"",
                rule.source,
                rule.error_string()
            );
            self.report(Severity::Warning, self.path.clone(), line, message);
            return false;
        }
        self.outcome.evaluated += 1;
        let verdict = Value::resolve_val(planned, scope).and_then(|value| {
            match value.downcast_ref::<CelBool>() {
                Some(verdict) => Ok(Ok(*verdict.inner())),
                None => Value::try_from(value.as_ref()).map(Err),
            }
        });
        match verdict {
            Ok(Ok(true)) => return true,
            Ok(Ok(false)) => {
                let message = rule.message_expression.as_ref().and_then(|expression| {
                    match expression.execute(scope) {
                        Ok(Value::String(text)) if !text.trim().is_empty() => {
                            Some(text.to_string())
                        }
                        _ => None,
                    }
                });
                let (path, line) = self.field_path(rule, node, line);
                let message = rule.failure(schema.shape.name(), message);
                self.report(Severity::Error, path, line, message);
            }
            Ok(Err(other)) => {
                let message = format!(
                    "the rule `{}` gave {other:?}, not a bool; the API server refuses the CRD",
                    rule.source
                );
                self.report(Severity::Warning, self.path.clone(), line, message);
            }
            Err(ExecutionError::UndeclaredReference(name)) if !is_variable(&name) => {
                let message = format!("the rule `{}` was not evaluated: vergate does not support the function `{name}`", rule.source);
                self.report(Severity::Warning, self.path.clone(), line, message);
            }
            Err(err @ ExecutionError::NoSuchKey(_)) if self.defaults_unknown => {
                let message = format!(
                    "the rule `{}` was not judged: {} (gates.json keeps no defaults, which the API server applies first; check with --crd for them)",
                    rule.source,
                    go_error(&err)
                );
                self.report(Severity::Warning, self.path.clone(), line, message);
            }
            Err(err) => {
                let message = format!(
                    "Invalid value: \"{}\": {} evaluating rule: {}",
                    schema.shape.name(),
                    go_error(&err),
                    rule.error_string()
                );
                self.report(Severity::Error, self.path.clone(), line, message);
            }
        }
        false
    }

    /// Why the rule is not run at this target: it calls a function vergate
    /// does not evaluate, or one the target's API server does not offer.
    fn unavailable(&self, rule: &Rule) -> Option<String> {
        for function in &rule.functions {
            if let Some((_, why)) = library::UNSUPPORTED
                .iter()
                .find(|(name, _)| name == function)
            {
                return Some(format!("the rule `{}` was not evaluated: vergate does not support the function `{function}` ({why})", rule.source));
            }
            let Some(target) = self.target else {
                continue;
            };
            if let Some(library) =
                library::library_of(function).filter(|library| library.since > target)
            {
                return Some(format!(
                    "the rule `{}` calls `{}` ({} library, from {}), which the API server of {target} does not offer: it refuses the CRD; not evaluated",
                    rule.source,
                    library::display_name(function),
                    library.name,
                    library.since
                ));
            }
        }
        None
    }

    /// Where a failure is reported: the rule's `fieldPath` below the node
    /// (with the line of the value there when the document has it).
    fn field_path(&self, rule: &Rule, node: &Node, line: u32) -> (String, u32) {
        let Some(field_path) = rule.field_path.as_deref() else {
            return (self.path.clone(), line);
        };
        let mut path = self.path.clone();
        let mut at = Some(node);
        let mut line = line;
        for step in field_path_steps(field_path) {
            if !path.is_empty() {
                path.push('.');
            }
            path.push_str(&step);
            let entry = at.and_then(|node| match &node.value {
                Doc::Map(entries) => entries.iter().find(|entry| entry.key == step.as_str()),
                _ => None,
            });
            if let Some(entry) = entry {
                line = entry.line;
            }
            at = entry.map(|entry| &entry.value);
        }
        (path, line)
    }
}

/// An evaluation error as cel-go words the common ones.
fn go_error(err: &ExecutionError) -> String {
    match err {
        ExecutionError::NoSuchKey(key) => format!("no such key: {key}"),
        ExecutionError::IndexOutOfBounds(index) => format!("index out of bounds: {index:?}"),
        ExecutionError::DivisionByZero(_) => "division by zero".to_owned(),
        ExecutionError::RemainderByZero(_) => "modulus by zero".to_owned(),
        ExecutionError::Overflow(..) => "integer overflow".to_owned(),
        other => other.to_string(),
    }
}

/// The keys of a `fieldPath` (`.spec.x`, `.a['b.c']`).
fn field_path_steps(field_path: &str) -> Vec<String> {
    let mut steps = Vec::new();
    let mut rest = field_path;
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix("['") {
            let end = after.find("']").unwrap_or(after.len());
            steps.push(after[..end].to_owned());
            rest = after.get(end + 2..).unwrap_or("");
        } else {
            let after = rest.strip_prefix('.').unwrap_or(rest);
            let end = after.find(['.', '[']).unwrap_or(after.len());
            if end == 0 {
                break;
            }
            steps.push(after[..end].to_owned());
            rest = &after[end..];
        }
    }
    steps
}

/// The variables a rule may name (anything else undeclared is a function).
fn is_variable(name: &str) -> bool {
    matches!(name, "self" | "oldSelf")
}

#[cfg(test)]
mod tests {
    use super::field_path_steps;

    #[test]
    fn field_paths_split_into_keys() {
        assert_eq!(field_path_steps(".spec.x"), ["spec", "x"]);
        assert_eq!(field_path_steps(".a['b.c'].d"), ["a", "b.c", "d"]);
        assert_eq!(field_path_steps(""), Vec::<String>::new());
    }
}
