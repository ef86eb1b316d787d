//! The Kubernetes world's conventions, in one place: the definitions whose
//! meaning the specs do not say (Quantity, ObjectMeta, JSONSchemaPropsOr…) and how its names are
//! built. It serves both dialects that speak it: the API server's own
//! (`kubernetes`) and operators' custom resources (`custom-resources`),
//! whose objects embed the same ObjectMeta and quantities.
//!
//! Emitters never compare these names: the load pass marks the
//! definitions ([`mark`]) and they match on [`Convention`].

mod outside_api;
mod pkl_k8s;
mod schema_or;

pub use outside_api::outside_api_lifecycles;
pub use pkl_k8s::{moved_into as pkl_k8s_moved_into, pkl_k8s_path};

use super::Convention;
use crate::model::MinorModel;

/// Kubernetes' quantity (`"500m"`, `"1Gi"`): its spec says `type: string`,
/// but the API server (and its tooling) take a number too. The one upstream
/// type whose spec says less than its decoder accepts.
pub const QUANTITY: &str = "io.k8s.apimachinery.pkg.api.resource.Quantity";

/// Kubernetes' object metadata: what every kind's `metadata` is (CRDs
/// included, `load/crd.rs`), and what kube-rs's `Resource` hands out.
pub const OBJECT_META: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta";

/// The prefix of every definition of apimachinery's `meta/v1` package
/// (ObjectMeta, ListMeta, Time, …), which a custom resource's schema
/// shares with the API server's.
const META_V1: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.";

/// The prefix of the definitions k8s.io/api's Go packages become.
const API_PACKAGES: &str = "io.k8s.api.";

/// The prefix of every name of Kubernetes' own definitions (k8s.io/api,
/// apimachinery, apiextensions, kube-aggregator), which pkl-k8s's module
/// paths leave out.
pub(super) const OWN_NAMES: &str = "io.k8s.";

/// Marks the definitions of `minor` that carry a Kubernetes convention.
pub fn mark(minor: &mut MinorModel) {
    for (name, convention) in [
        (QUANTITY, Convention::Quantity),
        (OBJECT_META, Convention::ObjectMeta),
    ] {
        if let Some(definition) = minor.definitions.get_mut(name) {
            definition.convention = Some(convention);
        }
    }
    schema_or::mark(minor);
}

/// True when `name` is a definition of apimachinery's `meta/v1` package.
pub fn is_meta_v1(name: &str) -> bool {
    name.starts_with(META_V1)
}

/// True when `name` is one of Kubernetes' own definitions, not a custom
/// resource's (whose names are its group's).
pub fn is_own_name(name: &str) -> bool {
    name.starts_with(OWN_NAMES)
}

/// The definition name the Kubernetes specs give the Go type `kind` of
/// k8s.io/api's package `package`/`version`
/// (`io.k8s.api.resource.v1beta1.DeviceClass`).
pub fn api_definition(package: &str, version: &str, kind: &str) -> String {
    format!("{API_PACKAGES}{package}.{version}.{kind}")
}

/// The k8s.io/api package a definition comes from (`apps` for
/// `io.k8s.api.apps.v1.Deployment`), if it comes from one.
pub fn api_package(name: &str) -> Option<&str> {
    name.strip_prefix(API_PACKAGES)?.split('.').next()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Definition, Schema};

    #[test]
    fn names_and_marks() {
        assert_eq!(
            api_definition("apps", "v1", "Deployment"),
            "io.k8s.api.apps.v1.Deployment"
        );
        assert_eq!(api_package("io.k8s.api.apps.v1.Deployment"), Some("apps"));
        assert_eq!(api_package(QUANTITY), None);
        assert!(is_meta_v1(OBJECT_META) && !is_meta_v1(QUANTITY));
        let mut minor = MinorModel::new(crate::Version::new(1, 30));
        for name in [QUANTITY, OBJECT_META, "io.k8s.api.core.v1.Pod"] {
            let definition = Definition::new(name, Schema::String { format: None });
            minor.definitions.insert(name.into(), definition);
        }
        mark(&mut minor);
        let convention = |name: &str| minor.definitions[name].convention;
        assert_eq!(convention(QUANTITY), Some(Convention::Quantity));
        assert_eq!(convention(OBJECT_META), Some(Convention::ObjectMeta));
        assert_eq!(convention("io.k8s.api.core.v1.Pod"), None);
    }
}
