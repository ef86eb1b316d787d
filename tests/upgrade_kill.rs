//! `vergate upgrade --in-place` killed with SIGKILL while it writes a large
//! file (issue #44): whenever the kill lands, the file holds exactly its old
//! bytes or exactly its new bytes, never an empty or cut file (a write that
//! opened the file with O_TRUNC left it empty).
//!
//! The file is tens of megabytes of comment lines (cheap to read, long to
//! write) and one document that changes. Each run is killed at a varied
//! delay after it starts writing (a temporary file appears beside the
//! target, or the target itself changes, as a write in place would), and a
//! few at varied delays from its start; the test takes a few seconds.

#![cfg(unix)]

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const DOCUMENT: &str = "---\napiVersion: flowcontrol.apiserver.k8s.io/v1beta3\nkind: FlowSchema\nmetadata:\n  name: batch\nspec:\n  priorityLevelConfiguration:\n    name: workload-low\n  matchingPrecedence: 1000\n";

/// About `megabytes` MB of comment lines, then the document.
fn big_text(megabytes: usize) -> String {
    let line = format!("# {}\n", "x".repeat(98));
    let mut text = String::with_capacity(megabytes * 1_000_000 + DOCUMENT.len());
    while text.len() < megabytes * 1_000_000 {
        text.push_str(&line);
    }
    text.push_str(DOCUMENT);
    text
}

fn upgrade(path: &Path, in_place: bool) -> Child {
    let mut command = Command::new(env!("CARGO_BIN_EXE_vergate"));
    command.args(["upgrade", "--from", "1.28", "--to", "1.36"]);
    if in_place {
        command.arg("--in-place");
    }
    command
        .arg(path)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the vergate binary runs")
}

/// True once the run has started writing: a file other than the target is
/// in the directory, or the target is no longer `old_len` bytes long.
fn writing(dir: &Path, target: &Path, old_len: u64) -> bool {
    let beside = std::fs::read_dir(dir)
        .map(|entries| entries.flatten().any(|entry| entry.path() != target))
        .unwrap_or(false);
    beside || std::fs::metadata(target).map_or(true, |meta| meta.len() != old_len)
}

/// Removes whatever a killed run left beside the target.
fn clear_beside(dir: &Path, target: &Path) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        if entry.path() != target {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

#[test]
fn a_killed_in_place_upgrade_leaves_the_old_or_the_new_bytes() {
    let tmp = tempfile::tempdir().unwrap();
    let dir: PathBuf = tmp.path().join("files");
    std::fs::create_dir(&dir).unwrap();
    let target = dir.join("big.yaml");
    let old = big_text(32);
    std::fs::write(&target, &old).unwrap();
    // The new bytes, from standard output.
    let output = upgrade(&target, false).wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(0));
    let new = output.stdout;
    assert_ne!(new, old.as_bytes());
    assert!(new.len() > 30_000_000);

    let started = Instant::now();
    // Kills after writing began (ms), then kills from the start (ms).
    let after_writing = [0u64, 1, 3, 7, 15, 40];
    let from_start = [20u64, 150];
    let mut landed_while_writing = 0;
    let mut outcomes = Vec::new();
    for (delay, from_begin) in after_writing
        .iter()
        .map(|delay| (*delay, false))
        .chain(from_start.iter().map(|delay| (*delay, true)))
    {
        std::fs::write(&target, &old).unwrap();
        clear_beside(&dir, &target);
        let mut child = upgrade(&target, true);
        let spawned = Instant::now();
        if from_begin {
            std::thread::sleep(Duration::from_millis(delay));
        } else {
            // Waits (bounded) for the write to begin.
            while !writing(&dir, &target, old.len() as u64)
                && child.try_wait().unwrap().is_none()
                && spawned.elapsed() < Duration::from_secs(20)
            {
                std::thread::sleep(Duration::from_micros(200));
            }
            std::thread::sleep(Duration::from_millis(delay));
        }
        let finished = child.try_wait().unwrap().is_some();
        if !finished && writing(&dir, &target, old.len() as u64) {
            landed_while_writing += 1;
        }
        let _ = child.kill(); // SIGKILL
        let _ = child.wait();
        let bytes = std::fs::read(&target).unwrap();
        let state = if bytes == old.as_bytes() {
            "old"
        } else if bytes == new {
            "new"
        } else {
            panic!(
                "killed {delay} ms after {}: the file holds {} bytes, neither the old {} nor the new {}",
                if from_begin { "its start" } else { "writing began" },
                bytes.len(),
                old.len(),
                new.len()
            );
        };
        outcomes.push(format!(
            "{delay} ms after {}: {state}",
            if from_begin { "start" } else { "writing" }
        ));
    }
    eprintln!(
        "{} in {:?}",
        outcomes.join(", "),
        started.elapsed()
    );
    // The test could catch a cut file: some kills landed mid-write.
    assert!(
        landed_while_writing >= 2,
        "only {landed_while_writing} kills landed while writing: {outcomes:?}"
    );
}
