//! Where each kind is served: its plural (the URL path segment) and whether
//! it lives in a namespace, read from the spec's `paths` as k8s-openapi does.
//! Kubernetes marks each operation with `x-kubernetes-group-version-kind`;
//! the collection path of a kind is
//! `/api/v1/pods`, `/apis/<group>/<version>/<plural>`, or the same under
//! `namespaces/{namespace}/` for a namespaced kind. Item paths (`/{name}`)
//! agree; subresources (`/{name}/status`) and watch paths are not the kind's
//! own and are skipped.

use crate::model::ResourcePath;
use serde::Deserialize;
use std::collections::BTreeMap;
use vergate_core::gates::GroupVersionKind;

/// The operations of one path item, as far as they name a kind.
#[derive(Deserialize, Default)]
pub(super) struct PathItem {
    get: Option<Operation>,
    post: Option<Operation>,
    put: Option<Operation>,
    patch: Option<Operation>,
    delete: Option<Operation>,
}

#[derive(Deserialize)]
struct Operation {
    #[serde(rename = "x-kubernetes-group-version-kind")]
    gvk: Option<Gvk>,
}

#[derive(Deserialize)]
struct Gvk {
    #[serde(default)]
    group: String,
    version: String,
    kind: String,
}

/// The resource path of every kind `paths` serves. A namespaced kind is
/// also listed across namespaces (`/apis/apps/v1/deployments`): any path
/// under `namespaces/{namespace}/` makes it namespaced. Of two plurals, the
/// first in path order is kept.
pub(super) fn resources_of(
    paths: &BTreeMap<String, PathItem>,
) -> BTreeMap<GroupVersionKind, ResourcePath> {
    let mut out = BTreeMap::new();
    for (path, item) in paths {
        let Some(gvk) = [&item.get, &item.post, &item.put, &item.patch, &item.delete]
            .into_iter()
            .flatten()
            .find_map(|operation| operation.gvk.as_ref())
        else {
            continue;
        };
        let Some(resource) = resource_path(path, &gvk.group, &gvk.version) else {
            continue;
        };
        let known = out
            .entry(GroupVersionKind {
                group: gvk.group.clone(),
                version: gvk.version.clone(),
                kind: gvk.kind.clone(),
            })
            .or_insert_with(|| resource.clone());
        known.namespaced |= resource.namespaced;
    }
    out
}

/// The plural and scope a collection or item path gives, or `None` for a
/// path of another shape (a subresource, a watch, another group's prefix).
fn resource_path(path: &str, group: &str, version: &str) -> Option<ResourcePath> {
    let prefix = if group.is_empty() {
        format!("/api/{version}/")
    } else {
        format!("/apis/{group}/{version}/")
    };
    let rest: Vec<&str> = path.strip_prefix(&prefix)?.split('/').collect();
    let own = |segments: &[&str]| match segments {
        [plural] | [plural, "{name}"] if !plural.starts_with('{') => Some((*plural).to_owned()),
        _ => None,
    };
    match rest.as_slice() {
        ["namespaces", "{namespace}", tail @ ..] => own(tail).map(|plural| ResourcePath {
            plural,
            namespaced: true,
        }),
        ["watch", ..] => None,
        segments => own(segments).map(|plural| ResourcePath {
            plural,
            namespaced: false,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::resource_path;

    fn read(path: &str, group: &str) -> Option<(String, bool)> {
        resource_path(path, group, "v1").map(|r| (r.plural, r.namespaced))
    }

    #[test]
    fn collections_and_items_give_the_plural_and_scope() {
        let pods = Some(("pods".to_owned(), true));
        assert_eq!(read("/api/v1/namespaces/{namespace}/pods", ""), pods);
        assert_eq!(read("/api/v1/namespaces/{namespace}/pods/{name}", ""), pods);
        let namespaces = Some(("namespaces".to_owned(), false));
        assert_eq!(read("/api/v1/namespaces", ""), namespaces);
        assert_eq!(read("/api/v1/namespaces/{name}", ""), namespaces);
        assert_eq!(
            read("/apis/apps/v1/namespaces/{namespace}/deployments", "apps"),
            Some(("deployments".to_owned(), true))
        );
        assert_eq!(
            read(
                "/apis/rbac.authorization.k8s.io/v1/clusterroles/{name}",
                "rbac.authorization.k8s.io"
            ),
            Some(("clusterroles".to_owned(), false))
        );
    }

    #[test]
    fn subresources_watches_and_other_prefixes_give_nothing() {
        assert_eq!(
            read("/api/v1/namespaces/{namespace}/pods/{name}/status", ""),
            None
        );
        assert_eq!(read("/api/v1/namespaces/{name}/finalize", ""), None);
        assert_eq!(read("/api/v1/watch/namespaces/{namespace}/pods", ""), None);
        assert_eq!(read("/apis/apps/v1/deployments", ""), None);
        assert_eq!(read("/api/v1/{name}", ""), None);
    }
}
