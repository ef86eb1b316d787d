//! The implementations of vergate's own CEL functions: one `fn(context,
//! name) -> bool` per row of the function table ([`super::table`]) whose
//! implementation is [`Implementation::Vergate`](super::table::Implementation),
//! adding the function to a cel-rust [`Context`] under `name` (true when
//! added). Each takes its receiver as `This<Value>` and dispatches on
//! what it holds, as one name (`isGreaterThan`, `ip`) serves several types.

use super::format::{self, Format};
use super::net::{self, Cidr, Ip, Url};
use super::quantity::Quantity;
use super::semver::Semver;
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

/// Adds `function` to `context` as `name`; false when cel-rust already
/// declares the name (it keeps cel-rust's meaning). When its cost depends
/// on its values ([`super::table::is_sized`]), its sized call, which
/// charges that cost, calls this same implementation directly.
fn add<T: 'static, F>(context: &mut Context, name: &str, function: F) -> bool
where
    F: IntoFunction<T> + Send + Sync + 'static,
{
    if !super::table::is_sized(name) {
        return context.add_function(name, function).is_ok();
    }
    let function: Arc<RawFunction> = Arc::new(function.into_function());
    let shared = Arc::clone(&function);
    let plain: RawFunction = Box::new(move |ftx| shared(ftx));
    let added = context.add_function(name, plain).is_ok();
    if added {
        sized::register_direct(context, name, function);
    }
    added
}

/// Registers every function of the table that vergate implements
/// ([`super::table::FUNCTIONS`]) on `context`, with the machinery of
/// two-variable comprehensions and of sized calls.
pub fn register(context: &mut Context<'static, 'static>) {
    super::two_var::register(context);
    sized::register(context);
    for function in super::table::FUNCTIONS {
        if let super::table::Implementation::Vergate(implementation) = function.implementation {
            implementation(context, function.name);
        }
    }
}

/// The implementations, by library.
pub(super) mod imp {
    use super::*;

    /// A context and the name to add a function under.
    type Cx<'c> = &'c mut Context<'static, 'static>;

    // Lists.
    pub fn is_sorted(context: Cx<'_>, name: &'static str) -> bool {
        add(
            context,
            name,
            |ftx: &FunctionContext, This(list): This<Arc<Vec<Value>>>| -> Result<bool> {
                for pair in list.windows(2) {
                    if compare(ftx, &pair[0], &pair[1])? == Ordering::Greater {
                        return Ok(false);
                    }
                }
                Ok(true)
            },
        )
    }

    pub fn sum(context: Cx<'_>, name: &'static str) -> bool {
        add(
            context,
            name,
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
        )
    }

    pub fn min(context: Cx<'_>, name: &'static str) -> bool {
        extreme(context, name, Ordering::Less)
    }

    pub fn max(context: Cx<'_>, name: &'static str) -> bool {
        extreme(context, name, Ordering::Greater)
    }

    fn extreme(context: Cx<'_>, name: &'static str, wanted: Ordering) -> bool {
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
        )
    }

    // Regex.
    /// `matches`, under [`MATCHES`]: the rule's calls are rewritten to it.
    pub fn matches(context: Cx<'_>, _name: &'static str) -> bool {
        add(
            context,
            MATCHES,
            |ftx: &FunctionContext, text: Arc<String>, pattern: Arc<String>| -> Result<bool> {
                Ok(compiled(ftx, &pattern)?.is_match(&text))
            },
        )
    }

    pub fn find(context: Cx<'_>, name: &'static str) -> bool {
        add(
            context,
            name,
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
        )
    }

    pub fn find_all(context: Cx<'_>, name: &'static str) -> bool {
        add(
            context,
            name,
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
        )
    }

    // URLs.
    pub fn url(context: Cx<'_>, name: &'static str) -> bool {
        add(
            context,
            name,
            |ftx: &FunctionContext, This(this): This<Arc<String>>| -> Result<Value> {
                net::parse_url(&this)
                    .map(wrap)
                    .map_err(|why| ftx.error(why))
            },
        )
    }

    pub fn is_url(context: Cx<'_>, name: &'static str) -> bool {
        add(context, name, |This(this): This<Arc<String>>| {
            net::parse_url(&this).is_ok()
        })
    }

    fn url_part(context: Cx<'_>, name: &'static str, part: fn(&Url) -> String) -> bool {
        add(
            context,
            name,
            move |ftx: &FunctionContext, This(this): This<Value>| -> Result<Value> {
                let url = opaque::<Url>(&this).ok_or_else(|| ftx.error("expected a URL"))?;
                Ok(Value::String(Arc::new(part(url))))
            },
        )
    }

    pub fn get_scheme(context: Cx<'_>, name: &'static str) -> bool {
        url_part(context, name, |url| url.scheme.clone())
    }

    pub fn get_host(context: Cx<'_>, name: &'static str) -> bool {
        url_part(context, name, |url| url.host.clone())
    }

    pub fn get_hostname(context: Cx<'_>, name: &'static str) -> bool {
        url_part(context, name, |url| url.hostname().to_owned())
    }

    pub fn get_port(context: Cx<'_>, name: &'static str) -> bool {
        url_part(context, name, |url| url.port().to_owned())
    }

    pub fn get_escaped_path(context: Cx<'_>, name: &'static str) -> bool {
        url_part(context, name, |url| url.path.clone())
    }

    pub fn get_query(context: Cx<'_>, name: &'static str) -> bool {
        add(
            context,
            name,
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
        )
    }

    // Quantity.
    pub fn quantity(context: Cx<'_>, name: &'static str) -> bool {
        add(
            context,
            name,
            |ftx: &FunctionContext, This(this): This<Arc<String>>| -> Result<Value> {
                Quantity::parse(&this)
                    .map(wrap)
                    .map_err(|why| ftx.error(why))
            },
        )
    }

    pub fn is_quantity(context: Cx<'_>, name: &'static str) -> bool {
        add(context, name, |This(this): This<Arc<String>>| {
            Quantity::parse(&this).is_ok()
        })
    }

    pub fn sign(context: Cx<'_>, name: &'static str) -> bool {
        add(
            context,
            name,
            |ftx: &FunctionContext, This(this): This<Value>| -> Result<i64> {
                Ok(super::quantity(ftx, &this)?.sign())
            },
        )
    }

    pub fn as_integer(context: Cx<'_>, name: &'static str) -> bool {
        add(
            context,
            name,
            |ftx: &FunctionContext, This(this): This<Value>| -> Result<i64> {
                super::quantity(ftx, &this)?
                    .as_i64()
                    .ok_or_else(|| ftx.error("cannot convert value to integer"))
            },
        )
    }

    pub fn is_integer(context: Cx<'_>, name: &'static str) -> bool {
        add(
            context,
            name,
            |ftx: &FunctionContext, This(this): This<Value>| -> Result<bool> {
                Ok(super::quantity(ftx, &this)?.is_integer())
            },
        )
    }

    pub fn as_approximate_float(context: Cx<'_>, name: &'static str) -> bool {
        add(
            context,
            name,
            |ftx: &FunctionContext, This(this): This<Value>| -> Result<f64> {
                Ok(super::quantity(ftx, &this)?.as_f64())
            },
        )
    }

    pub fn add_quantity(context: Cx<'_>, name: &'static str) -> bool {
        sum_of(context, name, false)
    }

    pub fn sub_quantity(context: Cx<'_>, name: &'static str) -> bool {
        sum_of(context, name, true)
    }

    fn sum_of(context: Cx<'_>, name: &'static str, negate: bool) -> bool {
        add(
            context,
            name,
            move |ftx: &FunctionContext, This(this): This<Value>, other: Value| -> Result<Value> {
                let left = super::quantity(ftx, &this)?;
                let right = match &other {
                    Value::Int(integer) => Quantity::from_i64(*integer),
                    other => *super::quantity(ftx, other)?,
                };
                let right = if negate { right.negated() } else { right };
                left.add(&right)
                    .map(wrap)
                    .ok_or_else(|| ftx.error("quantity overflow"))
            },
        )
    }

    pub fn is_greater_than(context: Cx<'_>, name: &'static str) -> bool {
        is_ordered(context, name, Ordering::Greater)
    }

    pub fn is_less_than(context: Cx<'_>, name: &'static str) -> bool {
        is_ordered(context, name, Ordering::Less)
    }

    fn is_ordered(context: Cx<'_>, name: &'static str, accepted: Ordering) -> bool {
        add(
            context,
            name,
            move |ftx: &FunctionContext, This(this): This<Value>, other: Value| -> Result<bool> {
                Ok(ordered(ftx, &this, &other)? == accepted)
            },
        )
    }

    pub fn compare_to(context: Cx<'_>, name: &'static str) -> bool {
        add(
            context,
            name,
            |ftx: &FunctionContext, This(this): This<Value>, other: Value| -> Result<i64> {
                Ok(ordered(ftx, &this, &other)? as i64)
            },
        )
    }

    // Semver.
    pub fn semver(context: Cx<'_>, name: &'static str) -> bool {
        add(
            context,
            name,
            |ftx: &FunctionContext, Arguments(args): Arguments| -> Result<Value> {
                let (text, normalize) = semver_arguments(ftx, &args)?;
                Semver::parse(&text, normalize)
                    .map(wrap)
                    .map_err(|why| ftx.error(why))
            },
        )
    }

    pub fn is_semver(context: Cx<'_>, name: &'static str) -> bool {
        add(
            context,
            name,
            |ftx: &FunctionContext, Arguments(args): Arguments| -> Result<bool> {
                let (text, normalize) = semver_arguments(ftx, &args)?;
                Ok(Semver::parse(&text, normalize).is_ok())
            },
        )
    }

    fn semver_part(context: Cx<'_>, name: &'static str, part: fn(&Semver) -> u64) -> bool {
        add(
            context,
            name,
            move |ftx: &FunctionContext, This(this): This<Value>| -> Result<i64> {
                let version =
                    opaque::<Semver>(&this).ok_or_else(|| ftx.error("expected a semver"))?;
                i64::try_from(part(version)).map_err(|_| ftx.error("integer overflow"))
            },
        )
    }

    pub fn major(context: Cx<'_>, name: &'static str) -> bool {
        semver_part(context, name, Semver::major)
    }

    pub fn minor(context: Cx<'_>, name: &'static str) -> bool {
        semver_part(context, name, Semver::minor)
    }

    pub fn patch(context: Cx<'_>, name: &'static str) -> bool {
        semver_part(context, name, Semver::patch)
    }

    // Sets.
    pub fn sets_contains(context: Cx<'_>, name: &'static str) -> bool {
        add(context, name, |a: Arc<Vec<Value>>, b: Arc<Vec<Value>>| {
            b.iter().all(|item| a.contains(item))
        })
    }

    pub fn sets_equivalent(context: Cx<'_>, name: &'static str) -> bool {
        add(context, name, |a: Arc<Vec<Value>>, b: Arc<Vec<Value>>| {
            b.iter().all(|item| a.contains(item)) && a.iter().all(|item| b.contains(item))
        })
    }

    pub fn sets_intersects(context: Cx<'_>, name: &'static str) -> bool {
        add(context, name, |a: Arc<Vec<Value>>, b: Arc<Vec<Value>>| {
            b.iter().any(|item| a.contains(item))
        })
    }

    // IP and CIDR.
    pub fn ip(context: Cx<'_>, name: &'static str) -> bool {
        add(
            context,
            name,
            |ftx: &FunctionContext, This(this): This<Value>| -> Result<Value> {
                match &this {
                    Value::String(text) => {
                        net::parse_ip(text).map(wrap).map_err(|why| ftx.error(why))
                    }
                    other => match opaque::<Cidr>(other) {
                        Some(cidr) => Ok(wrap(Ip(cidr.address))),
                        None => Err(ftx.error("ip() takes a string or a CIDR")),
                    },
                }
            },
        )
    }

    pub fn is_ip(context: Cx<'_>, name: &'static str) -> bool {
        add(context, name, |This(this): This<Arc<String>>| {
            net::parse_ip(&this).is_ok()
        })
    }

    pub fn ip_is_canonical(context: Cx<'_>, name: &'static str) -> bool {
        add(
            context,
            name,
            |ftx: &FunctionContext, this: Arc<String>| -> Result<bool> {
                net::is_canonical(&this).map_err(|why| ftx.error(why))
            },
        )
    }

    fn ip_test(context: Cx<'_>, name: &'static str, test: fn(&Ip) -> bool) -> bool {
        add(
            context,
            name,
            move |ftx: &FunctionContext, This(this): This<Value>| -> Result<bool> {
                opaque::<Ip>(&this)
                    .map(test)
                    .ok_or_else(|| ftx.error("expected an IP"))
            },
        )
    }

    pub fn is_unspecified(context: Cx<'_>, name: &'static str) -> bool {
        ip_test(context, name, |ip| ip.0.is_unspecified())
    }

    pub fn is_loopback(context: Cx<'_>, name: &'static str) -> bool {
        ip_test(context, name, |ip| ip.0.is_loopback())
    }

    pub fn is_link_local_multicast(context: Cx<'_>, name: &'static str) -> bool {
        ip_test(context, name, Ip::is_link_local_multicast)
    }

    pub fn is_link_local_unicast(context: Cx<'_>, name: &'static str) -> bool {
        ip_test(context, name, Ip::is_link_local_unicast)
    }

    pub fn is_global_unicast(context: Cx<'_>, name: &'static str) -> bool {
        ip_test(context, name, Ip::is_global_unicast)
    }

    pub fn family(context: Cx<'_>, name: &'static str) -> bool {
        add(
            context,
            name,
            |ftx: &FunctionContext, This(this): This<Value>| -> Result<i64> {
                match (opaque::<Ip>(&this), opaque::<Cidr>(&this)) {
                    (Some(ip), _) => Ok(ip.family()),
                    (_, Some(cidr)) => Ok(Ip(cidr.address).family()),
                    _ => Err(ftx.error("expected an IP or a CIDR")),
                }
            },
        )
    }

    pub fn cidr(context: Cx<'_>, name: &'static str) -> bool {
        add(
            context,
            name,
            |ftx: &FunctionContext, This(this): This<Arc<String>>| -> Result<Value> {
                net::parse_cidr(&this)
                    .map(wrap)
                    .map_err(|why| ftx.error(why))
            },
        )
    }

    pub fn is_cidr(context: Cx<'_>, name: &'static str) -> bool {
        add(context, name, |This(this): This<Arc<String>>| {
            net::parse_cidr(&this).is_ok()
        })
    }

    pub fn contains_ip(context: Cx<'_>, name: &'static str) -> bool {
        add(
            context,
            name,
            |ftx: &FunctionContext, This(this): This<Value>, other: Value| -> Result<bool> {
                let cidr = opaque::<Cidr>(&this).ok_or_else(|| ftx.error("expected a CIDR"))?;
                let ip = match &other {
                    Value::String(text) => net::parse_ip(text).map_err(|why| ftx.error(why))?,
                    other => *opaque::<Ip>(other).ok_or_else(|| ftx.error("expected an IP"))?,
                };
                Ok(cidr.contains_ip(ip.0))
            },
        )
    }

    pub fn contains_cidr(context: Cx<'_>, name: &'static str) -> bool {
        add(
            context,
            name,
            |ftx: &FunctionContext, This(this): This<Value>, other: Value| -> Result<bool> {
                let cidr = opaque::<Cidr>(&this).ok_or_else(|| ftx.error("expected a CIDR"))?;
                let inner = match &other {
                    Value::String(text) => net::parse_cidr(text).map_err(|why| ftx.error(why))?,
                    other => *opaque::<Cidr>(other).ok_or_else(|| ftx.error("expected a CIDR"))?,
                };
                Ok(cidr.contains_cidr(&inner))
            },
        )
    }

    pub fn prefix_length(context: Cx<'_>, name: &'static str) -> bool {
        add(
            context,
            name,
            |ftx: &FunctionContext, This(this): This<Value>| -> Result<i64> {
                opaque::<Cidr>(&this)
                    .map(|cidr| i64::from(cidr.prefix))
                    .ok_or_else(|| ftx.error("expected a CIDR"))
            },
        )
    }

    pub fn masked(context: Cx<'_>, name: &'static str) -> bool {
        add(
            context,
            name,
            |ftx: &FunctionContext, This(this): This<Value>| -> Result<Value> {
                opaque::<Cidr>(&this)
                    .map(|cidr| wrap(cidr.masked()))
                    .ok_or_else(|| ftx.error("expected a CIDR"))
            },
        )
    }

    // Format.
    pub fn format_named(context: Cx<'_>, name: &'static str) -> bool {
        add(context, name, |this: Arc<String>| -> Value {
            match format::NAMES.iter().find(|name| **name == this.as_str()) {
                Some(name) => wrap(OptionalValue::of(wrap(Format(name)))),
                None => wrap(OptionalValue::none()),
            }
        })
    }

    /// `format.<name>()`: the named format of the row's name.
    pub fn format_constant(context: Cx<'_>, name: &'static str) -> bool {
        let Some(format): Option<&'static str> = name
            .strip_prefix("format.")
            .and_then(|named| format::NAMES.into_iter().find(|known| *known == named))
        else {
            return false;
        };
        add(context, name, move || wrap(Format(format)))
    }

    pub fn validate(context: Cx<'_>, name: &'static str) -> bool {
        add(
            context,
            name,
            |ftx: &FunctionContext, This(this): This<Value>, value: Arc<String>| -> Result<Value> {
                let named =
                    opaque::<Format>(&this).ok_or_else(|| ftx.error("expected a format"))?;
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
        )
    }
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
