//! The Kubernetes extension functions, registered on a cel-rust
//! [`Context`]. Each takes its receiver as `This<Value>` and dispatches on
//! what it holds, as one name (`isGreaterThan`, `ip`) serves several types.

use super::format::{self, Format};
use super::net::{self, Cidr, Ip, Url};
use super::quantity::Quantity;
use super::semver::Semver;
use crate::cel::cost::actual::SIZED_CALLS;
use crate::cel::sized::{self, RawFunction};
use cel::extractors::{Arguments, IntoFunction, This};
use cel::objects::{Key, Map, OptionalValue, Value};
use cel::{Context, ExecutionError, FunctionContext};
use std::cmp::Ordering;
use std::collections::HashMap;
use std::sync::Arc;

type Result<T> = std::result::Result<T, ExecutionError>;

/// The opaque value of type `T` that `value` holds, if it holds one.
fn opaque<T: 'static>(value: &Value) -> Option<&T> {
    match value {
        Value::Opaque(opaque) => opaque.downcast_ref::<T>(),
        _ => None,
    }
}

fn wrap<T: cel::objects::Opaque>(value: T) -> Value {
    Value::Opaque(Arc::new(value))
}

/// The function `matches` calls are rewritten to (a macro, when the rule
/// compiles): the standard `matches` with its patterns compiled once per
/// thread.
pub const MATCHES: &str = "__vergate_matches__";

/// Adds `function` to `context` as `name` (a name cel-rust already
/// declares is skipped: it keeps cel-rust's meaning). When its cost
/// depends on its values ([`SIZED_CALLS`]), its sized call, which charges
/// that cost, calls this same implementation directly.
fn add<T: 'static, F>(context: &mut Context, name: &str, function: F)
where
    F: IntoFunction<T> + Send + Sync + 'static,
{
    if !SIZED_CALLS.contains(&name) {
        let _ = context.add_function(name, function);
        return;
    }
    let function: Arc<RawFunction> = Arc::new(function.into_function());
    let shared = Arc::clone(&function);
    let plain: RawFunction = Box::new(move |ftx| shared(ftx));
    if context.add_function(name, plain).is_ok() {
        sized::register_direct(context, name, function);
    }
}

/// Registers every Kubernetes extension function on `context`. A name
/// cel-rust already declares is skipped: it keeps cel-rust's meaning.
pub fn register(context: &mut Context) {
    super::two_var::register(context);
    sized::register(context);
    // Lists.
    add(
        context,
        "isSorted",
        |ftx: &FunctionContext, This(list): This<Arc<Vec<Value>>>| -> Result<bool> {
            for pair in list.windows(2) {
                if compare(ftx, &pair[0], &pair[1])? == Ordering::Greater {
                    return Ok(false);
                }
            }
            Ok(true)
        },
    );
    add(
        context,
        "sum",
        |ftx: &FunctionContext, This(list): This<Arc<Vec<Value>>>| -> Result<Value> {
            let mut total = Value::Int(0);
            for (index, item) in list.iter().enumerate() {
                total = match (index, &total, item) {
                    (0, _, item) => item.clone(),
                    (_, Value::Int(a), Value::Int(b)) => Value::Int(
                        a.checked_add(*b)
                            .ok_or_else(|| ftx.error("integer overflow"))?,
                    ),
                    (_, Value::UInt(a), Value::UInt(b)) => Value::UInt(
                        a.checked_add(*b)
                            .ok_or_else(|| ftx.error("integer overflow"))?,
                    ),
                    (_, Value::Float(a), Value::Float(b)) => Value::Float(a + b),
                    (_, Value::Duration(a), Value::Duration(b)) => Value::Duration(*a + *b),
                    _ => return Err(ftx.error("sum needs a list of numbers or durations")),
                };
            }
            Ok(total)
        },
    );
    for (name, wanted) in [("min", Ordering::Less), ("max", Ordering::Greater)] {
        add(
            context,
            name,
            move |ftx: &FunctionContext, This(list): This<Arc<Vec<Value>>>| -> Result<Value> {
                let mut best: Option<&Value> = None;
                for item in list.iter() {
                    if best.is_none_or(|best| {
                        compare(ftx, item, best).is_ok_and(|order| order == wanted)
                    }) {
                        best = Some(item);
                    }
                }
                best.cloned()
                    .ok_or_else(|| ftx.error(format!("{name} called on an empty list")))
            },
        );
    }
    // Regex.
    add(
        context,
        MATCHES,
        |ftx: &FunctionContext, text: Arc<String>, pattern: Arc<String>| -> Result<bool> {
            Ok(compiled(ftx, &pattern)?.is_match(&text))
        },
    );
    add(
        context,
        "find",
        |ftx: &FunctionContext,
         This(this): This<Arc<String>>,
         pattern: Arc<String>|
         -> Result<Value> {
            let regex = compiled(ftx, &pattern)?;
            Ok(Value::String(Arc::new(
                regex
                    .find(&this)
                    .map(|m| m.as_str().to_owned())
                    .unwrap_or_default(),
            )))
        },
    );
    add(
        context,
        "findAll",
        |ftx: &FunctionContext,
         This(this): This<Arc<String>>,
         Arguments(args): Arguments|
         -> Result<Value> {
            let pattern = match args.first() {
                Some(Value::String(pattern)) => pattern.clone(),
                _ => return Err(ftx.error("findAll needs a pattern")),
            };
            let limit = match args.get(1) {
                Some(Value::Int(limit)) if *limit >= 0 => *limit as usize,
                _ => usize::MAX,
            };
            let regex = compiled(ftx, &pattern)?;
            let found: Vec<Value> = regex
                .find_iter(&this)
                .take(limit)
                .map(|m| Value::String(Arc::new(m.as_str().to_owned())))
                .collect();
            Ok(Value::List(Arc::new(found)))
        },
    );
    // URLs.
    add(
        context,
        "url",
        |ftx: &FunctionContext, This(this): This<Arc<String>>| -> Result<Value> {
            net::parse_url(&this)
                .map(wrap)
                .map_err(|why| ftx.error(why))
        },
    );
    add(context, "isURL", |This(this): This<Arc<String>>| {
        net::parse_url(&this).is_ok()
    });
    type UrlPart = fn(&Url) -> String;
    let parts: [(&str, UrlPart); 5] = [
        ("getScheme", |url| url.scheme.clone()),
        ("getHost", |url| url.host.clone()),
        ("getHostname", |url| url.hostname().to_owned()),
        ("getPort", |url| url.port().to_owned()),
        ("getEscapedPath", |url| url.path.clone()),
    ];
    for (name, part) in parts {
        add(
            context,
            name,
            move |ftx: &FunctionContext, This(this): This<Value>| -> Result<Value> {
                let url = opaque::<Url>(&this).ok_or_else(|| ftx.error("expected a URL"))?;
                Ok(Value::String(Arc::new(part(url))))
            },
        );
    }
    add(
        context,
        "getQuery",
        |ftx: &FunctionContext, This(this): This<Value>| -> Result<Value> {
            let url = opaque::<Url>(&this).ok_or_else(|| ftx.error("expected a URL"))?;
            let mut query: HashMap<Key, Vec<Value>> = HashMap::new();
            for (key, value) in url.query_pairs() {
                query
                    .entry(Key::String(Arc::new(key)))
                    .or_default()
                    .push(Value::String(Arc::new(value)));
            }
            let map: HashMap<Key, Value> = query
                .into_iter()
                .map(|(key, values)| (key, Value::List(Arc::new(values))))
                .collect();
            Ok(Value::Map(Map { map: Arc::new(map) }))
        },
    );
    // Quantity.
    add(
        context,
        "quantity",
        |ftx: &FunctionContext, This(this): This<Arc<String>>| -> Result<Value> {
            Quantity::parse(&this)
                .map(wrap)
                .map_err(|why| ftx.error(why))
        },
    );
    add(context, "isQuantity", |This(this): This<Arc<String>>| {
        Quantity::parse(&this).is_ok()
    });
    add(
        context,
        "sign",
        |ftx: &FunctionContext, This(this): This<Value>| -> Result<i64> {
            Ok(quantity(ftx, &this)?.sign())
        },
    );
    add(
        context,
        "asInteger",
        |ftx: &FunctionContext, This(this): This<Value>| -> Result<i64> {
            quantity(ftx, &this)?
                .as_i64()
                .ok_or_else(|| ftx.error("cannot convert value to integer"))
        },
    );
    add(
        context,
        "isInteger",
        |ftx: &FunctionContext, This(this): This<Value>| -> Result<bool> {
            Ok(quantity(ftx, &this)?.is_integer())
        },
    );
    add(
        context,
        "asApproximateFloat",
        |ftx: &FunctionContext, This(this): This<Value>| -> Result<f64> {
            Ok(quantity(ftx, &this)?.as_f64())
        },
    );
    for (name, negate) in [("add", false), ("sub", true)] {
        add(
            context,
            name,
            move |ftx: &FunctionContext, This(this): This<Value>, other: Value| -> Result<Value> {
                let left = quantity(ftx, &this)?;
                let right = match &other {
                    Value::Int(integer) => Quantity::from_i64(*integer),
                    other => *quantity(ftx, other)?,
                };
                let right = if negate { right.negated() } else { right };
                left.add(&right)
                    .map(wrap)
                    .ok_or_else(|| ftx.error("quantity overflow"))
            },
        );
    }
    for (name, accepted) in [
        ("isGreaterThan", Ordering::Greater),
        ("isLessThan", Ordering::Less),
    ] {
        add(
            context,
            name,
            move |ftx: &FunctionContext, This(this): This<Value>, other: Value| -> Result<bool> {
                Ok(ordered(ftx, &this, &other)? == accepted)
            },
        );
    }
    add(
        context,
        "compareTo",
        |ftx: &FunctionContext, This(this): This<Value>, other: Value| -> Result<i64> {
            Ok(ordered(ftx, &this, &other)? as i64)
        },
    );
    // Semver.
    add(
        context,
        "semver",
        |ftx: &FunctionContext, Arguments(args): Arguments| -> Result<Value> {
            let (text, normalize) = semver_arguments(ftx, &args)?;
            Semver::parse(&text, normalize)
                .map(wrap)
                .map_err(|why| ftx.error(why))
        },
    );
    add(
        context,
        "isSemver",
        |ftx: &FunctionContext, Arguments(args): Arguments| -> Result<bool> {
            let (text, normalize) = semver_arguments(ftx, &args)?;
            Ok(Semver::parse(&text, normalize).is_ok())
        },
    );
    type Part = fn(&Semver) -> u64;
    let parts: [(&str, Part); 3] = [
        ("major", Semver::major),
        ("minor", Semver::minor),
        ("patch", Semver::patch),
    ];
    for (name, part) in parts {
        add(
            context,
            name,
            move |ftx: &FunctionContext, This(this): This<Value>| -> Result<i64> {
                let version =
                    opaque::<Semver>(&this).ok_or_else(|| ftx.error("expected a semver"))?;
                i64::try_from(part(version)).map_err(|_| ftx.error("integer overflow"))
            },
        );
    }
    // Sets.
    add(
        context,
        "sets.contains",
        |a: Arc<Vec<Value>>, b: Arc<Vec<Value>>| b.iter().all(|item| a.contains(item)),
    );
    add(
        context,
        "sets.equivalent",
        |a: Arc<Vec<Value>>, b: Arc<Vec<Value>>| {
            b.iter().all(|item| a.contains(item)) && a.iter().all(|item| b.contains(item))
        },
    );
    add(
        context,
        "sets.intersects",
        |a: Arc<Vec<Value>>, b: Arc<Vec<Value>>| b.iter().any(|item| a.contains(item)),
    );
    // IP and CIDR.
    add(
        context,
        "ip",
        |ftx: &FunctionContext, This(this): This<Value>| -> Result<Value> {
            match &this {
                Value::String(text) => net::parse_ip(text).map(wrap).map_err(|why| ftx.error(why)),
                other => match opaque::<Cidr>(other) {
                    Some(cidr) => Ok(wrap(Ip(cidr.address))),
                    None => Err(ftx.error("ip() takes a string or a CIDR")),
                },
            }
        },
    );
    add(context, "isIP", |This(this): This<Arc<String>>| {
        net::parse_ip(&this).is_ok()
    });
    add(
        context,
        "ip.isCanonical",
        |ftx: &FunctionContext, this: Arc<String>| -> Result<bool> {
            net::is_canonical(&this).map_err(|why| ftx.error(why))
        },
    );
    type IpTest = fn(&Ip) -> bool;
    let tests: [(&str, IpTest); 5] = [
        ("isUnspecified", |ip| ip.0.is_unspecified()),
        ("isLoopback", |ip| ip.0.is_loopback()),
        ("isLinkLocalMulticast", Ip::is_link_local_multicast),
        ("isLinkLocalUnicast", Ip::is_link_local_unicast),
        ("isGlobalUnicast", Ip::is_global_unicast),
    ];
    for (name, test) in tests {
        add(
            context,
            name,
            move |ftx: &FunctionContext, This(this): This<Value>| -> Result<bool> {
                opaque::<Ip>(&this)
                    .map(test)
                    .ok_or_else(|| ftx.error("expected an IP"))
            },
        );
    }
    add(
        context,
        "family",
        |ftx: &FunctionContext, This(this): This<Value>| -> Result<i64> {
            match (opaque::<Ip>(&this), opaque::<Cidr>(&this)) {
                (Some(ip), _) => Ok(ip.family()),
                (_, Some(cidr)) => Ok(Ip(cidr.address).family()),
                _ => Err(ftx.error("expected an IP or a CIDR")),
            }
        },
    );
    add(
        context,
        "cidr",
        |ftx: &FunctionContext, This(this): This<Arc<String>>| -> Result<Value> {
            net::parse_cidr(&this)
                .map(wrap)
                .map_err(|why| ftx.error(why))
        },
    );
    add(context, "isCIDR", |This(this): This<Arc<String>>| {
        net::parse_cidr(&this).is_ok()
    });
    add(
        context,
        "containsIP",
        |ftx: &FunctionContext, This(this): This<Value>, other: Value| -> Result<bool> {
            let cidr = opaque::<Cidr>(&this).ok_or_else(|| ftx.error("expected a CIDR"))?;
            let ip = match &other {
                Value::String(text) => net::parse_ip(text).map_err(|why| ftx.error(why))?,
                other => *opaque::<Ip>(other).ok_or_else(|| ftx.error("expected an IP"))?,
            };
            Ok(cidr.contains_ip(ip.0))
        },
    );
    add(
        context,
        "containsCIDR",
        |ftx: &FunctionContext, This(this): This<Value>, other: Value| -> Result<bool> {
            let cidr = opaque::<Cidr>(&this).ok_or_else(|| ftx.error("expected a CIDR"))?;
            let inner = match &other {
                Value::String(text) => net::parse_cidr(text).map_err(|why| ftx.error(why))?,
                other => *opaque::<Cidr>(other).ok_or_else(|| ftx.error("expected a CIDR"))?,
            };
            Ok(cidr.contains_cidr(&inner))
        },
    );
    add(
        context,
        "prefixLength",
        |ftx: &FunctionContext, This(this): This<Value>| -> Result<i64> {
            opaque::<Cidr>(&this)
                .map(|cidr| i64::from(cidr.prefix))
                .ok_or_else(|| ftx.error("expected a CIDR"))
        },
    );
    add(
        context,
        "masked",
        |ftx: &FunctionContext, This(this): This<Value>| -> Result<Value> {
            opaque::<Cidr>(&this)
                .map(|cidr| wrap(cidr.masked()))
                .ok_or_else(|| ftx.error("expected a CIDR"))
        },
    );
    // Format.
    add(context, "format.named", |this: Arc<String>| -> Value {
        match format::NAMES.iter().find(|name| **name == this.as_str()) {
            Some(name) => wrap(OptionalValue::of(wrap(Format(name)))),
            None => wrap(OptionalValue::none()),
        }
    });
    for name in format::NAMES {
        add(context, &format!("format.{name}"), move || {
            wrap(Format(name))
        });
    }
    add(
        context,
        "validate",
        |ftx: &FunctionContext, This(this): This<Value>, value: Arc<String>| -> Result<Value> {
            let named = opaque::<Format>(&this).ok_or_else(|| ftx.error("expected a format"))?;
            let errors = format::validate(named.0, &value);
            Ok(if errors.is_empty() {
                wrap(OptionalValue::none())
            } else {
                let errors = errors
                    .into_iter()
                    .map(|error| Value::String(Arc::new(error)))
                    .collect();
                wrap(OptionalValue::of(Value::List(Arc::new(errors))))
            })
        },
    );
}

/// A regular expression, compiled within the size bound `check` uses for
/// `pattern` (RE2 syntax, linear-time matching), once per thread.
fn compiled(ftx: &FunctionContext, pattern: &str) -> Result<std::rc::Rc<regex::Regex>> {
    crate::walk::compiled_pattern(pattern)
        .map_err(|why| ftx.error(format!("invalid regex {pattern:?}: {why}")))
}

fn quantity<'v>(ftx: &FunctionContext, value: &'v Value) -> Result<&'v Quantity> {
    opaque::<Quantity>(value).ok_or_else(|| ftx.error("expected a quantity"))
}

/// Orders two quantities (or two values CEL orders).
fn ordered(ftx: &FunctionContext, a: &Value, b: &Value) -> Result<Ordering> {
    if let (Some(a), Some(b)) = (opaque::<Semver>(a), opaque::<Semver>(b)) {
        return Ok(a.compare(b));
    }
    match (opaque::<Quantity>(a), opaque::<Quantity>(b)) {
        (Some(a), Some(b)) => Ok(a.compare(b)),
        _ => compare(ftx, a, b),
    }
}

/// The version text and the `normalize` flag of `semver(text)`,
/// `semver(text, normalize)` and the same of `isSemver`.
fn semver_arguments(ftx: &FunctionContext, args: &[Value]) -> Result<(Arc<String>, bool)> {
    match args {
        [Value::String(text)] => Ok((Arc::clone(text), false)),
        [Value::String(text), Value::Bool(normalize)] => Ok((Arc::clone(text), *normalize)),
        _ => Err(ftx.error("expected a string and an optional bool")),
    }
}

/// CEL's ordering of two values of one type.
fn compare(ftx: &FunctionContext, a: &Value, b: &Value) -> Result<Ordering> {
    match (a, b) {
        (Value::Int(a), Value::Int(b)) => Ok(a.cmp(b)),
        (Value::UInt(a), Value::UInt(b)) => Ok(a.cmp(b)),
        (Value::Float(a), Value::Float(b)) => a.partial_cmp(b).ok_or_else(|| ftx.error("NaN")),
        (Value::String(a), Value::String(b)) => Ok(a.cmp(b)),
        (Value::Bool(a), Value::Bool(b)) => Ok(a.cmp(b)),
        (Value::Bytes(a), Value::Bytes(b)) => Ok(a.cmp(b)),
        (Value::Duration(a), Value::Duration(b)) => Ok(a.cmp(b)),
        (Value::Timestamp(a), Value::Timestamp(b)) => Ok(a.cmp(b)),
        _ => Err(ftx.error(format!("{a:?} and {b:?} cannot be ordered"))),
    }
}

/// The lists library's `indexOf` and `lastIndexOf`, declared on the
/// environment beside the strings extension's overloads of the same names
/// (a context function cannot share a name with an overload).
pub fn register_list_overloads(
    env: &mut cel::Env,
) -> std::result::Result<(), cel::DeclarationError> {
    use cel::common::types::{DYN_TYPE, LIST_TYPE};
    env.add_member_overload(
        "indexOf",
        "list.indexOf(dyn)",
        LIST_TYPE,
        vec![DYN_TYPE],
        list_index_of,
    )?;
    env.add_member_overload(
        "lastIndexOf",
        "list.lastIndexOf(dyn)",
        LIST_TYPE,
        vec![DYN_TYPE],
        list_last_index_of,
    )
}

/// Where `args[1]` first (or last) is in the list `args[0]`, or -1.
fn position(args: &[cel::common::value::CowVal<'_, '_>], last: bool) -> Result<i64> {
    let (Some(list), Some(item)) = (args.first(), args.get(1)) else {
        return Err(ExecutionError::invalid_argument_count(2, args.len()));
    };
    let Value::List(items) = Value::try_from(list.as_ref())? else {
        return Err(ExecutionError::function_error("indexOf", "expected a list"));
    };
    let item = Value::try_from(item.as_ref())?;
    let found = if last {
        items.iter().rposition(|candidate| *candidate == item)
    } else {
        items.iter().position(|candidate| *candidate == item)
    };
    Ok(found.map_or(-1, |index| index as i64))
}

fn list_index_of<'b, 'v>(
    args: Vec<cel::common::value::CowVal<'b, 'v>>,
) -> Result<cel::common::value::CowVal<'b, 'v>> {
    let index = position(&args, false)?;
    Ok(cel::common::value::CowVal::owned(
        cel::common::types::CelInt::from(index),
    ))
}

fn list_last_index_of<'b, 'v>(
    args: Vec<cel::common::value::CowVal<'b, 'v>>,
) -> Result<cel::common::value::CowVal<'b, 'v>> {
    let index = position(&args, true)?;
    Ok(cel::common::value::CowVal::owned(
        cel::common::types::CelInt::from(index),
    ))
}
