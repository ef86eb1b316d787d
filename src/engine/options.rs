//! What a check decides beyond the tables and the target: strictness,
//! field validation, feature gates, rule levels, and kinds skipped or
//! rejected.

use crate::preflight::{FeatureGates, FieldValidation, Rule, Severity};

/// The options of a check (`vergate check`'s flags, `vergate.toml`'s
/// settings).
#[derive(Clone, Debug, Default)]
pub struct CheckOptions {
    /// Values and kinds the API does not know at all are errors
    /// (`--strict`).
    pub strict: bool,
    /// What a field the type does not have is (`--validate`).
    pub fields: FieldValidation,
    /// Feature gates set on the cluster; unset gates are at their stage's
    /// default.
    pub feature_gates: FeatureGates,
    /// Each rule's level where it is not its default: a severity, or
    /// `None` for off (its findings dropped). A later setting of a rule
    /// wins over an earlier one (`--rule`).
    pub rules: Vec<(Rule, Option<Severity>)>,
    /// Kinds left unchecked, each listed as skipped (`--skip`).
    pub skip_kinds: Vec<String>,
    /// Kinds refused: a document of one is an error (`--reject`).
    pub reject_kinds: Vec<String>,
}

impl CheckOptions {
    /// The level set for `rule`: `Some(Some(severity))`, `Some(None)`
    /// (off), or `None` (its default).
    pub fn rule_level(&self, rule: Rule) -> Option<Option<Severity>> {
        self.rules
            .iter()
            .rev()
            .find(|(set, _)| *set == rule)
            .map(|(_, level)| *level)
    }
}
