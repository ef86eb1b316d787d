//! The demo's unions (the Notifier kind, 1.11 and 1.12) judged by real
//! tools: the JSON Schemas (both trees) accept documents of every member and
//! refuse ones no member (or, for a oneOf, more than one) accepts, with the
//! `jsonschema` crate; Pkl, with the real pkl CLI, evaluates a Notifier
//! built from each kind of member and refuses a member whose discriminator
//! is wrong, a member the minor lacks and a value of no member's type.
//! (`vergate check` on the same documents: `tests/cli_unions.rs`; the Rust
//! enums: `tests/rust_output.rs`.)

mod pkl;
mod support;

use serde_json::{json, Value};
use std::path::Path;

fn schema(path: &str) -> jsonschema::Validator {
    let text = std::fs::read(support::root().join("generated/demo/json").join(path)).unwrap();
    jsonschema::validator_for(&serde_json::from_slice(&text).unwrap()).unwrap()
}

fn notifier(minor: &str, spec: Value) -> Value {
    json!({"apiVersion": minor, "kind": "Notifier", "metadata": {"name": "n"}, "spec": spec})
}

/// The documents of `tests/cli/unions/good.yaml`, as JSON.
fn good_documents() -> Vec<Value> {
    let text = std::fs::read_to_string(support::root().join("tests/cli/unions/good.yaml")).unwrap();
    let parsed = vergate::document::parse(&text);
    assert!(parsed.error.is_none());
    parsed
        .documents
        .iter()
        .map(|doc| doc.root.to_json())
        .collect()
}

#[test]
fn json_schemas_accept_every_member() {
    let documents = good_documents();
    assert_eq!(documents.len(), 2);
    for document in documents {
        let minor = document["apiVersion"].as_str().unwrap().to_owned();
        for tree in [format!("v{minor}"), format!("v{minor}-strict")] {
            let validator = schema(&format!("{tree}/notifier-notify-v1.json"));
            let errors: Vec<String> = validator
                .iter_errors(&document)
                .map(|e| e.to_string())
                .collect();
            assert!(errors.is_empty(), "{tree}: {errors:?}\n{document:#}");
        }
    }
    // A whole number is a `retries` (integer member) and a `priority`.
    let spec = json!({"retries": 5, "priority": 2, "delay": 0.5, "timeoutSeconds": 30});
    assert!(schema("v1.11/notifier-notify-v1.json").is_valid(&notifier("1.11", spec)));
}

#[test]
fn json_schemas_refuse_what_no_member_accepts() {
    let cases = [
        (
            "1.11",
            json!({"channel": {"type": "webhook", "url": "https://x"}}),
            "Webhook is a member from 1.12",
        ),
        (
            "1.12",
            json!({"channel": {"type": "slack", "to": ["a"]}}),
            "a Slack needs its channel",
        ),
        (
            "1.12",
            json!({"channel": {"type": "email", "channel": "x"}}),
            "the discriminator picks Email",
        ),
        (
            "1.12",
            json!({"channel": {"channel": "x"}}),
            "no discriminator",
        ),
        (
            "1.12",
            json!({"fallback": {"via": "pager"}}),
            "an unknown discriminator value",
        ),
        (
            "1.12",
            json!({"retries": [3]}),
            "a list is no member of retries",
        ),
        (
            "1.12",
            json!({"priority": true}),
            "a boolean is neither integer nor string",
        ),
        (
            "1.12",
            json!({"delay": 5}),
            "a whole number matches both members of the oneOf",
        ),
        ("1.12", json!({"format": "html"}), "const"),
    ];
    for (minor, spec, why) in cases {
        let document = notifier(minor, spec);
        for tree in [format!("v{minor}"), format!("v{minor}-strict")] {
            let validator = schema(&format!("{tree}/notifier-notify-v1.json"));
            assert!(
                !validator.is_valid(&document),
                "{tree} accepts it, but {why}:\n{document:#}"
            );
        }
    }
}

/// Evaluates `body` (a Notifier amending the `minor`'s module) in the user
/// project `project`; the output, or pkl's error.
fn eval_notifier(pkl: &pkl::Pkl, project: &Path, minor: &str, body: &str) -> Result<Value, String> {
    let text = format!(
        "amends \"@shipyard/v{minor}/notify/Notifier.pkl\"\n\
         import \"@shipyard/v{minor}/notify/v1.pkl\" as notify\n\n\
         metadata {{ name = \"n\" }}\n{body}\n"
    );
    std::fs::write(project.join("notifier.pkl"), text).unwrap();
    let output = pkl.eval(project, &["notifier.pkl"]);
    if output.status.success() {
        Ok(serde_json::from_slice(&output.stdout).unwrap())
    } else {
        Err(String::from_utf8_lossy(&output.stderr).into_owned())
    }
}

#[test]
#[cfg_attr(
    not(vergate_pkl),
    ignore = "needs the pkl CLI: target/tools (see .ci/run) or VERGATE_PKL"
)]
fn pkl_takes_every_member_and_refuses_the_wrong_one() {
    let pkl = pkl::pkl();
    let project = pkl::user_project(&pkl, "shipyard", &pkl::root().join("generated/demo/pkl"));
    let eval = |minor: &str, body: &str| eval_notifier(&pkl, project.path(), minor, body);
    let good = eval(
        "1.12",
        r#"spec {
  channel = new notify.Webhook { type = "webhook"; url = "https://x" }
  fallback = new notify.Sms { via = "dev.shipyard.notify.v1.Sms"; number = "1" }
  retries = new notify.NotifierSpecRetriesOption3 { max = 3 }
  priority = "high"
  delay = 2.5
  format = "text"
}"#,
    )
    .unwrap();
    assert_eq!(
        good["spec"],
        json!({
            "channel": {"type": "webhook", "url": "https://x"},
            "delay": 2.5,
            "fallback": {"number": "1", "via": "dev.shipyard.notify.v1.Sms"},
            "format": "text",
            "priority": "high",
            "retries": {"max": 3}
        })
    );
    // The same document is one the JSON Schema of its minor accepts.
    assert!(schema("v1.12-strict/notifier-notify-v1.json").is_valid(&good));
    let scalars = eval("1.11", "spec {\n  retries = 5\n  priority = 2\n}").unwrap();
    assert_eq!(scalars["spec"], json!({"priority": 2, "retries": 5}));

    let bad = [
        (
            "1.12",
            r#"spec { channel = new notify.Slack { type = "email"; channel = "x" } }"#,
            "type == \"slack\"",
        ),
        (
            "1.12",
            r#"spec { fallback = new notify.Pager { via = "pager" } }"#,
            "via == \"dev.shipyard.notify.v1.Pager\"",
        ),
        (
            "1.11",
            r#"spec { channel = new notify.Webhook { type = "webhook"; url = "x" } }"#,
            "Webhook",
        ),
        ("1.12", "spec { priority = true }", "NotifierSpecPriority"),
        ("1.12", r#"spec { format = "html" }"#, "\"text\""),
    ];
    for (minor, body, fragment) in bad {
        let error = eval(minor, body).expect_err(body);
        assert!(
            error.contains(fragment),
            "{body}: pkl's error lacks {fragment:?}:\n{error}"
        );
    }
}

#[test]
fn gates_json_gives_each_member_its_gate_and_the_discriminator() {
    let text = std::fs::read_to_string(support::root().join("generated/demo/gates.json")).unwrap();
    let index: vergate::gates::GatesIndex = serde_json::from_str(&text).unwrap();
    let channel = index.types["dev.shipyard.notify.v1.Channel"]
        .union
        .as_ref()
        .unwrap();
    assert_eq!(channel.kind, vergate::gates::UnionKind::OneOf);
    let webhook: vergate::gates::TypeExpr = "dev.shipyard.notify.v1.Webhook".parse().unwrap();
    assert_eq!(
        channel.members[&webhook].introduced_in,
        "1.12".parse().unwrap()
    );
    let in_1_11: Vec<String> = channel
        .members_in("1.11".parse().unwrap())
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        in_1_11,
        [
            "dev.shipyard.notify.v1.Slack",
            "dev.shipyard.notify.v1.Email"
        ]
    );
    let discriminator = channel.discriminator.as_ref().unwrap();
    assert_eq!(discriminator.property, "type");
    assert_eq!(
        discriminator.mapping["webhook"],
        "dev.shipyard.notify.v1.Webhook"
    );
    // Without a mapping, a member is picked by its definition's name.
    let fallback = index.types["dev.shipyard.notify.v1.Fallback"]
        .union
        .as_ref()
        .unwrap();
    let mapping = &fallback.discriminator.as_ref().unwrap().mapping;
    assert_eq!(
        mapping["dev.shipyard.notify.v1.Sms"],
        "dev.shipyard.notify.v1.Sms"
    );
    // An untagged anyOf of scalars and a hoisted object, in spec order.
    let retries = index.types["dev.shipyard.notify.v1.NotifierSpecRetries"]
        .union
        .as_ref()
        .unwrap();
    let order: Vec<String> = retries.order.iter().map(ToString::to_string).collect();
    assert_eq!(
        order,
        [
            "integer(int32)",
            "string",
            "dev.shipyard.notify.v1.NotifierSpecRetriesOption3"
        ]
    );
    // The JSON Schema of 1.12 carries the member's gate.
    let definitions: Value = serde_json::from_str(
        &std::fs::read_to_string(
            support::root().join("generated/demo/json/v1.12/_definitions.json"),
        )
        .unwrap(),
    )
    .unwrap();
    let members = definitions["$defs"]["dev.shipyard.notify.v1.Channel"]["oneOf"]
        .as_array()
        .unwrap();
    assert_eq!(members[2]["x-vergate"]["introduced_in"], "1.12");
    assert_eq!(members[2]["properties"]["type"]["enum"], json!(["webhook"]));
}
