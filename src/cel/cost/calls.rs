//! What one call costs, estimated: a function's by the [`Cost`] of its row
//! in the function table ([`crate::cel::library::table`]: cel-go's
//! extension libraries' estimates, the Kubernetes libraries'
//! (k8s.io/apiserver `pkg/cel/library/cost.go`) and cel-go's own for the
//! standard library's functions), an operator's by cel-go's overloads
//! (`checker/cost.go` `functionCost`), else 1. Each adds the cost of the
//! arguments; the target's is added by the caller.

use super::arg::{Arg, Entries};
use super::est::{Est, REGEX_LENGTH, STRING_TRAVERSAL};
use super::ty::Ty;
use crate::cel::library::table::{self, Cost};
use cel::common::ast::{Expr, LiteralValue};
use cel::IdedExpr;

/// The largest regular expression of a named format (`MaxNameFormatRegexSize`).
const MAX_NAME_FORMAT_REGEX: f64 = 128.0;
/// The largest format value (`MaxFormatSize`).
const MAX_FORMAT_SIZE: u64 = 64;

/// The operators' overloads whose cost differs; `Other` is any else (and
/// every function, costed by its row).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Overload {
    AddString,
    AddBytes,
    AddList,
    IndexList,
    IndexMap,
    Equals,
    CompareString,
    InList,
    Logical,
    Conditional,
    Other,
}

/// What a call's estimate gives.
pub struct CallEstimate {
    pub cost: Est,
    pub result_size: Option<Est>,
    pub entries: Option<Entries>,
}

/// Sizes from the estimator.
pub struct Context<'c> {
    pub size: &'c dyn Fn(&Arg<'_>) -> Est,
    pub entries: &'c dyn Fn(&IdedExpr) -> Option<Entries>,
}

/// A test of a type, and the overload it selects.
type Choice = (fn(&Ty) -> bool, Overload);

/// The overloads the operator `name` may resolve to for these argument
/// types: every candidate when a type is `Dyn`, as cel-go's checker keeps
/// them all (`Other` for a function: one overload, costed by its row).
pub fn overloads(name: &str, args: &[Arg<'_>]) -> Vec<Overload> {
    use Overload::*;
    let ty = |i: usize| args.get(i).map_or(Ty::Dyn, |a| a.ty.clone());
    let by = |t: Ty, choices: &[Choice], rest: Overload| -> Vec<Overload> {
        if t == Ty::Dyn {
            let mut all: Vec<Overload> = choices.iter().map(|(_, o)| *o).collect();
            all.push(rest);
            return all;
        }
        vec![choices
            .iter()
            .find(|(test, _)| test(&t))
            .map_or(rest, |(_, o)| *o)]
    };
    let both = || ty(0).or(ty(1));
    match name {
        "_+_" => by(
            both(),
            &[
                (|t| *t == Ty::String, AddString),
                (|t| *t == Ty::Bytes, AddBytes),
                (|t| matches!(t, Ty::List(_)), AddList),
            ],
            Other,
        ),
        "_[_]" => match ty(0) {
            Ty::List(_) => vec![IndexList],
            Ty::Map(..) | Ty::Object => vec![IndexMap],
            _ => vec![IndexList, IndexMap],
        },
        "_==_" | "_!=_" => vec![Equals],
        "_<_" | "_<=_" | "_>_" | "_>=_" => by(
            both(),
            &[(|t| matches!(t, Ty::String | Ty::Bytes), CompareString)],
            Other,
        ),
        "@in" => by(ty(1), &[(|t| matches!(t, Ty::List(_)), InList)], Other),
        "_&&_" | "_||_" => vec![Logical],
        "_?_:_" => vec![Conditional],
        _ => vec![Other],
    }
}

/// The cost of calling `name` as `overload`, arguments included.
pub fn cost(
    ctx: &Context<'_>,
    name: &str,
    overload: Overload,
    target: Option<&Arg<'_>>,
    args: &[Arg<'_>],
    arg_costs: &[Est],
) -> CallEstimate {
    let arg_sum = arg_costs.iter().fold(Est::default(), |sum, c| sum.add(*c));
    let plain = |cost: Est| CallEstimate {
        cost: cost.add(arg_sum),
        result_size: None,
        entries: None,
    };
    if let Some(function) = table::function(name) {
        let mut estimate = function_cost(ctx, function.cost, target, args);
        estimate.cost = estimate.cost.add(arg_sum);
        return estimate;
    }
    if let Some(mut estimate) = library_equality(name, args) {
        estimate.cost = estimate.cost.add(arg_sum);
        return estimate;
    }
    let size = |i: usize| args.get(i).map_or(super::est::UNKNOWN, |a| (ctx.size)(a));
    use Overload::*;
    match overload {
        InList if args.len() == 2 => plain(size(1).factor(1.0)),
        Logical if arg_costs.len() == 2 => CallEstimate {
            cost: Est {
                min: arg_costs[0].min,
                max: arg_costs[0].add(arg_costs[1]).max,
            },
            result_size: None,
            entries: None,
        },
        Conditional if args.len() == 3 && arg_costs.len() == 3 => {
            let result = size(1).union(size(2));
            let entries = Entries::union((ctx.entries)(args[1].expr), (ctx.entries)(args[2].expr));
            CallEstimate {
                cost: arg_costs[0].add(arg_costs[1].union(arg_costs[2])),
                result_size: Some(result),
                entries,
            }
        }
        AddString | AddBytes | AddList if args.len() == 2 => {
            let result = size(0).add(size(1));
            let entries = Entries::union((ctx.entries)(args[0].expr), (ctx.entries)(args[1].expr));
            let cost = if overload == AddList {
                Est::fixed(1)
            } else {
                result.factor(STRING_TRAVERSAL)
            };
            CallEstimate {
                result_size: Some(result),
                entries,
                ..plain(cost)
            }
        }
        CompareString | Equals if args.len() == 2 => {
            let smallest = size(0).max.min(size(1).max);
            let min = u64::from(smallest > 0);
            plain(Est { min, max: smallest }.factor(STRING_TRAVERSAL))
        }
        _ => plain(Est::fixed(1)),
    }
}

/// The estimate of a function costed `cost` (its row's), without the
/// arguments' costs: cel-go's extension libraries' (`sets`, `lists` v3),
/// the Kubernetes libraries' (`CostEstimator.EstimateCallCost`) and
/// cel-go's standard library's. A call of a shape the formula does not
/// take (a wrong count of arguments) costs 1, as cel-go's fallback.
fn function_cost(
    ctx: &Context<'_>,
    cost: Cost,
    target: Option<&Arg<'_>>,
    args: &[Arg<'_>],
) -> CallEstimate {
    let size = |node: &Arg<'_>| (ctx.size)(node);
    let traversal = |node: &Arg<'_>| size(node).factor(STRING_TRAVERSAL);
    let only = |cost: Est| CallEstimate {
        cost,
        result_size: None,
        entries: None,
    };
    let sized = |cost: Est, result: Est| CallEstimate {
        cost,
        result_size: Some(result),
        entries: None,
    };
    // A list built: its size times a factor, plus the call and the list.
    let allocating = |factor: f64, list: Est| CallEstimate {
        cost: list
            .factor(factor)
            .add(Est::fixed(1))
            .add(Est::fixed(super::est::LIST_CREATE)),
        result_size: Some(list),
        entries: None,
    };
    // A literal non-negative int argument, else `default`.
    let literal = |arg: &Arg<'_>, default: u64| match &arg.expr.expr {
        Expr::Literal(LiteralValue::Int(value)) => (**value).max(0) as u64,
        _ => default,
    };
    let one = || only(Est::fixed(1));
    match (cost, target, args) {
        (Cost::Sets { twice }, None, [a, b]) => {
            let factor = if twice { 2.0 } else { 1.0 };
            only(size(a).multiply(size(b)).factor(factor).add(Est::fixed(1)))
        }
        (Cost::Slice, Some(list), [start, end]) => {
            let (start, end) = (literal(start, 0), literal(end, size(list).max));
            allocating(1.0, Est::fixed(end.saturating_sub(start)))
        }
        (Cost::Range, None, [count]) => allocating(1.0, Est::fixed(literal(count, u64::MAX))),
        (Cost::Reverse, Some(list), []) if matches!(list.ty, Ty::List(_)) => {
            allocating(1.0, size(list))
        }
        (Cost::Flatten, Some(list), [] | [_]) => {
            let depth = args.first().map_or(1, |depth| literal(depth, u64::MAX));
            allocating(depth as f64, size(list))
        }
        (Cost::Distinct, Some(list), []) => allocating(2.0, size(list).multiply(size(list))),
        (Cost::Sort, Some(list), []) | (Cost::SortByKeys, Some(_), [list]) => {
            let sz = size(list);
            let factor = match list.ty.element() {
                Ty::String | Ty::Bytes => 2.0 + STRING_TRAVERSAL,
                _ => 2.0,
            };
            allocating(factor, sz.multiply(sz))
        }
        (Cost::ListItems, Some(target), _) => match &target.ty {
            Ty::List(item) => {
                let mut per_item = Est::fixed(1);
                if matches!(**item, Ty::String | Ty::Bytes) {
                    let item_node = item_of(target, item);
                    per_item = per_item.add(size(&item_node).factor(STRING_TRAVERSAL));
                }
                only(size(target).multiply(per_item))
            }
            _ => only(traversal(target)),
        },
        (Cost::Url, _, [text]) => sized(traversal(text), size(text)),
        (Cost::CopyText, Some(target), _) => sized(traversal(target), size(target)),
        (Cost::Replace, Some(target), [from, to, ..]) => {
            replace(size(target), size(from), size(to))
        }
        (Cost::Split, Some(target), _) => {
            let text = size(target);
            let mut max = text.max;
            if let Some(Expr::Literal(LiteralValue::Int(limit))) = args.get(1).map(|a| &a.expr.expr)
            {
                max = **limit as u64;
            }
            sized(text.factor(2.0 * STRING_TRAVERSAL), Est { min: 0, max })
        }
        (Cost::Join, Some(target), _) => {
            let list = size(target);
            let mut result = Est::default();
            if let Ty::List(item) = &target.ty {
                result = list.multiply(size(&item_of(target, item)));
            }
            if let Some(separator) = args.first() {
                let separators = Est {
                    min: list.min.saturating_sub(1),
                    max: list.max.saturating_sub(1),
                };
                result = result.add(size(separator).multiply(separators));
            }
            sized(result.factor(STRING_TRAVERSAL), result)
        }
        (Cost::Find, Some(target), [pattern, ..]) => {
            let text = size(target);
            let text_cost = text.add(Est::fixed(1)).factor(STRING_TRAVERSAL);
            let regex = size(pattern).factor(REGEX_LENGTH);
            sized(
                text_cost.multiply(regex),
                Est {
                    min: 0,
                    max: text.max,
                },
            )
        }
        (Cost::Parse, _, [text, ..]) => only(traversal(text)),
        // `cidr.ip()` reads a field; `ip(string)` parses.
        (Cost::Ip, Some(cidr), _) if cidr.ty == Ty::Opaque("cidr") => one(),
        (Cost::Ip, _, [text, ..]) => only(traversal(text)),
        (Cost::IpCanonical, _, [text, ..]) => only(size(text).factor(2.0 * STRING_TRAVERSAL)),
        (Cost::ContainsIp | Cost::ContainsCidr, _, [other, ..]) => {
            let ip = Est { min: 4, max: 16 };
            let mut estimate = ip.add(ip).factor(STRING_TRAVERSAL);
            if cost == Cost::ContainsCidr {
                estimate = estimate.add(ip.factor(STRING_TRAVERSAL)).add(Est::fixed(1));
            }
            if other.ty == Ty::String {
                estimate = estimate.add(size(other).factor(STRING_TRAVERSAL));
            }
            only(estimate)
        }
        (Cost::Validate, _, [value, ..]) => only(
            size(value)
                .factor(STRING_TRAVERSAL)
                .factor(MAX_NAME_FORMAT_REGEX * REGEX_LENGTH),
        ),
        // cel-go's standard library.
        (Cost::Format, Some(target), _) => only(traversal(target)),
        (Cost::ToBytes, _, [text]) if matches!(text.ty, Ty::String | Ty::Dyn) => {
            let sz = size(text);
            sized(
                sz.factor(STRING_TRAVERSAL),
                Est {
                    min: sz.min,
                    max: sz.max.saturating_mul(4),
                },
            )
        }
        (Cost::ToString, _, [bytes]) if matches!(bytes.ty, Ty::Bytes) => {
            let sz = size(bytes);
            sized(
                sz.factor(STRING_TRAVERSAL),
                Est {
                    min: sz.min / 4,
                    max: sz.max,
                },
            )
        }
        (Cost::Quote, _, [text]) => {
            let sz = size(text);
            sized(
                sz.factor(STRING_TRAVERSAL),
                Est {
                    min: sz.min.saturating_add(2),
                    max: sz.max.saturating_mul(2).saturating_add(2),
                },
            )
        }
        (Cost::PrefixSuffix, _, [part]) => only(size(part).factor(STRING_TRAVERSAL)),
        (Cost::Matches, Some(target), [pattern]) => {
            let text = size(target).add(Est::fixed(1)).factor(STRING_TRAVERSAL);
            let regex = size(pattern).factor(REGEX_LENGTH);
            only(text.multiply(regex))
        }
        (Cost::StringContains, Some(target), [part])
            if matches!(target.ty, Ty::String | Ty::Dyn) =>
        {
            let text = size(target).factor(STRING_TRAVERSAL);
            only(text.multiply(size(part).factor(STRING_TRAVERSAL)))
        }
        (
            Cost::One
            | Cost::Sets { .. }
            | Cost::Slice
            | Cost::Range
            | Cost::Reverse
            | Cost::Flatten
            | Cost::Distinct
            | Cost::Sort
            | Cost::SortByKeys
            | Cost::ListItems
            | Cost::Includes
            | Cost::Url
            | Cost::CopyText
            | Cost::Replace
            | Cost::Split
            | Cost::Join
            | Cost::Find
            | Cost::Parse
            | Cost::Ip
            | Cost::IpCanonical
            | Cost::ContainsIp
            | Cost::ContainsCidr
            | Cost::Validate
            | Cost::EscapeKey
            | Cost::Format
            | Cost::ToBytes
            | Cost::ToString
            | Cost::Quote
            | Cost::PrefixSuffix
            | Cost::Matches
            | Cost::StringContains,
            _,
            _,
        ) => one(),
    }
}

/// The Kubernetes libraries' cost of `==` on two values of one library
/// type; `None` for any other operator or type.
fn library_equality(name: &str, args: &[Arg<'_>]) -> Option<CallEstimate> {
    let only = |cost: Est| {
        Some(CallEstimate {
            cost,
            result_size: None,
            entries: None,
        })
    };
    match name {
        "_==_" if args.len() == 2 && args[0].ty == args[1].ty => match args[0].ty {
            Ty::Opaque("ip" | "cidr" | "quantity" | "semver") => only(Est::fixed(1)),
            Ty::Opaque("format") => only(
                Est {
                    min: 1,
                    max: MAX_FORMAT_SIZE,
                }
                .factor(STRING_TRAVERSAL),
            ),
            Ty::Opaque("url") => {
                // As the API server computes it: the right side's size twice.
                let right = args[1].size.unwrap_or(Est::fixed(1));
                only(
                    Est {
                        min: 1,
                        max: right.max,
                    }
                    .factor(STRING_TRAVERSAL),
                )
            }
            _ => None,
        },
        _ => None,
    }
}

/// `replace`'s estimate: the text walked twice; the result's size from how
/// many times the replaced part fits.
fn replace(text: Est, from: Est, to: Est) -> CallEstimate {
    let (mut count, mut kept) = (Est::default(), Est::default());
    if from.min == 0 {
        count.max = text.max.saturating_add(u64::from(text.max < u64::MAX));
        kept.max = text.max;
    } else if to.max <= from.min {
        kept.max = text.max;
    } else {
        count.max = (text.max as f64 / from.min as f64).ceil() as u64;
    }
    if from.max == 0 {
        count.min = text.min.saturating_add(u64::from(text.min < u64::MAX));
        kept.min = text.min;
    } else if from.max <= to.min {
        kept.min = text.min;
    } else {
        count.min = (text.min as f64 / from.max as f64).ceil() as u64;
    }
    let result = count.multiply(to).add(kept);
    CallEstimate {
        cost: text.factor(2.0 * STRING_TRAVERSAL),
        result_size: Some(result),
        entries: None,
    }
}

/// An item of the list `target` (of items of type `item`), as a call's
/// cost sees it: its path is the list's followed by `@items`.
fn item_of<'a>(target: &Arg<'a>, item: &Ty) -> Arg<'a> {
    let mut path = target.path.clone();
    if !path.is_empty() {
        path.push("@items".into());
    }
    Arg {
        expr: target.expr,
        path,
        ty: item.clone(),
        size: None,
    }
}
