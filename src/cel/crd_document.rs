//! A CustomResourceDefinition among the inputs, checked as the API server
//! of the target minor compiles its rules when it is created: the libraries
//! its rules call, and their estimated cost ([`super::crd_cost`]).
//!
//! The API server keeps two CEL environments (k8s.io/apiserver
//! `pkg/cel/environment`): `NewExpressions`, at its compatibility version
//! (the previous minor), for expressions it has not stored yet, and
//! `StoredExpressions`, at its own minor, for expressions it already holds.
//! A new CRD's rules compile in the first, so a rule calling a function of
//! a library that arrived in the target minor itself is refused on create,
//! and so is such a rule added by an update; a rule a stored CRD already
//! holds, unchanged, compiles in the second (and custom resources are
//! validated against stored CRDs, so they are checked with the target's
//! own libraries). A library from a later minor is refused by both.
//!
//! Its schemas are read as written (every version), by the one walk of
//! [`written`].

use super::library;
use super::rule::CompiledRule;
use super::schema::written::{self, Written};
use crate::document::Node;
use crate::preflight::{Rule, Violation};
use crate::Version;

/// The rules of the CRD document `root` that the API server of `target`
/// refuses when the CRD is created, for a library its environment for new
/// expressions does not offer or for their estimated cost. Empty for any
/// other document.
pub fn check(root: &Node, target: Version) -> Vec<Violation> {
    let is_crd = crate::gates::is_crd(
        root.get("apiVersion").and_then(Node::as_str),
        root.get("kind").and_then(Node::as_str),
    );
    let mut found = Vec::new();
    if !is_crd {
        return found;
    }
    let Some(spec) = root.get("spec") else {
        return found;
    };
    for (at, schema) in written::versions(spec, false) {
        written::walk(schema, &mut |schema, steps| {
            let rules = schema
                .get("x-kubernetes-validations")
                .map_or(&[][..], Written::items);
            for (index, rule) in rules.iter().enumerate() {
                let path = format!(
                    "{}.x-kubernetes-validations[{index}].rule",
                    written::dotted(&at.field, steps)
                );
                rule_at(rule, path, target, &mut found);
            }
        });
    }
    found.extend(super::crd_cost::of_crd(root));
    found
}

/// Reports the rule `entry` (one item of `x-kubernetes-validations`) when
/// it calls a function the new-expressions environment of `target` lacks.
fn rule_at(entry: &Node, path: String, target: Version, found: &mut Vec<Violation>) {
    let Some(source) = entry.get("rule") else {
        return;
    };
    let Some(text) = source.as_str() else {
        return;
    };
    let Some(rule) = CompiledRule::compile_shared(&serde_json::json!({ "rule": text })) else {
        return;
    };
    let previous = Version::new(target.major(), target.minor().saturating_sub(1));
    let late = rule.functions.iter().find_map(|function| {
        library::library_of(function)
            .filter(|library| library.since > previous)
            .map(|library| (function, library))
    });
    let Some((function, library)) = late else {
        return;
    };
    let function = library::display_name(function);
    let message = if library.since > target {
        format!(
            "the rule calls `{function}` ({} library, from {}), which the API server of {target} does not offer: it refuses the CRD (\"compilation failed: ERROR: undeclared reference to '{function}'\"); remove the call, or create the CRD on {} or later",
            library.name, library.since, library.since
        )
    } else {
        format!(
            "the rule calls `{function}` ({} library, new in {target}): the API server of {target} compiles a new CRD's rules with the libraries of {previous} and refuses it on create (\"compilation failed: ERROR: undeclared reference to '{function}'\"); a stored CRD whose rule is unchanged keeps it (it compiles with {target}'s own libraries), but a rule new in an update is refused too: create the CRD without the rule, or on {} or later",
            library.name,
            Version::new(target.major(), target.minor() + 1)
        )
    };
    found.push(Violation::new(Rule::CelRule, path, source.line, message));
}

#[cfg(test)]
mod tests {
    use super::check;
    use crate::Version;

    fn crd(rule: &str) -> crate::document::Node {
        let text = format!(
            "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nspec:\n  versions:\n  - name: v1\n    schema:\n      openAPIV3Schema:\n        type: object\n        properties:\n          spec:\n            type: object\n            x-kubernetes-validations:\n            - rule: \"{rule}\"\n"
        );
        let parsed = crate::document::parse(&text);
        parsed
            .documents
            .into_iter()
            .next()
            .expect("one document")
            .root
    }

    /// `isIP` comes with the IP library of 1.30: a new CRD using it is
    /// refused by 1.30 (its new expressions have 1.29's libraries) and by
    /// 1.29, and accepted by 1.31.
    #[test]
    fn a_library_of_the_target_minor_is_refused_on_create() {
        let root = crd("isIP(self.address)");
        let at = |minor| check(&root, Version::new(1, minor));
        let refused = at(30);
        assert_eq!(refused.len(), 1, "{refused:?}");
        assert!(
            refused[0].message.contains("refuses it on create"),
            "{}",
            refused[0].message
        );
        assert_eq!(
            refused[0].path,
            "spec.versions[0].schema.openAPIV3Schema.properties.spec.x-kubernetes-validations[0].rule"
        );
        assert_eq!(refused[0].line, 13);
        assert!(at(29)[0].message.contains("does not offer"));
        assert!(at(31).is_empty());
        assert!(check(&crd("self.a == 1"), Version::new(1, 28)).is_empty());
    }
}
