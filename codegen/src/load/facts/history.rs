//! A newer minor's recording held against an older minor's published
//! tables: the binary's versioned gate history (1.31 on, every gate's
//! stages with the minor each starts in) against the website pages' state
//! in each older minor, and the binary's lifecycle against k8s.io/api's
//! files of each older minor. The proof that the history a recording
//! brings agrees with what the project published for the minors before it
//! (docs/new-minor.md § "Which source wins").

use super::compare::{
    lifecycle_report, push_disagreements, read_lifecycle_files, read_pages, read_text,
    GateDisagreement, LifecycleDifference,
};
use super::recorded::{self, GateTable, RecordedLifecycle};
use super::GoType;
use crate::error::Result;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;
use vergate_core::gates::{gate_state_in, ApiLifecycle, FeatureGateHistory, FeatureGateState};
use vergate_core::Version;

/// The pages' gates the newer binary does not register at all (deleted
/// after they went GA or were withdrawn), with the page's last state: the
/// binary has no history of them, so the page's holds.
pub fn unregistered(
    pages: &BTreeMap<String, FeatureGateHistory>,
    newer: &GateTable,
) -> Vec<(String, Option<(Version, FeatureGateState)>)> {
    pages
        .iter()
        .filter(|(gate, _)| !newer.1.contains_key(*gate))
        .map(|(gate, history)| {
            let last = history.iter().next_back().map(|(from, s)| (*from, *s));
            (gate.clone(), last)
        })
        .collect()
}

/// Every gate with a page that the newer binary registers: the page's
/// state in `minor` against the state the binary's history gives for
/// `minor` (a minor before the binary's own).
pub fn compare_gate_history(
    pages: &BTreeMap<String, FeatureGateHistory>,
    newer: &GateTable,
    minor: Version,
) -> Vec<GateDisagreement> {
    let mut found = Vec::new();
    for (gate, history) in pages {
        let Some(recorded) = newer.1.get(gate) else {
            continue;
        };
        let page = gate_state_in(history, minor);
        let binary = recorded.state_in(minor);
        push_disagreements(&mut found, gate, page, binary);
    }
    found
}

/// The value of one disagreement's field in a table (a minor's own
/// binary), shown as the disagreement shows it.
fn own_value(own: &GateTable, gate: &str, field: &str) -> String {
    let state = own.1.get(gate).and_then(|g| g.state_in(own.0));
    match (state, field) {
        (None, _) => "absent".into(),
        (Some(s), "stage") => s.stage.name().into(),
        (Some(s), "default") => s.default.to_string(),
        (Some(s), _) => format!("{} (default {})", s.stage.name(), s.default),
    }
}

/// The gate history of `newer` against the pages in each of `minors`
/// (before the binary's own), one line per disagreement. Where `own` holds
/// a minor's own recording, the line says which of the two it agrees with:
/// the evidence for the rule that decides between them.
pub fn gate_history_report(
    pages: &BTreeMap<String, FeatureGateHistory>,
    newer: &GateTable,
    minors: &[Version],
    own: &BTreeMap<Version, GateTable>,
) -> String {
    let binary = newer.0;
    let gone = unregistered(pages, newer);
    let mut out = format!(
        "feature-gate history of the {binary} binary ({} gates) against {} website pages, per minor\n",
        newer.1.len(),
        pages.len()
    );
    let _ = writeln!(
        out,
        "  not registered by the {binary} binary (removed before {binary}; the page's history holds): {}",
        gone.len()
    );
    for (gate, last) in &gone {
        let last = last.map_or("no stage".to_owned(), |(from, s)| {
            format!("{} (default {}) from {from}", s.stage.name(), s.default)
        });
        let _ = writeln!(out, "    {gate}: page's last stage {last}");
    }
    for &minor in minors {
        let found = compare_gate_history(pages, newer, minor);
        let _ = writeln!(
            out,
            "  {minor}: {} disagreement{} between the pages and the {binary} binary's history",
            found.len(),
            if found.len() == 1 { "" } else { "s" }
        );
        for d in &found {
            let verdict = match own.get(&minor) {
                None => format!("no {minor} recording: the page holds"),
                Some(table) => {
                    let said = own_value(table, &d.gate, d.field);
                    let agrees = if said == d.binary {
                        "the history"
                    } else if said == d.page {
                        "the page"
                    } else {
                        "neither"
                    };
                    format!("the {minor} binary says {said}: {agrees} is right; the {minor} binary wins")
                }
            };
            let _ = writeln!(
                out,
                "    {minor} {}  {}: page {}, {binary} history {}  ({verdict})",
                d.gate, d.field, d.page, d.binary
            );
        }
    }
    out
}

/// A newer binary's lifecycle against an older minor's k8s.io/api files:
/// the kinds both state, where they differ (a lifecycle changed after the
/// older minor), and how many kinds only the files state (not in the newer
/// binary's schemes: removed since, or never served).
pub fn compare_lifecycle_history(
    files: &BTreeMap<GoType, ApiLifecycle>,
    newer: &RecordedLifecycle,
) -> (Vec<LifecycleDifference>, Vec<GoType>) {
    let mut differ = Vec::new();
    let mut files_only = Vec::new();
    for (kind, said) in files {
        match newer.api.get(kind) {
            None => files_only.push(kind.clone()),
            Some(binary) if binary != said => differ.push(LifecycleDifference {
                kind: kind.clone(),
                files: Some(said.clone()),
                binary: Some(binary.clone()),
            }),
            Some(_) => {}
        }
    }
    (differ, files_only)
}

/// [`compare_lifecycle_history`] as text, for one older minor.
pub fn lifecycle_history_report(
    binary: Version,
    minor: Version,
    files: &BTreeMap<GoType, ApiLifecycle>,
    newer: &RecordedLifecycle,
) -> String {
    let (differ, files_only) = compare_lifecycle_history(files, newer);
    let mut out = lifecycle_report(minor, files.len(), newer.outside.len(), &differ).replacen(
        "the API server against",
        &format!("the {binary} API server against {minor}'s"),
        1,
    );
    let _ = writeln!(
        out,
        "  {minor}: {} kinds of the files are not in the {binary} binary's schemes (removed by {binary}, or not served){}",
        files_only.len(),
        if files_only.is_empty() { "" } else { ":" }
    );
    for (package, version, kind) in &files_only {
        let _ = writeln!(out, "    {package}/{version} {kind}");
    }
    out
}

/// The recording of `binary` in `recordings` (laid out like a mirror)
/// against `against` (a mirror) in each of `minors` (older minors the
/// mirror holds): the gate history against the pages, with each minor's own
/// recording in `recordings` as the judge where there is one, then the
/// lifecycle against each minor's files.
pub fn report(
    recordings: &Path,
    against: &Path,
    binary: Version,
    minors: &[Version],
) -> Result<String> {
    let json = |minor: Version| format!("{}.json", minor.dir_name());
    let mut out = String::new();
    let gates = |minor: Version| -> Result<Option<GateTable>> {
        let path = recordings.join("feature-gates").join(json(minor));
        if !path.is_file() {
            return Ok(None);
        }
        recorded::read_gates(&path, &read_text(&path)?).map(Some)
    };
    let pages_dir = against.join("feature-gates");
    if let (true, Some(newer)) = (pages_dir.is_dir(), gates(binary)?) {
        let pages = read_pages(&pages_dir)?;
        let mut own = BTreeMap::new();
        for &minor in minors {
            if let Some(table) = gates(minor)? {
                own.insert(minor, table);
            }
        }
        out.push_str(&gate_history_report(&pages, &newer, minors, &own));
    }
    let path = recordings.join("api-lifecycle").join(json(binary));
    let lifecycle_dir = against.join("api-lifecycle");
    if path.is_file() {
        let newer = recorded::read_lifecycle(&path, &read_text(&path)?)?;
        for &minor in minors {
            if lifecycle_dir.join(minor.dir_name()).is_dir() {
                let files = read_lifecycle_files(&lifecycle_dir, minor)?;
                out.push_str(&lifecycle_history_report(binary, minor, &files, &newer));
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::super::recorded::RecordedGate;
    use super::*;
    use vergate_core::gates::GateStage;

    fn v(minor: u32) -> Version {
        Version::new(1, minor)
    }

    fn state(stage: GateStage, default: bool) -> FeatureGateState {
        FeatureGateState { stage, default }
    }

    #[test]
    fn the_history_is_compared_in_each_older_minor_and_the_own_binary_decides() {
        let alpha = state(GateStage::Alpha, false);
        let beta_on = state(GateStage::Beta, true);
        let pages = BTreeMap::from([
            (
                "Lags".to_owned(),
                FeatureGateHistory::from([(v(33), alpha)]),
            ),
            (
                "Same".to_owned(),
                FeatureGateHistory::from([(v(30), beta_on)]),
            ),
            (
                "Gone".to_owned(),
                FeatureGateHistory::from([(v(25), beta_on)]),
            ),
        ]);
        let gate = |stages| RecordedGate {
            locked: false,
            stages,
        };
        let newer = (
            v(36),
            BTreeMap::from([
                (
                    "Lags".to_owned(),
                    gate(BTreeMap::from([(v(33), alpha), (v(35), beta_on)])),
                ),
                ("Same".to_owned(), gate(BTreeMap::from([(v(30), beta_on)]))),
            ]),
        );
        assert!(compare_gate_history(&pages, &newer, v(34)).is_empty());
        let found = compare_gate_history(&pages, &newer, v(35));
        let fields: Vec<&str> = found.iter().map(|d| d.field).collect();
        assert_eq!(fields, ["stage", "default"]);
        assert_eq!(unregistered(&pages, &newer)[0].0, "Gone");

        let own = BTreeMap::from([(
            v(35),
            (
                v(35),
                BTreeMap::from([("Lags".to_owned(), gate(BTreeMap::from([(v(35), beta_on)])))]),
            ),
        )]);
        let report = gate_history_report(&pages, &newer, &[v(34), v(35)], &own);
        assert!(report.contains("  1.34: 0 disagreements"), "{report}");
        assert!(
            report.contains("1.35 Lags  stage: page alpha, 1.36 history beta  (the 1.35 binary says beta: the history is right"),
            "{report}"
        );
        assert!(
            report.contains("    Gone: page's last stage beta (default true) from 1.25"),
            "{report}"
        );
        let without = gate_history_report(&pages, &newer, &[v(35)], &BTreeMap::new());
        assert!(
            without.contains("(no 1.35 recording: the page holds)"),
            "{without}"
        );
    }

    #[test]
    fn lifecycle_history_compares_the_kinds_both_state() {
        let said = |removed| ApiLifecycle {
            removed: Some(v(removed)),
            ..ApiLifecycle::default()
        };
        let key = |kind: &str| ("batch".to_owned(), "v1beta1".to_owned(), kind.to_owned());
        let files = BTreeMap::from([
            (key("Same"), said(25)),
            (key("Moved"), said(25)),
            (key("Gone"), said(25)),
        ]);
        let newer = RecordedLifecycle {
            api: BTreeMap::from([
                (key("Same"), said(25)),
                (key("Moved"), said(26)),
                (key("New"), said(40)),
            ]),
            outside: BTreeMap::new(),
        };
        let (differ, only) = compare_lifecycle_history(&files, &newer);
        assert_eq!(differ.len(), 1);
        assert_eq!(differ[0].kind.2, "Moved");
        assert_eq!(only, [key("Gone")]);
        let report = lifecycle_history_report(v(36), v(30), &files, &newer);
        assert!(
            report.starts_with(
                "lifecycle in 1.30: the 1.36 API server against 1.30's k8s.io/api's files"
            ),
            "{report}"
        );
        assert!(
            report.contains("1 kinds of the files are not in the 1.36 binary's schemes"),
            "{report}"
        );
    }
}
