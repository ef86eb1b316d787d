//! `gates.json`: the per-field lifecycle index.

use super::json_text::to_sorted_pretty;
use crate::model::GatedModel;
use crate::output::FileTree;

/// The file name of the gates index inside `generated/<api>/`.
pub const GATES_JSON: &str = "gates.json";

/// Adds `gates.json` to the tree.
pub fn emit(model: &GatedModel, tree: &mut FileTree) -> crate::Result<()> {
    let value =
        serde_json::to_value(model.gates_index()).expect("the gates index always serializes");
    tree.insert(GATES_JSON, to_sorted_pretty(&value).into_bytes())
}
