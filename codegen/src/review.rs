//! The gates review: what gates.json says about stages and feature gates,
//! minor by minor, for a maintainer to confirm after a regen
//! (`cargo xtask gates-review`). Each line says whether its keys were read
//! from the descriptions' prose (`inferred`) or written in annotations.rs
//! (`annotated`), so the inferred ones can be checked and, where the prose
//! is wrong or stale, overridden by an annotation.

use std::collections::BTreeMap;
use std::fmt::Write;
use vergate_core::gates::{Gate, GatesIndex, Inferred, Stage};
use vergate_core::Version;

/// One line of the review: a field whose stage starts in a minor.
struct Entry<'a> {
    subject: String,
    gate: &'a Gate,
    stage: Stage,
    before: Option<Stage>,
}

/// The review of `index`, from `since` (every minor when `None`): per
/// minor, each field whose stage starts there (new, promoted, or GA
/// because its description stopped naming the gate), then the fields whose
/// descriptions name gates that change their behaviour without guarding
/// them.
pub fn gates_review(index: &GatesIndex, since: Option<Version>) -> String {
    let mut by_minor: BTreeMap<Version, Vec<Entry<'_>>> = BTreeMap::new();
    let mut related = Vec::new();
    let (mut guarded, mut inferred) = (0, 0);
    for (type_name, ty) in &index.types {
        for (field_name, field) in &ty.fields {
            let gate = &field.gate;
            let subject = format!("{type_name}.{field_name}");
            if gate.feature_gate.is_none() && !gate.related_feature_gates.is_empty() {
                related.push((subject.clone(), &gate.related_feature_gates));
            }
            if gate.feature_gate.is_none() && gate.stage.is_empty() {
                continue;
            }
            guarded += 1;
            if gate.inferred.contains(&Inferred::FeatureGate)
                || gate.inferred.contains(&Inferred::Stage)
            {
                inferred += 1;
            }
            let mut before = None;
            for (&minor, &stage) in &gate.stage {
                by_minor.entry(minor).or_default().push(Entry {
                    subject: subject.clone(),
                    gate,
                    stage,
                    before,
                });
                before = Some(stage);
            }
        }
    }
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{}: {guarded} fields with a stage or feature gate ({inferred} read from prose, the rest annotated)",
        index.api
    );
    for (minor, entries) in &by_minor {
        if since.is_some_and(|since| *minor < since) {
            continue;
        }
        let _ = writeln!(out, "\n{minor}");
        for entry in entries {
            let change = match entry.before {
                None => "from here".to_owned(),
                Some(before) => format!("was {}", before.name()),
            };
            let _ = writeln!(
                out,
                "  {:<5} {}  gate {}  ({change}; {})",
                entry.stage.name(),
                entry.subject,
                entry.gate.feature_gate.as_deref().unwrap_or("unnamed"),
                origin(entry.gate),
            );
        }
    }
    if !related.is_empty() {
        let _ = writeln!(
            out,
            "\nnamed in descriptions as changing a field's behaviour or values, not guarding it"
        );
        for (subject, gates) in related {
            let _ = writeln!(out, "  {subject}  {}", gates.join(", "));
        }
    }
    out
}

/// Where a gate's stage and feature gate come from.
fn origin(gate: &Gate) -> &'static str {
    match (
        gate.inferred.contains(&Inferred::Stage),
        gate.inferred.contains(&Inferred::FeatureGate),
    ) {
        (true, true) => "inferred",
        (true, false) => "stage inferred, gate annotated",
        (false, true) => "gate inferred, stage annotated",
        (false, false) => "annotated",
    }
}

/// What the fact tables changed against prose and annotations: stage
/// histories the feature-gate table replaced, and gated items whose gate it
/// does not know (their stages stay inferred from prose).
pub fn fact_notes(notes: &crate::model::FactNotes) -> String {
    let mut out = String::new();
    if !notes.stages_replaced.is_empty() {
        out.push_str("\nstages the feature-gate table gives instead of prose or annotations\n");
        for (item, said, table) in &notes.stages_replaced {
            out.push_str(&format!("  {item}: {table} (was {said})\n"));
        }
    }
    if !notes.gates_unknown.is_empty() {
        out.push_str("\ngates the feature-gate table lacks (stages inferred from prose; add the gate's page to [facts.feature_gates])\n");
        for (item, gate) in &notes.gates_unknown {
            out.push_str(&format!("  {item}: {gate}\n"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use vergate_core::gates::{FieldGate, TypeGate};

    #[test]
    fn lists_each_stage_under_the_minor_it_starts_in() {
        let v = |minor| Version::new(1, minor);
        let field = |stages: &[(u32, Stage)], inferred: Vec<Inferred>| FieldGate {
            gate: Gate {
                introduced_in: v(30),
                stage: stages.iter().map(|(m, s)| (v(*m), *s)).collect(),
                feature_gate: Some("Gate".into()),
                inferred,
                ..Gate::default()
            },
            ..FieldGate::default()
        };
        let mut ty = TypeGate::default();
        ty.fields.insert(
            "a".into(),
            field(
                &[(30, Stage::Alpha), (32, Stage::Ga)],
                vec![Inferred::FeatureGate, Inferred::Stage],
            ),
        );
        ty.fields
            .insert("b".into(), field(&[(31, Stage::Beta)], vec![]));
        let mut mention = FieldGate::default();
        mention.gate.related_feature_gates = vec!["Other".into()];
        ty.fields.insert("c".into(), mention);
        let index = GatesIndex {
            feature_gates: Default::default(),
            retired_kinds: Vec::new(),
            api: "t".into(),
            dialect: Default::default(),
            versions: vec![v(30), v(31), v(32)],
            deprecated_versions: BTreeMap::new(),
            types: BTreeMap::from([("T".into(), ty)]),
        };
        let review = gates_review(&index, None);
        assert!(review.starts_with("t: 2 fields with a stage or feature gate (1 read from prose"));
        assert!(review.contains("1.30\n  alpha T.a  gate Gate  (from here; inferred)"));
        assert!(review.contains("1.31\n  beta  T.b  gate Gate  (from here; annotated)"));
        assert!(review.contains("1.32\n  ga    T.a  gate Gate  (was alpha; inferred)"));
        assert!(review.contains("  T.c  Other"));
        assert!(!gates_review(&index, Some(v(32))).contains("1.30\n"));
    }
}
