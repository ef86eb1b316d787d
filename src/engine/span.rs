//! Where a finding is in the text: its violation's path
//! (`spec.ports[0].name`) followed over the document's spans
//! (`document::spans`).

use crate::document::spans::{Spanned, Style, Written};
use std::ops::Range;

/// The most steps tried while following one path: keys may hold dots
/// (`app.kubernetes.io/name`), so a step can match several keys and the
/// search backtracks; the bound keeps a hostile document (thousands of
/// keys that are prefixes of one another) from making it quadratic or
/// worse. Real paths take a few dozen.
const MAX_STEPS: usize = 10_000;

/// The byte range in `text` of what `path` names in the document `root`:
/// the key of the last map entry it names, the item of the last list
/// index, the whole document for an empty path. A path that runs past
/// what is written (a field required but missing) gives its deepest part
/// that is written.
pub(super) fn locate(text: &str, root: &Spanned, path: &str) -> Range<usize> {
    let mut search = Search {
        text,
        budget: MAX_STEPS,
        deepest: (0, root.start..root.end),
    };
    search
        .follow(root, path, 0, root.start..root.end)
        .unwrap_or(search.deepest.1)
}

/// One path followed.
struct Search<'t> {
    text: &'t str,
    budget: usize,
    /// The most bytes of the path resolved, and the place they name.
    deepest: (usize, Range<usize>),
}

impl Search<'_> {
    /// Follows `rest` (what is left of the path after `done` bytes) from
    /// `node`, whose own place is `place`.
    fn follow(
        &mut self,
        node: &Spanned,
        rest: &str,
        done: usize,
        place: Range<usize>,
    ) -> Option<Range<usize>> {
        if self.budget == 0 {
            return None;
        }
        self.budget -= 1;
        if done > self.deepest.0 {
            self.deepest = (done, place.clone());
        }
        if rest.is_empty() {
            return Some(place);
        }
        match &node.written {
            Written::Seq { items, .. } => {
                let inner = rest.strip_prefix('[')?;
                let (index, after) = inner.split_once(']')?;
                let item = items.get(index.parse::<usize>().ok()?)?;
                let used = rest.len() - after.len();
                self.follow(item, after, done + used, item.start..item.end)
            }
            Written::Map { entries, .. } => {
                let rest_key = rest.strip_prefix('.').unwrap_or(rest);
                let skipped = rest.len() - rest_key.len();
                // The last entry of a key wins, as in the tree.
                entries.iter().rev().find_map(|(key, value)| {
                    let name = self.key_text(key)?;
                    let after = rest_key.strip_prefix(name)?;
                    if !(after.is_empty() || after.starts_with('.') || after.starts_with('[')) {
                        return None;
                    }
                    let used = skipped + name.len();
                    self.follow(value, after, done + used, key.start..key.end)
                })
            }
            Written::Scalar { .. } | Written::Alias => None,
        }
    }

    /// A key as written, its quotes taken off (`"a.b"` → `a.b`); a key
    /// with escapes in it is compared as written.
    fn key_text(&self, key: &Spanned) -> Option<&str> {
        let written = self.text.get(key.start..key.end)?;
        match key.written {
            Written::Scalar {
                style: Style::SingleQuoted | Style::DoubleQuoted,
                ..
            } if written.len() >= 2 => Some(&written[1..written.len() - 1]),
            Written::Scalar { .. } => Some(written),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::locate;
    use crate::document::spans::layout;

    fn at<'t>(text: &'t str, path: &str) -> &'t str {
        let layout = layout(text).unwrap();
        &text[locate(text, &layout.documents[0], path)]
    }

    #[test]
    fn a_path_names_its_key_item_or_deepest_written_part() {
        let text = "kind: Pod\nmetadata:\n  labels:\n    app.kubernetes.io/name: x\n    \"app\": y\nspec:\n  containers:\n    - name: a\n      image: b\n";
        assert_eq!(at(text, "kind"), "kind");
        assert_eq!(
            at(text, "metadata.labels.app.kubernetes.io/name"),
            "app.kubernetes.io/name"
        );
        assert_eq!(at(text, "metadata.labels.app"), "\"app\"");
        assert_eq!(at(text, "spec.containers[0].image"), "image");
        assert_eq!(at(text, "spec.containers[0]"), "name: a\n      image: b");
        // Not written: its deepest written part.
        assert_eq!(
            at(text, "spec.containers[0].ports[0].name"),
            "name: a\n      image: b"
        );
        assert_eq!(at(text, "spec.volumes"), "spec");
        assert!(at(text, "").starts_with("kind: Pod"));
        let json = "{\"kind\": \"Pod\", \"spec\": {\"a.b\": 1}}";
        assert_eq!(at(json, "spec.a.b"), "\"a.b\"");
    }
}
