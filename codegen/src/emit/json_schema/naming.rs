//! File names of resource kinds, as the ecosystem's per-version trees
//! (kubeconform's schema locations) spell them.

use crate::model::naming::{group_label, namespace_of, namespace_segments, short_name};
use vergate_core::gates::GroupVersionKind;
use vergate_core::Version;

/// The directory kubeconform's default schema location names for a minor:
/// `{{ .NormalizedKubernetesVersion }}-standalone{{ .StrictSuffix }}`, where
/// kubeconform's version is `v` and a full `X.Y.Z` (it refuses `X.Y`):
/// `v1.34.0-standalone`, `v1.34.0-standalone-strict`. A cluster on a later
/// patch passes `-kubernetes-version X.Y.0`.
pub fn kubeconform_dir(minor: Version, strict: bool) -> String {
    let suffix = if strict { "-strict" } else { "" };
    format!("{}.0-standalone{suffix}", minor.dir_name())
}

/// `<kind>-<first label of group>-<version>.json`, lowercased; the core group
/// (`""`) gives `<kind>-<version>.json`: `deployment-apps-v1.json`,
/// `service-v1.json`, `horizontalpodautoscaler-autoscaling-v2.json`.
pub fn kind_file(gvk: &GroupVersionKind) -> String {
    let name = match group_label(&gvk.group) {
        "" => format!("{}-{}.json", gvk.kind, gvk.version),
        group => format!("{}-{group}-{}.json", gvk.kind, gvk.version),
    };
    name.to_lowercase()
}

/// The name the ecosystem's full trees (openapi2jsonschema `--kubernetes
/// --expanded`) give a definition that is no resource kind:
/// `<short name>-<third-last segment>-<second-last segment>.json`,
/// lowercased, with the `core` and `api` segments left out
/// (`io.k8s.api.core.v1.PodSpec` → `podspec-v1.json`,
/// `io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta` → `objectmeta-meta-v1.json`).
pub fn definition_file(name: &str) -> String {
    let short = short_name(name);
    let file = match namespace_segments(namespace_of(name)).as_slice() {
        [.., "core" | "api", version] => format!("{short}-{version}.json"),
        [.., group, version] => format!("{short}-{group}-{version}.json"),
        _ => format!("{name}.json"),
    };
    file.to_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gvk(group: &str, version: &str, kind: &str) -> GroupVersionKind {
        GroupVersionKind {
            group: group.into(),
            version: version.into(),
            kind: kind.into(),
        }
    }

    #[test]
    fn kubeconform_directories() {
        let minor: Version = "1.34".parse().unwrap();
        assert_eq!(kubeconform_dir(minor, false), "v1.34.0-standalone");
        assert_eq!(kubeconform_dir(minor, true), "v1.34.0-standalone-strict");
    }

    #[test]
    fn names_follow_the_ecosystem() {
        assert_eq!(
            kind_file(&gvk("apps", "v1", "Deployment")),
            "deployment-apps-v1.json"
        );
        assert_eq!(kind_file(&gvk("", "v1", "Service")), "service-v1.json");
        assert_eq!(
            kind_file(&gvk("networking.k8s.io", "v1", "NetworkPolicy")),
            "networkpolicy-networking-v1.json"
        );
        assert_eq!(
            kind_file(&gvk("build.shipyard.dev", "v1", "Pipeline")),
            "pipeline-build-v1.json"
        );
        assert_eq!(
            definition_file("io.k8s.api.core.v1.PodSpec"),
            "podspec-v1.json"
        );
        assert_eq!(
            definition_file("io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"),
            "objectmeta-meta-v1.json"
        );
    }
}
