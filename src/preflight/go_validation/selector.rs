//! A label selector as the API server validates one (apimachinery
//! `metav1validation.ValidateLabelSelector`), for the kinds that hold one
//! (NetworkPolicy, PodDisruptionBudget, webhooks, ClusterRole
//! aggregation).

use super::read::{entries, get, items, line_of, text, Findings, Path};
use crate::document::{Node, Value};
use crate::preflight::names;

/// Checks the selector `node` (at `path`, on `line`); returns whether it
/// broke anything.
pub(super) fn label_selector(
    node: &Node,
    path: Path<'_>,
    line: u32,
    found: &mut Findings<'_>,
) -> bool {
    let before = found.out.len();
    let selector = entries(Some(node));
    let labels_path = path.key("matchLabels");
    for entry in entries(get(selector, "matchLabels")) {
        // ValidateLabels: the key, then the value, both at `matchLabels`.
        found.invalid_each(
            labels_path,
            entry.line,
            &entry.key,
            names::qualified_name(&entry.key),
        );
        if let Value::String(value) = &entry.value.value {
            found.invalid_each(labels_path, entry.line, value, names::label_value(value));
        }
    }
    let expressions_path = path.key("matchExpressions");
    for (index, expression) in items(get(selector, "matchExpressions")).iter().enumerate() {
        let at = expressions_path.index(index);
        let fields = entries(Some(expression));
        let line = line_of(fields, "operator", expression.line.max(line));
        let values = items(get(fields, "values"));
        match text(fields, "operator") {
            "In" | "NotIn" if values.is_empty() => found.required(
                at.key("values"),
                line,
                "must be specified when `operator` is 'In' or 'NotIn'",
            ),
            "In" | "NotIn" => {}
            "Exists" | "DoesNotExist" if !values.is_empty() => found.forbidden(
                at.key("values"),
                line,
                "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
            ),
            "Exists" | "DoesNotExist" => {}
            operator => found.invalid(
                at.key("operator"),
                line,
                &crate::walk::go_quoted(operator),
                "not a valid selector operator",
            ),
        }
        let key = text(fields, "key");
        found.invalid_each(at.key("key"), line, key, names::qualified_name(key));
        let values_path = at.key("values");
        for (value_index, value) in values.iter().enumerate() {
            if let Some(text) = value.as_str() {
                let messages = names::label_value(text);
                found.invalid_each(values_path.index(value_index), value.line, text, messages);
            }
        }
    }
    found.out.len() > before
}
