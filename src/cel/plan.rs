//! A compiled rule's syntax tree rewritten once, at compile time, into an
//! equivalent tree that cel-rust's interpreter runs with less work.
//!
//! cel-rust resolves every field selection on a name (`self.spec.x`) as a
//! qualified name first, on every evaluation: it collects the segments,
//! joins them into a string and looks up each prefix in each scope, in case
//! `self.spec` were a variable of its own. A rule's names are known when it
//! compiles: `self`, `oldSelf` and the variables of its comprehensions, none
//! of them qualified. So a selection on one of them is rewritten into the
//! index it means (`self.spec.x` is `self['spec']['x']`: one variable lookup,
//! then map lookups), as cel-go's planner does when it resolves names ahead
//! of evaluation. Two operators whose implementation allocates on every call
//! are rewritten into equal expressions that do not: `!x` (an overload error
//! built before it is known to be needed) and `x in [literals]` (a new list
//! on every evaluation).
//!
//! A two-variable comprehension (cel-go's, from 1.32) is lowered into
//! one-variable ones, which is all cel-rust's interpreter runs
//! ([`super::library::two_var::lower`]).
//!
//! What a rewrite may change is an error's wording, never a result: a field
//! selected on a value that is no map says `_[_]` where cel-rust says `_._`,
//! and `!` on a value that is no bool names the type it expected. The API
//! server type-checks rules when it accepts a CRD, so these errors come
//! only from rules it would have refused.

use cel::common::ast::{
    operators, CallExpr, ComprehensionExpr, EntryExpr, Expr, IdedEntryExpr, IdedExpr, ListExpr,
    LiteralValue, MapEntryExpr, MapExpr, SelectExpr,
};
use cel::common::types::{CelBool, CelString};

use super::charges::{self, Costing};
use super::library::two_var;
use super::sized;

/// The names a rule binds without a comprehension.
const RULE_VARIABLES: [&str; 2] = ["self", "oldSelf"];

/// The longest literal list `x in [...]` is rewritten for: past it, a chain
/// of comparisons costs about what the list does.
const MAX_IN_LIST: usize = 8;

/// `expr`, rewritten for the interpreter and instrumented to charge its
/// runtime cost (see the module's doc and [`super::charges`]).
pub fn plan(expr: &IdedExpr) -> IdedExpr {
    plan_with(expr, Costing::API_SERVER)
}

/// [`plan`], counting the cost as `costing` says.
pub fn plan_with(expr: &IdedExpr, costing: Costing) -> IdedExpr {
    let mut names: Vec<&str> = RULE_VARIABLES.to_vec();
    let mut part = 0;
    let planned = rewrite(expr, &mut names, &mut part, costing);
    charges::charge(expr.id, part, planned)
}

/// `expr` rewritten; its nodes' static cost is added to `part`, the cost
/// of the part of the rule it runs in, and the parts that start below it
/// charge their own.
fn rewrite<'e>(
    expr: &'e IdedExpr,
    names: &mut Vec<&'e str>,
    part: &mut u64,
    costing: Costing,
) -> IdedExpr {
    let id = expr.id;
    let node = |expr: Expr| IdedExpr { id, expr };
    // Built when the rule compiles: nothing to run, nothing to charge.
    if costing.optimize && !matches!(expr.expr, Expr::Literal(_)) && charges::is_constant(expr) {
        return expr.clone();
    }
    match &expr.expr {
        Expr::Select(select) if !select.test && rooted_in_variable(&select.operand, names) => {
            *part += 1;
            let operand = rewrite(&select.operand, names, part, costing);
            node(call(
                operators::INDEX,
                vec![operand, string(id, &select.field)],
            ))
        }
        Expr::Select(select) => {
            *part += if select.test {
                costing.presence_test
            } else {
                1
            };
            let operand = rewrite(&select.operand, names, part, costing);
            // A presence test on a bare name would still be resolved as a
            // qualified name: wrap the name so that it is not one.
            let operand = match operand.expr {
                Expr::Ident(_) if select.test => IdedExpr {
                    id: operand.id,
                    expr: call(
                        operators::CONDITIONAL,
                        vec![boolean(operand.id, true), operand.clone(), operand],
                    ),
                },
                _ => operand,
            };
            node(Expr::Select(SelectExpr {
                operand: Box::new(operand),
                field: select.field.clone(),
                test: select.test,
            }))
        }
        Expr::Call(call_expr)
            if call_expr.target.is_none()
                && call_expr.func_name == operators::LOGICAL_NOT
                && call_expr.args.len() == 1 =>
        {
            *part += 1;
            let operand = rewrite(&call_expr.args[0], names, part, costing);
            node(call(
                operators::CONDITIONAL,
                vec![operand, boolean(id, false), boolean(id, true)],
            ))
        }
        // `&&` and `||` run their right side only when the left does not
        // decide; `?:` one branch: each is a part of its own.
        Expr::Call(call_expr)
            if call_expr.target.is_none()
                && call_expr.args.len() == 2
                && (call_expr.func_name == operators::LOGICAL_AND
                    || call_expr.func_name == operators::LOGICAL_OR) =>
        {
            let left = rewrite(&call_expr.args[0], names, part, costing);
            let right = own_part(&call_expr.args[1], names, costing);
            node(call(&call_expr.func_name, vec![left, right]))
        }
        Expr::Call(call_expr)
            if call_expr.target.is_none()
                && call_expr.args.len() == 3
                && call_expr.func_name == operators::CONDITIONAL =>
        {
            let condition = rewrite(&call_expr.args[0], names, part, costing);
            let truthy = branch(&call_expr.args[1], names, costing);
            let falsy = branch(&call_expr.args[2], names, costing);
            node(call(operators::CONDITIONAL, vec![condition, truthy, falsy]))
        }
        Expr::Call(call_expr) => match in_literals(call_expr, names) {
            Some((needle, list)) => {
                // cel-go: the list built, and `in` walks it; optimized, a
                // set built once and looked up.
                if !(costing.optimize && charges::is_scalar_set(&call_expr.args[1])) {
                    *part += charges::LIST + list.len() as u64;
                }
                let needle = rewrite(needle, names, part, costing);
                any_equal(id, &needle, list)
            }
            None => {
                let mut func_name = call_expr.func_name.clone();
                let mut keep_target = true;
                let set_lookup = costing.optimize
                    && func_name == operators::IN
                    && call_expr.args.get(1).is_some_and(charges::is_scalar_set);
                if set_lookup {
                    // Optimized into a set lookup: free.
                } else if call_expr.target.is_none() && sized::operator(&func_name).is_some() {
                    match charges::operator_cost(call_expr) {
                        Some(units) => *part += units,
                        None => {
                            func_name = sized::operator(&func_name).unwrap_or_default().to_owned()
                        }
                    }
                } else if let Some((sized, keep)) = charges::sized_call(call_expr, names) {
                    func_name = sized;
                    keep_target = keep;
                } else {
                    *part += 1;
                }
                node(Expr::Call(CallExpr {
                    func_name,
                    target: call_expr
                        .target
                        .as_ref()
                        .filter(|_| keep_target)
                        .map(|target| Box::new(rewrite(target, names, part, costing))),
                    args: call_expr
                        .args
                        .iter()
                        .enumerate()
                        .map(|(index, arg)| {
                            // cel-go reads `x[k]` as one attribute: a bare
                            // name as the index costs nothing of its own.
                            let free = index == 1
                                && call_expr.func_name == operators::INDEX
                                && matches!(arg.expr, Expr::Ident(_));
                            if free {
                                rewrite(arg, names, &mut 0, costing)
                            } else {
                                rewrite(arg, names, part, costing)
                            }
                        })
                        .collect(),
                }))
            }
        },
        Expr::Comprehension(comprehension) => {
            let c = &**comprehension;
            let iter_range = rewrite(&c.iter_range, names, part, costing);
            let accu_init = rewrite(&c.accu_init, names, part, costing);
            let bound = names.len();
            names.push(&c.iter_var);
            names.extend(c.iter_var2.as_deref());
            names.push(&c.accu_var);
            let (loop_cond, cond_units) = condition(&c.loop_cond, names, costing);
            let loop_step = step(c, names, costing, cond_units);
            names.truncate(bound);
            names.push(&c.accu_var);
            let result = rewrite(&c.result, names, part, costing);
            names.truncate(bound);
            let planned = ComprehensionExpr {
                iter_range,
                iter_var: c.iter_var.clone(),
                iter_var2: c.iter_var2.clone(),
                accu_var: c.accu_var.clone(),
                accu_init,
                loop_cond,
                loop_step,
                result,
            };
            match planned.iter_var2 {
                // cel-rust runs one variable: lowered (see `two_var`).
                Some(_) => super::library::two_var::lower(id, planned),
                None => node(Expr::Comprehension(Box::new(planned))),
            }
        }
        Expr::List(list) => {
            *part += charges::LIST;
            node(Expr::List(ListExpr {
                elements: list
                    .elements
                    .iter()
                    .map(|element| rewrite(element, names, part, costing))
                    .collect(),
                optional_indices: list.optional_indices.clone(),
            }))
        }
        Expr::Map(map) => {
            *part += charges::MAP;
            node(Expr::Map(MapExpr {
                entries: map
                    .entries
                    .iter()
                    .map(|entry| IdedEntryExpr {
                        id: entry.id,
                        expr: match &entry.expr {
                            EntryExpr::MapEntry(pair) => EntryExpr::MapEntry(MapEntryExpr {
                                key: rewrite(&pair.key, names, part, costing),
                                value: rewrite(&pair.value, names, part, costing),
                                optional: pair.optional,
                            }),
                            other => other.clone(),
                        },
                    })
                    .collect(),
            }))
        }
        Expr::Struct(_) => {
            *part += charges::STRUCT;
            expr.clone()
        }
        Expr::Ident(_) => {
            *part += 1;
            expr.clone()
        }
        Expr::Literal(_) | Expr::Unspecified => expr.clone(),
    }
}

/// A branch of `?:`: a part of its own, save that a bare name costs
/// nothing (cel-go resolves it as part of the conditional).
fn branch<'e>(expr: &'e IdedExpr, names: &mut Vec<&'e str>, costing: Costing) -> IdedExpr {
    match &expr.expr {
        Expr::Ident(_) => expr.clone(),
        _ => own_part(expr, names, costing),
    }
}

/// `expr` as a part of its own: rewritten, charging its cost each time it
/// runs.
fn own_part<'e>(expr: &'e IdedExpr, names: &mut Vec<&'e str>, costing: Costing) -> IdedExpr {
    let mut part = 0;
    let planned = rewrite(expr, names, &mut part, costing);
    charges::charge(expr.id, part, planned)
}

/// A comprehension's loop condition, and the units each evaluation of it
/// costs that the step charges. The condition runs before each step and
/// once more when it ends the loop (false): the step charges both its own
/// cost and the condition's, in one call, and the condition charges its
/// cost itself only when false (`cond ? true : (@charge(n) ? false :
/// null)`). The loop runs, and the meter stops, as if the condition
/// charged each time.
fn condition<'e>(
    expr: &'e IdedExpr,
    names: &mut Vec<&'e str>,
    costing: Costing,
) -> (IdedExpr, u64) {
    let mut units = 0;
    let planned = rewrite(expr, names, &mut units, costing);
    if units == 0 {
        return (planned, 0);
    }
    let id = expr.id;
    let ending = charges::charge(id, units, boolean(id, false));
    let planned = IdedExpr {
        id,
        expr: call(
            operators::CONDITIONAL,
            vec![planned, boolean(id, true), ending],
        ),
    };
    (planned, units)
}

/// A comprehension's step, charging its cost (and `cond_units`, its loop
/// condition's, see [`condition`]) each time it runs. A filtered step (`filter ? added : @result`, of `filter` and the
/// two-variable transforms) charges its filter, and what adding costs
/// when it adds (the accumulator left unchanged is a bare name: free).
/// A step that adds to a map (`cel.@mapInsert`) is turned into one that
/// appends to a list ([`two_var::as_append`]), which cel-rust runs in
/// place.
fn step<'e>(
    c: &'e ComprehensionExpr,
    names: &mut Vec<&'e str>,
    costing: Costing,
    cond_units: u64,
) -> IdedExpr {
    let id = c.loop_step.id;
    if let Expr::Call(call_expr) = &c.loop_step.expr {
        if let [filter, added, IdedExpr {
            expr: Expr::Ident(unchanged),
            ..
        }] = call_expr.args.as_slice()
        {
            if call_expr.func_name == operators::CONDITIONAL
                && call_expr.target.is_none()
                && *unchanged == c.accu_var
            {
                let mut filter_part = 0;
                let filter = rewrite(filter, names, &mut filter_part, costing);
                let mut added_part = 0;
                let added = two_var::as_append(rewrite(added, names, &mut added_part, costing));
                let added = charges::charge_step(id, added_part, added);
                let filter = charges::charge(id, filter_part + cond_units, filter);
                let unchanged = call_expr.args[2].clone();
                return IdedExpr {
                    id,
                    expr: call(operators::CONDITIONAL, vec![filter, added, unchanged]),
                };
            }
        }
    }
    let mut step_part = cond_units;
    let planned = two_var::as_append(rewrite(&c.loop_step, names, &mut step_part, costing));
    charges::charge_step(id, step_part, planned)
}

/// True when `expr` is a variable of the rule, or fields and indexes
/// selected on one: a selection on it means an index.
fn rooted_in_variable(expr: &IdedExpr, names: &[&str]) -> bool {
    let mut at = expr;
    loop {
        match &at.expr {
            Expr::Ident(name) => return names.contains(&name.as_str()),
            Expr::Select(select) if !select.test => at = &select.operand,
            Expr::Call(call) if call.func_name == operators::INDEX && call.args.len() == 2 => {
                at = &call.args[0]
            }
            _ => return false,
        }
    }
}

/// `x in [a, b]` with literal items and `x` a variable's field (a value
/// that is cheap to read twice and has no effect): `x` and the items.
fn in_literals<'c>(call: &'c CallExpr, names: &[&str]) -> Option<(&'c IdedExpr, &'c [IdedExpr])> {
    if call.target.is_some() {
        return None;
    }
    let [needle, list] = call.args.as_slice() else {
        return None;
    };
    let Expr::List(list) = &list.expr else {
        return None;
    };
    let rewritten = call.func_name == operators::IN
        && list.optional_indices.is_empty()
        && (1..=MAX_IN_LIST).contains(&list.elements.len())
        && list
            .elements
            .iter()
            .all(|element| matches!(element.expr, Expr::Literal(_)))
        && rooted_in_variable(needle, names);
    rewritten.then_some((needle, list.elements.as_slice()))
}

/// `needle == items[0] || needle == items[1] || …` (`items` not empty).
fn any_equal(id: u64, needle: &IdedExpr, items: &[IdedExpr]) -> IdedExpr {
    let equal = |item: &IdedExpr| IdedExpr {
        id,
        expr: call(operators::EQUALS, vec![needle.clone(), item.clone()]),
    };
    let mut comparisons = items.iter().map(equal);
    let first = comparisons.next().unwrap_or_else(|| boolean(id, false));
    comparisons.fold(first, |either, next| IdedExpr {
        id,
        expr: call(operators::LOGICAL_OR, vec![either, next]),
    })
}

fn call(function: &str, args: Vec<IdedExpr>) -> Expr {
    Expr::Call(CallExpr {
        func_name: function.to_owned(),
        target: None,
        args,
    })
}

fn string(id: u64, text: &str) -> IdedExpr {
    IdedExpr {
        id,
        expr: Expr::Literal(LiteralValue::String(CelString::from(text.to_owned()))),
    }
}

fn boolean(id: u64, value: bool) -> IdedExpr {
    IdedExpr {
        id,
        expr: Expr::Literal(LiteralValue::Boolean(CelBool::from(value))),
    }
}

#[cfg(test)]
mod tests {
    use super::plan;
    use cel::common::ast::{operators, Expr};
    use cel::{Context, Value};
    use std::sync::Arc;

    /// Every rewrite gives the result the rule gives as written, on maps
    /// with and without the fields, with a comprehension, optionals and
    /// errors.
    #[test]
    fn a_planned_rule_gives_what_the_rule_gives() {
        let env = Arc::clone(&super::super::rule::ENV);
        let mut context = Context::with_env(Arc::clone(&env));
        // The sized calls a planned rule makes are the context's.
        super::super::library::register(&mut context);
        let value: serde_json::Value = serde_json::json!({
            "type": "Exact", "value": "/a", "n": 3,
            "items": [{"name": "a", "port": 1}, {"name": "b"}],
            "spec": {"x": {"y": true}}
        });
        context
            .add_variable("self", cel::to_value(&value).unwrap())
            .unwrap();
        for source in [
            "self.type == 'Exact'",
            "!(has(self.type) && self.type != 'Exact')",
            "!has(self.missing)",
            "has(self.spec.x.y) && self.spec.x.y",
            "has(self.spec.x.z)",
            "self.type in ['Exact', 'PathPrefix'] ? self.value.startsWith('/') : true",
            "self.type in ['Prefix']",
            "self.type in []",
            "self.missing in ['a']",
            "self.items.all(i, has(i.port) ? i.port > 0 : i.name != '')",
            "self.items.exists_one(i, i.name == 'a')",
            "self.items.filter(i, !has(i.port)).size() == 1",
            "self.items.map(i, i.name).exists(n, n in ['a'])",
            "self.?spec.?x.?y.orValue(false)",
            "self.spec['x'].y",
            "self.missing == 1",
            "self.items[2].name == 'c'",
            "!self.n",
            "self.type.size() + self.n == 8",
            "{'k': self.type}.k == 'Exact'",
        ] {
            let program = env.compile(source).unwrap();
            let planned = plan(program.expression());
            let as_written = program.execute(&context);
            let rewritten = Value::resolve(&planned, &context);
            match (&as_written, &rewritten) {
                (Ok(left), Ok(right)) => assert_eq!(left, right, "{source}"),
                (Err(_), Err(_)) => {}
                _ => panic!("{source}: {as_written:?} as written, {rewritten:?} planned"),
            }
        }
    }

    /// The rewrites happen: no selection on `self` is left to be resolved
    /// as a qualified name, and `!` and `in` are gone.
    #[test]
    fn selections_on_variables_become_indexes() {
        let program = super::super::rule::ENV
            .compile("!(has(self.a.b) && self.a.c in ['x', 'y']) && self.l.all(i, i.d)")
            .unwrap();
        let planned = plan(program.expression());
        let mut stack = vec![&planned];
        while let Some(node) = stack.pop() {
            match &node.expr {
                Expr::Select(select) => {
                    assert!(select.test, "{select:?}");
                    assert!(!matches!(select.operand.expr, Expr::Ident(_)));
                    stack.push(&select.operand);
                }
                Expr::Call(call) => {
                    assert_ne!(call.func_name, operators::LOGICAL_NOT);
                    assert_ne!(call.func_name, operators::IN);
                    stack.extend(call.target.as_deref());
                    stack.extend(&call.args);
                }
                Expr::Comprehension(c) => {
                    stack.extend([&c.iter_range, &c.accu_init, &c.loop_cond, &c.loop_step]);
                    stack.push(&c.result);
                }
                _ => {}
            }
        }
    }
}
