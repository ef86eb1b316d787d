//! Shape sharing: which per-minor definitions are the same Rust type.
//!
//! Two (minor, definition) pairs share a shape when the engine emits the
//! same item for both once references are written as definition names, and
//! every definition they refer to shares a shape too, transitively (cycles
//! included). This is a partition refinement: start from the items' text,
//! split classes by the classes their references fall in, until nothing
//! splits. Each shape is emitted once, in the module of the first minor that
//! has it (its *home*), and re-exported by every minor that has it.

use crate::model::GatedModel;
use std::collections::{BTreeMap, HashMap};
use vergate_core::Version;

/// Every distinct shape and where it is used.
#[derive(Debug)]
pub struct Shapes {
    /// The shape of each (minor, definition).
    shape_of: HashMap<(Version, String), usize>,
    /// The minors of each shape, ascending.
    minors: Vec<Vec<Version>>,
}

impl Shapes {
    /// Groups every minor's definitions of `model` into shapes, given the
    /// text of each (minor, definition)'s item with references written as
    /// definition names (`spec_layout::fingerprints`, per minor).
    pub fn new<'m>(
        model: &'m GatedModel,
        fingerprints: Vec<Vec<((Version, &'m str), String)>>,
    ) -> Shapes {
        let (nodes, texts): (Vec<(Version, &str)>, Vec<String>) =
            fingerprints.into_iter().flatten().unzip();
        let index: HashMap<(Version, &str), usize> = nodes
            .iter()
            .enumerate()
            .map(|(i, node)| (*node, i))
            .collect();
        let refs: Vec<Vec<usize>> = nodes
            .iter()
            .map(|(version, name)| {
                let definition = &model.minors[version].definitions[*name];
                let own = definition.schema.referenced();
                let fields = definition.object().into_iter().flat_map(|object| {
                    object
                        .properties
                        .values()
                        .filter_map(|p| p.schema.referenced())
                });
                // A union's members: a union of JSONSchemaProps is a new
                // shape in each minor whose JSONSchemaProps is.
                let members = definition
                    .union()
                    .into_iter()
                    .flat_map(|union| union.members.iter().filter_map(|m| m.referenced()));
                own.into_iter()
                    .chain(fields)
                    .chain(members)
                    .filter_map(|target| index.get(&(*version, target)).copied())
                    .collect()
            })
            .collect();
        let mut class = intern(texts.iter());
        let mut count = class.iter().max().map_or(0, |max| max + 1);
        loop {
            let keys: Vec<(usize, Vec<usize>)> = (0..nodes.len())
                .map(|i| (class[i], refs[i].iter().map(|r| class[*r]).collect()))
                .collect();
            let refined = intern(keys.iter());
            let refined_count = refined.iter().max().map_or(0, |max| max + 1);
            class = refined;
            if refined_count == count {
                break;
            }
            count = refined_count;
        }
        let mut minors = vec![Vec::new(); count];
        let mut shape_of = HashMap::with_capacity(nodes.len());
        for (i, (version, name)) in nodes.iter().enumerate() {
            minors[class[i]].push(*version);
            shape_of.insert((*version, (*name).to_owned()), class[i]);
        }
        Shapes { shape_of, minors }
    }

    /// The number of distinct shapes.
    #[allow(clippy::len_without_is_empty)]
    pub fn len(&self) -> usize {
        self.minors.len()
    }

    /// The minors that share the shape `name` has in `version`.
    pub fn minors(&self, version: Version, name: &str) -> &[Version] {
        &self.minors[self.shape_of[&(version, name.to_owned())]]
    }

    /// True when `name` has one shape in minors `a` and `b`.
    pub fn same(&self, name: &str, a: Version, b: Version) -> bool {
        let shape = |version| self.shape_of.get(&(version, name.to_owned()));
        shape(a).is_some() && shape(a) == shape(b)
    }

    /// The first minor that has the shape `name` has in `version`.
    pub fn home(&self, version: Version, name: &str) -> Version {
        self.minors(version, name)[0]
    }

    /// The (home, definition) of every shape, in home and name order.
    pub fn homes(&self) -> BTreeMap<Version, Vec<&str>> {
        let mut homes: BTreeMap<Version, Vec<&str>> = BTreeMap::new();
        for ((version, name), shape) in &self.shape_of {
            if self.minors[*shape][0] == *version {
                homes.entry(*version).or_default().push(name);
            }
        }
        for names in homes.values_mut() {
            names.sort_unstable();
        }
        homes
    }
}

/// A dense id per distinct key, in order of first appearance.
fn intern<K: std::hash::Hash + Eq>(keys: impl Iterator<Item = K>) -> Vec<usize> {
    let mut ids: HashMap<K, usize> = HashMap::new();
    keys.map(|key| {
        let next = ids.len();
        *ids.entry(key).or_insert(next)
    })
    .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Definition, MinorModel, Schema, UnionSchema};
    use vergate_core::gates::UnionKind;

    #[test]
    fn a_union_changes_shape_with_its_members() {
        let (old, new) = (Version::new(1, 0), Version::new(1, 1));
        let union = Schema::Union(UnionSchema {
            kind: UnionKind::AnyOf,
            members: vec![Schema::Ref("a.Props".into()), Schema::Boolean],
            discriminator: None,
        });
        let minors = [old, new]
            .map(|version| {
                let mut minor = MinorModel::new(version);
                for (name, schema) in [("a.Props", Schema::Any), ("a.PropsOrBool", union.clone())] {
                    minor
                        .definitions
                        .insert(name.into(), Definition::new(name, schema));
                }
                minor
            })
            .to_vec();
        let model = GatedModel::merge("a", minors).unwrap();
        // The union's own item reads the same in both minors; its member's
        // does not.
        let texts = |version: Version, props: &str| {
            vec![
                ((version, "a.Props"), props.to_owned()),
                ((version, "a.PropsOrBool"), "enum PropsOrBool".to_owned()),
            ]
        };
        let shapes = Shapes::new(
            &model,
            vec![
                texts(old, "struct Props {}"),
                texts(new, "struct Props { x }"),
            ],
        );
        assert!(!shapes.same("a.Props", old, new));
        assert!(!shapes.same("a.PropsOrBool", old, new));
        let shapes = Shapes::new(
            &model,
            vec![texts(old, "struct Props {}"), texts(new, "struct Props {}")],
        );
        assert!(shapes.same("a.PropsOrBool", old, new));
    }
}
