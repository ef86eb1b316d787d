//! Cutting a YAML stream at its document markers, so that its documents can
//! be read in parallel.
//!
//! A line that starts with `---` followed by a space, a tab or its end is a
//! document marker wherever it stands: YAML forbids that line inside any
//! scalar or collection, so the parts read alone give the documents the
//! whole stream gives, on the same lines. The stream is not cut when a
//! part could not be read alone: JSON, a directive (`%YAML`), an explicit
//! document end (`...`, after which a document may start without a marker),
//! or a file over the size limit (the one reader says so).

use super::builder::copy_budget;
use super::reader::{Reader, MAX_FILE_BYTES};
use super::scalar::Syntax;
use std::sync::atomic::AtomicUsize;
use std::sync::Arc;

/// One part of a text (see [`split`]): read it with [`Part::reader`].
#[derive(Clone, Debug)]
pub struct Part<'a> {
    text: &'a str,
    first_line: u32,
    whole: bool,
    syntax: Syntax,
    budget: Arc<AtomicUsize>,
}

impl<'a> Part<'a> {
    /// The text of the part: from its document marker (or the start of the
    /// text) up to the next marker.
    pub fn text(&self) -> &'a str {
        self.text
    }

    /// The line the part starts on (its document marker's, if it has one).
    pub fn first_line(&self) -> u32 {
        self.first_line
    }

    /// True when the part is the whole text, which could not be cut (JSON,
    /// directives, explicit document ends, a text over the size limit).
    pub fn is_whole(&self) -> bool {
        self.whole
    }

    /// A reader of this part. Its documents are numbered from 0 within the
    /// part and its lines are the whole text's.
    pub fn reader(&self) -> Reader<'a> {
        if self.whole {
            Reader::new(self.text)
        } else {
            Reader::part(self.text, self.first_line, self.syntax, self.budget.clone())
        }
    }
}

impl<'a> Part<'a> {
    /// How the fast path and the full parser read this part: `None` when
    /// the fast path declines it, else both readings (for tests that hold
    /// the fast path to the full parser).
    pub fn fast_and_full(&self) -> Option<(Vec<ReadResult>, Vec<ReadResult>)> {
        let fast = self.reader();
        if !fast.is_fast() {
            return None;
        }
        Some((fast.collect(), self.full_reader().collect()))
    }

    /// A reader of this part that never takes the fast path (for tests
    /// that hold both readers to a reference).
    pub fn full_reader(&self) -> Reader<'a> {
        if self.whole {
            Reader::new(self.text)
        } else {
            Reader::part_full(self.text, self.first_line, self.syntax, self.budget.clone())
        }
    }
}

/// One item a [`Reader`] gives.
pub type ReadResult = Result<super::Document, super::ParseError>;

/// The parts of `text`, in order, each holding whole documents. All spend
/// one copy budget, the budget [`Reader::new`] gives the whole text. Making
/// the parts costs a scan of the lines; nothing is parsed.
pub fn split(text: &str) -> Vec<Part<'_>> {
    let cut = match Cut::of(text) {
        Ok(cut) => cut,
        Err(whole) => return vec![whole],
    };
    let bytes = text.as_bytes();
    let mut starts = vec![(0usize, 1u32)];
    let (mut counted_to, mut line) = (0usize, 1u32);
    for newline in memchr::memmem::find_iter(bytes, b"\n---") {
        let start = newline + 1;
        if is_marker(&bytes[start..], b"---") {
            line += count_lines(&bytes[counted_to..start]);
            counted_to = start;
            starts.push((start, line));
        }
    }
    let ends = starts
        .iter()
        .skip(1)
        .map(|(start, _)| *start)
        .chain([text.len()]);
    starts
        .iter()
        .zip(ends)
        .map(|(&(start, first_line), end)| cut.part(start..end, first_line))
        .collect()
}

/// How a text is cut into parts: what every part shares.
struct Cut<'a> {
    text: &'a str,
    syntax: Syntax,
    budget: Arc<AtomicUsize>,
}

impl<'a> Cut<'a> {
    /// The cut of `text`, or its one whole part when it cannot be cut.
    fn of(text: &'a str) -> Result<Cut<'a>, Part<'a>> {
        let cut = Cut {
            text,
            syntax: Syntax::sniff(text),
            budget: Arc::new(AtomicUsize::new(copy_budget(text))),
        };
        let bytes = text.as_bytes();
        // JSON, a file over the limit, a directive or an explicit document
        // end on any line: read whole. Lines are found by vectorised
        // substring searches, not one by one.
        let whole = cut.syntax == Syntax::Json
            || text.len() > MAX_FILE_BYTES
            || text.starts_with('%')
            || is_marker(bytes, b"...")
            || memchr::memmem::find(bytes, b"\n%").is_some()
            || memchr::memmem::find_iter(bytes, b"\n...")
                .any(|at| is_marker(&bytes[at + 1..], b"..."));
        if whole {
            return Err(Part {
                text,
                first_line: 1,
                whole: true,
                syntax: cut.syntax,
                budget: cut.budget,
            });
        }
        Ok(cut)
    }

    /// The part at `range`, starting on line `first_line`.
    fn part(&self, range: std::ops::Range<usize>, first_line: u32) -> Part<'a> {
        Part {
            text: &self.text[range],
            first_line,
            whole: false,
            syntax: self.syntax,
            budget: self.budget.clone(),
        }
    }
}

/// The line breaks in `bytes`.
fn count_lines(bytes: &[u8]) -> u32 {
    u32::try_from(bytecount::count(bytes, b'\n')).unwrap_or(u32::MAX)
}

/// True when `line` is the document marker `marker` (`---` or `...`),
/// alone or followed by a space or tab.
fn is_marker(line: &[u8], marker: &[u8]) -> bool {
    line.strip_prefix(marker)
        .is_some_and(|rest| matches!(rest.first(), None | Some(b' ' | b'\t' | b'\n' | b'\r')))
}

#[cfg(test)]
mod tests {
    use super::split;
    use crate::document::{Document, Reader};

    /// The documents the readers give in order, up to the first error (a
    /// caller of `split` stops there, as one reader does).
    fn documents(readers: Vec<Reader<'_>>) -> Vec<Result<(u32, String), (u32, String)>> {
        let mut read: Vec<_> = readers
            .into_iter()
            .flat_map(|reader| reader.collect::<Vec<_>>())
            .map(|read| match read {
                Ok(Document { line, root, .. }) => Ok((line, format!("{root:?}"))),
                Err(err) => Err((err.line, err.message)),
            })
            .collect();
        if let Some(first_error) = read.iter().position(Result::is_err) {
            read.truncate(first_error + 1);
        }
        read
    }

    fn same_as_whole(text: &str) {
        assert_eq!(
            documents(split(text).iter().map(|part| part.reader()).collect()),
            documents(vec![Reader::new(text)]),
            "{text}"
        );
    }

    #[test]
    fn parts_read_as_the_whole_stream_does() {
        same_as_whole("a: 1\n---\nb: [x,\n  y]\n--- \nc: |\n  ---x\n  text\n---\t# c\nd: 2\n");
        same_as_whole("# only a comment\n---\n---\nkind: A\n");
        same_as_whole("---\nkind: A\n---\nkind: B\n   bad: [\n---\nkind: C\n");
        same_as_whole("--- {a: 1}\n--- [1, 2]\n---x: 1\n");
        same_as_whole("a: &x {b: 1}\n---\nc: *x\n");
    }

    #[test]
    fn streams_that_cannot_be_cut_are_read_whole() {
        assert_eq!(split("%YAML 1.1\n---\na: 1\n---\nb: 2\n").len(), 1);
        assert_eq!(split("a: 1\n...\nb: 2\n---\nc: 3\n").len(), 1);
        assert_eq!(split("{\"a\": 1}\n").len(), 1);
        assert_eq!(split("a: 1\n---\nb: 2\n---\nc: 3\n").len(), 3);
    }

    #[test]
    fn lines_count_from_the_start_of_the_file() {
        let read: Vec<_> = split("a: 1\n---\n\nb:\n  c: 2\n")
            .iter()
            .flat_map(|part| part.reader())
            .map(|read| read.unwrap())
            .collect();
        assert_eq!(read[1].line, 2);
        assert_eq!(read[1].root.get("b").unwrap().line, 5);
    }
}
