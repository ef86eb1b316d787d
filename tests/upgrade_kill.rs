//! `vergate upgrade --in-place` killed with SIGKILL while it writes a large
//! file (issue #44): whenever the kill lands, the file holds exactly its old
//! bytes or exactly its new bytes, never an empty or cut file (a write that
//! opened the file with O_TRUNC left it empty).
//!
//! The file is 8 MB of comment lines (cheap to read, long to write) and
//! one document that changes. A first run to its end gives the new bytes
//! and how long writing takes, from the moment it shows (a temporary file
//! beside the target, or the target itself changed, as a write in place
//! would) to the end; later runs are killed at fractions of that time
//! after writing shows, and one soon after its start. Six runs in all: a
//! few seconds.

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

/// `vergate upgrade --in-place` of `path`, running.
fn upgrade_in_place(path: &Path) -> Child {
    Command::new(env!("CARGO_BIN_EXE_vergate"))
        .args(["upgrade", "--from", "1.28", "--to", "1.36", "--in-place"])
        .arg(path)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
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

/// Waits (up to 20 s) until `child` starts writing or ends; true when it
/// is writing.
fn wait_for_writing(child: &mut Child, dir: &Path, target: &Path, old_len: u64) -> bool {
    let spawned = Instant::now();
    while spawned.elapsed() < Duration::from_secs(20) {
        if writing(dir, target, old_len) {
            return true;
        }
        if child.try_wait().unwrap().is_some() {
            return false;
        }
        std::thread::sleep(Duration::from_micros(200));
    }
    false
}

#[test]
fn a_killed_in_place_upgrade_leaves_the_old_or_the_new_bytes() {
    let tmp = tempfile::tempdir().unwrap();
    let dir: PathBuf = tmp.path().join("files");
    std::fs::create_dir(&dir).unwrap();
    let target = dir.join("big.yaml");
    let old = big_text(8);
    let old_len = old.len() as u64;
    std::fs::write(&target, &old).unwrap();
    let started = Instant::now();

    // One run to its end: the new bytes, and how long writing takes (from
    // the moment it shows to the end of the process).
    let mut child = upgrade_in_place(&target);
    assert!(wait_for_writing(&mut child, &dir, &target, old_len));
    let began = Instant::now();
    assert_eq!(child.wait().unwrap().code(), Some(0));
    let window = began.elapsed();
    let new = std::fs::read(&target).unwrap();
    assert_ne!(new, old.as_bytes());
    assert!(new.len() > 7_000_000);

    // Kills at fractions of that window after writing shows, and one from
    // the start.
    let mut landed_while_writing = 0;
    let mut outcomes = Vec::new();
    let kills = [
        (0.0, false),
        (0.05, false),
        (0.15, false),
        (0.4, false),
        (0.0, true),
    ];
    for (fraction, from_start) in kills {
        std::fs::write(&target, &old).unwrap();
        clear_beside(&dir, &target);
        let mut child = upgrade_in_place(&target);
        let delay = if from_start {
            Duration::from_millis(30)
        } else {
            assert!(wait_for_writing(&mut child, &dir, &target, old_len));
            window.mul_f64(fraction)
        };
        std::thread::sleep(delay);
        if child.try_wait().unwrap().is_none() && writing(&dir, &target, old_len) {
            landed_while_writing += 1;
        }
        let _ = child.kill(); // SIGKILL
        let _ = child.wait();
        let bytes = std::fs::read(&target).unwrap();
        let when = format!(
            "{delay:?} after {}",
            if from_start {
                "its start"
            } else {
                "writing began"
            }
        );
        let state = if bytes == old.as_bytes() {
            "old"
        } else if bytes == new {
            "new"
        } else {
            panic!(
                "killed {when}: the file holds {} bytes, neither the old {} nor the new {}",
                bytes.len(),
                old.len(),
                new.len()
            );
        };
        outcomes.push(format!("{when}: {state}"));
    }
    eprintln!(
        "writing took {window:?}; {} ({:?} in all)",
        outcomes.join(", "),
        started.elapsed()
    );
    // The test could catch a cut file: some kills landed mid-write.
    assert!(
        landed_while_writing >= 2,
        "only {landed_while_writing} kills landed while writing: {outcomes:?}"
    );
}
