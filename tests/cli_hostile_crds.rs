//! Hostile CRDs and custom resources (the F-junctor-* and
//! F-message-amplification reproducers of /work/shared/reliability): each
//! ends as its README expects, under the 2 GiB cap, in a bounded time.
//! - junctors nested in one another cost time and memory in proportion to
//!   the schema (20 nested `not` took gigabytes), and the documented
//!   bounds (64 levels, 100,000 schemas visited a document) are reached
//!   first, each a warning (rule `junctor`) naming the CRD's file and the
//!   schema path;
//! - a rule's long message over many items gives a bounded report: at most
//!   100 findings a rule and document, then one `and N more …`, each
//!   message at most 4 KiB, in every format (and every format well formed).

mod support;

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::time::Duration;
use support::capped::{self, Capped};
use support::cli::{code, stderr, stdout};

const HOSTILE: &str = "tests/custom-resources/hostile";

/// The README's bound: 20 s (of CPU, in a debug build).
const BOUND: Duration = Duration::from_secs(20);

fn check(crd: &Path, resources: &Path, format: &str) -> Capped {
    let run = capped::vergate(&[
        OsStr::new("check"),
        OsStr::new("--target"),
        OsStr::new("1.34"),
        OsStr::new("--format"),
        OsStr::new(format),
        OsStr::new("--crd"),
        crd.as_os_str(),
        resources.as_os_str(),
    ]);
    assert!(
        run.cpu < BOUND,
        "check --crd {} took {:?}",
        crd.display(),
        run.cpu
    );
    run
}

fn hostile(name: &str) -> PathBuf {
    Path::new(HOSTILE).join(name)
}

/// The CRD header of the reproducers, with `properties` of `spec` to follow.
const CRD_HEAD: &str = "apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.fuzz.example.com}
spec:
  group: fuzz.example.com
  scope: Namespaced
  names: {kind: Widget, plural: widgets, singular: widget, listKind: WidgetList}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
";

const CR_HEAD: &str =
    "apiVersion: fuzz.example.com/v1\nkind: Widget\nmetadata: {name: w, namespace: default}\n";

/// Writes `text` to `name` in `dir`.
fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// A CRD whose `spec.s` (a string) holds `allOf: [not: … not: {minLength: 1}]`,
/// `depth` times `not`, in flow style as the reproducer.
fn not_chain(depth: usize) -> String {
    let chain = format!(
        "{}{{minLength: 1}}{}",
        "{not: ".repeat(depth),
        "}".repeat(depth)
    );
    format!("{CRD_HEAD}              s:\n                type: string\n                allOf: [{chain}]\n")
}

#[test]
fn twenty_nested_nots_are_read_and_checked_at_once() {
    for crd in [
        "F-junctor-not-chain.crd.yaml",
        "F-junctor-not-chain-16.crd.json",
    ] {
        let run = check(
            &hostile(crd),
            &hostile("F-junctor-not-chain.cr.yaml"),
            "text",
        );
        // `a` has a length of 1: an even number of `not` holds.
        assert_eq!(
            code(&run.output),
            0,
            "{crd}: {}{}",
            stdout(&run.output),
            stderr(&run.output)
        );
        assert!(
            run.cpu < Duration::from_secs(5),
            "{crd} took {:?}: not linear",
            run.cpu
        );
    }
}

#[test]
fn an_odd_chain_of_nots_is_a_junctor_error() {
    let dir = tempfile::tempdir().unwrap();
    let crd = write(dir.path(), "odd.crd.yaml", &not_chain(21));
    let cr = write(dir.path(), "w.yaml", &format!("{CR_HEAD}spec: {{s: a}}\n"));
    let run = check(&crd, &cr, "text");
    assert_eq!(code(&run.output), 1, "{}", stderr(&run.output));
    assert!(
        stdout(&run.output).contains("\"spec.s\" must validate all the schemas (allOf)"),
        "{}",
        stdout(&run.output)
    );
}

#[test]
fn junctors_past_64_levels_are_a_warning_naming_the_crd_and_the_schema() {
    let dir = tempfile::tempdir().unwrap();
    let crd = write(dir.path(), "deep.crd.yaml", &not_chain(70));
    let cr = write(dir.path(), "w.yaml", &format!("{CR_HEAD}spec: {{s: a}}\n"));
    let run = check(&crd, &cr, "text");
    let out = stdout(&run.output);
    assert_eq!(code(&run.output), 0, "{out}{}", stderr(&run.output));
    let warning = out
        .lines()
        .find(|line| line.contains("warning:") && line.contains("nest deeper than 64 levels"))
        .unwrap_or_else(|| panic!("no depth warning:\n{out}"));
    let schema = format!(
        "openAPIV3Schema.properties.spec.properties.s.allOf[0]{}",
        ".not".repeat(64)
    );
    for part in [
        "w.yaml:4: warning: Widget default/w: spec.s: ",
        "the CRD widgets.fuzz.example.com in ",
        "deep.crd.yaml, version v1",
        &schema,
        "nest them less deeply",
    ] {
        assert!(warning.contains(part), "{part:?} not in {warning}");
    }
}

#[test]
fn junctors_nested_thousands_deep_end_within_bounds() {
    let dir = tempfile::tempdir().unwrap();
    let cr = write(dir.path(), "w.yaml", &format!("{CR_HEAD}spec: {{s: a}}\n"));
    for depth in [200, 5000] {
        let crd = write(dir.path(), "deep.crd.yaml", &not_chain(depth));
        let run = check(&crd, &cr, "text");
        // Refused by the YAML reader's nesting limit, or read to the
        // junctors' depth and warned: never a crash.
        assert!(
            (0..=2).contains(&code(&run.output)),
            "{depth}: {:?} {}",
            run.output.status,
            stderr(&run.output)
        );
    }
}

#[test]
fn a_document_past_the_visit_budget_is_warned_and_its_findings_capped() {
    // 8 failing branches an item, 20,000 items: past 100,000 schemas.
    let branches: Vec<String> = (0..8).map(|i| format!("{{required: [f{i}]}}")).collect();
    let crd = format!(
        "{CRD_HEAD}              items:\n                type: array\n                items:\n                  type: object\n                  x-kubernetes-preserve-unknown-fields: true\n                  anyOf: [{}]\n",
        branches.join(", ")
    );
    let cr = format!("{CR_HEAD}spec:\n  items:\n{}", "  - {}\n".repeat(20_000));
    let dir = tempfile::tempdir().unwrap();
    let crd = write(dir.path(), "branches.crd.yaml", &crd);
    let cr = write(dir.path(), "w.yaml", &cr);
    let run = check(&crd, &cr, "text");
    let out = stdout(&run.output);
    assert_eq!(code(&run.output), 1, "{}", stderr(&run.output));
    let warning = out
        .lines()
        .find(|line| line.contains("more than 100,000 of their schemas"))
        .unwrap_or_else(|| panic!("no visit warning:\n{out}"));
    assert!(
        warning.contains("openAPIV3Schema.properties.spec.properties.items.items")
            && warning.contains("branches.crd.yaml, version v1"),
        "{warning}"
    );
    // Each item checked before the budget ran out fails: reported up to
    // the bound, the rest counted.
    let junctor_errors = out
        .lines()
        .filter(|line| !line.contains("warning:"))
        .count();
    assert_eq!(junctor_errors, 101, "{out}");
    assert!(
        out.lines().any(|line| line.contains("more junctor findings for this resource (at most 100 are reported per rule and resource)")),
        "{out}"
    );
}

/// The F-message-amplification reproducer: a 100,000-byte message on a
/// rule that fails for each of 10,000 items (170 KB in; it gave 1.0 GB
/// out and took 3 GB).
fn amplification(dir: &Path) -> (PathBuf, PathBuf) {
    let crd = format!(
        "{CRD_HEAD}              l:\n                type: array\n                items:\n                  type: string\n                  x-kubernetes-validations:\n                  - rule: 'false'\n                    message: {}\n",
        "m".repeat(100_000)
    );
    let items: Vec<String> = (0..10_000).map(|i| format!("i{i}")).collect();
    let cr = format!("{CR_HEAD}spec:\n  l: [{}]\n", items.join(", "));
    (
        write(dir, "F-message-amplification.crd.yaml", &crd),
        write(dir, "F-message-amplification.cr.yaml", &cr),
    )
}

#[test]
fn a_long_message_on_many_items_gives_a_bounded_report() {
    let dir = tempfile::tempdir().unwrap();
    let (crd, cr) = amplification(dir.path());
    let run = check(&crd, &cr, "text");
    let out = stdout(&run.output);
    assert_eq!(code(&run.output), 1, "{}", stderr(&run.output));
    assert!(out.len() < 1 << 20, "{} bytes out", out.len());
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 101, "{}", &out[..2000]);
    // 4 KiB of message (the API server's prefix and the note included).
    assert!(lines.iter().all(|line| line.len() < 4096 + 100));
    assert!(
        lines[0].ends_with("m… (95,993 more bytes not shown)"),
        "{}",
        &lines[0][lines[0].len() - 80..]
    );
    assert!(
        lines[100].ends_with(
            ": Widget default/w: and 9,900 more cel-rule findings for this resource (at most 100 are reported per rule and resource)"
        ),
        "{}",
        lines[100]
    );
    // The summary counts every finding, those not shown too.
    assert!(
        stderr(&run.output).contains("10000 errors"),
        "{}",
        stderr(&run.output)
    );
}

#[test]
fn the_bounded_report_is_well_formed_in_every_format() {
    let dir = tempfile::tempdir().unwrap();
    let (crd, cr) = amplification(dir.path());

    let json = check(&crd, &cr, "json");
    assert_eq!(code(&json.output), 1);
    let report: serde_json::Value = serde_json::from_slice(&json.output.stdout).unwrap();
    let violations = report["violations"].as_array().unwrap();
    assert_eq!(violations.len(), 101);
    assert_eq!(violations[100]["omitted"], 9_900, "{}", violations[100]);
    assert_eq!(violations[100]["rule"], "cel-rule");
    assert!(violations[..100]
        .iter()
        .all(|found| found.get("omitted").is_none()));
    assert_eq!(report["summary"]["errors"], 10_000);

    let sarif = check(&crd, &cr, "sarif");
    let log: serde_json::Value = serde_json::from_slice(&sarif.output.stdout).unwrap();
    let results = log["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), 101);
    assert!(results[100]["message"]["text"]
        .as_str()
        .unwrap()
        .contains("and 9,900 more cel-rule findings"));

    let junit = check(&crd, &cr, "junit");
    let xml = stdout(&junit.output);
    let parsed = roxmltree::Document::parse(&xml).expect("the JUnit report parses");
    let failures = parsed
        .descendants()
        .filter(|node| node.has_tag_name("failure"))
        .count();
    assert!(failures >= 1, "{xml}");
    assert!(xml.contains("and 9,900 more cel-rule findings"));
    assert!(xml.len() < 1 << 20);

    let tap = check(&crd, &cr, "tap");
    let text = stdout(&tap.output);
    assert!(text.starts_with("TAP version 14\n"), "{text}");
    assert!(text.contains("and 9,900 more cel-rule findings"));
    assert!(text.len() < 1 << 20);
}
