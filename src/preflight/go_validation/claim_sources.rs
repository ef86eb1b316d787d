//! A PersistentVolumeClaim's data sources (core
//! `ValidatePersistentVolumeClaimSpec` → `validateDataSource`,
//! `validateDataSourceRef`), read after the create strategy's
//! `EnforceDataSourceBackwardsCompatibility` (without a `dataSourceRef`, a
//! `dataSource` other than a claim or a snapshot is dropped) and
//! `NormalizeDataSources` (`AnyVolumeDataSource`, on by default in every
//! minor vergate holds): a `dataSource` alone is copied to `dataSourceRef`,
//! a `dataSourceRef` without a namespace to `dataSource`, so one empty name
//! is reported at both.

use super::field_error::{at, invalid_str, required};
use super::read::{entries_of, get, line_of};
use super::{Broken, Scope, Table};
use crate::document::{Entry, Node};
use crate::preflight::names::{dns1123_label, dns1123_subdomain};

/// The checks, by the definition of the object they read.
pub(super) const CHECKS: Table = &[("io.k8s.api.core.v1.PersistentVolumeClaim", data_sources)];

/// One data source as Go reads it: absent strings are empty, `apiGroup`
/// and `namespace` are pointers.
#[derive(Clone, Copy)]
struct Source<'a> {
    kind: &'a str,
    name: &'a str,
    api_group: Option<&'a str>,
    namespace: Option<&'a str>,
    line: u32,
}

impl<'a> Source<'a> {
    /// The source at `key` of `spec`, when it is a mapping (`null` is nil).
    fn read(spec: &'a [Entry], key: &str, spec_line: u32) -> Option<Source<'a>> {
        let entries = get(spec, key)?.as_map()?;
        let text = |field: &str| get(entries, field).and_then(Node::as_str);
        Some(Source {
            kind: text("kind").unwrap_or(""),
            name: text("name").unwrap_or(""),
            api_group: text("apiGroup"),
            namespace: text("namespace"),
            line: line_of(spec, key, spec_line),
        })
    }

    /// The copy `NormalizeDataSources` makes (no namespace).
    fn copied(self) -> Source<'a> {
        Source {
            namespace: None,
            ..self
        }
    }

    /// What `dataSource` has always taken: a claim of the core group, or
    /// a VolumeSnapshot of `snapshot.storage.k8s.io`.
    fn is_claim_or_snapshot(&self) -> bool {
        matches!(
            (self.kind, self.api_group.unwrap_or("")),
            ("PersistentVolumeClaim", "") | ("VolumeSnapshot", "snapshot.storage.k8s.io")
        )
    }

    fn has_namespace(&self) -> bool {
        self.namespace
            .is_some_and(|namespace| !namespace.is_empty())
    }
}

/// `validateDataSource` and `validateDataSourceRef` after normalising, and
/// the two against each other.
fn data_sources(_: &Scope, entries: &[Entry], line: u32, out: &mut Vec<Broken>) {
    let spec_line = line_of(entries, "spec", line);
    let spec = entries_of(entries, "spec");
    let written_ref = Source::read(spec, "dataSourceRef", spec_line);
    // `EnforceDataSourceBackwardsCompatibility`: without a `dataSourceRef`,
    // a `dataSource` that is no claim nor snapshot is dropped unread.
    let written = Source::read(spec, "dataSource", spec_line)
        .filter(|source| written_ref.is_some() || source.is_claim_or_snapshot());
    let (source, reference) = match (written, written_ref) {
        (Some(source), None) => (Some(source), Some(source.copied())),
        (None, Some(reference)) if !reference.has_namespace() => {
            (Some(reference.copied()), Some(reference))
        }
        other => other,
    };
    if let Some(source) = &source {
        reference_rules("spec.dataSource", source, out);
    }
    if let Some(reference) = &reference {
        reference_rules("spec.dataSourceRef", reference, out);
        if let Some(namespace) = reference
            .namespace
            .filter(|namespace| !namespace.is_empty())
        {
            for message in dns1123_label(namespace) {
                out.push(at(
                    "spec.dataSourceRef.namespace",
                    reference.line,
                    invalid_str(namespace, &message),
                ));
            }
        }
    }
    match (&source, &reference) {
        (Some(_), Some(reference)) if reference.has_namespace() => out.push(at(
            "spec",
            spec_line,
            invalid_str(
                "spec.dataSource",
                "may not be specified when dataSourceRef.namespace is specified",
            ),
        )),
        (Some(source), Some(reference))
            if (source.kind, source.name, source.api_group)
                != (reference.kind, reference.name, reference.api_group) =>
        {
            out.push(at(
                "spec",
                spec_line,
                invalid_str("spec.dataSource", "must match dataSourceRef"),
            ))
        }
        _ => {}
    }
}

/// What both references must hold: a name, a kind, and a group that is a
/// DNS-1123 subdomain, or none for a PersistentVolumeClaim.
fn reference_rules(path: &str, source: &Source, out: &mut Vec<Broken>) {
    if source.name.is_empty() {
        out.push(at(format!("{path}.name"), source.line, required("")));
    }
    if source.kind.is_empty() {
        out.push(at(format!("{path}.kind"), source.line, required("")));
    }
    let api_group = source.api_group.unwrap_or("");
    if api_group.is_empty() && source.kind != "PersistentVolumeClaim" {
        out.push(at(
            path,
            source.line,
            invalid_str(
                source.kind,
                "must be 'PersistentVolumeClaim' when referencing the default apiGroup",
            ),
        ));
    }
    if !api_group.is_empty() {
        for message in dns1123_subdomain(api_group) {
            out.push(at(
                format!("{path}.apiGroup"),
                source.line,
                invalid_str(api_group, &message),
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::messages;

    fn sources(spec: &str) -> Vec<String> {
        messages(
            "io.k8s.api.core.v1.PersistentVolumeClaim",
            &format!("spec:\n  accessModes: [ReadWriteOnce]\n  resources: {{requests: {{storage: 1Gi}}}}\n{spec}"),
        )
    }

    #[test]
    fn a_source_alone_is_copied_to_the_reference_and_both_need_a_name() {
        assert_eq!(
            sources("  dataSource: {kind: PersistentVolumeClaim, name: ''}\n"),
            [
                "spec.dataSource.name@4: Required value",
                "spec.dataSourceRef.name@4: Required value"
            ]
        );
        assert!(sources("  dataSource: {kind: PersistentVolumeClaim, name: a}\n").is_empty());
        assert!(sources(
            "  dataSourceRef: {apiGroup: snapshot.storage.k8s.io, kind: VolumeSnapshot, name: a}\n"
        )
        .is_empty());
    }

    #[test]
    fn the_default_group_is_for_claims_and_both_sources_must_match() {
        // Alone, a dataSource of another kind or group is dropped, not
        // refused; beside a dataSourceRef it is validated.
        assert!(sources("  dataSource: {kind: VolumeSnapshot, name: a}\n").is_empty());
        assert_eq!(
            sources("  dataSource: {kind: VolumeSnapshot, name: a}\n  dataSourceRef: {kind: VolumeSnapshot, name: a}\n"),
            [
                "spec.dataSource@4: Invalid value: \"VolumeSnapshot\": must be 'PersistentVolumeClaim' when referencing the default apiGroup",
                "spec.dataSourceRef@5: Invalid value: \"VolumeSnapshot\": must be 'PersistentVolumeClaim' when referencing the default apiGroup"
            ]
        );
        assert_eq!(
            sources("  dataSource: {kind: PersistentVolumeClaim, name: a}\n  dataSourceRef: {kind: PersistentVolumeClaim, name: b}\n"),
            ["spec@1: Invalid value: \"spec.dataSource\": must match dataSourceRef"]
        );
    }
}
