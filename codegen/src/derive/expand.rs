//! The engine's entry point: a gated model and a layout in, one token stream
//! per minor plus the shared gate tables out.

use super::layout_policy::Layout;
use super::options::Options;
use super::{convert, items, table};
use crate::model::GatedModel;
use proc_macro2::TokenStream;
use std::collections::BTreeMap;
use vergate_core::Version;

/// The expanded model.
#[derive(Clone, Debug, Default)]
pub struct Expansion {
    /// The items of each minor's module (`v1_30`): one type per definition
    /// the minor has, its serde and `Versioned` impls, and its conversions to
    /// the adjacent minors.
    pub minors: BTreeMap<Version, TokenStream>,
    /// The items of the module [`Layout::gates_path`] names: one static gate
    /// table per definition, shared by every minor.
    pub shared: TokenStream,
}

/// Expands `model`: every minor's definitions, in name order, each with
/// exactly the fields and values that minor has.
pub fn expand(model: &GatedModel, layout: &dyn Layout, options: &Options) -> Expansion {
    let plan = options.conversions.then(|| convert::Plan::new(model));
    let mut minors = BTreeMap::new();
    for (version, minor) in &model.minors {
        let mut tokens = TokenStream::new();
        for definition in minor.definitions.values() {
            tokens.extend(items::type_item(model, layout, *version, definition));
            if options.versioned_impls {
                tokens.extend(items::versioned_impl(
                    model, layout, *version, definition, options,
                ));
            }
            if let Some(plan) = &plan {
                tokens.extend(plan.impls(model, layout, *version, definition));
            }
        }
        minors.insert(*version, tokens);
    }
    Expansion {
        minors,
        shared: table::tables(model, layout),
    }
}
