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
    }
}
