//! Byte offsets ↔ LSP positions: a line and a column counted in UTF-16 code
//! units, as the protocol counts them by default (`positionEncoding`
//! `utf-16`), for any text, whatever line breaks it uses.
//!
//! A line ends at `\n`, `\r\n` or a lone `\r` (the protocol's three line
//! breaks). A position past the end of its line means the line's end, and
//! one past the last line the text's end, as the specification asks; a
//! position inside a character's UTF-16 surrogate pair means that
//! character's start.

use lsp_types::Position;

/// Where each line of one text starts.
#[derive(Clone, Debug, Default)]
pub struct LineIndex {
    /// Byte offset of each line's first byte; `starts[0] == 0`.
    starts: Vec<usize>,
}

impl LineIndex {
    /// The index of `text`.
    pub fn new(text: &str) -> LineIndex {
        let bytes = text.as_bytes();
        let mut starts = vec![0];
        let mut at = 0;
        while let Some(found) = memchr::memchr2(b'\n', b'\r', &bytes[at..]) {
            let at_break = at + found;
            at = if bytes[at_break] == b'\r' && bytes.get(at_break + 1) == Some(&b'\n') {
                at_break + 2
            } else {
                at_break + 1
            };
            starts.push(at);
        }
        LineIndex { starts }
    }

    /// How many lines the text has (a text ending in a line break has an
    /// empty last line).
    pub fn lines(&self) -> usize {
        self.starts.len()
    }

    /// The byte range of line `line`'s text, its line break left out.
    fn line_range(&self, text: &str, line: usize) -> std::ops::Range<usize> {
        let start = self.starts[line];
        let end = self.starts.get(line + 1).map_or(text.len(), |&next| next);
        let content = &text.as_bytes()[start..end];
        let trimmed = match content {
            [.., b'\r', b'\n'] => end - 2,
            [.., b'\n' | b'\r'] => end - 1,
            _ => end,
        };
        start..trimmed
    }

    /// The byte offset of `position` in `text` (clamped to the line's end
    /// and the text's end, never inside a character).
    pub fn offset(&self, text: &str, position: Position) -> usize {
        let line = position.line as usize;
        if line >= self.starts.len() {
            return text.len();
        }
        let range = self.line_range(text, line);
        let mut units = 0u32;
        for (at, c) in text[range.clone()].char_indices() {
            let next = units + c.len_utf16() as u32;
            if next > position.character {
                return range.start + at;
            }
            units = next;
        }
        range.end
    }

    /// The position of byte `offset` in `text` (an offset inside a
    /// character is taken as that character's start).
    pub fn position(&self, text: &str, offset: usize) -> Position {
        let offset = offset.min(text.len());
        let line = self.starts.partition_point(|&start| start <= offset) - 1;
        let range = self.line_range(text, line);
        let end = offset.min(range.end);
        let mut character = 0u32;
        for (at, c) in text[range.start..range.end].char_indices() {
            if range.start + at + c.len_utf8() > end {
                break;
            }
            character += c.len_utf16() as u32;
        }
        Position {
            line: line as u32,
            character,
        }
    }

    /// The LSP range of bytes `start..end`.
    pub fn range(&self, text: &str, span: std::ops::Range<usize>) -> lsp_types::Range {
        lsp_types::Range {
            start: self.position(text, span.start),
            end: self.position(text, span.end),
        }
    }

    /// The byte offset where 0-based line `line` starts (the text's end
    /// past its last line).
    pub fn line_start(&self, line: usize) -> Option<usize> {
        self.starts.get(line).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(line: u32, character: u32) -> Position {
        Position { line, character }
    }

    #[test]
    fn ascii_lines_with_every_line_break() {
        let text = "ab\ncd\r\nef\rgh";
        let index = LineIndex::new(text);
        assert_eq!(index.lines(), 4);
        assert_eq!(index.offset(text, pos(1, 1)), 4);
        assert_eq!(index.offset(text, pos(2, 0)), 7);
        assert_eq!(index.offset(text, pos(3, 2)), 12);
        assert_eq!(index.position(text, 4), pos(1, 1));
        assert_eq!(index.position(text, 10), pos(3, 0));
    }

    #[test]
    fn utf16_columns_count_surrogate_pairs_as_two() {
        // "é" is 2 bytes and 1 unit; "😀" is 4 bytes and 2 units.
        let text = "a: é😀x\n";
        let index = LineIndex::new(text);
        let x = text.find('x').unwrap();
        assert_eq!(index.position(text, x), pos(0, 6));
        assert_eq!(index.offset(text, pos(0, 6)), x);
        // Inside the surrogate pair: the emoji's start.
        assert_eq!(index.offset(text, pos(0, 5)), text.find('😀').unwrap());
    }

    #[test]
    fn positions_past_the_end_clamp() {
        let text = "ab\r\ncd";
        let index = LineIndex::new(text);
        assert_eq!(index.offset(text, pos(0, 99)), 2);
        assert_eq!(index.offset(text, pos(9, 0)), text.len());
        assert_eq!(index.position(text, 99), pos(1, 2));
        // The middle of "\r\n" is the first line's end.
        assert_eq!(index.position(text, 3), pos(0, 2));
    }

    #[test]
    fn round_trip_on_every_character_boundary() {
        let text = "k: \"ü\"\r\n- 😀\n\n\rz";
        let index = LineIndex::new(text);
        for (at, _) in text.char_indices() {
            let position = index.position(text, at);
            let back = index.offset(text, position);
            // A line break's bytes map to the line's end.
            assert!(back == at || text[back..at].chars().all(|c| c == '\r' || c == '\n'));
        }
    }
}
