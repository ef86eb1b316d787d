//! `gates.json`: the per-field lifecycle index.

use super::json_text::to_sorted_pretty;
use crate::api::ApiConfig;
use crate::model::GatedModel;
use crate::output::FileTree;
use vergate_core::Version;

/// The file name of the gates index inside `generated/<api>/`.
pub const GATES_JSON: &str = "gates.json";

/// Adds `gates.json` to the tree, with the minors api.toml deprecates.
pub fn emit(model: &GatedModel, config: &ApiConfig, tree: &mut FileTree) -> crate::Result<()> {
    let mut index = model.gates_index();
    index.deprecated_versions = config
        .minors
        .iter()
        .filter_map(|(key, entry)| {
            let version: Version = key.parse().ok()?;
            let note = entry.deprecated.clone()?;
            model.versions.contains(&version).then_some((version, note))
        })
        .collect();
    let value = serde_json::to_value(index).expect("the gates index always serializes");
    tree.insert(GATES_JSON, to_sorted_pretty(&value).into_bytes())
}
