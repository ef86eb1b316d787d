//! cel-go's two-variable comprehensions (`ext.TwoVarComprehensions`, in
//! the API server's environment from 1.32): `all`, `exists`, `existsOne`,
//! `transformList`, `transformMap` and `transformMapEntry` with an index
//! (or key) and a value variable, as macros on cel-rust, whose parser and
//! interpreter know only one-variable comprehensions.
//!
//! Each expands, when the rule is parsed, into comprehensions cel-rust runs:
//! the range is bound once to a hidden name (`@range`), a one-variable
//! comprehension ranges over its indexes or keys ([`KEYS`], registered
//! under each macro's name so a rule's functions name the macro), and the
//! value variable is bound per step to `@range[key]`. A binding is cel-go's
//! `cel.bind` shape: a comprehension over no items whose accumulator is the
//! name and whose result is the body. So `m.all(k, v, v > 0)` is
//! `bind(@range, m, @all(@range).all(k, bind(v, @range[k], v > 0)))`.
//!
//! As in cel-go, a list's first variable is the index and a map's the key;
//! `transformMap` keeps the keys (a list's indexes) and `transformMapEntry`
//! merges the one-entry maps its expression gives, failing on a key given
//! twice (`insert failed: key … already exists`).

use cel::common::ast::{
    operators, CallExpr, ComprehensionExpr, Expr, ListExpr, LiteralValue, MapExpr,
};
use cel::extractors::Arguments;
use cel::objects::{Key, Map};
use cel::parser::{Macro, MacroExprHelper, ParseError};
use cel::{Context, Env, ExecutionError, FunctionContext, IdedExpr, Value};
use std::collections::HashMap;
use std::sync::Arc;

/// The macros, as a rule names them: each is also the name (after `@`) of
/// the function that lists its range's indexes or keys.
pub const MACROS: [&str; 6] = [
    "all",
    "exists",
    "existsOne",
    "transformList",
    "transformMap",
    "transformMapEntry",
];

/// The functions the expansions call that a rule can be said to use: the
/// key lists, one per macro (`@all`, …), for the library's gate.
pub const KEYS: [&str; 6] = [
    "@all",
    "@exists",
    "@existsOne",
    "@transformList",
    "@transformMap",
    "@transformMapEntry",
];

/// Adds to `map` one key and value, or every entry of another map.
const INSERT: &str = "@insert";

/// The hidden name the range is bound to.
const RANGE: &str = "@range";

/// The accumulator's name, as cel-rust's own macros name it.
const RESULT: &str = "@result";

/// Adds the macros to `env`.
pub fn add_macros(env: &mut Env) {
    let forms: [(&str, &[usize]); 6] = [
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

/// Registers the functions the expansions call.
pub fn register(context: &mut Context) {
    for name in KEYS {
        let _ = context.add_function(
            name,
            |ftx: &FunctionContext, Arguments(args): Arguments| -> Result<Value, ExecutionError> {
                match args.as_slice() {
                    [range] => keys(ftx, range),
                    _ => Err(ftx.error("a two-variable comprehension ranges over one value")),
                }
            },
        );
    }
    let _ = context.add_function(
        INSERT,
        |ftx: &FunctionContext, Arguments(args): Arguments| -> Result<Value, ExecutionError> {
            insert(ftx, &args)
        },
    );
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

/// `@insert(map, key, value)` or `@insert(map, entries)`.
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
                Value::from(key).to_string_lossy()
            )));
        }
        map.insert(key, value);
    }
    Ok(Value::Map(Map { map: Arc::new(map) }))
}

fn key_of(ftx: &FunctionContext, value: &Value) -> Result<Key, ExecutionError> {
    value
        .clone()
        .try_into()
        .map_err(|_| ftx.error(format!("{} cannot be a map key", value.to_string_lossy())))
}

trait Lossy {
    fn to_string_lossy(&self) -> String;
}

impl Lossy for Value {
    fn to_string_lossy(&self) -> String {
        match self {
            Value::String(text) => text.to_string(),
            Value::Int(number) => number.to_string(),
            Value::UInt(number) => number.to_string(),
            Value::Bool(flag) => flag.to_string(),
            other => format!("{other:?}"),
        }
    }
}

/// The expansion of `target.name(args…)`.
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
    let mut b = Builder {
        helper,
        key: &key,
        value: &value,
    };
    let (init, condition, step, result) = match (name, rest.as_slice()) {
        ("all", [predicate]) => {
            let predicate = b.with_value(predicate.clone());
            let accumulated = b.ident(RESULT);
            let step = b.call(operators::LOGICAL_AND, vec![accumulated, predicate]);
            let accumulated = b.ident(RESULT);
            let condition = b.call(operators::NOT_STRICTLY_FALSE, vec![accumulated]);
            let init = b.boolean(true);
            (init, condition, step, b.ident(RESULT))
        }
        ("exists", [predicate]) => {
            let predicate = b.with_value(predicate.clone());
            let accumulated = b.ident(RESULT);
            let step = b.call(operators::LOGICAL_OR, vec![accumulated, predicate]);
            let accumulated = b.ident(RESULT);
            let not = b.call(operators::LOGICAL_NOT, vec![accumulated]);
            let condition = b.call(operators::NOT_STRICTLY_FALSE, vec![not]);
            let init = b.boolean(false);
            (init, condition, step, b.ident(RESULT))
        }
        ("existsOne", [predicate]) => {
            let predicate = b.with_value(predicate.clone());
            let (accumulated, one) = (b.ident(RESULT), b.int(1));
            let plus = b.call(operators::ADD, vec![accumulated, one]);
            let accumulated = b.ident(RESULT);
            let step = b.call(operators::CONDITIONAL, vec![predicate, plus, accumulated]);
            let (accumulated, one) = (b.ident(RESULT), b.int(1));
            let result = b.call(operators::EQUALS, vec![accumulated, one]);
            let (init, condition) = (b.int(0), b.boolean(true));
            (init, condition, step, result)
        }
        ("transformList", [filter @ .., transform]) if filter.len() <= 1 => {
            let transform = b.with_value(transform.clone());
            let item = b.node(Expr::List(ListExpr::new(vec![transform])));
            let accumulated = b.ident(RESULT);
            let added = b.call(operators::ADD, vec![accumulated, item]);
            let step = b.filtered(filter.first(), added);
            let empty = b.node(Expr::List(ListExpr::new(Vec::new())));
            let condition = b.boolean(true);
            (empty, condition, step, b.ident(RESULT))
        }
        ("transformMap" | "transformMapEntry", [filter @ .., transform]) if filter.len() <= 1 => {
            let transform = b.with_value(transform.clone());
            let accumulated = b.ident(RESULT);
            let args = match name {
                "transformMap" => vec![accumulated, b.ident(&key), transform],
                _ => vec![accumulated, transform],
            };
            let added = b.call(INSERT, args);
            let step = b.filtered(filter.first(), added);
            let empty = b.node(Expr::Map(MapExpr {
                entries: Vec::new(),
            }));
            let condition = b.boolean(true);
            (empty, condition, step, b.ident(RESULT))
        }
        _ => {
            return Err(b.helper.new_error(
                range.id,
                format!("{name} takes two variables and an expression"),
            ))
        }
    };
    let bound = b.ident(RANGE);
    let keys = b.call(&format!("@{name}"), vec![bound]);
    let over_keys = b.node(Expr::Comprehension(Box::new(ComprehensionExpr {
        iter_range: keys,
        iter_var: key.clone(),
        iter_var2: None,
        accu_var: RESULT.to_owned(),
        accu_init: init,
        loop_cond: condition,
        loop_step: step,
        result,
    })));
    Ok(b.bind(RANGE, range, over_keys))
}

/// The name a variable argument gives, or the parse error cel-go gives.
fn variable(helper: &MacroExprHelper<'_>, arg: IdedExpr, name: &str) -> Result<String, ParseError> {
    match arg.expr {
        Expr::Ident(variable) => Ok(variable),
        _ => Err(helper.new_error(arg.id, format!("{name}: argument must be a simple name"))),
    }
}

/// New nodes for an expansion of a comprehension with the variables `key`
/// and `value`.
struct Builder<'h, 'p> {
    helper: &'h mut MacroExprHelper<'p>,
    key: &'h str,
    value: &'h str,
}

impl Builder<'_, '_> {
    /// `body` with the value variable bound to `@range[key]`.
    fn with_value(&mut self, body: IdedExpr) -> IdedExpr {
        let (range, key) = (self.ident(RANGE), self.ident(self.key));
        let at = self.call(operators::INDEX, vec![range, key]);
        let value = self.value;
        self.bind(value, at, body)
    }

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

    /// `body` with `name` bound to `init`: a comprehension over no items
    /// whose accumulator is `name` (cel-go's `cel.bind`).
    fn bind(&mut self, name: &str, init: IdedExpr, body: IdedExpr) -> IdedExpr {
        let nothing = self.node(Expr::List(ListExpr::new(Vec::new())));
        let condition = self.boolean(false);
        let step = self.ident(name);
        self.node(Expr::Comprehension(Box::new(ComprehensionExpr {
            iter_range: nothing,
            iter_var: "#unused".to_owned(),
            iter_var2: None,
            accu_var: name.to_owned(),
            accu_init: init,
            loop_cond: condition,
            loop_step: step,
            result: body,
        })))
    }

    /// `filter ? added : @result`, or `added` without a filter.
    fn filtered(&mut self, filter: Option<&IdedExpr>, added: IdedExpr) -> IdedExpr {
        match filter {
            Some(filter) => {
                let filter = self.with_value(filter.clone());
                let unchanged = self.ident(RESULT);
                self.call(operators::CONDITIONAL, vec![filter, added, unchanged])
            }
            None => added,
        }
    }
}
