//! The functions an instrumented rule calls to count its runtime cost
//! ([`super::charges`] puts them in the rule's tree; [`super::meter`]
//! counts):
//!
//! - [`CHARGE`] `(units)`: charges the static cost of a part of the rule
//!   about to run, and is true (`@charge(units) ? part : null`);
//! - the operators whose cost depends on their operands ([`EQUALS`], …,
//!   [`IN`]): charge it, then do what cel-rust's interpreter does for the
//!   operator;
//! - `@sized:<name>` for each call of [`SIZED_CALLS`]: charges the call's
//!   cost from its values and counts what it will build, both before it
//!   runs, then makes the call itself. A function of vergate's own
//!   libraries is called directly ([`register_direct`]); `contains`,
//!   `startsWith` and `endsWith` on strings are answered here; any other
//!   (cel-rust's overloads, which a context cannot look up) is made with
//!   the values bound to hidden names in a scope of the caller's, so that
//!   cel-rust's own dispatch picks the overload, as it would have.
//!
//! The first two are declared on the environment (every context has them);
//! the last on the context, with the Kubernetes functions ([`register`]).

use super::cost::actual::{self, Operator, SIZED_CALLS};
use super::meter;
use cel::common::ast::{CallExpr, Expr};
use cel::common::types::{CelBool, CelInt, CelList, CelString, Kind, DYN_TYPE, INT_TYPE};
use cel::common::value::{CowVal, Val};
use cel::{Context, Env, ExecutionError, FunctionContext, IdedExpr, Value};
use std::collections::HashMap;
use std::sync::{Arc, LazyLock};

/// Charges a part's static cost: `@charge(units)` is true, or fails once
/// the meter has stopped.
pub const CHARGE: &str = "@charge";
pub const EQUALS: &str = "@sized:_==_";
pub const NOT_EQUALS: &str = "@sized:_!=_";
pub const LESS: &str = "@sized:_<_";
pub const LESS_EQUALS: &str = "@sized:_<=_";
pub const GREATER: &str = "@sized:_>_";
pub const GREATER_EQUALS: &str = "@sized:_>=_";
pub const ADD: &str = "@sized:_+_";
pub const IN: &str = "@sized:@in";

/// The prefix of a sized call's name (`@sized:replace`).
pub const PREFIX: &str = "@sized:";

/// The most arguments (target included) a sized call is made with; a call
/// with more is left as written, at a cost of 1.
pub const MAX_ARGS: usize = 6;

/// The names the values of a sized call are bound to for the call.
const ARG_NAMES: [&str; MAX_ARGS] = ["@arg0", "@arg1", "@arg2", "@arg3", "@arg4", "@arg5"];

/// The sized operator standing for `operator` (`_==_`), if it has one.
pub fn operator(operator: &str) -> Option<&'static str> {
    [
        (EQUALS_OP, EQUALS),
        (NOT_EQUALS_OP, NOT_EQUALS),
        (LESS_OP, LESS),
        (LESS_EQUALS_OP, LESS_EQUALS),
        (GREATER_OP, GREATER),
        (GREATER_EQUALS_OP, GREATER_EQUALS),
        (ADD_OP, ADD),
        (IN_OP, IN),
    ]
    .iter()
    .find(|(op, _)| *op == operator)
    .map(|(_, sized)| *sized)
}

// cel-rust's operator names, under names that do not clash with ours.
use cel::common::ast::operators::{
    ADD as ADD_OP, EQUALS as EQUALS_OP, GREATER as GREATER_OP, GREATER_EQUALS as GREATER_EQUALS_OP,
    IN as IN_OP, LESS as LESS_OP, LESS_EQUALS as LESS_EQUALS_OP, NOT_EQUALS as NOT_EQUALS_OP,
};

/// Declares [`CHARGE`] and the sized operators on `env`.
pub fn add_to_env(env: &mut Env) {
    let _ = env.add_overload(CHARGE, CHARGE, vec![INT_TYPE], charge);
    let two = || vec![DYN_TYPE, DYN_TYPE];
    let _ = env.add_overload(EQUALS, EQUALS, two(), equals);
    let _ = env.add_overload(NOT_EQUALS, NOT_EQUALS, two(), not_equals);
    let _ = env.add_overload(LESS, LESS, two(), less);
    let _ = env.add_overload(LESS_EQUALS, LESS_EQUALS, two(), less_equals);
    let _ = env.add_overload(GREATER, GREATER, two(), greater);
    let _ = env.add_overload(GREATER_EQUALS, GREATER_EQUALS, two(), greater_equals);
    let _ = env.add_overload(ADD, ADD, two(), add);
    let _ = env.add_overload(IN, IN, two(), contains);
}

/// A context function as cel-rust stores one: given the call, it may
/// return a value borrowed from it (cel-rust's `magic::Function`).
pub(crate) type RawFunction =
    Box<dyn for<'c, 'v> Fn(&mut FunctionContext<'c, 'v>) -> Result<CowVal<'c, 'v>> + Send + Sync>;

/// Registers `@sized:<name>` for each of [`SIZED_CALLS`] on `context`,
/// each making its call through cel-rust's dispatch; [`register_direct`]
/// then replaces those of vergate's own functions.
pub fn register(context: &mut Context) {
    for name in SIZED_CALLS.iter() {
        let function: RawFunction = Box::new(sized_call);
        let _ = context.add_function(&format!("{PREFIX}{name}"), function);
    }
}

/// Registers `@sized:<name>` for vergate's own function `name`, whose
/// implementation is `function`: it charges the call as [`sized_call`]
/// does, then calls `function` itself, under its own name.
pub fn register_direct(context: &mut Context, name: &str, function: Arc<RawFunction>) {
    let sized: RawFunction = Box::new(move |ftx| {
        let name = ftx.name.strip_prefix(PREFIX).unwrap_or(ftx.name);
        let mut values: [&dyn Val; MAX_ARGS] = [&TRUE; MAX_ARGS];
        let mut count = 0;
        for value in ftx.this.iter().chain(&ftx.args).take(MAX_ARGS) {
            values[count] = value.as_ref();
            count += 1;
        }
        charge_call(name, &values[..count])?;
        ftx.name = name;
        function(ftx)
    });
    let _ = context.add_function(&format!("{PREFIX}{name}"), sized);
}

type Result<T> = std::result::Result<T, ExecutionError>;

/// The true that a charge gives, borrowed: no allocation per charge.
static TRUE: CelBool = CelBool::TRUE;

fn charge<'b, 'v>(args: Vec<CowVal<'b, 'v>>) -> Result<CowVal<'b, 'v>> {
    let units = args
        .first()
        .and_then(|units| units.downcast_ref::<CelInt>())
        .map_or(0, |units| (*units.inner()).max(0) as u64);
    meter::charge(units)?;
    Ok(CowVal::Borrowed(&TRUE))
}

fn pair<'b, 'v>(args: Vec<CowVal<'b, 'v>>) -> Result<[CowVal<'b, 'v>; 2]> {
    let count = args.len();
    <[CowVal<'b, 'v>; 2]>::try_from(args)
        .map_err(|_| ExecutionError::invalid_argument_count(2, count))
}

fn boolean<'b, 'v>(value: bool) -> CowVal<'b, 'v> {
    CowVal::owned(CelBool::from(value))
}

fn no_overload(operator: &str, left: &dyn Val, right: &dyn Val) -> ExecutionError {
    ExecutionError::no_such_overload(
        operator,
        vec![
            left.get_type().name().to_owned(),
            right.get_type().name().to_owned(),
        ],
    )
}

fn equals<'b, 'v>(args: Vec<CowVal<'b, 'v>>) -> Result<CowVal<'b, 'v>> {
    let [left, right] = pair(args)?;
    meter::charge(actual::operator(
        Operator::Equality,
        left.as_ref(),
        right.as_ref(),
    ))?;
    Ok(boolean(left == right))
}

fn not_equals<'b, 'v>(args: Vec<CowVal<'b, 'v>>) -> Result<CowVal<'b, 'v>> {
    let [left, right] = pair(args)?;
    meter::charge(actual::operator(
        Operator::Equality,
        left.as_ref(),
        right.as_ref(),
    ))?;
    Ok(boolean(left != right))
}

fn order(operator: &str, args: Vec<CowVal<'_, '_>>) -> Result<std::cmp::Ordering> {
    let [left, right] = pair(args)?;
    meter::charge(actual::operator(
        Operator::Ordering,
        left.as_ref(),
        right.as_ref(),
    ))?;
    let comparer = left
        .as_comparer()
        .ok_or_else(|| no_overload(operator, left.as_ref(), right.as_ref()))?;
    comparer
        .compare(right.as_ref())
        .map_err(|_| no_overload(operator, left.as_ref(), right.as_ref()))
}

fn less<'b, 'v>(args: Vec<CowVal<'b, 'v>>) -> Result<CowVal<'b, 'v>> {
    Ok(boolean(order(LESS_OP, args)?.is_lt()))
}

fn less_equals<'b, 'v>(args: Vec<CowVal<'b, 'v>>) -> Result<CowVal<'b, 'v>> {
    Ok(boolean(order(LESS_EQUALS_OP, args)?.is_le()))
}

fn greater<'b, 'v>(args: Vec<CowVal<'b, 'v>>) -> Result<CowVal<'b, 'v>> {
    Ok(boolean(order(GREATER_OP, args)?.is_gt()))
}

fn greater_equals<'b, 'v>(args: Vec<CowVal<'b, 'v>>) -> Result<CowVal<'b, 'v>> {
    Ok(boolean(order(GREATER_EQUALS_OP, args)?.is_ge()))
}

fn add<'b, 'v>(args: Vec<CowVal<'b, 'v>>) -> Result<CowVal<'b, 'v>> {
    let [left, right] = pair(args)?;
    let (l, r) = (left.as_ref(), right.as_ref());
    meter::charge(actual::operator(Operator::Add, l, r))?;
    // Strings, bytes and lists are copied into the sum (cel-go shares a
    // list's halves; cel-rust copies them).
    let built = || actual::size(l).saturating_add(actual::size(r));
    match l.get_type().kind() {
        Kind::String | Kind::Bytes => meter::build_text(built())?,
        Kind::List => meter::build(built())?,
        _ => {}
    }
    let adder = l.as_adder().ok_or_else(|| no_overload(ADD_OP, l, r))?;
    Ok(CowVal::Owned(adder.add(r)?.into_owned()))
}

fn contains<'b, 'v>(args: Vec<CowVal<'b, 'v>>) -> Result<CowVal<'b, 'v>> {
    let [needle, haystack] = pair(args)?;
    let (n, h) = (needle.as_ref(), haystack.as_ref());
    meter::charge(actual::operator(Operator::In, n, h))?;
    let container = h.as_container().ok_or_else(|| no_overload(IN_OP, n, h))?;
    Ok(boolean(container.contains(n)?))
}

/// The expressions a sized call makes its call with: `@arg0.name(@arg1,
/// …)` for a member call, `name(@arg0, …)` for a global one, by name,
/// whether it is a member call and how many values it has.
static CALLS: LazyLock<HashMap<(&'static str, bool, usize), IdedExpr>> = LazyLock::new(|| {
    let ident = |index: usize| IdedExpr {
        id: 0,
        expr: Expr::Ident(ARG_NAMES[index].to_owned()),
    };
    let mut calls = HashMap::new();
    for &name in SIZED_CALLS.iter() {
        for member in [false, true] {
            for count in usize::from(member)..=MAX_ARGS {
                let call = CallExpr {
                    func_name: name.to_owned(),
                    target: member.then(|| Box::new(ident(0))),
                    args: (usize::from(member)..count).map(ident).collect(),
                };
                let expr = IdedExpr {
                    id: 0,
                    expr: Expr::Call(call),
                };
                calls.insert((name, member, count), expr);
            }
        }
    }
    calls
});

/// `@sized:<name>`: the call's cost charged and what it builds counted,
/// then the call made: answered here for strings ([`on_strings`],
/// [`split`]), else through cel-rust's dispatch.
fn sized_call<'c, 'v>(ftx: &mut FunctionContext<'c, 'v>) -> Result<CowVal<'c, 'v>> {
    let name = ftx.name.strip_prefix(PREFIX).unwrap_or(ftx.name);
    let member = ftx.this.is_some();
    {
        let mut refs: [&dyn Val; MAX_ARGS] = [&TRUE; MAX_ARGS];
        let mut count = 0;
        for value in ftx.this.iter().chain(&ftx.args).take(MAX_ARGS) {
            refs[count] = value.as_ref();
            count += 1;
        }
        let refs = &refs[..count];
        charge_call(name, refs)?;
        if member {
            if let Some(answer) = on_strings(name, refs) {
                return Ok(boolean(answer));
            }
            if let Some(parts) = split(name, refs) {
                return Ok(CowVal::owned(parts));
            }
        }
    }
    let values: Vec<CowVal<'c, 'v>> = ftx
        .this
        .take()
        .into_iter()
        .chain(ftx.args.drain(..))
        .collect();
    let call = CALLS
        .get(&(name, member, values.len()))
        .ok_or_else(|| ExecutionError::UndeclaredReference(name.to_owned().into()))?;
    let mut scope = ftx.ptx.new_inner_scope();
    for (index, value) in values.into_iter().enumerate() {
        scope.add_variable_as_val(ARG_NAMES[index], value.into_owned());
    }
    let result = Value::resolve_val(call, &scope)?.into_owned();
    Ok(CowVal::Owned(result))
}

/// Charges the call `name` on `args` (target first) its cost, and counts
/// what it will build; fails, before it runs, past either limit. The API
/// server's limit first: where both would stop the rule, it stops with
/// the server's error.
fn charge_call(name: &str, args: &[&dyn Val]) -> Result<()> {
    let built = builds(name, args);
    meter::charge(actual::call(name, args, built))?;
    match built {
        Some(units) if matches!(name, "replace" | "join") => meter::build_text(units)?,
        Some(units) => meter::build(units)?,
        None => {}
    }
    Ok(())
}

/// `contains`, `startsWith` and `endsWith` called on a string with a
/// string: answered as cel-rust's overloads answer them (Go's
/// `strings.Contains`, `HasPrefix`, `HasSuffix`); `None` for any other
/// call, which cel-rust's dispatch makes.
fn on_strings(name: &str, args: &[&dyn Val]) -> Option<bool> {
    let [this, arg] = args else {
        return None;
    };
    let this = this.downcast_ref::<CelString>()?.inner();
    let arg = arg.downcast_ref::<CelString>()?.inner();
    match name {
        "contains" => Some(this.contains(arg)),
        "startsWith" => Some(this.starts_with(arg)),
        "endsWith" => Some(this.ends_with(arg)),
        _ => None,
    }
}

/// `split` called on a string with a string, as cel-rust's strings
/// extension splits (Go's `strings.Split`: between code points on an
/// empty separator); `None` for any other call.
fn split(name: &str, args: &[&dyn Val]) -> Option<CelList<'static>> {
    let ("split", [this, separator]) = (name, args) else {
        return None;
    };
    let this = this.downcast_ref::<CelString>()?.inner();
    let separator = separator.downcast_ref::<CelString>()?.inner();
    let part = |part: &str| Box::new(CelString::from(part.to_owned())) as Box<dyn Val>;
    let parts: Vec<Box<dyn Val>> = if separator.is_empty() {
        this.char_indices()
            .map(|(at, c)| part(&this[at..at + c.len_utf8()]))
            .collect()
    } else {
        this.split(separator).map(part).collect()
    };
    Some(CelList::from(parts))
}

/// How many characters (`replace`, `join`) or list items the call `name` builds, for the calls
/// that may build more than they are given, computed before they run.
fn builds(name: &str, args: &[&dyn Val]) -> Option<u64> {
    let text = |index: usize| {
        args.get(index)
            .and_then(|value| value.downcast_ref::<CelString>())
            .map(|text| text.inner())
    };
    let int = |index: usize| {
        args.get(index)
            .and_then(|value| value.downcast_ref::<CelInt>())
            .map(|int| *int.inner())
    };
    match name {
        "replace" => {
            let (source, from, to) = (text(0)?, text(1)?, text(2)?);
            let mut count = if from.is_empty() {
                source.chars().count() as u64 + 1
            } else {
                source.matches(from).count() as u64
            };
            if let Some(limit) = int(3).filter(|limit| *limit >= 0) {
                count = count.min(limit as u64);
            }
            let kept = source.chars().count() as u64
                - if from.is_empty() {
                    0
                } else {
                    count * from.chars().count() as u64
                };
            Some(kept.saturating_add(count.saturating_mul(to.chars().count() as u64)))
        }
        "join" => {
            let list = args.first()?;
            let iterable = list.as_iterable()?;
            let mut items = iterable.iter();
            let (mut total, mut count) = (0u64, 0u64);
            while let Some(item) = items.next() {
                total = total.saturating_add(actual::size(item));
                count += 1;
            }
            let separator = text(1).map_or(0, |separator| separator.chars().count() as u64);
            Some(total.saturating_add(separator.saturating_mul(count.saturating_sub(1))))
        }
        "split" => Some(actual::size(*args.first()?).saturating_add(1)),
        "lists.range" => Some(int(0)?.max(0) as u64),
        "slice" => Some(int(2)?.saturating_sub(int(1)?).max(0) as u64),
        "reverse" | "distinct" | "sort" | "flatten"
            if args.first()?.get_type().kind() == Kind::List =>
        {
            Some(actual::size(*args.first()?))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::builds;
    use cel::common::types::{CelInt, CelString};

    /// The calls answered here give what cel-rust's own overloads give.
    #[test]
    fn calls_answered_here_agree_with_cel_rust() {
        use crate::cel::rule::ENV;
        use cel::{Context, Value};
        use std::sync::Arc;
        let mut context = Context::with_env(Arc::clone(&ENV));
        crate::cel::library::register(&mut context);
        for expression in [
            "'a,,b'.split(',')",
            "''.split(',')",
            "''.split('')",
            "'héllo'.split('')",
            "'a--b--'.split('--')",
            "'a,b'.split(',', 1)",
            "['abc'.contains(''), 'abc'.contains('bc'), 'abc'.contains('x')]",
            "['abc'.startsWith(''), 'abc'.startsWith('ab'), 'é'.startsWith('e')]",
            "['abc'.endsWith(''), 'abc'.endsWith('bc'), 'abc'.endsWith('abcd')]",
        ] {
            let program = ENV.compile(expression).unwrap();
            let planned = crate::cel::plan::plan(program.expression());
            let direct = Value::resolve(&planned, &context);
            let dispatched = Value::resolve(program.expression(), &context);
            assert_eq!(direct, dispatched, "{expression}");
            assert!(direct.is_ok(), "{expression}: {direct:?}");
        }
    }

    #[test]
    fn what_a_call_builds_is_known_before_it_runs() {
        let source = CelString::from("a".repeat(10));
        let (a, aa) = (CelString::from("a"), CelString::from("aa"));
        assert_eq!(builds("replace", &[&source, &a, &aa]), Some(20));
        assert_eq!(
            builds("replace", &[&source, &a, &aa, &CelInt::from(3)]),
            Some(13)
        );
        assert_eq!(
            builds("replace", &[&source, &CelString::from(""), &a]),
            Some(21)
        );
        assert_eq!(builds("lists.range", &[&CelInt::from(5)]), Some(5));
        assert_eq!(builds("size", &[&source]), None);
    }
}
