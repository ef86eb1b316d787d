//! What each built-in kind's create path does with `metadata`: the name
//! rule its validation passes to `ValidateObjectMeta`, its scope, and
//! which `ValidateObjectMeta` it calls (k8s.io/kubernetes
//! `pkg/apis/<group>/validation` and `pkg/registry/<group>/<kind>`, the
//! same in 1.28–1.36 unless said).

use crate::Version;
use foldhash::fast::RandomState;
use std::collections::HashMap;
use std::sync::OnceLock;

/// Which name function a kind's validation passes to `ValidateObjectMeta`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NameRule {
    /// `NameIsDNSSubdomain`: most kinds.
    Subdomain,
    /// `validate.LongName`: a DNS-1123 subdomain in content's words
    /// (ReplicationController from 1.35).
    LongName,
    /// `NameIsDNSLabel`: Namespace, StatefulSet.
    Label,
    /// `NameIsDNS1035Label`: Service (a DNS-1123 label where the
    /// `RelaxedServiceNameValidation` feature gate is on).
    Service,
    /// `NameIsDNSSubdomain`, and at most 52 characters (the CronJob
    /// controller appends 11 to name its Jobs).
    CronJob,
    /// `path.ValidatePathSegmentName`: RBAC, and any kind whose strategy
    /// validates no metadata (the generic registry's rule).
    PathSegment,
    /// Any name (CertificateSigningRequest's `ValidateCertificateRequestName`).
    Any,
}

/// Where a kind's objects live.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Scope {
    /// In a namespace: an empty one is the request's, any other must be a
    /// DNS-1123 label.
    Namespaced,
    /// Cluster-scoped: the server clears a namespace the document gives.
    Cluster,
}

/// Which `ValidateObjectMeta` a kind's strategy calls.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Meta {
    /// k8s.io/kubernetes core validation's: apimachinery's, and a
    /// finalizer without a `/` must be a standard one
    /// (`validateKubeFinalizerName`).
    Core,
    /// apimachinery's alone.
    Generic,
    /// None: only the generic registry's check after the strategy
    /// (`rest.BeforeCreate`, names as path segments).
    Registry,
}

/// One kind's metadata rules.
pub(crate) struct KindRule {
    pub group: &'static str,
    pub kind: &'static str,
    pub name: NameRule,
    pub scope: Scope,
    pub meta: Meta,
}

const fn rule(
    group: &'static str,
    kind: &'static str,
    name: NameRule,
    scope: Scope,
    meta: Meta,
) -> KindRule {
    KindRule {
        group,
        kind,
        name,
        scope,
        meta,
    }
}

use Meta::{Core, Generic, Registry};
use NameRule::{Any, CronJob, Label, PathSegment, Service, Subdomain};
use Scope::{Cluster, Namespaced as Ns};

/// The built-in kinds. To add one: its group, kind, the name function its
/// validation passes, its scope, and whether that validation imports
/// core's `ValidateObjectMeta` (`apivalidation "k8s.io/kubernetes/pkg/apis/core/validation"`)
/// or apimachinery's. Kinds whose name rule is special (APIService,
/// ClusterTrustBundle, IPAddress, StorageVersion, CRDs) are left out:
/// they get the generic registry's path-segment rule and no namespace check.
pub(crate) const KINDS: &[KindRule] = &[
    rule("", "ConfigMap", Subdomain, Ns, Core),
    rule("", "Endpoints", Subdomain, Ns, Core),
    // core/v1 Events are validated by `legacyValidateEvent`, no metadata.
    rule("", "Event", PathSegment, Ns, Registry),
    rule("", "LimitRange", Subdomain, Ns, Core),
    rule("", "Namespace", Label, Cluster, Core),
    rule("", "Node", Subdomain, Cluster, Core),
    rule("", "PersistentVolume", Subdomain, Cluster, Core),
    rule("", "PersistentVolumeClaim", Subdomain, Ns, Core),
    rule("", "Pod", Subdomain, Ns, Core),
    rule("", "PodTemplate", Subdomain, Ns, Core),
    rule("", "ReplicationController", Subdomain, Ns, Core),
    rule("", "ResourceQuota", Subdomain, Ns, Core),
    rule("", "Secret", Subdomain, Ns, Core),
    rule("", "Service", Service, Ns, Core),
    rule("", "ServiceAccount", Subdomain, Ns, Core),
    rule(
        "admissionregistration.k8s.io",
        "MutatingAdmissionPolicy",
        Subdomain,
        Cluster,
        Generic,
    ),
    rule(
        "admissionregistration.k8s.io",
        "MutatingAdmissionPolicyBinding",
        Subdomain,
        Cluster,
        Generic,
    ),
    rule(
        "admissionregistration.k8s.io",
        "MutatingWebhookConfiguration",
        Subdomain,
        Cluster,
        Generic,
    ),
    rule(
        "admissionregistration.k8s.io",
        "ValidatingAdmissionPolicy",
        Subdomain,
        Cluster,
        Generic,
    ),
    rule(
        "admissionregistration.k8s.io",
        "ValidatingAdmissionPolicyBinding",
        Subdomain,
        Cluster,
        Generic,
    ),
    rule(
        "admissionregistration.k8s.io",
        "ValidatingWebhookConfiguration",
        Subdomain,
        Cluster,
        Generic,
    ),
    rule("apps", "ControllerRevision", Subdomain, Ns, Core),
    rule("apps", "DaemonSet", Subdomain, Ns, Core),
    rule("apps", "Deployment", Subdomain, Ns, Core),
    rule("apps", "ReplicaSet", Subdomain, Ns, Core),
    rule("apps", "StatefulSet", Label, Ns, Core),
    rule(
        "autoscaling",
        "HorizontalPodAutoscaler",
        Subdomain,
        Ns,
        Core,
    ),
    rule("batch", "CronJob", CronJob, Ns, Core),
    rule("batch", "Job", Subdomain, Ns, Core),
    rule(
        "certificates.k8s.io",
        "CertificateSigningRequest",
        Any,
        Cluster,
        Core,
    ),
    rule(
        "certificates.k8s.io",
        "PodCertificateRequest",
        Subdomain,
        Ns,
        Core,
    ),
    rule("coordination.k8s.io", "Lease", Subdomain, Ns, Generic),
    rule("discovery.k8s.io", "EndpointSlice", Subdomain, Ns, Core),
    rule("events.k8s.io", "Event", Subdomain, Ns, Core),
    rule(
        "flowcontrol.apiserver.k8s.io",
        "FlowSchema",
        Subdomain,
        Cluster,
        Core,
    ),
    rule(
        "flowcontrol.apiserver.k8s.io",
        "PriorityLevelConfiguration",
        Subdomain,
        Cluster,
        Core,
    ),
    rule("networking.k8s.io", "Ingress", Subdomain, Ns, Core),
    rule(
        "networking.k8s.io",
        "IngressClass",
        Subdomain,
        Cluster,
        Core,
    ),
    rule("networking.k8s.io", "NetworkPolicy", Subdomain, Ns, Core),
    rule("networking.k8s.io", "ServiceCIDR", Subdomain, Cluster, Core),
    rule("node.k8s.io", "RuntimeClass", Subdomain, Cluster, Generic),
    // ValidatePodDisruptionBudget validates no metadata.
    rule("policy", "PodDisruptionBudget", PathSegment, Ns, Registry),
    rule(
        "rbac.authorization.k8s.io",
        "ClusterRole",
        PathSegment,
        Cluster,
        Core,
    ),
    rule(
        "rbac.authorization.k8s.io",
        "ClusterRoleBinding",
        PathSegment,
        Cluster,
        Core,
    ),
    rule("rbac.authorization.k8s.io", "Role", PathSegment, Ns, Core),
    rule(
        "rbac.authorization.k8s.io",
        "RoleBinding",
        PathSegment,
        Ns,
        Core,
    ),
    rule(
        "resource.k8s.io",
        "DeviceTaintRule",
        Subdomain,
        Cluster,
        Core,
    ),
    rule("resource.k8s.io", "ResourceClaim", Subdomain, Ns, Core),
    rule(
        "resource.k8s.io",
        "ResourceClaimTemplate",
        Subdomain,
        Ns,
        Core,
    ),
    rule(
        "resource.k8s.io",
        "ResourcePoolStatusRequest",
        Subdomain,
        Cluster,
        Core,
    ),
    rule("resource.k8s.io", "ResourceSlice", Subdomain, Cluster, Core),
    rule("scheduling.k8s.io", "PodGroup", Subdomain, Ns, Core),
    rule(
        "scheduling.k8s.io",
        "PriorityClass",
        Subdomain,
        Cluster,
        Core,
    ),
    rule("scheduling.k8s.io", "Workload", Subdomain, Ns, Core),
    rule("storage.k8s.io", "CSIDriver", Subdomain, Cluster, Core),
    rule("storage.k8s.io", "CSINode", Subdomain, Cluster, Core),
    rule("storage.k8s.io", "CSIStorageCapacity", Subdomain, Ns, Core),
    rule("storage.k8s.io", "StorageClass", Subdomain, Cluster, Core),
    rule(
        "storage.k8s.io",
        "VolumeAttachment",
        Subdomain,
        Cluster,
        Core,
    ),
    rule(
        "storage.k8s.io",
        "VolumeAttributesClass",
        Subdomain,
        Cluster,
        Core,
    ),
    rule(
        "storagemigration.k8s.io",
        "StorageVersionMigration",
        Subdomain,
        Cluster,
        Core,
    ),
];

/// Kinds that are not stored, whose metadata no create validates (the
/// review requests).
pub(crate) const NOT_STORED: &[(&str, &str)] = &[
    ("authentication.k8s.io", "SelfSubjectReview"),
    ("authentication.k8s.io", "TokenReview"),
    ("authorization.k8s.io", "LocalSubjectAccessReview"),
    ("authorization.k8s.io", "SelfSubjectAccessReview"),
    ("authorization.k8s.io", "SelfSubjectRulesReview"),
    ("authorization.k8s.io", "SubjectAccessReview"),
];

/// The kinds whose strategy warns on create that the name is no DNS-1123
/// label ("this is used in Pod names and hostnames"): `WarningsOnCreate`
/// in `pkg/registry/{apps,batch,core}`; the Pod's own words differ.
pub(crate) const NAME_WARNS: &[(&str, &str)] = &[
    ("", "Pod"),
    ("", "ReplicationController"),
    ("apps", "Deployment"),
    ("apps", "ReplicaSet"),
    ("batch", "CronJob"),
    ("batch", "Job"),
];

/// How a kind's metadata is checked on `target`.
pub(crate) struct Resolved {
    pub name: NameRule,
    /// `None`: a kind this table does not know, whose scope is not known.
    pub scope: Option<Scope>,
    pub meta: Meta,
    /// The strategy validates `generateName` itself (`ValidateObjectMeta`);
    /// `ValidateObjectMetaWithOpts` validates only the name generated
    /// from it (ReplicationController from 1.35).
    pub checks_generate_name: bool,
}

/// The row of `group`/`kind` in [`KINDS`]: one hash lookup, built once
/// (every document asks; a scan of the table cost about 80 string
/// comparisons a document).
fn rule_of(group: &str, kind: &str) -> Option<&'static KindRule> {
    type Index = HashMap<(&'static str, &'static str), &'static KindRule, RandomState>;
    static INDEX: OnceLock<Index> = OnceLock::new();
    INDEX
        .get_or_init(|| {
            KINDS
                .iter()
                .map(|rule| ((rule.group, rule.kind), rule))
                .collect()
        })
        .get(&(group, kind))
        .copied()
}

/// The rules of `group`/`kind` on `target` (`custom`: a custom resource:
/// apiextensions' validator, a DNS-1123 subdomain and apimachinery's
/// `ValidateObjectMeta`; its CRD's scope is not read, so it is taken as
/// namespaced).
pub(crate) fn resolve(group: &str, kind: &str, custom: bool, target: Version) -> Resolved {
    if custom {
        return Resolved {
            name: Subdomain,
            scope: Some(Ns),
            meta: Generic,
            checks_generate_name: true,
        };
    }
    let with_opts =
        group.is_empty() && kind == "ReplicationController" && target >= Version::new(1, 35);
    match rule_of(group, kind) {
        Some(rule) => Resolved {
            name: if with_opts {
                NameRule::LongName
            } else {
                rule.name
            },
            scope: Some(rule.scope),
            meta: rule.meta,
            checks_generate_name: !with_opts,
        },
        None => Resolved {
            name: PathSegment,
            scope: None,
            meta: Registry,
            checks_generate_name: true,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_kind_once() {
        let mut seen = std::collections::HashSet::new();
        for rule in KINDS {
            assert!(seen.insert((rule.group, rule.kind)), "{} twice", rule.kind);
        }
    }

    #[test]
    fn replication_controllers_use_opts_from_1_35() {
        let old = resolve("", "ReplicationController", false, Version::new(1, 34));
        assert_eq!(old.name, Subdomain);
        assert!(old.checks_generate_name);
        let new = resolve("", "ReplicationController", false, Version::new(1, 35));
        assert_eq!(new.name, NameRule::LongName);
        assert!(!new.checks_generate_name);
        let unknown = resolve("example.com", "Widget", false, Version::new(1, 35));
        assert_eq!((unknown.name, unknown.scope), (PathSegment, None));
        let custom = resolve("example.com", "Widget", true, Version::new(1, 35));
        assert_eq!((custom.name, custom.scope), (Subdomain, Some(Ns)));
    }
}
