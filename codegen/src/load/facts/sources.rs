//! One feature-gate history from two sources, each minor's state marked
//! with the source it came from: the gate tables recorded from each minor's
//! own API server (with the versioned history a table carries of the minors
//! before it) and the website's page (one history across minors, edited by
//! hand or generated at the website's head).
//!
//! Which wins (docs/new-minor.md, "Which source wins"):
//! 1. a minor that has its own recording: that binary's state, since it is
//!    what that minor's API server does;
//! 2. otherwise the newest recording's versioned history, where it states
//!    the gate in that minor: the code of a later server, which states the
//!    earlier minors' stages as that server emulates them, and which agreed
//!    with every own binary it could be held against, where the page did not
//!    (`codegen/tests/kubernetes_recording/comparison-history.txt`);
//! 3. otherwise the page (a gate the recordings no longer register, or
//!    minors before its versioned history begins). After the newest
//!    recorded minor the binary's state holds on until the page states a
//!    change (a page that lags does not take the next minor back).

use super::recorded::RecordedGate;
use std::collections::{BTreeMap, BTreeSet};
use vergate_core::gates::{gate_state_in, FeatureGateHistory, FeatureGateState};
use vergate_core::Version;

/// Where a gate's state in a minor came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GateSource {
    /// The gate's page of the Kubernetes website (`feature-gates/<Gate>.md`).
    Page,
    /// The gate table that minor's own API server registers
    /// (`feature-gates/v<X.Y>.json`).
    Binary(Version),
    /// The versioned history in a later minor's gate table (its registry's
    /// stages before its own minor).
    BinaryHistory(Version),
}

impl std::fmt::Display for GateSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GateSource::Page => f.write_str("the website's page"),
            GateSource::Binary(minor) => write!(f, "the {minor} API server's table"),
            GateSource::BinaryHistory(minor) => {
                write!(f, "the {minor} API server's versioned history")
            }
        }
    }
}

/// A gate's history and, for each minor a state starts or its source
/// changes, that source (a minor's source is the one at or before it).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SourcedHistory {
    pub history: FeatureGateHistory,
    pub sources: BTreeMap<Version, GateSource>,
}

/// Lays a gate's `page` history (if any) and its recorded tables (`recorded`:
/// by the minor recorded) into one history, by the rules of this module.
pub fn combine(
    page: Option<&FeatureGateHistory>,
    recorded: &BTreeMap<Version, &RecordedGate>,
) -> SourcedHistory {
    // Every minor where some source's answer may change.
    let mut points: BTreeSet<Version> = BTreeSet::new();
    if let Some(page) = page {
        points.extend(page.keys().copied());
    }
    for (minor, gate) in recorded {
        points.insert(*minor);
        // The minor after a recorded one goes back to the page where the
        // page states a change after the recorded minor; where it does not
        // (a page that lags), the binary's state holds on.
        if page.is_some_and(|page| page.range(*minor..).any(|(from, _)| from > minor)) {
            points.insert(Version::new(minor.major(), minor.minor() + 1));
        }
        points.extend(gate.stages.keys().copied());
    }
    let mut combined = SourcedHistory::default();
    let mut previous: Option<(FeatureGateState, GateSource)> = None;
    for minor in points {
        let Some((state, source)) = state_in(page, recorded, minor) else {
            continue;
        };
        if previous.map(|(s, _)| s) != Some(state) {
            combined.history.insert(minor, state);
        }
        if previous.map(|(_, s)| s) != Some(source) {
            combined.sources.insert(minor, source);
        }
        previous = Some((state, source));
    }
    combined
}

/// The state in `minor` and where it comes from.
fn state_in(
    page: Option<&FeatureGateHistory>,
    recorded: &BTreeMap<Version, &RecordedGate>,
    minor: Version,
) -> Option<(FeatureGateState, GateSource)> {
    if let Some(state) = recorded.get(&minor).and_then(|gate| gate.state_in(minor)) {
        return Some((state, GateSource::Binary(minor)));
    }
    let history = recorded.range(minor..).rev().find_map(|(newer, gate)| {
        gate.state_in(minor)
            .map(|state| (state, GateSource::BinaryHistory(*newer)))
    });
    history.or_else(|| {
        page.and_then(|page| gate_state_in(page, minor))
            .map(|state| (state, GateSource::Page))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use vergate_core::gates::GateStage;

    fn v(minor: u32) -> Version {
        Version::new(1, minor)
    }

    fn state(stage: GateStage, default: bool) -> FeatureGateState {
        FeatureGateState { stage, default }
    }

    #[test]
    fn a_recorded_minor_wins_for_itself_only() {
        let alpha = state(GateStage::Alpha, false);
        let beta = state(GateStage::Beta, true);
        let page = FeatureGateHistory::from([(v(28), alpha), (v(31), beta)]);
        // The 1.29 binary says beta already (a page that lags).
        let gate = RecordedGate {
            locked: false,
            stages: BTreeMap::from([(v(29), beta)]),
        };
        let recorded = BTreeMap::from([(v(29), &gate)]);
        let combined = combine(Some(&page), &recorded);
        assert_eq!(
            combined.history,
            FeatureGateHistory::from([
                (v(28), alpha),
                (v(29), beta),
                (v(30), alpha),
                (v(31), beta)
            ])
        );
        assert_eq!(
            combined.sources,
            BTreeMap::from([
                (v(28), GateSource::Page),
                (v(29), GateSource::Binary(v(29))),
                (v(30), GateSource::Page)
            ])
        );
    }

    #[test]
    fn without_a_page_the_versioned_history_fills_the_minors_before() {
        let alpha = state(GateStage::Alpha, false);
        let beta = state(GateStage::Beta, true);
        let gate = RecordedGate {
            locked: false,
            stages: BTreeMap::from([(v(35), alpha), (v(37), beta)]),
        };
        let recorded = BTreeMap::from([(v(37), &gate)]);
        let combined = combine(None, &recorded);
        assert_eq!(
            combined.history,
            FeatureGateHistory::from([(v(35), alpha), (v(37), beta)])
        );
        assert_eq!(combined.sources[&v(35)], GateSource::BinaryHistory(v(37)));
        assert_eq!(combined.sources[&v(37)], GateSource::Binary(v(37)));
        // With no recording the page is the history, unchanged.
        let page = FeatureGateHistory::from([(v(28), alpha)]);
        let alone = combine(Some(&page), &BTreeMap::new());
        assert_eq!(alone.history, page);
        assert_eq!(alone.sources, BTreeMap::from([(v(28), GateSource::Page)]));
    }

    #[test]
    fn a_newer_history_wins_over_a_page_that_lags() {
        let alpha = state(GateStage::Alpha, false);
        let beta = state(GateStage::Beta, true);
        // The page says beta from 1.36; the 1.37 binary's history says
        // beta from 1.35 (what the 1.35 binary itself said, in the cases
        // that decided this order).
        let page = FeatureGateHistory::from([(v(30), alpha), (v(36), beta)]);
        let gate = RecordedGate {
            locked: false,
            stages: BTreeMap::from([(v(33), alpha), (v(35), beta)]),
        };
        let recorded = BTreeMap::from([(v(37), &gate)]);
        let combined = combine(Some(&page), &recorded);
        assert_eq!(
            combined.history,
            FeatureGateHistory::from([(v(30), alpha), (v(35), beta)])
        );
        assert_eq!(
            combined.sources,
            BTreeMap::from([
                // Before the history begins, the page.
                (v(30), GateSource::Page),
                (v(33), GateSource::BinaryHistory(v(37))),
                (v(37), GateSource::Binary(v(37)))
            ])
        );
    }
}
