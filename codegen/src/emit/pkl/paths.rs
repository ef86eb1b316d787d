//! Where modules are and how they name each other: pkl-k8s's module path
//! of a definition, the kind a definition is a resource module of, and the
//! relative import path between two modules of a minor.

use crate::model::Definition;
use vergate_core::gates::GroupVersionKind;

/// The abstract base of every resource module (a module path of the minor).
pub const K8S_RESOURCE: &str = "K8sResource";

/// The open base of K8sResource, which holds the output renderer.
pub const K8S_OBJECT: &str = "K8sObject";

pub use crate::model::kubernetes::pkl_k8s_path;

/// The kind a definition is a resource module of: served as exactly one
/// kind, and an object with `apiVersion` and `kind` properties.
pub fn served_kind(definition: &Definition) -> Option<&GroupVersionKind> {
    let object = definition.object()?;
    match definition.kinds.as_slice() {
        [kind]
            if object.properties.contains_key("apiVersion")
                && object.properties.contains_key("kind") =>
        {
            Some(kind)
        }
        _ => None,
    }
}

/// The import path from module `from` to module `to` (both relative to the
/// minor's directory, without `.pkl`); `to` = "" is the minor's shared.pkl
/// (each minor's directory holds its own, so that it is a package alone).
pub fn relative_path(from: &str, to: &str) -> String {
    let from_dir: Vec<&str> = from.split('/').collect::<Vec<_>>();
    let from_dir = &from_dir[..from_dir.len() - 1];
    if to.is_empty() {
        return format!("{}shared.pkl", "../".repeat(from_dir.len()));
    }
    let target: Vec<&str> = to.split('/').collect();
    let common = from_dir
        .iter()
        .zip(&target[..target.len() - 1])
        .take_while(|(a, b)| a == b)
        .count();
    format!(
        "{}{}.pkl",
        "../".repeat(from_dir.len() - common),
        target[common..].join("/")
    )
}

#[cfg(test)]
mod tests {
    use super::{pkl_k8s_path, relative_path};

    #[test]
    fn relative_paths() {
        assert_eq!(relative_path("core/Service", "core/v1"), "v1.pkl");
        assert_eq!(relative_path("core/Service", "meta/v1"), "../meta/v1.pkl");
        assert_eq!(
            relative_path("autoscaling/v1/HPA", "autoscaling/v1"),
            "../v1.pkl"
        );
        assert_eq!(relative_path("core/v1", "resource"), "../resource.pkl");
        assert_eq!(relative_path("resource", "core/v1"), "core/v1.pkl");
        assert_eq!(relative_path("core/v1", ""), "../shared.pkl");
        assert_eq!(relative_path("intstr", ""), "shared.pkl");
    }

    #[test]
    fn pkl_k8s_paths_follow_the_definition_names() {
        let path = |name| pkl_k8s_path(name);
        assert_eq!(
            path("io.k8s.api.core.v1.Service").as_deref(),
            Some("api/core/v1/Service")
        );
        assert_eq!(
            path(
                "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition"
            )
            .as_deref(),
            Some("apiextensions-apiserver/pkg/apis/apiextensions/v1/CustomResourceDefinition")
        );
        assert_eq!(path("com.example.harbor.v1alpha1.Dock"), None);
    }
}
