//! `vergate check` holds CRDs to the API server's static cost limits on
//! their CEL rules: a CRD document among the inputs (checked as a create)
//! gets errors at the rules' lines with the API server's words; a CRD given
//! with `--crd` (on the cluster already) gets warnings; Gateway API's CRDs,
//! which the API server accepts, get neither.

mod support;

use serde_json::Value;
use support::cli::{code, finding_lines, stderr, stdout, vergate};

const OVER_RULE: &str = "tests/cel/cost/over-rule.yaml";
const OVER_CRD: &str = "tests/cel/cost/over-crd.yaml";
const TAIL: &str = "(try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)";

/// `line severity path: message` of each violation of a JSON report.
fn findings(args: &[&str]) -> Vec<String> {
    let mut all = vec!["check", "--format", "json", "--target", "1.33"];
    all.extend_from_slice(args);
    let output = vergate(&all);
    assert!(code(&output) <= 1, "{}", stderr(&output));
    let json: Value = serde_json::from_str(&stdout(&output)).unwrap();
    finding_lines(&json)
}

#[test]
fn a_rule_over_the_per_rule_limit_is_refused_with_the_api_servers_words() {
    let found = findings(&[OVER_RULE]);
    assert_eq!(found.len(), 1, "{found:#?}");
    let expected = format!(
        "31 error spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.tags.items.x-kubernetes-validations[0].rule: the API server refuses this CRD (\"spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[tags].items.x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of 1.258300x {TAIL}\"): estimated cost 12583000 over the per-rule limit 10000000; set maxItems, maxProperties or maxLength on spec.tags[*], or simplify the rule"
    );
    assert_eq!(found[0], expected);
}

#[test]
fn rules_over_the_per_crd_limit_are_refused_with_their_largest_contributors() {
    let found = findings(&[OVER_CRD]);
    assert_eq!(found.len(), 5, "{found:#?}");
    assert_eq!(
        found[0],
        format!("20 error spec.versions[0].schema.openAPIV3Schema: the API server refuses this CRD (\"spec.versions[0].schema.openAPIV3Schema: Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of 1.038097x {TAIL}\"): estimated cost 103809750 over the CRD's limit 100000000; bound the lists, maps and strings read by the rules reported with it (maxItems, maxProperties, maxLength), or simplify them")
    );
    // The four largest (all equal: the first four met) are named.
    for (line, list) in [(31, "00"), (38, "01"), (45, "02"), (52, "03")] {
        let contributor = format!("{line} error spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.list{list}.items.x-kubernetes-validations[0].rule: the API server refuses this CRD (\"spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[list{list}].items.x-kubernetes-validations[0].rule: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema\"): estimated cost 9437250 over the CRD's limit 100000000; set maxItems, maxProperties or maxLength on spec.list{list}[*], or simplify the rule");
        assert!(
            found.contains(&contributor),
            "{contributor}\nnot in {found:#?}"
        );
    }
}

/// A CRD given with `--crd` is on the cluster already: a warning, on
/// standard error, and the check goes on.
#[test]
fn a_crd_given_with_crd_over_the_limits_is_a_warning() {
    let output = vergate(&[
        "check",
        "--target",
        "1.33",
        "--crd",
        OVER_RULE,
        "tests/cel/gateway-api/cases/gateway.yaml",
    ]);
    let err = stderr(&output);
    assert!(
        err.contains(&format!("warning: --crd: {OVER_RULE}:31: spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.tags.items.x-kubernetes-validations[0].rule: the API server refuses this CRD (\"spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[tags].items.x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of 1.258300x")),
        "{err}"
    );
    assert!(code(&output) <= 1, "{err}");
}

/// A CRD among the inputs is created with them: the API server refuses
/// it for its rules' cost, so its custom resources in the same run are
/// refused too, in the server's words; given with `--crd` (on the cluster
/// already, its cost ratcheted), they are served.
#[test]
fn a_crd_input_over_the_limits_leaves_its_resources_unserved() {
    let dir = tempfile::tempdir().unwrap();
    let widget = dir.path().join("widget.yaml");
    std::fs::write(
        &widget,
        "apiVersion: cost.example.com/v1\nkind: Widget\nmetadata: {name: w}\n",
    )
    .unwrap();
    let widget = widget.to_str().unwrap();
    let refused: Vec<String> = findings(&[OVER_RULE, widget])
        .into_iter()
        .filter(|found| found.starts_with("1 error"))
        .collect();
    assert_eq!(refused.len(), 1, "{refused:#?}");
    assert!(
        refused[0].contains("cost.example.com/v1 Widget: not served, as the API server refuses its CRD widgets.cost.example.com on create: spec.validation.openAPIV3Schema.properties[spec].properties[tags].items.x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of 1.258300x"),
        "{refused:#?}"
    );
    let served = findings(&["--crd", OVER_RULE, widget]);
    assert!(served.is_empty(), "{served:#?}");
}

/// Gateway API's CRDs of two releases, as inputs and with `--crd`: no
/// cost finding (the API server accepts them).
#[test]
fn gateway_api_crds_are_within_the_limits() {
    for release in ["v1.2.0", "v1.3.0"] {
        let dir = format!("tests/cel/gateway-api/{release}");
        let found = findings(&[&dir]);
        assert!(
            found.iter().all(|line| !line.contains("estimated")),
            "{release}: {found:#?}"
        );
        let output = vergate(&["check", "--target", "1.33", "--crd", &dir, OVER_RULE]);
        assert!(
            !stderr(&output).contains("warning: --crd"),
            "{}",
            stderr(&output)
        );
    }
}

/// The probe CRD's pairwise rule over an unbounded list of unbounded
/// strings is far over the per-rule limit; its unbounded `ports` and
/// `labels` rules are within it but count towards the total.
#[test]
fn the_probe_crds_pairwise_rule_is_refused() {
    let found = findings(&["tests/cel/features/crd.yaml"]);
    let hosts: Vec<&String> = found
        .iter()
        .filter(|line| line.contains("properties[hosts]"))
        .collect();
    assert_eq!(hosts.len(), 2, "{found:#?}");
    assert!(
        hosts[0].starts_with("80 error ")
            && hosts[0].contains(
                "Forbidden: estimated rule cost exceeds budget by factor of more than 100x"
            ),
        "{hosts:#?}"
    );
    assert!(
        hosts[0].contains("set maxItems, maxProperties or maxLength on spec.hosts, spec.hosts[*]"),
        "{hosts:#?}"
    );
    assert!(
        found
            .iter()
            .any(|line| line.contains("estimated cost 5242880")
                && line.contains("properties[ports]")),
        "{found:#?}"
    );
}

const PAIRS_CRD: &str = "tests/cel/cost/pairs-crd.yaml";

/// A Pair custom resource with `a` and `b` of `n` and `m` items from
/// `start`, and `notes` notes.
fn pair(a: std::ops::Range<u32>, b: std::ops::Range<u32>, notes: usize) -> String {
    let list =
        |range: std::ops::Range<u32>| range.map(|i| i.to_string()).collect::<Vec<_>>().join(", ");
    let notes = vec!["note"; notes].join(", ");
    format!(
        "apiVersion: cost.example.com/v1\nkind: Pair\nmetadata: {{name: p}}\nspec:\n  a: [{}]\n  b: [{}]\n  notes: [{notes}]\n",
        list(a),
        list(b)
    )
}

/// A rule with comprehensions is held to the per-call limit by its cost
/// as it runs: two lists of 10 run beside 3,000 notes (the notes are never
/// ranged over), and give the rule's verdict; two lists of 1,000 compared
/// pairwise (about 6 per pair) pass the limit and are cancelled, with the
/// API server's error.
#[test]
fn the_per_call_limit_stops_a_rule_as_it_runs() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: String| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        path.to_str().unwrap().to_owned()
    };
    let disjoint = write("disjoint.yaml", pair(0..10, 10..20, 3000));
    let shared = write("shared.yaml", pair(0..10, 9..19, 3000));
    let large = write("large.yaml", pair(0..1000, 1000..2000, 0));
    let at = |file: &str| findings(&["--crd", PAIRS_CRD, file]);
    assert!(at(&disjoint).is_empty(), "{:#?}", at(&disjoint));
    let refused = at(&shared);
    assert!(
        refused.len() == 1
            && refused[0].contains("error spec: Invalid value: \"object\": a and b share no item"),
        "{refused:#?}"
    );
    let cancelled = at(&large);
    assert!(
        cancelled.len() == 1
            && cancelled[0].contains("error spec: Invalid value: \"object\": 'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: a and b share no item"),
        "{cancelled:#?}"
    );
}
