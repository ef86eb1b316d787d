//! A CRD document's rules held to the API server's static cost limits
//! ([`super::cost`]), reported at each rule's line with the API server's
//! error and the fix: the lists, maps and strings to bound.

use super::cost::{self, Finding, Step, CRD_LIMIT, RULE_LIMIT};
use crate::document::{Node, Value as Doc};
use crate::preflight::{Rule, Violation};
use rayon::prelude::*;

/// The cost findings of every version of the CRD document `root` (none
/// for another document), at the rule's severity (an error: the API
/// server refuses the CRD).
pub fn of_crd(root: &Node) -> Vec<Violation> {
    let is_crd = crate::gates::is_crd(
        root.get("apiVersion").and_then(Node::as_str),
        root.get("kind").and_then(Node::as_str),
    );
    let versions = root.get("spec").and_then(|spec| spec.get("versions"));
    let Some(Doc::Seq(versions)) = versions.map(|v| &v.value).filter(|_| is_crd) else {
        return Vec::new();
    };
    versions
        .iter()
        .enumerate()
        .filter_map(|(index, version)| {
            let schema = version.get("schema")?.get("openAPIV3Schema")?;
            Some(violations(schema, index))
        })
        .flatten()
        .collect()
}

/// True when a version of the CRD `root` (as JSON, without lines) is
/// over a limit: whether [`of_crd`] has anything to say, without reading
/// the CRD again for its lines.
pub fn over_limits(root: &serde_json::Value) -> bool {
    let is_crd = crate::gates::is_crd(
        root.get("apiVersion").and_then(serde_json::Value::as_str),
        root.get("kind").and_then(serde_json::Value::as_str),
    );
    let versions = root
        .pointer("/spec/versions")
        .and_then(serde_json::Value::as_array)
        .filter(|_| is_crd);
    let schemas: Vec<&serde_json::Value> = versions
        .into_iter()
        .flatten()
        .filter_map(|version| version.pointer("/schema/openAPIV3Schema"))
        .collect();
    // The rules compiled on every thread first, then estimated.
    super::schema::precompile(schemas.iter().copied());
    schemas
        .par_iter()
        .any(|schema| !cost::check(*schema).is_empty())
}

/// The cost findings of the CRD version schema `schema`, at
/// `spec.versions[index].schema.openAPIV3Schema`.
pub fn violations(schema: &Node, index: usize) -> Vec<Violation> {
    let prefix = format!("spec.versions[{index}].schema.openAPIV3Schema");
    cost::check(schema)
        .into_iter()
        .map(|finding| {
            Violation::new(
                Rule::CelRule,
                format!("{prefix}{}", dotted(&finding.at)),
                line_at(schema, &finding.at),
                message(&finding, &prefix),
            )
        })
        .collect()
}

/// What vergate says: the API server's error, the estimate, and the fix.
fn message(finding: &Finding, prefix: &str) -> String {
    let server = format!("{prefix}{}: {}", finding.field, finding.error);
    let whole = finding.at.is_empty();
    let limit = if whole || finding.error.contains("contributed") {
        format!("the CRD's limit {CRD_LIMIT}")
    } else {
        format!("the per-rule limit {RULE_LIMIT}")
    };
    let fix = if whole {
        "bound the lists, maps and strings read by the rules reported with it (maxItems, maxProperties, maxLength), or simplify them".to_owned()
    } else if finding.unbounded.is_empty() {
        "simplify the rule".to_owned()
    } else {
        format!(
            "set maxItems, maxProperties or maxLength on {}, or simplify the rule",
            finding.unbounded.join(", ")
        )
    };
    format!(
        "the API server refuses this CRD (\"{server}\"): estimated cost {} over {limit}; {fix}",
        finding.cost
    )
}

/// `steps` as vergate's dotted path (`.properties.spec.x-kubernetes-validations[0].rule`).
fn dotted(steps: &[Step]) -> String {
    steps
        .iter()
        .map(|step| match step {
            Step::Key(key) => format!(".{key}"),
            Step::Index(index) => format!("[{index}]"),
        })
        .collect()
}

/// The line of the node at `steps` below `node` (the deepest found).
fn line_at(node: &Node, steps: &[Step]) -> u32 {
    let mut here = node;
    for step in steps {
        let next = match (step, &here.value) {
            (Step::Key(key), Doc::Map(_)) => here.get(key),
            (Step::Index(index), Doc::Seq(items)) => items.get(*index),
            _ => None,
        };
        match next {
            Some(next) => here = next,
            None => break,
        }
    }
    here.line
}

#[cfg(test)]
mod tests {
    use super::violations;

    #[test]
    fn a_rule_over_the_limit_is_reported_at_its_line_with_the_fix() {
        let text = "type: object\nproperties:\n  items:\n    type: array\n    items:\n      type: string\n    x-kubernetes-validations:\n    - rule: self.all(x, self.all(y, x == y))\n";
        let parsed = crate::document::parse(text);
        let schema = &parsed.documents[0].root;
        let found = violations(schema, 0);
        assert_eq!(found.len(), 3, "{found:?}");
        let rule = &found[0];
        assert_eq!(rule.line, 8);
        assert_eq!(
            rule.path,
            "spec.versions[0].schema.openAPIV3Schema.properties.items.x-kubernetes-validations[0].rule"
        );
        assert!(rule.message.contains("\"spec.versions[0].schema.openAPIV3Schema.properties[items].x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)\""), "{}", rule.message);
        assert!(
            rule.message
                .contains("set maxItems, maxProperties or maxLength on items, items[*]"),
            "{}",
            rule.message
        );
        assert_eq!(found[2].line, 1);
        assert!(found[2].message.contains("x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget"));
    }
}
