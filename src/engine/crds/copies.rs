//! Which CRD documents among the inputs are copies of an earlier one: a
//! CRD written again with only its `metadata` changed (the same chart
//! rendered twice, a copy under another name) defines nothing new and is
//! read once.

use rayon::prelude::*;
use std::collections::HashMap;
use std::hash::{BuildHasher, Hasher};

/// For each of `texts`, whether it is the first of its copies: no earlier
/// text is the same once its top-level `metadata:` block and its document
/// marker line are left out ([`without_metadata`]). Texts are compared by
/// a hash, then where two hashes agree, byte for byte. A copy missed (two
/// equal texts taken for different) costs a second reading, no more.
pub(super) fn first_copies(texts: &[&str]) -> Vec<bool> {
    let kept: Vec<[&str; 2]> = texts
        .par_iter()
        .map(|text| without_metadata(text))
        .collect();
    let hashes: Vec<u64> = kept
        .par_iter()
        .map(|[before, after]| {
            let mut hasher = foldhash::fast::FixedState::default().build_hasher();
            hasher.write_usize(before.len());
            hasher.write(before.as_bytes());
            hasher.write(after.as_bytes());
            hasher.finish()
        })
        .collect();
    let mut by_hash: HashMap<u64, Vec<usize>, foldhash::fast::RandomState> = HashMap::default();
    for (index, hash) in hashes.iter().enumerate() {
        by_hash.entry(*hash).or_default().push(index);
    }
    (0..texts.len())
        .into_par_iter()
        .map(|index| {
            by_hash[&hashes[index]]
                .iter()
                .take_while(|earlier| **earlier < index)
                .all(|&earlier| kept[earlier] != kept[index])
        })
        .collect()
}

/// A document's text without its document marker line and its top-level
/// `metadata:` block (the first one, where a broken document has two): the
/// text before the block and the text after it.
fn without_metadata(text: &str) -> [&str; 2] {
    let start = if text.starts_with("---") {
        text.find('\n').map_or(text.len(), |newline| newline + 1)
    } else {
        0
    };
    let text = &text[start..];
    let metadata = if text.starts_with("metadata:") {
        Some(0)
    } else {
        memchr::memmem::find(text.as_bytes(), b"\nmetadata:").map(|newline| newline + 1)
    };
    let Some(metadata) = metadata else {
        return [text, ""];
    };
    // The block ends at the next line that starts with content: a
    // top-level key (not an indented line, a comment, a blank line or an
    // indentless list item).
    let end = memchr::memchr_iter(b'\n', &text.as_bytes()[metadata..])
        .map(|newline| metadata + newline + 1)
        .find(|&line| {
            text.as_bytes()
                .get(line)
                .is_none_or(|first| !matches!(first, b' ' | b'#' | b'\n' | b'-'))
        })
        .unwrap_or(text.len());
    [&text[..metadata], &text[end..]]
}

#[cfg(test)]
mod tests {
    use super::{first_copies, without_metadata};

    #[test]
    fn copies_that_differ_only_in_metadata_are_one_crd() {
        let crd = |name: &str, group: &str| {
            format!(
                "---\napiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: {name}\n  labels:\n    a: b\nspec:\n  group: {group}\n"
            )
        };
        let texts = [
            crd("widgets.example.com", "example.com"),
            crd("widgets.example.com-copy", "example.com"),
            crd("widgets.example.com", "example.org"),
            crd("widgets.example.com-copy", "example.org"),
            crd("gadgets.example.com", "example.com"),
        ];
        let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
        assert_eq!(first_copies(&texts), [true, false, true, false, false]);
        let kept = without_metadata(texts[0]).concat();
        assert_eq!(
            kept,
            "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nspec:\n  group: example.com\n"
        );
        assert_eq!(without_metadata("metadata:\n  name: x\n"), ["", ""]);
        assert_eq!(without_metadata("a: 1\n"), ["a: 1\n", ""]);
    }
}
