//! The lifecycles the editor keywords are worded from (`editor.rs`), built
//! once per model with the gate keywords.

use crate::model::{FieldLifecycle, GatedModel, Lifecycle};
use std::collections::BTreeMap;
use vergate_core::{Version, VersionSet};

/// The lifecycles the editor keywords are worded from, per type.
#[derive(Debug, Default)]
pub struct Lifecycles {
    pub(super) corpus: Vec<Version>,
    pub(super) fields: BTreeMap<String, BTreeMap<String, FieldLifecycle>>,
    pub(super) values: BTreeMap<String, BTreeMap<String, Lifecycle>>,
    /// Each type's own presence.
    pub(super) presence: BTreeMap<String, VersionSet>,
}

impl Lifecycles {
    /// The lifecycles of every type of `model`.
    pub fn new(model: &GatedModel) -> Self {
        Lifecycles {
            corpus: model.versions.clone(),
            fields: model
                .types
                .iter()
                .map(|(name, ty)| (name.clone(), ty.fields.clone()))
                .collect(),
            values: model
                .types
                .iter()
                .filter(|(_, ty)| !ty.values.is_empty())
                .map(|(name, ty)| (name.clone(), ty.values.clone()))
                .collect(),
            presence: model
                .types
                .iter()
                .map(|(name, ty)| (name.clone(), ty.lifecycle.presence.clone()))
                .collect(),
        }
    }
}
