//! The generated Rust crates, judged by rustc: the committed demo crate
//! builds with every minor under `-D warnings`; the Kubernetes crate
//! (git-ignored; CI regenerates it before the tests) builds with one minor
//! and with all nine, and the manifests of `tests/manifests/kubernetes/`
//! round-trip through each minor they are valid in and fail strict decoding,
//! naming the field, in the minors that lack one of their fields.
//!
//! Each build is a small harness crate under `target/generated/<api>/` that
//! depends on `generated/<api>/rust` by path, so no Cargo.lock or target/
//! ever lands inside `generated/`.

mod support;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

const KUBERNETES_MINORS: [u32; 9] = [28, 29, 30, 31, 32, 33, 34, 35, 36];

/// Writes a harness crate: a manifest depending on `deps`, and `main.rs`.
/// The package is named after its directory, so that harnesses sharing a
/// target directory (the tests run in parallel) never overwrite each
/// other's binary.
fn harness(dir: &Path, deps: &str, main: &str) {
    std::fs::create_dir_all(dir.join("src")).unwrap();
    let name = dir.file_name().unwrap().to_string_lossy();
    let manifest = format!(
        "[package]\nname = \"{name}\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n\
         [workspace]\n\n[dependencies]\n{deps}"
    );
    write_if_changed(&dir.join("Cargo.toml"), &manifest);
    write_if_changed(&dir.join("src/main.rs"), main);
}

fn write_if_changed(path: &Path, text: &str) {
    if std::fs::read_to_string(path).ok().as_deref() != Some(text) {
        std::fs::write(path, text).unwrap();
    }
}

/// `cargo <args>` in the harness with warnings denied; panics with cargo's
/// output when it fails; returns stdout.
fn cargo(dir: &Path, target_dir: &Path, args: &[&str]) -> String {
    let output = support::harness_cargo()
        .args(args)
        .arg("--quiet")
        .arg("--manifest-path")
        .arg(dir.join("Cargo.toml"))
        .arg("--target-dir")
        .arg(target_dir)
        .env("RUSTFLAGS", "-D warnings")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "cargo {args:?} in {} failed:\n{stdout}\n{}",
        dir.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    stdout
}

/// Builds and runs the harness `name`, which depends on the Kubernetes
/// crate at `output` with `features` (and on `extra`, manifest lines), with
/// warnings denied; returns what it prints.
fn run_on_kubernetes(
    output: &Path,
    name: &str,
    features: &[&str],
    extra: &str,
    main: &str,
) -> String {
    let krate = output.join("rust");
    let work = support::root().join("target/generated/kubernetes");
    let dir = work.join(name);
    let features: Vec<String> = features.iter().map(|f| format!("\"{f}\"")).collect();
    let deps = format!(
        "vergate-kubernetes = {{ path = \"{}\", default-features = false, features = [{}] }}\n{extra}",
        toml_path(&krate),
        features.join(", ")
    );
    harness(&dir, &deps, main);
    cargo(&dir, &work.join("target"), &["run"])
}

/// The features of the typed-value tests (`jiff`, `bytes`, `Quantity`):
/// one build of the crate serves the three (cargo shares an artifact whose
/// features are the same), where each of its own cost a minute of CI.
const TYPED_FEATURES: &[&str] = &["v1_34", "jiff", "bytes"];

/// The features of the kube-rs tests (`kube::Api`, schemars CRDs), one
/// build for both for the same reason.
const KUBE_FEATURES: &[&str] = &["v1_33", "v1_34", "kube", "schemars"];

/// Every minor and `conversions`: the manifests round trip and the
/// conversions test share this build.
fn all_minors_and_conversions() -> Vec<String> {
    let mut features: Vec<String> = KUBERNETES_MINORS
        .iter()
        .map(|minor| format!("v1_{minor}"))
        .collect();
    features.push("conversions".into());
    features
}

/// The other dependencies of those two harnesses (alike, so that cargo
/// unifies the same features and builds the crate once).
fn runtime_deps(root: &Path) -> String {
    format!(
        "vergate = {{ path = \"{}\" }}\nserde = \"1\"\nserde_json = \"1\"\n",
        toml_path(root)
    )
}

fn toml_path(path: &Path) -> String {
    path.display().to_string().replace('\\', "/")
}

#[test]
fn the_demo_crate_builds_with_every_minor_and_no_warning() {
    let root = support::root();
    let work = root.join("target/generated/demo");
    let dir = work.join("harness");
    let deps = format!(
        "vergate-demo = {{ path = \"{}\", features = [\"v1_9\", \"v1_10\", \"v1_11\", \"v1_12\"] }}\nserde_json = \"1\"\n",
        toml_path(&root.join("generated/demo/rust"))
    );
    // Shapes shared across minors are one type; the two `Target`s are
    // group-qualified in the prelude; keywords and odd names round-trip.
    let main = r##"
use vergate_demo::{v1_9, v1_11, v1_12};

fn same<T>(_: T, _: T) {}

fn main() {
    let old = v1_9::build::v1::Target { os: None, arch: Some("arm64".into()) };
    let new: v1_12::build::v1::Target = old.clone();
    same(old, new);
    let _: v1_12::prelude::build_Target_v1 = v1_12::build::v1::Target { os: None, arch: None };
    let _: v1_12::prelude::deploy_Target_v1 = serde_json::from_str("{\"cluster\":\"eu\"}").unwrap();
    let step: v1_11::build::v1::Step = serde_json::from_str(
        r#"{"name":"s","type":"script","move":["a"],"steps":[{"name":"inner"}]}"#,
    )
    .unwrap();
    let text = serde_json::to_string(&step).unwrap();
    assert_eq!(text, r#"{"move":["a"],"name":"s","steps":[{"name":"inner"}],"type":"script"}"#);
    // The written-out serde impls: required, duplicate, null, enum values.
    let err = |json: &str| serde_json::from_str::<v1_11::build::v1::Step>(json).unwrap_err().to_string();
    assert!(err(r#"{"type":"script"}"#).contains("missing field `name`"));
    assert!(err(r#"{"name":"a","name":"b"}"#).contains("duplicate field `name`"));
    assert!(err(r#"{"name":1}"#).contains("invalid type: integer `1`, expected a string"));
    assert!(err("[]").contains("expected an object Step"));
    let step: v1_11::build::v1::Step = serde_json::from_str(r#"{"name":"s","type":null,"extra":{"a":[1]}}"#).unwrap();
    assert_eq!(step.r#type, None);
    assert_eq!(serde_json::to_string(&step).unwrap(), r#"{"name":"s"}"#);
    let strategy: v1_12::prelude::Strategy = serde_json::from_str("\"BlueGreen\"").unwrap();
    assert_eq!(strategy, v1_12::prelude::Strategy::BlueGreen);
    assert_eq!(serde_json::to_string(&strategy).unwrap(), "\"BlueGreen\"");
    let err = serde_json::from_str::<v1_11::prelude::Strategy>("\"BlueGreen\"").unwrap_err().to_string();
    assert!(err.contains("unknown variant `BlueGreen`, expected `Recreate` or `RollingUpdate`"), "{err}");
    assert_eq!(v1_12::prelude::Strategy::default(), v1_12::prelude::Strategy::Recreate);
    // Unions: the discriminator picks the member (with a mapping, or by the
    // member's name); untagged ones take the first member that decodes.
    use vergate_demo::v1_12::notify::v1::{Channel, Fallback, NotifierSpecPriority, NotifierSpecRetries};
    let text = r#"{"apiVersion":"1.12","kind":"Notifier","metadata":{"name":"n"},"spec":{"channel":{"type":"webhook","url":"https://x"},"delay":2.5,"fallback":{"number":"1","via":"dev.shipyard.notify.v1.Sms"},"priority":"high","retries":{"max":3}}}"#;
    let notifier: v1_12::notify::v1::Notifier = serde_json::from_str(text).unwrap();
    let spec = &notifier.spec;
    assert!(matches!(spec.channel.as_ref().unwrap(), Channel::Webhook(hook) if hook.url == "https://x"));
    assert!(matches!(spec.fallback.as_ref().unwrap(), Fallback::Sms(sms) if sms.number == "1"));
    assert!(matches!(spec.retries.as_ref().unwrap(), NotifierSpecRetries::NotifierSpecRetriesOption3(policy) if policy.max == Some(3)));
    assert!(matches!(spec.priority.as_ref().unwrap(), NotifierSpecPriority::String(word) if word == "high"));
    assert_eq!(serde_json::to_string(&notifier).unwrap(), text);
    let retries: NotifierSpecRetries = serde_json::from_str("5").unwrap();
    assert!(matches!(retries, NotifierSpecRetries::Integer(5)));
    assert_eq!(serde_json::to_string(&retries).unwrap(), "5");
    let err = |json: &str| serde_json::from_str::<v1_11::notify::v1::Channel>(json).unwrap_err().to_string();
    assert!(err(r#"{"type":"webhook","url":"x"}"#).contains(r#"Channel: unknown type "webhook"; expected one of ["email", "slack"]"#));
    assert!(err(r#"{"channel":"x"}"#).contains("the discriminator property `type` is missing"));
    assert!(err(r#"{"type":"slack"}"#).contains("missing field `channel`"));
    let err = serde_json::from_str::<NotifierSpecRetries>("[1]").unwrap_err().to_string();
    assert!(err.contains("NotifierSpecRetries: the value matches no member; as Integer: "), "{err}");
    assert!(matches!(Channel::default(), Channel::Slack(_)));
    println!("ok");
}
"##;
    harness(&dir, &deps, main);
    let out = cargo(&dir, &work.join("target"), &["run"]);
    assert_eq!(out.trim(), "ok");
}

/// One manifest file: its documents (as JSON text) and the minors it is
/// valid in (its `# minors:` header).
struct Manifest {
    name: String,
    documents: Vec<serde_json::Value>,
    minors: Vec<u32>,
}

fn manifests() -> Vec<Manifest> {
    let dir = support::root().join("tests/manifests/kubernetes");
    let mut out = Vec::new();
    let mut entries: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    entries.sort();
    for path in entries {
        let text = std::fs::read_to_string(&path).unwrap();
        let header = text.lines().next().unwrap_or_default();
        let minors = parse_minors(header).unwrap_or_else(|| {
            panic!("{}: first line is not a `# minors:` header", path.display())
        });
        let documents = serde_yaml_ng::Deserializer::from_str(&text)
            .map(|doc| serde::Deserialize::deserialize(doc).unwrap())
            .collect();
        out.push(Manifest {
            name: path.file_name().unwrap().to_string_lossy().into_owned(),
            documents,
            minors,
        });
    }
    out
}

/// `# minors: 1.30..=1.36` or `# minors: 1.28, 1.30`.
fn parse_minors(header: &str) -> Option<Vec<u32>> {
    let spec = header.strip_prefix("# minors:")?.trim();
    let minor = |s: &str| s.trim().strip_prefix("1.")?.parse::<u32>().ok();
    if let Some((from, to)) = spec.split_once("..=") {
        return Some((minor(from)?..=minor(to)?).collect());
    }
    spec.split(',').map(minor).collect()
}

/// The module path of a kind: `networking.k8s.io/v1` → `networking::v1`,
/// `v1` → `core::v1` (docs/rust.md, "Layout").
fn kind_path(api_version: &str, kind: &str) -> String {
    let (group, version) = api_version.split_once('/').unwrap_or(("", api_version));
    let label = group
        .split('.')
        .next()
        .filter(|l| !l.is_empty())
        .unwrap_or("core");
    format!("{label}::{version}::{kind}")
}

fn document_kind(document: &serde_json::Value) -> (String, String) {
    let field = |key: &str| document[key].as_str().unwrap_or_default().to_owned();
    (field("apiVersion"), field("kind"))
}

#[test]
#[cfg_attr(
    not(vergate_kubernetes_output),
    ignore = "needs generated/kubernetes: cargo xtask regen --api kubernetes"
)]
fn the_kubernetes_crate_builds_with_one_minor() {
    let krate = support::kubernetes_output().join("rust");
    let work = support::root().join("target/generated/kubernetes");
    let dir = work.join("one-minor");
    let deps = format!(
        "vergate-kubernetes = {{ path = \"{}\", default-features = false, features = [\"v1_34\"] }}\nserde_json = \"1\"\n",
        toml_path(&krate)
    );
    // List envelopes are the generic `List<T, M>`: same wire form.
    let main = r##"
use vergate_kubernetes::v1_34::{apps::v1::{Deployment, DeploymentList}, meta::v1::ListMeta};
use vergate_kubernetes::List;

fn main() {
    let json = r#"{"apiVersion":"apps/v1","items":[{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"}}],"kind":"DeploymentList","metadata":{"resourceVersion":"7"}}"#;
    let list: DeploymentList = serde_json::from_str(json).unwrap();
    let _: &List<Deployment, ListMeta> = &list;
    assert_eq!(list.items[0].metadata.as_ref().unwrap().name.as_deref(), Some("web"));
    assert_eq!(serde_json::to_string(&list).unwrap(), json);
    let err = serde_json::from_str::<DeploymentList>(r#"{"kind":"DeploymentList"}"#).unwrap_err();
    assert!(err.to_string().contains("missing field `items`"), "{err}");
    println!("ok");
}
"##;
    harness(&dir, &deps, main);
    let out = cargo(&dir, &work.join("target"), &["run"]);
    assert_eq!(out.trim(), "ok");
}

/// Rustdoc reads the upstream descriptions as Markdown: with every minor on,
/// it documents the crate without a warning (no `[0-9]` taken for a broken
/// link, no `<fieldName>` for an unclosed HTML tag, no bare URL) and runs
/// no doctest.
#[test]
#[cfg_attr(
    not(vergate_kubernetes_output),
    ignore = "needs generated/kubernetes: cargo xtask regen --api kubernetes"
)]
fn the_kubernetes_crate_documents_without_warnings() {
    let krate = support::kubernetes_output().join("rust");
    // Through a harness, so that cargo writes its lock file there and not
    // into generated/.
    let work = support::root().join("target/generated/kubernetes");
    let dir = work.join("doc-harness");
    let target = work.join("doc");
    let features: Vec<String> = KUBERNETES_MINORS
        .iter()
        .map(|m| format!("\"v1_{m}\""))
        .collect();
    let deps = format!(
        "vergate-kubernetes = {{ path = \"{}\", default-features = false, features = [{}] }}\n",
        toml_path(&krate),
        features.join(", ")
    );
    harness(&dir, &deps, "fn main() {}\n");
    let output = support::harness_cargo()
        .args(["doc", "--quiet", "--no-deps", "-p", "vergate-kubernetes"])
        .arg("--manifest-path")
        .arg(dir.join("Cargo.toml"))
        .arg("--target-dir")
        .arg(&target)
        .env("RUSTDOCFLAGS", "-D warnings")
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "cargo doc on {} failed:\n{}",
        krate.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    // Every page of PodSpec links the URL in runtimeClassName's description.
    let mut pages = Vec::new();
    let mut dirs = vec![target.join("doc/vergate_kubernetes")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.ends_with("core/v1/struct.PodSpec.html") {
                pages.push(path);
            }
        }
    }
    let mut checked = 0;
    for page in pages {
        let html = std::fs::read_to_string(&page).unwrap();
        if html.contains("<title>Redirection</title>") {
            continue;
        }
        checked += 1;
        // Upstream changed the link in 1.30.
        let linked = [
            "https://git.k8s.io/enhancements/keps/sig-node/585-runtime-class",
            "https://kubernetes.io/docs/concepts/containers/runtime-class/",
        ]
        .iter()
        .any(|url| html.contains(&format!("href=\"{url}\"")));
        assert!(
            linked,
            "{}: the URL in runtimeClassName's description is not a link",
            page.display()
        );
    }
    assert!(checked > 0, "no PodSpec page under {}", target.display());
}

/// Every manifest in every minor of v1.28 … v1.36, decoded strictly into
/// that minor's type: it must round-trip to equal JSON in the minors of its
/// header and fail in the others where the kind exists (with the unknown
/// field named where a field is the reason).
#[test]
#[cfg_attr(
    not(vergate_kubernetes_output),
    ignore = "needs generated/kubernetes: cargo xtask regen --api kubernetes"
)]
fn manifests_round_trip_in_their_minors_and_fail_strictly_elsewhere() {
    let krate = support::kubernetes_output().join("rust");
    let root = support::root();
    let manifests = manifests();
    assert!(
        manifests.len() >= 30,
        "expected the manifests of tests/manifests/kubernetes"
    );
    // The (apiVersion, kind)s each minor has: those of the manifests valid
    // in it (a manifest outside its range may name a kind a minor lacks).
    let mut kinds_of: std::collections::BTreeMap<
        u32,
        std::collections::BTreeSet<(String, String)>,
    > = Default::default();
    for manifest in &manifests {
        for minor in &manifest.minors {
            for document in &manifest.documents {
                kinds_of
                    .entry(*minor)
                    .or_default()
                    .insert(document_kind(document));
            }
        }
    }
    // The manifests include deprecated kinds (flowcontrol v1beta3 in
    // 1.29-1.31), which are `#[deprecated]` with the API server's warning.
    let mut main = String::from(
        "#![allow(deprecated)]\n\n\
         use vergate::versioned::{from_str_strict, StrictError};\n\n\
         /// Decodes strictly and re-encodes; `None` when the minor has no such kind.\n\
         fn check(minor: u32, api_version: &str, kind: &str, json: &str) -> Option<Result<serde_json::Value, String>> {\n\
         \x20   fn go<T: serde::Serialize + serde::de::DeserializeOwned>(json: &str) -> Result<serde_json::Value, String> {\n\
         \x20       match from_str_strict::<T>(json) {\n\
         \x20           Ok(value) => Ok(serde_json::to_value(&value).unwrap()),\n\
         \x20           Err(StrictError::UnknownFields(paths)) => Err(format!(\"unknown: {}\", paths.join(\", \"))),\n\
         \x20           Err(err) => Err(format!(\"decode: {err}\")),\n\
         \x20       }\n\
         \x20   }\n\
         \x20   Some(match (minor, api_version, kind) {\n",
    );
    for (minor, kinds) in &kinds_of {
        for (api_version, kind) in kinds {
            let _ = writeln!(
                main,
                "        ({minor}, {api_version:?}, {kind:?}) => go::<vergate_kubernetes::v1_{minor}::{}>(json),",
                kind_path(api_version, kind)
            );
        }
    }
    main.push_str(
        "        _ => return None,\n    })\n}\n\n\
         fn main() {\n\
         \x20   let input = std::io::read_to_string(std::io::stdin()).unwrap();\n\
         \x20   for line in input.lines() {\n\
         \x20       let mut parts = line.splitn(4, '\\t');\n\
         \x20       let minor: u32 = parts.next().unwrap().parse().unwrap();\n\
         \x20       let (api_version, kind, json) = (parts.next().unwrap(), parts.next().unwrap(), parts.next().unwrap());\n\
         \x20       let out = match check(minor, api_version, kind, json) {\n\
         \x20           None => \"absent\".to_owned(),\n\
         \x20           Some(Ok(value)) => format!(\"ok\\t{value}\"),\n\
         \x20           Some(Err(err)) => format!(\"err\\t{err}\"),\n\
         \x20       };\n\
         \x20       println!(\"{}\", out.replace('\\n', \" \"));\n\
         \x20   }\n\
         }\n",
    );
    let work = root.join("target/generated/kubernetes");
    let dir = work.join("manifests");
    // The features and dependencies of the conversions test, so that one
    // build of the crate serves both.
    let features: Vec<String> = all_minors_and_conversions()
        .iter()
        .map(|f| format!("\"{f}\""))
        .collect();
    let deps = format!(
        "vergate-kubernetes = {{ path = \"{}\", default-features = false, features = [{}] }}\n{}",
        toml_path(&krate),
        features.join(", "),
        runtime_deps(root)
    );
    harness(&dir, &deps, &main);
    cargo(&dir, &work.join("target"), &["build"]);
    // One line per (document, minor): minor, apiVersion, kind, JSON.
    let mut cases = Vec::new();
    let mut input = String::new();
    for manifest in &manifests {
        for (index, document) in manifest.documents.iter().enumerate() {
            let (api_version, kind) = document_kind(document);
            for minor in KUBERNETES_MINORS {
                let _ = writeln!(input, "{minor}\t{api_version}\t{kind}\t{document}");
                cases.push((manifest, index, minor, document));
            }
        }
    }
    let binary = work.join("target/debug/manifests");
    let mut child = Command::new(&binary)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::io::Write::write_all(child.stdin.as_mut().unwrap(), input.as_bytes()).unwrap();
    drop(child.stdin.take());
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "the harness failed");
    let lines: Vec<String> = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect();
    assert_eq!(lines.len(), cases.len());
    let mut failures = Vec::new();
    let (mut round_trips, mut rejections) = (0, 0);
    for ((manifest, index, minor, document), line) in cases.iter().zip(&lines) {
        let at = format!("{} (document {index}) in 1.{minor}", manifest.name);
        let valid = manifest.minors.contains(minor);
        match line.split_once('\t') {
            Some(("ok", json)) if valid => {
                let back: serde_json::Value = serde_json::from_str(json).unwrap();
                if !same_json(&back, document) {
                    failures.push(format!(
                        "{at}: round trip differs:\n  in:  {document}\n  out: {back}"
                    ));
                } else {
                    round_trips += 1;
                }
            }
            Some(("ok", _)) => failures.push(format!(
                "{at}: decoded strictly, but the header says 1.{minor} lacks part of it"
            )),
            Some(("err", err)) if valid => failures.push(format!("{at}: {err}")),
            Some(("err", _)) => rejections += 1,
            _ if line == "absent" && !valid => rejections += 1,
            _ => failures.push(format!("{at}: unexpected harness output {line:?}")),
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    // The example of the issue: trafficDistribution arrives in 1.30.
    let traffic = cases
        .iter()
        .zip(&lines)
        .find(|((m, _, minor, _), _)| m.name == "service-traffic-distribution.yaml" && *minor == 29)
        .map(|(_, line)| line.as_str());
    assert_eq!(traffic, Some("err\tunknown: spec.trafficDistribution"));
    eprintln!("{round_trips} round trips, {rejections} strict rejections");
}

/// The hostile case `colliding-property-names` (`foo-bar`, `foo_bar` and
/// `fooBar` in one type) regenerates into a crate that compiles, with three
/// distinct fields.
#[test]
fn colliding_property_names_get_distinct_fields() {
    let root = support::root();
    let case = root.join("tests/hostile/colliding-property-names");
    let tmp = tempfile::tempdir().unwrap();
    let api_dir = tmp.path().join("upstream-specs/collide");
    copy_dir(&case, &api_dir);
    let mut toml = String::from(
        "name = \"collide\"\npkl_package = \"hostile\"\nversion_field = \"hostileVersion\"\nspec_files = [\"*.json\"]\n",
    );
    for entry in std::fs::read_dir(&case).unwrap() {
        let entry = entry.unwrap();
        if !entry.file_type().unwrap().is_dir() {
            continue;
        }
        let minor = entry
            .file_name()
            .to_string_lossy()
            .trim_start_matches('v')
            .to_owned();
        for file in std::fs::read_dir(entry.path()).unwrap() {
            let file = file.unwrap();
            let digest = vergate_codegen::api::sha256_hex(&std::fs::read(file.path()).unwrap());
            let _ = writeln!(
                toml,
                "[minors.\"{minor}\".files.\"{}\"]\nsha256 = \"{digest}\"",
                file.file_name().to_string_lossy()
            );
        }
    }
    std::fs::write(api_dir.join("api.toml"), toml).unwrap();
    let api = vergate_codegen::api::Api::open(&api_dir).unwrap();
    let out = tmp.path().join("generated/collide");
    vergate_codegen::regen::regen(&api, &out, vergate_codegen::output::Mode::Write)
        .unwrap_or_else(|err| panic!("{err}"));
    let shapes = std::fs::read_dir(out.join("rust/src/shapes"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let text = std::fs::read_to_string(&shapes).unwrap();
    for field in ["pub foo_bar:", "pub foo_bar_2:", "pub foo_bar_3:"] {
        assert!(text.contains(field), "{field} missing in:\n{text}");
    }
    let dir = tmp.path().join("harness");
    let deps = format!(
        "vergate-collide = {{ path = \"{}\" }}\n",
        toml_path(&out.join("rust"))
    );
    harness(&dir, &deps, "fn main() {}\n");
    cargo(&dir, &root.join("target/generated/collide"), &["build"]);
}

/// Equal JSON, numbers compared by value: a `number` field (f64) writes the
/// `minimum: 0` it read as `0.0`, the same JSON number.
fn same_json(a: &serde_json::Value, b: &serde_json::Value) -> bool {
    use serde_json::Value;
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x == y || x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same_json(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(key, x)| y.get(key).is_some_and(|y| same_json(x, y)))
        }
        _ => a == b,
    }
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

#[test]
fn the_demo_operator_crate_builds_with_every_release_and_no_warning() {
    let root = support::root();
    // The demo's target directory: serde is built once for both demos.
    let target = root.join("target/generated/demo/target");
    let dir = root.join("target/generated/demo-operator/operator-harness");
    let deps = format!(
        "vergate-demo-operator = {{ path = \"{}\", features = [\"v0_1\", \"v0_2\", \"v0_3\"] }}\nserde_json = \"1\"\n",
        toml_path(&root.join("generated/demo-operator/rust"))
    );
    // Custom resources from CRDs: metadata is the built-in ObjectMeta,
    // int-or-string and preserve-unknown-fields round-trip, and a field
    // added in a release exists only from it on.
    let main = r##"
use vergate_demo_operator::{v0_1, v0_2, v0_3};

fn main() {
    let json = r#"{"apiVersion":"harbor.example.com/v1beta1","kind":"Dock","metadata":{"name":"north","labels":{"a":"b"}},"spec":{"name":"north-pier","port":"control","extra":{"any":[1]}}}"#;
    let dock: v0_3::harbor::v1beta1::Dock = serde_json::from_str(json).unwrap();
    assert_eq!(dock.metadata.as_ref().unwrap().name.as_deref(), Some("north"));
    let back = serde_json::to_string(&dock).unwrap();
    let same: serde_json::Value = serde_json::from_str(&back).unwrap();
    assert_eq!(same, serde_json::from_str::<serde_json::Value>(json).unwrap());
    let old: v0_2::harbor::v1beta1::Dock = serde_json::from_str(json).unwrap();
    assert!(old.spec.is_some());
    let lit = r#"{"name":"n","lighthouse":true}"#;
    assert!(serde_json::from_str::<v0_3::harbor::v1beta1::DockSpec>(lit).is_ok());
    let alpha: v0_1::harbor::v1alpha1::Dock =
        serde_json::from_str(r#"{"spec":{"name":"south","berths":2}}"#).unwrap();
    assert_eq!(alpha.spec.unwrap().berths, Some(2));
    println!("ok");
}
"##;
    harness(&dir, &deps, main);
    let out = cargo(&dir, &target, &["run"]);
    assert_eq!(out.trim(), "ok");
}

/// The `impl crate::Resource for X { … }` blocks of the generated crate:
/// (apiVersion, kind) → (plural, namespaced), read from its source text.
fn generated_resources(
    krate: &Path,
) -> std::collections::BTreeMap<(String, String), (String, bool)> {
    let mut out = std::collections::BTreeMap::new();
    for entry in std::fs::read_dir(krate.join("src/shapes")).unwrap() {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        for block in text.split("impl crate::Resource for ").skip(1) {
            let block = block.split('}').next().unwrap();
            let constant = |name: &str| -> String {
                let at = block
                    .find(&format!("const {name}: &'static str = \""))
                    .unwrap();
                let rest = &block[at..];
                let start = rest.find('"').unwrap() + 1;
                let len = rest[start..].find('"').unwrap();
                rest[start..start + len].to_owned()
            };
            let namespaced = block.contains("type Scope = crate::NamespaceResourceScope");
            out.insert(
                (constant("API_VERSION"), constant("KIND")),
                (constant("URL_PATH_SEGMENT"), namespaced),
            );
        }
    }
    out
}

/// #19: every kind the specs serve is a `Resource` with the plural and scope
/// of its paths. Read here from each operation's `x-kubernetes-action:
/// list` (the loader reads the path shapes instead): its path's last
/// segment is the plural, and a kind listed under `{namespace}` is
/// namespaced.
#[test]
#[cfg_attr(
    not(all(vergate_kubernetes_specs, vergate_kubernetes_output)),
    ignore = "needs the Kubernetes specs: ../shared/upstream-specs/kubernetes or VERGATE_KUBERNETES_SPECS; needs generated/kubernetes: cargo xtask regen --api kubernetes"
)]
fn every_served_kind_is_a_resource_with_its_plural_and_scope() {
    let specs = support::kubernetes_specs();
    let generated = generated_resources(&support::kubernetes_output().join("rust"));
    let mut expected: std::collections::BTreeMap<(String, String), (String, bool)> =
        std::collections::BTreeMap::new();
    for minor in support::KUBERNETES_MINORS {
        let text = std::fs::read(specs.join(minor).join("swagger.json")).unwrap();
        let doc: serde_json::Value = serde_json::from_slice(&text).unwrap();
        for (path, item) in doc["paths"].as_object().unwrap() {
            let Some(list) = item
                .get("get")
                .filter(|op| op["x-kubernetes-action"] == "list")
            else {
                continue;
            };
            let gvk = &list["x-kubernetes-group-version-kind"];
            let (group, version) = (
                gvk["group"].as_str().unwrap(),
                gvk["version"].as_str().unwrap(),
            );
            let api_version = if group.is_empty() {
                version.to_owned()
            } else {
                format!("{group}/{version}")
            };
            let key = (api_version, gvk["kind"].as_str().unwrap().to_owned());
            let plural = path.rsplit('/').next().unwrap().to_owned();
            let entry = expected.entry(key).or_insert((plural.clone(), false));
            assert_eq!(entry.0, plural, "{path}");
            entry.1 |= path.contains("{namespace}");
        }
    }
    assert!(expected.len() > 100, "{} kinds listed", expected.len());
    let mut missing = Vec::new();
    for (key, served) in &expected {
        match generated.get(key) {
            Some(found) => assert_eq!(found, served, "{key:?}"),
            None => missing.push(format!("{key:?}")),
        }
    }
    assert!(
        missing.is_empty(),
        "kinds without a Resource impl: {missing:?}"
    );
    let deployment = &generated[&("apps/v1".to_owned(), "Deployment".to_owned())];
    assert_eq!(deployment, &("deployments".to_owned(), true));
    let namespace = &generated[&("v1".to_owned(), "Namespace".to_owned())];
    assert_eq!(namespace, &("namespaces".to_owned(), false));
}

/// #19: with the `kube` feature the kinds are kube-rs resources: a program
/// lists and gets Deployments through `kube::Api` over a mocked HTTP
/// service (tower-test), reads them with `ResourceExt`, and does the same
/// for a cluster-scoped kind of another minor enabled beside it.
#[test]
#[cfg_attr(
    not(vergate_kubernetes_output),
    ignore = "needs generated/kubernetes: cargo xtask regen --api kubernetes"
)]
fn kube_api_lists_and_gets_through_a_mocked_client() {
    let output = support::kubernetes_output();
    let main = r##"
use http::{Request, Response};
use kube::client::Body;
use kube::{Api, Client, Resource, ResourceExt};
use vergate_kubernetes::v1_33::core::v1::Namespace;
use vergate_kubernetes::v1_34::apps::v1::Deployment;

const LIST: &str = r#"{"apiVersion":"apps/v1","kind":"DeploymentList","metadata":{"resourceVersion":"7"},"items":[{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","namespace":"shop","labels":{"app":"web"}},"spec":{"replicas":2,"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"web","image":"nginx:1.27"}]}}}}]}"#;
const ONE: &str = r#"{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","namespace":"shop","resourceVersion":"8"},"spec":{"replicas":3,"selector":{"matchLabels":{"app":"web"}},"template":{"spec":{"containers":[{"name":"web","image":"nginx:1.27"}]}}}}"#;
const NAMESPACE: &str = r#"{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"shop"}}"#;

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let (service, mut handle) = tower_test::mock::pair::<Request<Body>, Response<Body>>();
    let server = tokio::spawn(async move {
        for (path, body) in [
            ("/apis/apps/v1/namespaces/shop/deployments", LIST),
            ("/apis/apps/v1/namespaces/shop/deployments/web", ONE),
            ("/api/v1/namespaces/shop", NAMESPACE),
        ] {
            let (request, reply) = handle.next_request().await.expect("a request");
            assert_eq!(request.method(), http::Method::GET);
            assert_eq!(request.uri().path(), path);
            reply.send_response(Response::new(Body::from(body.as_bytes().to_vec())));
        }
    });
    let client = Client::new(service, "default");
    let deployments: Api<Deployment> = Api::namespaced(client.clone(), "shop");
    let list = deployments.list(&Default::default()).await.unwrap();
    assert_eq!(list.metadata.resource_version.as_deref(), Some("7"));
    assert_eq!(list.items[0].name_any(), "web");
    assert_eq!(list.items[0].labels()["app"], "web");
    let web = deployments.get("web").await.unwrap();
    assert_eq!(web.resource_version().as_deref(), Some("8"));
    assert_eq!(web.spec.as_ref().unwrap().replicas, Some(3));
    assert_eq!(Deployment::plural(&()), "deployments");
    assert_eq!(Deployment::api_version(&()), "apps/v1");
    let namespaces: Api<Namespace> = Api::all(client);
    assert_eq!(namespaces.get("shop").await.unwrap().name_any(), "shop");
    assert_eq!(Namespace::plural(&()), "namespaces");
    server.await.unwrap();
    // The constants without kube, as k8s-openapi's users know them.
    assert_eq!(<Deployment as vergate_kubernetes::Resource>::URL_PATH_SEGMENT, "deployments");
    println!("ok");
}
"##;
    let out = run_on_kubernetes(
        &output,
        "kube-api",
        KUBE_FEATURES,
        "kube = { version = \"5\", default-features = false, features = [\"client\"] }\nk8s-openapi = { version = \"0.29\", features = [\"latest\"] }\ntower-test = \"0.4\"\ntokio = { version = \"1\", features = [\"macros\", \"rt\"] }\nhttp = \"1\"\n",
        main,
    );
    assert_eq!(out.trim(), "ok");
}

/// #19 item 4: with the `jiff` feature, `Time` and `MicroTime` hold a
/// `jiff::Timestamp`: parsed on decoding (a malformed one is a decoding
/// error naming it), written back as the API server writes it.
#[test]
#[cfg_attr(
    not(vergate_kubernetes_output),
    ignore = "needs generated/kubernetes: cargo xtask regen --api kubernetes"
)]
fn the_jiff_feature_makes_timestamps_typed() {
    let output = support::kubernetes_output();
    let main = r##"
use vergate_kubernetes::v1_34::apps::v1::Deployment;

fn main() {
    let json = r#"{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"creationTimestamp":"2024-05-01T10:00:00Z","name":"web"}}"#;
    let deployment: Deployment = serde_json::from_str(json).unwrap();
    let created = deployment.metadata.as_ref().unwrap().creation_timestamp.clone().unwrap();
    assert_eq!(created.0.as_second(), 1_714_557_600);
    assert_eq!(serde_json::to_string(&deployment).unwrap(), json);
    let bad = json.replace("2024-05-01T10:00:00Z", "yesterday");
    let err = serde_json::from_str::<Deployment>(&bad).unwrap_err();
    // jiff's own message, at the place in the document.
    assert!(err.to_string().contains("year") && err.to_string().contains("line 1"), "{err}");
    println!("ok");
}
"##;
    let out = run_on_kubernetes(
        &output,
        "jiff",
        TYPED_FEATURES,
        "serde_json = \"1\"\n",
        main,
    );
    assert_eq!(out.trim(), "ok");
}

/// #19 item 4: `Quantity` reads its text on demand, as apimachinery's
/// `MilliValue` and `Value` do.
#[test]
#[cfg_attr(
    not(vergate_kubernetes_output),
    ignore = "needs generated/kubernetes: cargo xtask regen --api kubernetes"
)]
fn quantities_read_their_value() {
    let output = support::kubernetes_output();
    let main = r##"
use vergate_kubernetes::v1_34::core::v1::ResourceRequirements;

fn main() {
    let json = r#"{"limits":{"cpu":"250m","memory":"1.5Gi"},"requests":{"cpu":"lots"}}"#;
    let resources: ResourceRequirements = serde_json::from_str(json).unwrap();
    let limits = resources.limits.as_ref().unwrap();
    assert_eq!(limits["cpu"].milli_value(), Ok(250));
    assert_eq!(limits["memory"].value(), Ok(1_610_612_736));
    let err = resources.requests.as_ref().unwrap()["cpu"].milli_value().unwrap_err();
    assert_eq!(err.to_string(), "invalid quantity \"lots\": no number");
    println!("ok");
}
"##;
    let out = run_on_kubernetes(
        &output,
        "quantity",
        TYPED_FEATURES,
        "serde_json = \"1\"\n",
        main,
    );
    assert_eq!(out.trim(), "ok");
}

/// #19 item 4: with the `bytes` feature a Secret's `data` holds decoded
/// bytes, written back as base64; text that is not base64 fails to decode.
/// Without it, `ByteString` is the text (the default build, above).
#[test]
#[cfg_attr(
    not(vergate_kubernetes_output),
    ignore = "needs generated/kubernetes: cargo xtask regen --api kubernetes"
)]
fn the_bytes_feature_decodes_base64() {
    let output = support::kubernetes_output();
    let main = r##"
use vergate_kubernetes::v1_34::core::v1::Secret;

fn main() {
    let json = r#"{"apiVersion":"v1","data":{"password":"aHVudGVyMg=="},"kind":"Secret"}"#;
    let secret: Secret = serde_json::from_str(json).unwrap();
    assert_eq!(secret.data.as_ref().unwrap()["password"].0, b"hunter2");
    assert_eq!(serde_json::to_string(&secret).unwrap(), json);
    let err = serde_json::from_str::<Secret>(&json.replace("aHVudGVyMg==", "not base64!")).unwrap_err();
    assert!(err.to_string().contains("not base64"), "{err}");
    println!("ok");
}
"##;
    let out = run_on_kubernetes(
        &output,
        "bytes",
        TYPED_FEATURES,
        "serde_json = \"1\"\n",
        main,
    );
    assert_eq!(out.trim(), "ok");
}

/// #19 item 3: with the `conversions` feature, a kind converts between
/// adjacent minors: `From` where nothing can be lost, `TryFrom` naming every
/// field that would be dropped or that the target requires and the value
/// leaves unset. (All nine minors and the feature build
/// under `-D warnings` here too.)
#[test]
#[cfg_attr(
    not(vergate_kubernetes_output),
    ignore = "needs generated/kubernetes: cargo xtask regen --api kubernetes"
)]
fn kinds_convert_between_adjacent_minors() {
    let output = support::kubernetes_output();
    let features = all_minors_and_conversions();
    let features: Vec<&str> = features.iter().map(String::as_str).collect();
    let main = r##"
use vergate_kubernetes::{v1_33, v1_34, v1_35, v1_36};

fn main() {
    let json = r#"{"apiVersion":"v1","kind":"Pod","metadata":{"name":"web"},"spec":{"containers":[{"image":"nginx","name":"web"}]}}"#;
    // Up: nothing can be lost.
    let old: v1_33::core::v1::Pod = serde_json::from_str(json).unwrap();
    let new: v1_34::core::v1::Pod = old.into();
    assert_eq!(serde_json::to_string(&new).unwrap(), json);
    // Down: fine while the 1.34-only field is unset ...
    let back = v1_33::core::v1::Pod::try_from(new.clone()).unwrap();
    assert_eq!(serde_json::to_string(&back).unwrap(), json);
    // ... and refused, naming it, when it is set.
    let mut set = new;
    set.spec.as_mut().unwrap().hostname_override = Some("web-0".into());
    let err = v1_33::core::v1::Pod::try_from(set).unwrap_err();
    assert_eq!(err.dropped, ["spec.hostnameOverride"]);
    assert_eq!(
        err.to_string(),
        "cannot convert io.k8s.api.core.v1.Pod from 1.34 to 1.33 without dropping: spec.hostnameOverride; clear them first"
    );
    // A field that turns required (CronJob.spec from 1.36): carried when
    // set, named as missing when not.
    let cron = r#"{"apiVersion":"batch/v1","kind":"CronJob","metadata":{"name":"nightly"},"spec":{"jobTemplate":{},"schedule":"0 3 * * *"}}"#;
    let old: v1_35::batch::v1::CronJob = serde_json::from_str(cron).unwrap();
    let new = v1_36::batch::v1::CronJob::try_from(old).unwrap();
    assert_eq!(serde_json::to_string(&new).unwrap(), cron);
    let back = v1_35::batch::v1::CronJob::try_from(new).unwrap();
    assert_eq!(serde_json::to_string(&back).unwrap(), cron);
    let unset: v1_35::batch::v1::CronJob = serde_json::from_str(r#"{"kind":"CronJob"}"#).unwrap();
    let err = v1_36::batch::v1::CronJob::try_from(unset).unwrap_err();
    assert_eq!(err.missing, ["spec"]);
    assert_eq!(
        err.to_string(),
        "cannot convert io.k8s.api.batch.v1.CronJob from 1.35 to 1.36: 1.36 requires spec, unset here; set them first"
    );
    println!("ok");
}
"##;
    let out = run_on_kubernetes(
        &output,
        "conversions",
        &features,
        &runtime_deps(support::root()),
        main,
    );
    assert_eq!(out.trim(), "ok");
}

/// #19 item 4: the `schemars` feature. A kube-rs custom resource whose spec
/// holds a generated `PodSpec` derives its CRD (kube's `CustomResourceExt`),
/// and the CRD's schema is structural: the pod spec's required
/// `containers`, a container's int-or-string port, quantities as
/// int-or-string, the specs' enum of `restartPolicy`, no `null` types.
#[test]
#[cfg_attr(
    not(vergate_kubernetes_output),
    ignore = "needs generated/kubernetes: cargo xtask regen --api kubernetes"
)]
fn schemars_gives_kube_custom_resources_structural_schemas() {
    let output = support::kubernetes_output();
    let main = r#"
use kube::CustomResourceExt;
use vergate_kubernetes::v1_34::core::v1::{PodSpec, Service};

#[derive(kube::CustomResource, Clone, Debug, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
#[kube(group = "example.com", version = "v1", kind = "App", namespaced)]
pub struct AppSpec {
    pub pod: PodSpec,
    pub replicas: Option<i32>,
}

fn main() {
    let crd = serde_json::to_value(App::crd()).unwrap();
    let spec = &crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"];
    println!("{}", serde_json::to_string(spec).unwrap());
    // A resource of its own, through a plain generator.
    let service = schemars::schema_for!(Service);
    println!("{}", serde_json::to_string(&service).unwrap());
}
"#;
    let printed = run_on_kubernetes(
        &output,
        "schemars-crd",
        KUBE_FEATURES,
        "kube = { version = \"5\", default-features = false, features = [\"derive\"] }\nk8s-openapi = { version = \"0.29\", features = [\"latest\", \"schemars\"] }\nschemars = \"1\"\nserde = { version = \"1\", features = [\"derive\"] }\nserde_json = \"1\"\n",
        main,
    );
    let mut lines = printed.lines();
    let spec: serde_json::Value = serde_json::from_str(lines.next().unwrap()).unwrap();
    let pod = &spec["properties"]["pod"];
    assert!(
        pod["required"]
            .as_array()
            .unwrap()
            .contains(&"containers".into()),
        "{pod}"
    );
    let container = &pod["properties"]["containers"]["items"];
    assert_eq!(
        container["required"],
        serde_json::json!(["name"]),
        "{container}"
    );
    let probe_port =
        &container["properties"]["livenessProbe"]["properties"]["httpGet"]["properties"]["port"];
    assert_eq!(
        probe_port["x-kubernetes-int-or-string"], true,
        "{probe_port}"
    );
    let requests = &container["properties"]["resources"]["properties"]["requests"];
    assert_eq!(
        requests["additionalProperties"]["x-kubernetes-int-or-string"], true,
        "{requests}"
    );
    assert_eq!(
        pod["properties"]["restartPolicy"]["enum"],
        serde_json::json!(["Always", "Never", "OnFailure"])
    );
    let text = spec.to_string();
    assert!(
        !text.contains("\"null\""),
        "no null types in a structural schema"
    );
    assert!(!text.contains("$ref"), "kube inlines every subschema");
    assert!(
        pod["properties"]["containers"]["description"]
            .as_str()
            .is_some_and(|d| d.contains("List of containers")),
        "descriptions carried: {pod}"
    );
    let service: serde_json::Value = serde_json::from_str(lines.next().unwrap()).unwrap();
    assert_eq!(service["title"], "io.k8s.api.core.v1.Service", "{service}");
    assert!(service["$defs"]["io.k8s.api.core.v1.ServiceSpec"]["properties"]["ports"].is_object());
}

/// #29: the README's examples name the API's own kinds. The CRD-based
/// demo's kube-rs example named Kubernetes' `apps::v1::Deployment`.
#[test]
fn the_readme_examples_name_the_apis_own_kinds() {
    let krate = support::root().join("generated/demo-operator/rust");
    let readme = std::fs::read_to_string(krate.join("README.md")).unwrap();
    assert!(!readme.contains("Deployment"), "{readme}");
    let line = readme
        .lines()
        .find(|line| line.starts_with("let api: kube::Api<"))
        .expect("a kube-rs example");
    let path = line
        .split("kube::Api<")
        .nth(1)
        .and_then(|rest| rest.split('>').next())
        .unwrap();
    // `vergate_demo_operator::v0_3::harbor::v1beta1::Dock`: a kind the
    // crate serves, in the module the minor declares.
    let segments: Vec<&str> = path.split("::").collect();
    let [krate_name, minor, group, version, kind] = segments.as_slice() else {
        panic!("{path}");
    };
    assert_eq!(*krate_name, "vergate_demo_operator");
    let kinds: Vec<String> = generated_resources(&krate)
        .into_keys()
        .filter(|(api_version, _)| api_version.ends_with(&format!("/{version}")))
        .map(|(_, kind)| kind)
        .collect();
    assert!(kinds.iter().any(|k| k == kind), "{kind} not in {kinds:?}");
    let module = std::fs::read_to_string(krate.join(format!("src/{minor}.rs"))).unwrap();
    assert!(
        module.contains(&format!("pub mod {group}")) && module.contains(kind),
        "{path}"
    );
}

/// #29: every feature at once builds, as the README says: as it is for the
/// demo; with k8s-openapi's version picked for the operator, whose `kube`
/// feature needs one (any library on k8s-openapi does). The README's command
/// runs on a copy of the crate, so that nothing lands in `generated/`.
#[test]
fn every_feature_at_once_builds_as_the_readme_says() {
    let root = support::root();
    let target = root.join("target/generated/demo/target");
    for api in ["demo", "demo-operator"] {
        let krate = root.join("generated").join(api).join("rust");
        let readme = std::fs::read_to_string(krate.join("README.md")).unwrap();
        let command = readme
            .lines()
            .filter_map(|line| line.split('`').find(|part| part.contains("--all-features")))
            .next()
            .unwrap_or_else(|| panic!("{api}: the README says nothing of --all-features"));
        let words: Vec<&str> = command.split_whitespace().collect();
        let at = words.iter().position(|word| *word == "cargo").unwrap();
        let copy = root.join("target/generated").join(api).join("all-features");
        if copy.exists() {
            std::fs::remove_dir_all(&copy).unwrap();
        }
        copy_dir(&krate, &copy);
        let mut cargo = support::harness_cargo();
        for assignment in &words[..at] {
            let (key, value) = assignment.split_once('=').unwrap();
            cargo.env(key, value);
        }
        let output = cargo
            .args(&words[at + 1..])
            .arg("--quiet")
            .arg("--target-dir")
            .arg(&target)
            .current_dir(&copy)
            .env("RUSTFLAGS", "-D warnings")
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            "{api}: `{command}` failed:\n{}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
}
