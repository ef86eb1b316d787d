//! `vergate check`'s report formats for CI: every finding names its
//! resource; JUnit XML (parsed by a real XML parser, and held to the shape
//! CI systems read), TAP 14 (plan, points, YAML diagnostics), JSON's
//! summary, and colour per `--color` and `NO_COLOR`.

mod support;

use std::process::{Command, Output};
use support::cli::{code, stderr, stdout, vergate};

const DEMO: &str = "generated/demo";
/// Errors (pipeline), warnings only (release's first document is clean
/// but deprecated), clean (clean.yaml), an input error (invalid.yaml) and
/// skipped documents (bad/ walked: list.yaml, no-kind.yaml).
const INPUTS: [&str; 5] = [
    "tests/cli/demo/pipeline.yaml",
    "tests/cli/demo/release.yaml",
    "tests/cli/demo/clean.yaml",
    "tests/cli/bad/invalid.yaml",
    "tests/cli/bad",
];

fn check(format: &str, extra: &[&str]) -> Output {
    let mut args = vec!["check", "--api", DEMO, "--format", format];
    args.extend_from_slice(extra);
    args.extend_from_slice(&INPUTS);
    vergate(&args)
}

#[test]
fn text_json_and_sarif_name_the_resource() {
    let out = vergate(&["check", "--api", DEMO, "tests/cli/demo/pipeline.yaml"]);
    assert!(
        stdout(&out).starts_with(
            "tests/cli/demo/pipeline.yaml:14: Pipeline build-web: spec.steps[0].runtime:"
        ),
        "{}",
        stdout(&out)
    );
    let out = vergate(&[
        "check",
        "--target",
        "1.29",
        "--format",
        "json",
        "tests/cli/tree/deploy/service.yaml",
    ]);
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(
        json["violations"][0]["resource"],
        serde_json::json!({"kind": "Service", "namespace": "shop", "name": "catalog"})
    );
    let out = vergate(&[
        "check",
        "--target",
        "1.29",
        "--format",
        "sarif",
        "tests/cli/tree/deploy/service.yaml",
    ]);
    let sarif: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let result = &sarif["runs"][0]["results"][0];
    assert_eq!(result["properties"]["resource"], "Service shop/catalog");
    assert!(
        result["message"]["text"]
            .as_str()
            .unwrap()
            .starts_with("Service shop/catalog: spec.trafficDistribution: not available in 1.29"),
        "{result}"
    );
}

#[test]
fn json_has_a_summary() {
    let out = check("json", &[]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(
        json["summary"],
        serde_json::json!({
            "files": 7,
            "resources": 4,
            "documents": 5,
            "errors": 2,
            "warnings": 2,
            "input_errors": 2,
            "skipped": 2,
            "verdicts": {"pass": 2, "warn": 1, "fail": 1},
            "cel": {"evaluated": 0, "transition_skipped": 0},
        })
    );
    // The fields the format had before the summary are all still there.
    for key in ["documents", "errors", "violations", "skipped"] {
        assert!(json.get(key).is_some(), "{key} missing");
    }
}

#[test]
fn junit_is_xml_in_the_shape_ci_systems_read() {
    let out = check("junit", &[]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    let text = stdout(&out);
    let doc = roxmltree::Document::parse(&text).unwrap_or_else(|err| panic!("{err}\n{text}"));
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "testsuites");
    let number = |node: roxmltree::Node, name: &str| -> usize {
        node.attribute(name)
            .unwrap_or_else(|| panic!("<{}> has no {name}", node.tag_name().name()))
            .parse()
            .unwrap()
    };
    let suites: Vec<_> = root.children().filter(|n| n.is_element()).collect();
    let names: Vec<&str> = suites
        .iter()
        .map(|s| s.attribute("name").unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "tests/cli/demo/pipeline.yaml",
            "tests/cli/demo/release.yaml",
            "tests/cli/demo/clean.yaml",
            "tests/cli/bad/invalid.yaml",
            "tests/cli/bad/list.yaml",
            "tests/cli/bad/no-kind.yaml",
            "tests/cli/bad/unknown-minor.yaml",
        ]
    );
    let (mut tests, mut failures, mut errors, mut skipped) = (0, 0, 0, 0);
    for suite in &suites {
        assert_eq!(suite.tag_name().name(), "testsuite");
        let cases: Vec<_> = suite.children().filter(|n| n.is_element()).collect();
        let with = |child: &str| {
            cases
                .iter()
                .filter(|case| case.children().any(|n| n.tag_name().name() == child))
                .count()
        };
        assert_eq!(number(*suite, "tests"), cases.len());
        assert_eq!(number(*suite, "failures"), with("failure"));
        assert_eq!(number(*suite, "errors"), with("error"));
        assert_eq!(number(*suite, "skipped"), with("skipped"));
        tests += cases.len();
        failures += with("failure");
        errors += with("error");
        skipped += with("skipped");
        for case in cases {
            assert_eq!(case.tag_name().name(), "testcase");
            assert!(case.attribute("name").is_some_and(|n| !n.is_empty()));
            assert_eq!(case.attribute("classname"), suite.attribute("name"));
            for child in case.children().filter(|n| n.is_element()) {
                let tag = child.tag_name().name();
                assert!(
                    ["failure", "error", "skipped", "system-out"].contains(&tag),
                    "{tag}"
                );
                if tag != "system-out" {
                    assert!(
                        child.attribute("message").is_some(),
                        "<{tag}> without message"
                    );
                }
            }
        }
    }
    assert_eq!(
        (
            number(root, "tests"),
            number(root, "failures"),
            number(root, "errors"),
            number(root, "skipped")
        ),
        (tests, failures, errors, skipped)
    );
    assert_eq!((tests, failures, errors, skipped), (8, 1, 2, 2));
    // The failing resource, with both findings and their lines.
    let failure = doc
        .descendants()
        .find(|n| n.tag_name().name() == "failure")
        .unwrap();
    assert_eq!(
        failure.parent().unwrap().attribute("name"),
        Some("Pipeline build-web")
    );
    assert!(failure
        .attribute("message")
        .unwrap()
        .starts_with("spec.steps[0].runtime: value \"wasm\""));
    assert!(failure
        .text()
        .unwrap()
        .contains("tests/cli/demo/pipeline.yaml:15: spec.steps[0].shell"));
}

#[test]
fn junit_escapes_what_xml_reserves() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a&<b>\"'.yaml");
    std::fs::write(
        &file,
        "apiVersion: \"1.10\"\nkind: Pipeline\nmetadata:\n  name: \"x<&>\\u0001\"\nspec:\n  steps:\n    - name: s\n      runtime: \"<&>\\u0002\"\n",
    )
    .unwrap();
    let out = vergate(&[
        "check",
        "--api",
        DEMO,
        "--format",
        "junit",
        file.to_str().unwrap(),
    ]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let text = stdout(&out);
    let doc = roxmltree::Document::parse(&text).unwrap_or_else(|err| panic!("{err}\n{text}"));
    let case = doc
        .descendants()
        .find(|n| n.tag_name().name() == "testcase")
        .unwrap();
    assert_eq!(case.attribute("name"), Some("Pipeline x<&>\u{FFFD}"));
    assert!(case
        .attribute("classname")
        .unwrap()
        .ends_with("a&<b>\"'.yaml"));
}

#[test]
fn tap_has_a_plan_a_point_per_resource_and_yaml_diagnostics() {
    let out = check("tap", &[]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    let text = stdout(&out);
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("TAP version 14"));
    assert_eq!(lines.next(), Some("1..8"));
    let mut points = Vec::new();
    let mut block: Option<String> = None;
    let mut blocks = Vec::new();
    for line in lines {
        if let Some(yaml) = &mut block {
            if line == "  ..." {
                blocks.push(block.take().unwrap());
            } else {
                yaml.push_str(line.strip_prefix("  ").expect("diagnostics are indented"));
                yaml.push('\n');
            }
        } else if line == "  ---" {
            block = Some(String::new());
        } else {
            points.push(line.to_owned());
        }
    }
    assert!(block.is_none(), "an unterminated YAML block");
    for (index, point) in points.iter().enumerate() {
        let number = index + 1;
        assert!(
            point.starts_with(&format!("ok {number} - "))
                || point.starts_with(&format!("not ok {number} - ")),
            "{point}"
        );
    }
    assert_eq!(
        points[0],
        "not ok 1 - tests/cli/demo/pipeline.yaml:2: Pipeline build-web"
    );
    assert_eq!(
        points[1],
        "ok 2 - tests/cli/demo/release.yaml:1: Release web"
    );
    assert!(
        points
            .iter()
            .any(|p| p.starts_with("ok ") && p.contains("list.yaml:1 # SKIP not a manifest")),
        "{points:?}"
    );
    assert_eq!(points.iter().filter(|p| p.starts_with("not ok")).count(), 3);
    let diagnostics: Vec<serde_yaml_ng::Value> = blocks
        .iter()
        .map(|yaml| serde_yaml_ng::from_str(yaml).unwrap_or_else(|err| panic!("{err}\n{yaml}")))
        .collect();
    let first = &diagnostics[0];
    assert_eq!(first["severity"], "fail");
    assert_eq!(first["findings"][1]["line"], 15);
    assert_eq!(first["findings"][1]["rule"], "not-in-minor");
    assert_eq!(first["findings"][1]["path"], "spec.steps[0].shell");
}

/// `vergate check` on the pipeline with `--color WHEN` and extra variables.
fn colored(when: &str, vars: &[(&str, &str)]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_vergate"));
    command
        .args([
            "check",
            "--api",
            DEMO,
            "--color",
            when,
            "tests/cli/demo/pipeline.yaml",
        ])
        .current_dir(support::root())
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .env_remove("CLICOLOR");
    for (name, value) in vars {
        command.env(name, value);
    }
    command.output().unwrap()
}

#[test]
fn colour_follows_color_and_no_color() {
    let escape = |out: &Output| stdout(out).contains('\u{1b}') || stderr(out).contains('\u{1b}');
    let always = colored("always", &[]);
    assert!(escape(&always));
    assert!(stdout(&always).contains("\u{1b}[1mPipeline build-web"));
    assert!(!escape(&colored("never", &[("CLICOLOR_FORCE", "1")])));
    // auto: not on a pipe, unless forced; NO_COLOR wins over forcing.
    assert!(!escape(&colored("auto", &[])));
    assert!(escape(&colored("auto", &[("CLICOLOR_FORCE", "1")])));
    assert!(!escape(&colored(
        "auto",
        &[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")]
    )));
    // Without colour, the text is the plain text.
    assert_eq!(
        stdout(&colored("never", &[])),
        stdout(&vergate(&[
            "check",
            "--api",
            DEMO,
            "tests/cli/demo/pipeline.yaml"
        ]))
    );
}

#[test]
fn any_number_of_threads_prints_what_one_thread_prints() {
    // Every Kubernetes test manifest, and a file whose documents hold
    // findings, a YAML error and documents after it (never read).
    let dir = tempfile::tempdir().unwrap();
    let mut many = String::new();
    for round in 0..8 {
        for entry in std::fs::read_dir(support::root().join("tests/manifests/kubernetes")).unwrap()
        {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|ext| ext == "yaml") {
                let text = std::fs::read_to_string(&path).unwrap();
                many.push_str(&format!("---\n# round {round}\n{text}\n"));
            }
        }
    }
    many.push_str("---\napiVersion: v1\nkind: Service\nmetadata: {name: late}\nspec:\n  bad: [\n");
    many.push_str("---\napiVersion: v1\nkind: Service\nmetadata: {name: after-the-error}\n");
    let file = dir.path().join("many.yaml");
    std::fs::write(&file, many).unwrap();
    let file = file.display().to_string();
    // Each finding's document index names the document it is about, as a
    // sequential reading of the file numbers them (empty documents aside).
    let text = std::fs::read_to_string(&file).unwrap();
    let mut documents = Vec::new();
    for document in serde_yaml_ng::Deserializer::from_str(&text) {
        match <serde_yaml_ng::Value as serde::Deserialize>::deserialize(document) {
            Ok(serde_yaml_ng::Value::Null) => {}
            Ok(value) => documents.push(value),
            Err(_) => break,
        }
    }
    let json = vergate(&[
        "check", "--target", "1.29", "--strict", "--format", "json", "-j", "2", &file,
    ]);
    let json: serde_json::Value = serde_json::from_str(&stdout(&json)).unwrap();
    let mut compared = 0;
    for found in json["violations"].as_array().unwrap() {
        let document = &documents[found["document"].as_u64().unwrap() as usize];
        if document["kind"].as_str() == found["resource"]["kind"].as_str() {
            assert_eq!(
                document["metadata"]["name"].as_str(),
                found["resource"]["name"].as_str(),
                "{found}"
            );
            compared += 1;
        }
    }
    assert!(compared > 100, "only {compared} findings compared");
    for format in ["text", "json", "junit"] {
        let run = |jobs: &str| {
            vergate(&[
                "check",
                "--target",
                "1.29",
                "--strict",
                "--format",
                format,
                "-j",
                jobs,
                "tests/manifests/kubernetes",
                &file,
            ])
        };
        let one = run("1");
        assert!(!stderr(&one).contains("not applied"), "{}", stderr(&one));
        assert_eq!(code(&one), 2, "the YAML error is an input error");
        assert!(
            !stdout(&one).contains("after-the-error"),
            "nothing is read after a YAML error"
        );
        for jobs in ["2", "4"] {
            let several = run(jobs);
            assert_eq!(
                stdout(&several),
                stdout(&one),
                "--format {format} -j {jobs}"
            );
            assert_eq!(
                stderr(&several),
                stderr(&one),
                "--format {format} -j {jobs}"
            );
        }
    }
}
