//! scheduling's checks (k8s.io/kubernetes `pkg/apis/scheduling/validation`
//! `ValidatePriorityClass`): `system-` names are the system's classes, a
//! user's value is at most one billion, the preemption policy.

use super::read::{entries, get, int, line_of, Findings, Path};
use super::{Broken, Scope, Table};
use crate::document::{Entry, Node, Value};

/// The checks, by the definition of the object they read.
pub(super) const CHECKS: Table = &[("io.k8s.api.scheduling.v1.PriorityClass", priority_class)];

/// The highest value of a priority class users define.
const HIGHEST_USER_DEFINABLE: i64 = 1_000_000_000;

/// The system's priority classes and their values (`globalDefault` false).
const SYSTEM_CLASSES: [(&str, i64); 2] = [
    ("system-node-critical", 2_000_001_000),
    ("system-cluster-critical", 2_000_000_000),
];

/// `ValidatePriorityClass`.
fn priority_class(_: &Scope, object: &[Entry], line: u32, out: &mut Vec<Broken>) {
    let found = &mut Findings { out };
    let root = Path::Root;
    let metadata = entries(get(object, "metadata"));
    let name = metadata
        .iter()
        .find(|entry| entry.key == "name")
        .and_then(|entry| entry.value.as_str())
        .unwrap_or("");
    let value = int(object, "value").unwrap_or(0);
    let global_default = matches!(
        get(object, "globalDefault").map(|n| &n.value),
        Some(Value::Bool(true))
    );
    if name.starts_with("system-") {
        let problem = match SYSTEM_CLASSES.iter().find(|(known, _)| *known == name) {
            None => Some(format!("{name} is not a known system priority class")),
            Some((_, known)) if *known != value => {
                Some(format!("value of {name} PriorityClass must be {known}"))
            }
            Some(_) if global_default => Some(format!(
                "globalDefault of {name} PriorityClass must be false"
            )),
            Some(_) => None,
        };
        if let Some(problem) = problem {
            let line = line_of(metadata, "name", line_of(object, "metadata", line));
            found.forbidden(
                root.key("metadata").key("name"),
                line,
                &format!("priority class names with 'system-' prefix are reserved for system use only. error: {problem}"),
            );
        }
    } else if value > HIGHEST_USER_DEFINABLE {
        found.forbidden(
            root.key("value"),
            line_of(object, "value", line),
            &format!(
                "maximum allowed value of a user defined priority is {HIGHEST_USER_DEFINABLE}"
            ),
        );
    }
    // Defaulted when unset; an empty string is not.
    if let Some(policy) = get(object, "preemptionPolicy").and_then(Node::as_str) {
        let line = line_of(object, "preemptionPolicy", line);
        let path = root.key("preemptionPolicy");
        match policy {
            "PreemptLowerPriority" | "Never" => {}
            "" => found.required(path, line, ""),
            other => found.not_supported(path, line, other, &["PreemptLowerPriority", "Never"]),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::read::found;

    const CLASS: &str = "io.k8s.api.scheduling.v1.PriorityClass";

    #[test]
    fn system_names_and_user_values() {
        assert!(found(CLASS, "metadata: {name: high}\nvalue: 1000\n").is_empty());
        assert!(found(
            CLASS,
            "metadata: {name: system-node-critical}\nvalue: 2000001000\n"
        )
        .is_empty());
        assert_eq!(
            found(CLASS, "metadata: {name: system-x}\nvalue: 1\n"),
            ["metadata.name@1: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: system-x is not a known system priority class"]
        );
        assert_eq!(
            found(CLASS, "metadata: {name: high}\nvalue: 2000000000\npreemptionPolicy: Sometimes\n"),
            [
                "value@2: Forbidden: maximum allowed value of a user defined priority is 1000000000",
                "preemptionPolicy@3: Unsupported value: \"Sometimes\": supported values: \"PreemptLowerPriority\", \"Never\"",
            ]
        );
    }
}
