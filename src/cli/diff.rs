//! `vergate diff`: the changelog between two minors.

use super::{
    known_minor, load_tables, print_json, write_out, DiffArgs, Outcome, PlainReportFormat,
};
use vergate::changelog;

pub fn run(args: &DiffArgs) -> Outcome {
    let tables = match load_tables(args.api.as_deref()) {
        Ok(tables) => tables,
        Err(outcome) => return outcome,
    };
    for version in [args.old, args.new] {
        if let Err(outcome) = known_minor(&tables, "minor", version) {
            return outcome;
        }
    }
    let log = changelog::diff(&tables, args.old, args.new);
    match args.format {
        PlainReportFormat::Text => write_out(&log.to_string()),
        PlainReportFormat::Json => {
            print_json(&serde_json::to_value(&log).expect("a changelog serializes"))
        }
    }
    Outcome::Clean
}
