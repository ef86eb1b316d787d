//! vergate's Kubernetes schemas in the editor: the real yaml-language-server
//! (npm, installed by `.ci/run`) driven over stdio as an editor drives it
//! (initialize, the `yaml.schemas` setting or a modeline, didOpen, hover,
//! completion), with the per-minor strict `all.json` of
//! `generated/kubernetes`. It must say what vergate knows: the minor that
//! introduces a field, its stage, that a field is deprecated; and it must be
//! fast enough to type with (docs/editor.md, docs/benchmarks.md).

#[path = "editor/lsp.rs"]
mod lsp;
mod support;

use lsp::Server;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

const SERVICE: &str = "\
apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  selector:
    app: web
  ports:
    - port: 80
  trafficDistribution: PreferClose
";

/// The line of `trafficDistribution` in [`SERVICE`] (zero-based).
const TRAFFIC_LINE: u32 = 9;

/// A workspace with one directory per minor, each associated with that
/// minor's strict `all.json` in the settings, as docs/editor.md sets up a
/// repository pinned to one minor.
struct Workspace {
    dir: tempfile::TempDir,
    server: Server,
}

impl Workspace {
    fn new(output: PathBuf, script: PathBuf, minors: &[&str]) -> Workspace {
        let dir = workspace_dir();
        // The settings `vergate editor` prints for VS Code, one minor per
        // directory.
        let mut schemas = serde_json::Map::new();
        for minor in minors {
            std::fs::create_dir(dir.path().join(minor)).unwrap();
            let glob = format!("{minor}/*.yaml");
            let printed = vergate_editor(&output, &["--target", minor, "--glob", &glob]);
            let settings: Value = serde_json::from_str(&printed).unwrap();
            let Some(Value::Object(entries)) = settings.get("yaml.schemas") else {
                panic!("no yaml.schemas in {printed}")
            };
            schemas.extend(entries.clone());
        }
        let settings = json!({
            "schemas": schemas,
            "validate": true,
            "hover": true,
            "completion": true,
            // No download of schemastore.org's catalog: the tests are offline.
            "schemaStore": { "enable": false },
        });
        let server = Server::start(&script, dir.path(), settings);
        Workspace { dir, server }
    }

    fn path(&self, minor: &str, name: &str) -> PathBuf {
        self.dir.path().join(minor).join(name)
    }
}

/// What `vergate editor --api <output> <args>` prints.
fn vergate_editor(output: &Path, args: &[&str]) -> String {
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_vergate"))
        .arg("editor")
        .arg("--api")
        .arg(output)
        .args(args)
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    String::from_utf8(run.stdout).unwrap()
}

/// A temporary directory whose path has no hidden component: the server's
/// globs (picomatch, `dot: false`) never match below one, so `**/1.29/*.yaml`
/// would not match in tempfile's usual `.tmpXXXX`.
fn workspace_dir() -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix("vergate-editor-")
        .tempdir()
        .unwrap()
}

fn messages(diagnostics: &[Value]) -> Vec<String> {
    diagnostics
        .iter()
        .map(|d| d["message"].as_str().unwrap_or_default().to_owned())
        .collect()
}

fn line_of(diagnostic: &Value) -> u64 {
    diagnostic["range"]["start"]["line"].as_u64().unwrap()
}

#[test]
#[cfg_attr(
    not(all(vergate_kubernetes_output, vergate_yaml_language_server)),
    ignore = "needs generated/kubernetes: cargo xtask regen --api kubernetes; needs yaml-language-server: target/tools (see .ci/run) or VERGATE_YAML_LANGUAGE_SERVER"
)]
fn a_field_of_a_later_minor_is_flagged_naming_the_minor_and_its_stage() {
    let mut workspace = Workspace::new(
        support::kubernetes_output(),
        support::yaml_language_server(),
        &["1.29", "1.34"],
    );
    let old = workspace.path("1.29", "service.yaml");
    let (found, _) = workspace.server.open(&old, SERVICE);
    let texts = messages(&found);
    assert_eq!(
        texts,
        ["trafficDistribution is not available in 1.29; introduced in 1.30 (alpha, feature gate ServiceTrafficDistribution)"],
        "{found:?}"
    );
    assert_eq!(line_of(&found[0]), u64::from(TRAFFIC_LINE));
    // The same document is fine against 1.34, whose hover tells the history.
    let new = workspace.path("1.34", "service.yaml");
    let (found, _) = workspace.server.open(&new, SERVICE);
    assert_eq!(found, Vec::<Value>::new());
    let hover = workspace.server.hover(&new, TRAFFIC_LINE, 4);
    assert!(
        hover.contains(
            "Introduced in 1.30 (alpha, feature gate ServiceTrafficDistribution) · beta 1.31 · GA 1.33"
        ),
        "{hover}"
    );
}

#[test]
#[cfg_attr(
    not(all(vergate_kubernetes_output, vergate_yaml_language_server)),
    ignore = "needs generated/kubernetes: cargo xtask regen --api kubernetes; needs yaml-language-server: target/tools (see .ci/run) or VERGATE_YAML_LANGUAGE_SERVER"
)]
fn completion_offers_the_minors_fields_with_their_lifecycle() {
    let mut workspace = Workspace::new(
        support::kubernetes_output(),
        support::yaml_language_server(),
        &["1.29", "1.34"],
    );
    let typing = "apiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  selector:\n    app: web\n  traf";
    let label = |item: &Value| item["label"].as_str().unwrap_or_default().to_owned();
    let new = workspace.path("1.34", "typing.yaml");
    workspace.server.open(&new, typing);
    let items = workspace.server.completion(&new, 7, 6);
    let item = items
        .iter()
        .find(|item| label(item) == "trafficDistribution")
        .unwrap_or_else(|| {
            panic!(
                "no trafficDistribution in {:?}",
                items.iter().map(label).collect::<Vec<_>>()
            )
        });
    let documentation = match &item["documentation"] {
        Value::String(text) => text.clone(),
        other => other["value"].as_str().unwrap_or_default().to_owned(),
    };
    assert!(
        documentation
            .contains("Introduced in 1.30 (alpha, feature gate ServiceTrafficDistribution)"),
        "{item}"
    );
    // 1.29 does not offer it (its schema lists it only to refuse it).
    let old = workspace.path("1.29", "typing.yaml");
    workspace.server.open(&old, typing);
    let items = workspace.server.completion(&old, 7, 6);
    let labels: Vec<String> = items.iter().map(label).collect();
    assert!(labels.iter().any(|l| l == "type"), "{labels:?}");
    assert!(
        !labels.iter().any(|l| l == "trafficDistribution"),
        "{labels:?}"
    );
}

#[test]
#[cfg_attr(
    not(all(vergate_kubernetes_output, vergate_yaml_language_server)),
    ignore = "needs generated/kubernetes: cargo xtask regen --api kubernetes; needs yaml-language-server: target/tools (see .ci/run) or VERGATE_YAML_LANGUAGE_SERVER"
)]
fn a_deprecated_field_is_marked_deprecated() {
    let mut workspace = Workspace::new(
        support::kubernetes_output(),
        support::yaml_language_server(),
        &["1.34"],
    );
    let pod = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: build\nspec:\n  serviceAccount: builder\n  containers:\n    - name: c\n      image: nginx\n";
    let path = workspace.path("1.34", "pod.yaml");
    let (found, _) = workspace.server.open(&path, pod);
    assert_eq!(
        messages(&found),
        ["serviceAccount is deprecated since 1.28 or earlier"],
        "{found:?}"
    );
    assert_eq!(line_of(&found[0]), 5);
    // Completion no longer offers it; its replacement is offered.
    let typing = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: build\nspec:\n  serviceAcc";
    let path = workspace.path("1.34", "typing.yaml");
    workspace.server.open(&path, typing);
    let labels: Vec<String> = workspace
        .server
        .completion(&path, 5, 12)
        .iter()
        .map(|item| item["label"].as_str().unwrap_or_default().to_owned())
        .collect();
    assert!(
        labels.iter().any(|l| l == "serviceAccountName"),
        "{labels:?}"
    );
    assert!(!labels.iter().any(|l| l == "serviceAccount"), "{labels:?}");
}

#[test]
#[cfg_attr(
    not(all(vergate_kubernetes_output, vergate_yaml_language_server)),
    ignore = "needs generated/kubernetes: cargo xtask regen --api kubernetes; needs yaml-language-server: target/tools (see .ci/run) or VERGATE_YAML_LANGUAGE_SERVER"
)]
fn an_enum_value_of_a_later_minor_says_when_it_comes() {
    let mut workspace = Workspace::new(
        support::kubernetes_output(),
        support::yaml_language_server(),
        &["1.34"],
    );
    let pod = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: build\nspec:\n  tolerations:\n    - key: cpus\n      operator: Gt\n      value: \"4\"\n  containers:\n    - name: c\n      image: nginx\n";
    let path = workspace.path("1.34", "pod.yaml");
    let (found, _) = workspace.server.open(&path, pod);
    assert_eq!(
        messages(&found),
        ["Value is not accepted in 1.34. Valid values: \"Equal\", \"Exists\". \"Gt\" is not available in 1.34; introduced in 1.35. \"Lt\" is not available in 1.34; introduced in 1.35."],
        "{found:?}"
    );
    assert_eq!(line_of(&found[0]), 7);
}

#[test]
#[cfg_attr(
    not(all(vergate_kubernetes_output, vergate_yaml_language_server)),
    ignore = "needs generated/kubernetes: cargo xtask regen --api kubernetes; needs yaml-language-server: target/tools (see .ci/run) or VERGATE_YAML_LANGUAGE_SERVER"
)]
fn a_multi_document_file_flags_only_the_document_at_fault() {
    let mut workspace = Workspace::new(
        support::kubernetes_output(),
        support::yaml_language_server(),
        &["1.29"],
    );
    let config_map =
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  mode: fast\n";
    let fine_service = SERVICE.replace(
        "  trafficDistribution: PreferClose\n",
        "  type: ClusterIP\n",
    );
    let text = format!("{fine_service}---\n{config_map}---\n{SERVICE}");
    let first_line_of_third =
        (fine_service.lines().count() + 1 + config_map.lines().count() + 1) as u64;
    let path = workspace.path("1.29", "app.yaml");
    let (found, _) = workspace.server.open(&path, &text);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(
        line_of(&found[0]),
        first_line_of_third + u64::from(TRAFFIC_LINE)
    );
    assert!(
        messages(&found)[0].contains("introduced in 1.30"),
        "{found:?}"
    );
}

#[test]
#[cfg_attr(
    not(all(vergate_kubernetes_output, vergate_yaml_language_server)),
    ignore = "needs generated/kubernetes: cargo xtask regen --api kubernetes; needs yaml-language-server: target/tools (see .ci/run) or VERGATE_YAML_LANGUAGE_SERVER"
)]
fn a_modeline_picks_the_schema_of_one_file() {
    let output = support::kubernetes_output();
    let script = support::yaml_language_server();
    let dir = workspace_dir();
    // No `yaml.schemas` at all: the file names its schema.
    let mut server = Server::start(
        &script,
        dir.path(),
        json!({ "validate": true, "schemaStore": { "enable": false } }),
    );
    let modeline = vergate_editor(
        &output,
        &["--target", "1.29", "--editor", "modeline", "--yaml-only"],
    );
    assert_eq!(
        modeline,
        format!(
            "# yaml-language-server: $schema={}/json/v1.29-strict/all.json\n",
            output.display()
        )
    );
    let text = format!("{modeline}{SERVICE}");
    let (found, _) = server.open(&dir.path().join("service.yaml"), &text);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        messages(&found)[0].contains("introduced in 1.30"),
        "{found:?}"
    );
}

/// Time to first diagnostics on a 300-line file (ten Deployments and a
/// Service of another minor), as an editor opening it sees: the server
/// loads `all.json` and the kind files it needs, then validates. The figure
/// is printed (`cargo test --test editor_yaml_ls -- --nocapture`) and kept
/// in docs/benchmarks.md; the bound only catches a server that cannot be
/// typed with.
#[test]
#[cfg_attr(
    not(all(vergate_kubernetes_output, vergate_yaml_language_server)),
    ignore = "needs generated/kubernetes: cargo xtask regen --api kubernetes; needs yaml-language-server: target/tools (see .ci/run) or VERGATE_YAML_LANGUAGE_SERVER"
)]
fn first_diagnostics_on_a_300_line_file_come_fast_enough_to_type_with() {
    let mut workspace = Workspace::new(
        support::kubernetes_output(),
        support::yaml_language_server(),
        &["1.29"],
    );
    let text = three_hundred_lines();
    assert_eq!(text.lines().count(), 300);
    let path = workspace.path("1.29", "big.yaml");
    let (found, took) = workspace.server.open(&path, &text);
    assert_eq!(found.len(), 1, "{found:?}");
    // A second file: the schemas are loaded, only validation is left.
    let again = workspace.path("1.29", "big-again.yaml");
    let (_, warm) = workspace.server.open(&again, &text);
    eprintln!(
        "yaml-language-server, 300-line file against v1.29-strict/all.json: first diagnostics in {} ms (schemas loaded: {} ms)",
        took.as_millis(),
        warm.as_millis()
    );
    assert!(took.as_secs() < 20, "first diagnostics took {took:?}");
}

/// Ten Deployments of 29 lines, a Service (10 lines) using a 1.30 field.
fn three_hundred_lines() -> String {
    let mut text = String::new();
    for n in 0..10 {
        text.push_str(&format!(
            "apiVersion: apps/v1
kind: Deployment
metadata:
  name: web-{n}
  labels:
    app: web-{n}
spec:
  replicas: 2
  selector:
    matchLabels:
      app: web-{n}
  template:
    metadata:
      labels:
        app: web-{n}
    spec:
      containers:
        - name: web
          image: nginx:1.27
          ports:
            - containerPort: 80
          resources:
            limits:
              cpu: 500m
              memory: 128Mi
          env:
            - name: MODE
              value: fast
---
"
        ));
    }
    text.push_str(SERVICE);
    text
}
