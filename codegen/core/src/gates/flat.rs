//! How a type's and a field's gates are read: flat, as they are written.
//!
//! [`TypeGate`] and [`FieldGate`] write their [`Gate`]'s keys beside their
//! own (`#[serde(flatten)]`). Read back through `flatten`, serde buffers
//! each object's keys and values first and hands them out again, which made
//! reading a type's lines most of the first check of a kind. These structs
//! name every key at one level instead, the gate's and the item's, with the
//! same names, defaults and aliases, so the two read the same text into the
//! same values: the tests below write a gate with every key set and read
//! it back, and `vergate`'s embedded index reads and writes back the whole
//! committed Kubernetes index byte for byte.

use super::*;
use crate::Version;
use std::collections::BTreeMap;

/// [`Gate`]'s keys, as a type or field line holds them beside its own.
macro_rules! flat_gate {
    ($(#[$meta:meta])* struct $name:ident { $($(#[$field_meta:meta])* $field:ident: $ty:ty,)* }) => {
        $(#[$meta])*
        #[derive(serde::Deserialize)]
        pub(super) struct $name {
            introduced_in: Version,
            removed_in: Option<Version>,
            #[serde(default)]
            present_in: Option<Vec<Version>>,
            #[serde(default)]
            deprecated_in: Option<Version>,
            #[serde(default)]
            stage: BTreeMap<Version, Stage>,
            #[serde(default)]
            feature_gate: Option<String>,
            #[serde(default)]
            related_feature_gates: Vec<String>,
            #[serde(default)]
            reference: Option<String>,
            #[serde(default)]
            inferred: Vec<Inferred>,
            $($(#[$field_meta])* $field: $ty,)*
        }

        impl $name {
            /// The gate's part of the line.
            fn gate(&mut self) -> Gate {
                Gate {
                    introduced_in: self.introduced_in,
                    removed_in: self.removed_in,
                    present_in: self.present_in.take(),
                    deprecated_in: self.deprecated_in,
                    stage: std::mem::take(&mut self.stage),
                    feature_gate: self.feature_gate.take(),
                    related_feature_gates: std::mem::take(&mut self.related_feature_gates),
                    reference: self.reference.take(),
                    inferred: std::mem::take(&mut self.inferred),
                }
            }
        }
    };
}

flat_gate! {
    /// A [`FieldGate`] as written.
    struct FlatFieldGate {
        #[serde(rename = "type")]
        ty: TypeExpr,
        #[serde(default)]
        required_in: Vec<Version>,
        #[serde(default)]
        type_changed_in: Vec<Version>,
        #[serde(default)]
        type_history: BTreeMap<Version, TypeExpr>,
        #[serde(default)]
        renamed_from: Option<Rename>,
        #[serde(default)]
        values: BTreeMap<String, Gate>,
        #[serde(default, alias = "item_values")]
        element_values: BTreeMap<String, Gate>,
        #[serde(default)]
        values_known_from: Option<Version>,
        #[serde(default)]
        constraints: Constraints,
        #[serde(default)]
        constraints_history: BTreeMap<Version, Constraints>,
    }
}

impl From<FlatFieldGate> for FieldGate {
    fn from(mut flat: FlatFieldGate) -> FieldGate {
        FieldGate {
            gate: flat.gate(),
            ty: flat.ty,
            required_in: flat.required_in,
            type_changed_in: flat.type_changed_in,
            type_history: flat.type_history,
            renamed_from: flat.renamed_from,
            values: flat.values,
            element_values: flat.element_values,
            values_known_from: flat.values_known_from,
            constraints: flat.constraints,
            constraints_history: flat.constraints_history,
        }
    }
}

flat_gate! {
    /// A [`TypeGate`] as written.
    struct FlatTypeGate {
        #[serde(default, rename = "type")]
        ty: Option<TypeExpr>,
        #[serde(default)]
        type_history: BTreeMap<Version, TypeExpr>,
        #[serde(default)]
        kinds: Vec<GroupVersionKind>,
        #[serde(default)]
        fields: BTreeMap<String, FieldGate>,
        #[serde(default)]
        values: BTreeMap<String, Gate>,
        #[serde(default)]
        constraints: Constraints,
        #[serde(default)]
        constraints_history: BTreeMap<Version, Constraints>,
        #[serde(default)]
        open: bool,
        #[serde(default)]
        deprecation_warning: Option<String>,
        #[serde(default)]
        api_lifecycle: BTreeMap<Version, ApiLifecycle>,
        #[serde(default)]
        union: Option<UnionGate>,
        #[serde(default)]
        rules: Vec<CrossFieldRule>,
    }
}

impl From<FlatTypeGate> for TypeGate {
    fn from(mut flat: FlatTypeGate) -> TypeGate {
        TypeGate {
            gate: flat.gate(),
            ty: flat.ty,
            type_history: flat.type_history,
            kinds: flat.kinds,
            fields: flat.fields,
            values: flat.values,
            constraints: flat.constraints,
            constraints_history: flat.constraints_history,
            open: flat.open,
            deprecation_warning: flat.deprecation_warning,
            api_lifecycle: flat.api_lifecycle,
            union: flat.union,
            rules: flat.rules,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(minor: u32) -> Version {
        Version::new(1, minor)
    }

    /// A gate with every key set.
    fn full_gate() -> Gate {
        Gate {
            introduced_in: v(28),
            removed_in: Some(v(33)),
            present_in: Some(vec![v(28), v(30)]),
            deprecated_in: Some(v(30)),
            stage: BTreeMap::from([(v(28), Stage::Alpha), (v(30), Stage::Beta)]),
            feature_gate: Some("SomeGate".into()),
            related_feature_gates: vec!["OtherGate".into()],
            reference: Some("https://kep.k8s.io/1".into()),
            inferred: vec![Inferred::DeprecatedIn, Inferred::Stage],
        }
    }

    fn full_constraints() -> Constraints {
        Constraints {
            pattern: Some("^a$".into()),
            ..Constraints::default()
        }
    }

    /// Written, then read: the same value, so no key is lost.
    fn round_trips<T>(value: &T)
    where
        T: serde::Serialize + serde::de::DeserializeOwned + PartialEq + std::fmt::Debug,
    {
        let text = serde_json::to_string(value).unwrap();
        let read: T = serde_json::from_str(&text).unwrap();
        assert_eq!(&read, value, "{text}");
    }

    fn full_field() -> FieldGate {
        let ty: TypeExpr = "string".parse().unwrap();
        FieldGate {
            gate: full_gate(),
            ty: ty.clone(),
            required_in: vec![v(29)],
            type_changed_in: vec![v(30)],
            type_history: BTreeMap::from([(v(28), "integer".parse().unwrap()), (v(30), ty)]),
            renamed_from: Some(Rename {
                from: "old".into(),
                in_version: v(30),
            }),
            values: BTreeMap::from([("A".into(), full_gate())]),
            element_values: BTreeMap::from([("B".into(), full_gate())]),
            values_known_from: Some(v(34)),
            constraints: full_constraints(),
            constraints_history: BTreeMap::from([
                (v(28), Constraints::default()),
                (v(30), full_constraints()),
            ]),
        }
    }

    #[test]
    fn a_field_with_every_key_reads_back_as_written() {
        round_trips(&full_field());
    }

    #[test]
    fn a_type_with_every_key_reads_back_as_written() {
        let ty: TypeExpr = "int-or-string".parse().unwrap();
        let gvk = GroupVersionKind {
            group: "apps".into(),
            version: "v1".into(),
            kind: "Deployment".into(),
        };
        round_trips(&TypeGate {
            gate: full_gate(),
            ty: Some(ty.clone()),
            type_history: BTreeMap::from([(v(30), ty.clone())]),
            kinds: vec![gvk.clone()],
            fields: BTreeMap::from([("spec".into(), full_field())]),
            values: BTreeMap::from([("A".into(), full_gate())]),
            constraints: full_constraints(),
            constraints_history: BTreeMap::from([(v(30), full_constraints())]),
            open: true,
            deprecation_warning: Some("use v2".into()),
            api_lifecycle: BTreeMap::from([(
                v(30),
                ApiLifecycle {
                    introduced: Some(v(28)),
                    deprecated: Some(v(30)),
                    removed: Some(v(33)),
                    replacement: Some(gvk),
                },
            )]),
            union: Some(UnionGate {
                members: BTreeMap::from([(ty.clone(), full_gate())]),
                order: vec![ty],
                ..UnionGate::default()
            }),
            rules: vec![CrossFieldRule::UniqueKey {
                field: "ports".into(),
                key: "name".into(),
            }],
        });
    }

    #[test]
    fn a_gate_without_introduced_in_is_refused() {
        let err = serde_json::from_str::<FieldGate>(r#"{"removed_in":null,"type":"string"}"#)
            .unwrap_err();
        assert!(err.to_string().contains("introduced_in"), "{err}");
    }
}
