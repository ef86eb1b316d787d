//! `vergate check` on custom resources: CRDs given with `--crd` or found
//! among the inputs, read by the spec loader and checked by the one walker
//! (types, enums, required, int-or-string, constraints, unknown fields
//! with `--strict` unless the schema preserves them, unserved and
//! deprecated versions).

mod support;

use support::cli::{code, stderr, stdout, vergate};

const WIDGETS_CRD: &str = "tests/custom-resources/widgets-crd.yaml";
const WIDGETS: &str = "tests/custom-resources/widgets.yaml";

/// The lines of `text` that mention `line` of `file` (`file:line: …`).
fn at<'t>(text: &'t str, file: &str, line: u32) -> Vec<&'t str> {
    let prefix = format!("{file}:{line}: ");
    text.lines().filter(|l| l.starts_with(&prefix)).collect()
}

#[test]
fn custom_resources_are_checked_against_their_crd() {
    let output = vergate(&[
        "check",
        "--api",
        "generated/demo",
        "--target",
        "1.12",
        "--strict",
        "--crd",
        WIDGETS_CRD,
        WIDGETS,
    ]);
    let out = stdout(&output);
    assert_eq!(code(&output), 1, "{out}{}", stderr(&output));
    // The good widget (document 0, lines 1-14): nothing, although its
    // `settings` hold a field no schema lists (preserve-unknown-fields).
    for line in 1..=14 {
        assert!(at(&out, WIDGETS, line).is_empty(), "line {line}: {out}");
    }
    let expect = |line: u32, needle: &str| {
        assert!(
            at(&out, WIDGETS, line).iter().any(|l| l.contains(needle)),
            "line {line} lacks {needle:?}:\n{out}"
        );
    };
    // metadata is ObjectMeta (the built-in one: the demo API has none).
    expect(20, "metadata.labels.app: expected a string");
    expect(
        22,
        "spec.name: is 30 characters long, longer than the maximum 20",
    );
    expect(22, r#"does not match the pattern "^[a-z][a-z0-9-]*$""#);
    expect(23, "spec.replicas: 101 is greater than the maximum 100");
    expect(
        24,
        r#"spec.tier: value "huge" is not accepted in 1.12 (accepted: large, small)"#,
    );
    expect(
        25,
        "spec.port: expected an integer or a string (int-or-string",
    );
    expect(26, "spec.ratio: 1 is not less than the exclusive maximum 1");
    // The CRD's CEL rule, run as the API server runs it.
    expect(
        21,
        r#"spec: Invalid value: "object": more than ten replicas need the large tier"#,
    );
    expect(27, "spec.tags: has 4 items, more than the maximum 3");
    expect(27, r#"spec.tags[1]: Duplicate value: "a""#);
    // A pattern RE2 cannot take is said, not guessed.
    expect(
        28,
        "warning: Widget bad: spec.prefix: the pattern \"^(?!kube-).*$\" was not checked",
    );
    expect(
        29,
        r#"spec.colour: strict decoding error: unknown field "spec.colour" (WidgetSpec has no field "colour""#,
    );
    expect(
        31,
        "warning: Widget old: example.com/v1beta1 Widget is deprecated; use example.com/v1",
    );
    expect(
        38,
        "the CRD widgets.example.com lists but does not serve version v1alpha1; use one of the served: example.com/v1beta1, example.com/v1",
    );
    assert!(
        stderr(&output).contains("checked 4 documents against demo: 12 errors, 2 warnings"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn crds_among_the_inputs_are_used_too() {
    let output = vergate(&[
        "check",
        "--api",
        "generated/demo",
        "--target",
        "1.12",
        WIDGETS_CRD,
        WIDGETS,
    ]);
    let out = stdout(&output);
    assert_eq!(code(&output), 1, "{out}{}", stderr(&output));
    assert!(
        out.contains("spec.replicas: 101 is greater than the maximum 100"),
        "{out}"
    );
    // Without --strict the unknown field is an error all the same, as
    // `kubectl apply` makes it (#40); a warning with --validate=warn.
    assert!(
        out.contains(
            "Widget bad: spec.colour: strict decoding error: unknown field \"spec.colour\""
        ),
        "{out}"
    );
    let output = vergate(&[
        "check",
        "--api",
        "generated/demo",
        "--target",
        "1.12",
        "--validate=warn",
        WIDGETS_CRD,
        WIDGETS,
    ]);
    let out = stdout(&output);
    assert!(
        out.contains("warning: Widget bad: spec.colour: unknown field \"spec.colour\""),
        "{out}"
    );
}

#[test]
fn without_the_crd_custom_resources_are_unknown_kinds() {
    let output = vergate(&[
        "check",
        "--api",
        "generated/demo",
        "--target",
        "1.12",
        WIDGETS,
    ]);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    assert!(
        stdout(&output).contains(
            "a custom resource (demo serves no group \"example.com\") and no CRD for it was given"
        ),
        "{}",
        stdout(&output)
    );
}

#[test]
fn a_crd_file_without_crds_is_an_input_error() {
    let output = vergate(&[
        "check",
        "--api",
        "generated/demo",
        "--target",
        "1.12",
        "--crd",
        WIDGETS,
        WIDGETS,
    ]);
    assert_eq!(code(&output), 2);
    assert!(
        stderr(&output).contains("widgets.yaml: error: --crd: no CustomResourceDefinition in it"),
        "{}",
        stderr(&output)
    );
}

#[test]
#[cfg_attr(
    not(all(vergate_kubernetes_output, vergate_crds)),
    ignore = "needs generated/kubernetes: cargo xtask regen --api kubernetes; needs the real CRDs: ../shared/crds or VERGATE_CRDS"
)]
fn real_crds_check_prometheus_and_argo_cd_resources() {
    let api = support::kubernetes_output();
    let crds = support::crds();
    let (api, crds) = (api.to_str().unwrap(), crds.to_str().unwrap());
    let good = "tests/custom-resources/good.yaml";
    let output = vergate(&[
        "check", "--api", api, "--target", "1.30", "--strict", "--crd", crds, good,
    ]);
    assert_eq!(code(&output), 0, "{}{}", stdout(&output), stderr(&output));
    let bad = "tests/custom-resources/bad.yaml";
    let output = vergate(&[
        "check", "--api", api, "--target", "1.30", "--strict", "--crd", crds, bad,
    ]);
    let out = stdout(&output);
    assert_eq!(code(&output), 1, "{out}{}", stderr(&output));
    for (line, needle) in [
        // metadata is Kubernetes' own ObjectMeta here.
        (5, "metadata.labels: expected a mapping"),
        (12, r#"spec.endpoints[0].interval: "30 seconds" does not match the pattern"#),
        (13, r#"spec.endpoints[0].scheme: value "ftp" is not accepted"#),
        (14, "spec.endpoints[0].targetPort: expected an integer or a string"),
        (15, "spec.endpoints[0].honorLabels: expected a boolean"),
        (16, "spec.sampleLimit: -1 is less than the minimum 0"),
        (18, "the CRD podmonitors.monitoring.coreos.com does not list version v1alpha1; use apiVersion monitoring.coreos.com/v1"),
        (29, "spec.destination: missing: required"),
        (33, r#"spec.destinaton: strict decoding error: unknown field "spec.destinaton" (ApplicationSpec has no field "destinaton" in any minor; did you mean "destination"?)"#),
    ] {
        assert!(
            at(&out, bad, line).iter().any(|l| l.contains(needle)),
            "line {line} lacks {needle:?}:\n{out}"
        );
    }
}

#[test]
fn crds_piped_in_on_standard_input_are_used_too() {
    let mut piped = std::fs::read_to_string(support::root().join(WIDGETS_CRD)).unwrap();
    piped.push_str("\n---\n");
    piped.push_str(&std::fs::read_to_string(support::root().join(WIDGETS)).unwrap());
    let output = support::cli::vergate_with_stdin(
        &["check", "--api", "generated/demo", "--target", "1.12", "-"],
        piped.as_bytes(),
    );
    let out = stdout(&output);
    assert_eq!(code(&output), 1, "{out}{}", stderr(&output));
    assert!(
        out.contains("<stdin>:")
            && out.contains("spec.replicas: 101 is greater than the maximum 100"),
        "{out}"
    );
}

#[test]
fn a_crd_among_the_inputs_that_cannot_be_used_is_named_by_its_document() {
    // CRDs among the inputs are found by searching for them; the document
    // a broken one is named by is its number in the file all the same.
    let pipeline = "apiVersion: \"1.10\"\nkind: Pipeline\nmetadata:\n  name: x\nspec:\n  steps:\n    - name: a\n      shell: bash\n";
    let broken = "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: gadgets.example.com\nspec:\n  group: example.com\n  scope: Namespaced\n  versions: []\n";
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mixed.yaml");
    std::fs::write(&path, format!("{pipeline}---\n{pipeline}---\n{broken}")).unwrap();
    let output = vergate(&[
        "check",
        "--api",
        "generated/demo",
        "--target",
        "1.12",
        path.to_str().unwrap(),
    ]);
    // #30: a finding at the CRD's own document, in every format.
    let out = stdout(&output);
    assert!(
        out.contains(&format!(
            "{}:18: warning: CustomResourceDefinition gadgets.example.com: this CRD is not used (its custom resources are not checked against it): {}#document 2/spec/names/kind",
            path.display(),
            path.display()
        )),
        "{out}{}",
        stderr(&output)
    );
}
