//! What one call costs: the Kubernetes libraries' estimates (k8s.io/apiserver
//! `pkg/cel/library/cost.go`, consulted first, by function name), then
//! cel-go's own for the standard library's overloads (`checker/cost.go`
//! `functionCost`), else 1. Each adds the cost of the arguments; the
//! target's is added by the caller.

use super::arg::{Arg, Entries};
use super::est::{Est, REGEX_LENGTH, STRING_TRAVERSAL};
use super::ty::Ty;
use cel::common::ast::{Expr, LiteralValue};
use cel::IdedExpr;

/// The largest regular expression of a named format (`MaxNameFormatRegexSize`).
const MAX_NAME_FORMAT_REGEX: f64 = 128.0;
/// The largest format value (`MaxFormatSize`).
const MAX_FORMAT_SIZE: u64 = 64;

/// The standard-library overloads whose cost differs; `Other` is any else.
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
    MatchesString,
    ContainsString,
    StartsOrEndsWith,
    Logical,
    Conditional,
    StringToBytes,
    BytesToString,
    FormatString,
    QuoteString,
    /// `cidr.ip()` (costs 1, unlike `ip(string)`).
    CidrIp,
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

/// The overloads `name` may resolve to for these argument types: every
/// candidate when a type is `Dyn`, as cel-go's checker keeps them all.
pub fn overloads(name: &str, target: Option<&Arg<'_>>, args: &[Arg<'_>]) -> Vec<Overload> {
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
        "matches" => vec![MatchesString],
        "contains" if target.is_some_and(|t| matches!(t.ty, Ty::String | Ty::Dyn)) => {
            vec![ContainsString]
        }
        "startsWith" | "endsWith" => vec![StartsOrEndsWith],
        "_&&_" | "_||_" => vec![Logical],
        "_?_:_" => vec![Conditional],
        "bytes" if matches!(ty(0), Ty::String | Ty::Dyn) => vec![StringToBytes],
        "string" if matches!(ty(0), Ty::Bytes) => vec![BytesToString],
        "format" if target.is_some() => vec![FormatString],
        "strings.quote" => vec![QuoteString],
        "ip" if target.is_some_and(|t| t.ty == Ty::Opaque("cidr")) => vec![CidrIp],
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
    if let Some(mut estimate) = extension(ctx, name, target, args) {
        estimate.cost = estimate.cost.add(arg_sum);
        return estimate;
    }
    if let Some(mut estimate) = kubernetes(ctx, name, overload, target, args) {
        estimate.cost = estimate.cost.add(arg_sum);
        return estimate;
    }
    let size = |i: usize| args.get(i).map_or(super::est::UNKNOWN, |a| (ctx.size)(a));
    let target_size = || target.map_or(super::est::UNKNOWN, |t| (ctx.size)(t));
    use Overload::*;
    match overload {
        FormatString if target.is_some() => plain(target_size().factor(STRING_TRAVERSAL)),
        StringToBytes if args.len() == 1 => {
            let sz = size(0);
            CallEstimate {
                result_size: Some(Est {
                    min: sz.min,
                    max: sz.max.saturating_mul(4),
                }),
                ..plain(sz.factor(STRING_TRAVERSAL))
            }
        }
        BytesToString if args.len() == 1 => {
            let sz = size(0);
            CallEstimate {
                result_size: Some(Est {
                    min: sz.min / 4,
                    max: sz.max,
                }),
                ..plain(sz.factor(STRING_TRAVERSAL))
            }
        }
        QuoteString if args.len() == 1 => {
            let sz = size(0);
            CallEstimate {
                result_size: Some(Est {
                    min: sz.min.saturating_add(2),
                    max: sz.max.saturating_mul(2).saturating_add(2),
                }),
                ..plain(sz.factor(STRING_TRAVERSAL))
            }
        }
        StartsOrEndsWith if args.len() == 1 => plain(size(0).factor(STRING_TRAVERSAL)),
        InList if args.len() == 2 => plain(size(1).factor(1.0)),
        MatchesString if target.is_some() && args.len() == 1 => {
            let text = target_size().add(Est::fixed(1)).factor(STRING_TRAVERSAL);
            let regex = size(0).factor(REGEX_LENGTH);
            plain(text.multiply(regex))
        }
        ContainsString if target.is_some() && args.len() == 1 => {
            let text = target_size().factor(STRING_TRAVERSAL);
            let part = size(0).factor(STRING_TRAVERSAL);
            plain(text.multiply(part))
        }
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

/// cel-go's extension libraries' own estimates (consulted before the
/// Kubernetes ones): `sets` (1.29) and `lists` v3 (1.34); without the
/// arguments' costs.
fn extension(
    ctx: &Context<'_>,
    name: &str,
    target: Option<&Arg<'_>>,
    args: &[Arg<'_>],
) -> Option<CallEstimate> {
    let size = |node: &Arg<'_>| (ctx.size)(node);
    // A list built: its size times a factor, plus the call and the list.
    let allocating = |factor: f64, list: Est| {
        Some(CallEstimate {
            cost: list
                .factor(factor)
                .add(Est::fixed(1))
                .add(Est::fixed(super::est::LIST_CREATE)),
            result_size: Some(list),
            entries: None,
        })
    };
    // A literal non-negative int argument, else `default`.
    let literal = |arg: &Arg<'_>, default: u64| match &arg.expr.expr {
        Expr::Literal(LiteralValue::Int(value)) => (**value).max(0) as u64,
        _ => default,
    };
    match (name, target, args) {
        ("sets.contains" | "sets.intersects" | "sets.equivalent", None, [a, b]) => {
            let factor = if name == "sets.equivalent" { 2.0 } else { 1.0 };
            Some(CallEstimate {
                cost: size(a).multiply(size(b)).factor(factor).add(Est::fixed(1)),
                result_size: None,
                entries: None,
            })
        }
        ("slice", Some(list), [start, end]) => {
            let (start, end) = (literal(start, 0), literal(end, size(list).max));
            allocating(1.0, Est::fixed(end.saturating_sub(start)))
        }
        ("lists.range", None, [count]) => allocating(1.0, Est::fixed(literal(count, u64::MAX))),
        ("reverse", Some(list), []) if matches!(list.ty, Ty::List(_)) => {
            allocating(1.0, size(list))
        }
        ("flatten", Some(list), [] | [_]) => {
            let depth = args.first().map_or(1, |depth| literal(depth, u64::MAX));
            allocating(depth as f64, size(list))
        }
        ("distinct", Some(list), []) => allocating(2.0, size(list).multiply(size(list))),
        ("sort", Some(list), []) | ("@sortByAssociatedKeys", Some(_), [list]) => {
            let sz = size(list);
            let factor = match list.ty.element() {
                Ty::String | Ty::Bytes => 2.0 + STRING_TRAVERSAL,
                _ => 2.0,
            };
            allocating(factor, sz.multiply(sz))
        }
        _ => None,
    }
}

/// The Kubernetes libraries' estimate (`CostEstimator.EstimateCallCost`),
/// without the arguments' costs; `None` for a function they leave to
/// cel-go.
fn kubernetes(
    ctx: &Context<'_>,
    name: &str,
    overload: Overload,
    target: Option<&Arg<'_>>,
    args: &[Arg<'_>],
) -> Option<CallEstimate> {
    let size = |node: &Arg<'_>| (ctx.size)(node);
    let traversal = |node: &Arg<'_>| size(node).factor(STRING_TRAVERSAL);
    let only = |cost: Est| {
        Some(CallEstimate {
            cost,
            result_size: None,
            entries: None,
        })
    };
    let sized = |cost: Est, result: Est| {
        Some(CallEstimate {
            cost,
            result_size: Some(result),
            entries: None,
        })
    };
    match name {
        "isSorted" | "sum" | "max" | "min" | "indexOf" | "lastIndexOf" => {
            let target = target?;
            match &target.ty {
                Ty::List(item) => {
                    let mut per_item = Est::fixed(1);
                    if matches!(**item, Ty::String | Ty::Bytes) {
                        let item_node = item_of(target, item);
                        per_item = per_item.add(size(&item_node).factor(STRING_TRAVERSAL));
                    }
                    only(size(target).multiply(per_item))
                }
                _ => only(traversal(target)),
            }
        }
        "url" if args.len() == 1 => sized(traversal(&args[0]), size(&args[0])),
        "lowerAscii" | "upperAscii" | "substring" | "trim" => {
            let target = target?;
            sized(traversal(target), size(target))
        }
        "replace" if args.len() >= 2 => replace(size(target?), size(&args[0]), size(&args[1])),
        "split" => {
            let text = size(target?);
            let mut max = text.max;
            if let Some(Expr::Literal(LiteralValue::Int(limit))) = args.get(1).map(|a| &a.expr.expr)
            {
                max = **limit as u64;
            }
            sized(text.factor(2.0 * STRING_TRAVERSAL), Est { min: 0, max })
        }
        "join" => {
            let target = target?;
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
        "find" | "findAll" if !args.is_empty() => {
            let text = size(target?);
            let text_cost = text.add(Est::fixed(1)).factor(STRING_TRAVERSAL);
            let regex = size(&args[0]).factor(REGEX_LENGTH);
            sized(
                text_cost.multiply(regex),
                Est {
                    min: 0,
                    max: text.max,
                },
            )
        }
        "cidr" | "isIP" | "isCIDR" | "quantity" | "isQuantity" | "semver" | "isSemver"
            if !args.is_empty() =>
        {
            only(traversal(&args[0]))
        }
        "ip" if overload == Overload::CidrIp => only(Est::fixed(1)),
        "ip" if !args.is_empty() => only(traversal(&args[0])),
        "ip.isCanonical" if !args.is_empty() => only(size(&args[0]).factor(2.0 * STRING_TRAVERSAL)),
        "masked"
        | "prefixLength"
        | "family"
        | "isUnspecified"
        | "isLoopback"
        | "isLinkLocalMulticast"
        | "isLinkLocalUnicast"
        | "isGlobalUnicast"
        | "format.named"
        | "sign"
        | "asInteger"
        | "isInteger"
        | "asApproximateFloat"
        | "isGreaterThan"
        | "isLessThan"
        | "compareTo"
        | "add"
        | "sub"
        | "major"
        | "minor"
        | "patch"
        | "getScheme"
        | "getHostname"
        | "getHost"
        | "getPort"
        | "getEscapedPath"
        | "getQuery" => only(Est::fixed(1)),
        "containsIP" | "containsCIDR" if !args.is_empty() => {
            let ip = Est { min: 4, max: 16 };
            let mut cost = ip.add(ip).factor(STRING_TRAVERSAL);
            if name == "containsCIDR" {
                cost = cost.add(ip.factor(STRING_TRAVERSAL)).add(Est::fixed(1));
            }
            if args[0].ty == Ty::String {
                cost = cost.add(size(&args[0]).factor(STRING_TRAVERSAL));
            }
            only(cost)
        }
        "validate" if !args.is_empty() => only(
            size(&args[0])
                .factor(STRING_TRAVERSAL)
                .factor(MAX_NAME_FORMAT_REGEX * REGEX_LENGTH),
        ),
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
fn replace(text: Est, from: Est, to: Est) -> Option<CallEstimate> {
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
    Some(CallEstimate {
        cost: text.factor(2.0 * STRING_TRAVERSAL),
        result_size: Some(result),
        entries: None,
    })
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
