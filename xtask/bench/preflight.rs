//! In-process preflight throughput on one core: parse + check, the reading
//! alone (trees built as `check` builds them: the stream cut into parts,
//! each read by the fast block-style path or yaml-rust2), check alone, and
//! yaml-rust2's events alone (what the full parser costs before any tree),
//! over a multi-document YAML file. Run by `benches/preflight.sh`:
//!
//! `cargo bench -p xtask --bench preflight -- <generated api dir> <target minor> <file.yaml> [runs]`
//!
//! Prints one JSON line with the medians.

use std::time::Instant;
use vergate::document;
use vergate::preflight::{self, Options};
use vergate::tables::GateTables;
use vergate::Version;

/// Drops parser events: what parsing costs before any tree is built.
struct Sink;

impl yaml_rust2::parser::MarkedEventReceiver for Sink {
    fn on_event(&mut self, event: yaml_rust2::parser::Event, _: yaml_rust2::scanner::Marker) {
        std::hint::black_box(event);
    }
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let [api, target, file, rest @ ..] = args.as_slice() else {
        eprintln!("usage: preflight <generated api dir> <target minor> <file.yaml> [runs]");
        std::process::exit(2);
    };
    let runs: usize = rest
        .first()
        .map_or(7, |r| r.parse().expect("runs is a number"));
    let tables = GateTables::load(api.as_ref()).unwrap_or_else(|err| panic!("{err}"));
    let target: Version = target.parse().unwrap_or_else(|err| panic!("{err}"));
    let text = std::fs::read_to_string(file).unwrap_or_else(|err| panic!("{file}: {err}"));
    let options = Options {
        target: Some(target),
        strict: true,
        ..Default::default()
    };
    let parsed = document::parse(&text);
    assert!(parsed.error.is_none(), "{file}: {:?}", parsed.error);
    let count = parsed.documents.len();
    let mut failing = 0;
    for doc in &parsed.documents {
        let report = preflight::check(&tables, &doc.root, options).expect("checkable");
        if !report.passes() {
            failing += 1;
        }
    }

    let mut end_to_end = Vec::new();
    let mut read_only = Vec::new();
    let mut check_only = Vec::new();
    let mut raw_events = Vec::new();
    for _ in 0..runs {
        let start = Instant::now();
        yaml_rust2::parser::Parser::new_from_str(&text)
            .load(&mut Sink, true)
            .unwrap();
        raw_events.push(count as f64 / start.elapsed().as_secs_f64());

        // As `vergate check` reads: the parts of the stream, one document
        // tree at a time.
        let start = Instant::now();
        let mut violations = 0;
        for part in document::split(&text) {
            for doc in part.reader() {
                let doc = doc.expect("the file reads");
                violations += preflight::check(&tables, &doc.root, options)
                    .expect("checkable")
                    .violations
                    .len();
            }
        }
        std::hint::black_box(violations);
        end_to_end.push(count as f64 / start.elapsed().as_secs_f64());

        let start = Instant::now();
        for part in document::split(&text) {
            for doc in part.reader() {
                std::hint::black_box(doc.expect("the file reads"));
            }
        }
        read_only.push(count as f64 / start.elapsed().as_secs_f64());

        let start = Instant::now();
        for doc in &parsed.documents {
            std::hint::black_box(preflight::check(&tables, &doc.root, options).expect("checkable"));
        }
        check_only.push(count as f64 / start.elapsed().as_secs_f64());
    }
    println!(
        "{{\"resources\": {count}, \"failing\": {failing}, \"bytes\": {}, \"runs\": {runs}, \"parse_and_check_per_s\": {:.0}, \"read_only_per_s\": {:.0}, \"check_only_per_s\": {:.0}, \"yaml_events_only_per_s\": {:.0}}}",
        text.len(),
        median(end_to_end),
        median(read_only),
        median(check_only),
        median(raw_events)
    );
}
