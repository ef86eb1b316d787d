//! One `x-kubernetes-validations` rule, compiled once per CRD version:
//! its program, its message (or message expression), where it reports
//! (`fieldPath`, `reason`) and what it needs (`oldSelf`, the functions it
//! calls).

use super::library;
use cel::{Env, Program};
use serde_json::Value as Json;
use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex};

/// The environment every rule compiles in: cel-rust's standard library
/// (macros and optional syntax included) and its strings extension. The
/// Kubernetes functions are the context's ([`library::register`]).
pub(crate) static ENV: LazyLock<Arc<Env>> = LazyLock::new(|| {
    let mut env = Env::stdlib();
    // The strings extension registers once on a fresh environment.
    let _ = env.add_extension(cel::extensions::strings);
    let _ = library::register_list_overloads(&mut env);
    super::sized::add_to_env(&mut env);
    library::two_var::add_macros(&mut env);
    // `matches` is rewritten to a call of the regex cache's
    // (`library::MATCHES`): cel-rust compiles the pattern on every call.
    for (global, arity) in [(false, 1), (true, 2)] {
        let expand = |helper: &mut cel::parser::MacroExprHelper<'_>,
                      target: &mut Option<cel::IdedExpr>,
                      args: &mut Vec<cel::IdedExpr>| {
            let mut all: Vec<cel::IdedExpr> = target.take().into_iter().collect();
            all.append(args);
            Ok(Some(helper.next_expr(cel::common::ast::Expr::Call(
                cel::common::ast::CallExpr {
                    func_name: library::MATCHES.to_owned(),
                    target: None,
                    args: all,
                },
            ))))
        };
        let rewrite = if global {
            cel::parser::Macro::global("matches", arity, expand)
        } else {
            cel::parser::Macro::receiver("matches", arity, expand)
        };
        let _ = env.add_macro(rewrite);
    }
    Arc::new(env)
});

/// How a failing rule is reported (`reason`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    Invalid,
    Forbidden,
    Required,
    Duplicate,
}

impl Reason {
    fn from_json(text: Option<&str>) -> Reason {
        match text {
            Some("FieldValueForbidden") => Reason::Forbidden,
            Some("FieldValueRequired") => Reason::Required,
            Some("FieldValueDuplicate") => Reason::Duplicate,
            _ => Reason::Invalid,
        }
    }
}

/// One `x-kubernetes-validations` rule of a CRD, compiled (named apart
/// from `preflight::Rule`, the table of vergate's checks, and from
/// `gates::ValidationRule`, a rule as gates.json writes it).
pub struct CompiledRule {
    /// The CEL source.
    pub source: String,
    pub message: Option<String>,
    pub message_expression: Option<Program>,
    /// The message expression as it is run (planned, [`super::plan`]).
    pub message_plan: Option<cel::IdedExpr>,
    /// `fieldPath`, a JSON path relative to the rule's node (`.spec.x`).
    pub field_path: Option<String>,
    pub reason: Reason,
    /// The rule's expression as it is run (planned once, [`super::plan`]),
    /// or why it does not compile.
    pub program: Result<cel::IdedExpr, String>,
    /// True when the rule reads `oldSelf` (a transition rule).
    pub transition: bool,
    /// `optionalOldSelf: true`: a transition rule that runs on create too,
    /// with `oldSelf` as `optional.none()`.
    pub optional_old_self: bool,
    /// The functions it calls that a Kubernetes library adds or that vergate
    /// does not evaluate, in source order.
    pub functions: Vec<String>,
    /// The expression as written (unplanned), for its estimated cost
    /// (`super::cost`); `None` when it does not compile.
    pub expression: Option<cel::IdedExpr>,
}

/// The rules compiled in this process, by their entry's JSON text: one CRD
/// repeats a rule in each version it serves and at each place a type is
/// used (Gateway API's filter rules appear four times per version), and
/// parsing is the costly part of compiling. Bounded by the inputs: one
/// entry per distinct rule read.
static COMPILED: LazyLock<Mutex<HashMap<String, Arc<CompiledRule>>>> =
    LazyLock::new(|| Mutex::new(HashMap::new()));

impl CompiledRule {
    /// [`CompiledRule::compile`], once per distinct entry in the process: the same
    /// entry elsewhere shares the compiled rule.
    pub fn compile_shared(entry: &Json) -> Option<Arc<CompiledRule>> {
        let key = entry.to_string();
        let cached = COMPILED
            .lock()
            .ok()
            .and_then(|compiled| compiled.get(&key).cloned());
        if cached.is_some() {
            return cached;
        }
        // Compiled outside the lock: two threads may both compile a rule
        // first seen at once, and keep the same result.
        let rule = Arc::new(CompiledRule::compile(entry)?);
        if let Ok(mut compiled) = COMPILED.lock() {
            compiled.insert(key, Arc::clone(&rule));
        }
        Some(rule)
    }

    /// Compiles one entry of `x-kubernetes-validations`; `None` for an
    /// entry that is no object with a `rule`.
    pub fn compile(entry: &Json) -> Option<CompiledRule> {
        let source = entry.get("rule")?.as_str()?.to_owned();
        let text = |key: &str| entry.get(key).and_then(Json::as_str).map(str::to_owned);
        let program = compile_bounded(&source);
        let (transition, functions) = match &program {
            Ok(program) => {
                let references = program.references();
                let mut functions: Vec<String> = references
                    .functions()
                    .into_iter()
                    .filter(|name| {
                        library::introduced_in(name).is_some()
                            || library::unsupported(name).is_some()
                    })
                    .map(str::to_owned)
                    .collect();
                // The references come from a hash set: their order changes
                // from run to run. Where each first appears in the source
                // orders them (ties, a name inside another, by name).
                functions.sort_by_cached_key(|name| {
                    (
                        source.find(name.as_str()).unwrap_or(usize::MAX),
                        name.clone(),
                    )
                });
                functions.extend(library::two_var::used(program.expression()));
                (references.has_variable("oldSelf"), functions)
            }
            Err(_) => (source.contains("oldSelf"), Vec::new()),
        };
        let message_expression =
            text("messageExpression").and_then(|source| compile_bounded(&source).ok());
        Some(CompiledRule {
            message_plan: message_expression
                .as_ref()
                .map(|expression| super::plan::plan(expression.expression())),
            message_expression,
            message: text("message"),
            field_path: text("fieldPath"),
            reason: Reason::from_json(entry.get("reason").and_then(Json::as_str)),
            optional_old_self: entry.get("optionalOldSelf") == Some(&Json::Bool(true)),
            expression: program
                .as_ref()
                .ok()
                .map(|program| program.expression().clone()),
            program: program.map(|program| super::plan::plan(program.expression())),
            transition,
            functions,
            source,
        })
    }

    /// How the API server names the rule in an error: its message, else
    /// `failed rule: <rule>` (`ruleErrorString`).
    pub fn error_string(&self) -> String {
        match self.message.as_deref().map(str::trim) {
            Some(message) if !message.is_empty() => message.to_owned(),
            _ => format!("failed rule: {}", self.source),
        }
    }

    /// What the API server says when the rule fails: the `message`, else
    /// `failed rule: <rule>` (the message expression is evaluated by the
    /// caller), after the reason's words.
    pub fn failure(&self, type_name: &str, message: Option<String>) -> String {
        let message = message
            .or_else(|| self.message.clone())
            .unwrap_or_else(|| format!("failed rule: {}", self.source));
        match self.reason {
            Reason::Invalid => format!("Invalid value: \"{type_name}\": {message}"),
            Reason::Forbidden => format!("Forbidden: {message}"),
            Reason::Required => format!("Required value: {message}"),
            Reason::Duplicate => format!("Duplicate value: {message}"),
        }
    }
}

/// The longest rule source compiled, in bytes: the parser recurses, so a
/// hostile rule is refused before it can exhaust the stack. The API server
/// refuses far shorter expressions by their estimated cost.
const MAX_SOURCE: usize = 16 * 1024;

/// The deepest nesting of brackets compiled, for the same reason.
const MAX_NESTING: usize = 64;

/// The most operators, selects, calls and arguments a rule may have outside
/// its string literals: the parser and the interpreter recurse along chains
/// of them (a chain of 5,000 `+` overflows a thread's stack). The longest
/// rule of Gateway API and of the CRDs in `../shared/crds` has 241.
const MAX_OPERATORS: usize = 400;

fn compile_bounded(source: &str) -> Result<Program, String> {
    if source.len() > MAX_SOURCE {
        return Err(format!(
            "the rule is longer than vergate compiles ({MAX_SOURCE} bytes)"
        ));
    }
    let mut depth = 0usize;
    let mut operators = 0usize;
    let mut quote: Option<u8> = None;
    for byte in source.bytes() {
        // Operators inside string literals are text (escapes aside, which
        // only make the count larger).
        match quote {
            Some(open) if byte == open => quote = None,
            Some(_) => continue,
            None if byte == b'\'' || byte == b'"' => {
                quote = Some(byte);
                continue;
            }
            None => {}
        }
        if b"+-*/%=!<>&|?.[(,".contains(&byte) {
            operators += 1;
            if operators > MAX_OPERATORS {
                return Err(format!(
                    "the rule has more operators than vergate compiles ({MAX_OPERATORS})"
                ));
            }
        }
        match byte {
            b'(' | b'[' | b'{' => {
                depth += 1;
                if depth > MAX_NESTING {
                    return Err(format!(
                        "the rule nests deeper than vergate compiles ({MAX_NESTING} brackets)"
                    ));
                }
            }
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    let program = ENV.compile(source).map_err(|err| err.to_string())?;
    let levels = tree_depth(program.expression());
    if levels > MAX_DEPTH {
        return Err(format!(
            "the rule nests {levels} levels deep, more than vergate runs ({MAX_DEPTH})"
        ));
    }
    Ok(program)
}

/// The deepest the interpreter recurses into a rule (its syntax tree's
/// depth): a chain of 200 `+` needs more than a debug build's 2 MiB thread
/// stack. The deepest rule of Gateway API v1.3.0's standard CRDs is 21.
const MAX_DEPTH: usize = 64;

/// The depth of `root`'s syntax tree, measured without recursion.
fn tree_depth(root: &cel::IdedExpr) -> usize {
    let mut deepest = 0;
    let mut stack = vec![(root, 1usize)];
    while let Some((node, level)) = stack.pop() {
        deepest = deepest.max(level);
        stack.extend(
            super::tree::children(node)
                .into_iter()
                .map(|child| (child, level + 1)),
        );
    }
    deepest
}

#[cfg(test)]
mod tests {
    use super::CompiledRule;

    fn compiled(source: &str) -> Result<(), String> {
        let entry = serde_json::json!({ "rule": source });
        CompiledRule::compile(&entry)
            .expect("an entry with a rule")
            .program
            .map(|_| ())
    }

    /// The library functions a rule calls are listed in source order,
    /// the same on every run (the CRD document's messages name the first).
    #[test]
    fn a_rules_library_functions_come_in_source_order() {
        let rule = "isURL(self.a) && quantity(self.b).isLessThan(quantity('1')) && self.c.matches('x') && url(self.a).getHost() == 'h'";
        for _ in 0..8 {
            let compiled = CompiledRule::compile(&serde_json::json!({ "rule": rule })).unwrap();
            let positions: Vec<usize> = compiled
                .functions
                .iter()
                .map(|name| rule.find(name.as_str()).unwrap())
                .collect();
            assert!(compiled.functions.len() >= 3, "{:?}", compiled.functions);
            assert!(
                positions.windows(2).all(|pair| pair[0] <= pair[1]),
                "{:?}",
                compiled.functions
            );
        }
    }

    #[test]
    fn hostile_rules_are_refused_never_a_crash() {
        let long_not = format!("{}true", "!".repeat(10_000));
        let long_neg = format!("{}1 == 1", "-".repeat(10_000));
        let long_sum = format!("1{} == 1", "+1".repeat(5_000));
        let long_select = format!("self{} == 1", ".a".repeat(5_000));
        let deep = format!("{}true{}", "(".repeat(100), ")".repeat(100));
        let huge = "a".repeat(20_000);
        for source in [&long_not, &long_neg, &long_sum, &long_select] {
            assert!(
                compiled(source).unwrap_err().contains("more operators"),
                "{source:.20}"
            );
        }
        // Chains within the operator bound are refused by their depth, or
        // compile and run on a test thread's stack (2 MiB; vergate's own
        // threads have 32 and 64 MiB, for nesting, see main.rs).
        assert!(compiled(&format!("1{} == 1", "+1".repeat(198)))
            .unwrap_err()
            .contains("levels deep"));
        for chain in [
            format!("{}true", "!".repeat(398)),
            format!("{}1 == 1", "-".repeat(397)),
            format!("1{} == 1", "+1".repeat(198)),
            format!("self{} == 1", ".a".repeat(397)),
        ] {
            let entry = serde_json::json!({ "rule": chain });
            if let Ok(planned) = CompiledRule::compile(&entry).unwrap().program {
                let context = cel::Context::with_env(std::sync::Arc::clone(&super::ENV));
                let _ = cel::objects::Value::resolve_val(&planned, &context);
            }
        }
        assert!(compiled(&deep).unwrap_err().contains("nests deeper"));
        assert!(compiled(&huge).unwrap_err().contains("longer than"));
        assert!(compiled("self.a ==").is_err());
        assert!(compiled("self.a == 1").is_ok());
    }
}
