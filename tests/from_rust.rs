//! Typed structs as the source: `cargo xtask regen --from-rust` reads the
//! example plugin crate's `#[vergate::versioned]` module and writes the same
//! kind of trees an upstream spec gives (gates.json, Pkl, JSON Schema).

mod pkl;
mod support;

use vergate::gates::GatesIndex;
use vergate::Version;
use vergate_codegen::output::Mode;
use vergate_codegen::regen;

fn v(text: &str) -> Version {
    text.parse().unwrap()
}

#[test]
#[cfg_attr(
    not(vergate_pkl),
    ignore = "needs the pkl CLI: target/tools (see .ci/run) or VERGATE_PKL"
)]
fn a_plugin_crate_gets_gates_pkl_and_json_schema_trees() {
    let out = tempfile::tempdir().unwrap();
    let crate_dir = support::root().join("tests/plugin-crate");
    let reports = regen::regen_from_rust(&crate_dir, out.path(), Mode::Write).unwrap();
    assert_eq!(reports.len(), 1);
    let (module, report) = &reports[0];
    assert_eq!(module.name, "api");
    assert!(report.changed.is_empty() && !report.added.is_empty());
    let dir = out.path().join("api");

    let gates: GatesIndex =
        serde_json::from_slice(&std::fs::read(dir.join("gates.json")).unwrap()).unwrap();
    assert_eq!(gates.versions, [v("2.3"), v("2.4"), v("2.5"), v("2.6")]);
    let spec = &gates.types["QueueSpec"];
    assert_eq!(spec.fields["maxReceiveCount"].gate.introduced_in, v("2.4"));
    let dead_letter = &spec.fields["deadLetter"].gate;
    assert_eq!(
        dead_letter.feature_gate.as_deref(),
        Some("DeadLetterQueues")
    );
    assert_eq!(dead_letter.stage.len(), 2);
    let days = &spec.fields["retentionDays"].gate;
    assert_eq!(
        (days.deprecated_in, days.removed_in),
        (Some(v("2.4")), Some(v("2.6")))
    );
    assert_eq!(
        gates.types["Ordering"].values["Fifo"].introduced_in,
        v("2.5")
    );
    assert_eq!(gates.types["DeadLetter"].gate.introduced_in, v("2.4"));

    // The JSON Schema tree: a 2.3 queue may not carry a dead letter.
    let definitions: serde_json::Value = serde_json::from_slice(
        &std::fs::read(dir.join("json/v2.3-strict/_definitions.json")).unwrap(),
    )
    .unwrap();
    let queue = &definitions["$defs"]["QueueSpec"];
    assert!(queue["properties"].get("name").is_some(), "{queue}");
    // Listed only to be refused, saying when it comes (docs/editor.md).
    assert_eq!(
        queue["properties"]["deadLetter"]["enum"],
        serde_json::json!([]),
        "{queue}"
    );
    assert_eq!(
        queue["properties"]["deadLetter"]["errorMessage"],
        "deadLetter is not available in 2.3; introduced in 2.4 (beta, feature gate DeadLetterQueues)"
    );
    let newer: serde_json::Value = serde_json::from_slice(
        &std::fs::read(dir.join("json/v2.4-strict/_definitions.json")).unwrap(),
    )
    .unwrap();
    assert!(newer["$defs"]["QueueSpec"]["properties"]
        .get("deadLetter")
        .is_some());

    // A second run writes nothing.
    let (_, again) = &regen::regen_from_rust(&crate_dir, out.path(), Mode::Write).unwrap()[0];
    assert!(again.is_clean());

    // The Pkl examples of every minor evaluate with the real pkl CLI.
    let pkl = pkl::pkl();
    let examples = dir.join("pkl/examples");
    for minor in ["v2.3", "v2.4", "v2.5", "v2.6"] {
        pkl.eval_json(&examples, &[&format!("{minor}.pkl")]);
    }
}

#[test]
fn annotation_mistakes_name_the_file_and_line() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(tmp.path().join("src")).unwrap();
    std::fs::write(
        tmp.path().join("Cargo.toml"),
        "[package]\nname = \"p\"\nversion = \"0.0.0\"\n",
    )
    .unwrap();
    std::fs::write(
        tmp.path().join("src/lib.rs"),
        "#[vergate::versioned(minors = \"1.0..=1.2\")]\nmod api {\n    pub struct A {\n        #[introduced_in(\"1.7\")]\n        pub b: Option<String>,\n    }\n}\n",
    )
    .unwrap();
    let err = regen::regen_from_rust(tmp.path(), &tmp.path().join("out"), Mode::Write)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("src/lib.rs:4: 1.7 is outside this module's minors"),
        "{err}"
    );
    assert!(!tmp.path().join("out").exists(), "nothing is written");
}
