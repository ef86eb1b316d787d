//! A union definition's part of gates.json: which members it has (each with
//! its own gate, so a member that appears or disappears in a minor is
//! visible), whether exactly one or at least one must match, and the
//! discriminator that picks a member by a property's value.

use super::{Gate, TypeExpr};
use crate::Version;
use std::collections::BTreeMap;

/// How many members of a union a value must match.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum UnionKind {
    /// OpenAPI `oneOf`: exactly one member.
    #[default]
    #[cfg_attr(feature = "serde", serde(rename = "oneOf"))]
    OneOf,
    /// OpenAPI `anyOf`: at least one member.
    #[cfg_attr(feature = "serde", serde(rename = "anyOf"))]
    AnyOf,
}

impl UnionKind {
    /// The keyword as OpenAPI and JSON Schema write it.
    pub fn keyword(self) -> &'static str {
        match self {
            UnionKind::OneOf => "oneOf",
            UnionKind::AnyOf => "anyOf",
        }
    }
}

/// The union part of a definition's gate.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct UnionGate {
    /// `oneOf` or `anyOf`, in the newest minor the union is present in.
    pub kind: UnionKind,
    /// The members by their type expression (`dev.shipyard.Image`,
    /// `string`, `[]integer`), each with the minors it is a member in.
    pub members: BTreeMap<TypeExpr, Gate>,
    /// The members in the order the spec lists them, in the newest minor
    /// each is present in (an untagged value is tried in this order).
    pub order: Vec<TypeExpr>,
    /// The discriminator, in the newest minor that has one.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub discriminator: Option<DiscriminatorGate>,
}

/// OpenAPI's `discriminator`: the property whose value names the member.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct DiscriminatorGate {
    /// The property's wire name (`propertyName`).
    pub property: String,
    /// Each value of the property and the definition it selects: the
    /// spec's `mapping`, plus each member definition's own name for the
    /// members no mapping entry names (OpenAPI's implicit mapping).
    pub mapping: BTreeMap<String, String>,
}

impl UnionGate {
    /// The members present in `version`, in the spec's order.
    pub fn members_in(&self, version: Version) -> impl Iterator<Item = &TypeExpr> {
        self.order.iter().filter(move |member| {
            self.members
                .get(*member)
                .is_some_and(|gate| gate.is_present_in(version))
        })
    }
}

#[cfg(all(test, feature = "serde"))]
mod tests {
    use super::*;

    #[test]
    fn a_union_gate_reads_back_what_it_writes() {
        let v = |text: &str| text.parse::<Version>().unwrap();
        let image: TypeExpr = "dev.shipyard.Image".parse().unwrap();
        let text: TypeExpr = "string".parse().unwrap();
        let union = UnionGate {
            kind: UnionKind::AnyOf,
            members: BTreeMap::from([
                (
                    image.clone(),
                    Gate {
                        introduced_in: v("1.12"),
                        ..Gate::default()
                    },
                ),
                (
                    text.clone(),
                    Gate {
                        introduced_in: v("1.11"),
                        ..Gate::default()
                    },
                ),
            ]),
            order: vec![text.clone(), image.clone()],
            discriminator: None,
        };
        let json = serde_json::to_value(&union).unwrap();
        assert_eq!(json["kind"], "anyOf");
        assert_eq!(
            json["members"]["dev.shipyard.Image"]["introduced_in"],
            "1.12"
        );
        let back: UnionGate = serde_json::from_value(json).unwrap();
        assert_eq!(back, union);
        assert_eq!(back.members_in(v("1.11")).collect::<Vec<_>>(), [&text]);
        assert_eq!(back.members_in(v("1.12")).count(), 2);
    }
}
