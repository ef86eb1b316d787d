//! Running a CRD version's rules over one custom resource, where and when
//! the API server runs them: each rule at its schema node with `self` bound
//! to the node's value (after defaulting), per item of a list and per value
//! of a map; a node whose value is absent or null runs nothing below it.

use super::charges;
use super::library;
use super::meter::{self, Stop, PER_CALL_LIMIT, RESOURCE_BUDGET, WORK_LIMIT};
use super::passed;
use super::rule::{Rule, ENV};
use super::schema;
use super::value;
use crate::document::{Node, Value as Doc};
use crate::preflight::{Deviation, Rule as Check, Violation};
use crate::Version;
use cel::common::types::{CelBool, CelInt, CelString};
use cel::common::value::Val;
use cel::objects::{OptionalValue, Value};
use cel::{Context, ExecutionError};
use std::cell::RefCell;
use std::fmt::Write as _;
use std::sync::Arc;

/// How a rule that was not evaluated (it does not compile, calls a
/// function the target lacks or vergate does not evaluate, gives no bool,
/// builds past vergate's bound, or reads a default gates.json lacks) is
/// reported: a warning, never a failure of the resource.
const NOT_EVALUATED: Option<Deviation> = Some(Deviation::NotChecked);

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
    /// The runtime cost of the rules run (cel-go's count, as the API
    /// server spends it from [`RESOURCE_BUDGET`]).
    pub cost: u64,
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
            budget: RESOURCE_BUDGET,
            halted: false,
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
    /// What is left of the resource's runtime cost budget.
    budget: u64,
    /// The API server stopped validating the resource (a rule went past
    /// the per-call limit, or the budget ran out): nothing more runs.
    halted: bool,
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
        if self.halted || !schema.rules_below || matches!(node.value, Doc::Null) {
            return;
        }
        // The rules that passed on a value that reads alike are not run
        // again; when all of them have, the value is not even converted.
        let key = if schema.rules.is_empty() {
            None
        } else {
            schema.passed.key(node, self.target)
        };
        let (known, known_cost) = key.as_ref().map_or((0, 0), |key| schema.passed.lookup(key));
        let all_known = (0..schema.rules.len()).all(|index| known & passed::bit(index) != 0);
        if !schema.rules.is_empty() && self.budget == 0 {
            self.out_of_budget(schema, line);
            return;
        }
        // The rules that passed cost what they cost then: the API server
        // runs them again and spends it.
        if known_cost > 0 && !self.spend(known_cost, schema, line) {
            return;
        }
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
            let (mut passes, mut passes_cost) = (0, 0);
            for (index, rule) in schema.rules.iter().enumerate() {
                if self.halted {
                    return;
                }
                let bit = passed::bit(index);
                if known & bit != 0 {
                    self.outcome.evaluated += 1;
                } else if let Some(cost) = self.rule(rule, schema, &scope, node, line) {
                    passes |= bit;
                    passes_cost += cost;
                }
            }
            if let Some(key) = key {
                schema.passed.record(key, passes, passes_cost);
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

    /// Reports a finding of the rule `cel-rule`: at its severity (a rule
    /// failed, or failed to run on this value), or at `deviation`'s (a
    /// rule not evaluated: [`Deviation::NotChecked`]).
    fn report(&mut self, deviation: Option<Deviation>, path: String, line: u32, message: String) {
        self.outcome
            .violations
            .push(Violation::new(Check::CelRule, path, line, message).deviating_if(deviation));
    }

    /// Spends `cost` of the budget; past it, reports the API server's
    /// error and stops the walk (false).
    fn spend(&mut self, cost: u64, schema: &schema::Node, line: u32) -> bool {
        self.outcome.cost = self.outcome.cost.saturating_add(cost);
        if cost > self.budget {
            self.out_of_budget(schema, line);
            return false;
        }
        self.budget -= cost;
        true
    }

    fn out_of_budget(&mut self, schema: &schema::Node, line: u32) {
        let message = format!(
            "Invalid value: \"{}\": validation failed due to running out of cost budget, no further validation rules will be run (the rules run on this resource cost more than the API server's budget for one object, {RESOURCE_BUDGET})",
            schema.shape.name()
        );
        self.report_final(self.path.clone(), line, message);
        self.halted = true;
    }

    /// Reports the error that stops the walk (the API server's budget or
    /// per-call limit): kept whatever the bound on findings.
    fn report_final(&mut self, path: String, line: u32, message: String) {
        self.outcome
            .violations
            .push_final(Violation::new(Check::CelRule, path, line, message));
    }

    /// Runs `rule`; its cost when it passed.
    fn rule(
        &mut self,
        rule: &Rule,
        schema: &schema::Node,
        scope: &Context<'_, '_>,
        node: &Node,
        line: u32,
    ) -> Option<u64> {
        let planned = match &rule.program {
            Ok(planned) => planned,
            Err(why) => {
                let message = format!(
                    "the rule `{}` does not compile, so the API server refuses the CRD: {why}",
                    rule.source
                );
                self.report(NOT_EVALUATED, self.path.clone(), line, message);
                return None;
            }
        };
        if rule.transition && !rule.optional_old_self {
            self.outcome.transition_skipped += 1;
            return None;
        }
        if let Some(message) = self.unavailable(rule) {
            self.report(NOT_EVALUATED, self.path.clone(), line, message);
            return None;
        }
        self.outcome.evaluated += 1;
        meter::start(PER_CALL_LIMIT);
        let (units, body) = charges::split(planned);
        let verdict = meter::charge(units).and_then(|()| Value::resolve_val(body, scope));
        let verdict = verdict.and_then(|value| match value.downcast_ref::<CelBool>() {
            Some(verdict) => Ok(Ok(*verdict.inner())),
            None => Value::try_from(value.as_ref()).map(Err),
        });
        let (cost, stop) = (meter::cost(), meter::stopped());
        if let Some(Stop::Work(units, limit)) = stop {
            let what = if limit == WORK_LIMIT {
                "list items"
            } else {
                "characters"
            };
            let message = format!(
                "the rule `{}` was not evaluated to its end: it was about to build a value of {units} {what}, past the {limit} {what} vergate lets one evaluation build (the API server's cost model does not count them; its per-call limit is {PER_CALL_LIMIT})",
                rule.source
            );
            self.report(NOT_EVALUATED, self.path.clone(), line, message);
            self.outcome.cost = self.outcome.cost.saturating_add(cost);
            return None;
        }
        // As the API server orders it: the budget first, then the
        // per-call limit, whose cancellation stops all validation.
        if !self.spend(cost, schema, line) {
            return None;
        }
        if stop == Some(Stop::Cost) {
            let message = format!(
                "Invalid value: \"{}\": '{}': no further validation rules will be run due to call cost exceeds limit for rule: {} (its runtime cost passed the API server's per-call limit, {PER_CALL_LIMIT})",
                schema.shape.name(),
                meter::COST_LIMIT_EXCEEDED,
                rule.error_string()
            );
            self.report_final(self.path.clone(), line, message);
            self.halted = true;
            return None;
        }
        match verdict {
            Ok(Ok(true)) => return Some(cost),
            Ok(Ok(false)) => {
                let message = self.message(rule, scope, schema, line);
                if self.halted {
                    return None;
                }
                let (path, line) = self.field_path(rule, node, line);
                let message = rule.failure(schema.shape.name(), message);
                self.report(None, path, line, message);
            }
            Ok(Err(other)) => {
                let message = format!(
                    "the rule `{}` gave {other:?}, not a bool; the API server refuses the CRD",
                    rule.source
                );
                self.report(NOT_EVALUATED, self.path.clone(), line, message);
            }
            Err(ExecutionError::UndeclaredReference(name)) if !is_variable(&name) => {
                let message = format!("the rule `{}` was not evaluated: vergate does not support the function `{name}`", rule.source);
                self.report(NOT_EVALUATED, self.path.clone(), line, message);
            }
            Err(err @ ExecutionError::NoSuchKey(_)) if self.defaults_unknown => {
                let message = format!(
                    "the rule `{}` was not judged: {} (gates.json keeps no defaults, which the API server applies first; check with --crd for them)",
                    rule.source,
                    go_error(&err)
                );
                self.report(NOT_EVALUATED, self.path.clone(), line, message);
            }
            Err(err) => {
                let message = format!(
                    "Invalid value: \"{}\": {} evaluating rule: {}",
                    schema.shape.name(),
                    go_error(&err),
                    rule.error_string()
                );
                self.report(None, self.path.clone(), line, message);
            }
        }
        None
    }

    /// A failed rule's message expression, evaluated as the rule was (its
    /// cost spent from the budget); `None` when it has none, fails, or
    /// gives no text (the rule's message is used).
    fn message(
        &mut self,
        rule: &Rule,
        scope: &Context<'_, '_>,
        schema: &schema::Node,
        line: u32,
    ) -> Option<String> {
        let expression = rule.message_plan.as_ref()?;
        meter::start(PER_CALL_LIMIT);
        let (units, body) = charges::split(expression);
        let text = match meter::charge(units).and_then(|()| Value::resolve(body, scope)) {
            Ok(Value::String(text)) if !text.trim().is_empty() => Some(text.to_string()),
            _ => None,
        };
        if !self.spend(meter::cost(), schema, line) {
            return None;
        }
        text.filter(|_| meter::stopped().is_none())
    }

    /// Why the rule is not run at this target: it calls a function vergate
    /// does not evaluate, or one the target's API server does not offer.
    fn unavailable(&self, rule: &Rule) -> Option<String> {
        for function in &rule.functions {
            if let Some(why) = library::unsupported(function) {
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
