//! What is coming for a document's apiVersion/kind after the target: its
//! removal in a later minor the gates know (pluto's and kubent's job), and
//! its deprecation in the target. Both are warnings, derived from the gates
//! (the corpus), never from a hand-kept list; the replacement is the most
//! stable apiVersion of the same group and kind served in the minor that
//! removes it (or, for a deprecation, in the target).

use super::{Identity, Rule, Severity, Violation};
use crate::gates::{Gate, TypeGate};
use crate::tables::GateTables;
use crate::Version;

/// The removal-ahead and deprecation warnings for a document whose type
/// (`ty`) is served in `target`; `line` is its apiVersion's line. A
/// deprecated CRD version's own `deprecationWarning` is the message.
pub(super) fn warnings(
    tables: &GateTables,
    identity: &Identity,
    ty: &TypeGate,
    target: Version,
    line: u32,
) -> Vec<Violation> {
    let gate = &ty.gate;
    let mut found = Vec::new();
    let group = identity
        .api_version
        .rsplit_once('/')
        .map_or("", |(group, _)| group);
    // Most documents get neither warning: the text is made only for one.
    let served = || format!("{} {}", identity.api_version, identity.kind);
    if let Some(removed) = removal_after(tables, gate, target) {
        let last = tables
            .versions()
            .iter()
            .take_while(|version| **version < removed)
            .last()
            .copied()
            .unwrap_or(target);
        let mut message = format!(
            "{} is removed in {removed} (served through {last}); ",
            served()
        );
        match tables.served_kind(group, identity.kind, removed) {
            Some(replacement) => message.push_str(&format!(
                "use apiVersion {} (served in {removed})",
                replacement.api_version()
            )),
            None => message.push_str(&format!(
                "no apiVersion serves {} in {removed}",
                identity.kind
            )),
        }
        found.push(Violation {
            severity: Severity::Warning,
            rule: Rule::RemovedAhead,
            path: String::new(),
            line,
            message,
        });
    }
    if gate.is_deprecated_in(target) {
        let since = gate.deprecated_in.unwrap_or(target);
        let mut message = format!("{} is deprecated since {since}", served());
        if let Some(warning) = &ty.deprecation_warning {
            // The CRD author's own words, as the API server sends them.
            message = warning.clone();
        } else if let Some(replacement) = tables
            .served_kind(group, identity.kind, target)
            .filter(|gvk| gvk.api_version() != identity.api_version)
        {
            message.push_str(&format!("; use apiVersion {}", replacement.api_version()));
        }
        found.push(Violation {
            severity: Severity::Warning,
            rule: Rule::Deprecated,
            path: String::new(),
            line,
            message,
        });
    }
    found
}

/// The first minor after `target` that the gates know and in which the type
/// is not present.
fn removal_after(tables: &GateTables, gate: &Gate, target: Version) -> Option<Version> {
    tables
        .versions()
        .iter()
        .copied()
        .filter(|version| *version > target)
        .find(|version| !gate.is_present_in(*version))
}
