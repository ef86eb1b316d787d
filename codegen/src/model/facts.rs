//! The API's own fact tables laid on the gated model: each feature gate's
//! published history decides the stage of every field it guards, and each
//! kind's published lifecycle its deprecation. A fact replaces what prose
//! or an annotation said; where a fact is missing, they stay (and stay
//! marked inferred).

use super::{GatedModel, Lifecycle};
use std::collections::BTreeMap;
use vergate_core::gates::{
    api_lifecycle_in, gate_state_in, in_force, ApiLifecycle, FeatureGateHistory, GateStage,
    Inferred, Stage,
};
use vergate_core::Version;

/// What laying the facts on changed against what prose or annotations had
/// said, for the gates review.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FactNotes {
    /// `(item, what was said, what the table says)` for each item whose
    /// stage in some minor the feature-gate table changed.
    pub stages_replaced: Vec<(String, String, String)>,
    /// Items whose gate the table does not know: their stage stays inferred.
    pub gates_unknown: Vec<(String, String)>,
}

impl GatedModel {
    /// Sets the feature-gate table and lays it on every item whose gate it
    /// knows: the stage in each minor is the table's (a `deprecated` gate
    /// keeps the stage before). Minors before the table's first entry keep
    /// the stage prose gave.
    pub fn apply_feature_gates(
        &mut self,
        table: BTreeMap<String, FeatureGateHistory>,
    ) -> FactNotes {
        let mut notes = FactNotes::default();
        for (type_name, ty) in &mut self.types {
            // Only items with a gate are looked at; most have none.
            let mut items: Vec<(String, &mut Lifecycle)> = Vec::new();
            if ty.lifecycle.feature_gate.is_some() {
                items.push((type_name.clone(), &mut ty.lifecycle));
            }
            for (field_name, field) in &mut ty.fields {
                for (value, lifecycle) in field.values.iter_mut().chain(&mut field.element_values) {
                    if lifecycle.feature_gate.is_some() {
                        items.push((format!("{type_name}.{field_name}={value:?}"), lifecycle));
                    }
                }
                if field.lifecycle.feature_gate.is_some() {
                    items.push((format!("{type_name}.{field_name}"), &mut field.lifecycle));
                }
            }
            for (value, lifecycle) in &mut ty.values {
                if lifecycle.feature_gate.is_some() {
                    items.push((format!("{type_name}={value:?}"), lifecycle));
                }
            }
            for (item, lifecycle) in items {
                let Some(gate) = lifecycle.feature_gate.clone() else {
                    continue;
                };
                let Some(history) = table.get(&gate) else {
                    if !lifecycle.stage.is_empty() {
                        notes.gates_unknown.push((item, gate));
                    }
                    continue;
                };
                let before = lifecycle.stage.clone();
                let (stages, from_prose) = stages_from_table(lifecycle, history);
                lifecycle.stage = stages;
                if from_prose {
                    lifecycle.inferred.insert(Inferred::Stage);
                } else {
                    lifecycle.inferred.remove(&Inferred::Stage);
                }
                let differs = lifecycle
                    .presence
                    .iter()
                    .any(|minor| in_force(&before, minor).copied() != lifecycle.stage_in(minor));
                if !before.is_empty() && differs {
                    notes
                        .stages_replaced
                        .push((item, show(&before), show(&lifecycle.stage)));
                }
            }
        }
        self.feature_gates = table;
        notes
    }

    /// Lays each kind's published lifecycle on its type: the statements by
    /// minor (`lifecycle` holds, per definition name, what each minor's
    /// files say), and `deprecated_in` from the first minor of the corpus
    /// whose API server warns (the deprecation minor it names, which may be
    /// older than the corpus). A published deprecation replaces one read
    /// from prose.
    pub fn apply_api_lifecycle(
        &mut self,
        lifecycle: BTreeMap<String, BTreeMap<Version, ApiLifecycle>>,
    ) {
        for (name, said) in lifecycle {
            let Some(ty) = self.types.get_mut(&name) else {
                continue;
            };
            let warned = ty.lifecycle.presence.iter().find_map(|minor| {
                api_lifecycle_in(&said, minor)
                    .filter(|statement| statement.is_deprecated_in(minor))
                    .and_then(|statement| statement.deprecated)
            });
            if let Some(since) = warned {
                ty.lifecycle.deprecated_in = Some(since);
                ty.lifecycle.inferred.remove(&Inferred::DeprecatedIn);
            }
            let mut changes = BTreeMap::new();
            let mut previous: Option<&ApiLifecycle> = None;
            for (minor, statement) in &said {
                if previous != Some(statement) {
                    changes.insert(*minor, statement.clone());
                }
                previous = Some(statement);
            }
            ty.api_lifecycle = changes;
        }
    }

    /// Whether a default cluster of `version` has on the item of
    /// `lifecycle`: the feature-gate table's default where it knows the
    /// gate, else by stage (alpha off, beta and GA on).
    pub fn enabled_by_default(&self, lifecycle: &Lifecycle, version: Version) -> bool {
        vergate_core::gates::default_on(
            &self.feature_gates,
            lifecycle.feature_gate.as_deref(),
            lifecycle.stage_in(version),
            version,
        )
    }
}

/// The stages of `lifecycle`'s minors by the table, compressed to the
/// minors a stage starts in; true when some minor's stage came from prose
/// (the table starts later).
fn stages_from_table(
    lifecycle: &Lifecycle,
    history: &FeatureGateHistory,
) -> (BTreeMap<Version, Stage>, bool) {
    let mut stages = BTreeMap::new();
    let mut current: Option<Stage> = None;
    let mut from_prose = false;
    for minor in lifecycle.presence.iter() {
        let next = match gate_state_in(history, minor) {
            Some(state) => match state.stage {
                GateStage::Alpha => Some(Stage::Alpha),
                GateStage::Beta => Some(Stage::Beta),
                GateStage::Ga => Some(Stage::Ga),
                GateStage::Deprecated => current,
            },
            None => {
                let said = lifecycle.stage_in(minor);
                from_prose |= said.is_some();
                said
            }
        };
        if next != current {
            if let Some(stage) = next {
                stages.insert(minor, stage);
            }
            current = next;
        }
    }
    (stages, from_prose)
}

fn show(stages: &BTreeMap<Version, Stage>) -> String {
    let parts: Vec<String> = stages
        .iter()
        .map(|(minor, stage)| format!("{} {minor}", stage.name()))
        .collect();
    parts.join(", ")
}
