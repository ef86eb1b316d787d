//! `check`'s cross-field rules: what the API server checks over several
//! fields of one object (port names unique, exactly one probe handler), as
//! the refinements overlay declares them on the object's type in gates.json
//! (`CrossFieldRule`). The Pkl packages enforce the same declarations with
//! the same words (`vergate_core::gates::cross_field`).

use crate::document::{Entry, Node, Value};
use crate::gates::{duplicate_message, none_message, too_many_message, CrossFieldRule, REQUIRED};
use std::collections::HashSet;

/// One broken rule: where, below the object (`ports[1].name`; empty for
/// the object itself), the line, and the API server's message.
pub(super) struct Broken {
    pub last: String,
    pub line: u32,
    pub message: String,
}

/// The entries of `fields` an object (its `entries`) sets to a value other
/// than null, in the order of `fields`.
fn set_fields<'a>(entries: &'a [Entry], fields: &[String]) -> Vec<&'a Entry> {
    fields
        .iter()
        .filter_map(|name| entries.iter().find(|entry| entry.key == name.as_str()))
        .filter(|entry| !matches!(entry.value.value, Value::Null))
        .collect()
}

/// The rules `rules` of an object (its `entries`, at `line`) breaks. Each
/// list is read once; the work is linear in the object's size.
pub(super) fn check(rules: &[CrossFieldRule], entries: &[Entry], line: u32) -> Vec<Broken> {
    let mut broken = Vec::new();
    let field = |name: &str| entries.iter().find(|entry| entry.key == name);
    for rule in rules {
        match rule {
            CrossFieldRule::UniqueKey { field: list, key } => {
                let mut seen = HashSet::new();
                for (index, _, value) in keys(field(list), key) {
                    if let Some((text, line)) = value.filter(|(text, _)| !text.is_empty()) {
                        if !seen.insert(text) {
                            broken.push(Broken {
                                last: format!("{list}[{index}].{key}"),
                                line,
                                message: duplicate_message(text),
                            });
                        }
                    }
                }
            }
            CrossFieldRule::KeyRequiredWhenMany { field: list, key } => {
                let items = keys(field(list), key);
                if items.len() > 1 {
                    for (index, item, value) in items {
                        if value.is_none_or(|(text, _)| text.is_empty()) {
                            broken.push(Broken {
                                last: format!("{list}[{index}].{key}"),
                                line: item.line,
                                message: REQUIRED.to_owned(),
                            });
                        }
                    }
                }
            }
            CrossFieldRule::ExactlyOneOf {
                fields,
                none,
                too_many,
            } => {
                let set = set_fields(entries, fields);
                if set.is_empty() {
                    broken.push(Broken {
                        last: String::new(),
                        line,
                        message: none_message(none),
                    });
                }
                // Each one after the first, as the API server reports them.
                broken.extend(set.iter().skip(1).map(|extra| Broken {
                    last: extra.key.to_string(),
                    line: extra.line,
                    message: too_many_message(too_many),
                }));
            }
            CrossFieldRule::OneOrMoreOf {
                fields,
                alone,
                none,
                too_many,
            } => {
                let set = set_fields(entries, fields);
                let message = if set.is_empty() {
                    none_message(none)
                } else if set.len() > 1 && set.iter().any(|entry| entry.key == alone.as_str()) {
                    too_many_message(too_many)
                } else {
                    continue;
                };
                broken.push(Broken {
                    last: String::new(),
                    line,
                    message,
                });
            }
        }
    }
    broken
}

/// One item of a list field: its index, its node, and its key's text and
/// line (`None` when unset or null).
type Keyed<'d> = (usize, &'d Node, Option<(&'d str, u32)>);

/// The items of a list field, each with its `key`.
fn keys<'d>(list: Option<&'d Entry>, key: &str) -> Vec<Keyed<'d>> {
    let Some(Value::Seq(items)) = list.map(|entry| &entry.value.value) else {
        return Vec::new();
    };
    items
        .iter()
        .enumerate()
        .map(|(index, item)| {
            let value = item.as_map().and_then(|entries| {
                let entry = entries.iter().find(|entry| entry.key == key)?;
                match &entry.value.value {
                    Value::String(text) | Value::Float(text) => Some((text.as_str(), entry.line)),
                    _ => None,
                }
            });
            (index, item, value)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(yaml: &str) -> Node {
        crate::document::parse(yaml).documents.remove(0).root
    }

    fn ports_rules() -> Vec<CrossFieldRule> {
        vec![
            CrossFieldRule::UniqueKey {
                field: "ports".into(),
                key: "name".into(),
            },
            CrossFieldRule::KeyRequiredWhenMany {
                field: "ports".into(),
                key: "name".into(),
            },
        ]
    }

    fn messages(rules: &[CrossFieldRule], yaml: &str) -> Vec<String> {
        let root = node(yaml);
        check(rules, root.as_map().unwrap(), root.line)
            .into_iter()
            .map(|b| format!("{}@{}: {}", b.last, b.line, b.message))
            .collect()
    }

    #[test]
    fn a_peer_names_one_or_more_and_ip_block_alone() {
        let rules = vec![CrossFieldRule::OneOrMoreOf {
            fields: vec![
                "podSelector".into(),
                "namespaceSelector".into(),
                "ipBlock".into(),
            ],
            alone: "ipBlock".into(),
            none: "must specify a peer".into(),
            too_many: "may not specify both ipBlock and another peer".into(),
        }];
        assert_eq!(
            messages(&rules, "ipBlock: {cidr: 10.0.0.0/8}\npodSelector: {}\n"),
            ["@1: Forbidden: may not specify both ipBlock and another peer"]
        );
        assert_eq!(
            messages(&rules, "podSelector: null\n"),
            ["@1: Required value: must specify a peer"]
        );
        assert!(messages(&rules, "podSelector: {}\nnamespaceSelector: {}\n").is_empty());
        assert!(messages(&rules, "ipBlock: {cidr: 10.0.0.0/8}\npodSelector: null\n").is_empty());
    }

    #[test]
    fn port_names_are_unique_and_required_when_many() {
        let rules = ports_rules();
        assert_eq!(
            messages(&rules, "ports:\n- port: 80\n- port: 443\n"),
            [
                "ports[0].name@2: Required value",
                "ports[1].name@3: Required value"
            ]
        );
        assert_eq!(
            messages(
                &rules,
                "ports:\n- {name: http, port: 80}\n- {name: http, port: 81}\n"
            ),
            ["ports[1].name@3: Duplicate value: \"http\""]
        );
        assert!(messages(&rules, "ports:\n- port: 80\n").is_empty());
        assert!(messages(&rules, "ports:\n- {name: a}\n- {name: b}\n").is_empty());
    }

    #[test]
    fn exactly_one_handler() {
        let rules = vec![CrossFieldRule::ExactlyOneOf {
            fields: vec!["exec".into(), "httpGet".into(), "tcpSocket".into()],
            none: "must specify a handler type".into(),
            too_many: "may not specify more than 1 handler type".into(),
        }];
        assert_eq!(
            messages(&rules, "httpGet: {port: 80}\nexec: {command: [x]}\n"),
            ["httpGet@1: Forbidden: may not specify more than 1 handler type"]
        );
        assert_eq!(
            messages(
                &rules,
                "tcpSocket: {port: 80}\nhttpGet: {port: 80}\nexec: {command: [x]}\n"
            ),
            [
                "httpGet@2: Forbidden: may not specify more than 1 handler type",
                "tcpSocket@1: Forbidden: may not specify more than 1 handler type"
            ]
        );
        assert_eq!(
            messages(&rules, "periodSeconds: 3\n"),
            ["@1: Required value: must specify a handler type"]
        );
        assert!(messages(&rules, "tcpSocket: {port: 80}\n").is_empty());
    }
}
