//! What the Kubernetes API server makes of an unset value before it
//! validates a built-in object, where that differs from what the OpenAPI
//! schema says of the value as written.
//!
//! The server decodes into Go structs: a field absent or `null` gets its
//! type's zero value (`""`, `0`, an empty list), and a string or an
//! `intstr` written as its zero value is the same as one left out. Then the
//! versioned defaulters (`pkg/apis/<group>/v1/defaults.go` and the
//! `+default` markers of `zz_generated.defaults.go`) fill in such zero
//! values, and the validation (`pkg/apis/<group>/validation`) checks what
//! results. So a field listed here is not held to its schema's enum,
//! pattern or bounds when written as its zero value, and is not required
//! when absent or `null`: the server fills it in, or its validation takes
//! the zero value for "not set". The Go validation checks that do refuse
//! such a value (a Job template's empty `restartPolicy`) stay in
//! `go_validation`.
//!
//! Every entry names the server's code it follows; none changed between
//! 1.28 and 1.36. The walk asks only about values that are their zero
//! value, so the table costs nothing on a document without any.

use crate::document::Value;

/// Which written values the server takes for unset (besides absent and
/// `null`, which every entry covers).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum UnsetWhen {
    /// A Go string: `""`.
    EmptyString,
    /// A Go `intstr.IntOrString`: `""` and `0`.
    EmptyOrZero,
    /// A Go integer: `0`.
    Zero,
    /// Absent and `null` only: a list, an integer or a struct whose zero
    /// value the validation accepts; written values are checked as usual.
    Absent,
}

/// A field of a definition whose zero value the server fills in or
/// accepts: the definition, the field, its zero values, and the server's
/// code that says so.
struct Unset {
    definition: &'static str,
    field: &'static str,
    zero: UnsetWhen,
    #[allow(dead_code)] // The table's documentation, read by people.
    source: &'static str,
}

const fn unset(
    definition: &'static str,
    field: &'static str,
    zero: UnsetWhen,
    source: &'static str,
) -> Unset {
    Unset {
        definition,
        field,
        zero,
        source,
    }
}

/// The fields, by the definition holding them.
const UNSET: &[Unset] = &[
    unset(
        "io.k8s.api.core.v1.Container",
        "imagePullPolicy",
        UnsetWhen::EmptyString,
        "core/v1 SetDefaults_Container: Always for a :latest image, else IfNotPresent",
    ),
    unset(
        "io.k8s.api.core.v1.Container",
        "terminationMessagePolicy",
        UnsetWhen::EmptyString,
        "core/v1 SetDefaults_Container: File",
    ),
    unset(
        "io.k8s.api.core.v1.EphemeralContainer",
        "imagePullPolicy",
        UnsetWhen::EmptyString,
        "core/v1 SetDefaults_EphemeralContainer (the Container's)",
    ),
    unset(
        "io.k8s.api.core.v1.EphemeralContainer",
        "terminationMessagePolicy",
        UnsetWhen::EmptyString,
        "core/v1 SetDefaults_EphemeralContainer (the Container's)",
    ),
    unset(
        "io.k8s.api.core.v1.ContainerPort",
        "protocol",
        UnsetWhen::EmptyString,
        "core/v1 zz_generated.defaults: +default=\"TCP\"",
    ),
    unset(
        "io.k8s.api.core.v1.PodSpec",
        "dnsPolicy",
        UnsetWhen::EmptyString,
        "core/v1 SetDefaults_PodSpec: ClusterFirst",
    ),
    unset(
        "io.k8s.api.core.v1.PodSpec",
        "restartPolicy",
        UnsetWhen::EmptyString,
        "core/v1 SetDefaults_PodSpec: Always (a Job's template refuses it: go_validation/batch.rs)",
    ),
    unset(
        "io.k8s.api.core.v1.HTTPGetAction",
        "scheme",
        UnsetWhen::EmptyString,
        "core/v1 SetDefaults_HTTPGetAction: HTTP",
    ),
    unset(
        "io.k8s.api.core.v1.ServiceSpec",
        "type",
        UnsetWhen::EmptyString,
        "core/v1 SetDefaults_Service: ClusterIP",
    ),
    unset(
        "io.k8s.api.core.v1.ServiceSpec",
        "sessionAffinity",
        UnsetWhen::EmptyString,
        "core/v1 SetDefaults_Service: None",
    ),
    unset(
        "io.k8s.api.core.v1.ServiceSpec",
        "externalTrafficPolicy",
        UnsetWhen::EmptyString,
        "core/v1 SetDefaults_Service: Cluster when externally accessible; validateServiceExternalTrafficPolicy wants it empty otherwise",
    ),
    unset(
        "io.k8s.api.core.v1.ServicePort",
        "name",
        UnsetWhen::EmptyString,
        "validateServicePort: a name is checked when not empty (required when the Service has more ports: the cross-field rule)",
    ),
    unset(
        "io.k8s.api.core.v1.ServicePort",
        "protocol",
        UnsetWhen::EmptyString,
        "core/v1 SetDefaults_Service: TCP",
    ),
    unset(
        "io.k8s.api.core.v1.ServicePort",
        "targetPort",
        UnsetWhen::EmptyOrZero,
        "core/v1 SetDefaults_Service: 0 or \"\" becomes the port",
    ),
    unset(
        "io.k8s.api.core.v1.ContainerPort",
        "hostPort",
        UnsetWhen::Zero,
        "core validateContainerPorts: a port number only when not 0 (SetDefaults_PodSpec gives a hostNetwork pod's the containerPort)",
    ),
    unset(
        "io.k8s.api.core.v1.EndpointPort",
        "protocol",
        UnsetWhen::EmptyString,
        "core/v1 SetDefaults_Endpoints: TCP",
    ),
    unset(
        "io.k8s.api.core.v1.LimitRangeSpec",
        "limits",
        UnsetWhen::Absent,
        "ValidateLimitRange: checks each limit, requires none",
    ),
    unset(
        "io.k8s.api.batch.v1.PodFailurePolicy",
        "rules",
        UnsetWhen::Absent,
        "validatePodFailurePolicy: counts and checks the rules, requires none",
    ),
    unset(
        "io.k8s.api.rbac.v1.RoleRef",
        "apiGroup",
        UnsetWhen::EmptyString,
        "rbac/v1 SetDefaults_RoleBinding, SetDefaults_ClusterRoleBinding: rbac.authorization.k8s.io",
    ),
    unset(
        "io.k8s.api.scheduling.v1.PriorityClass",
        "value",
        UnsetWhen::Absent,
        "ValidatePriorityClass: value 0 (an int32's zero) is accepted",
    ),
    unset(
        "io.k8s.api.storage.v1.StorageClass",
        "reclaimPolicy",
        UnsetWhen::EmptyString,
        "validateReclaimPolicy: checks a policy when not empty",
    ),
];

/// The entry of `field` of `definition`, if the server fills it in.
fn entry(definition: &str, field: &str) -> Option<&'static Unset> {
    UNSET
        .iter()
        .find(|unset| unset.field == field && unset.definition == definition)
}

/// True when the server fills in `field` of `definition` (or accepts it
/// unset) when it is absent or `null`: a field the schema requires that
/// the server does not.
pub(super) fn unset_accepted(definition: &str, field: &str) -> bool {
    entry(definition, field).is_some()
}

/// True when `value`, written for `field` of `definition`, is a zero value
/// the server takes for unset and fills in (or accepts) before it
/// validates: the schema's enum, pattern and bounds do not apply to it.
pub(super) fn taken_for_unset(definition: &str, field: &str, value: &Value) -> bool {
    // The cheap test first: most values are no zero value at all.
    let (empty, zero) = match value {
        Value::String(text) => (text.is_empty(), false),
        Value::Int(0) => (false, true),
        _ => return false,
    };
    if !empty && !zero {
        return false;
    }
    entry(definition, field).is_some_and(|unset| match unset.zero {
        UnsetWhen::EmptyString => empty,
        UnsetWhen::EmptyOrZero => true,
        UnsetWhen::Zero => zero,
        UnsetWhen::Absent => false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const PORT: &str = "io.k8s.api.core.v1.ServicePort";

    #[test]
    fn zero_values_the_server_fills_in_are_unset() {
        let empty = Value::String("".into());
        assert!(taken_for_unset(PORT, "targetPort", &empty));
        assert!(taken_for_unset(PORT, "targetPort", &Value::Int(0)));
        assert!(taken_for_unset(PORT, "name", &empty));
        assert!(taken_for_unset(
            "io.k8s.api.core.v1.ContainerPort",
            "protocol",
            &empty
        ));
        // A string's zero value is "", not 0; other values are values.
        assert!(!taken_for_unset(PORT, "name", &Value::Int(0)));
        assert!(!taken_for_unset(PORT, "targetPort", &Value::Int(-1)));
        let container_port = "io.k8s.api.core.v1.ContainerPort";
        assert!(taken_for_unset(container_port, "hostPort", &Value::Int(0)));
        assert!(!taken_for_unset(container_port, "hostPort", &empty));
        assert!(!taken_for_unset(
            container_port,
            "hostPort",
            &Value::Int(-1)
        ));
        assert!(!taken_for_unset(
            PORT,
            "targetPort",
            &Value::String("x".into())
        ));
        // Not every empty value: a Service's port is required and checked.
        assert!(!taken_for_unset(PORT, "port", &Value::Int(0)));
        // A PersistentVolumeClaim's volumeMode is a pointer: "" is refused.
        assert!(!taken_for_unset(
            "io.k8s.api.core.v1.PersistentVolumeClaimSpec",
            "volumeMode",
            &empty
        ));
        // A list the validation does not require is only unset absent.
        let limits = "io.k8s.api.core.v1.LimitRangeSpec";
        assert!(!taken_for_unset(limits, "limits", &empty));
    }

    #[test]
    fn fields_the_server_defaults_are_not_required() {
        assert!(unset_accepted("io.k8s.api.rbac.v1.RoleRef", "apiGroup"));
        assert!(unset_accepted(
            "io.k8s.api.scheduling.v1.PriorityClass",
            "value"
        ));
        assert!(unset_accepted(
            "io.k8s.api.core.v1.LimitRangeSpec",
            "limits"
        ));
        assert!(unset_accepted(
            "io.k8s.api.batch.v1.PodFailurePolicy",
            "rules"
        ));
        assert!(!unset_accepted("io.k8s.api.rbac.v1.RoleRef", "name"));
        assert!(!unset_accepted("io.k8s.api.core.v1.Container", "name"));
    }
}
