//! The names of compute and quota resources, as k8s.io/kubernetes'
//! `pkg/apis/core/helper` and `validateResourceName` judge them: read by
//! the containers' and pods' `resources`, LimitRanges and ResourceQuotas.

use super::read::has_slash;
use crate::preflight::names::{is_qualified_name, qualified_name};

/// `standardResources`: the names a resource may have without a domain.
pub(super) const STANDARD: &[&str] = &[
    "cpu",
    "memory",
    "ephemeral-storage",
    "requests.cpu",
    "requests.memory",
    "requests.ephemeral-storage",
    "limits.cpu",
    "limits.memory",
    "limits.ephemeral-storage",
    "pods",
    "resourcequotas",
    "services",
    "replicationcontrollers",
    "secrets",
    "configmaps",
    "persistentvolumeclaims",
    "storage",
    "requests.storage",
    "services.nodeports",
    "services.loadbalancers",
];

/// `integerResources`: counted in whole units (so are extended resources).
const COUNTS: &[&str] = &[
    "pods",
    "resourcequotas",
    "services",
    "replicationcontrollers",
    "secrets",
    "configmaps",
    "persistentvolumeclaims",
    "services.nodeports",
    "services.loadbalancers",
];

/// `IsHugePageResourceName`.
pub(super) fn is_huge_pages(name: &str) -> bool {
    name.starts_with("hugepages-")
}

/// `IsQuotaHugePageResourceName`.
pub(super) fn is_quota_huge_pages(name: &str) -> bool {
    is_huge_pages(name) || name.starts_with("requests.hugepages-")
}

/// `IsNativeResource`: no domain, or `kubernetes.io/`.
pub(super) fn is_native(name: &str) -> bool {
    !has_slash(name) || name.contains("kubernetes.io/")
}

/// `IsExtendedResourceName`.
pub(super) fn is_extended(name: &str) -> bool {
    !is_native(name) && !name.starts_with("requests.") && {
        // `requests.` and the name must be a qualified name: joined on the
        // stack (a valid one is at most 253 + 1 + 63 bytes; a longer one
        // is none).
        const PREFIX: &[u8] = b"requests.";
        let mut joined = [0u8; 320];
        let length = PREFIX.len() + name.len();
        length <= joined.len() && {
            joined[..PREFIX.len()].copy_from_slice(PREFIX);
            joined[PREFIX.len()..length].copy_from_slice(name.as_bytes());
            // Both parts are UTF-8, so is the whole.
            std::str::from_utf8(&joined[..length]).is_ok_and(is_qualified_name)
        }
    }
}

/// `IsIntegerResourceName`: `integerResources` and extended resources.
pub(super) fn is_integer(name: &str) -> bool {
    COUNTS.contains(&name) || is_extended(name)
}

/// `IsOvercommitAllowed`: native and not huge pages.
pub(super) fn overcommit_allowed(name: &str) -> bool {
    is_native(name) && !is_huge_pages(name)
}

/// `validateResourceName`: a qualified name, standard unless prefixed.
pub(super) fn resource_name(name: &str) -> Vec<String> {
    // The standard names are qualified names: the common case reads no
    // further (qualified_name allocates its verdict).
    if STANDARD.contains(&name) {
        return Vec::new();
    }
    let errors = qualified_name(name);
    if !errors.is_empty() {
        return errors;
    }
    if !has_slash(name) && !STANDARD.contains(&name) && !is_quota_huge_pages(name) {
        return vec!["must be a standard resource type or fully qualified".to_owned()];
    }
    Vec::new()
}

/// `validateContainerResourceName`: a resource a container may request.
pub(super) fn container_resource_name(name: &str) -> Vec<String> {
    let mut errors = resource_name(name);
    if !has_slash(name) {
        let standard =
            matches!(name, "cpu" | "memory" | "ephemeral-storage") || is_huge_pages(name);
        if !standard {
            errors.push("must be a standard resource for containers".to_owned());
        }
    } else if !is_native(name) && !is_extended(name) {
        errors.push("doesn't follow extended resource name standard".to_owned());
    }
    errors
}
