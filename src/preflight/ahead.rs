//! What is coming for a document's apiVersion/kind after the target: its
//! removal in a later minor (pluto's and kubent's job), and its deprecation
//! in the target. Both are warnings, derived from the gates, never from a
//! hand-kept list. Where the API's project publishes the kind's lifecycle
//! (k8s.io/api's prerelease-lifecycle files, gates.json's `api_lifecycle`),
//! the deprecation is the target's API server's own warning, and a removal
//! it announces past the corpus is one too; otherwise the removal is the
//! first minor of the corpus that does not serve it, and the replacement
//! the most stable apiVersion of the same group and kind served then.

use super::{Identity, Rule, Violation};
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
    let group = identity.group();
    // Most documents get neither warning: the text is made only for one.
    let served = || format!("{} {}", identity.api_version, identity.kind);
    let said = ty.api_lifecycle_in(target);
    let warned = said.filter(|said| said.is_deprecated_in(target));
    let announced = said
        .and_then(|said| said.removed)
        .filter(|removed| *removed > target && !tables.has_version(*removed));
    let removal = removal_after(tables, gate, target).or(announced);
    // The API server's warning names its removal already ("unavailable in
    // v1.32+"): the same minor is not said twice.
    let removal = removal.filter(|removed| warned.and_then(|said| said.removed) != Some(*removed));
    if let Some(removed) = removal {
        let last = tables
            .versions()
            .iter()
            .take_while(|version| **version < removed)
            .last()
            .copied()
            .unwrap_or(target);
        let mut message = if tables.has_version(removed) {
            format!(
                "{} is removed in {removed} (served through {last}); ",
                served()
            )
        } else {
            format!(
                "{} is to be removed in {removed} (announced by the API server of {target}); ",
                served()
            )
        };
        let replacement = said.and_then(|said| said.replacement.as_ref());
        if let Some(replacement) = replacement {
            message.push_str(identity.use_instead(replacement).trim_start_matches("; "));
        } else if !tables.has_version(removed) {
            message.push_str("no replacement is announced");
        } else {
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
        }
        found.push(Violation::new(Rule::RemovedAhead, "", line, message));
    }
    let server_warning = warned.and_then(|said| {
        said.warning(&crate::gates::GroupVersionKind::parse(
            identity.api_version,
            identity.kind,
        ))
    });
    if let Some(message) = server_warning {
        // The target's API server's own words (k8s.io/apiserver's
        // deprecation.WarningMessage over the published lifecycle).
        found.push(Violation::new(Rule::Deprecated, "", line, message));
    } else if said.is_none_or(|said| said.deprecated.is_none()) && gate.is_deprecated_in(target) {
        // No published deprecation: the spec's own (or its prose).
        let since = super::checker::since_text(tables, gate, identity.type_name, target);
        let mut message = format!("{} is deprecated{since}", served());
        if let Some(warning) = &ty.deprecation_warning {
            // The CRD author's own words, as the API server sends them.
            message = warning.clone();
        } else if let Some(replacement) = tables
            .served_kind(group, identity.kind, target)
            .filter(|gvk| gvk.api_version() != identity.api_version)
        {
            message.push_str(&format!("; use apiVersion {}", replacement.api_version()));
        }
        found.push(Violation::new(Rule::Deprecated, "", line, message));
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
