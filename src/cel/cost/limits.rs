//! The API server's static cost limits on a CRD version's rules
//! (apiextensions-apiserver `pkg/apis/apiextensions/validation`): each
//! rule's estimated cost, times how many times it can run (the product of
//! the enclosing lists' `maxItems` and maps' `maxProperties`; under an
//! unbounded one, as many values of the rule's node as a 3 MiB request
//! holds), must not exceed 10,000,000; the CRD's total must not exceed
//! 100,000,000.

use super::decl::{Decl, Kind, MAX_REQUEST_SIZE};
use super::estimate::max_cost;
use crate::cel::rule::CompiledRule;
use crate::cel::schema::sizes::Written as Type;
use crate::cel::schema::written::Written;
use crate::cel::schema::SchemaNode;
use crate::cel::value::escape;

/// `StaticEstimatedCostLimit`: one rule, times its cardinality.
pub const RULE_LIMIT: u64 = 10_000_000;
/// `StaticEstimatedCRDCostLimit`: all rules of one schema.
pub const CRD_LIMIT: u64 = 100_000_000;

/// How many of the largest contributors the per-CRD error names.
const MOST_EXPENSIVE: usize = 4;

/// How many unbounded lists, maps and strings a finding names.
const MAX_NAMED: usize = 6;

/// One step into the schema: a key, or an index of a list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    Key(String),
    Index(usize),
}

/// One limit exceeded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// Where, from the `openAPIV3Schema` (empty for the schema itself).
    pub at: Vec<Step>,
    /// The API server's field path after `openAPIV3Schema`
    /// (`.properties[spec].x-kubernetes-validations[0].rule`).
    pub field: String,
    /// The API server's error after the path (`Forbidden: …`).
    pub error: String,
    /// The estimated cost (the total, for the schema's finding).
    pub cost: u64,
    /// Lists, maps and strings without a bound that the cost comes from,
    /// by their schema paths.
    pub unbounded: Vec<String>,
}

/// A rule's cost, with where it is.
struct Contribution {
    at: Vec<Step>,
    field: String,
    cost: u64,
    unbounded: Vec<String>,
}

/// The walk's state: the total and its largest contributors.
#[derive(Default)]
struct Walk {
    total: u64,
    most_expensive: Vec<Contribution>,
    findings: Vec<Finding>,
    estimated: usize,
    skipped: usize,
    largest: u64,
}

/// What [`report`] found over one schema.
#[derive(Debug)]
pub struct Report {
    pub findings: Vec<Finding>,
    /// The sum of every rule's and message expression's cost.
    pub total: u64,
    /// Rules estimated, and rules left out (they do not compile, or select
    /// a field the schema does not declare: the API server refuses them
    /// for that, with no cost).
    pub estimated: usize,
    pub skipped: usize,
    /// The largest cost of one rule (cardinality included).
    pub largest: u64,
}

/// Where a node is, and how many times its rules can run.
#[derive(Clone)]
struct Place {
    at: Vec<Step>,
    field: String,
    /// Readable schema path (`spec.items[*]`), for the fix.
    readable: String,
    /// `None` under a list or map without a bound.
    cardinality: Option<u64>,
    /// The unbounded lists and maps above.
    unbounded_above: Vec<String>,
}

/// The limits `schema` (a CRD version's `openAPIV3Schema`) exceeds, as the
/// API server reports them when the CRD is created: each rule over its
/// limit, then, when the total is over, its largest contributors and the
/// schema itself.
pub fn check<W: Written>(schema: &W) -> Vec<Finding> {
    report(schema).findings
}

/// [`check`], with the figures behind it: the schema read into the one
/// tree ([`SchemaNode::read_written`]), then [`report_tree`].
pub fn report<W: Written>(schema: &W) -> Report {
    report_tree(&SchemaNode::read_written(schema))
}

/// [`report`] over a schema already read into the tree (as written, every
/// version's, `status` included).
pub fn report_tree(tree: &SchemaNode) -> Report {
    let mut walk = Walk::default();
    let root = Place {
        at: Vec::new(),
        field: String::new(),
        readable: String::new(),
        cardinality: Some(1),
        unbounded_above: Vec::new(),
    };
    let decl = Decl::of_node(tree, true);
    visit(tree, decl.as_ref(), &root, &mut walk);
    if walk.total > CRD_LIMIT {
        for expensive in &walk.most_expensive {
            walk.findings.push(Finding {
                at: expensive.at.clone(),
                field: expensive.field.clone(),
                error: "Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema".into(),
                cost: expensive.cost,
                unbounded: expensive.unbounded.clone(),
            });
        }
        walk.findings.push(Finding {
            at: Vec::new(),
            field: String::new(),
            error: format!(
                "Forbidden: {}",
                budget_message(
                    "x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema",
                    walk.total,
                    CRD_LIMIT
                )
            ),
            cost: walk.total,
            unbounded: Vec::new(),
        });
    }
    Report {
        findings: walk.findings,
        total: walk.total,
        estimated: walk.estimated,
        skipped: walk.skipped,
        largest: walk.largest,
    }
}

/// The API server's words for a cost over its limit (`getCostErrorMessage`).
pub fn budget_message(what: &str, cost: u64, limit: u64) -> String {
    let factor = cost as f64 / limit as f64;
    let factor = if factor > 100.0 {
        "more than 100x".to_owned()
    } else if factor < 1.5 {
        format!("{factor:.6}x")
    } else {
        format!("{factor:.1}x")
    };
    format!("{what} exceeds budget by factor of {factor} (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)")
}

/// Visits `node` (of type `decl`, read once at the root and descended
/// with the walk, as the API server derives a node's type from its
/// parent's) and the nodes below it that hold rules (as deep as the tree
/// goes: its depth bound).
fn visit(node: &SchemaNode, decl: Option<&Decl>, place: &Place, walk: &mut Walk) {
    if let (false, Some(decl)) = (node.rules.is_empty(), decl) {
        // Named only for a rule reported: walking the subtree for each rule
        // would cost more than estimating it.
        let unbounded = || {
            let mut unbounded = place.unbounded_above.clone();
            unbounded_below(node, &place.readable, &mut unbounded);
            unbounded.truncate(MAX_NAMED);
            unbounded
        };
        for (rule, &index) in node.rules.iter().zip(&node.rule_indexes) {
            rule_costs(rule, index, decl, place, &unbounded, walk);
        }
    }
    let max_elements = node.sizes.max_elements();
    let child_cardinality = place
        .cardinality
        .and_then(|c| max_elements.map(|n| c.saturating_mul(n)));
    let mut child = |key: &str, name: Option<&str>, inner: &SchemaNode| {
        // Nothing below to estimate: its places are not built either.
        if !inner.rules_below {
            return;
        }
        let inner_decl = decl.and_then(|decl| match (&decl.kind, name) {
            (Kind::Object(fields), Some(name)) => fields.get(&*escape(name)),
            (Kind::List(items), None) if key == "items" => Some(&**items),
            (Kind::Map(values), None) if key == "additionalProperties" => Some(&**values),
            _ => None,
        });
        let mut at = place.at.clone();
        at.push(Step::Key(key.to_owned()));
        let (field, readable) = match name {
            Some(name) => {
                at.push(Step::Key(name.to_owned()));
                (
                    format!("{}.properties[{name}]", place.field),
                    join(&place.readable, name),
                )
            }
            None if key == "items" => (
                format!("{}.items", place.field),
                format!("{}[*]", place.readable),
            ),
            None => (
                format!("{}.{key}", place.field),
                format!("{}[*]", place.readable),
            ),
        };
        let mut unbounded_above = place.unbounded_above.clone();
        if max_elements.is_none() {
            unbounded_above.push(readable_or_root(&place.readable));
        }
        let next = Place {
            at,
            field,
            readable,
            cardinality: child_cardinality,
            unbounded_above,
        };
        visit(inner, inner_decl, &next, walk);
    };
    for (name, inner) in &node.properties {
        child("properties", Some(name), inner);
    }
    if node.sizes.ty == Some(Type::Array) {
        if let Some(items) = node.items.as_deref() {
            child("items", None, items);
        }
    }
    if let Some(values) = node.values.as_deref() {
        child("additionalProperties", None, values);
    }
}

/// Costs one entry of `x-kubernetes-validations`: its rule, and its
/// message expression (limited alike).
fn rule_costs(
    rule: &CompiledRule,
    index: usize,
    decl: &Decl,
    place: &Place,
    unbounded: &dyn Fn() -> Vec<String>,
    walk: &mut Walk,
) {
    if rule.source.trim().is_empty() {
        return;
    }
    if rule.program.is_err() {
        // The API server reports a rule that does not compile instead.
        walk.skipped += 1;
        return;
    }
    let cardinality = place
        .cardinality
        .unwrap_or(MAX_REQUEST_SIZE / (decl.min_size + 1));
    let mut parts = Vec::new();
    let Some(cost) = (rule.expression.as_ref()).and_then(|expression| max_cost(expression, decl))
    else {
        walk.skipped += 1;
        return;
    };
    walk.estimated += 1;
    walk.largest = walk.largest.max(cost.saturating_mul(cardinality));
    parts.push((
        "rule",
        "estimated rule cost",
        cost.saturating_mul(cardinality),
    ));
    if let Some(cost) =
        (rule.message_expression.as_ref()).and_then(|message| max_cost(message.expression(), decl))
    {
        parts.push((
            "messageExpression",
            "estimated messageExpression cost",
            cost,
        ));
    }
    for (key, what, cost) in parts {
        let mut at = place.at.clone();
        at.extend([
            Step::Key("x-kubernetes-validations".into()),
            Step::Index(index),
            Step::Key(key.into()),
        ]);
        let field = format!("{}.x-kubernetes-validations[{index}].{key}", place.field);
        if cost > RULE_LIMIT {
            walk.findings.push(Finding {
                at: at.clone(),
                field: field.clone(),
                error: format!("Forbidden: {}", budget_message(what, cost, RULE_LIMIT)),
                cost,
                unbounded: unbounded(),
            });
        }
        walk.total = walk.total.saturating_add(cost);
        if cost >= CRD_LIMIT / 100 {
            walk.most_expensive.push(Contribution {
                at,
                field,
                cost,
                unbounded: unbounded(),
            });
            walk.most_expensive
                .sort_by_key(|c| std::cmp::Reverse(c.cost));
            walk.most_expensive.truncate(MOST_EXPENSIVE);
        }
    }
}

/// The lists, maps and strings at or below `node` (at `readable`)
/// declared without a bound ([`crate::cel::schema::Sizes::unbounded`]).
fn unbounded_below(node: &SchemaNode, readable: &str, found: &mut Vec<String>) {
    if found.len() >= MAX_NAMED {
        return;
    }
    if node.sizes.unbounded {
        found.push(readable_or_root(readable));
    }
    for (name, inner) in &node.properties {
        unbounded_below(inner, &join(readable, name), found);
    }
    for inner in node.items.iter().chain(&node.values) {
        unbounded_below(inner, &format!("{readable}[*]"), found);
    }
}

fn join(parent: &str, name: &str) -> String {
    if parent.is_empty() {
        name.to_owned()
    } else {
        format!("{parent}.{name}")
    }
}

fn readable_or_root(readable: &str) -> String {
    if readable.is_empty() {
        "(the root)".to_owned()
    } else {
        readable.to_owned()
    }
}
