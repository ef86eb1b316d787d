//! The metadata rules with the API server's paths and messages.

use crate::preflight::{check, Options, Rule, Severity};
use crate::Version;

/// `(severity, path: message)` of each object-meta finding of `yaml` on 1.`minor`.
fn meta(yaml: &str, minor: u32) -> Vec<(Severity, String)> {
    let tables = crate::embedded::kubernetes();
    let parsed = crate::document::parse(yaml);
    let root = &parsed.documents[0].root;
    let options = Options {
        target: Some(Version::new(1, minor)),
        ..Options::default()
    };
    check(&tables, root, options)
        .expect("checked")
        .violations
        .into_iter()
        .filter(|violation| violation.rule == Rule::ObjectMeta)
        .map(|violation| {
            (
                violation.severity,
                format!("{}: {}", violation.path, violation.message),
            )
        })
        .collect()
}

fn errors(yaml: &str, minor: u32) -> Vec<String> {
    meta(yaml, minor)
        .into_iter()
        .filter(|(severity, _)| severity.is_error())
        .map(|(_, text)| text)
        .collect()
}

const LABEL: &str = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

#[test]
fn null_metadata_has_no_name() {
    let yaml = "apiVersion: v1\nkind: ConfigMap\nmetadata:\ndata: {a: b}\n";
    assert_eq!(
        errors(yaml, 36),
        ["metadata.name: Required value: name or generateName is required"]
    );
}

#[test]
fn namespaces_empty_cleared_or_a_label() {
    let cm = |ns: &str| {
        format!("apiVersion: v1\nkind: ConfigMap\nmetadata: {{name: a, namespace: {ns}}}\n")
    };
    assert!(errors(&cm("\"\""), 36).is_empty());
    assert_eq!(
        errors(&cm("Bad_NS"), 36),
        [format!(
            "metadata.namespace: Invalid value: \"Bad_NS\": {LABEL}"
        )]
    );
    // A cluster-scoped kind's namespace is cleared by the server.
    let pv = "apiVersion: v1\nkind: PersistentVolume\nmetadata: {name: a, namespace: Bad_NS}\nspec: {capacity: {storage: 1Gi}, accessModes: [ReadWriteOnce], hostPath: {path: /x}}\n";
    assert!(errors(pv, 36).is_empty());
}

#[test]
fn core_events_and_limit_ranges_names() {
    let event = "apiVersion: v1\nkind: Event\nmetadata: {name: Bad_Name, namespace: default}\ninvolvedObject: {kind: Pod, name: a, namespace: default}\n";
    assert!(errors(event, 36).is_empty());
    let limits = "apiVersion: v1\nkind: LimitRange\nmetadata: {namespace: default}\nspec: {limits: [{type: Container, default: {cpu: 1}}]}\n";
    assert!(errors(limits, 36).is_empty());
}

#[test]
fn generated_names_are_checked() {
    let cronjob = format!(
        "apiVersion: batch/v1\nkind: CronJob\nmetadata: {{generateName: {}}}\nspec: {{schedule: '* * * * *', jobTemplate: {{spec: {{template: {{spec: {{restartPolicy: Never, containers: [{{name: c, image: x}}]}}}}}}}}}}\n",
        "a".repeat(60)
    );
    let found = errors(&cronjob, 36);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].starts_with(&format!(
        "metadata.name: Invalid value: \"{}\" and 5 random characters",
        "a".repeat(58)
    )));
    assert!(found[0].ends_with("must be no more than 52 characters"));
}

#[test]
fn finalizers_by_kind() {
    let doc = |kind: &str, api: &str, finalizer: &str| {
        format!("apiVersion: {api}\nkind: {kind}\nmetadata: {{name: a, namespace: default, finalizers: [{finalizer}]}}\n")
    };
    assert_eq!(
        errors(&doc("ConfigMap", "v1", "cleanup"), 36),
        ["metadata.finalizers[0]: Invalid value: \"cleanup\": name is neither a standard finalizer name nor is it fully qualified"]
    );
    assert!(errors(&doc("ConfigMap", "v1", "kubernetes"), 36).is_empty());
    assert!(errors(&doc("ConfigMap", "v1", "example.com/x"), 36).is_empty());
    // Lease's validation calls apimachinery's ValidateObjectMeta alone.
    assert!(errors(&doc("Lease", "coordination.k8s.io/v1", "cleanup"), 36).is_empty());
    let bad = errors(
        &doc("Lease", "coordination.k8s.io/v1", "'bad finalizer'"),
        36,
    );
    assert_eq!(bad.len(), 1);
    assert!(bad[0].starts_with(
        "metadata.finalizers: Invalid value: \"bad finalizer\": name part must consist of"
    ));
    assert_eq!(
        errors(&doc("ConfigMap", "v1", "orphan, foregroundDeletion"), 36),
        ["metadata.finalizers: Invalid value: [\"orphan\",\"foregroundDeletion\"]: finalizer orphan and foregroundDeletion cannot be both set"]
    );
}

#[test]
fn owner_references_as_go_writes_them() {
    let doc = |refs: &str| {
        format!("apiVersion: v1\nkind: ConfigMap\nmetadata: {{name: a, namespace: default, ownerReferences: {refs}}}\n")
    };
    assert_eq!(
        errors(
            &doc("[{apiVersion: v1, kind: ConfigMap, name: a, uid: ''}]"),
            36
        ),
        ["metadata.ownerReferences.uid: Invalid value: \"\": must not be empty"]
    );
    assert_eq!(
        errors(&doc("[{apiVersion: apps/, kind: ConfigMap, name: a, uid: u}]"), 36),
        ["metadata.ownerReferences.apiVersion: Invalid value: \"apps/\": version must not be empty"]
    );
    assert_eq!(
        errors(&doc("[{apiVersion: v1, kind: ConfigMap, name: a, uid: u1, controller: true}, {apiVersion: v1, kind: ConfigMap, name: b, uid: u2, controller: true}]"), 36),
        ["metadata.ownerReferences: Invalid value: [{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"name\":\"a\",\"uid\":\"u1\",\"controller\":true},{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"name\":\"b\",\"uid\":\"u2\",\"controller\":true}]: Only one reference can have Controller set to true. Found \"true\" in references for ConfigMap/a and ConfigMap/b"]
    );
    assert_eq!(
        errors(&doc("[{apiVersion: v1, kind: Event, name: a, uid: u}]"), 36),
        ["metadata.ownerReferences: Invalid value: {\"apiVersion\":\"v1\",\"kind\":\"Event\",\"name\":\"a\",\"uid\":\"u\"}: /v1, Kind=Event is disallowed from being an owner"]
    );
}

#[test]
fn a_jobs_name_becomes_a_template_label() {
    let job = |name: &str, manual: &str| {
        format!("apiVersion: batch/v1\nkind: Job\nmetadata: {{name: {name}, namespace: default}}\nspec: {{{manual}template: {{spec: {{restartPolicy: Never, containers: [{{name: c, image: x}}]}}}}}}\n")
    };
    let long = "a".repeat(64);
    let found = errors(&job(&long, ""), 36);
    assert_eq!(
        found,
        [
            format!(
                "spec.template.labels: Invalid value: \"{long}\": must be no more than 63 bytes"
            ),
            format!(
                "spec.template.labels: Invalid value: \"{long}\": must be no more than 63 bytes"
            ),
        ]
    );
    assert_eq!(
        errors(&job(&long, ""), 34)[0],
        format!(
            "spec.template.labels: Invalid value: \"{long}\": must be no more than 63 characters"
        )
    );
}

#[test]
fn pod_security_labels_of_a_namespace() {
    let ns = |labels: &str| {
        format!("apiVersion: v1\nkind: Namespace\nmetadata: {{name: shop, labels: {{{labels}}}}}\n")
    };
    assert!(errors(&ns("pod-security.kubernetes.io/enforce: restricted, pod-security.kubernetes.io/enforce-version: v1.30"), 36).is_empty());
    assert_eq!(
        errors(&ns("pod-security.kubernetes.io/enforce: Bad_Value"), 36),
        ["metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: \"Bad_Value\": must be one of privileged, baseline, restricted"]
    );
    assert_eq!(
        errors(&ns("pod-security.kubernetes.io/warn-version: v1.05"), 36),
        ["metadata.labels[pod-security.kubernetes.io/warn-version]: Invalid value: \"v1.05\": must be \"latest\" or \"v1.x\""]
    );
}

#[test]
fn dotted_pod_names_warn() {
    let pod = "apiVersion: v1\nkind: Pod\nmetadata: {name: a.b, namespace: default}\nspec: {containers: [{name: c, image: x}]}\n";
    let found = meta(pod, 36);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, Severity::Warning);
    assert_eq!(
        found[0].1,
        "metadata.name: this is used in the Pod's hostname, which can result in surprising behavior; a DNS label is recommended: [must not contain dots]"
    );
}
