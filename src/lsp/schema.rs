//! A path of keys through the gate tables: the type a document's
//! `apiVersion` and `kind` name, then the field and type at each step, in
//! the target minor. Hover and completion ask this.

use super::locate::Step;
use crate::gates::{FieldGate, Gate, TypeExpr};
use crate::tables::GateTables;
use crate::Version;
use std::collections::BTreeMap;

/// The type a document's `apiVersion` and `kind` name, in the tables.
pub fn root_type<'t>(tables: &'t GateTables, api_version: &str, kind: &str) -> Option<&'t str> {
    let (group, version) = crate::gates::GroupVersionKind::split_api_version(api_version);
    let served = tables
        .types_for_kind(kind)
        .iter()
        .find(|(gvk, _)| gvk.group == group && gvk.version == version);
    if let Some((_, name)) = served {
        return Some(name);
    }
    // Documents that carry their own minor (the demo API): by kind alone.
    api_version
        .parse::<Version>()
        .ok()
        .and_then(|_| tables.types_for_kind(kind).first())
        .map(|(_, name)| name.as_str())
}

/// What a path leads to.
#[derive(Debug)]
pub struct Resolved<'t> {
    /// The type of the node at the path, in the target.
    pub ty: TypeExpr,
    /// The last field stepped into: its owner's name, its name and gate.
    pub field: Option<Field<'t>>,
    /// True when the last step was a list item or map value of that field
    /// (its elements' enum values apply, not its own).
    pub element: bool,
}

/// A field of a type.
#[derive(Clone, Copy, Debug)]
pub struct Field<'t> {
    pub owner: &'t str,
    pub name: &'t str,
    pub gate: &'t FieldGate,
}

/// Follows `path` from type `root` in `target`; `None` where the tables
/// do not have a step.
pub fn resolve<'t>(
    tables: &'t GateTables,
    root: &str,
    path: &[Step],
    target: Version,
) -> Option<Resolved<'t>> {
    let mut resolved = Resolved {
        ty: TypeExpr::Definition(root.to_owned()),
        field: None,
        element: false,
    };
    for step in path {
        match (step, &resolved.ty) {
            (Step::Key(_), TypeExpr::Map(inner)) | (Step::Item, TypeExpr::Array(inner)) => {
                resolved.ty = (**inner).clone();
                resolved.element = true;
            }
            (Step::Key(key), TypeExpr::Definition(name)) => {
                let (owner, ty) = tables
                    .ty_entry(name)
                    .map(|entry| (entry.name, entry.gate))?;
                let (name, gate) = ty.fields.get_key_value(key.as_str())?;
                resolved.ty = gate.type_in(target).clone();
                resolved.field = Some(Field { owner, name, gate });
                resolved.element = false;
            }
            _ => return None,
        }
    }
    Some(resolved)
}

/// The fields of type `name` present in `target`, by name.
pub fn fields_in<'t>(
    tables: &'t GateTables,
    name: &str,
    target: Version,
) -> Vec<(&'t str, &'t FieldGate)> {
    let Some(ty) = tables.ty(name) else {
        return Vec::new();
    };
    ty.fields
        .iter()
        .filter(|(_, field)| field.gate.is_present_in(target))
        .map(|(name, field)| (name.as_str(), field))
        .collect()
}

/// The enum values that apply at a resolved node: its field's (or its
/// elements') values, else its type's own.
pub fn values<'t>(
    tables: &'t GateTables,
    resolved: &Resolved<'t>,
) -> Option<&'t BTreeMap<String, Gate>> {
    if let Some(field) = resolved.field {
        let values = if resolved.element {
            &field.gate.element_values
        } else {
            &field.gate.values
        };
        if !values.is_empty() {
            return Some(values);
        }
    }
    match &resolved.ty {
        TypeExpr::Definition(name) => tables
            .ty(name)
            .map(|ty| &ty.values)
            .filter(|v| !v.is_empty()),
        _ => None,
    }
}
