//! The cross-field rules of a type (`vergate_core::gates::CrossFieldRule`,
//! declared in the refinements overlay) as Pkl type constraints: calls of
//! the minor's shared.pkl rule functions, which fail with the API server's
//! message (the words `vergate check` reports, from
//! `vergate_core::gates::cross_field`):
//!
//! - a list rule (`UniqueKey`, `KeyRequiredWhenMany`) constrains the list
//!   property's value: `ports[1].name: Duplicate value: "http"`;
//! - `ExactlyOneOf` constrains the first of its fields the minor has, null
//!   included, reading the others as sibling properties:
//!   `tcpSocket: Forbidden: may not specify more than 1 handler type`;
//! - `OneOrMoreOf` likewise, failing at the object:
//!   `Forbidden: may not specify both ipBlock and another peer`.

use super::builder::{Builder, SHARED};
use super::escape::pkl_string;
use crate::model::{Definition, ObjectSchema};
use vergate_core::alias::pkl_identifier;
use vergate_core::gates::CrossFieldRule;

/// `Pair("podSelector", this), Pair("namespaceSelector", namespaceSelector)`:
/// the fields of an object rule the minor has, in order, the first read as
/// `this`, when the property `name` is that first one and the minor has at
/// least `least` of them.
fn sibling_pairs(
    object: &ObjectSchema,
    fields: &[String],
    name: &str,
    least: usize,
) -> Option<String> {
    let present: Vec<&String> = fields
        .iter()
        .filter(|field| object.properties.contains_key(*field))
        .collect();
    if present.len() < least || present.first().is_none_or(|first| *first != name) {
        return None;
    }
    let pairs: Vec<String> = present
        .iter()
        .enumerate()
        .map(|(index, field)| {
            let value = if index == 0 {
                "this".to_owned()
            } else {
                pkl_identifier(field).into_owned()
            };
            format!("Pair({}, {value})", pkl_string(field))
        })
        .collect();
    Some(pairs.join(", "))
}

/// The checks a property's type makes: `value` on its value when set,
/// `whole` on the property whatever its value (null too).
#[derive(Debug, Default)]
pub(super) struct Checks {
    pub value: Vec<String>,
    pub whole: Vec<String>,
}

impl Builder<'_, '_> {
    /// The checks the rules of `definition` put on its property `name`:
    /// calls of shared.pkl's rule functions, so an error shows a short line.
    pub(super) fn rule_checks(&self, definition: &Definition, name: &str) -> Checks {
        let mut checks = Checks::default();
        let Some(object) = definition.object() else {
            return checks;
        };
        let shared = self.alias(SHARED);
        let rules = &self.subtree.model.types[&definition.name].rules;
        for rule in rules {
            match rule {
                CrossFieldRule::UniqueKey { field, key } if field == name => {
                    checks.value.push(format!(
                        "{shared}.uniqueKey(this, {}, {})",
                        pkl_string(field),
                        pkl_string(key)
                    ))
                }
                CrossFieldRule::KeyRequiredWhenMany { field, key } if field == name => {
                    checks.value.push(format!(
                        "{shared}.keyRequiredWhenMany(this, {}, {})",
                        pkl_string(field),
                        pkl_string(key)
                    ))
                }
                CrossFieldRule::ExactlyOneOf {
                    fields,
                    none,
                    too_many,
                } => {
                    let Some(pairs) = sibling_pairs(object, fields, name, 2) else {
                        continue;
                    };
                    checks.whole.push(format!(
                        "{shared}.exactlyOne(List({pairs}), {}, {})",
                        pkl_string(none),
                        pkl_string(too_many),
                    ));
                }
                CrossFieldRule::OneOrMoreOf {
                    fields,
                    alone,
                    none,
                    too_many,
                } => {
                    let Some(pairs) = sibling_pairs(object, fields, name, 1) else {
                        continue;
                    };
                    checks.whole.push(format!(
                        "{shared}.oneOrMore(List({pairs}), {}, {}, {})",
                        pkl_string(alone),
                        pkl_string(none),
                        pkl_string(too_many),
                    ));
                }
                _ => {}
            }
        }
        checks
    }
}
