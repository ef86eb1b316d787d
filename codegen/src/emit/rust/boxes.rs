//! Which fields hold their type in a `Box`: a field that refers, by value
//! (not through a list or a map), to a type from which the field's own type
//! can be reached again by value. Without the box such a type would have
//! infinite size (`JSONSchemaProps.not: JSONSchemaProps`).

use crate::model::{GatedModel, MinorModel, Schema};
use std::collections::{BTreeMap, BTreeSet};
use vergate_core::Version;

/// The boxed fields of every minor: (definition, wire name) pairs.
#[derive(Debug, Default)]
pub struct Boxes(BTreeMap<Version, BTreeSet<(String, String)>>);

impl Boxes {
    /// Finds the boxed fields of every minor of `model`.
    pub fn new(model: &GatedModel) -> Boxes {
        Boxes(
            model
                .minors
                .iter()
                .map(|(version, minor)| (*version, boxed_fields(minor)))
                .collect(),
        )
    }

    /// True when field `wire` of `type_name` is boxed in `version`.
    pub fn contains(&self, version: Version, type_name: &str, wire: &str) -> bool {
        self.0
            .get(&version)
            .is_some_and(|set| set.contains(&(type_name.to_owned(), wire.to_owned())))
    }
}

/// The by-value references of each definition: (field, referenced definition).
fn by_value(minor: &MinorModel) -> BTreeMap<&str, Vec<(&str, &str)>> {
    minor
        .definitions
        .values()
        .map(|definition| {
            let edges = definition
                .object()
                .map(|object| {
                    object
                        .properties
                        .iter()
                        .filter_map(|(wire, property)| match &property.schema {
                            Schema::Ref(target) => Some((wire.as_str(), target.as_str())),
                            _ => None,
                        })
                        .collect()
                })
                .unwrap_or_default();
            (definition.name.as_str(), edges)
        })
        .collect()
}

fn boxed_fields(minor: &MinorModel) -> BTreeSet<(String, String)> {
    let edges = by_value(minor);
    let mut boxed = BTreeSet::new();
    for (from, fields) in &edges {
        for (wire, target) in fields {
            if reaches(&edges, target, from) {
                boxed.insert(((*from).to_owned(), (*wire).to_owned()));
            }
        }
    }
    boxed
}

/// True when `goal` can be reached from `start` by value (or is `start`).
fn reaches(edges: &BTreeMap<&str, Vec<(&str, &str)>>, start: &str, goal: &str) -> bool {
    let mut seen = BTreeSet::new();
    let mut pending = vec![start];
    while let Some(next) = pending.pop() {
        if next == goal {
            return true;
        }
        if seen.insert(next) {
            if let Some(fields) = edges.get(next) {
                pending.extend(fields.iter().map(|(_, target)| *target));
            }
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Definition, ObjectSchema, Property};

    fn object(name: &str, refs: &[(&str, Schema)]) -> Definition {
        let mut object = ObjectSchema::default();
        for (wire, schema) in refs {
            object
                .properties
                .insert((*wire).into(), Property::new(schema.clone()));
        }
        Definition::new(name, Schema::Object(object))
    }

    #[test]
    fn only_by_value_cycles_are_boxed() {
        let r = |name: &str| Schema::Ref(name.into());
        let mut minor = MinorModel::new(Version::new(1, 0));
        for definition in [
            object(
                "Props",
                &[
                    ("not", r("Props")),
                    ("items", Schema::Array(Box::new(r("Props")))),
                ],
            ),
            object("A", &[("b", r("B")), ("leaf", r("Leaf"))]),
            object("B", &[("a", r("A"))]),
            object("Leaf", &[]),
        ] {
            minor
                .definitions
                .insert(definition.name.clone(), definition);
        }
        let boxed = boxed_fields(&minor);
        let pairs: Vec<(&str, &str)> = boxed
            .iter()
            .map(|(a, b)| (a.as_str(), b.as_str()))
            .collect();
        assert_eq!(pairs, [("A", "b"), ("B", "a"), ("Props", "not")]);
    }
}
