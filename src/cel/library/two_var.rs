//! cel-go's two-variable comprehensions (`ext.TwoVarComprehensions`, in
//! the API server's environment from 1.32): `all`, `exists`, `existsOne`,
//! `transformList`, `transformMap` and `transformMapEntry` with an index
//! (or key) and a value variable.
//!
//! cel-rust's parser and interpreter know only one-variable comprehensions,
//! so this is done in two steps:
//!
//! - [`add_macros`]: the calls expand, when a rule is parsed, into the
//!   comprehensions cel-go builds for them (`iter_var2` set, the same
//!   accumulator, condition, step and result), so the static cost estimate
//!   (`super::super::cost`) sees cel-go's tree;
//! - [`lower`]: the plan (`super::super::plan`) turns each such
//!   comprehension into ones cel-rust runs: the range bound once to a hidden
//!   name, a one-variable comprehension over its indexes or keys ([`KEYS`]),
//!   and the value variable bound for each step to `@range[key]`. A binding
//!   is cel-go's `cel.bind` shape: a comprehension over no items whose
//!   accumulator is the name and whose result is the body.
//!
//! As in cel-go, over a list the first variable is the index and over a map
//! the key; `transformMap` keeps the keys (a list's indexes), and
//! `transformMapEntry` merges the one-entry maps its expression gives,
//! failing on a key given twice (`insert failed: key … already exists`).

use cel::common::ast::{
    operators, CallExpr, ComprehensionExpr, Expr, ListExpr, LiteralValue, MapExpr,
};
use cel::extractors::Arguments;
use cel::objects::{Key, Map};
use cel::parser::{Macro, MacroExprHelper, ParseError};
use cel::{Context, Env, ExecutionError, FunctionContext, IdedExpr, Value};
use std::collections::HashMap;
use std::sync::Arc;

/// How the gate of the library names the macros a rule uses (`@all`, …):
/// [`used`] finds them, `display_name` drops the `@`.
pub const MACROS: [&str; 6] = [
    "@all",
    "@exists",
    "@existsOne",
    "@transformList",
    "@transformMap",
    "@transformMapEntry",
];

/// Lists a range's indexes or keys (the lowered comprehensions range over
/// them).
const KEYS: &str = "@keys";

/// Adds to a map one key and value, or every entry of another map (cel-go's
/// name for it).
const MAP_INSERT: &str = "cel.@mapInsert";

/// Makes a map of a transform's list of entries: `[key, value]` pairs
/// (`transformMap`) or maps (`transformMapEntry`).
const ENTRIES: &str = "@entries";

/// The hidden name a lowered comprehension binds its range to.
const RANGE: &str = "@range";

/// The accumulator's name, as cel-go's and cel-rust's macros name it.
const RESULT: &str = "@result";

/// Adds the macros to `env`.
pub fn add_macros(env: &mut Env) {
    let forms: [(&'static str, &[usize]); 6] = [
        ("all", &[3]),
        ("exists", &[3]),
        ("existsOne", &[3]),
        ("transformList", &[3, 4]),
        ("transformMap", &[3, 4]),
        ("transformMapEntry", &[3, 4]),
    ];
    for (name, arities) in forms {
        for &arity in arities {
            let _ = env.add_macro(Macro::receiver(name, arity, move |helper, target, args| {
                expand(name, helper, target, args).map(Some)
            }));
        }
    }
}

/// Registers the functions the lowered comprehensions call.
pub fn register(context: &mut Context) {
    let _ = context.add_function(
        KEYS,
        |ftx: &FunctionContext, Arguments(args): Arguments| -> Result<Value, ExecutionError> {
            match args.as_slice() {
                [range] => keys(ftx, range),
                _ => Err(ftx.error("a two-variable comprehension ranges over one value")),
            }
        },
    );
    let _ = context.add_function(
        ENTRIES,
        |ftx: &FunctionContext, Arguments(args): Arguments| -> Result<Value, ExecutionError> {
            entries(ftx, &args)
        },
    );
    let _ = context.add_function(
        MAP_INSERT,
        |ftx: &FunctionContext, Arguments(args): Arguments| -> Result<Value, ExecutionError> {
            insert(ftx, &args)
        },
    );
}

/// The two-variable macros `expr` uses, as [`MACROS`] names them, told
/// apart by the comprehension each expands to.
pub fn used(expr: &IdedExpr) -> Vec<String> {
    let mut found = Vec::new();
    visit(expr, 0, &mut |expr| {
        let Expr::Comprehension(c) = &expr.expr else {
            return;
        };
        if c.iter_var2.is_none() {
            return;
        }
        let inserted = |arity: usize| calls(&c.loop_step, MAP_INSERT, arity);
        let name = match &c.accu_init.expr {
            Expr::Literal(LiteralValue::Boolean(flag)) if *flag.inner() => "@all",
            Expr::Literal(LiteralValue::Boolean(_)) => "@exists",
            Expr::Literal(_) => "@existsOne",
            Expr::List(_) => "@transformList",
            Expr::Map(_) if inserted(3) => "@transformMap",
            Expr::Map(_) if inserted(2) => "@transformMapEntry",
            _ => "@all",
        };
        if !found.iter().any(|known| known == name) {
            found.push(name.to_owned());
        }
    });
    found
}

/// The deepest tree [`used`] and [`calls`] look into (rules are bounded
/// far below it when they compile).
const MAX_DEPTH: usize = 256;

fn visit(expr: &IdedExpr, depth: usize, found: &mut dyn FnMut(&IdedExpr)) {
    if depth > MAX_DEPTH {
        return;
    }
    found(expr);
    for child in crate::cel::tree::children(expr) {
        visit(child, depth + 1, found);
    }
}

/// True when `expr` calls `function` with `arity` arguments somewhere.
fn calls(expr: &IdedExpr, function: &str, arity: usize) -> bool {
    let mut seen = false;
    visit(expr, 0, &mut |expr| {
        seen |= matches!(&expr.expr, Expr::Call(call)
            if call.func_name == function && call.args.len() == arity);
    });
    seen
}

/// The comprehension `c` (two variables, its parts already planned)
/// lowered into one-variable comprehensions cel-rust runs; `id` places the
/// nodes it adds.
///
/// The value variable is bound where the step reads it: around the whole
/// step, or, for a step that appends to the accumulator (a transform, see
/// [`as_append`]), around the item appended and the filter, so that the
/// step keeps the shape cel-rust runs in place. A transform into a map
/// appends its entries to a list, made a map at the end ([`ENTRIES`]):
/// linear where adding to the map at each step copied it.
pub fn lower(id: u64, c: ComprehensionExpr) -> IdedExpr {
    let node = |expr: Expr| IdedExpr { id, expr };
    let ident = |name: &str| node(Expr::Ident(name.to_owned()));
    let ComprehensionExpr {
        iter_range,
        iter_var,
        iter_var2,
        accu_var,
        mut accu_init,
        loop_cond,
        loop_step,
        result,
    } = c;
    let into_map = matches!(&accu_init.expr, Expr::Map(map) if map.entries.is_empty())
        && appends(&loop_step, &accu_var);
    if into_map {
        accu_init = node(Expr::List(ListExpr::new(Vec::new())));
    }
    let step = match iter_var2 {
        Some(value) => {
            let at = node(Expr::Call(CallExpr {
                func_name: operators::INDEX.to_owned(),
                target: None,
                args: vec![ident(RANGE), ident(&iter_var)],
            }));
            bind_in_step(id, &value, &at, &accu_var, loop_step)
        }
        None => loop_step,
    };
    let keys = node(Expr::Call(CallExpr {
        func_name: KEYS.to_owned(),
        target: None,
        args: vec![ident(RANGE)],
    }));
    let over_keys = node(Expr::Comprehension(Box::new(ComprehensionExpr {
        iter_range: keys,
        iter_var,
        iter_var2: None,
        accu_var,
        accu_init,
        loop_cond,
        loop_step: step,
        result,
    })));
    let lowered = bind(id, RANGE, iter_range, over_keys);
    if into_map {
        node(Expr::Call(CallExpr {
            func_name: ENTRIES.to_owned(),
            target: None,
            args: vec![lowered],
        }))
    } else {
        lowered
    }
}

/// True when `step` appends to the accumulator `accu`, filtered or not.
fn appends(step: &IdedExpr, accu: &str) -> bool {
    let Expr::Call(call) = &step.expr else {
        return false;
    };
    match (call.func_name.as_str(), call.args.as_slice()) {
        (
            operators::ADD,
            [IdedExpr {
                expr: Expr::Ident(name),
                ..
            }, _],
        ) => name == accu,
        (
            operators::CONDITIONAL,
            [_, added, IdedExpr {
                expr: Expr::Ident(name),
                ..
            }],
        ) => name == accu && appends(added, accu),
        _ => false,
    }
}

/// `step` with `name` bound to `at`: inside the item appended and the
/// filter when the step appends to `accu`, around it otherwise.
fn bind_in_step(id: u64, name: &str, at: &IdedExpr, accu: &str, step: IdedExpr) -> IdedExpr {
    if !appends(&step, accu) {
        return bind(id, name, at.clone(), step);
    }
    let IdedExpr {
        id: step_id,
        expr: Expr::Call(mut call),
    } = step
    else {
        unreachable!("`appends` matched a call")
    };
    if call.func_name == operators::ADD {
        if let Some(IdedExpr {
            expr: Expr::List(list),
            ..
        }) = call.args.get_mut(1)
        {
            for element in &mut list.elements {
                let item = std::mem::take(element);
                *element = bind(id, name, at.clone(), item);
            }
        }
    } else {
        let added = std::mem::take(&mut call.args[1]);
        call.args[1] = bind_in_step(id, name, at, accu, added);
        let filter = std::mem::take(&mut call.args[0]);
        call.args[0] = bind(id, name, at.clone(), filter);
    }
    IdedExpr {
        id: step_id,
        expr: Expr::Call(call),
    }
}

/// `step` (a comprehension's step, planned) with an insertion into the
/// accumulator map, `cel.@mapInsert(@result, key, value)` or
/// `cel.@mapInsert(@result, entries)`, turned into an append to a list,
/// `@result + [[key, value]]` or `@result + [entries]`, which [`lower`]
/// makes a map.
pub fn as_append(step: IdedExpr) -> IdedExpr {
    let IdedExpr { id, expr } = step;
    let Expr::Call(call) = expr else {
        return IdedExpr { id, expr };
    };
    if call.func_name != MAP_INSERT || call.target.is_some() {
        return IdedExpr {
            id,
            expr: Expr::Call(call),
        };
    }
    let node = |expr: Expr| IdedExpr { id, expr };
    let mut args = call.args.into_iter();
    let item = match (args.next(), args.next(), args.next(), args.next()) {
        (Some(accu), Some(key), Some(value), None) => {
            (accu, node(Expr::List(ListExpr::new(vec![key, value]))))
        }
        (Some(accu), Some(entries), None, None) => (accu, entries),
        (first, second, third, _) => {
            let args = [first, second, third].into_iter().flatten().collect();
            return node(Expr::Call(CallExpr {
                func_name: MAP_INSERT.to_owned(),
                target: None,
                args,
            }));
        }
    };
    let (accu, item) = item;
    node(Expr::Call(CallExpr {
        func_name: operators::ADD.to_owned(),
        target: None,
        args: vec![accu, node(Expr::List(ListExpr::new(vec![item])))],
    }))
}

/// `body` with `name` bound to `init`: a comprehension over no items whose
/// accumulator is `name` (cel-go's `cel.bind`).
fn bind(id: u64, name: &str, init: IdedExpr, body: IdedExpr) -> IdedExpr {
    let node = |expr: Expr| IdedExpr { id, expr };
    node(Expr::Comprehension(Box::new(ComprehensionExpr {
        iter_range: node(Expr::List(ListExpr::new(Vec::new()))),
        iter_var: "#unused".to_owned(),
        iter_var2: None,
        accu_var: name.to_owned(),
        accu_init: init,
        loop_cond: node(Expr::Literal(LiteralValue::Boolean(false.into()))),
        loop_step: node(Expr::Ident(name.to_owned())),
        result: body,
    })))
}

/// The indexes of a list or the keys of a map, as a list.
fn keys(ftx: &FunctionContext, range: &Value) -> Result<Value, ExecutionError> {
    let keys: Vec<Value> = match range {
        Value::List(items) => (0..items.len() as i64).map(Value::Int).collect(),
        Value::Map(map) => map.map.keys().map(Value::from).collect(),
        _ => return Err(ftx.error("a two-variable comprehension ranges over a list or a map")),
    };
    Ok(Value::List(Arc::new(keys)))
}

/// `cel.@mapInsert(map, key, value)` or `cel.@mapInsert(map, entries)`.
fn insert(ftx: &FunctionContext, args: &[Value]) -> Result<Value, ExecutionError> {
    let (Some(Value::Map(into)), rest) = (args.first(), args.get(1..).unwrap_or_default()) else {
        return Err(ftx.error("insert needs a map"));
    };
    let added: Vec<(Key, Value)> = match rest {
        [key, value] => vec![(key_of(ftx, key)?, value.clone())],
        [Value::Map(entries)] => entries
            .map
            .iter()
            .map(|(key, value)| (key.clone(), value.clone()))
            .collect(),
        _ => return Err(ftx.error("transformMapEntry's expression must give a map")),
    };
    let mut map: HashMap<Key, Value> = (*into.map).clone();
    for (key, value) in added {
        if map.contains_key(&key) {
            return Err(ftx.error(format!(
                "insert failed: key {} already exists",
                shown(&Value::from(key))
            )));
        }
        map.insert(key, value);
    }
    Ok(Value::Map(Map { map: Arc::new(map) }))
}

/// `@entries(list)`: the map of a transform's entries, each a `[key,
/// value]` pair or a map of its own; a key given twice fails as cel-go's
/// insertion does.
fn entries(ftx: &FunctionContext, args: &[Value]) -> Result<Value, ExecutionError> {
    let [Value::List(items)] = args else {
        return Err(ftx.error("a transform builds a list of entries"));
    };
    let mut map: HashMap<Key, Value> = HashMap::with_capacity(items.len());
    let mut add = |key: Key, value: Value| {
        if map.contains_key(&key) {
            return Err(ftx.error(format!(
                "insert failed: key {} already exists",
                shown(&Value::from(key))
            )));
        }
        map.insert(key, value);
        Ok(())
    };
    for item in items.iter() {
        match item {
            Value::List(pair) if pair.len() == 2 => add(key_of(ftx, &pair[0])?, pair[1].clone())?,
            Value::Map(entries) => {
                for (key, value) in entries.map.iter() {
                    add(key.clone(), value.clone())?;
                }
            }
            _ => return Err(ftx.error("transformMapEntry's expression must give a map")),
        }
    }
    Ok(Value::Map(Map { map: Arc::new(map) }))
}

fn key_of(ftx: &FunctionContext, value: &Value) -> Result<Key, ExecutionError> {
    value
        .clone()
        .try_into()
        .map_err(|_| ftx.error(format!("{} cannot be a map key", shown(value))))
}

/// A key as cel-go prints it in an error.
fn shown(value: &Value) -> String {
    match value {
        Value::String(text) => text.to_string(),
        Value::Int(number) => number.to_string(),
        Value::UInt(number) => number.to_string(),
        Value::Bool(flag) => flag.to_string(),
        other => format!("{other:?}"),
    }
}

/// The expansion of `target.name(args…)`: cel-go's comprehension for it.
fn expand(
    name: &'static str,
    helper: &mut MacroExprHelper<'_>,
    target: &mut Option<IdedExpr>,
    args: &mut Vec<IdedExpr>,
) -> Result<IdedExpr, ParseError> {
    let range = target
        .take()
        .ok_or_else(|| helper.new_error(0, format!("{name} needs a target")))?;
    let mut args = std::mem::take(args).into_iter();
    let (Some(first), Some(second)) = (args.next(), args.next()) else {
        return Err(helper.new_error(range.id, format!("{name} needs two variables")));
    };
    let key = variable(helper, first, name)?;
    let value = variable(helper, second, name)?;
    if key == value {
        return Err(helper.new_error(
            range.id,
            format!("{name}: the two variables must have different names, both are `{key}`"),
        ));
    }
    let rest: Vec<IdedExpr> = args.collect();
    let mut b = Builder { helper };
    let (init, condition, step, result) = match (name, rest.as_slice()) {
        ("all", [predicate]) => {
            let accumulated = b.ident(RESULT);
            let step = b.call(operators::LOGICAL_AND, vec![accumulated, predicate.clone()]);
            let accumulated = b.ident(RESULT);
            let condition = b.call(operators::NOT_STRICTLY_FALSE, vec![accumulated]);
            (b.boolean(true), condition, step, b.ident(RESULT))
        }
        ("exists", [predicate]) => {
            let accumulated = b.ident(RESULT);
            let step = b.call(operators::LOGICAL_OR, vec![accumulated, predicate.clone()]);
            let accumulated = b.ident(RESULT);
            let not = b.call(operators::LOGICAL_NOT, vec![accumulated]);
            let condition = b.call(operators::NOT_STRICTLY_FALSE, vec![not]);
            (b.boolean(false), condition, step, b.ident(RESULT))
        }
        ("existsOne", [predicate]) => {
            let (accumulated, one) = (b.ident(RESULT), b.int(1));
            let plus = b.call(operators::ADD, vec![accumulated, one]);
            let accumulated = b.ident(RESULT);
            let step = b.call(
                operators::CONDITIONAL,
                vec![predicate.clone(), plus, accumulated],
            );
            let (accumulated, one) = (b.ident(RESULT), b.int(1));
            let result = b.call(operators::EQUALS, vec![accumulated, one]);
            let (init, condition) = (b.int(0), b.boolean(true));
            (init, condition, step, result)
        }
        ("transformList", [filter @ .., transform]) if filter.len() <= 1 => {
            let item = b.node(Expr::List(ListExpr::new(vec![transform.clone()])));
            let accumulated = b.ident(RESULT);
            let added = b.call(operators::ADD, vec![accumulated, item]);
            let step = b.filtered(filter.first(), added);
            let empty = b.node(Expr::List(ListExpr::new(Vec::new())));
            (empty, b.boolean(true), step, b.ident(RESULT))
        }
        ("transformMap" | "transformMapEntry", [filter @ .., transform]) if filter.len() <= 1 => {
            let accumulated = b.ident(RESULT);
            let args = match name {
                "transformMap" => vec![accumulated, b.ident(&key), transform.clone()],
                _ => vec![accumulated, transform.clone()],
            };
            let added = b.call(MAP_INSERT, args);
            let step = b.filtered(filter.first(), added);
            let empty = b.node(Expr::Map(MapExpr {
                entries: Vec::new(),
            }));
            (empty, b.boolean(true), step, b.ident(RESULT))
        }
        _ => {
            return Err(b.helper.new_error(
                range.id,
                format!("{name} takes two variables and an expression"),
            ))
        }
    };
    Ok(b.node(Expr::Comprehension(Box::new(ComprehensionExpr {
        iter_range: range,
        iter_var: key,
        iter_var2: Some(value),
        accu_var: RESULT.to_owned(),
        accu_init: init,
        loop_cond: condition,
        loop_step: step,
        result,
    }))))
}

/// The name a variable argument gives, or a parse error.
fn variable(helper: &MacroExprHelper<'_>, arg: IdedExpr, name: &str) -> Result<String, ParseError> {
    match arg.expr {
        Expr::Ident(variable) => Ok(variable),
        _ => Err(helper.new_error(arg.id, format!("{name}: argument must be a simple name"))),
    }
}

/// New nodes for an expansion.
struct Builder<'h, 'p> {
    helper: &'h mut MacroExprHelper<'p>,
}

impl Builder<'_, '_> {
    fn node(&mut self, expr: Expr) -> IdedExpr {
        self.helper.next_expr(expr)
    }

    fn ident(&mut self, name: &str) -> IdedExpr {
        self.node(Expr::Ident(name.to_owned()))
    }

    fn boolean(&mut self, value: bool) -> IdedExpr {
        self.node(Expr::Literal(LiteralValue::Boolean(value.into())))
    }

    fn int(&mut self, value: i64) -> IdedExpr {
        self.node(Expr::Literal(LiteralValue::Int(value.into())))
    }

    fn call(&mut self, function: &str, args: Vec<IdedExpr>) -> IdedExpr {
        self.node(Expr::Call(CallExpr {
            func_name: function.to_owned(),
            target: None,
            args,
        }))
    }

    /// `filter ? added : @result`, or `added` without a filter.
    fn filtered(&mut self, filter: Option<&IdedExpr>, added: IdedExpr) -> IdedExpr {
        match filter {
            Some(filter) => {
                let unchanged = self.ident(RESULT);
                self.call(
                    operators::CONDITIONAL,
                    vec![filter.clone(), added, unchanged],
                )
            }
            None => added,
        }
    }
}
