//! The runtime layer: what a plugin crate compiles when it depends on
//! `vergate` with `default-features = false` (`tests/plugin-crate`). The
//! check engine (the document reader, the gate tables, preflight, upgrade,
//! CEL) sits behind the `engine` feature, so a plugin builds none of it and
//! none of its dependencies.

mod support;

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

/// The most lines of vergate's own sources a plugin compiles.
const RUNTIME_LINE_BUDGET: usize = 2_500;

#[test]
fn a_plugin_crate_builds_none_of_the_engines_dependencies() {
    let output = Command::new(env!("CARGO"))
        .current_dir(root())
        .args([
            "tree",
            "--offline",
            "--locked",
            "-p",
            "vergate-example-plugin",
        ])
        .args(["-e", "normal", "--prefix", "none", "--format", "{p}"])
        .output()
        .expect("cargo tree runs");
    assert!(
        output.status.success(),
        "cargo tree failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let tree = String::from_utf8(output.stdout).expect("cargo tree prints UTF-8");
    let names: Vec<&str> = tree
        .lines()
        .filter_map(|line| line.split_whitespace().next())
        .collect();
    assert!(
        names.contains(&"vergate"),
        "the plugin depends on vergate:\n{tree}"
    );
    let reached: Vec<&&str> = ENGINE_ONLY
        .iter()
        .filter(|name| names.contains(name))
        .collect();
    assert!(
        reached.is_empty(),
        "the plugin crate's build reaches the engine's dependencies {reached:?}; \
         put what pulls them in behind vergate's `engine` feature:\n{tree}"
    );
}

/// Counts the lines of every module `src/lib.rs` declares without a
/// `#[cfg(feature = …)]` above it: what `default-features = false` compiles.
#[test]
fn a_plugin_crate_compiles_at_most_the_runtimes_lines() {
    let lib = std::fs::read_to_string(root().join("src/lib.rs")).expect("src/lib.rs");
    let mut gated = false;
    let mut lines = lib.lines().count();
    let mut modules = Vec::new();
    for line in lib.lines().map(str::trim) {
        if line.starts_with("#[cfg(feature") {
            gated = true;
            continue;
        }
        if let Some(name) = line
            .strip_prefix("pub mod ")
            .or_else(|| line.strip_prefix("mod "))
            .and_then(|rest| rest.strip_suffix(';'))
        {
            if !gated {
                modules.push(name.to_owned());
            }
        }
        if !line.starts_with("#[") && !line.starts_with("//") {
            gated = false;
        }
    }
    for module in &modules {
        let file = root().join("src").join(format!("{module}.rs"));
        assert!(
            file.is_file(),
            "the runtime module {module} is a single file ({})",
            file.display()
        );
        lines += std::fs::read_to_string(&file)
            .expect("module source")
            .lines()
            .count();
    }
    assert!(
        modules.iter().any(|module| module == "versioned"),
        "the runtime holds the derive's support: {modules:?}"
    );
    assert!(
        !modules.iter().any(|module| module == "preflight"),
        "preflight is the engine's: {modules:?}"
    );
    assert!(
        lines <= RUNTIME_LINE_BUDGET,
        "a plugin crate compiles {lines} lines of vergate ({modules:?}); at most {RUNTIME_LINE_BUDGET}"
    );
}
