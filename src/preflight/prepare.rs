//! What a built-in kind's registry strategy replaces or drops in a created
//! object before it validates it (`PrepareForCreate`, k8s.io/kubernetes
//! `pkg/registry/<group>/<kind>/strategy.go`): nothing there is refused
//! but what the request's decoding refuses first (a field the type does
//! not have, in any minor or in the target; a value of the wrong type).
//!
//! - `status`, for the kinds of [`RESET`] (`pod.Status = api.PodStatus{…}`):
//!   the strategies that reset it in 1.34, 1.35 and 1.36 alike
//!   (ServiceCIDR's, behind a gate, and newer kinds' are left out). Custom
//!   resources follow their CRD's `status` subresource instead
//!   (`engine::crds::status`).
//! - A PersistentVolumeClaim's data sources (`pkg/api/persistentvolumeclaim`,
//!   the same in 1.28–1.36): `DropDisabledFields` drops a `dataSourceRef`
//!   that names a `namespace` while feature gate
//!   `CrossNamespaceVolumeDataSource` is off (the walk warns about that
//!   field, `feature-gate-off`); then, with no `dataSourceRef`,
//!   `EnforceDataSourceBackwardsCompatibility` drops a `dataSource` that is
//!   neither a claim (`PersistentVolumeClaim` of the core group) nor a
//!   `VolumeSnapshot` of `snapshot.storage.k8s.io`, silently.

use super::checker::Checker;
use super::violation::Rule;
use crate::document::{Node, Value};

/// `(group, kind)` of the kinds whose strategy resets `status` on create,
/// in every version of the group (`""`: the core group).
const RESET: &[(&str, &str)] = &[
    ("", "Namespace"),
    ("", "PersistentVolume"),
    ("", "PersistentVolumeClaim"),
    ("", "Pod"),
    ("", "ReplicationController"),
    ("", "ResourceQuota"),
    ("", "Service"),
    ("admissionregistration.k8s.io", "ValidatingAdmissionPolicy"),
    ("apps", "DaemonSet"),
    ("apps", "Deployment"),
    ("apps", "ReplicaSet"),
    ("apps", "StatefulSet"),
    ("autoscaling", "HorizontalPodAutoscaler"),
    ("batch", "CronJob"),
    ("batch", "Job"),
    ("certificates.k8s.io", "CertificateSigningRequest"),
    ("flowcontrol.apiserver.k8s.io", "FlowSchema"),
    ("flowcontrol.apiserver.k8s.io", "PriorityLevelConfiguration"),
    ("internal.apiserver.k8s.io", "StorageVersion"),
    ("networking.k8s.io", "Ingress"),
    ("policy", "PodDisruptionBudget"),
    ("resource.k8s.io", "ResourceClaim"),
    ("storage.k8s.io", "VolumeAttachment"),
    ("storagemigration.k8s.io", "StorageVersionMigration"),
];

/// What the strategy of one created object replaces or drops.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Dropped {
    status: bool,
    data_source_ref: bool,
    data_source: bool,
}

impl Dropped {
    /// What the strategy of a created `kind` of `group` drops from `root`;
    /// `checker` says whether a field's feature gate is off at the target.
    pub fn of(group: &str, kind: &str, root: &Node, checker: &Checker<'_>) -> Dropped {
        let mut dropped = Dropped {
            status: RESET.iter().any(|&(g, k)| k == kind && g == group),
            ..Dropped::default()
        };
        if group.is_empty() && kind == "PersistentVolumeClaim" {
            dropped.claim_sources(root, checker);
        }
        dropped
    }

    /// True when nothing is dropped.
    pub fn is_empty(self) -> bool {
        self == Dropped::default()
    }

    /// True when a finding of `rule` at `path` is about what is dropped,
    /// and is none the request's decoding makes (nor the warning that a
    /// feature gate drops it).
    pub fn covers(self, path: &str, rule: Rule) -> bool {
        let decoding = matches!(
            rule,
            Rule::UnknownField
                | Rule::WrongType
                | Rule::Removed
                | Rule::NotYetIntroduced
                | Rule::NotInMinor
                | Rule::FeatureGateOff
        );
        !decoding
            && (self.status && below(path, "status")
                || self.data_source_ref && below(path, "spec.dataSourceRef")
                || self.data_source && below(path, "spec.dataSource"))
    }

    /// A PersistentVolumeClaim's `dataSourceRef` and `dataSource`.
    fn claim_sources(&mut self, root: &Node, checker: &Checker<'_>) {
        let Some(spec) = root.get("spec") else {
            return;
        };
        // Only an object is dropped: a value of another type is refused
        // by the decoding, before.
        let object = |key: &str| spec.get(key).filter(|node| node.as_map().is_some());
        if let Some(reference) = object("dataSourceRef") {
            let namespace = reference.get("namespace").and_then(Node::as_str);
            let gate = checker
                .tables()
                .ty("io.k8s.api.core.v1.TypedObjectReference")
                .and_then(|ty| ty.fields.get("namespace"));
            let gate_off = gate.is_some_and(|field| checker.gate_off(&field.gate).is_some());
            if !namespace.is_some_and(|namespace| !namespace.is_empty() && gate_off) {
                return;
            }
            self.data_source_ref = true;
        }
        let Some(source) = object("dataSource") else {
            return;
        };
        let text = |key: &str| match source.get(key).map(|node| &node.value) {
            Some(Value::String(text)) => text.as_str(),
            _ => "",
        };
        let (kind, group) = (text("kind"), text("apiGroup"));
        let claim = kind == "PersistentVolumeClaim" && group.is_empty();
        let snapshot = kind == "VolumeSnapshot" && group == "snapshot.storage.k8s.io";
        self.data_source = !claim && !snapshot;
    }
}

/// True when `path` is `prefix` or below it.
fn below(path: &str, prefix: &str) -> bool {
    path.strip_prefix(prefix)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with('.') || rest.starts_with('['))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reset_status_keeps_only_what_decoding_refuses() {
        let status = Dropped {
            status: true,
            ..Dropped::default()
        };
        assert!(status.covers("status.phase", Rule::ValueNotAvailable));
        assert!(status.covers("status", Rule::ServerValidation));
        assert!(!status.covers("status.phse", Rule::UnknownField));
        assert!(!status.covers("status.startTime", Rule::WrongType));
        assert!(!status.covers("spec.status", Rule::ValueNotAvailable));
        assert!(!status.covers("statuses", Rule::Constraint));
        let source = Dropped {
            data_source: true,
            ..Dropped::default()
        };
        assert!(source.covers("spec.dataSource.kind", Rule::MissingRequired));
        assert!(!source.covers("spec.dataSourceRef.kind", Rule::MissingRequired));
    }

    #[test]
    fn the_kinds_whose_status_is_reset() {
        let has = |group: &str, kind: &str| RESET.contains(&(group, kind));
        assert!(has("", "Pod") && has("autoscaling", "HorizontalPodAutoscaler"));
        // A Node registers with its status; a ConfigMap has none.
        assert!(!has("", "Node") && !has("", "ConfigMap"));
    }
}
