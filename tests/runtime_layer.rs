//! The runtime layer: what a plugin crate compiles when it depends on
//! `vergate` with `default-features = false` (`tests/plugin-crate`). The
//! check engine (the document reader, the gate tables, preflight, upgrade,
//! CEL) sits behind the `engine` feature, so a plugin builds none of it and
//! none of its dependencies, and without the `json` feature no serde_json.

mod support;

use std::path::Path;
use std::process::Command;
use support::root;

/// Crates of the check engine that a plugin's build must not reach.
const ENGINE_ONLY: [&str; 11] = [
    "regex",
    "cel",
    "yaml-rust2",
    "base64",
    "bytecount",
    "rayon",
    "clap",
    "arraydeque",
    "ignore",
    "compact_str",
    "self_cell",
];

/// The crates a plugin's build must not reach: serde_json (and its memchr)
/// is the `json` feature's. The derive macro's build, which runs on the host
/// and writes each type's JSON Schema text, does without them too (it
/// writes with vergate-core's `json` value).
const JSON_ONLY: [&str; 3] = ["serde_json", "memchr", "serde_ignored"];

/// The most lines of vergate's and vergate-core's sources a plugin compiles.
const RUNTIME_LINE_BUDGET: usize = 2_500;

/// The crate names of the example plugin's dependency tree over `edges`
/// (`cargo tree -e`), with the tree's text for messages.
fn plugin_tree(edges: &str) -> (Vec<String>, String) {
    let output = Command::new(env!("CARGO"))
        .current_dir(root())
        .args([
            "tree",
            "--offline",
            "--locked",
            "-p",
            "vergate-example-plugin",
        ])
        .args(["-e", edges, "--prefix", "none", "--format", "{p}"])
        .output()
        .expect("cargo tree runs");
    assert!(
        output.status.success(),
        "cargo tree failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let tree = String::from_utf8(output.stdout).expect("cargo tree prints UTF-8");
    let names: Vec<String> = tree
        .lines()
        .filter_map(|line| line.split_whitespace().next())
        .map(str::to_owned)
        .collect();
    assert!(
        names.iter().any(|name| name == "vergate"),
        "the plugin depends on vergate:\n{tree}"
    );
    (names, tree)
}

#[test]
fn a_plugin_crate_builds_none_of_the_engines_dependencies() {
    let (names, tree) = plugin_tree("normal");
    let reached: Vec<&&str> = ENGINE_ONLY
        .iter()
        .filter(|name| names.iter().any(|reached| reached == *name))
        .collect();
    assert!(
        reached.is_empty(),
        "the plugin crate's build reaches the engine's dependencies {reached:?}; \
         put what pulls them in behind vergate's `engine` feature:\n{tree}"
    );
}

#[test]
fn a_plugin_crates_build_reaches_no_json_reader() {
    let (names, tree) = plugin_tree("normal");
    let reached: Vec<&str> = JSON_ONLY
        .iter()
        .copied()
        .filter(|name| names.iter().any(|reached| reached == name))
        .collect();
    assert!(
        reached.is_empty(),
        "the plugin crate's build reaches {reached:?}; they belong behind vergate's `json` \
         feature, and out of the derive macro's build:\n{tree}"
    );
}

/// The lines of a module file and of every module and `include!` it
/// compiles without a `#[cfg(feature = …)]` above it (what
/// `default-features = false` compiles), recursively; the modules' names
/// are pushed on `modules`.
fn compiled_lines(file: &Path, modules: &mut Vec<String>) -> usize {
    let text = std::fs::read_to_string(file)
        .unwrap_or_else(|err| panic!("cannot read {}: {err}", file.display()));
    let dir = file.parent().expect("a source file has a folder");
    let stem = file.file_stem().and_then(|s| s.to_str()).unwrap_or("");
    let children = if matches!(stem, "lib" | "mod") {
        dir.to_path_buf()
    } else {
        dir.join(stem)
    };
    let mut lines = text.lines().count();
    let mut gated = false;
    for line in text.lines().map(str::trim) {
        if line.starts_with("#[cfg(feature") {
            gated = true;
            continue;
        }
        let module = line
            .strip_prefix("pub mod ")
            .or_else(|| line.strip_prefix("pub(crate) mod "))
            .or_else(|| line.strip_prefix("mod "))
            .and_then(|rest| rest.strip_suffix(';'));
        let included = line
            .strip_prefix("include!(\"")
            .and_then(|rest| rest.strip_suffix("\");"));
        if !gated {
            if let Some(name) = module {
                modules.push(name.to_owned());
                lines += compiled_lines(&children.join(format!("{name}.rs")), modules);
            } else if let Some(path) = included {
                lines += std::fs::read_to_string(dir.join(path))
                    .expect("included source")
                    .lines()
                    .count();
            }
        }
        if !line.starts_with("#[") && !line.starts_with("//") {
            gated = false;
        }
    }
    lines
}

/// Counts the lines of vergate and vergate-core that a plugin crate
/// compiles: every module without a feature gate above it, tests included.
#[test]
fn a_plugin_crate_compiles_at_most_the_runtimes_lines() {
    let mut modules = Vec::new();
    let lines = compiled_lines(&root().join("src/lib.rs"), &mut modules)
        + compiled_lines(&root().join("codegen/core/src/lib.rs"), &mut modules);
    assert!(
        modules.iter().any(|module| module == "versioned"),
        "the runtime holds the derive's support: {modules:?}"
    );
    for engine in ["preflight", "document", "index", "resolve"] {
        assert!(
            !modules.iter().any(|module| module == engine),
            "{engine} is not the runtime's: {modules:?}"
        );
    }
    assert!(
        lines <= RUNTIME_LINE_BUDGET,
        "a plugin crate compiles {lines} lines of vergate ({modules:?}); at most {RUNTIME_LINE_BUDGET}"
    );
}
