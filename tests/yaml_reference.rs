//! vergate reads YAML and JSON as kubectl does: every case of
//! `tests/yaml_reference/corpus.jsonl` (recorded by a Go reference built on
//! sigs.k8s.io/yaml and go-yaml v2, mirroring apimachinery's
//! YAMLOrJSONDecoder; see `tests/yaml_reference/README.md`) is read with
//! the verdict (accepted or refused) and the values the reference gives,
//! by the reader users get (the fast path where it reads) and by the full
//! reader alone.

use serde_json::Value as Json;
use vergate::document::{decode, split, Reader};

#[derive(serde::Deserialize)]
struct Case {
    name: String,
    input: String,
    verdict: String,
    #[serde(default)]
    values: Vec<Json>,
}

/// The recorded corpus, or another file recorded the same way
/// (`VERGATE_YAML_CORPUS=<file>`, to try more inputs).
fn corpus() -> Vec<Case> {
    let path = std::env::var("VERGATE_YAML_CORPUS").unwrap_or_else(|_| {
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/yaml_reference/corpus.jsonl"
        )
        .to_owned()
    });
    let text = std::fs::read_to_string(path).expect("the recorded corpus");
    text.lines()
        .map(|line| serde_json::from_str(line).expect("a corpus line"))
        .collect()
}

/// Numbers compared by value: vergate keeps a float as written (`2.0`),
/// kubectl writes `2`; both send the same number.
fn normalize(value: &Json) -> Json {
    match value {
        Json::Number(number) => number
            .as_f64()
            .and_then(serde_json::Number::from_f64)
            .map_or_else(|| value.clone(), Json::Number),
        Json::Array(items) => Json::Array(items.iter().map(normalize).collect()),
        Json::Object(entries) => Json::Object(
            entries
                .iter()
                .map(|(key, value)| (key.clone(), normalize(value)))
                .collect(),
        ),
        _ => value.clone(),
    }
}

/// What a reading gave: the documents' values, or the first error.
type Reading = Result<Vec<Json>, String>;

fn read(readers: Vec<Reader<'_>>) -> Reading {
    let mut values = Vec::new();
    for reader in readers {
        for document in reader {
            match document {
                Ok(document) => values.push(normalize(&document.root.to_json())),
                Err(err) => {
                    assert!(err.line >= 1, "an error without a line: {err}");
                    return Err(err.to_string());
                }
            }
        }
    }
    Ok(values)
}

fn expected(case: &Case) -> Result<Vec<Json>, ()> {
    match case.verdict.as_str() {
        "accept" => Ok(case.values.iter().map(normalize).collect()),
        "refuse" => Err(()),
        other => panic!("{}: unknown verdict {other}", case.name),
    }
}

fn differs(expected: &Result<Vec<Json>, ()>, got: &Reading) -> bool {
    match (expected, got) {
        (Ok(want), Ok(got)) => want != got,
        (Err(()), Err(_)) => false,
        _ => true,
    }
}

#[test]
fn both_readers_read_every_case_as_kubectl_does() {
    let corpus = corpus();
    assert!(corpus.len() >= 60, "the corpus is missing cases");
    let mut failures = Vec::new();
    let mut fast_read = 0;
    for case in &corpus {
        let want = expected(case);
        // The text as `vergate check` reads a file's bytes (a leading
        // byte-order mark dropped).
        let input = match decode(case.input.clone().into_bytes()) {
            Ok(text) => text,
            Err(err) => {
                if want.is_ok() {
                    failures.push(format!("{}: refused when decoded: {err}", case.name));
                }
                continue;
            }
        };
        let parts = split(&input);
        fast_read += parts
            .iter()
            .filter(|part| part.fast_and_full().is_some())
            .count();
        let readings = [
            (
                "as users read it",
                read(parts.iter().map(|part| part.reader()).collect()),
            ),
            (
                "by the full reader",
                read(parts.iter().map(|part| part.full_reader()).collect()),
            ),
            ("whole", read(vec![Reader::new(&input)])),
        ];
        for (how, got) in readings {
            if differs(&want, &got) {
                failures.push(format!(
                    "{} ({how}): input {:?}\n  kubectl: {}\n  vergate: {}",
                    case.name,
                    case.input,
                    match &want {
                        Ok(values) => format!("accepts {}", Json::Array(values.clone())),
                        Err(()) => "refuses".to_owned(),
                    },
                    match &got {
                        Ok(values) => format!("accepts {}", Json::Array(values.clone())),
                        Err(err) => format!("refuses: {err}"),
                    },
                ));
            }
        }
    }
    assert!(fast_read > 20, "the fast path read only {fast_read} parts");
    assert!(
        failures.is_empty(),
        "{} readings differ from kubectl's:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
