//! The prerelease lifecycle of Kubernetes kinds that k8s.io/api's tables
//! (`upstream-specs/kubernetes/api-lifecycle/`) leave out because their Go
//! types live in another repository. Each is copied from that repository's
//! generated `zz_generated.prerelease-lifecycle.go`, cited beside it, so
//! that a minor that no longer serves the kind can say when it went and
//! what replaced it (gates.json's `retired_kinds`, the Pkl packages'
//! absent kinds).

use vergate_core::gates::{ApiLifecycle, GroupVersionKind, RetiredKind};
use vergate_core::Version;

/// One kind's statement: group, version, kind, introduced, deprecated,
/// removed, and the replacement's group, version and kind.
struct Statement {
    kind: (&'static str, &'static str, &'static str),
    introduced: (u32, u32),
    deprecated: (u32, u32),
    removed: (u32, u32),
    replacement: (&'static str, &'static str, &'static str),
}

/// The statements, by source.
const STATEMENTS: [Statement; 1] = [
    // k8s.io/apiextensions-apiserver, pkg/apis/apiextensions/v1beta1/
    // zz_generated.prerelease-lifecycle.go: `APILifecycleIntroduced` 1.7,
    // `APILifecycleDeprecated` 1.16, `APILifecycleRemoved` 1.22,
    // `APILifecycleReplacement` apiextensions.k8s.io/v1 CustomResourceDefinition.
    Statement {
        kind: (
            "apiextensions.k8s.io",
            "v1beta1",
            "CustomResourceDefinition",
        ),
        introduced: (1, 7),
        deprecated: (1, 16),
        removed: (1, 22),
        replacement: ("apiextensions.k8s.io", "v1", "CustomResourceDefinition"),
    },
];

/// The kinds outside k8s.io/api with their prerelease lifecycle.
pub fn outside_api_lifecycles() -> Vec<RetiredKind> {
    let gvk = |(group, version, kind): (&str, &str, &str)| GroupVersionKind {
        group: group.into(),
        version: version.into(),
        kind: kind.into(),
    };
    let release = |(major, minor): (u32, u32)| Version::new(major, minor);
    STATEMENTS
        .iter()
        .map(|statement| RetiredKind {
            kind: gvk(statement.kind),
            lifecycle: ApiLifecycle {
                introduced: Some(release(statement.introduced)),
                deprecated: Some(release(statement.deprecated)),
                removed: Some(release(statement.removed)),
                replacement: Some(gvk(statement.replacement)),
            },
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn v1beta1_crds_went_in_1_22_for_v1() {
        let [crd] = &outside_api_lifecycles()[..] else {
            panic!("one statement");
        };
        assert_eq!(crd.kind.api_version(), "apiextensions.k8s.io/v1beta1");
        assert_eq!(crd.lifecycle.removed, Some(Version::new(1, 22)));
        let replacement = crd.lifecycle.replacement.as_ref().unwrap();
        assert_eq!(replacement.api_version(), "apiextensions.k8s.io/v1");
    }
}
