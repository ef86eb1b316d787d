//! #30: `check` judges a mixed repository as its owner would. A document
//! is a built-in kind only when its group is one the API serves or served. A custom resource named like a built-in (Knative's
//! `serving.knative.dev/v1 Service`) is a custom resource; a kind the API
//! served before its first minor (`extensions/v1beta1 Ingress`) is refused
//! with its removal and replacement from the published lifecycle; a CRD
//! among the inputs adds its own kinds and changes nothing else of its
//! group. Run against the embedded Kubernetes gates.

mod support;

use support::cli::{code, stderr, stdout, vergate};

fn write(dir: &std::path::Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

#[test]
fn custom_resources_named_like_built_ins_are_custom_resources() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(
        dir.path(),
        "knative.yaml",
        "apiVersion: serving.knative.dev/v1\nkind: Service\nmetadata: {name: hello}\n---\napiVersion: rbac.crossplane.io/v1\nkind: Role\nmetadata: {name: r}\n---\napiVersion: apps.kruise.io/v1alpha1\nkind: DaemonSet\nmetadata: {name: d}\n",
    );
    let out = vergate(&["check", "--target", "1.34", &path]);
    // Without their CRDs they are refused, as `kubectl apply` refuses them.
    assert_eq!(code(&out), 1, "{}{}", stdout(&out), stderr(&out));
    let text = stdout(&out);
    assert!(!text.contains("not served"), "{text}");
    assert!(
        text.starts_with(&format!("{path}:2: Service hello: serving.knative.dev/v1 Service: 1.34 serves no such group/version/kind (kubernetes serves no group \"serving.knative.dev\": a custom resource's, and no CRD for it was given); pass its CRD with --crd FILE (or among the inputs), or --rule unknown-kind=warning to leave it unchecked\n")),
        "{text}"
    );
    assert_eq!(text.matches("a custom resource").count(), 3, "{text}");
    // The rule's switch leaves them unchecked, with a warning each.
    let out = vergate(&[
        "check",
        "--target",
        "1.34",
        "--rule",
        "unknown-kind=warning",
        &path,
    ]);
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    assert_eq!(
        stdout(&out).matches(": warning: ").count(),
        3,
        "{}",
        stdout(&out)
    );
}

#[test]
fn a_kind_served_before_the_corpus_is_refused_with_its_replacement() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(
        dir.path(),
        "old.yaml",
        "apiVersion: extensions/v1beta1\nkind: Ingress\nmetadata: {name: web}\nspec: {}\n---\napiVersion: policy/v1beta1\nkind: PodSecurityPolicy\nmetadata: {name: p}\n",
    );
    let out = vergate(&["check", "--target", "1.34", &path]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        format!(
            "{path}:1: Ingress web: extensions/v1beta1 Ingress is not served in 1.34 (removed in 1.22); use apiVersion networking.k8s.io/v1\n\
             {path}:6: PodSecurityPolicy p: policy/v1beta1 PodSecurityPolicy is not served in 1.34 (removed in 1.25)\n"
        )
    );
}

#[test]
fn a_crd_among_the_inputs_changes_nothing_for_the_rest_of_its_group() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "crd.yaml",
        "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: appprojects.argoproj.io}\nspec:\n  group: argoproj.io\n  names: {kind: AppProject, plural: appprojects}\n  scope: Namespaced\n  versions:\n  - name: v1alpha1\n    served: true\n    storage: true\n    schema:\n      openAPIV3Schema:\n        type: object\n        properties:\n          spec:\n            type: object\n            properties:\n              description: {type: string}\n",
    );
    let rollout = write(
        dir.path(),
        "rollout.yaml",
        "apiVersion: argoproj.io/v1alpha1\nkind: Rollout\nmetadata: {name: web}\nspec: {}\n---\napiVersion: argoproj.io/v1alpha1\nkind: AppProject\nmetadata: {name: p}\nspec:\n  description: 7\n",
    );
    let dir_arg = dir.path().display().to_string();
    let out = vergate(&["check", "--target", "1.34", &dir_arg]);
    let text = stdout(&out);
    // The AppProject is checked by its CRD (a number is no string)...
    assert!(
        text.contains("AppProject p: spec.description: expected a string"),
        "{text}"
    );
    // ...and the Rollout stays a custom resource without a CRD: refused.
    assert!(
        text.contains(&format!(
            "{rollout}:2: Rollout web: argoproj.io/v1alpha1 Rollout: 1.34 serves no such group/version/kind (kubernetes serves no group \"argoproj.io\": a custom resource's, and no CRD for it was given)"
        )),
        "{text}"
    );
    assert!(!text.contains("no such kind in argoproj.io"), "{text}");
}

/// #30: "deprecated since" names a minor only where the data knows it: a
/// field deprecated already in the oldest minor of the data may be older,
/// and a custom resource's field deprecated by its CRD has no minor of the
/// API at all (its "since" used to echo `--target`).
#[test]
fn deprecations_are_worded_honestly() {
    let dir = tempfile::tempdir().unwrap();
    let pod = write(
        dir.path(),
        "pod.yaml",
        "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  serviceAccount: build\n  containers: [{name: c, image: nginx}]\n",
    );
    let out = vergate(&["check", "--target", "1.30", &pod]);
    assert_eq!(
        stdout(&out),
        format!("{pod}:5: warning: Pod p: spec.serviceAccount: deprecated since 1.28 or earlier (inferred from its description)\n")
    );
    let crd = write(
        dir.path(),
        "crd.yaml",
        "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: gadgets.example.com}\nspec:\n  group: example.com\n  names: {kind: Gadget, plural: gadgets}\n  scope: Namespaced\n  versions:\n  - name: v1\n    served: true\n    storage: true\n    schema:\n      openAPIV3Schema:\n        type: object\n        properties:\n          spec:\n            type: object\n            properties:\n              size: {type: integer, description: \"Deprecated: use capacity.\"}\n",
    );
    let gadget = write(
        dir.path(),
        "gadget.yaml",
        "apiVersion: example.com/v1\nkind: Gadget\nmetadata: {name: g}\nspec:\n  size: 3\n",
    );
    for target in ["1.30", "1.34"] {
        let out = vergate(&["check", "--target", target, "--crd", &crd, &gadget]);
        assert_eq!(
            stdout(&out),
            format!("{gadget}:5: warning: Gadget g: spec.size: deprecated by its CRD (inferred from its description)\n"),
            "{target}"
        );
    }
}

/// #30: a CRD that does not read, or two different CRDs of one name among
/// the inputs, are findings at their documents; everything else is still
/// checked, and every report format is whole.
#[test]
fn bad_or_conflicting_crds_are_findings_not_aborts() {
    let dir = tempfile::tempdir().unwrap();
    let crd = |size: &str| {
        format!("apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {{name: widgets.example.com}}\nspec:\n  group: example.com\n  names: {{kind: Widget, plural: widgets}}\n  scope: Namespaced\n  versions:\n  - name: v1\n    served: true\n    storage: true\n    schema:\n      openAPIV3Schema:\n        type: object\n        properties:\n          spec:\n            type: object\n            properties:\n              size: {{type: {size}}}\n")
    };
    let a = write(dir.path(), "a.yaml", &crd("integer"));
    let b = write(dir.path(), "b.yaml", &crd("string"));
    let broken = write(
        dir.path(),
        "broken.yaml",
        "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: gizmos.example.com}\nspec:\n  group: example.com\n  names: {kind: Gizmo, plural: gizmos}\n  scope: Namespaced\n  versions:\n  - name: v1\n    served: true\n    storage: true\n    schema:\n      openAPIV3Schema:\n        type: object\n        properties:\n          spec: {$ref: \"#/nowhere\"}\n",
    );
    let w = write(
        dir.path(),
        "w.yaml",
        "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec: {size: three}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {a: 1}\n",
    );
    let args = |format: &str| -> Vec<String> {
        [&a, &b, &broken, &w]
            .iter()
            .map(|path| path.to_string())
            .chain([
                "--target".into(),
                "1.34".into(),
                "--format".into(),
                format.into(),
            ])
            .collect()
    };
    let run = |format: &str| {
        let mut all = vec!["check".to_owned()];
        all.extend(args(format));
        let all: Vec<&str> = all.iter().map(String::as_str).collect();
        vergate(&all)
    };
    let out = run("text");
    assert_eq!(
        code(&out),
        1,
        "violations, not an input error: {}",
        stderr(&out)
    );
    let text = stdout(&out);
    assert!(!stderr(&out).contains("--crd"), "{}", stderr(&out));
    assert!(
        text.contains(&format!("{b}:1: warning: CustomResourceDefinition widgets.example.com: this CRD is not used (its custom resources are checked against the CRD in {a})")),
        "{text}"
    );
    assert!(
        text.contains(&format!("{broken}:1: warning: CustomResourceDefinition gizmos.example.com: this CRD is not used (its custom resources are not checked against it)")),
        "{text}"
    );
    // The Widget is checked against a.yaml's CRD, the ConfigMap as ever.
    assert!(
        text.contains(&format!("{w}:4: Widget w: spec.size: expected an integer")),
        "{text}"
    );
    assert!(
        text.contains(&format!("{w}:9: ConfigMap c: data.a: expected a string")),
        "{text}"
    );
    for format in ["json", "sarif", "junit", "tap"] {
        let out = run(format);
        let printed = stdout(&out);
        assert!(
            printed.contains("crd-not-used") || printed.contains("this CRD is not used"),
            "{format}: {printed}"
        );
        assert!(printed.contains("data.a"), "{format}: {printed}");
    }
}

/// #30: a rule's severity is the user's to choose (`--rule ID=LEVEL`), and
/// SARIF reports input errors as results code scanning shows.
#[test]
fn rules_are_chosen_one_by_one_and_sarif_shows_input_errors() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(
        dir.path(),
        "flow.yaml",
        "apiVersion: flowcontrol.apiserver.k8s.io/v1beta3\nkind: FlowSchema\nmetadata: {name: fs}\nspec:\n  priorityLevelConfiguration: {name: global}\n",
    );
    let out = vergate(&["check", "--target", "1.28", &path]);
    assert_eq!(
        code(&out),
        0,
        "a removal ahead is a warning: {}",
        stdout(&out)
    );
    let out = vergate(&[
        "check",
        "--target",
        "1.28",
        "--rule",
        "removed-ahead=error",
        &path,
    ]);
    assert_eq!(code(&out), 1, "{}", stdout(&out));
    assert!(
        stdout(&out).starts_with(&format!("{path}:1: FlowSchema fs: ")),
        "{}",
        stdout(&out)
    );
    let out = vergate(&[
        "check",
        "--target",
        "1.28",
        "--rule",
        "removed-ahead=off",
        &path,
    ]);
    assert_eq!((code(&out), stdout(&out)), (0, String::new()));
    let out = vergate(&["check", "--rule", "no-such-rule=error", &path]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("\"no-such-rule\" is no rule; the rules: not-yet-introduced"),
        "{}",
        stderr(&out)
    );
    let bad = write(
        dir.path(),
        "bad.yaml",
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n  data: x\n",
    );
    let out = vergate(&["check", "--target", "1.34", "--format", "sarif", &bad]);
    let sarif: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    let input = results
        .iter()
        .find(|result| result["ruleId"] == "input-error")
        .unwrap_or_else(|| panic!("{sarif:#}"));
    assert_eq!(input["level"], "error");
    assert_eq!(
        input["locations"][0]["physicalLocation"]["region"]["startLine"],
        4
    );
    let rules = sarif["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .unwrap();
    let index = input["ruleIndex"].as_u64().unwrap() as usize;
    assert_eq!(rules[index]["id"], "input-error");
}

/// #30: `upgrade` never writes what the target does not serve: a kind the
/// API served before its first minor moves to its replacement when the
/// document fits it (HPA autoscaling/v2beta2 → v2), and is refused naming
/// the replacement and what does not fit otherwise (an extensions/v1beta1
/// Ingress's `backend`).
#[test]
fn upgrade_moves_a_retired_kind_to_its_replacement_or_says_why_not() {
    let dir = tempfile::tempdir().unwrap();
    let hpa = write(
        dir.path(),
        "hpa.yaml",
        "apiVersion: autoscaling/v2beta2\nkind: HorizontalPodAutoscaler\nmetadata: {name: web}\nspec:\n  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}\n  minReplicas: 1\n  maxReplicas: 5\n",
    );
    let out = vergate(&["upgrade", "--from", "1.33", "--to", "1.34", &hpa]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(
        stdout(&out).contains("apiVersion: autoscaling/v2\n"),
        "{}",
        stdout(&out)
    );
    assert!(
        stderr(&out).contains("apiVersion: autoscaling/v2beta2 → autoscaling/v2 (autoscaling/v2beta2 HorizontalPodAutoscaler is not served in 1.34 (removed in 1.26))"),
        "{}",
        stderr(&out)
    );
    // Its output checks clean at the target.
    let upgraded = write(dir.path(), "upgraded.yaml", &stdout(&out));
    let check = vergate(&["check", "--strict", "--target", "1.34", &upgraded]);
    assert_eq!((code(&check), stdout(&check)), (0, String::new()));
    let ingress = write(
        dir.path(),
        "ingress.yaml",
        "apiVersion: extensions/v1beta1\nkind: Ingress\nmetadata: {name: web}\nspec:\n  backend:\n    serviceName: web\n    servicePort: 80\n",
    );
    let out = vergate(&["upgrade", "--from", "1.33", "--to", "1.34", &ingress]);
    assert_eq!(code(&out), 2, "{}", stdout(&out));
    assert_eq!(stdout(&out), "", "nothing written");
    // The unknown `spec.backend`, and the server's Go rule that an
    // Ingress without it names rules or a default backend.
    assert!(
        stderr(&out).contains("extensions/v1beta1 Ingress is not served in 1.34 (removed in 1.22); its replacement networking.k8s.io/v1 Ingress has another shape, and these do not fit it: spec (Invalid value: null: either `defaultBackend` or `rules` must be specified), spec.backend (strict decoding error"),
        "{}",
        stderr(&out)
    );
}

/// #40: an unknown field is an error by default, as `kubectl apply`
/// (`--validate=strict`) makes it; `--validate=warn` gives the API server's
/// own default (a warning, the field dropped), so a whole repository can get
/// unknown-field checks without failing on them; --strict refuses it
/// whatever --validate says.
#[test]
fn unknown_fields_fail_by_default_and_warn_with_validate_warn() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(
        dir.path(),
        "pod.yaml",
        "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c, image: nginx}]\n  restartPolicey: Always\n",
    );
    let out = vergate(&["check", "--target", "1.34", &path]);
    assert_eq!(code(&out), 1, "{}", stdout(&out));
    assert_eq!(
        stdout(&out),
        format!("{path}:6: Pod p: spec.restartPolicey: strict decoding error: unknown field \"spec.restartPolicey\" (PodSpec has no field \"restartPolicey\" in any minor; did you mean \"restartPolicy\"?)\n")
    );
    let out = vergate(&["check", "--target", "1.34", "--validate=warn", &path]);
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    assert_eq!(
        stdout(&out),
        format!("{path}:6: warning: Pod p: spec.restartPolicey: unknown field \"spec.restartPolicey\" (PodSpec has no field \"restartPolicey\" in any minor; did you mean \"restartPolicy\"?)\n")
    );
    let out = vergate(&[
        "check",
        "--target",
        "1.34",
        "--validate=warn",
        "--strict",
        &path,
    ]);
    assert_eq!(code(&out), 1, "{}", stdout(&out));
}
