//! `metadata` as the API server validates it on create
//! (k8s.io/apimachinery `pkg/api/validation/objectmeta.go`): a name or a
//! `generateName` by the rule the kind's validation passes it (one table,
//! [`KINDS`]), label keys and values, annotation keys and the annotations'
//! total size, in the server's words and at its paths (`metadata.name`,
//! `metadata.labels`). The namespace's name is a DNS-1123 label by the
//! refinements overlay (rule `constraint`), not here.
//!
//! Kinds the table does not list get the rule the generic registry applies
//! to every object after the kind's own validation (`rest.BeforeCreate`:
//! a path segment name); custom resources get a DNS-1123 subdomain, as
//! apiextensions' custom resource validator does.

use super::feature_gates::FeatureGates;
use super::names;
use super::violation::{Rule, Violation};
use crate::document::{Entry, Node, Value};
use crate::tables::GateTables;
use crate::walk::go_quoted;
use crate::Version;

/// Which name function a kind's validation passes to `ValidateObjectMeta`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NameRule {
    /// `NameIsDNSSubdomain`: most kinds.
    Subdomain,
    /// `NameIsDNSLabel`: Namespace, StatefulSet.
    Label,
    /// `NameIsDNS1035Label`: Service (a DNS-1123 label where the
    /// `RelaxedServiceNameValidation` feature gate is on).
    Service,
    /// `NameIsDNSSubdomain`, and at most 52 characters (the CronJob
    /// controller appends 11 to name its Jobs).
    CronJob,
    /// `path.ValidatePathSegmentName`: RBAC, and any kind not listed.
    PathSegment,
    /// Any name (CertificateSigningRequest's `ValidateCertificateRequestName`).
    Any,
}

/// One kind's name rule.
struct KindRule {
    group: &'static str,
    kind: &'static str,
    name: NameRule,
}

const fn rule(group: &'static str, kind: &'static str, name: NameRule) -> KindRule {
    KindRule { group, kind, name }
}

use NameRule::{Any, CronJob, Label, PathSegment, Service, Subdomain};

/// The name rule of each kind, from the `ValidateObjectMeta` call in its
/// validation (k8s.io/kubernetes `pkg/apis/<group>/validation`, the same
/// in 1.28–1.36 unless said). To add a kind: its group, kind and the name
/// function its validation passes.
const KINDS: &[KindRule] = &[
    rule("", "ConfigMap", Subdomain),
    rule("", "Endpoints", Subdomain),
    rule("", "Event", Subdomain),
    rule("", "LimitRange", Subdomain),
    rule("", "Namespace", Label),
    rule("", "Node", Subdomain),
    rule("", "PersistentVolume", Subdomain),
    rule("", "PersistentVolumeClaim", Subdomain),
    rule("", "Pod", Subdomain),
    rule("", "PodTemplate", Subdomain),
    rule("", "ReplicationController", Subdomain),
    rule("", "ResourceQuota", Subdomain),
    rule("", "Secret", Subdomain),
    rule("", "Service", Service),
    rule("", "ServiceAccount", Subdomain),
    rule(
        "admissionregistration.k8s.io",
        "MutatingWebhookConfiguration",
        Subdomain,
    ),
    rule(
        "admissionregistration.k8s.io",
        "ValidatingAdmissionPolicy",
        Subdomain,
    ),
    rule(
        "admissionregistration.k8s.io",
        "ValidatingAdmissionPolicyBinding",
        Subdomain,
    ),
    rule(
        "admissionregistration.k8s.io",
        "ValidatingWebhookConfiguration",
        Subdomain,
    ),
    rule("apps", "ControllerRevision", Subdomain),
    rule("apps", "DaemonSet", Subdomain),
    rule("apps", "Deployment", Subdomain),
    rule("apps", "ReplicaSet", Subdomain),
    rule("apps", "StatefulSet", Label),
    rule("autoscaling", "HorizontalPodAutoscaler", Subdomain),
    rule("batch", "CronJob", CronJob),
    rule("batch", "Job", Subdomain),
    rule("certificates.k8s.io", "CertificateSigningRequest", Any),
    rule("coordination.k8s.io", "Lease", Subdomain),
    rule("discovery.k8s.io", "EndpointSlice", Subdomain),
    rule("flowcontrol.apiserver.k8s.io", "FlowSchema", Subdomain),
    rule(
        "flowcontrol.apiserver.k8s.io",
        "PriorityLevelConfiguration",
        Subdomain,
    ),
    rule("networking.k8s.io", "Ingress", Subdomain),
    rule("networking.k8s.io", "IngressClass", Subdomain),
    rule("networking.k8s.io", "NetworkPolicy", Subdomain),
    rule("node.k8s.io", "RuntimeClass", Subdomain),
    rule("rbac.authorization.k8s.io", "ClusterRole", PathSegment),
    rule(
        "rbac.authorization.k8s.io",
        "ClusterRoleBinding",
        PathSegment,
    ),
    rule("rbac.authorization.k8s.io", "Role", PathSegment),
    rule("rbac.authorization.k8s.io", "RoleBinding", PathSegment),
    rule("scheduling.k8s.io", "PriorityClass", Subdomain),
    rule("storage.k8s.io", "CSIDriver", Subdomain),
    rule("storage.k8s.io", "CSINode", Subdomain),
    rule("storage.k8s.io", "CSIStorageCapacity", Subdomain),
    rule("storage.k8s.io", "StorageClass", Subdomain),
    rule("storage.k8s.io", "VolumeAttachment", Subdomain),
    rule("storage.k8s.io", "VolumeAttributesClass", Subdomain),
];

/// Kinds that are not stored, whose metadata no create validates (the
/// review requests).
const NOT_STORED: &[(&str, &str)] = &[
    ("authentication.k8s.io", "SelfSubjectReview"),
    ("authentication.k8s.io", "TokenReview"),
    ("authorization.k8s.io", "LocalSubjectAccessReview"),
    ("authorization.k8s.io", "SelfSubjectAccessReview"),
    ("authorization.k8s.io", "SelfSubjectRulesReview"),
    ("authorization.k8s.io", "SubjectAccessReview"),
];

/// The annotations' total size limit (`TotalAnnotationSizeLimitB`).
const ANNOTATIONS_MAX: usize = 256 << 10;

/// Who the document is, for its metadata rules.
pub(super) struct Kind<'a> {
    pub group: &'a str,
    pub kind: &'a str,
    /// A custom resource (its type from a CRD).
    pub custom: bool,
}

/// The metadata violations of `root`, a document of `kind`, on `target`;
/// nothing for a kind that is not stored.
pub(super) fn check(
    tables: &GateTables,
    kind: &Kind,
    root: &Node,
    target: Version,
    gates: Option<&FeatureGates>,
) -> Vec<Violation> {
    if NOT_STORED.contains(&(kind.group, kind.kind)) {
        return Vec::new();
    }
    let listed = KINDS
        .iter()
        .find(|rule| rule.kind == kind.kind && rule.group == kind.group);
    let rule = match listed {
        _ if kind.custom => Subdomain,
        Some(listed) => listed.name,
        None => PathSegment,
    };
    let rule = match rule {
        Service if relaxed_service_names(tables, target, gates) => Label,
        other => other,
    };
    let mut out = Vec::new();
    let Some(metadata) = root.get("metadata") else {
        out.push(required_name(root.line));
        return out;
    };
    let Some(entries) = metadata.as_map() else {
        // Not a mapping: the walk reports its type.
        return out;
    };
    let text = |name: &str| {
        find(entries, name).and_then(|entry| entry.value.as_str().map(|text| (entry, text)))
    };
    let generate = text("generateName").filter(|(_, text)| !text.is_empty());
    if let Some((entry, value)) = generate {
        for message in name_errors(rule, value, true) {
            out.push(invalid(
                "metadata.generateName",
                entry.line,
                value,
                &message,
            ));
        }
    }
    match text("name").filter(|(_, text)| !text.is_empty()) {
        Some((entry, value)) => {
            for message in name_errors(rule, value, false) {
                out.push(invalid("metadata.name", entry.line, value, &message));
            }
        }
        None if generate.is_none() => out.push(required_name(
            find(entries, "name").map_or(metadata_line(root), |entry| entry.line),
        )),
        None => {}
    }
    if let Some(Value::Map(labels)) = find(entries, "labels").map(|entry| &entry.value.value) {
        for label in labels {
            for message in names::qualified_name(&label.key) {
                out.push(invalid("metadata.labels", label.line, &label.key, &message));
            }
            if let Some(value) = label.value.as_str() {
                for message in names::label_value(value) {
                    out.push(invalid("metadata.labels", label.line, value, &message));
                }
            }
        }
    }
    if let Some(entry) = find(entries, "annotations") {
        if let Value::Map(annotations) = &entry.value.value {
            annotations_errors(annotations, entry.line, target, &mut out);
        }
    }
    out
}

/// The messages of `rule` for `name` (`prefix`: a `generateName`).
fn name_errors(rule: NameRule, name: &str, prefix: bool) -> Vec<String> {
    let masked = if prefix {
        names::mask_trailing_dash(name)
    } else {
        name.into()
    };
    match rule {
        Subdomain => names::dns1123_subdomain(&masked),
        CronJob => {
            let mut errors = names::dns1123_subdomain(&masked);
            // Checked on the name alone, after the object's metadata.
            if !prefix && name.len() > names::DNS_LABEL_MAX - 11 {
                errors.push("must be no more than 52 characters".to_owned());
            }
            errors
        }
        Label => names::dns1123_label(&masked),
        Service => names::dns1035_label(&masked),
        PathSegment => names::path_segment(name, prefix),
        Any => Vec::new(),
    }
}

/// Annotation keys (qualified names, case aside) and the total size.
fn annotations_errors(annotations: &[Entry], line: u32, target: Version, out: &mut Vec<Violation>) {
    let mut total = 0usize;
    for annotation in annotations {
        for message in names::qualified_name(&annotation.key.to_ascii_lowercase()) {
            out.push(invalid(
                "metadata.annotations",
                annotation.line,
                &annotation.key,
                &message,
            ));
        }
        total += annotation.key.len() + annotation.value.as_str().map_or(0, str::len);
    }
    if total > ANNOTATIONS_MAX {
        // field.TooLong's words changed in 1.30.
        let message = if target < Version::new(1, 30) {
            format!("Too long: must have at most {ANNOTATIONS_MAX} bytes")
        } else {
            format!("Too long: may not be more than {ANNOTATIONS_MAX} bytes")
        };
        out.push(error("metadata.annotations", line, message));
    }
}

/// Whether Service names are DNS-1123 labels on `target`: the
/// `RelaxedServiceNameValidation` gate, as set or by its default there.
fn relaxed_service_names(
    tables: &GateTables,
    target: Version,
    gates: Option<&FeatureGates>,
) -> bool {
    const GATE: &str = "RelaxedServiceNameValidation";
    // k8s.io/kubernetes pkg/features/kube_features.go: alpha (off) in 1.34,
    // beta and on from 1.36; the recorded feature-gate pages do not have
    // it, and win where they do.
    const ON_FROM: Version = Version::new(1, 36);
    let default = tables
        .feature_gate_in(GATE, target)
        .map_or(target >= ON_FROM, |state| state.default);
    match gates {
        Some(gates) if gates.is_set(GATE) => {
            gates.is_enabled(Some(GATE), crate::gates::Stage::Beta, default)
        }
        _ => default,
    }
}

fn find<'n>(entries: &'n [Entry], key: &str) -> Option<&'n Entry> {
    entries.iter().find(|entry| entry.key == key)
}

fn metadata_line(root: &Node) -> u32 {
    root.as_map()
        .and_then(|entries| find(entries, "metadata"))
        .map_or(root.line, |entry| entry.line)
}

fn required_name(line: u32) -> Violation {
    error(
        "metadata.name",
        line,
        "Required value: name or generateName is required".to_owned(),
    )
}

/// `Invalid value: "Foo_Bar": <message>`, as `field.Invalid` reads.
fn invalid(path: &str, line: u32, value: &str, message: &str) -> Violation {
    error(
        path,
        line,
        format!("Invalid value: {}: {message}", go_quoted(value)),
    )
}

fn error(path: &str, line: u32, message: String) -> Violation {
    Violation::new(Rule::ObjectMeta, path.to_owned(), line, message)
}
