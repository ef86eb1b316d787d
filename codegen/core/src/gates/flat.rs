//! How a type's and a field's gates are read: flat, as they are written.
//!
//! [`TypeGate`] and [`FieldGate`] write their [`Gate`]'s keys beside their
//! own (`#[serde(flatten)]`). Read back through `flatten`, serde buffers
//! each object's keys and values first and hands them out again, which made
//! reading a type's lines most of the first check of a kind. These structs
//! name every key at one level instead, the gate's and the item's, with the
//! same names, defaults and aliases, so the two read the same text into the
//! same values: vergate-codegen's `to_json_schema::gate_keyword` tests
//! write a type's and a field's gate with every key set and read them back,
//! and `vergate`'s embedded index reads and writes back the whole committed
//! Kubernetes index byte for byte.

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

    #[test]
    fn a_gate_without_introduced_in_is_refused() {
        let err = serde_json::from_str::<FieldGate>(r#"{"removed_in":null,"type":"string"}"#)
            .unwrap_err();
        assert!(err.to_string().contains("introduced_in"), "{err}");
    }
}
