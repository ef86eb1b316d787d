//! pkl-k8s's layout of Kubernetes' own definitions: the module path of a
//! definition, and its deprecated typealiases: classes pkl-k8s once kept inside a
//! module and later moved into modules of their own (or renamed), whose old
//! names it keeps as deprecated typealiases (`PodSpec.Probe`,
//! `Lifecycle.Handler`). A user's file may still say them, so each minor's
//! package keeps them too, deprecated the same way, where the minor has
//! the class and the module does not already hold the name. The table is
//! pkl-k8s's (its generator's `movedTypes` and `renamedTypes`).

use super::OWN_NAMES;

/// pkl-k8s's module path of one of Kubernetes' own definitions, without
/// `.pkl`: `io.k8s.api.apps.v1.Deployment` → `api/apps/v1/Deployment`.
/// `None` for a definition outside Kubernetes' own names (a CRD's).
pub fn pkl_k8s_path(name: &str) -> Option<String> {
    let rest = name.strip_prefix(OWN_NAMES)?;
    Some(rest.replace('.', "/"))
}

/// (module path, old name, definition it names now).
const MOVED: &[(&str, &str, &str)] = &[
    (
        "api/core/v1/PodSpec",
        "SeccompProfile",
        "io.k8s.api.core.v1.SeccompProfile",
    ),
    (
        "api/core/v1/PodSpec",
        "WindowsSecurityContextOptions",
        "io.k8s.api.core.v1.WindowsSecurityContextOptions",
    ),
    (
        "api/core/v1/PodSpec",
        "EphemeralContainer",
        "io.k8s.api.core.v1.EphemeralContainer",
    ),
    (
        "api/core/v1/PodSpec",
        "VolumeDevice",
        "io.k8s.api.core.v1.VolumeDevice",
    ),
    ("api/core/v1/PodSpec", "Probe", "io.k8s.api.core.v1.Probe"),
    (
        "api/core/v1/PodSpec",
        "TCPSocketAction",
        "io.k8s.api.core.v1.TCPSocketAction",
    ),
    (
        "api/core/v1/PodSpec",
        "ExecAction",
        "io.k8s.api.core.v1.ExecAction",
    ),
    (
        "api/core/v1/PodSpec",
        "HTTPGetAction",
        "io.k8s.api.core.v1.HTTPGetAction",
    ),
    (
        "api/core/v1/PodSpec",
        "HTTPHeader",
        "io.k8s.api.core.v1.HTTPHeader",
    ),
    (
        "api/core/v1/PodSpec",
        "SecurityContext",
        "io.k8s.api.core.v1.SecurityContext",
    ),
    (
        "api/core/v1/PodSpec",
        "Capabilities",
        "io.k8s.api.core.v1.Capabilities",
    ),
    (
        "api/core/v1/PodSpec",
        "ContainerPort",
        "io.k8s.api.core.v1.ContainerPort",
    ),
    (
        "api/core/v1/PodSpec",
        "Lifecycle",
        "io.k8s.api.core.v1.Lifecycle",
    ),
    (
        "api/core/v1/Lifecycle",
        "Handler",
        "io.k8s.api.core.v1.LifecycleHandler",
    ),
    (
        "apimachinery/pkg/apis/meta/v1/LabelSelector",
        "LabelSelectorRequirement",
        "io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelectorRequirement",
    ),
    (
        "api/admissionregistration/v1/ValidatingAdmissionPolicy",
        "Variable",
        "io.k8s.api.admissionregistration.v1.Variable",
    ),
    (
        "api/admissionregistration/v1/ValidatingAdmissionPolicy",
        "ParamKind",
        "io.k8s.api.admissionregistration.v1.ParamKind",
    ),
    (
        "api/resource/v1beta2/ResourceSlice",
        "DeviceTaint",
        "io.k8s.api.resource.v1beta2.DeviceTaint",
    ),
];

/// The old names pkl-k8s keeps in `module`, each with the definition it
/// names now.
pub fn moved_into(module: &str) -> impl Iterator<Item = (&'static str, &'static str)> + '_ {
    MOVED
        .iter()
        .filter(move |(path, ..)| *path == module)
        .map(|(_, name, target)| (*name, *target))
}
