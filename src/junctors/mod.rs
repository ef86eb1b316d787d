//! The logical junctors of CRD schemas (`allOf`, `anyOf`, `oneOf`, `not`),
//! evaluated over custom resources as the API server evaluates them.
//!
//! In a structural schema the junctors hold value validations only (no
//! types), so the CRD reader moves them out of the type model, under
//! `x-vergate-value-validations` (see `vergate_codegen`'s `load/crd.rs`),
//! and the schema tree ([`crate::cel::schema`]) keeps them on the nodes
//! that hold some, read in its one pass. [`check`] walks a custom resource,
//! already defaulted (`schema::defaults`, as the API server defaults before
//! it validates), to those nodes and validates the value there
//! (`validate.rs`).
//!
//! Linear in the schema: each node keeps only its own junctors, and a
//! document's value is validated against them where it lies. Bounded:
//! the tree is read to `schema::MAX_DEPTH`, junctors nested at most
//! `validate::MAX_DEPTH` deep are followed, and one document's junctors
//! visit at most `validate::MAX_VISITS` schemas; the first bound reached
//! is a warning (rule `junctor`) naming it, the CRD (its file, name and
//! version) and the schema path where it was reached.

mod validate;

use crate::cel::schema::line::line_of;
use crate::cel::schema::{defaults, SchemaNode, ServedSchema, MAX_DEPTH};
use crate::document::{Node, Value};
use crate::preflight::{Deviation, Rule, Violation};
use crate::Version;

/// What the junctors give a resource: `NOT_CHECKED` words the warnings.
const NOT_CHECKED: &str = "the CRD's allOf / anyOf / oneOf / not";

/// The API server's errors for the junctors of `schema` that `root`, a
/// custom resource, fails once defaulted by `schema`'s tree (`defaults_cut`:
/// where its defaults ran out, which leaves it unjudged); `minor` is the
/// Kubernetes minor whose formats apply (`None` for another API: the
/// formats of every minor). A bound reached is a warning that names it,
/// the CRD and the schema where it was reached.
pub fn check(
    schema: &ServedSchema,
    root: &Node,
    defaults_cut: Option<&defaults::Cut>,
    minor: Option<Version>,
) -> Vec<Violation> {
    let mut walk = Walk {
        validator: validate::Validator::new(minor),
        violations: Vec::new(),
        cut_place: None,
    };
    if let Some(at) = &schema.junctors_cut {
        let message = format!(
            "{NOT_CHECKED} were not all checked: the schema nests deeper than {MAX_DEPTH} levels at {at} ({}); nest it less deeply",
            schema.crd
        );
        let violation = Violation::new(Rule::Junctor, "", root.line, message);
        walk.violations
            .push(violation.deviating(Deviation::NotChecked));
    }
    if !schema.tree.junctors_below {
        return walk.violations;
    }
    if let Some(cut) = defaults_cut {
        walk.violations
            .push(cut.violation(Rule::Junctor, NOT_CHECKED, &schema.crd, root));
        return walk.violations;
    }
    walk.node(&schema.tree, root, root.line, String::new(), true);
    if let (Some(cut), Some(place)) = (&walk.validator.cut, walk.cut_place) {
        let (why, fix) = match cut.bound {
            validate::Bound::Visits => (
                format!(
                    "this document would visit more than {} of their schemas",
                    crate::findings::grouped(validate::MAX_VISITS)
                ),
                "; use fewer branches, or fewer items under them",
            ),
            validate::Bound::Depth => (
                format!("they nest deeper than {} levels", validate::MAX_DEPTH),
                "; nest them less deeply",
            ),
        };
        let line = line_of(root, "", &cut.path).unwrap_or(root.line);
        let message = format!(
            "{NOT_CHECKED} were not all checked: {why} at {place}{} ({}){fix}",
            cut.schema, schema.crd
        );
        let violation = Violation::new(Rule::Junctor, cut.path.clone(), line, message);
        walk.violations
            .push(violation.deviating(Deviation::NotChecked));
    }
    walk.violations
}

/// A walk of one document to the nodes that hold junctors.
struct Walk<'j> {
    validator: validate::Validator<'j>,
    violations: Vec<Violation>,
    /// The schema path of the node being validated when a bound was
    /// first reached.
    cut_place: Option<&'j str>,
}

impl<'j> Walk<'j> {
    /// Walks `node` (at `line`, the line defaults laid in it take) to the
    /// nodes of `tree` with junctors. Each junctor's value is defaulted
    /// where the walk reaches it ([`defaults::apply_at`]), and an absent
    /// property with a default is walked as laid: the values the API
    /// server's one defaulting gives, without copying the resource.
    fn node(&mut self, tree: &'j SchemaNode, node: &Node, line: u32, path: String, is_root: bool) {
        if matches!(node.value, Value::Null) {
            return;
        }
        if let Some(junctors) = &tree.junctors {
            let defaulted = defaults::apply_at(tree, node, line, is_root);
            self.junctors(junctors, &defaulted.root, &path);
        }
        let child = |key: &str| {
            if path.is_empty() {
                key.to_owned()
            } else {
                format!("{path}.{key}")
            }
        };
        match &node.value {
            Value::Map(entries) => {
                for entry in entries {
                    // `metadata` is ObjectMeta's.
                    if is_root && entry.key == "metadata" {
                        continue;
                    }
                    let inner = match tree.properties.get(entry.key.as_str()) {
                        Some(inner) => Some(inner),
                        None => tree.values.as_deref(),
                    };
                    if let Some(inner) = inner.filter(|inner| inner.junctors_below) {
                        self.node(inner, &entry.value, entry.line, child(&entry.key), false);
                    }
                }
                // The defaults laid after the entries, in the tree's order.
                for (name, property) in &tree.properties {
                    let Some(default) = property.default.as_ref() else {
                        continue;
                    };
                    if !property.junctors_below
                        || (is_root && name == "metadata")
                        || entries.iter().any(|entry| entry.key == name.as_str())
                    {
                        continue;
                    }
                    let laid = defaults::node_of_json(default, line);
                    self.node(property, &laid, line, child(name), false);
                }
            }
            Value::Seq(items) => {
                if let Some(inner) = tree.items.as_deref().filter(|inner| inner.junctors_below) {
                    for (index, item) in items.iter().enumerate() {
                        self.node(inner, item, item.line, format!("{path}[{index}]"), false);
                    }
                }
            }
            _ => {}
        }
    }

    /// Validates the value of `node` against `junctors`, reporting each
    /// error at the line of the value it names (or of `node`).
    fn junctors(&mut self, junctors: &'j crate::cel::schema::Junctors, node: &Node, path: &str) {
        // Once a bound is reached, a branch cut short looks valid: no
        // verdict is given past that point.
        if self.validator.cut.is_some() {
            return;
        }
        let value = node.to_json();
        let outcome = self
            .validator
            .validate(&junctors.validations, &value, path, 0);
        if self.validator.cut.is_some() {
            self.cut_place = Some(junctors.schema.as_str());
            return;
        }
        for finding in outcome.errors {
            let line = line_of(node, path, &finding.path).unwrap_or(node.line);
            self.violations.push(Violation::new(
                Rule::Junctor,
                finding.path,
                line,
                finding.message,
            ));
        }
    }
}

#[cfg(test)]
mod tests;
