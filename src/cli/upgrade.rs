//! `vergate upgrade`: rewrite documents for a newer minor, or with `--all`
//! for every minor they hold in without loss.

use super::{inputs, known_minor, load_tables, write_out, Outcome, UpgradeArgs};
use vergate::document::{self, Node};
use vergate::tables::GateTables;
use vergate::upgrade::{self, Conversion};
use vergate::Version;

pub fn run(args: &UpgradeArgs) -> Outcome {
    let tables = match load_tables(args.api.as_deref()) {
        Ok(tables) => tables,
        Err(outcome) => return outcome,
    };
    for (flag, version) in [("--from", args.from), ("--to", args.to)] {
        if let Some(version) = version {
            if let Err(outcome) = known_minor(&tables, flag, version) {
                return outcome;
            }
        }
    }
    if let (Some(from), Some(to)) = (args.from, args.to) {
        if to < from {
            eprintln!("error: refusing to convert {from} → {to}: upgrade never goes to an older minor (--all writes every minor the document holds in without loss)");
            return Outcome::InputError;
        }
    }
    let stdin = args.input.as_os_str() == "-";
    if args.in_place && stdin {
        eprintln!("error: --in-place needs a file, not standard input");
        return Outcome::InputError;
    }
    if args.output.as_deref() == Some(args.input.as_path()) && !args.in_place {
        eprintln!(
            "error: {}: refusing to overwrite the input; pass --in-place to do that",
            args.input.display()
        );
        return Outcome::InputError;
    }
    let input = inputs::collect(std::slice::from_ref(&args.input))
        .into_iter()
        .next();
    let Some(input) = input else {
        eprintln!("error: no input");
        return Outcome::InputError;
    };
    let text = match input.text {
        Ok(text) => text,
        Err(message) => {
            eprintln!("{}: error: {message}", input.name);
            return Outcome::InputError;
        }
    };
    let parsed = document::parse(&text);
    if let Some(err) = &parsed.error {
        eprintln!("{}:{}: error: {}", input.name, err.line, err.message);
        return Outcome::InputError;
    }
    if parsed.documents.is_empty() {
        eprintln!("{}: error: no document to upgrade", input.name);
        return Outcome::InputError;
    }
    let mut written: Vec<Node> = Vec::new();
    let mut outcome = Outcome::Clean;
    for doc in &parsed.documents {
        let result = if args.all {
            all_minors(&tables, &input.name, &doc.root, args.from, &mut written)
        } else {
            let to = args.to.expect("clap requires --to without --all");
            one_minor(&tables, &input.name, &doc.root, args.from, to, &mut written)
        };
        outcome = outcome.max(result);
    }
    if outcome == Outcome::InputError {
        return outcome;
    }
    let refs: Vec<&Node> = written.iter().collect();
    let yaml = upgrade::to_yaml(&refs);
    let destination = if args.in_place {
        Some(args.input.as_path())
    } else {
        args.output.as_deref()
    };
    match destination {
        Some(path) => {
            if let Err(err) = std::fs::write(path, &yaml) {
                eprintln!("{}: error: cannot write: {err}", path.display());
                return Outcome::InputError;
            }
        }
        None => write_out(&yaml),
    }
    outcome
}

fn convert(
    tables: &GateTables,
    name: &str,
    root: &Node,
    from: Option<Version>,
    to: Version,
) -> Result<Conversion, Outcome> {
    upgrade::convert(tables, root, from, to).map_err(|err| {
        eprintln!("{name}:{}: error: {}", err.line, err.message);
        Outcome::InputError
    })
}

fn one_minor(
    tables: &GateTables,
    name: &str,
    root: &Node,
    from: Option<Version>,
    to: Version,
    written: &mut Vec<Node>,
) -> Outcome {
    let conversion = match convert(tables, name, root, from, to) {
        Ok(conversion) => conversion,
        Err(outcome) => return outcome,
    };
    if to < conversion.from {
        eprintln!(
            "{name}:{}: error: the document is written for {}; refusing to convert it to the older {to} (--all writes every minor it holds in without loss)",
            root.line, conversion.from
        );
        return Outcome::InputError;
    }
    for change in &conversion.changes {
        let label = if change.kind.refuses() {
            "error: "
        } else if change.kind.is_loss() {
            "warning: "
        } else {
            ""
        };
        eprintln!("{name}:{}: {label}{change}", change.line);
    }
    if conversion.is_refused() {
        eprintln!(
            "{name}:{}: error: refusing to write the document for {to}: {to} would reject it (above); nothing written",
            root.line
        );
        return Outcome::InputError;
    }
    let outcome = if conversion.is_lossless() {
        Outcome::Clean
    } else {
        Outcome::Violations
    };
    written.push(conversion.document);
    outcome
}

fn all_minors(
    tables: &GateTables,
    name: &str,
    root: &Node,
    from: Option<Version>,
    written: &mut Vec<Node>,
) -> Outcome {
    let mut kept = Vec::new();
    for &to in tables.versions() {
        let conversion = match convert(tables, name, root, from, to) {
            Ok(conversion) => conversion,
            Err(outcome) => return outcome,
        };
        if conversion.is_lossless() {
            kept.push(to.to_string());
            written.push(conversion.document);
        } else {
            let losses: Vec<String> = conversion
                .changes
                .iter()
                .filter(|change| change.kind.is_loss())
                .map(ToString::to_string)
                .collect();
            eprintln!("{name}:{}: skipped {to}: {}", root.line, losses.join("; "));
        }
    }
    eprintln!("{name}:{}: written for {}", root.line, kept.join(", "));
    Outcome::Clean
}
