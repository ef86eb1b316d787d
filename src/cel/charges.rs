//! Where a planned rule charges its runtime cost ([`super::meter`]).
//!
//! cel-go charges each node as it is evaluated (`runtimecost.go`): 1 for a
//! name or a field selected (a presence test too), 1 for a call, 10 for a
//! list built, 30 for a map, nothing for a literal, `&&`, `||` or `?:`; a
//! call whose cost depends on its values is charged from them. The plan
//! ([`super::plan`]) walks the rule as it was written (cel-go's tree, the
//! two-variable macros expanded as cel-go expands them) and adds each
//! node's static cost to the part of the rule it runs in: the rule's body,
//! the right side of `&&` and `||`, a branch of `?:`, a comprehension's loop
//! condition, its step (or, for a filtered step, its filter and what it
//! adds). Each part charges its sum once each time it runs ([`charge`]); a
//! call whose cost depends on its values is routed through a sized
//! function ([`super::sized`]) that charges it. So a rule charges what
//! cel-go charges, at the cost of one call per part run. Three merges keep
//! those calls few: a step charges its loop condition's cost with its own
//! (the condition charges only when it ends the loop), the evaluator
//! charges a rule's body itself ([`split`]), and a part that starts with
//! a charge of its own makes one charge of both.
//!
//! What a sum may leave out: a part that fails midway charges nothing
//! (cel-go charges what ran until the error, which the API server reports
//! as the rule's error anyway); `==` or an ordering against a string literal
//! of at most 10 characters is charged 1 (cel-go charges 0 when the other
//! side is empty).

use super::cost::actual::SIZED_CALLS;
use super::sized;
use cel::common::ast::{operators, CallExpr, Expr, ListExpr, LiteralValue};
use cel::common::types::CelInt;
use cel::IdedExpr;

/// cel-go's `ListCreateBaseCost`, `MapCreateBaseCost`,
/// `StructCreateBaseCost`.
pub const LIST: u64 = 10;
pub const MAP: u64 = 30;
pub const STRUCT: u64 = 40;

/// `expr`, charging `units` each time it is about to run (`expr` itself
/// when there is nothing to charge): `@charge(units) ? expr : null`. The
/// charge comes first, so that once the meter has stopped nothing more
/// runs: the failed charge ends a loop at its condition or at the item
/// it appends, and a step's failure, which `all` and `exists` keep
/// looping past (an error may yet be absorbed), costs one call per item.
pub fn charge(id: u64, units: u64, expr: IdedExpr) -> IdedExpr {
    if units == 0 {
        return expr;
    }
    // A part that starts with a charge of its own: one charge for both.
    let (units, expr) = match charged(&expr) {
        Some((inner, body)) => (units.saturating_add(inner), body.clone()),
        None => (units, expr),
    };
    let node = |expr: Expr| IdedExpr { id, expr };
    let units = node(Expr::Literal(LiteralValue::Int(CelInt::from(
        i64::try_from(units).unwrap_or(i64::MAX),
    ))));
    let charged = node(Expr::Call(CallExpr {
        func_name: sized::CHARGE.to_owned(),
        target: None,
        args: vec![units],
    }));
    node(Expr::Call(CallExpr {
        func_name: operators::CONDITIONAL.to_owned(),
        target: None,
        args: vec![charged, expr, node(Expr::Literal(LiteralValue::Null))],
    }))
}

/// What a planned rule charges before it runs, and the rest of it: its
/// body's units (0 when it charges nothing first) and the body. The
/// evaluator charges the units itself, one call of cel-rust's fewer for
/// each rule run.
pub fn split(expr: &IdedExpr) -> (u64, &IdedExpr) {
    charged(expr).unwrap_or((0, expr))
}

/// The units and the part of `expr` when it is a charged part.
fn charged(expr: &IdedExpr) -> Option<(u64, &IdedExpr)> {
    let Expr::Call(call) = &expr.expr else {
        return None;
    };
    let [condition, body, IdedExpr {
        expr: Expr::Literal(LiteralValue::Null),
        ..
    }] = call.args.as_slice()
    else {
        return None;
    };
    let Expr::Call(charge) = &condition.expr else {
        return None;
    };
    let [IdedExpr {
        expr: Expr::Literal(LiteralValue::Int(units)),
        ..
    }] = charge.args.as_slice()
    else {
        return None;
    };
    (call.func_name == operators::CONDITIONAL && charge.func_name == sized::CHARGE)
        .then(|| ((*units.inner()).max(0) as u64, body))
}

/// The part a charge wraps in `expr` (the body of `@charge(n) ? body :
/// null`, the condition of a loop condition charged when false), taken out
/// of it without a copy.
fn take_part(expr: &mut IdedExpr) -> Option<IdedExpr> {
    let index = if charged(expr).is_some() {
        1
    } else if charged_when_false(expr).is_some() {
        0
    } else {
        return None;
    };
    let Expr::Call(call) = &mut expr.expr else {
        return None;
    };
    let taken = IdedExpr {
        id: 0,
        expr: Expr::Unspecified,
    };
    Some(std::mem::replace(&mut call.args[index], taken))
}

/// `cond` when `expr` is a loop condition that charges only when false,
/// `cond ? true : (@charge(n) ? false : null)` (its step charges the rest,
/// see `super::plan`).
fn charged_when_false(expr: &IdedExpr) -> Option<&IdedExpr> {
    let Expr::Call(call) = &expr.expr else {
        return None;
    };
    let [condition, IdedExpr {
        expr: Expr::Literal(LiteralValue::Boolean(truthy)),
        ..
    }, ending] = call.args.as_slice()
    else {
        return None;
    };
    let ends = matches!(
        charged(ending),
        Some((_, IdedExpr { expr: Expr::Literal(LiteralValue::Boolean(falsy)), .. })) if !**falsy
    );
    (call.func_name == operators::CONDITIONAL && **truthy && ends).then_some(condition)
}

/// A comprehension's step charging `units` each time it runs. A step that
/// appends one item to the accumulator (`@result + [x]`, which cel-rust runs
/// in place rather than copying the list) keeps its shape: the charge goes
/// on the item. So does a step that folds a predicate into the accumulator
/// (`@result && p`, `@result || p`, which cel-rust recognizes to absorb an
/// error as cel-go does): the charge goes on the predicate, which runs
/// whenever the step does (`all` stops before a step once false).
pub fn charge_step(id: u64, units: u64, step: IdedExpr) -> IdedExpr {
    if units == 0 {
        return step;
    }
    if let Expr::Call(call) = &step.expr {
        if let [accu, predicate] = call.args.as_slice() {
            if (call.func_name == operators::LOGICAL_AND || call.func_name == operators::LOGICAL_OR)
                && call.target.is_none()
                && is_accumulator(accu)
            {
                let predicate = charge(id, units, predicate.clone());
                return IdedExpr {
                    id: step.id,
                    expr: Expr::Call(CallExpr {
                        func_name: call.func_name.clone(),
                        target: None,
                        args: vec![accu.clone(), predicate],
                    }),
                };
            }
        }
        if let [accu, IdedExpr {
            expr: Expr::List(list),
            id: list_id,
        }] = call.args.as_slice()
        {
            if call.func_name == operators::ADD
                && call.target.is_none()
                && is_accumulator(accu)
                && list.elements.len() == 1
                && list.optional_indices.is_empty()
            {
                let item = charge(id, units, list.elements[0].clone());
                return IdedExpr {
                    id: step.id,
                    expr: Expr::Call(CallExpr {
                        func_name: call.func_name.clone(),
                        target: None,
                        args: vec![
                            accu.clone(),
                            IdedExpr {
                                id: *list_id,
                                expr: Expr::List(ListExpr::new(vec![item])),
                            },
                        ],
                    }),
                };
            }
        }
    }
    charge(id, units, step)
}

/// True for a comprehension's accumulator (`@result`, `__result__`): a
/// name no rule can write.
pub fn is_accumulator(expr: &IdedExpr) -> bool {
    matches!(&expr.expr, Expr::Ident(name) if name.starts_with('@') || name.starts_with("__"))
}

/// The static cost of the operator call `call` (`==`, `<`, `+`, `in`)
/// when its operands decide it without being evaluated; `None` when it
/// depends on their sizes (the call then goes through a sized operator).
pub fn operator_cost(call: &CallExpr) -> Option<u64> {
    let [left, right] = call.args.as_slice() else {
        return Some(1);
    };
    let small = |expr: &IdedExpr| match &expr.expr {
        Expr::Literal(LiteralValue::String(text)) => text.inner().chars().count() <= 10,
        Expr::Literal(LiteralValue::Bytes(bytes)) => bytes.inner().len() <= 10,
        Expr::Literal(_) => true,
        _ => false,
    };
    let numeric = |expr: &IdedExpr| {
        matches!(
            &expr.expr,
            Expr::Literal(LiteralValue::Int(_) | LiteralValue::UInt(_) | LiteralValue::Double(_))
        )
    };
    match call.func_name.as_str() {
        operators::EQUALS
        | operators::NOT_EQUALS
        | operators::LESS
        | operators::LESS_EQUALS
        | operators::GREATER
        | operators::GREATER_EQUALS => (small(left) || small(right)).then_some(1),
        operators::ADD => (is_accumulator(left) || numeric(left) || numeric(right)).then_some(1),
        operators::IN => match &right.expr {
            Expr::List(list) if list.optional_indices.is_empty() => {
                Some(list.elements.len() as u64)
            }
            _ => None,
        },
        _ => Some(1),
    }
}

/// The name a sized call is made by, when `call` is one: its function's
/// name, qualified by its target when the target names a namespace
/// (`sets.contains(a, b)` parses as `contains` called on `sets`), and
/// whether it keeps its target. `names` are the variables in scope.
pub fn sized_call(call: &CallExpr, names: &[&str]) -> Option<(String, bool)> {
    let count = call.args.len() + usize::from(call.target.is_some());
    if count > sized::MAX_ARGS {
        return None;
    }
    if let Some(target) = call.target.as_deref() {
        if let Some(namespace) = qualified(target).filter(|name| {
            let root = name.split('.').next().unwrap_or(name);
            !names.contains(&root)
        }) {
            let name = format!("{namespace}.{}", call.func_name);
            if SIZED_CALLS.contains(&name.as_str()) {
                return Some((format!("{}{name}", sized::PREFIX), false));
            }
            // Else a name that is no namespace of a sized call: a variable
            // of the caller's (or a namespace whose functions cost 1).
        }
    }
    SIZED_CALLS
        .contains(&call.func_name.as_str())
        .then(|| (format!("{}{}", sized::PREFIX, call.func_name), true))
}

/// `a.b.c` as a dotted name, when `expr` is only names and selections.
fn qualified(expr: &IdedExpr) -> Option<String> {
    match &expr.expr {
        Expr::Ident(name) => Some(name.clone()),
        Expr::Select(select) if !select.test => {
            Some(format!("{}.{}", qualified(&select.operand)?, select.field))
        }
        _ => None,
    }
}

/// How a rule's cost is counted: as the API server configures cel-go, or
/// as cel-go's defaults do (its own tests' figures).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Costing {
    /// cel-go's `OptOptimize`: a list or map of constants, and a type
    /// conversion of one, is built once when the rule compiles (costs
    /// nothing when it runs), and `in` over a list of constant scalars is
    /// a set lookup (costs nothing but its left side).
    pub optimize: bool,
    /// What a presence test (`has(a.b)`) costs besides its operand:
    /// cel-go's `PresenceTestHasCost`.
    pub presence_test: u64,
}

impl Costing {
    /// The API server's (k8s.io/apiserver `pkg/cel/environment/base.go`:
    /// `OptOptimize`, `PresenceTestHasCost(false)`).
    pub const API_SERVER: Costing = Costing {
        optimize: true,
        presence_test: 0,
    };
    /// cel-go's defaults, which its tests and Kubernetes' library cost
    /// tests (`presence_test` 0 there) count with.
    pub const CEL_GO: Costing = Costing {
        optimize: false,
        presence_test: 1,
    };
}

/// cel-go's type conversions (`overloads.IsTypeConversionFunction`).
const CONVERSIONS: [&str; 10] = [
    "bool",
    "bytes",
    "double",
    "duration",
    "dyn",
    "int",
    "string",
    "timestamp",
    "type",
    "uint",
];

/// True when `expr` is a constant once cel-go's optimizations ran: a
/// literal, a list or map of constants, a type conversion of a constant.
pub fn is_constant(expr: &IdedExpr) -> bool {
    match &expr.expr {
        Expr::Literal(_) => true,
        Expr::List(list) => {
            list.optional_indices.is_empty() && list.elements.iter().all(is_constant)
        }
        Expr::Map(map) => map.entries.iter().all(|entry| match &entry.expr {
            cel::common::ast::EntryExpr::MapEntry(pair) => {
                !pair.optional && is_constant(&pair.key) && is_constant(&pair.value)
            }
            cel::common::ast::EntryExpr::StructField(_) => false,
        }),
        Expr::Call(call) => {
            call.target.is_none()
                && call.args.len() == 1
                && CONVERSIONS.contains(&call.func_name.as_str())
                && is_constant(&call.args[0])
        }
        _ => false,
    }
}

/// True when `list` is a constant list whose items are all scalars other
/// than bytes: `in` over it is a set lookup once optimized.
pub fn is_scalar_set(list: &IdedExpr) -> bool {
    let Expr::List(items) = &list.expr else {
        return false;
    };
    is_constant(list)
        && items.elements.iter().all(|item| {
            matches!(
                &item.expr,
                Expr::Literal(
                    LiteralValue::String(_)
                        | LiteralValue::Int(_)
                        | LiteralValue::UInt(_)
                        | LiteralValue::Double(_)
                        | LiteralValue::Boolean(_)
                )
            )
        })
}

/// `expr` (a planned rule) without its instrumentation: each charged part
/// as the part itself, each sized call or operator by its own name; for
/// the analyses that read a planned rule's shape (`super::reads`).
pub fn uninstrumented(expr: &IdedExpr) -> IdedExpr {
    let mut expr = expr.clone();
    strip(&mut expr);
    expr
}

fn strip(expr: &mut IdedExpr) {
    while let Some(part) = take_part(expr) {
        *expr = part;
    }
    match &mut expr.expr {
        Expr::Call(call) => {
            if let Some(name) = call.func_name.strip_prefix(sized::PREFIX) {
                call.func_name = name.to_owned();
            }
            if let Some(target) = call.target.as_deref_mut() {
                strip(target);
            }
            call.args.iter_mut().for_each(strip);
        }
        Expr::Comprehension(c) => {
            for part in [
                &mut c.iter_range,
                &mut c.accu_init,
                &mut c.loop_cond,
                &mut c.loop_step,
                &mut c.result,
            ] {
                strip(part);
            }
        }
        Expr::List(list) => list.elements.iter_mut().for_each(strip),
        Expr::Map(map) => {
            for entry in &mut map.entries {
                if let cel::common::ast::EntryExpr::MapEntry(pair) = &mut entry.expr {
                    strip(&mut pair.key);
                    strip(&mut pair.value);
                }
            }
        }
        Expr::Select(select) => strip(&mut select.operand),
        Expr::Struct(_) | Expr::Ident(_) | Expr::Literal(_) | Expr::Unspecified => {}
    }
}
