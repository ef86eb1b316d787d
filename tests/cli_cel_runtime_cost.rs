//! `vergate check` holds CEL rules to the API server's runtime cost limits
//! as they run: the hostile rules of `tests/cel/hostile/` (found by
//! fuzzing: a string doubled 22 times, comprehensions over lists the rule
//! builds, a transform over 10,000 keys) end in seconds under a 2 GiB
//! address-space cap, with the API server's message, or pass as the API
//! server passes them.

mod support;

use std::process::{Command, Output, Stdio};
use std::time::Duration;
use support::cli::{code, finding_lines, stderr, stdout};
use support::root;

/// The API server's words when a rule passes the per-call limit.
const CANCELLED: &str = "Invalid value: \"object\": 'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: failed rule: ";

/// Runs `vergate` from the repository root under a 2 GiB address-space cap
/// (`ulimit -v`, as the project's hostile-input tests run) and a 30 s time
/// limit; returns its output and the CPU time it used (user + system,
/// which a busy machine does not inflate as it does wall time).
fn vergate_capped(args: &[&str]) -> (Output, Duration) {
    let times = tempfile::NamedTempFile::new().expect("a temporary file");
    let output = Command::new("sh")
        .arg("-c")
        .arg(
            "ulimit -v 2097152 && timeout 30 \"$0\" \"$@\"; code=$?; \
             times > \"$VERGATE_TEST_TIMES\"; exit $code",
        )
        .arg(env!("CARGO_BIN_EXE_vergate"))
        .args(args)
        .env("VERGATE_TEST_TIMES", times.path())
        .current_dir(root())
        .stdin(Stdio::null())
        .output()
        .expect("sh runs");
    let times = std::fs::read_to_string(times.path()).expect("sh wrote its times");
    // The second line of `times`: the children's `0m1.230000s 0m0.040000s`.
    let line = times.lines().nth(1).expect("times prints two lines");
    let cpu = line
        .split_whitespace()
        .map(|field| {
            let (minutes, seconds) = field
                .trim_end_matches('s')
                .split_once('m')
                .expect("a time is NmS.SSSs");
            Duration::from_secs_f64(
                minutes.parse::<f64>().unwrap() * 60.0 + seconds.parse::<f64>().unwrap(),
            )
        })
        .sum();
    (output, cpu)
}

/// Checks the custom resource of case `name` against its CRD at `target`:
/// the exit code and each finding's line.
fn check(name: &str, target: &str) -> (i32, Vec<String>) {
    let crd = format!("tests/cel/hostile/{name}.crd.yaml");
    let cr = format!("tests/cel/hostile/{name}.cr.yaml");
    let args = [
        "check", "--format", "json", "--target", target, "--crd", &crd, &cr,
    ];
    let (output, cpu) = vergate_capped(&args);
    let status = code(&output);
    assert!(status <= 1, "{name}: exit {status}: {}", stderr(&output));
    assert!(cpu < Duration::from_secs(20), "{name} took {cpu:?}");
    let json: serde_json::Value = serde_json::from_str(&stdout(&output))
        .unwrap_or_else(|err| panic!("{name}: {err}: {}", stdout(&output)));
    (status, finding_lines(&json))
}

/// Each rule that the API server cancels is refused with its words, at the
/// rule's node, and nothing else is reported.
#[test]
fn rules_past_the_per_call_limit_are_cancelled_with_the_api_servers_words() {
    for name in [
        "F-cel-replace-blowup",
        "F-cel-split-nested",
        "F-cel-literal-nested",
        // Held out: a string grown 4x per `replace` (to 10 Mi characters),
        // which the API server builds and then cancels the rule for reading.
        "H-cel-replace-growth",
    ] {
        let (status, found) = check(name, "1.33");
        assert_eq!(status, 1, "{name}: {found:#?}");
        assert_eq!(found.len(), 1, "{name}: {found:#?}");
        assert!(
            found[0].starts_with(&format!("4 error spec: {CANCELLED}")),
            "{name}: {}",
            found[0]
        );
    }
}

/// A transform over 10,000 keys costs about 60,000 (6 per key), far
/// under the limit: it runs to its end, in linear time, and passes.
#[test]
fn a_transform_over_ten_thousand_keys_runs_in_linear_time_and_passes() {
    let (status, found) = check("F-cel-transformMap-quadratic", "1.34");
    assert_eq!((status, found), (0, Vec::<String>::new()));
}

/// Held out: a message expression failing on 200 map values, each costing
/// about 70,000, spends the resource's budget after more than 100
/// failures. The API server's budget error is reported whatever the bound
/// on findings per rule (it was hidden among the "and N more").
#[test]
fn the_budget_error_is_reported_past_the_bound_on_findings() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let crd = dir.path().join("crd.yaml");
    let cr = dir.path().join("cr.yaml");
    let rule = "'bad ' + self.x + self.x + self.x + self.x + self.x + self.x + self.x + self.x";
    std::fs::write(
        &crd,
        format!(
            "apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {{name: gadgets.heldout.example.org}}
spec:
  group: heldout.example.org
  scope: Cluster
  names: {{kind: Gadget, plural: gadgets, singular: gadget, listKind: GadgetList}}
  versions:
  - name: v2
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              m:
                type: object
                additionalProperties:
                  type: object
                  properties:
                    x: {{type: string}}
                  x-kubernetes-validations:
                  - rule: \"self.x == 'ok'\"
                    messageExpression: \"{rule}\"
"
        ),
    )
    .unwrap();
    let mut resource = String::from(
        "apiVersion: heldout.example.org/v2\nkind: Gadget\nmetadata: {name: g}\nspec:\n  m:\n",
    );
    let x = "z".repeat(20_000);
    for item in 0..200 {
        resource.push_str(&format!("    k{item}: {{x: {x}}}\n"));
    }
    std::fs::write(&cr, resource).unwrap();
    let (crd, cr) = (crd.to_str().unwrap(), cr.to_str().unwrap());
    let args = [
        "check", "--format", "json", "--target", "1.34", "--crd", crd, cr,
    ];
    let (output, cpu) = vergate_capped(&args);
    assert_eq!(code(&output), 1, "{}", stderr(&output));
    assert!(cpu < Duration::from_secs(20), "took {cpu:?}");
    let json: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    let found = finding_lines(&json);
    let budget = found
        .iter()
        .filter(|line| line.contains("validation failed due to running out of cost budget"))
        .count();
    assert_eq!(budget, 1, "{found:#?}");
    assert!(
        found
            .iter()
            .any(|line| line.contains("more cel-rule findings")),
        "{found:#?}"
    );
}
