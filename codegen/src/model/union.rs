//! Unions (`oneOf` / `anyOf`): a definition whose value is one of several
//! member schemas, optionally picked by a discriminator property.
//!
//! A union is a kind of definition ([`Schema::Union`] at the top of a
//! [`Definition`](super::Definition)), never an inline type: the loader
//! hoists a union met inside a property into a definition of its own, as it
//! does inline objects, so every union has a name every output can refer to
//! and a gate of its own, and each member a gate within it.

use super::{Lifecycle, Schema};
use std::collections::BTreeMap;
use vergate_core::gates::{DiscriminatorGate, TypeExpr, UnionGate, UnionKind};
use vergate_core::Version;

/// The members of a union, in the spec's order, and how they are told apart.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "load", derive(serde::Serialize, serde::Deserialize))]
pub struct UnionSchema {
    /// `oneOf` (exactly one member matches) or `anyOf` (at least one).
    pub kind: UnionKind,
    /// The members: references to definitions or scalar / list / map
    /// schemas (inline objects and nested unions are hoisted). No two have
    /// the same [`Schema::type_expr`].
    pub members: Vec<Schema>,
    pub discriminator: Option<Discriminator>,
}

/// OpenAPI's `discriminator`, resolved: which property names the member,
/// and which definition each of its values selects.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "load", derive(serde::Serialize, serde::Deserialize))]
pub struct Discriminator {
    /// The property's wire name (`propertyName`).
    pub property: String,
    /// Every value the property may take and the member definition it
    /// selects: the spec's `mapping`, plus, for each member definition no
    /// mapping entry names, the definition's own name (OpenAPI's implicit
    /// mapping).
    pub mapping: BTreeMap<String, String>,
}

impl UnionSchema {
    /// The members' type expressions, in order.
    pub fn member_types(&self) -> impl Iterator<Item = TypeExpr> + '_ {
        self.members.iter().map(Schema::type_expr)
    }

    /// The discriminator values that select `member` (a definition name),
    /// sorted.
    pub fn tags_of<'a>(&'a self, member: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.discriminator.iter().flat_map(move |discriminator| {
            discriminator
                .mapping
                .iter()
                .filter(move |(_, target)| *target == member)
                .map(|(value, _)| value.as_str())
        })
    }
}

/// A union's members across minors: each member's [`Lifecycle`], and the
/// kind, order and discriminator of the newest minor recorded.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct UnionLifecycle {
    pub kind: UnionKind,
    /// Each member's presence, by its type expression.
    pub members: BTreeMap<TypeExpr, Lifecycle>,
    /// The members in spec order: the newest minor's, then the members
    /// only older minors have, in their order.
    pub order: Vec<TypeExpr>,
    pub discriminator: Option<Discriminator>,
}

impl UnionLifecycle {
    /// Records the union as minor `version` has it. Minors are recorded
    /// oldest first, so the kind and discriminator end up the newest.
    pub fn record(&mut self, union: &UnionSchema, version: Version) {
        self.kind = union.kind;
        self.discriminator = union.discriminator.clone();
        let mut order: Vec<TypeExpr> = union.member_types().collect();
        for member in &order {
            self.members
                .entry(member.clone())
                .or_default()
                .presence
                .insert(version);
        }
        for older in &self.order {
            if !order.contains(older) {
                order.push(older.clone());
            }
        }
        self.order = order;
    }

    /// The serialized union part of the type's gate.
    pub fn to_gate(&self, corpus: &[Version]) -> UnionGate {
        UnionGate {
            kind: self.kind,
            members: self
                .members
                .iter()
                .map(|(member, lifecycle)| (member.clone(), lifecycle.to_gate(corpus)))
                .collect(),
            order: self.order.clone(),
            discriminator: self
                .discriminator
                .as_ref()
                .map(|discriminator| DiscriminatorGate {
                    property: discriminator.property.clone(),
                    mapping: discriminator.mapping.clone(),
                }),
        }
    }
}
