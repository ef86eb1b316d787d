//! `upgrade --all`'s copies of a document, one per minor: each is the
//! document's own text with only what that minor changes edited (by
//! [`super::edit`]), so the comments, quoting and style inside it are kept
//! in every copy.

use super::edit::{self, EditError, Target};
use crate::document::scalar::Syntax;
use crate::document::{spans, Node};

/// The text of each document of a YAML `text`, from the start of the line
/// its root starts on to the end of the line it ends on, in the reader's
/// order; `None` for JSON (which `--all` writes as YAML anew) or when the
/// spans do not match the `count` documents read.
pub fn document_texts(text: &str, count: usize) -> Option<Vec<&str>> {
    let layout = spans::layout(text)?;
    if layout.syntax == Syntax::Json || layout.documents.len() != count {
        return None;
    }
    let texts = layout
        .documents
        .iter()
        .map(|root| {
            let start = text[..root.start].rfind('\n').map_or(0, |at| at + 1);
            let end = text[root.end..]
                .find('\n')
                .map_or(text.len(), |at| root.end + at + 1);
            &text[start..end]
        })
        .collect();
    Some(texts)
}

/// `own` (one document's text, from [`document_texts`], read from the file
/// as `read`) edited so that it reads as `intended`, every other byte kept;
/// refused, with why, when it cannot be edited in place (the caller then
/// writes the copy anew). `read` is the document as read from the whole
/// file, so its lines are the file's: the edit pairs renamed keys by line,
/// and names the file's line when it refuses.
pub fn edited(own: &str, read: &Node, intended: &Node) -> Result<String, EditError> {
    let target = Target { read, intended };
    let text = edit::rewrite(own, &[target])?.unwrap_or_else(|| own.to_owned());
    Ok(if text.ends_with('\n') {
        text
    } else {
        text + "\n"
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document;

    #[test]
    fn each_document_text_runs_from_its_first_line_to_its_last() {
        let text = "# head\napiVersion: v1\nkind: A # note\n---\n# second\nkind: B\n";
        let texts = document_texts(text, 2).unwrap();
        assert_eq!(texts, ["apiVersion: v1\nkind: A # note\n", "kind: B\n"]);
        assert_eq!(document_texts("{\"kind\": \"A\"}", 1), None);
        assert_eq!(document_texts(text, 3), None);
    }

    #[test]
    fn a_copy_keeps_its_comments_and_changes_only_what_differs() {
        let own = "kind: A # the kind\nspec:\n  # why three\n  replicas: 3\n";
        let read = document::parse(own).documents.remove(0).root;
        let mut intended = read.clone();
        let document::Value::Map(entries) = &mut intended.value else {
            panic!("a mapping")
        };
        entries[0].value.value = document::Value::String("B".into());
        assert_eq!(
            edited(own, &read, &intended).unwrap(),
            "kind: B # the kind\nspec:\n  # why three\n  replicas: 3\n"
        );
    }
}
