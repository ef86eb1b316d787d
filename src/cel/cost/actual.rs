//! What one call costs when it runs (its *actual* cost), from the values
//! it is given: cel-go's extension libraries' trackers (`ext/sets.go`,
//! `ext/lists.go`), then the Kubernetes libraries' `CallCost`
//! (k8s.io/apiserver `pkg/cel/library/cost.go`), then cel-go's own
//! (`interpreter/runtimecost.go` `costCall`), else 1: the order cel-go
//! consults them in. The factors are the estimate's ([`super::est`]).
//!
//! `args` holds the target first for a member call, as cel-go passes it.

use super::est::{LIST_CREATE, REGEX_LENGTH, STRING_TRAVERSAL};
use cel::common::types::{CelBytes, CelInt, CelString, Kind};
use cel::common::value::Val;

/// The call names whose cost depends on their values (every other call
/// costs 1): the calls the instrumented rule routes through the sized
/// wrappers ([`crate::cel::sized`]).
pub const SIZED_CALLS: &[&str] = &[
    // cel-go's standard library and strings extension.
    "startsWith",
    "endsWith",
    "contains",
    "bytes",
    "string",
    "strings.quote",
    "format",
    crate::cel::library::MATCHES,
    // cel-go's sets and lists extensions.
    "sets.contains",
    "sets.intersects",
    "sets.equivalent",
    "slice",
    "flatten",
    "lists.range",
    "reverse",
    "distinct",
    "sort",
    "@sortByAssociatedKeys",
    // The Kubernetes libraries.
    "isSorted",
    "sum",
    "max",
    "min",
    "indexOf",
    "lastIndexOf",
    "includes",
    "url",
    "lowerAscii",
    "upperAscii",
    "substring",
    "trim",
    "jsonpatch.escapeKey",
    "replace",
    "split",
    "join",
    "find",
    "findAll",
    "cidr",
    "isIP",
    "isCIDR",
    "ip",
    "ip.isCanonical",
    "containsIP",
    "containsCIDR",
    "quantity",
    "isQuantity",
    "semver",
    "isSemver",
    "validate",
];

/// cel-go's `callCost`: the dispatch of a call and nothing else.
const CALL: u64 = 1;

/// The largest regular expression of each named format (`MaxRegexSize` of
/// k8s.io/apiserver `pkg/cel/library/format.go`), by the name vergate's
/// format library gives it.
const FORMAT_REGEX_SIZES: [(&str, u64); 13] = [
    ("dns1123Label", 30),
    ("dns1123Subdomain", 60),
    ("dns1035Label", 30),
    ("qualifiedName", 60),
    ("dns1123LabelPrefix", 30),
    ("dns1123SubdomainPrefix", 60),
    ("dns1035LabelPrefix", 30),
    ("labelValue", 40),
    ("uri", 1103),
    ("uuid", 70),
    ("byte", 84),
    ("date", 71),
    ("datetime", 71),
];

/// A value's size as cel-go's `actualSize` takes it: a string's code
/// points, the bytes, items or entries of the others that have one, else 1.
pub fn size(value: &dyn Val) -> u64 {
    match value.as_sizer() {
        Some(sizer) => (*sizer.size().inner()).max(0) as u64,
        None => 1,
    }
}

/// Kubernetes' `traversalCost`: a tenth of each string's or bytes' length
/// (in bytes, rounded down), 1 for any other scalar, summed over a list's
/// items and a map's keys and values.
pub fn traversal(value: &dyn Val) -> u64 {
    if let Some(text) = value.downcast_ref::<CelString>() {
        return (text.inner().len() as f64 * STRING_TRAVERSAL) as u64;
    }
    if let Some(bytes) = value.downcast_ref::<CelBytes>() {
        return (bytes.inner().len() as f64 * STRING_TRAVERSAL) as u64;
    }
    match value.get_type().kind() {
        Kind::List => iterate(value, |item| traversal(item)),
        Kind::Map => {
            let Some(indexer) = value.as_indexer() else {
                return 1;
            };
            iterate(value, |key| {
                let entry = indexer
                    .get(key)
                    .map_or(1, |entry| traversal(entry.as_ref()));
                traversal(key).saturating_add(entry)
            })
        }
        _ => 1,
    }
}

fn iterate(value: &dyn Val, cost: impl Fn(&dyn Val) -> u64) -> u64 {
    let Some(iterable) = value.as_iterable() else {
        return 1;
    };
    let mut items = iterable.iter();
    let mut sum = 0u64;
    while let Some(item) = items.next() {
        sum = sum.saturating_add(cost(item));
    }
    sum
}

fn is_kind(value: Option<&&dyn Val>, kind: Kind) -> bool {
    value.is_some_and(|value| value.get_type().kind() == kind)
}

/// `ceil(units × factor)`, saturating.
fn ceil(units: u64, factor: f64) -> u64 {
    (units as f64 * factor).ceil() as u64
}

/// cel-go's cost of a regular expression match: the text walked once per
/// expected expression of the pattern.
fn regex_cost(text: u64, pattern: u64) -> u64 {
    let text = ceil(text.saturating_add(1), STRING_TRAVERSAL);
    let pattern = ceil(pattern, REGEX_LENGTH);
    text.saturating_mul(pattern)
}

/// The actual cost of calling `name` on `args` (target first), given the
/// size of its result when the cost depends on it (`join`, the lists that
/// `slice`, `lists.range` and `reverse` build).
pub fn call(name: &str, args: &[&dyn Val], result_size: Option<u64>) -> u64 {
    let first = || args.first().map_or(1, |arg| size(*arg));
    let second = || args.get(1).map_or(1, |arg| size(*arg));
    let traversed = |factor: f64| ceil(first(), factor);
    // cel-go's extension trackers (`OverloadCostTracker`) come first.
    let allocating = |factor: f64, items: u64| {
        ((items as f64 * factor) as u64)
            .saturating_add(CALL)
            .saturating_add(LIST_CREATE)
    };
    let self_compare = |list: Option<&&dyn Val>| {
        let Some(list) = list else {
            return allocating(2.0, 0);
        };
        let items = size(*list);
        let mut factor = 2.0;
        let first = list.as_iterable().and_then(|list| {
            let mut items = list.iter();
            items.next().map(|item| item.get_type().kind())
        });
        if matches!(first, Some(Kind::String | Kind::Bytes)) {
            factor += STRING_TRAVERSAL;
        }
        allocating(factor, items.saturating_mul(items))
    };
    match name {
        "sets.contains" | "sets.intersects" | "sets.equivalent" => {
            let factor = if name == "sets.equivalent" { 2.0 } else { 1.0 };
            return CALL.saturating_add((first().saturating_mul(second()) as f64 * factor) as u64);
        }
        "slice" | "lists.range" => return allocating(1.0, result_size.unwrap_or(0)),
        "reverse" if is_kind(args.first(), Kind::List) => {
            return allocating(1.0, result_size.unwrap_or(0))
        }
        "flatten" => {
            let depth = args
                .get(1)
                .and_then(|depth| depth.downcast_ref::<CelInt>())
                .map_or(1.0, |depth| *depth.inner() as f64);
            return allocating(depth, first());
        }
        "distinct" | "sort" => return self_compare(args.first()),
        "@sortByAssociatedKeys" => return self_compare(args.get(1)),
        _ => {}
    }
    // The Kubernetes libraries' `CallCost`, by function name.
    match name {
        "isSorted" | "sum" | "max" | "min" | "indexOf" | "lastIndexOf" | "includes" => {
            return args.first().map_or(0, |arg| traversal(*arg));
        }
        "url"
        | "lowerAscii"
        | "upperAscii"
        | "substring"
        | "trim"
        | "jsonpatch.escapeKey"
        | "cidr"
        | "isIP"
        | "isCIDR"
        | "quantity"
        | "isQuantity"
        | "semver"
        | "isSemver"
            if !args.is_empty() =>
        {
            return traversed(STRING_TRAVERSAL);
        }
        "replace" | "split" | "ip.isCanonical" if !args.is_empty() => {
            return traversed(2.0 * STRING_TRAVERSAL)
        }
        "join" if !args.is_empty() => {
            return ceil(result_size.unwrap_or(0), 2.0 * STRING_TRAVERSAL);
        }
        "find" | "findAll" if args.len() >= 2 => return regex_cost(first(), second()),
        // The IP of a CIDR is a field read; of a string, a parse.
        "ip" if is_kind(args.first(), Kind::String) => return traversed(STRING_TRAVERSAL),
        "ip" => return 1,
        "containsIP" | "containsCIDR" if args.len() >= 2 => {
            let cidr = first();
            let mut cost = ceil(cidr.saturating_add(cidr), STRING_TRAVERSAL);
            if name == "containsCIDR" {
                cost = cost
                    .saturating_add(ceil(cidr, STRING_TRAVERSAL))
                    .saturating_add(1);
            }
            if is_kind(args.get(1), Kind::String) {
                cost = cost.saturating_add(ceil(second(), STRING_TRAVERSAL));
            }
            return cost;
        }
        "validate" if args.len() >= 2 => {
            if let Some(regex) = format_regex_size(args[0]) {
                return regex_cost(second(), regex);
            }
        }
        _ => {}
    }
    // cel-go's own: the overloads whose cost is not 1.
    match name {
        "startsWith" | "endsWith" | "strings.quote" | "format" if !args.is_empty() => {
            traversed(STRING_TRAVERSAL)
        }
        "bytes" if is_kind(args.first(), Kind::String) => traversed(STRING_TRAVERSAL),
        "string" if is_kind(args.first(), Kind::Bytes) => traversed(STRING_TRAVERSAL),
        crate::cel::library::MATCHES if args.len() == 2 => regex_cost(first(), second()),
        "contains" if args.len() == 2 && is_kind(args.first(), Kind::String) => {
            ceil(first(), STRING_TRAVERSAL).saturating_mul(ceil(second(), STRING_TRAVERSAL))
        }
        _ => CALL,
    }
}

/// The largest regular expression of the named format `value`, when it is
/// one.
fn format_regex_size(value: &dyn Val) -> Option<u64> {
    let value = cel::objects::Value::try_from(value).ok()?;
    let cel::objects::Value::Opaque(opaque) = value else {
        return None;
    };
    let format = opaque.downcast_ref::<crate::cel::library::format::Format>()?;
    FORMAT_REGEX_SIZES
        .iter()
        .find(|(name, _)| *name == format.0)
        .map(|(_, size)| *size)
}

/// The actual cost of an operator whose cost depends on its operands
/// (cel-go's `costCall` for `==`, `!=`, the orderings, `+` and `in`).
pub fn operator(operator: Operator, left: &dyn Val, right: &dyn Val) -> u64 {
    let textual = |value: &dyn Val| matches!(value.get_type().kind(), Kind::String | Kind::Bytes);
    match operator {
        Operator::Equality => ceil(size(left).min(size(right)), STRING_TRAVERSAL),
        Operator::Ordering if textual(left) && textual(right) => {
            ceil(size(left).min(size(right)), STRING_TRAVERSAL)
        }
        Operator::Add if textual(left) && textual(right) => {
            ceil(size(left).saturating_add(size(right)), STRING_TRAVERSAL)
        }
        Operator::In if right.get_type().kind() == Kind::List => size(right),
        _ => CALL,
    }
}

/// The operators [`operator`] costs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operator {
    /// `==`, `!=`.
    Equality,
    /// `<`, `<=`, `>`, `>=`.
    Ordering,
    Add,
    In,
}

#[cfg(test)]
mod tests {
    use super::*;
    use cel::common::types::{CelList, CelString};

    #[test]
    fn costs_follow_the_sizes_as_cel_go_and_kubernetes_count_them() {
        let text = CelString::from("a".repeat(500));
        let short = CelString::from("abc");
        // `ceil(0.1 × 500) × ceil(0.1 × 500)`.
        assert_eq!(call("contains", &[&text, &text], None), 2500);
        // The receiver's length, not the prefix's.
        assert_eq!(call("startsWith", &[&short, &text], None), 1);
        assert_eq!(call("replace", &[&text, &short, &short], None), 100);
        assert_eq!(call("join", &[&text], Some(1000)), 200);
        assert_eq!(call("size", &[&text], None), 1);
        let list = CelList::from(vec![
            Box::new(CelString::from("x".repeat(25))) as Box<dyn Val>,
            Box::new(CelInt::from(1)),
        ]);
        // 25 × 0.1 rounded down, and 1 for the int.
        assert_eq!(call("isSorted", &[&list], None), 3);
        assert_eq!(operator(Operator::In, &short, &list), 2);
        assert_eq!(operator(Operator::Add, &short, &text), 51);
        assert_eq!(
            operator(Operator::Add, &CelInt::from(1), &CelInt::from(2)),
            1
        );
    }
}
