//! The line of a value named by a finding's path, for the schema tree's
//! readers (defaults' cut, junctors' errors): below the tree, so that no
//! reader of it is imported back.

use crate::document::{Node, Value};

/// The line of the value at path `at` (`spec.items[3].name`) below `node`
/// (at path `base`), when the document has it.
pub fn line_of(node: &Node, base: &str, at: &str) -> Option<u32> {
    let mut rest = at.strip_prefix(base)?;
    let mut here = node;
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix('[') {
            let (index, tail) = after.split_once(']')?;
            let Value::Seq(items) = &here.value else {
                return None;
            };
            here = items.get(index.parse::<usize>().ok()?)?;
            rest = tail;
        } else {
            let after = rest.strip_prefix('.').unwrap_or(rest);
            let end = after.find(['.', '[']).unwrap_or(after.len());
            here = here.get(&after[..end])?;
            rest = &after[end..];
        }
    }
    Some(here.line)
}
