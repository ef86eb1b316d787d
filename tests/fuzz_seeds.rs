//! Every seed of every fuzz target (`tests/fuzz/seeds/<target>/`), run in
//! the normal `cargo test` on the stable toolchain: the target's own body
//! (`tests/fuzz/targets/<target>.rs`, which the cargo-fuzz binary calls
//! too) in a child process under the 2 GiB cap and a time limit, and for
//! the targets that stand for a command (`upgrade`, `crd_rules`) the
//! `vergate` command itself on the seed, its output bounded and, in JSON,
//! well formed. `tests/fuzz/run.sh` fuzzes the same targets on nightly.

mod support;

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::time::Duration;
use support::capped::{self, Capped};
use support::cli::{code, stderr};
use support::root;

/// The repository's root, from this crate's directory (the targets read
/// the demo's gates from there).
const ROOT: &str = "";

#[path = "fuzz/gen/crd_pair.rs"]
mod crd_pair;

// The fuzz targets' bodies, as the cargo-fuzz binaries include them.
#[path = "fuzz/targets/alias.rs"]
mod alias;
#[path = "fuzz/targets/check_input.rs"]
mod check_input;
#[path = "fuzz/targets/crd_rules.rs"]
mod crd_rules;
#[path = "fuzz/targets/preflight.rs"]
mod preflight;
#[path = "fuzz/targets/spec_loader.rs"]
mod spec_loader;
#[path = "fuzz/targets/upgrade.rs"]
mod upgrade;
#[path = "fuzz/targets/version_parser.rs"]
mod version_parser;

/// A fuzz target's body: what it does with one input.
type Body = fn(&[u8]);

/// Each target by name, with its body.
const TARGETS: [(&str, Body); 7] = [
    ("alias", alias::run),
    ("check_input", check_input::run),
    ("crd_rules", crd_rules::run),
    ("preflight", preflight::run),
    ("spec_loader", spec_loader::run),
    ("upgrade", upgrade::run),
    ("version_parser", version_parser::run),
];

/// The CPU time one seed may take (in a debug build, which is several
/// times slower than the release build users run).
const SEED_CPU: Duration = Duration::from_secs(20);

/// The most a command may print for one seed: the findings are bounded
/// per rule and in length, whatever the seed.
const MAX_OUTPUT: usize = 4 << 20;

/// The seeds of `target`, sorted.
fn seeds(target: &str) -> Vec<PathBuf> {
    let dir = root().join("tests/fuzz/seeds").join(target);
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|err| panic!("{}: {err}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .collect();
    paths.sort();
    paths
}

/// Not a test of its own: the body of the target named by
/// `VERGATE_FUZZ_TARGET` on the seed at `VERGATE_FUZZ_SEED`, in the child
/// process [`each_seed_runs_its_targets_body_within_bounds`] starts (under
/// the caps). Ignored, so that a plain `cargo test` does not run it.
#[test]
#[ignore = "run by each_seed_runs_its_targets_body_within_bounds, in a capped child process"]
fn one_seed_in_this_process() {
    let target = std::env::var("VERGATE_FUZZ_TARGET").expect("VERGATE_FUZZ_TARGET is set");
    let seed = std::env::var("VERGATE_FUZZ_SEED").expect("VERGATE_FUZZ_SEED is set");
    let (_, body) = TARGETS
        .iter()
        .find(|(name, _)| *name == target)
        .unwrap_or_else(|| panic!("no fuzz target {target}"));
    body(&std::fs::read(&seed).expect("the seed reads"));
}

#[test]
fn every_fuzz_target_is_run_here_and_has_seeds() {
    let mut listed: Vec<String> = std::fs::read_dir(root().join("tests/fuzz/fuzz_targets"))
        .unwrap()
        .map(|entry| {
            let path = entry.unwrap().path();
            path.file_stem().unwrap().to_string_lossy().into_owned()
        })
        .collect();
    listed.sort();
    let here: Vec<&str> = TARGETS.iter().map(|(name, _)| *name).collect();
    assert_eq!(
        listed, here,
        "add each target of tests/fuzz/fuzz_targets to TARGETS"
    );
    let manifest = std::fs::read_to_string(root().join("tests/fuzz/Cargo.toml")).unwrap();
    for name in here {
        assert!(
            manifest.contains(&format!("name = \"{name}\"")),
            "tests/fuzz/Cargo.toml has no [[bin]] {name}"
        );
        assert!(!seeds(name).is_empty(), "tests/fuzz/seeds/{name} is empty");
    }
}

#[test]
fn each_seed_runs_its_targets_body_within_bounds() {
    let me = std::env::current_exe().expect("the test binary");
    for (target, _) in TARGETS {
        for seed in seeds(target) {
            let seed_text = seed.to_str().unwrap();
            let run = capped::run(
                me.as_os_str(),
                &[
                    "one_seed_in_this_process",
                    "--exact",
                    "--ignored",
                    "--test-threads=1",
                ],
                &[
                    ("VERGATE_FUZZ_TARGET", target),
                    ("VERGATE_FUZZ_SEED", seed_text),
                ],
            );
            assert_eq!(
                code(&run.output),
                0,
                "{target} on {seed_text}:\n{}{}",
                String::from_utf8_lossy(&run.output.stdout),
                stderr(&run.output)
            );
            assert!(
                run.cpu < SEED_CPU,
                "{target} on {seed_text} took {:?}",
                run.cpu
            );
            // The body ran (a filter that matched no test would pass too).
            assert!(
                String::from_utf8_lossy(&run.output.stdout).contains("1 passed"),
                "{target} on {seed_text}: the seed was not run:\n{}",
                String::from_utf8_lossy(&run.output.stdout)
            );
        }
    }
}

/// Checks `run`: an exit code of `check` or `upgrade` (0, 1, 2; no signal,
/// no timeout), within the time and with bounded output.
fn assert_bounded(run: &Capped, what: &str) {
    assert!(
        (0..=2).contains(&code(&run.output)),
        "{what}: exit {:?}\n{}",
        run.output.status,
        stderr(&run.output)
    );
    assert!(run.cpu < SEED_CPU, "{what} took {:?}", run.cpu);
    assert!(
        run.output.stdout.len() < MAX_OUTPUT,
        "{what} printed {} bytes",
        run.output.stdout.len()
    );
}

#[test]
fn upgrade_on_each_seed_ends_in_an_exit_code_within_bounds() {
    for seed in seeds("upgrade") {
        let seed = seed.to_str().unwrap();
        for (from, to) in [("1.28", "1.36"), ("1.36", "1.28")] {
            let run = capped::vergate(&["upgrade", "--from", from, "--to", to, seed]);
            assert_bounded(&run, &format!("upgrade --from {from} --to {to} {seed}"));
        }
    }
}

/// The CRD and custom resources of a `crd_rules` seed, as files in `dir`.
fn pair_files(seed: &Path, dir: &Path) -> (PathBuf, PathBuf) {
    let pair = crd_pair::pair(&std::fs::read(seed).unwrap());
    let (crd, cr) = (dir.join("crd.yaml"), dir.join("cr.yaml"));
    std::fs::write(&crd, pair.crd).unwrap();
    std::fs::write(&cr, pair.cr).unwrap();
    (crd, cr)
}

#[test]
fn check_with_each_crd_seed_ends_in_an_exit_code_within_bounds() {
    let dir = tempfile::tempdir().unwrap();
    for seed in seeds("crd_rules") {
        let (crd, cr) = pair_files(&seed, dir.path());
        let what = format!("check --crd on {}", seed.display());
        let args = |format: &'static str| -> Vec<&OsStr> {
            vec![
                OsStr::new("check"),
                OsStr::new("--target"),
                OsStr::new("1.34"),
                OsStr::new("--format"),
                OsStr::new(format),
                OsStr::new("--crd"),
                crd.as_os_str(),
                cr.as_os_str(),
            ]
        };
        let text = capped::vergate(&args("text"));
        assert_bounded(&text, &what);
        let json = capped::vergate(&args("json"));
        assert_bounded(&json, &what);
        let parsed: serde_json::Value = serde_json::from_slice(&json.output.stdout)
            .unwrap_or_else(|err| panic!("{what}: the JSON report does not parse: {err}"));
        assert!(parsed["violations"].is_array(), "{what}: {parsed}");
    }
}
