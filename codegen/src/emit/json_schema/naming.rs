//! File names of resource kinds, as the ecosystem's per-version trees
//! (kubeconform's schema locations) spell them.

use vergate_core::gates::GroupVersionKind;

/// `<kind>-<first label of group>-<version>.json`, lowercased; the core group
/// (`""`) gives `<kind>-<version>.json`: `deployment-apps-v1.json`,
/// `service-v1.json`, `horizontalpodautoscaler-autoscaling-v2.json`.
pub fn kind_file(gvk: &GroupVersionKind) -> String {
    let group = gvk.group.split('.').next().unwrap_or_default();
    let name = if group.is_empty() {
        format!("{}-{}.json", gvk.kind, gvk.version)
    } else {
        format!("{}-{group}-{}.json", gvk.kind, gvk.version)
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
    let segments: Vec<&str> = name.split('.').collect();
    let file = match segments.as_slice() {
        [.., group, version, short] if matches!(*group, "core" | "api") => {
            format!("{short}-{version}.json")
        }
        [.., group, version, short] => format!("{short}-{group}-{version}.json"),
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
