//! What one call costs when it runs (its *actual* cost), from the values
//! it is given, by the [`Cost`] of its function's row in the function
//! table: cel-go's extension libraries' trackers (`ext/sets.go`,
//! `ext/lists.go`), the Kubernetes libraries' `CallCost` (k8s.io/apiserver
//! `pkg/cel/library/cost.go`) or cel-go's own (`interpreter/runtimecost.go`
//! `costCall`), else 1. The factors are the estimate's ([`super::est`]).
//!
//! `args` holds the target first for a member call, as cel-go passes it.

use super::est::{LIST_CREATE, REGEX_LENGTH, STRING_TRAVERSAL};
use crate::cel::library::table::{self, Cost};
use cel::common::types::{CelBytes, CelInt, CelString, Kind};
use cel::common::value::Val;

/// The call names whose cost depends on their values (every other call
/// costs 1): the calls the instrumented rule routes through the sized
/// wrappers ([`crate::cel::sized`]), from the function table.
pub use crate::cel::library::table::SIZED_CALLS;

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
/// `slice`, `lists.range` and `reverse` build); 1 for a name the function
/// table lacks.
pub fn call(name: &str, args: &[&dyn Val], result_size: Option<u64>) -> u64 {
    match table::function(name) {
        Some(function) => by_cost(function.cost, args, result_size),
        None => CALL,
    }
}

/// The actual cost of a call of a function costed `cost`. A call of a
/// shape the formula does not take (too few values) costs 1.
fn by_cost(cost: Cost, args: &[&dyn Val], result_size: Option<u64>) -> u64 {
    let first = || args.first().map_or(1, |arg| size(*arg));
    let second = || args.get(1).map_or(1, |arg| size(*arg));
    let traversed = |factor: f64| ceil(first(), factor);
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
    match cost {
        Cost::One => CALL,
        // cel-go's extension trackers (`OverloadCostTracker`).
        Cost::Sets { twice } => {
            let factor = if twice { 2.0 } else { 1.0 };
            CALL.saturating_add((first().saturating_mul(second()) as f64 * factor) as u64)
        }
        Cost::Slice | Cost::Range => allocating(1.0, result_size.unwrap_or(0)),
        Cost::Reverse if is_kind(args.first(), Kind::List) => {
            allocating(1.0, result_size.unwrap_or(0))
        }
        Cost::Flatten => {
            let depth = args
                .get(1)
                .and_then(|depth| depth.downcast_ref::<CelInt>())
                .map_or(1.0, |depth| *depth.inner() as f64);
            allocating(depth, first())
        }
        Cost::Distinct | Cost::Sort => self_compare(args.first()),
        Cost::SortByKeys => self_compare(args.get(1)),
        // The Kubernetes libraries' `CallCost`.
        Cost::ListItems | Cost::Includes => args.first().map_or(0, |arg| traversal(*arg)),
        Cost::Url | Cost::CopyText | Cost::EscapeKey | Cost::Parse if !args.is_empty() => {
            traversed(STRING_TRAVERSAL)
        }
        Cost::Replace | Cost::Split | Cost::IpCanonical if !args.is_empty() => {
            traversed(2.0 * STRING_TRAVERSAL)
        }
        Cost::Join if !args.is_empty() => ceil(result_size.unwrap_or(0), 2.0 * STRING_TRAVERSAL),
        Cost::Find if args.len() >= 2 => regex_cost(first(), second()),
        Cost::Matches if args.len() == 2 => regex_cost(first(), second()),
        // The IP of a CIDR is a field read; of a string, a parse.
        Cost::Ip if is_kind(args.first(), Kind::String) => traversed(STRING_TRAVERSAL),
        Cost::ContainsIp | Cost::ContainsCidr if args.len() >= 2 => {
            let cidr = first();
            let mut total = ceil(cidr.saturating_add(cidr), STRING_TRAVERSAL);
            if cost == Cost::ContainsCidr {
                total = total
                    .saturating_add(ceil(cidr, STRING_TRAVERSAL))
                    .saturating_add(1);
            }
            if is_kind(args.get(1), Kind::String) {
                total = total.saturating_add(ceil(second(), STRING_TRAVERSAL));
            }
            total
        }
        Cost::Validate if args.len() >= 2 => match format_regex_size(args[0]) {
            Some(regex) => regex_cost(second(), regex),
            None => CALL,
        },
        // cel-go's own: the overloads whose cost is not 1.
        Cost::PrefixSuffix | Cost::Quote | Cost::Format if !args.is_empty() => {
            traversed(STRING_TRAVERSAL)
        }
        Cost::ToBytes if is_kind(args.first(), Kind::String) => traversed(STRING_TRAVERSAL),
        Cost::ToString if is_kind(args.first(), Kind::Bytes) => traversed(STRING_TRAVERSAL),
        Cost::StringContains if args.len() == 2 && is_kind(args.first(), Kind::String) => {
            ceil(first(), STRING_TRAVERSAL).saturating_mul(ceil(second(), STRING_TRAVERSAL))
        }
        Cost::Reverse
        | Cost::Url
        | Cost::CopyText
        | Cost::EscapeKey
        | Cost::Parse
        | Cost::Replace
        | Cost::Split
        | Cost::IpCanonical
        | Cost::Join
        | Cost::Find
        | Cost::Matches
        | Cost::Ip
        | Cost::ContainsIp
        | Cost::ContainsCidr
        | Cost::Validate
        | Cost::PrefixSuffix
        | Cost::Quote
        | Cost::Format
        | Cost::ToBytes
        | Cost::ToString
        | Cost::StringContains => CALL,
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
