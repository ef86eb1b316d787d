//! Reads one YAML file with each candidate parser, events only (no tree),
//! on one thread, and prints a Markdown row per parser: best of RUNS.
//!
//!   yaml-parsers-bench FILE [RUNS]

use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("usage: yaml-parsers-bench FILE [RUNS]");
    let runs: usize = args.next().map_or(5, |runs| runs.parse().expect("RUNS is a number"));
    let text = std::fs::read_to_string(&path).expect("the file is readable UTF-8");
    let documents = serde_yaml_ng::Deserializer::from_str(&text).count();
    let megabytes = text.len() as f64 / 1e6;
    println!("| parser | what is read | best of {runs} | MB/s | documents/s |");
    println!("|---|---|---|---|---|");
    let row = |name: &str, what: &str, read: &dyn Fn() -> usize| {
        let mut best = f64::MAX;
        for _ in 0..runs {
            let start = Instant::now();
            std::hint::black_box(read());
            best = best.min(start.elapsed().as_secs_f64());
        }
        println!(
            "| {name} | {what} | {:.0} ms | {:.1} | {:.0} |",
            best * 1e3,
            megabytes / best,
            documents as f64 / best
        );
    };
    row("yaml-rust2 0.13 (vergate's)", "events with line marks", &|| {
        let mut parser = yaml_rust2::parser::Parser::new_from_str(&text);
        let mut events = 0;
        loop {
            let (event, _mark) = parser.next_token().expect("valid YAML");
            events += 1;
            if event == yaml_rust2::Event::StreamEnd {
                return events;
            }
        }
    });
    row("saphyr-parser 0.3", "events with spans", &|| {
        let mut parser = saphyr_parser::Parser::new_from_str(&text);
        let mut events = 0;
        while let Some(next) = parser.next_event() {
            let (event, _span) = next.expect("valid YAML");
            events += 1;
            if event == saphyr_parser::Event::StreamEnd {
                break;
            }
        }
        events
    });
    row("libyaml-safer 0.3", "events with marks", &|| {
        let mut input = text.as_bytes();
        let mut parser = libyaml_safer::Parser::new();
        parser.set_input_string(&mut input);
        let mut events = 0;
        loop {
            let event = parser.parse().expect("valid YAML");
            events += 1;
            if matches!(event.data, libyaml_safer::EventData::StreamEnd) {
                return events;
            }
        }
    });
    row("serde_yaml_ng 0.10 (unsafe-libyaml)", "serde, skipping values", &|| {
        serde_yaml_ng::Deserializer::from_str(&text)
            .map(|document| {
                let _: serde::de::IgnoredAny =
                    serde::Deserialize::deserialize(document).expect("valid YAML");
            })
            .count()
    });
}
