//! `check` says what the API server says (#40 part 3): unknown fields
//! refused by default as `kubectl apply` refuses them (`--validate`),
//! metadata by each kind's name rule, and what the server's decoding
//! refuses (timestamps, base64, quantities), each in the server's words.
//! Against the embedded Kubernetes data: no specs needed.

mod support;

use std::process::Output;
use support::cli::{code, stdout, vergate_with_stdin};

/// `check --target 1.34 -` over `yaml`, with `extra` arguments first.
fn check(extra: &[&str], yaml: &str) -> Output {
    let mut args = vec!["check", "--target", "1.34"];
    args.extend_from_slice(extra);
    args.push("-");
    vergate_with_stdin(&args, yaml.as_bytes())
}

/// The report's lines, without the `<stdin>:` prefix.
fn lines(out: &Output) -> Vec<String> {
    stdout(out)
        .lines()
        .map(|line| {
            line.split_once(':')
                .map_or(line, |(_, rest)| rest)
                .to_owned()
        })
        .collect()
}

const MISSPELLED: &str = "apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replica: 2
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: web
        image: nginx
        imagePullPolcy: Always
";

#[test]
fn unknown_fields_are_errors_by_default_as_kubectl_apply_makes_them() {
    let out = check(&[], MISSPELLED);
    assert_eq!(code(&out), 1, "{}", stdout(&out));
    assert_eq!(
        lines(&out),
        [
            "6: Deployment web: spec.replica: strict decoding error: unknown field \"spec.replica\" (DeploymentSpec has no field \"replica\" in any minor; did you mean \"replicas\"?)",
            "16: Deployment web: spec.template.spec.containers[0].imagePullPolcy: strict decoding error: unknown field \"spec.template.spec.containers[0].imagePullPolcy\" (Container has no field \"imagePullPolcy\" in any minor; did you mean \"imagePullPolicy\"?)",
        ]
    );
}

#[test]
fn validate_warn_is_the_api_servers_default_and_ignore_says_nothing() {
    let out = check(&["--validate=warn"], MISSPELLED);
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    assert_eq!(
        lines(&out)[0],
        "6: warning: Deployment web: spec.replica: unknown field \"spec.replica\" (DeploymentSpec has no field \"replica\" in any minor; did you mean \"replicas\"?)"
    );
    let out = check(&["--field-validation", "Ignore"], MISSPELLED);
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    assert!(stdout(&out).is_empty(), "{}", stdout(&out));
    // --strict refuses it whatever --validate says.
    let out = check(&["--validate=warn", "--strict"], MISSPELLED);
    assert_eq!(code(&out), 1, "{}", stdout(&out));
    // kubectl's older spellings.
    assert_eq!(code(&check(&["--validate=false"], MISSPELLED)), 0);
    assert_eq!(code(&check(&["--validate=true"], MISSPELLED)), 1);
    let out = check(&["--validate=loose"], MISSPELLED);
    assert_eq!(code(&out), 2);
}

#[test]
fn a_misnested_field_is_unknown_where_it_is() {
    let yaml = "apiVersion: v1
kind: Service
metadata:
  name: web
  selector: {app: web}
spec:
  ports:
  - port: 80
";
    let out = check(&[], yaml);
    assert_eq!(
        lines(&out),
        ["5: Service web: metadata.selector: strict decoding error: unknown field \"metadata.selector\" (ObjectMeta has no field \"selector\" in any minor)"]
    );
}

/// One document of `kind` (in `api_version`) named `name`.
fn named(api_version: &str, kind: &str, name: &str) -> String {
    format!("apiVersion: {api_version}\nkind: {kind}\nmetadata:\n  name: {name:?}\n")
}

#[test]
fn names_follow_each_kinds_rule() {
    const SUBDOMAIN: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
    // A ConfigMap's name is a DNS-1123 subdomain: dots pass, capitals do not.
    assert!(lines(&check(&[], &named("v1", "ConfigMap", "web.config"))).is_empty());
    assert_eq!(
        lines(&check(&[], &named("v1", "ConfigMap", "Web_Config"))),
        [format!(
            "4: ConfigMap Web_Config: metadata.name: Invalid value: \"Web_Config\": {SUBDOMAIN}"
        )]
    );
    // A Namespace's and a StatefulSet's is a DNS-1123 label: no dots.
    assert_eq!(
        lines(&check(&[], &named("v1", "Namespace", "team.a"))),
        ["4: Namespace team.a: metadata.name: Invalid value: \"team.a\": must not contain dots"]
    );
    // A Service's is a DNS-1035 label in 1.34: it starts with a letter.
    let service =
        "apiVersion: v1\nkind: Service\nmetadata:\n  name: 1web\nspec:\n  ports:\n  - port: 80\n";
    assert_eq!(
        lines(&check(&[], service)),
        ["4: Service 1web: metadata.name: Invalid value: \"1web\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')"]
    );
    // ...unless RelaxedServiceNameValidation is on (by default from 1.36).
    let relaxed = check(
        &["--feature-gates", "RelaxedServiceNameValidation=true"],
        service,
    );
    assert!(lines(&relaxed).is_empty(), "{}", stdout(&relaxed));
    let out = vergate_with_stdin(&["check", "--target", "1.36", "-"], service.as_bytes());
    assert!(lines(&out).is_empty(), "{}", stdout(&out));
    // RBAC names are path segments: colons and capitals pass, a slash not.
    assert!(lines(&check(
        &[],
        &named(
            "rbac.authorization.k8s.io/v1",
            "ClusterRole",
            "system:Viewer"
        )
    ))
    .is_empty());
    assert_eq!(
        lines(&check(
            &[],
            &named("rbac.authorization.k8s.io/v1", "Role", "a/b")
        )),
        ["4: Role a/b: metadata.name: Invalid value: \"a/b\": may not contain '/'"]
    );
    // A CronJob's name is at most 52 characters.
    let long = "c".repeat(53);
    let cron = format!(
        "{}spec:\n  schedule: '* * * * *'\n  jobTemplate:\n    spec:\n      template:\n        spec:\n          restartPolicy: Never\n          containers: [{{name: c, image: busybox}}]\n",
        named("batch/v1", "CronJob", &long)
    );
    assert_eq!(
        lines(&check(&[], &cron)),
        [format!(
            "4: CronJob {long}: metadata.name: Invalid value: \"{long}\": must be no more than 52 characters"
        )]
    );
}

#[test]
fn a_name_or_generate_name_is_required_and_generate_name_may_end_with_a_dash() {
    let none = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  labels: {a: b}\n";
    assert_eq!(
        lines(&check(&[], none)),
        ["3: ConfigMap: metadata.name: Required value: name or generateName is required"]
    );
    let generated = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  generateName: job-\n";
    assert!(lines(&check(&[], generated)).is_empty());
    let bad = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  generateName: Job_\n";
    let found = lines(&check(&[], bad));
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(
        found[0].starts_with("4: ConfigMap Job_*: metadata.generateName: Invalid value: \"Job_\": a lowercase RFC 1123 subdomain"),
        "{found:?}"
    );
    // The server names the object before validating it: the name it
    // generates from a bad prefix is bad too.
    assert!(
        found[1].starts_with("4: ConfigMap Job_*: metadata.name: Invalid value: \"Job_\" and 5 random characters (the name generated from generateName): a lowercase RFC 1123 subdomain"),
        "{found:?}"
    );
}

#[test]
fn label_and_annotation_keys_and_values_in_the_servers_words() {
    let yaml = "apiVersion: v1
kind: ConfigMap
metadata:
  name: web
  labels:
    app.kubernetes.io/name: web
    bad key: x
    tier: -front
  annotations:
    Example.com/Owner: team
    a/b/c: x
";
    assert_eq!(
        lines(&check(&[], yaml)),
        [
            "7: ConfigMap web: metadata.labels: Invalid value: \"bad key\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
            "8: ConfigMap web: metadata.labels: Invalid value: \"-front\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
            "11: ConfigMap web: metadata.annotations: Invalid value: \"a/b/c\": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
        ]
    );
}

#[test]
fn annotations_over_256_kib_in_total_are_too_long() {
    let value = "x".repeat(130 << 10);
    let yaml = format!(
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\n  annotations:\n    a: {value}\n    b: {value}\n"
    );
    assert_eq!(
        lines(&check(&[], &yaml)),
        ["5: ConfigMap web: metadata.annotations: Too long: may not be more than 262144 bytes"]
    );
    let out = vergate_with_stdin(&["check", "--target", "1.29", "-"], yaml.as_bytes());
    assert_eq!(
        lines(&out),
        ["5: ConfigMap web: metadata.annotations: Too long: must have at most 262144 bytes"]
    );
    let fits = format!(
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\n  annotations:\n    a: {}\n",
        "x".repeat(256 << 10).get(1..).unwrap()
    );
    assert!(lines(&check(&[], &fits)).is_empty());
}

#[test]
fn custom_resources_names_are_subdomains() {
    let crd = "tests/custom-resources/server-truth-crd.yaml";
    let gadget = std::fs::read_to_string(support::root().join(crd)).unwrap();
    assert!(gadget.contains("kind: CustomResourceDefinition"));
    let yaml = "apiVersion: example.org/v1\nkind: Gadget\nmetadata:\n  name: My_Widget\nspec: {}\n";
    let out = check(&["--crd", crd, "--rule", "missing-required=off"], yaml);
    assert!(
        stdout(&out).contains(
            "metadata.name: Invalid value: \"My_Widget\": a lowercase RFC 1123 subdomain"
        ),
        "{}",
        stdout(&out)
    );
}

#[test]
fn what_the_server_cannot_decode_is_refused_by_default() {
    let yaml = "apiVersion: v1
kind: Secret
metadata:
  name: web
  creationTimestamp: yesterday
data:
  key: not base64!
";
    let out = check(&[], yaml);
    assert_eq!(code(&out), 1);
    assert_eq!(
        lines(&out),
        [
            "5: Secret web: metadata.creationTimestamp: expected an RFC 3339 date-time such as 2024-01-02T15:04:05Z (string(date-time) in 1.34), found \"yesterday\"",
            "7: Secret web: data.key: expected base64-encoded bytes (string(byte) in 1.34), found \"not base64!\"",
        ]
    );
}

#[test]
fn the_servers_go_validation_of_workloads() {
    let yaml = "apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: -1
  selector:
    matchLabels: {app: web}
  strategy:
    type: Recreate
    rollingUpdate: {maxSurge: 1}
  template:
    metadata:
      labels: {app: api}
    spec:
      securityContext:
        seccompProfile: {type: Localhost}
      containers:
      - name: web
      - name: web
        image: nginx
      volumes:
      - {name: data, emptyDir: {}}
      - {name: data, emptyDir: {}}
";
    let found = lines(&check(&[], yaml));
    let expected = [
        "6: Deployment web: spec.replicas: -1 is less than the minimum 0",
        "11: Deployment web: spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'",
        "14: Deployment web: spec.template.metadata.labels: Invalid value: map[string]string{\"app\":\"api\"}: `selector` does not match template `labels`",
        "17: Deployment web: spec.template.spec.securityContext.seccompProfile.localhostProfile: Required value: must be set when seccomp type is Localhost",
        "19: Deployment web: spec.template.spec.containers[0].image: Required value",
        "20: Deployment web: spec.template.spec.containers[1].name: Duplicate value: \"web\"",
        "24: Deployment web: spec.template.spec.volumes[1].name: Duplicate value: \"data\"",
    ];
    for line in expected {
        assert!(
            found.iter().any(|found| found == line),
            "{line}\nnot in\n{found:#?}"
        );
    }
    assert_eq!(found.len(), expected.len(), "{found:#?}");
}

#[test]
fn custom_resources_integer_formats_are_stripped_and_quantities_follow_their_pattern() {
    let crd = "tests/custom-resources/server-truth-crd.yaml";
    let gadget = |count: &str, memory: &str| {
        format!("apiVersion: example.org/v1\nkind: Gadget\nmetadata:\n  name: g\nspec:\n  count: {count}\n  memory: {memory}\n")
    };
    // 3000000000 is no int32, but apiextensions does not validate int32.
    let out = check(&["--crd", crd], &gadget("3000000000", "1Gi"));
    assert!(lines(&out).is_empty(), "{}", stdout(&out));
    let out = check(&["--crd", crd], &gadget("3", "2048"));
    assert!(lines(&out).is_empty(), "{}", stdout(&out));
    let out = check(&["--crd", crd], &gadget("3", "1 GB"));
    let found = lines(&out);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].starts_with("7: Gadget g: spec.memory: \"1 GB\" does not match the pattern"),
        "{found:?}"
    );
}

#[test]
fn custom_resources_list_keys_items_and_map_values_as_apiextensions_validates_them() {
    let crd = "tests/custom-resources/server-truth-crd.yaml";
    let gadget = |spec: &str| {
        format!("apiVersion: example.org/v1\nkind: Gadget\nmetadata:\n  name: g\nspec:\n{spec}")
    };
    let fine = "  memory: 4294967296\n  hosts: [a.b, c]\n  ports: [{port: 80, protocol: TCP}, {port: 80, protocol: UDP}]\n  limits: {a: 10}\n";
    let out = check(&["--crd", crd], &gadget(fine));
    assert!(lines(&out).is_empty(), "{}", stdout(&out));
    let bad = "  hosts: [a, Bad_Host, a, a]\n  ports: [{port: 80, protocol: TCP}, {protocol: TCP, port: 80}]\n  limits: {a: 11}\n";
    let out = check(&["--crd", crd], &gadget(bad));
    assert_eq!(
        lines(&out),
        [
            r#"6: Gadget g: spec.hosts[1]: "Bad_Host" does not match the pattern "^[a-z.]+$""#,
            r#"6: Gadget g: spec.hosts[2]: Duplicate value: "a""#,
            r#"7: Gadget g: spec.ports[1]: Duplicate value: {"port":80,"protocol":"TCP"}"#,
            "8: Gadget g: spec.limits.a: 11 is greater than the maximum 10",
        ],
        "{}",
        stdout(&out)
    );
}

#[test]
fn a_custom_resources_status_is_reset_on_create_but_its_unknown_fields_refused() {
    let crd = "tests/custom-resources/server-truth-crd.yaml";
    let gadget = |status: &str| {
        format!("apiVersion: example.org/v1\nkind: Gadget\nmetadata:\n  name: g\nspec: {{}}\nstatus: {status}\n")
    };
    let out = check(&["--crd", crd], &gadget("{phase: Nope}"));
    assert!(lines(&out).is_empty(), "{}", stdout(&out));
    let out = check(&["--crd", crd], &gadget("{colour: blue}"));
    let found = lines(&out);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].contains(r#"status.colour: strict decoding error: unknown field "status.colour""#),
        "{found:?}"
    );
}

#[test]
fn a_crd_the_api_server_refuses_serves_no_custom_resource() {
    let crd = "tests/custom-resources/widgets-crd.yaml";
    let yaml = "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\nspec: {}\n";
    let out = check(&["--crd", crd], yaml);
    assert_eq!(code(&out), 1);
    assert_eq!(
        lines(&out),
        [
            r#"1: Widget w: apiVersion: example.com/v1 Widget: not served, as the API server refuses its CRD widgets.example.com on create: spec.versions[2].schema.openAPIV3Schema.properties[spec].properties[prefix].pattern: Invalid value: "^(?!kube-).*$": must be a valid regular expression, but isn't: error parsing regexp: invalid or unsupported Perl syntax: `(?!`; fix the CRD"#
        ],
        "{}",
        stdout(&out)
    );
}

/// A selector of many keys over many labels is matched through a map, in
/// linear time: 100,000 of each take seconds, where comparing every pair
/// (10^10 comparisons) would take minutes.
#[test]
fn many_labels_against_many_selector_keys_stay_linear() {
    let mut labels = String::new();
    let mut selector = String::new();
    for index in 0..100_000 {
        labels.push_str(&format!("        k{index}: v\n"));
        selector.push_str(&format!("      k{index}: v\n"));
    }
    let yaml = format!(
        "apiVersion: apps/v1\nkind: ReplicaSet\nmetadata:\n  name: rs\nspec:\n  selector:\n    matchLabels:\n{selector}  template:\n    metadata:\n      labels:\n{labels}    spec:\n      containers: [{{name: c, image: busybox}}]\n"
    );
    let started = std::time::Instant::now();
    let out = check(&[], &yaml);
    assert!(lines(&out).is_empty(), "{}", stdout(&out));
    assert!(
        started.elapsed() < std::time::Duration::from_secs(20),
        "{:?}",
        started.elapsed()
    );
}
