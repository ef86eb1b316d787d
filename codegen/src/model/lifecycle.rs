//! Lifecycles: where a type, field or enum value is present, and what else is
//! known about its maturity. [`Lifecycle::to_gate`] turns one into the
//! serialized [`Gate`] of gates.json.

use std::collections::{BTreeMap, BTreeSet};
use vergate_core::gates::{
    ApiLifecycle, Constraints, FieldGate, Gate, GroupVersionKind, Inferred, Rename, Scalar, Stage,
    TypeExpr, TypeGate,
};
use vergate_core::{Version, VersionSet};

/// The lifecycle keys shared by types, fields and enum values.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Lifecycle {
    /// The minors it is present in.
    pub presence: VersionSet,
    /// The first minor in which it is deprecated.
    pub deprecated_in: Option<Version>,
    /// Its stage by the minor each stage starts in.
    pub stage: BTreeMap<Version, Stage>,
    pub feature_gate: Option<String>,
    /// Other gates its description names (see `Gate::related_feature_gates`).
    pub related_feature_gates: Vec<String>,
    pub reference: Option<String>,
    /// The keys that were inferred from a description's prose rather than
    /// read from the spec or an annotation (`model::prose_deprecations`,
    /// `model::prose_gates`), or carried back (an enum value's
    /// `introduced_in`).
    pub inferred: BTreeSet<Inferred>,
}

impl Lifecycle {
    /// The first minor it is present in.
    pub fn introduced_in(&self) -> Option<Version> {
        self.presence.first()
    }

    /// The first corpus minor after its last presence.
    pub fn removed_in(&self, corpus: &[Version]) -> Option<Version> {
        self.presence.removed_in(corpus)
    }

    /// True when it is present in `version`.
    pub fn is_present_in(&self, version: Version) -> bool {
        self.presence.contains(version)
    }

    /// True when it is deprecated in `version`.
    pub fn is_deprecated_in(&self, version: Version) -> bool {
        self.deprecated_in.is_some_and(|since| version >= since)
    }

    /// The stage in force in `version`, if stages are known.
    pub fn stage_in(&self, version: Version) -> Option<Stage> {
        vergate_core::gates::in_force(&self.stage, version).copied()
    }

    /// Records a deprecation seen in `version`; a structural one (a spec's
    /// `deprecated: true`, an annotation) wins over one inferred from prose.
    pub fn mark_deprecated(&mut self, version: Version, inferred: bool) {
        let was_inferred = self.inferred.contains(&Inferred::DeprecatedIn);
        match self.deprecated_in {
            None => {
                self.deprecated_in = Some(version);
                if inferred {
                    self.inferred.insert(Inferred::DeprecatedIn);
                }
            }
            Some(_) if was_inferred && !inferred => {
                self.deprecated_in = Some(version);
                self.inferred.remove(&Inferred::DeprecatedIn);
            }
            Some(_) => {}
        }
    }

    /// The serialized gate, relative to the corpus' minors.
    pub fn to_gate(&self, corpus: &[Version]) -> Gate {
        let introduced_in = self
            .introduced_in()
            .expect("a lifecycle in the gated model is present in at least one minor");
        Gate {
            introduced_in,
            removed_in: self.removed_in(corpus),
            present_in: (!self.presence.is_contiguous_in(corpus))
                .then(|| self.presence.iter().collect()),
            deprecated_in: self.deprecated_in,
            stage: self.stage.clone(),
            feature_gate: self.feature_gate.clone(),
            related_feature_gates: self.related_feature_gates.clone(),
            reference: self.reference.clone(),
            inferred: self.inferred.iter().copied().collect(),
        }
    }
}

/// A type's lifecycle, its kinds, and its fields' and enum values' lifecycles.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TypeLifecycle {
    pub lifecycle: Lifecycle,
    pub kinds: BTreeSet<GroupVersionKind>,
    /// Fields by wire name.
    pub fields: BTreeMap<String, FieldLifecycle>,
    /// The type's own enum values.
    pub values: BTreeMap<String, Lifecycle>,
    /// The type's own type in each minor it is present in (`object` for an
    /// object, whether or not it has fields).
    pub type_by_minor: BTreeMap<Version, TypeExpr>,
    /// The constraints on the type's own value in each minor it is present
    /// in (empty ones included, so a constraint added or dropped is a change).
    pub constraints_by_minor: BTreeMap<Version, Constraints>,
    /// Whether its objects accept fields beyond its own, in each minor.
    pub open_by_minor: BTreeMap<Version, bool>,
    /// The deprecation warning of the newest minor that has one.
    pub deprecation_warning: Option<String>,
    /// What each minor's API server says of the kind, where the API's
    /// project publishes it (`GatedModel::apply_api_lifecycle`).
    pub api_lifecycle: BTreeMap<Version, ApiLifecycle>,
    /// The members and their lifecycles, when the type is a union in some
    /// minor.
    pub union: Option<super::UnionLifecycle>,
    /// The cross-field rules the refinements overlay declares for it.
    pub rules: Vec<vergate_core::gates::CrossFieldRule>,
}

impl TypeLifecycle {
    /// The serialized gate of the type and everything in it. Its own type
    /// is written only when some minor has it other than an object.
    pub fn to_gate(&self, corpus: &[Version]) -> TypeGate {
        let object = TypeExpr::Scalar(Scalar::Object);
        let (ty, type_history) = if self.type_by_minor.values().all(|ty| *ty == object) {
            (None, BTreeMap::new())
        } else {
            (
                self.type_by_minor.values().next_back().cloned(),
                type_history(&self.type_by_minor),
            )
        };
        TypeGate {
            gate: self.lifecycle.to_gate(corpus),
            ty,
            type_history,
            kinds: self.kinds.iter().cloned().collect(),
            fields: self
                .fields
                .iter()
                .map(|(name, field)| (name.clone(), field.to_gate(corpus)))
                .collect(),
            values: gates_of(&self.values, corpus),
            constraints: newest(&self.constraints_by_minor),
            constraints_history: history(&self.constraints_by_minor),
            open: self
                .open_by_minor
                .values()
                .next_back()
                .copied()
                .unwrap_or(false),
            deprecation_warning: self.deprecation_warning.clone(),
            api_lifecycle: self.api_lifecycle.clone(),
            union: self.union.as_ref().map(|union| union.to_gate(corpus)),
            rules: self.rules.clone(),
        }
    }
}

/// The constraints of the newest minor (none when no minor has any).
fn newest(by_minor: &BTreeMap<Version, Constraints>) -> Constraints {
    by_minor.values().next_back().cloned().unwrap_or_default()
}

/// A field's lifecycle plus what changes about it from minor to minor.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FieldLifecycle {
    pub lifecycle: Lifecycle,
    /// The minors in which the field is required.
    pub required: VersionSet,
    /// The field's type expression in each minor it is present in.
    pub type_by_minor: BTreeMap<Version, TypeExpr>,
    /// The field's enum values.
    pub values: BTreeMap<String, Lifecycle>,
    /// The enum values of each element (a list's items or a map's values).
    pub element_values: BTreeMap<String, Lifecycle>,
    pub renamed_from: Option<Rename>,
    /// The first minor whose spec lists the field's enum values, when the
    /// field is older than that list.
    pub values_known_from: Option<Version>,
    /// The constraints on the field's value in each minor it is present in
    /// (empty ones included, so a constraint dropped is a change).
    pub constraints_by_minor: BTreeMap<Version, Constraints>,
}

impl FieldLifecycle {
    /// The minors whose type differs from the field's previous presence.
    pub fn type_changed_in(&self) -> Vec<Version> {
        type_changed_in(&self.type_by_minor)
    }

    /// The serialized gate of the field.
    pub fn to_gate(&self, corpus: &[Version]) -> FieldGate {
        FieldGate {
            gate: self.lifecycle.to_gate(corpus),
            ty: self
                .type_by_minor
                .values()
                .next_back()
                .cloned()
                .unwrap_or_default(),
            required_in: self.required.iter().collect(),
            type_changed_in: self.type_changed_in(),
            type_history: type_history(&self.type_by_minor),
            renamed_from: self.renamed_from.clone(),
            values: gates_of(&self.values, corpus),
            element_values: gates_of(&self.element_values, corpus),
            values_known_from: self.values_known_from,
            constraints: newest(&self.constraints_by_minor),
            constraints_history: history(&self.constraints_by_minor),
        }
    }
}

/// The minors whose type differs from the previous minor's.
fn type_changed_in(by_minor: &BTreeMap<Version, TypeExpr>) -> Vec<Version> {
    changed_in(by_minor)
}

/// The minors whose value differs from the previous minor's.
fn changed_in<T: PartialEq>(by_minor: &BTreeMap<Version, T>) -> Vec<Version> {
    by_minor
        .iter()
        .zip(by_minor.iter().skip(1))
        .filter(|((_, before), (_, after))| before != after)
        .map(|(_, (version, _))| *version)
        .collect()
}

/// The type by the minor it starts in; empty when it never changes.
fn type_history(by_minor: &BTreeMap<Version, TypeExpr>) -> BTreeMap<Version, TypeExpr> {
    history(by_minor)
}

/// The value by the minor it starts in; empty when it never changes.
fn history<T: PartialEq + Clone>(by_minor: &BTreeMap<Version, T>) -> BTreeMap<Version, T> {
    if changed_in(by_minor).is_empty() {
        return BTreeMap::new();
    }
    let mut history = BTreeMap::new();
    let mut previous: Option<&T> = None;
    for (version, ty) in by_minor {
        if previous != Some(ty) {
            history.insert(*version, ty.clone());
        }
        previous = Some(ty);
    }
    history
}

fn gates_of(values: &BTreeMap<String, Lifecycle>, corpus: &[Version]) -> BTreeMap<String, Gate> {
    values
        .iter()
        .map(|(value, lifecycle)| (value.clone(), lifecycle.to_gate(corpus)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(minor: u32) -> Version {
        Version::new(1, minor)
    }

    #[test]
    fn structural_deprecation_wins_over_inferred() {
        let mut lifecycle = Lifecycle::default();
        lifecycle.mark_deprecated(v(30), true);
        assert_eq!(lifecycle.deprecated_in, Some(v(30)));
        assert!(lifecycle.inferred.contains(&Inferred::DeprecatedIn));
        lifecycle.mark_deprecated(v(32), false);
        assert_eq!(lifecycle.deprecated_in, Some(v(32)));
        assert!(lifecycle.inferred.is_empty());
        lifecycle.mark_deprecated(v(33), true);
        assert_eq!(lifecycle.deprecated_in, Some(v(32)));
    }

    #[test]
    fn a_type_has_its_own_type_only_when_not_an_object() {
        let corpus = [v(28), v(29)];
        let mut object = TypeLifecycle::default();
        let mut scalar = TypeLifecycle::default();
        for minor in [28, 29] {
            object.lifecycle.presence.insert(v(minor));
            object
                .type_by_minor
                .insert(v(minor), TypeExpr::Scalar(Scalar::Object));
            scalar.lifecycle.presence.insert(v(minor));
            let ty = if minor == 28 {
                "string"
            } else {
                "int-or-string"
            };
            scalar.type_by_minor.insert(v(minor), ty.parse().unwrap());
        }
        let object = object.to_gate(&corpus);
        assert_eq!((object.ty, object.type_history.len()), (None, 0));
        let scalar = scalar.to_gate(&corpus);
        assert_eq!(scalar.ty.as_ref().unwrap(), "int-or-string");
        assert_eq!(scalar.type_in(v(28)).unwrap(), "string");
        assert_eq!(scalar.type_in(v(29)).unwrap(), "int-or-string");
    }

    #[test]
    fn type_changes_are_listed_by_the_minor_they_start_in() {
        let mut field = FieldLifecycle::default();
        for (minor, ty) in [
            (28, "string"),
            (29, "string"),
            (30, "integer(int32)"),
            (31, "integer(int32)"),
        ] {
            field.lifecycle.presence.insert(v(minor));
            field.type_by_minor.insert(v(minor), ty.parse().unwrap());
        }
        assert_eq!(field.type_changed_in(), vec![v(30)]);
        let gate = field.to_gate(&[v(28), v(29), v(30), v(31)]);
        assert_eq!(gate.ty, "integer(int32)");
        assert_eq!(gate.type_history.len(), 2);
        assert_eq!(gate.type_in(v(29)), "string");
        assert_eq!(gate.type_in(v(31)), "integer(int32)");
    }
}
