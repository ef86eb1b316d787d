//! Arbitrary import paths: aliasing never panics, gives one alias per path,
//! never two equal aliases for different paths, and every alias is a legal
//! Pkl identifier (plain, or quotable with backticks).

use std::collections::BTreeMap;
use vergate_core::alias::{can_quote_pkl_identifier, import_aliases, is_plain_pkl_identifier};

pub fn run(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let paths: Vec<&str> = text
        .split('\n')
        .filter(|p| !p.is_empty())
        .take(64)
        .collect();
    let aliases = import_aliases(&paths);
    assert_eq!(aliases.len(), paths.len());
    let mut owner: BTreeMap<&str, &str> = BTreeMap::new();
    for (path, alias) in paths.iter().zip(&aliases) {
        assert!(
            is_plain_pkl_identifier(alias) || can_quote_pkl_identifier(alias),
            "{alias:?}"
        );
        if let Some(previous) = owner.insert(alias, path) {
            assert_eq!(previous, *path, "two paths share the alias {alias:?}");
        }
    }
}
