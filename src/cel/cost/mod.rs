//! The API server's static (estimated) cost of CRD validation rules, as it
//! computes it when a CRD is created or updated, and the limits it refuses
//! a CRD by.
//!
//! - `decl`: a schema node's type with its size facts (`maxLength`,
//!   `maxItems`, `maxProperties`, else the worst case a 3 MiB request
//!   allows).
//! - `ty`: the CEL types the model needs, inferred without a checker.
//! - `est`: cel-go's `{min, max}` sizes and costs, saturating.
//! - `estimate`: cel-go's cost estimate over a rule's syntax tree.
//! - `calls`: what each function costs (standard library, Kubernetes
//!   libraries); `arg`: what a call's cost sees of its arguments;
//!   `actual`: what a call costs when it runs, from its values (the
//!   runtime side of the same tables, for [`crate::cel::meter`]).
//! - `limits`: per-rule and per-CRD limits over a schema, with the API
//!   server's messages.

pub mod actual;
mod arg;
mod calls;
pub mod decl;
mod est;
mod estimate;
pub mod limits;
mod ty;

pub use decl::Decl;
pub use estimate::max_cost;
pub use limits::{check, report, Finding, Report, Step, CRD_LIMIT, RULE_LIMIT};

/// The estimated cost (cel-go's maximum, before the cardinality) of the
/// rule `source` on a node of schema `schema` (`resource_root` for a CRD's
/// root or an embedded resource); `Err` when the rule does not compile.
pub fn rule_cost(
    source: &str,
    schema: &serde_json::Value,
    resource_root: bool,
) -> Result<u64, String> {
    let rule = crate::cel::rule::CompiledRule::compile(&serde_json::json!({ "rule": source }))
        .ok_or("no rule")?;
    rule.program?;
    let decl = Decl::of(schema, resource_root).ok_or("the schema gives rules no type")?;
    let expression = rule
        .expression
        .as_ref()
        .ok_or("the rule does not compile")?;
    max_cost(expression, &decl)
        .ok_or_else(|| "the rule selects a field the schema does not declare".to_owned())
}

#[cfg(test)]
mod tests {
    use super::rule_cost;
    use serde_json::json;

    /// Derived by hand from cel-go's `checker/cost.go`: the `map` builds a
    /// list (10 for `[]`, per item `@result + [x.name]`: 1 + 1 + (2 + 10) =
    /// 14; 1 + 10 + 1 + 10 × 14 = 152), and `all` ranges over its 10
    /// items at 5 each (`startsWith` of a 1-character literal: 2; the loop
    /// condition 2; `&&` 1) plus 1 for the result: 152 + 1 + 50 = 203.
    #[test]
    fn a_mapped_list_is_ranged_over_at_its_source_size() {
        let names = json!({"type": "array", "maxItems": 10, "items": {"type": "object",
            "properties": {"name": {"type": "string", "maxLength": 10}}}});
        let rule = "self.map(x, x.name).all(n, n.startsWith('a'))";
        assert_eq!(rule_cost(rule, &names, false), Ok(203));
        // Selecting a field the schema does not declare: not costed.
        assert!(rule_cost("self.all(x, x.nickname == 'a')", &names, false).is_err());
    }
}
