//! Lifecycles: where a type, field or enum value is present, and what else is
//! known about its maturity. [`Lifecycle::to_gate`] turns one into the
//! serialized [`Gate`] of gates.json.

use std::collections::{BTreeMap, BTreeSet};
use vergate_core::gates::{FieldGate, Gate, GroupVersionKind, Rename, Stage, TypeGate};
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
    pub reference: Option<String>,
    /// The keys that were inferred from a description's prose rather than
    /// read from the spec or an annotation: only `deprecated_in` is ever
    /// inferred (see `model::description_says_deprecated`).
    pub inferred: BTreeSet<&'static str>,
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

    /// Records a deprecation seen in `version`; a structural one (a spec's
    /// `deprecated: true`, an annotation) wins over one inferred from prose.
    pub fn mark_deprecated(&mut self, version: Version, inferred: bool) {
        let was_inferred = self.inferred.contains("deprecated_in");
        match self.deprecated_in {
            None => {
                self.deprecated_in = Some(version);
                if inferred {
                    self.inferred.insert("deprecated_in");
                }
            }
            Some(_) if was_inferred && !inferred => {
                self.deprecated_in = Some(version);
                self.inferred.remove("deprecated_in");
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
            reference: self.reference.clone(),
            inferred: self.inferred.iter().map(|key| (*key).to_owned()).collect(),
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
}

impl TypeLifecycle {
    /// The serialized gate of the type and everything in it.
    pub fn to_gate(&self, corpus: &[Version]) -> TypeGate {
        TypeGate {
            gate: self.lifecycle.to_gate(corpus),
            kinds: self.kinds.iter().cloned().collect(),
            fields: self
                .fields
                .iter()
                .map(|(name, field)| (name.clone(), field.to_gate(corpus)))
                .collect(),
            values: gates_of(&self.values, corpus),
        }
    }
}

/// A field's lifecycle plus what changes about it from minor to minor.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FieldLifecycle {
    pub lifecycle: Lifecycle,
    /// The minors in which the field is required.
    pub required: VersionSet,
    /// The field's type expression in each minor it is present in.
    pub type_by_minor: BTreeMap<Version, String>,
    /// The field's enum values.
    pub values: BTreeMap<String, Lifecycle>,
    /// The enum values of each element (a list's items or a map's values).
    pub element_values: BTreeMap<String, Lifecycle>,
    pub renamed_from: Option<Rename>,
}

impl FieldLifecycle {
    /// The minors whose type differs from the field's previous presence.
    pub fn type_changed_in(&self) -> Vec<Version> {
        self.type_by_minor
            .iter()
            .zip(self.type_by_minor.iter().skip(1))
            .filter(|((_, before), (_, after))| before != after)
            .map(|(_, (version, _))| *version)
            .collect()
    }

    /// The serialized gate of the field.
    pub fn to_gate(&self, corpus: &[Version]) -> FieldGate {
        let changed = self.type_changed_in();
        let type_history = if changed.is_empty() {
            BTreeMap::new()
        } else {
            let mut history = BTreeMap::new();
            let mut previous: Option<&String> = None;
            for (version, ty) in &self.type_by_minor {
                if previous != Some(ty) {
                    history.insert(*version, ty.clone());
                }
                previous = Some(ty);
            }
            history
        };
        FieldGate {
            gate: self.lifecycle.to_gate(corpus),
            ty: self
                .type_by_minor
                .values()
                .next_back()
                .cloned()
                .unwrap_or_default(),
            required_in: self.required.iter().collect(),
            type_changed_in: changed,
            type_history,
            renamed_from: self.renamed_from.clone(),
            values: gates_of(&self.values, corpus),
            element_values: gates_of(&self.element_values, corpus),
        }
    }
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
        assert!(lifecycle.inferred.contains("deprecated_in"));
        lifecycle.mark_deprecated(v(32), false);
        assert_eq!(lifecycle.deprecated_in, Some(v(32)));
        assert!(lifecycle.inferred.is_empty());
        lifecycle.mark_deprecated(v(33), true);
        assert_eq!(lifecycle.deprecated_in, Some(v(32)));
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
            field.type_by_minor.insert(v(minor), ty.to_owned());
        }
        assert_eq!(field.type_changed_in(), vec![v(30)]);
        let gate = field.to_gate(&[v(28), v(29), v(30), v(31)]);
        assert_eq!(gate.ty, "integer(int32)");
        assert_eq!(gate.type_history.len(), 2);
        assert_eq!(gate.type_in(v(29)), "string");
        assert_eq!(gate.type_in(v(31)), "integer(int32)");
    }
}
