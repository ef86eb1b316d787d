//! What the Kubernetes specs cannot say: each field's stage by minor, the
//! feature gate behind it while it is not GA, and its KEP. Read by
//! `cargo xtask regen` (parsed with syn, never compiled); the grammar is the
//! derive's. A field's wire name is its identifier in lowerCamelCase.
//! `introduced_in` restates the specs and is checked against them.
//!
//! A field being in a minor's schema does not mean a default API server
//! accepts it: alpha fields are dropped unless their feature gate is on.

#[definition("io.k8s.api.core.v1.ServiceSpec")]
struct ServiceSpec {
    #[introduced_in("1.30")]
    #[stage(alpha = "1.30", beta = "1.31", ga = "1.33")]
    #[feature_gate("ServiceTrafficDistribution")]
    #[reference("https://kep.k8s.io/4444")]
    traffic_distribution: (),
}

#[definition("io.k8s.api.batch.v1.JobSpec")]
struct JobSpec {
    #[introduced_in("1.30")]
    #[stage(alpha = "1.30", beta = "1.31", ga = "1.33")]
    #[feature_gate("JobSuccessPolicy")]
    #[reference("https://kep.k8s.io/3998")]
    success_policy: (),

    #[stage(alpha = "1.28", beta = "1.29", ga = "1.33")]
    #[feature_gate("JobBackoffLimitPerIndex")]
    #[reference("https://kep.k8s.io/3850")]
    backoff_limit_per_index: (),

    #[stage(alpha = "1.28", beta = "1.29", ga = "1.34")]
    #[feature_gate("JobPodReplacementPolicy")]
    #[reference("https://kep.k8s.io/3939")]
    pod_replacement_policy: (),
}

#[definition("io.k8s.api.core.v1.PersistentVolumeClaimSpec")]
struct PersistentVolumeClaimSpec {
    #[introduced_in("1.29")]
    #[stage(alpha = "1.29", beta = "1.31", ga = "1.34")]
    #[feature_gate("VolumeAttributesClass")]
    #[reference("https://kep.k8s.io/3751")]
    volume_attributes_class_name: (),
}

#[definition("io.k8s.api.core.v1.Container")]
struct Container {
    /// Sidecar containers: an init container with `restartPolicy: Always`.
    #[stage(alpha = "1.28", beta = "1.29", ga = "1.33")]
    #[feature_gate("SidecarContainers")]
    #[reference("https://kep.k8s.io/753")]
    restart_policy: (),

    #[stage(alpha = "1.27", beta = "1.33", ga = "1.35")]
    #[feature_gate("InPlacePodVerticalScaling")]
    #[reference("https://kep.k8s.io/1287")]
    resize_policy: (),
}

#[definition("io.k8s.api.core.v1.PodSpec")]
struct PodSpec {
    /// Pod-level resource requests and limits.
    #[introduced_in("1.32")]
    #[stage(alpha = "1.32", beta = "1.34")]
    #[feature_gate("PodLevelResources")]
    #[reference("https://kep.k8s.io/2837")]
    resources: (),

    #[stage(alpha = "1.26", beta = "1.27", ga = "1.30")]
    #[feature_gate("PodSchedulingReadiness")]
    #[reference("https://kep.k8s.io/3521")]
    scheduling_gates: (),
}

#[definition("io.k8s.api.core.v1.VolumeMount")]
struct VolumeMount {
    #[introduced_in("1.30")]
    #[stage(alpha = "1.30", beta = "1.31", ga = "1.33")]
    #[feature_gate("RecursiveReadOnlyMounts")]
    #[reference("https://kep.k8s.io/3857")]
    recursive_read_only: (),
}

#[definition("io.k8s.api.core.v1.Volume")]
struct Volume {
    #[introduced_in("1.31")]
    #[stage(alpha = "1.31", beta = "1.33")]
    #[feature_gate("ImageVolume")]
    #[reference("https://kep.k8s.io/4639")]
    image: (),
}

#[definition("io.k8s.api.core.v1.LifecycleHandler")]
struct LifecycleHandler {
    #[introduced_in("1.29")]
    #[stage(alpha = "1.29", beta = "1.30", ga = "1.34")]
    #[feature_gate("PodLifecycleSleepAction")]
    #[reference("https://kep.k8s.io/3960")]
    sleep: (),
}

#[definition("io.k8s.api.autoscaling.v2.HPAScalingRules")]
struct HpaScalingRules {
    #[introduced_in("1.33")]
    #[stage(alpha = "1.33", beta = "1.35")]
    #[feature_gate("HPAConfigurableTolerance")]
    #[reference("https://kep.k8s.io/4951")]
    tolerance: (),
}

// Stages the descriptions state wrongly: their prose still says alpha after
// the feature graduated, and `vergate check` would warn that a default API
// server drops the field. `cargo xtask gates-review` lists what the prose
// says, minor by minor.

#[definition("io.k8s.api.core.v1.ResourceRequirements")]
struct ResourceRequirements {
    /// Dynamic resource allocation: beta in 1.32 (off by default), GA in 1.34.
    #[stage(alpha = "1.26", beta = "1.32", ga = "1.34")]
    #[feature_gate("DynamicResourceAllocation")]
    #[reference("https://kep.k8s.io/4381")]
    claims: (),
}

#[definition("io.k8s.api.core.v1.PodSpec")]
struct PodSpecResourceClaims {
    #[stage(alpha = "1.26", beta = "1.32", ga = "1.34")]
    #[feature_gate("DynamicResourceAllocation")]
    #[reference("https://kep.k8s.io/4381")]
    resource_claims: (),
}

#[definition("io.k8s.api.core.v1.PersistentVolumeClaimStatus")]
struct PersistentVolumeClaimStatus {
    #[stage(alpha = "1.23", beta = "1.32", ga = "1.34")]
    #[feature_gate("RecoverVolumeExpansionFailure")]
    #[reference("https://kep.k8s.io/1790")]
    allocated_resources: (),

    #[stage(alpha = "1.23", beta = "1.32", ga = "1.34")]
    #[feature_gate("RecoverVolumeExpansionFailure")]
    #[reference("https://kep.k8s.io/1790")]
    allocated_resource_statuses: (),
}

#[definition("io.k8s.api.core.v1.PodSecurityContext")]
struct PodSecurityContext {
    #[introduced_in("1.31")]
    #[stage(alpha = "1.31", beta = "1.33")]
    #[feature_gate("SupplementalGroupsPolicy")]
    #[reference("https://kep.k8s.io/3619")]
    supplemental_groups_policy: (),
}

#[definition("io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps")]
struct JsonSchemaProps {
    /// Validation rules (CEL): beta in 1.25, GA in 1.29.
    #[rename("x-kubernetes-validations")]
    #[stage(beta = "1.25", ga = "1.29")]
    #[feature_gate("CustomResourceValidationExpressions")]
    #[reference("https://kep.k8s.io/2876")]
    x_kubernetes_validations: (),
}
