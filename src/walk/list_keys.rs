//! The uniqueness of a list's items that its `x-kubernetes-list-type`
//! states, as apiextensions validates a custom resource
//! (apiextensions-apiserver's `pkg/apiserver/schema/listtype`): a `set`'s
//! items are unique as wholes, a `map`'s by its `x-kubernetes-list-map-keys`
//! (an item without a key, or null, counts as one with none). Each value
//! seen again is reported once, at its second item, in the server's words
//! (`Duplicate value: {"name":"a"}`).
//!
//! The API server validates built-in kinds by Go code, not by these
//! markers (a Pod's duplicate container ports pass): the walker asks only
//! inside a CRD's types.
//!
//! Linear: each item's key is written once as JSON and hashed.

use crate::document::{Node, Value};
use crate::gates::{Constraints, ListType};
use std::collections::HashMap;

/// The items of `items` that repeat an earlier one by `constraints`' list
/// type: each item's index and the server's message.
pub(super) fn duplicates(items: &[Node], constraints: &Constraints) -> Vec<(usize, String)> {
    let Some(list_type) = constraints.list_type else {
        return Vec::new();
    };
    if items.len() <= 1 {
        return Vec::new();
    }
    let keys: Vec<String> = match list_type {
        ListType::Set => items
            .iter()
            .map(|item| item.to_json().to_string())
            .collect(),
        ListType::Map => {
            // Items that are not objects are the walk's type errors.
            if items
                .iter()
                .any(|item| !matches!(item.value, Value::Map(_) | Value::Null))
            {
                return Vec::new();
            }
            items
                .iter()
                .map(|item| map_key(item, &constraints.list_map_keys))
                .collect()
        }
    };
    let mut seen: HashMap<&str, u32, foldhash::fast::RandomState> = HashMap::default();
    let mut found = Vec::new();
    for (index, key) in keys.iter().enumerate() {
        let times = seen.entry(key.as_str()).or_insert(0);
        *times += 1;
        if *times == 2 {
            found.push((index, format!("Duplicate value: {key}")));
        }
    }
    found
}

/// The key of a `map` list's item: the object of its key fields that it
/// has, as JSON with sorted keys (as Go marshals a map); `{}` for null.
fn map_key(item: &Node, key_fields: &[String]) -> String {
    let mut key = serde_json::Map::new();
    for field in key_fields {
        if let Some(value) = item.get(field) {
            key.insert(field.clone(), value.to_json());
        }
    }
    serde_json::Value::Object(key).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn items(yaml: &str) -> Vec<Node> {
        let parsed = crate::document::parse(yaml);
        match parsed.documents.into_iter().next().unwrap().root.value {
            Value::Seq(items) => items,
            other => panic!("not a list: {other:?}"),
        }
    }

    fn map(keys: &[&str]) -> Constraints {
        Constraints {
            list_type: Some(ListType::Map),
            list_map_keys: keys.iter().map(|key| (*key).to_owned()).collect(),
            ..Constraints::default()
        }
    }

    #[test]
    fn map_lists_repeat_by_their_keys_reported_once_at_the_second() {
        let list =
            items("- {name: a, value: '1'}\n- {name: b}\n- {name: a, value: '2'}\n- {name: a}\n");
        assert_eq!(
            duplicates(&list, &map(&["name"])),
            [(2, r#"Duplicate value: {"name":"a"}"#.to_owned())]
        );
        let ports = items("- {port: 80, protocol: TCP}\n- {port: 80, protocol: UDP}\n- {protocol: TCP, port: 80}\n");
        assert_eq!(
            duplicates(&ports, &map(&["port", "protocol"])),
            [(
                2,
                r#"Duplicate value: {"port":80,"protocol":"TCP"}"#.to_owned()
            )]
        );
        // Items without the key repeat the empty key; a string "80" is not 80.
        let keyless = items("- {other: 1}\n- null\n- {port: '80'}\n- {port: 80}\n");
        assert_eq!(
            duplicates(&keyless, &map(&["port"])),
            [(1, "Duplicate value: {}".to_owned())]
        );
    }

    #[test]
    fn set_lists_repeat_as_wholes_and_other_lists_never() {
        let set = Constraints {
            list_type: Some(ListType::Set),
            ..Constraints::default()
        };
        let tags = items("- a\n- b\n- a\n- a\n- {x: 1}\n- {x: 1}\n");
        assert_eq!(
            duplicates(&tags, &set),
            [
                (2, r#"Duplicate value: "a""#.to_owned()),
                (5, r#"Duplicate value: {"x":1}"#.to_owned())
            ]
        );
        assert!(duplicates(&tags, &Constraints::default()).is_empty());
        // A map list of scalars is the walk's type error, not a duplicate.
        assert!(duplicates(&tags, &map(&["x"])).is_empty());
    }
}
