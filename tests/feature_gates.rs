//! `vergate check` and feature gates: a field whose feature is alpha at the
//! target is dropped by an API server with default gates, so it is reported
//! (a warning; an error with `--strict`), unless `--feature-gates` turns its
//! gate on; a gate turned off is reported at any stage. Run against the
//! embedded Kubernetes gates (trafficDistribution: alpha 1.30, beta 1.31,
//! GA 1.33, feature gate ServiceTrafficDistribution).

mod support;

use support::cli::{code, stderr, stdout, vergate};

const SERVICE: &str = "tests/manifests/kubernetes/service-traffic-distribution.yaml";

#[test]
fn an_alpha_field_warns_naming_its_feature_gate() {
    let out = vergate(&["check", "--target", "1.30", SERVICE]);
    assert_eq!(code(&out), 0, "a warning does not fail: {}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("warning: Service shop/catalog: spec.trafficDistribution: alpha in 1.30: the API server drops this field unless feature gate ServiceTrafficDistribution is on"),
        "{text}"
    );
    let out = vergate(&["check", "--target", "1.30", "--format", "json", SERVICE]);
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(json["violations"][0]["rule"], "feature-gate-off");
}

#[test]
fn strict_makes_it_an_error_and_the_gate_turned_on_silences_it() {
    let out = vergate(&["check", "--target", "1.30", "--strict", SERVICE]);
    assert_eq!(code(&out), 1, "{}", stdout(&out));
    assert!(
        stdout(&out).starts_with(&format!(
            "{SERVICE}:11: Service shop/catalog: spec.trafficDistribution: alpha in 1.30"
        )),
        "an error, not a warning: {}",
        stdout(&out)
    );
    let out = vergate(&[
        "check",
        "--target",
        "1.30",
        "--strict",
        "--feature-gates",
        "ServiceTrafficDistribution=true",
        SERVICE,
    ]);
    assert_eq!(code(&out), 0, "{}{}", stdout(&out), stderr(&out));
    assert_eq!(stdout(&out), "");
}

#[test]
fn beta_and_ga_fields_pass_unless_their_gate_is_turned_off() {
    for target in ["1.31", "1.33"] {
        let out = vergate(&["check", "--target", target, "--strict", SERVICE]);
        assert_eq!(code(&out), 0, "{target}: {}", stdout(&out));
    }
    let out = vergate(&[
        "check",
        "--target",
        "1.31",
        "--feature-gates",
        "Other=true,ServiceTrafficDistribution=false",
        SERVICE,
    ]);
    assert!(
        stdout(&out).contains(
            "beta in 1.31, and feature gate ServiceTrafficDistribution is off (--feature-gates)"
        ),
        "{}",
        stdout(&out)
    );
}

#[test]
fn a_malformed_setting_is_a_usage_error() {
    let out = vergate(&[
        "check",
        "--target",
        "1.31",
        "--feature-gates",
        "ServiceTrafficDistribution",
        SERVICE,
    ]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("write Name=true or Name=false"),
        "{}",
        stderr(&out)
    );
}

/// #20: stages and gates read from the descriptions' prose count as the
/// annotated ones do: `spec.dataSourceRef.namespace` is alpha in 1.31 only
/// by its description ("(Alpha) This field requires the
/// CrossNamespaceVolumeDataSource feature gate to be enabled").
#[test]
fn an_alpha_field_known_from_its_description_warns_too() {
    let claim = "tests/cli/kubernetes/pvc-cross-namespace.yaml";
    let out = vergate(&["check", "--target", "1.31", claim]);
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    assert_eq!(
        stdout(&out),
        format!("{claim}:18: warning: PersistentVolumeClaim shop/restored: spec.dataSourceRef.namespace: alpha in 1.31: the API server drops this field unless feature gate CrossNamespaceVolumeDataSource is on (off by default in 1.31, per Kubernetes' feature-gate table); if the cluster enables it, pass --feature-gates CrossNamespaceVolumeDataSource=true\n")
    );
    let on = vergate(&[
        "check",
        "--target",
        "1.31",
        "--strict",
        "--feature-gates",
        "CrossNamespaceVolumeDataSource=true",
        claim,
    ]);
    assert_eq!((code(&on), stdout(&on)), (0, String::new()));
}

/// #20: a value outside an enum list carried back from the minor that first
/// lists it (imagePullPolicy, listed from 1.34) is an error before that
/// minor too: the server's own closed set refuses it there (#40: 1.33's
/// server says so; the carried-back warning gives way to its message), and
/// an error from the listing on.
#[test]
fn a_value_outside_a_carried_back_list_is_the_servers_error_before_the_listing() {
    let pod = "tests/cli/kubernetes/pod-pull-policy.yaml";
    let out = vergate(&["check", "--target", "1.29", pod]);
    assert_eq!(code(&out), 1, "{}", stdout(&out));
    assert!(
        stdout(&out).contains("Pod shop/web: spec.containers[0].imagePullPolicy: Unsupported value: \"Sometimes\": supported values: \"Always\", \"IfNotPresent\", \"Never\""),
        "{}",
        stdout(&out)
    );
    assert!(!stdout(&out).contains("likely refused"), "{}", stdout(&out));
    let strict = vergate(&["check", "--target", "1.29", "--strict", pod]);
    assert_eq!(code(&strict), 1, "{}", stdout(&strict));
    let listed = vergate(&["check", "--target", "1.34", pod]);
    assert_eq!(code(&listed), 1, "{}", stdout(&listed));
    assert!(
        stdout(&listed).contains("is not accepted in 1.34 (accepted: Always, IfNotPresent, Never)")
    );
}

/// #29: the feature-gate table, not the description, decides. A field whose
/// gate is on by default is never reported, whatever its prose says; a beta
/// gate that is off by default drops its field as an alpha one does.
#[test]
fn the_feature_gate_table_decides_what_a_default_cluster_drops() {
    let sts = "tests/cli/kubernetes/statefulset-pvc-retention.yaml";
    for target in ["1.28", "1.29", "1.30", "1.31", "1.32"] {
        let out = vergate(&["check", "--target", target, "--strict", sts]);
        assert_eq!(code(&out), 0, "{target}: {}", stdout(&out));
        assert_eq!(stdout(&out), "", "{target}");
    }
    let pvc = "tests/cli/kubernetes/pvc-attributes-class.yaml";
    for target in ["1.31", "1.33"] {
        let out = vergate(&["check", "--target", target, pvc]);
        assert_eq!(code(&out), 0, "a warning: {}", stdout(&out));
        assert_eq!(
            stdout(&out),
            format!("{pvc}:12: warning: PersistentVolumeClaim shop/index: spec.volumeAttributesClassName: beta in {target}: the API server drops this field unless feature gate VolumeAttributesClass is on (off by default in {target}, per Kubernetes' feature-gate table); if the cluster enables it, pass --feature-gates VolumeAttributesClass=true\n")
        );
        let on = vergate(&[
            "check",
            "--target",
            target,
            "--strict",
            "--feature-gates",
            "VolumeAttributesClass=true",
            pvc,
        ]);
        assert_eq!((code(&on), stdout(&on)), (0, String::new()), "{target}");
        let all_beta = vergate(&[
            "check",
            "--target",
            target,
            "--feature-gates",
            "AllBeta=true",
            pvc,
        ]);
        assert_eq!(stdout(&all_beta), "", "{target}");
    }
    let out = vergate(&["check", "--target", "1.34", "--strict", pvc]);
    assert_eq!((code(&out), stdout(&out)), (0, String::new()));
}

/// #29: a served deprecated prerelease kind gets the target's API server's
/// own warning (k8s.io/api's prerelease lifecycle), and a removal it
/// announces past the newest minor is not said twice.
#[test]
fn a_deprecated_kind_gets_the_api_servers_warning() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("kinds.yaml");
    std::fs::write(
        &file,
        "apiVersion: resource.k8s.io/v1beta1\nkind: DeviceClass\nmetadata: {name: gpu}\nspec: {}\n---\napiVersion: flowcontrol.apiserver.k8s.io/v1beta3\nkind: FlowSchema\nmetadata: {name: fs}\nspec:\n  priorityLevelConfiguration: {name: global}\n",
    )
    .unwrap();
    let path = file.display().to_string();
    let out = vergate(&["check", "--target", "1.31", &path]);
    assert_eq!(
        stdout(&out),
        format!("{path}:1: DeviceClass gpu: resource.k8s.io/v1beta1 DeviceClass is not served in 1.31 (introduced in 1.32); use apiVersion resource.k8s.io/v1alpha3\n{path}:6: warning: FlowSchema fs: flowcontrol.apiserver.k8s.io/v1beta3 FlowSchema is deprecated in v1.29+, unavailable in v1.32+; use flowcontrol.apiserver.k8s.io/v1 FlowSchema\n")
    );
    let out = vergate(&["check", "--target", "1.35", &path]);
    assert!(
        stdout(&out).starts_with(&format!("{path}:1: warning: DeviceClass gpu: resource.k8s.io/v1beta1 DeviceClass is deprecated in v1.35+, unavailable in v1.38+\n")),
        "{}",
        stdout(&out)
    );
    // Before the deprecation, the removal is ahead.
    let out = vergate(&["check", "--target", "1.28", &path]);
    assert!(
        stdout(&out).contains("warning: FlowSchema fs: flowcontrol.apiserver.k8s.io/v1beta3 FlowSchema is removed in 1.32 (served through 1.31); use apiVersion flowcontrol.apiserver.k8s.io/v1 (served in 1.32)"),
        "{}",
        stdout(&out)
    );
}
