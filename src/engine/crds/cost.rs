//! A CRD among the inputs refused on create (`refused`), for its schemas
//! or for its CEL rules' estimated cost (`cel::cost`): apart from
//! `refused`, which apiextensions' own checks read, so that those import
//! nothing of CEL.

use super::refused::{refused, schema_reasons, Reason, RefusedCrd};
use crate::cel::cost::Step as CostStep;
use crate::cel::schema::written;
use serde_json::Value;

/// The CRD document `root` (as JSON), created with the inputs, when the
/// API server refuses it on create: for `refused::by_schema`'s reasons and, when
/// `has_rules` (its text names `x-kubernetes-validations`), for its rules'
/// estimated cost ([`by_cost`], estimated in full only when over a limit).
pub(super) fn on_create(root: &Value, has_rules: bool) -> Option<RefusedCrd> {
    let mut reasons = root.get("spec").map(schema_reasons).unwrap_or_default();
    if has_rules && crate::cel::crd_cost::over_limits(root) {
        reasons.extend(by_cost(root));
    }
    (!reasons.is_empty()).then(|| refused(root, reasons))?
}

/// What the API server refuses in the CEL rules' estimated cost of every
/// version's schema (`cel::cost`), in its words: the whole schema's total
/// first, then the rules over their own limit and those that contributed
/// most. Identical schemas are estimated once, as the top-level
/// `spec.validation`, as the server does.
fn by_cost(root: &Value) -> Vec<Reason> {
    let mut out = Vec::new();
    let Some(spec) = root.get("spec") else {
        return Vec::new();
    };
    for (at, schema) in written::versions(spec, true) {
        let mut findings = crate::cel::cost::check(schema);
        // The total first, as the server lists it.
        findings.sort_by_key(|finding| !finding.at.is_empty());
        out.extend(findings.into_iter().map(|finding| {
            let mut pointer = at.pointer.clone();
            for step in &finding.at {
                pointer.push('/');
                match step {
                    CostStep::Key(key) => {
                        pointer.push_str(&key.replace('~', "~0").replace('/', "~1"))
                    }
                    CostStep::Index(index) => pointer.push_str(&index.to_string()),
                }
            }
            Reason {
                field: format!("{}{}", at.field, finding.field),
                message: finding.error,
                pointer,
            }
        }));
    }
    out
}
