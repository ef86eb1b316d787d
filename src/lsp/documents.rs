//! The open documents: each one's text as the editor has it, kept in step
//! with `didOpen`, `didChange` (whole texts and ranges) and `didClose`,
//! with its line index.
//!
//! Sizes are bounded. A document over [`MAX_DOCUMENT_BYTES`] is kept as a
//! note, not a text: its diagnostics say it is too large, and nothing
//! else is done with it (a manifest that large is generated output, best
//! checked by `vergate check` in CI; re-checking it on every keystroke
//! would hold the editor back). All open texts together are bounded by
//! [`MAX_OPEN_BYTES`], so that an editor opening every file of a large
//! tree cannot make the server grow without bound.

use super::line_index::LineIndex;
use lsp_types::TextDocumentContentChangeEvent;
use std::collections::HashMap;

/// The largest document checked (8 MiB; `vergate check` reads up to 64).
pub const MAX_DOCUMENT_BYTES: usize = 8 << 20;

/// The most text held for all open documents together (128 MiB).
pub const MAX_OPEN_BYTES: usize = 128 << 20;

/// One open document.
#[derive(Debug)]
pub struct OpenDocument {
    /// The version the editor last gave.
    pub version: i32,
    /// The text, or why it is not held.
    pub content: Content,
    /// The language the editor says it is in (`yaml`, `json`, …).
    pub language: String,
}

/// An open document's text, or the reason it is not kept.
#[derive(Debug)]
pub enum Content {
    Text {
        text: String,
        lines: LineIndex,
    },
    /// Over a bound: the size the editor sent, and the bound.
    TooLarge {
        bytes: usize,
        limit: usize,
    },
}

impl Content {
    fn new(text: String, room: usize) -> Content {
        let limit = MAX_DOCUMENT_BYTES.min(room);
        if text.len() > limit {
            return Content::TooLarge {
                bytes: text.len(),
                limit,
            };
        }
        let lines = LineIndex::new(&text);
        Content::Text { text, lines }
    }

    fn bytes(&self) -> usize {
        match self {
            Content::Text { text, .. } => text.len(),
            Content::TooLarge { .. } => 0,
        }
    }
}

/// The open documents by URI.
#[derive(Debug, Default)]
pub struct OpenDocuments {
    open: HashMap<String, OpenDocument>,
    held: usize,
}

/// Why a change could not be applied.
#[derive(Debug, PartialEq, Eq)]
pub enum ChangeError {
    /// The document is not open (the editor sent a change before opening it).
    NotOpen,
}

impl OpenDocuments {
    /// Opens (or re-opens) a document.
    pub fn open(&mut self, uri: &str, language: String, version: i32, text: String) {
        self.close(uri);
        let content = Content::new(text, MAX_OPEN_BYTES.saturating_sub(self.held));
        self.held += content.bytes();
        self.open.insert(
            uri.to_owned(),
            OpenDocument {
                version,
                content,
                language,
            },
        );
    }

    /// Applies the editor's changes in order: a change with a range
    /// replaces that range (positions in UTF-16, clamped to the text), one
    /// without replaces the whole text. A document over the bound stays
    /// a note until a whole-text change brings it back within it.
    pub fn change(
        &mut self,
        uri: &str,
        version: i32,
        changes: Vec<TextDocumentContentChangeEvent>,
    ) -> Result<(), ChangeError> {
        let document = self.open.get_mut(uri).ok_or(ChangeError::NotOpen)?;
        self.held -= document.content.bytes();
        let room = MAX_OPEN_BYTES.saturating_sub(self.held);
        for change in changes {
            document.content = match (
                std::mem::replace(
                    &mut document.content,
                    Content::TooLarge { bytes: 0, limit: 0 },
                ),
                change.range,
            ) {
                (_, None) => Content::new(change.text, room),
                (Content::Text { mut text, lines }, Some(range)) => {
                    let start = lines.offset(&text, range.start);
                    let end = lines.offset(&text, range.end).max(start);
                    let size = text.len() - (end - start) + change.text.len();
                    if size > MAX_DOCUMENT_BYTES.min(room) {
                        Content::TooLarge {
                            bytes: size,
                            limit: MAX_DOCUMENT_BYTES.min(room),
                        }
                    } else {
                        text.replace_range(start..end, &change.text);
                        Content::new(text, room)
                    }
                }
                (too_large @ Content::TooLarge { .. }, Some(_)) => too_large,
            };
        }
        self.held += document.content.bytes();
        document.version = version;
        Ok(())
    }

    /// Closes a document; false when it was not open.
    pub fn close(&mut self, uri: &str) -> bool {
        match self.open.remove(uri) {
            Some(document) => {
                self.held -= document.content.bytes();
                true
            }
            None => false,
        }
    }

    /// An open document.
    pub fn get(&self, uri: &str) -> Option<&OpenDocument> {
        self.open.get(uri)
    }

    /// An open document's text and line index, when it is held.
    pub fn text(&self, uri: &str) -> Option<(&str, &LineIndex)> {
        match &self.open.get(uri)?.content {
            Content::Text { text, lines } => Some((text, lines)),
            Content::TooLarge { .. } => None,
        }
    }

    /// Every open document, by URI.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &OpenDocument)> {
        self.open
            .iter()
            .map(|(uri, document)| (uri.as_str(), document))
    }

    /// The bytes of text held.
    pub fn held(&self) -> usize {
        self.held
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lsp_types::{Position, Range};

    fn edit(start: (u32, u32), end: (u32, u32), text: &str) -> TextDocumentContentChangeEvent {
        TextDocumentContentChangeEvent {
            range: Some(Range {
                start: Position::new(start.0, start.1),
                end: Position::new(end.0, end.1),
            }),
            range_length: None,
            text: text.to_owned(),
        }
    }

    #[test]
    fn incremental_changes_apply_in_order_in_utf16() {
        let mut documents = OpenDocuments::default();
        documents.open("u", "yaml".into(), 1, "a: 😀b\nc: d\n".into());
        documents
            .change(
                "u",
                2,
                vec![edit((0, 5), (0, 6), "B"), edit((1, 0), (1, 1), "cc")],
            )
            .unwrap();
        assert_eq!(documents.text("u").unwrap().0, "a: 😀B\ncc: d\n");
        assert_eq!(documents.get("u").unwrap().version, 2);
        assert_eq!(documents.held(), "a: 😀B\ncc: d\n".len());
    }

    #[test]
    fn a_document_over_the_bound_is_a_note_until_replaced_whole() {
        let mut documents = OpenDocuments::default();
        documents.open("u", "yaml".into(), 1, "x".repeat(MAX_DOCUMENT_BYTES + 1));
        assert!(documents.text("u").is_none());
        assert_eq!(documents.held(), 0);
        documents
            .change("u", 2, vec![edit((0, 0), (0, 0), "y")])
            .unwrap();
        assert!(documents.text("u").is_none());
        let whole = TextDocumentContentChangeEvent {
            range: None,
            range_length: None,
            text: "a: 1\n".into(),
        };
        documents.change("u", 3, vec![whole]).unwrap();
        assert_eq!(documents.text("u").unwrap().0, "a: 1\n");
        assert!(documents.close("u"));
        assert_eq!(documents.held(), 0);
        assert_eq!(documents.change("u", 4, vec![]), Err(ChangeError::NotOpen));
    }
}
