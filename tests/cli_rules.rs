//! The check rules are declared once (`src/preflight/violation.rs`); the
//! rules table of docs/cli.md must list the same ids, in the same order,
//! each with its default severity first in the severity column.

use vergate::preflight::{Rule, Severity};

/// The rows of the table under `### Rules` in docs/cli.md: (id, severity cell).
fn documented_rules() -> Vec<(String, String)> {
    let docs = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/cli.md"))
        .expect("docs/cli.md reads");
    let section = docs
        .split("\n### Rules\n")
        .nth(1)
        .expect("docs/cli.md has a `### Rules` section");
    section
        .lines()
        .skip_while(|line| !line.starts_with("| rule |"))
        .skip(2)
        .take_while(|line| line.starts_with('|'))
        .map(|line| {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            (cells[1].trim_matches('`').to_owned(), cells[2].to_owned())
        })
        .collect()
}

#[test]
fn docs_list_every_rule_in_order() {
    let documented: Vec<String> = documented_rules().into_iter().map(|(id, _)| id).collect();
    let declared: Vec<String> = Rule::ALL.iter().map(|rule| rule.id().to_owned()).collect();
    assert_eq!(
        documented, declared,
        "docs/cli.md's rules table differs from the rules in src/preflight/violation.rs"
    );
}

#[test]
fn docs_give_each_rule_its_default_severity_first() {
    for (rule, (id, severity)) in Rule::ALL.iter().zip(documented_rules()) {
        let expected = match rule.default_severity() {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        assert!(
            severity.starts_with(expected),
            "docs/cli.md says `{id}` is `{severity}`, but its default severity is {expected}"
        );
    }
}

#[test]
fn ids_are_unique_and_kebab_case() {
    let mut seen = std::collections::BTreeSet::new();
    for rule in Rule::ALL {
        let id = rule.id();
        assert!(seen.insert(id), "rule id `{id}` declared twice");
        assert!(
            id.bytes().all(|b| b.is_ascii_lowercase() || b == b'-'),
            "rule id `{id}` is not kebab-case"
        );
        assert!(!rule.description().is_empty());
    }
}
