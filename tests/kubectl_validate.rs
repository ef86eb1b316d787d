//! `vergate check` on kubectl-validate's own test suite: the 35 documents of
//! its `testcases/manifests` (the Go module sigs.k8s.io/kubectl-validate
//! v0.0.4, read from the module cache, never copied here), with its CRDs
//! from `testcases/crds`, against what the API server of each minor answers
//! to them (`tests/kubectl_validate/verdicts.jsonl`, recorded by
//! `tests/kubectl_validate/record.sh` with the reference harness of
//! `xtask/apiserver/`). The suite's own expectations (the status in each
//! document's leading comment) were recorded against an older server; where
//! today's server says otherwise, the server wins, and the test prints both.

mod support;

use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The minors vergate holds that the recording has.
const MINORS: [&str; 9] = [
    "1.28", "1.29", "1.30", "1.31", "1.32", "1.33", "1.34", "1.35", "1.36",
];

/// One document's record.
#[derive(Deserialize)]
struct Recorded {
    file: String,
    index: usize,
    sha256: String,
    kubectl_validate_expects: String,
    server: BTreeMap<String, Answer>,
}

#[derive(Deserialize)]
struct Answer {
    verdict: String,
    fields: Vec<String>,
}

/// The documents of a file, cut as apimachinery's YAMLReader cuts them
/// (tests/kubectl_validate/suite.py does the same for the recording).
fn documents(text: &str) -> Vec<String> {
    let mut docs = Vec::new();
    let mut current: Vec<&str> = Vec::new();
    for line in text.split('\n') {
        if line.starts_with("---") && line[3..].trim().is_empty() {
            if !current.is_empty() {
                docs.push(current.join("\n"));
            }
            current.clear();
        } else {
            current.push(line);
        }
    }
    if !current.is_empty() {
        docs.push(current.join("\n"));
    }
    docs.retain(|doc| !doc.is_empty());
    docs
}

fn sha256(text: &str) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(text.as_bytes())
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect()
}

/// What vergate said of each file: refused, and the paths of its errors.
fn check(minor: &str, crds: &Path, files: &[PathBuf]) -> BTreeMap<PathBuf, (bool, Vec<String>)> {
    let output = Command::new(env!("CARGO_BIN_EXE_vergate"))
        .args(["check", "--target", minor, "--format", "json", "--crd"])
        .arg(crds)
        .args(files)
        .output()
        .unwrap();
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap_or_else(|err| {
        panic!(
            "not a JSON report ({err}): {}",
            String::from_utf8_lossy(&output.stderr)
        )
    });
    let mut said: BTreeMap<PathBuf, (bool, Vec<String>)> = files
        .iter()
        .map(|file| (file.clone(), (false, Vec::new())))
        .collect();
    for violation in report["violations"].as_array().into_iter().flatten() {
        if violation["severity"] != "error" {
            continue;
        }
        let file = PathBuf::from(violation["file"].as_str().unwrap_or_default());
        let entry = said.get_mut(&file).expect("a violation of a checked file");
        entry.0 = true;
        entry
            .1
            .push(violation["path"].as_str().unwrap_or_default().to_owned());
    }
    for error in report["errors"].as_array().into_iter().flatten() {
        let file = PathBuf::from(error["file"].as_str().unwrap_or_default());
        said.get_mut(&file)
            .expect("an input error of a checked file")
            .0 = true;
    }
    said
}

#[test]
#[cfg_attr(
    not(vergate_kubectl_validate_testcases),
    ignore = "needs kubectl-validate's testcases: target/tools (see .ci/run) or VERGATE_KUBECTL_VALIDATE_TESTCASES"
)]
fn check_gives_the_servers_verdict_on_kubectl_validates_own_suite() {
    let testcases = support::kubectl_validate_testcases();
    let recorded: Vec<Recorded> =
        std::fs::read_to_string(support::root().join("tests/kubectl_validate/verdicts.jsonl"))
            .unwrap()
            .lines()
            .map(|line| serde_json::from_str(line).unwrap())
            .collect();
    let work = tempfile::tempdir().unwrap();
    let mut files = Vec::new();
    let mut seen = 0;
    let mut manifests: Vec<PathBuf> = std::fs::read_dir(testcases.join("manifests"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "yaml"))
        .collect();
    manifests.sort();
    for path in &manifests {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        for (index, doc) in documents(&std::fs::read_to_string(path).unwrap())
            .iter()
            .enumerate()
        {
            let record = recorded
                .iter()
                .find(|r| r.file == name && r.index == index)
                .unwrap_or_else(|| panic!("{name} document {index} is not recorded: re-record (tests/kubectl_validate/record.sh)"));
            assert_eq!(
                record.sha256,
                sha256(doc),
                "{name} document {index} changed since it was recorded"
            );
            let file = work.path().join(format!("{name}.{index}.yaml"));
            std::fs::write(&file, doc).unwrap();
            files.push((file, record));
            seen += 1;
        }
    }
    assert_eq!(
        seen,
        recorded.len(),
        "the suite's documents and the recording differ in number"
    );
    assert_eq!(seen, 35, "kubectl-validate v0.0.4's suite has 35 documents");

    let mut failures = Vec::new();
    let mut table = String::new();
    for minor in MINORS {
        let paths: Vec<PathBuf> = files.iter().map(|(file, _)| file.clone()).collect();
        let said = check(minor, &testcases.join("crds"), &paths);
        let (mut agree, mut fields, mut field_total, mut suite_agree) = (0, 0, 0, 0);
        for (file, record) in &files {
            let (refused, paths) = &said[file];
            let server = record.server.get(minor);
            let server_refuses = server.is_some_and(|answer| answer.verdict == "refuse");
            if *refused == server_refuses {
                agree += 1;
            } else {
                failures.push(format!(
                    "{minor} {} #{}: the server {}, vergate {} ({paths:?})",
                    record.file,
                    record.index,
                    if server_refuses { "refuses" } else { "accepts" },
                    if *refused { "refuses" } else { "accepts" }
                ));
            }
            if *refused == (record.kubectl_validate_expects != "Success") {
                suite_agree += 1;
            }
            if let Some(answer) = server.filter(|_| server_refuses && *refused) {
                if !answer.fields.is_empty() {
                    field_total += 1;
                    // The server writes a rule on the root's field as `<nil>`.
                    let named = |path: &String| {
                        answer
                            .fields
                            .iter()
                            .any(|field| field == path || (field == "<nil>" && path.is_empty()))
                    };
                    if paths.iter().any(named) {
                        fields += 1;
                    } else {
                        table.push_str(&format!(
                            "{minor} {} #{}: the server names {:?}, vergate {paths:?}\n",
                            record.file, record.index, answer.fields
                        ));
                    }
                }
            }
        }
        table.push_str(&format!(
            "{minor}: the server's verdict on {agree}/{} documents; its field on {fields}/{field_total} refusals; the suite's own expectation on {suite_agree}/{}\n",
            files.len(),
            files.len()
        ));
    }
    println!("{table}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
