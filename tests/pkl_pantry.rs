//! #34: pkl-pantry's `k8s.contrib` converter (YAML manifests → Pkl) runs
//! against vergate's package of one minor, its `["k8s"]` dependency the
//! only change, and its own test examples convert as they do against
//! pkl-k8s: the same text but for the package URI.
//!
//! Needs a checkout of apple/pkl-pantry (a work tree with `packages/`),
//! named by `PKL_PANTRY` (or at `target/peers/pkl-pantry`); without it the
//! test is ignored, CI included (`support::inputs`):
//!
//! ```text
//! PKL_PANTRY=<checkout> cargo test --test pkl_pantry
//! ```
//!
//! k8s.contrib 2.x declares `minPklVersion = "0.31.0"`; with the pkl 0.30
//! of `.ci/run`, use k8s.contrib 1.0.4 (commit b29f01f, the same converter
//! before it became a `pkl:Command`; docs/pkl.md).

mod pkl;
mod support;

use std::path::Path;

/// The minor whose package the converter runs against.
const MINOR: &str = "v1.34";

/// The examples pkl-k8s converts and vergate's 1.34 package refuses, with
/// the message the conversion fails with: they use a kind 1.34 does not
/// serve (nor any minor of vergate's corpus, 1.28–1.36), and vergate says
/// so as the API server would, where pkl-k8s converts it.
const NOT_SERVED: &[(&str, &str)] = &[(
    "multipleVersions.yml",
    "apiextensions.k8s.io/v1beta1 CustomResourceDefinition is not served in 1.34 \
     (removed in 1.22); use apiextensions.k8s.io/v1 CustomResourceDefinition",
)];

/// The package URI prefixes of the converter's `import` lines.
const PKL_K8S_URI: &str = "projectpackage://pkg.pkl-lang.org/pkl-k8s/k8s@1.0.1#/";
const VERGATE_URI: &str = "projectpackage://pkg.vergate.invalid/k8s-v1.34@1.34.0#/";

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// k8s.contrib and what it needs, copied into a temporary directory, its
/// `["k8s"]` dependency pointing at vergate's package of [`MINOR`].
fn converter_project(pantry: &Path, package: &Path) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let packages = dir.path().join("packages");
    for name in ["k8s.contrib", "pkl.experimental.uri"] {
        copy_dir(&pantry.join("packages").join(name), &packages.join(name));
    }
    std::fs::copy(
        pantry.join("packages/basePklProject.pkl"),
        packages.join("basePklProject.pkl"),
    )
    .unwrap();
    let project = packages.join("k8s.contrib/PklProject");
    let text = std::fs::read_to_string(&project).unwrap();
    let start = text.find("[\"k8s\"]").expect("a [\"k8s\"] dependency");
    let end = start + text[start..].find('}').expect("its closing brace") + 1;
    let text = format!(
        "{}[\"k8s\"] = import(\"{}/PklProject\"){}",
        &text[..start],
        package.canonicalize().unwrap().display(),
        &text[end..]
    );
    std::fs::write(&project, text).unwrap();
    let _ = std::fs::remove_file(packages.join("k8s.contrib/PklProject.deps.json"));
    dir
}

/// Fails with what to do when the checkout's k8s.contrib needs a newer
/// pkl than the one the tests run (2.x needs 0.31, `.ci/run` installs
/// 0.30), rather than with Pkl's error deep in the suite.
fn refuse_a_newer_converter(pkl: &pkl::Pkl, contrib: &Path) {
    let version = |text: &str| -> Option<Vec<u32>> {
        text.split('.')
            .map(|part| part.trim().parse().ok())
            .collect()
    };
    let output = pkl.run(contrib, &["--version"]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    let ours = stdout.split_whitespace().nth(1).and_then(version);
    for module in ["convert.pkl", "Converter.pkl"] {
        let Ok(text) = std::fs::read_to_string(contrib.join(module)) else {
            continue;
        };
        let needed = text
            .split("minPklVersion = \"")
            .nth(1)
            .and_then(|rest| rest.split('"').next());
        if let (Some(needed), Some(ours)) = (needed, &ours) {
            assert!(
                version(needed).is_none_or(|needed| needed <= *ours),
                "{} needs pkl {needed}, this pkl is {stdout}: use k8s.contrib 1.0.4 \
                 (`git archive b29f01f packages/k8s.contrib packages/pkl.experimental.uri \
                 packages/basePklProject.pkl` of a pkl-pantry clone) as PKL_PANTRY",
                contrib.join(module).display(),
            );
        }
    }
}

/// The suite's test module (`tests/Converter.pkl` in 2.x, `tests/convert.pkl`
/// in 1.x), relative to the package.
fn suite(contrib: &Path) -> &'static str {
    if contrib.join("tests/Converter.pkl").is_file() {
        "tests/Converter.pkl"
    } else {
        "tests/convert.pkl"
    }
}

/// The `examples` of `module` (a test module or its `-expected.pcf`) as
/// JSON: example name → its texts.
fn examples(pkl: &pkl::Pkl, contrib: &Path, module: &str) -> serde_json::Value {
    let driver = contrib.join("tests/vergate_examples.pkl");
    std::fs::write(
        &driver,
        format!(
            "import {module:?} as suite\noutput {{ renderer = new JsonRenderer {{}}; value = suite.examples.toMap().mapValues((_, v) -> v.toList()) }}\n"
        ),
    )
    .unwrap();
    let output = pkl.run(contrib, &["eval", "tests/vergate_examples.pkl"]);
    assert!(
        output.status.success(),
        "pkl eval of {module}'s examples failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).unwrap()
}

#[test]
#[cfg_attr(
    not(all(vergate_kubernetes_output, vergate_pkl, vergate_pkl_pantry)),
    ignore = "needs generated/kubernetes: cargo xtask regen --api kubernetes; needs the pkl CLI: target/tools (see .ci/run) or VERGATE_PKL; needs a checkout of apple/pkl-pantry: PKL_PANTRY or target/peers/pkl-pantry"
)]
fn the_converter_suite_passes_against_one_minor() {
    let pantry = support::pkl_pantry_checkout();
    let pkl = pkl::pkl();
    refuse_a_newer_converter(&pkl, &pantry.join("packages/k8s.contrib"));
    let package = support::kubernetes_output().join("pkl").join(MINOR);
    let dir = converter_project(&pantry, &package);
    let contrib = dir.path().join("packages/k8s.contrib");
    pkl.resolve(&contrib);
    let suite = suite(&contrib);
    // The examples vergate refuses are set aside, each converted alone
    // below to show the refusal names the kind and why.
    let aside = dir.path().join("aside");
    std::fs::create_dir_all(&aside).unwrap();
    for (file, _) in NOT_SERVED {
        std::fs::rename(contrib.join("tests/fixtures").join(file), aside.join(file)).unwrap();
    }
    let actual = examples(&pkl, &contrib, &suite["tests/".len()..]);
    let expected = examples(
        &pkl,
        &contrib,
        &format!("{}-expected.pcf", &suite["tests/".len()..]),
    );
    let expected = expected.as_object().unwrap();
    let mut compared = 0;
    for (name, texts) in expected {
        if NOT_SERVED.iter().any(|(file, _)| file == name) {
            continue;
        }
        let ours = actual[name][0]
            .as_str()
            .unwrap_or_else(|| panic!("no {name}"));
        let theirs = texts[0].as_str().unwrap();
        assert_eq!(
            ours.replace(VERGATE_URI, "<k8s>/"),
            theirs.replace(PKL_K8S_URI, "<k8s>/"),
            "{name} converts differently from pkl-k8s's"
        );
        compared += 1;
    }
    assert!(
        compared == 7,
        "only {compared} examples compared: {expected:?}"
    );
    for (file, why) in NOT_SERVED {
        std::fs::rename(aside.join(file), contrib.join("tests/fixtures").join(file)).unwrap();
        let driver = contrib.join("tests/vergate_one.pkl");
        let parse = format!(
            "new yaml.Parser {{ useMapping = true }}.parseAll(read(\"fixtures/{file}\")).filterNonNull() as List<Mapping>"
        );
        let convert = if suite.ends_with("Converter.pkl") {
            format!("import \"../Converter.pkl\"\nresult = new Converter {{ resourcesToConvert = {parse} }}.result\n")
        } else {
            format!("import \"../convert.pkl\" as converter\nresult = (converter) {{ resourcesToConvert = {parse} }}.output.text\n")
        };
        std::fs::write(&driver, format!("import \"pkl:yaml\"\n{convert}")).unwrap();
        let output = pkl.run(&contrib, &["eval", "tests/vergate_one.pkl"]);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success(), "{file} converted");
        let first = stderr.lines().nth(1).unwrap_or_default();
        assert_eq!(first, *why, "{file}: {stderr}");
        std::fs::remove_file(contrib.join("tests/fixtures").join(file)).unwrap();
    }
    // Beyond pkl-k8s: a manifest using a field 1.34 does not accept
    // converts, and its Pkl fails on evaluation naming the minor.
    std::fs::write(
        contrib.join("tests/fixtures/later.yml"),
        "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  workloadRef: {name: w}\n  containers: [{name: app, image: nginx}]\n",
    )
    .unwrap();
    let parse = "new yaml.Parser { useMapping = true }.parseAll(read(\"fixtures/later.yml\")).filterNonNull() as List<Mapping>";
    let convert = if suite.ends_with("Converter.pkl") {
        format!("import \"pkl:yaml\"\nimport \"../Converter.pkl\"\noutput {{ text = new Converter {{ resourcesToConvert = {parse} }}.result }}\n")
    } else {
        format!("import \"pkl:yaml\"\nimport \"../convert.pkl\" as converter\noutput {{ text = (converter) {{ resourcesToConvert = {parse} }}.output.text }}\n")
    };
    std::fs::write(contrib.join("tests/vergate_later.pkl"), convert).unwrap();
    let output = pkl.run(
        &contrib,
        &["eval", "-o", "later.pkl", "tests/vergate_later.pkl"],
    );
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let output = pkl.run(&contrib, &["eval", "--project-dir", ".", "later.pkl"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "a 1.35 field evaluated in 1.34");
    assert!(
        stderr.contains("workloadRef is not available in 1.34; introduced in 1.35"),
        "{stderr}"
    );
}
