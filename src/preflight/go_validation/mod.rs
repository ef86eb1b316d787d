//! Checks of the Kubernetes API server's Go validation (k8s.io/kubernetes
//! `pkg/apis/*/validation`) that no schema states and no refinement shape
//! can say, per object type, with the server's words and paths (rule
//! `server-validation`). What a refinement can say is declared there
//! instead (upstream-specs/kubernetes/refinements.toml: `replicas` not
//! negative, container and volume names unique), so Pkl enforces it too.
//!
//! Each submodule holds the checks of one API area and its table of
//! `(definition, check)` pairs; [`TABLES`] lists the tables. To add a check:
//! a line in its area's table (the definition it applies to and the
//! function), the function, a test, and a line in docs/cli.md.

mod addresses;
mod admission;
mod apiextensions;
mod autoscaling;
mod batch;
mod claim_sources;
mod closed_sets;
mod config;
mod coordination;
mod cron;
mod endpoints;
mod field_error;
mod flowcontrol;
mod networking;
mod pod;
mod policy;
mod quota;
mod rbac;
mod read;
mod resource_names;
mod scheduling;
mod selector;
mod service;
mod service_families;
mod storage;
mod storage_classes;
mod unvalidated;
mod workloads;

pub(super) use unvalidated::{forget as forget_unvalidated, parts as unvalidated_parts};

use crate::document::Entry;
use crate::Version;
use std::collections::HashMap;
use std::sync::OnceLock;

/// One broken check: the path below the object
/// (`template.metadata.labels`, `containers[1].image`), the line, and the
/// server's message.
pub(super) struct Broken {
    pub last: String,
    pub line: u32,
    pub message: String,
}

/// What a check knows besides the object: the minor it is checked against
/// (the server's rules change between minors).
pub(super) struct Scope {
    pub target: Version,
}

/// A check of one object: pushes what it finds broken to `out`.
type Check = fn(&Scope, &[Entry], u32, &mut Vec<Broken>);

/// A table of checks by the definition of the object they read (each from
/// the named function of the API server's validation).
type Table = &'static [(&'static str, Check)];

/// Every area's table.
const TABLES: &[Table] = &[
    workloads::CHECKS,
    pod::CHECKS,
    rbac::CHECKS,
    networking::CHECKS,
    admission::CHECKS,
    autoscaling::CHECKS,
    storage_classes::CHECKS,
    policy::CHECKS,
    scheduling::CHECKS,
    coordination::CHECKS,
    flowcontrol::CHECKS,
    pod::containers::CHECKS,
    pod::resources::CHECKS,
    pod::volumes::CHECKS,
    pod::security::CHECKS,
    pod::scheduling::CHECKS,
    batch::CHECKS,
    service::CHECKS,
    storage::CHECKS,
    claim_sources::CHECKS,
    quota::CHECKS,
    config::CHECKS,
    endpoints::CHECKS,
    apiextensions::CHECKS,
    closed_sets::CHECKS,
];

/// The checks by definition, built once from [`TABLES`] (one foldhash
/// lookup per object, however many checks there are: std's SipHash cost
/// about 75 instructions a lookup, for 28 objects a document).
fn by_definition() -> &'static Index {
    static INDEX: OnceLock<Index> = OnceLock::new();
    INDEX.get_or_init(|| {
        let mut index = Index {
            checks: Checks::default(),
            sieve: [0; SIEVE_WORDS],
        };
        for (definition, check) in TABLES.iter().flat_map(|table| table.iter()) {
            index.checks.entry(definition).or_default().push(*check);
            let bit = sieve_bit(definition);
            index.sieve[bit / 64] |= 1 << (bit % 64);
        }
        index
    })
}

/// The checks by definition, and a sieve that turns away most
/// definitions no check reads before the hash lookup (about two thirds of
/// a document's objects: a bit test is a tenth of a string's hash).
struct Index {
    checks: Checks,
    sieve: [u64; SIEVE_WORDS],
}

/// The sieve's size, in 64-bit words (4,096 bits for about 70 names).
const SIEVE_WORDS: usize = 64;

/// A definition's bit in the sieve: its length and its last two bytes
/// (the names share their start, `io.k8s.api.`).
fn sieve_bit(definition: &str) -> usize {
    let bytes = definition.as_bytes();
    let end = |back: usize| {
        bytes
            .len()
            .checked_sub(back)
            .map_or(0, |at| usize::from(bytes[at]))
    };
    (bytes.len().wrapping_mul(97) ^ end(1).wrapping_mul(31) ^ end(2)) % (SIEVE_WORDS * 64)
}

impl Index {
    /// The checks of `definition`, if any.
    fn get(&self, definition: &str) -> Option<&[Check]> {
        let bit = sieve_bit(definition);
        if self.sieve[bit / 64] & (1 << (bit % 64)) == 0 {
            return None;
        }
        self.checks.get(definition).map(Vec::as_slice)
    }

    #[cfg(test)]
    fn contains_key(&self, definition: &str) -> bool {
        self.get(definition).is_some()
    }
}

/// The checks of each definition.
type Checks = HashMap<&'static str, Vec<Check>, foldhash::fast::RandomState>;

/// The checks of `definition` that the object (its `entries`, at `line`)
/// breaks, checked against `target` (nothing allocated for a definition
/// no check reads).
#[inline]
pub(super) fn check(
    definition: &str,
    target: Version,
    entries: &[Entry],
    line: u32,
) -> Vec<Broken> {
    let mut out = Vec::new();
    if !definition.starts_with("io.k8s.api") {
        return out;
    }
    let Some(checks) = by_definition().get(definition) else {
        return out;
    };
    let scope = Scope { target };
    for check in checks {
        check(&scope, entries, line, &mut out);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The findings of `definition`'s checks on `yaml` at 1.36, as
    /// `path@line: message`.
    pub(super) fn messages(definition: &str, yaml: &str) -> Vec<String> {
        messages_at(definition, yaml, Version::new(1, 36))
    }

    /// [`messages`] at `target`.
    pub(super) fn messages_at(definition: &str, yaml: &str, target: Version) -> Vec<String> {
        let root = crate::document::parse(yaml).documents.remove(0).root;
        check(definition, target, root.as_map().unwrap(), root.line)
            .into_iter()
            .map(|b| format!("{}@{}: {}", b.last, b.line, b.message))
            .collect()
    }

    const SPEC: &str = "io.k8s.api.apps.v1.DeploymentSpec";

    #[test]
    fn selectors_match_template_labels() {
        let matching = "selector:\n  matchLabels: {app: web}\n  matchExpressions:\n  - {key: tier, operator: In, values: [a, b]}\n  - {key: gone, operator: DoesNotExist}\ntemplate:\n  metadata:\n    labels: {app: web, tier: b}\n";
        assert!(messages(SPEC, matching).is_empty());
        let other = "selector:\n  matchLabels: {app: web}\ntemplate:\n  metadata:\n    labels: {tier: b, app: api}\n";
        assert_eq!(
            messages(SPEC, other),
            ["template.metadata.labels@5: Invalid value: map[string]string{\"app\":\"api\", \"tier\":\"b\"}: `selector` does not match template `labels`"]
        );
        // An empty selector is the server's other message, not this one.
        assert_eq!(
            messages(SPEC, "selector: {}\ntemplate: {}\n"),
            ["selector@1: Invalid value: {}: empty selector is invalid for deployment"]
        );
        // A ReplicationController's selector is a map.
        let rc = "selector: {app: web}\ntemplate:\n  metadata:\n    labels: {app: api}\n";
        assert_eq!(
            messages("io.k8s.api.core.v1.ReplicationControllerSpec", rc).len(),
            1
        );
    }

    #[test]
    fn strategies_images_and_seccomp() {
        assert_eq!(
            messages(
                "io.k8s.api.apps.v1.DeploymentStrategy",
                "type: Recreate\nrollingUpdate: {maxSurge: 1}\n"
            ),
            ["rollingUpdate@2: Forbidden: may not be specified when strategy `type` is 'Recreate'"]
        );
        assert!(messages("io.k8s.api.apps.v1.DeploymentStrategy", "type: Recreate\n").is_empty());
        assert_eq!(
            messages("io.k8s.api.core.v1.Container", "name: web\n"),
            ["image@1: Required value"]
        );
        assert_eq!(
            messages("io.k8s.api.core.v1.Container", "name: web\nimage: ''\n"),
            ["image@2: Required value"]
        );
        assert_eq!(
            messages("io.k8s.api.core.v1.SeccompProfile", "type: Localhost\n"),
            ["localhostProfile@1: Required value: must be set when seccomp type is Localhost"]
        );
        assert!(by_definition().contains_key("io.k8s.api.core.v1.Container"));
        assert!(!by_definition().contains_key("io.k8s.api.core.v1.ExecAction"));
    }
}
