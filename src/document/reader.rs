//! Builds [`Node`] trees from the YAML parser's events, one document at a
//! time, within fixed bounds.
//!
//! Nothing here recurses: open collections live on a heap stack, whose
//! height is the nesting depth and is bounded by [`MAX_DEPTH`]. Aliases are
//! expanded by copying the anchored node, and every copy is paid for: by
//! go-yaml's own rule for "excessive aliasing" (the one kubectl applies), and
//! by a budget of copied bytes per file, so a few hundred bytes cannot ask
//! for gigabytes.

pub use super::builder::MAX_DEPTH;
use super::builder::{copy_budget, Builder, FLOW_DEPTH_MESSAGE, UNKNOWN_ANCHOR};
use super::json;
use super::scalar::Syntax;
use super::yaml::parser::{Event, Parser};
use super::yaml::scanner::Marker;
use super::{Document, ParseError, Value};
use std::str::Chars;
use std::sync::atomic::AtomicUsize;
use std::sync::Arc;

/// The largest file (in bytes) vergate reads.
pub const MAX_FILE_BYTES: usize = 64 << 20;

/// Reads the documents of one text in order. After an error it stops: the
/// error is the last item.
pub struct Reader<'a> {
    text: &'a str,
    /// The full parser, made when first needed.
    parser: Option<Parser<Chars<'a>>>,
    /// What the fast path read of a part, when it read it (see [`super::block`]).
    fast: Option<Option<Document>>,
    syntax: Syntax,
    /// The file's copy budget, shared by the readers of its parts.
    copy_budget: Arc<AtomicUsize>,
    /// Lines before the text read (a part of a file starts on a later line).
    line_offset: u32,
    /// The 0-based index the next non-empty document gets.
    index: usize,
    /// The file is too large: say so once, read nothing.
    too_large: bool,
    /// The documents of a JSON text, read at once (see [`super::json`]).
    json: Option<std::vec::IntoIter<Result<Document, ParseError>>>,
    done: bool,
}

impl<'a> Reader<'a> {
    /// A reader of `text`, in the syntax kubectl would read it in.
    pub fn new(text: &'a str) -> Reader<'a> {
        Reader {
            text,
            parser: None,
            fast: None,
            syntax: Syntax::sniff(text),
            copy_budget: Arc::new(AtomicUsize::new(copy_budget(text))),
            line_offset: 0,
            index: 0,
            too_large: text.len() > MAX_FILE_BYTES,
            json: None,
            done: false,
        }
    }

    /// A reader of one part of a file (see [`super::split`]): `part` starts
    /// on line `first_line` of the file, is read in the file's `syntax`
    /// and spends the file's `copy_budget`. Its documents are numbered from
    /// 0 within the part.
    pub(super) fn part(
        part: &'a str,
        first_line: u32,
        syntax: Syntax,
        copy_budget: Arc<AtomicUsize>,
    ) -> Reader<'a> {
        Reader::part_read(part, first_line, syntax, copy_budget, true)
    }

    /// A reader of one part of a file that only uses the full parser
    /// (to hold the fast path to it in tests).
    pub(super) fn part_full(
        part: &'a str,
        first_line: u32,
        syntax: Syntax,
        copy_budget: Arc<AtomicUsize>,
    ) -> Reader<'a> {
        Reader::part_read(part, first_line, syntax, copy_budget, false)
    }

    /// A reader of one part, trying the fast path first when `try_fast`.
    fn part_read(
        part: &'a str,
        first_line: u32,
        syntax: Syntax,
        copy_budget: Arc<AtomicUsize>,
        try_fast: bool,
    ) -> Reader<'a> {
        let line_offset = first_line.saturating_sub(1);
        let fast = if try_fast {
            super::block::read(part, line_offset, syntax)
        } else {
            None
        };
        Reader {
            text: part,
            parser: None,
            fast,
            syntax,
            copy_budget,
            line_offset,
            index: 0,
            too_large: false,
            json: None,
            done: false,
        }
    }

    /// True when the fast path read this reader's text.
    pub(super) fn is_fast(&self) -> bool {
        self.fast.is_some()
    }

    /// The syntax the text is read in.
    pub fn syntax(&self) -> Syntax {
        self.syntax
    }

    fn next_event(&mut self) -> Result<(Event, u32), ParseError> {
        let offset = self.line_offset;
        let text = self.text;
        let parser = self
            .parser
            .get_or_insert_with(|| Parser::new_from_str(text));
        let next = parser.next_token();
        if parser.unprintable() {
            return Err(unprintable(text, offset));
        }
        let (event, mark) = next.map_err(|err| ParseError {
            line: line_of(err.marker()).saturating_add(offset),
            message: match err.info() {
                // The parser (yaml-rust2's) counts flow levels in a u8.
                "recursion limit exceeded" => FLOW_DEPTH_MESSAGE.into(),
                // Anchors do not reach across documents: said as the
                // builder says it when the parser knew the anchor from an
                // earlier document of the stream.
                "while parsing node, found unknown anchor" => UNKNOWN_ANCHOR.into(),
                info => format!("invalid YAML: {info}"),
            },
        })?;
        Ok((event, line_of(&mark).saturating_add(offset)))
    }

    /// The next document, empty ones included; `None` at the end.
    fn document(&mut self) -> Result<Option<Document>, ParseError> {
        let line = loop {
            match self.next_event()? {
                (Event::DocumentStart, line) => break line,
                (Event::StreamEnd, _) => return Ok(None),
                _ => {}
            }
        };
        let mut builder = Builder::new(self.syntax, line);
        loop {
            let (event, line) = self.next_event()?;
            if event == Event::DocumentEnd {
                break;
            }
            builder.event(event, line, &self.copy_budget)?;
        }
        Ok(Some(builder.finish()))
    }
}

impl Iterator for Reader<'_> {
    type Item = Result<Document, ParseError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        if let Some(fast) = self.fast.take() {
            self.done = true;
            return fast
                .filter(|doc| !matches!(doc.root.value, Value::Null))
                .map(Ok);
        }
        if self.too_large {
            self.done = true;
            return Some(Err(ParseError {
                line: 1,
                message: format!(
                    "the file is larger than {} MiB, the most vergate reads; split it into smaller files",
                    MAX_FILE_BYTES >> 20
                ),
            }));
        }
        if self.syntax == Syntax::Json && self.json.is_none() {
            match json::read(self.text, self.line_offset, &self.copy_budget) {
                json::Outcome::Read(documents, error) => {
                    let read = documents.into_iter().map(Ok).chain(error.map(Err));
                    self.json = Some(read.collect::<Vec<_>>().into_iter());
                }
                // apimachinery 0.33: read again from the start, as YAML.
                json::Outcome::NotJson => self.syntax = Syntax::Yaml,
            }
        }
        if let Some(json) = &mut self.json {
            let next = json.next();
            match &next {
                Some(Ok(_)) => self.index += 1,
                Some(Err(_)) | None => self.done = true,
            }
            return next.map(|read| {
                read.map(|mut doc| {
                    doc.index = self.index - 1;
                    doc
                })
            });
        }
        loop {
            match self.document() {
                Ok(Some(doc)) if matches!(doc.root.value, Value::Null) => continue,
                Ok(Some(mut doc)) => {
                    doc.index = self.index;
                    self.index += 1;
                    return Some(Ok(doc));
                }
                Ok(None) => {
                    self.done = true;
                    return None;
                }
                Err(err) => {
                    self.done = true;
                    return Some(Err(err));
                }
            }
        }
    }
}

/// go-yaml's reader refuses any character outside YAML's printable set
/// (`readerc.go`): tab, line breaks, U+0020–U+007E, U+0085, U+00A0–U+D7FF,
/// U+E000–U+FFFD and above U+FFFF. So do kubectl and vergate, for YAML. The
/// scanner stops at the first one (see its `read_char`); this says where.
fn unprintable(text: &str, line_offset: u32) -> ParseError {
    let allowed = |c: char| {
        matches!(c, '\t' | '\n' | '\r' | ' '..='~' | '\u{85}' | '\u{a0}'..='\u{d7ff}' | '\u{e000}'..='\u{fffd}')
            || c > '\u{ffff}'
    };
    let at = text.find(|c: char| !allowed(c)).unwrap_or(text.len());
    let c = text[at..].chars().next().unwrap_or('\0');
    let line = u32::try_from(bytecount::count(&text.as_bytes()[..at], b'\n'))
        .unwrap_or(u32::MAX)
        .saturating_add(1)
        .saturating_add(line_offset);
    ParseError {
        line,
        message: format!(
            "a control character (U+{:04X}), which kubectl refuses in YAML (go-yaml reads only printable characters, tabs and line breaks); remove it, or write it as an escape in double quotes",
            u32::from(c)
        ),
    }
}

fn line_of(mark: &Marker) -> u32 {
    u32::try_from(mark.line()).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::{parse, DuplicateKey};

    fn laughs(levels: usize) -> String {
        let mut text = String::from("a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
        for level in 1..=levels {
            let aliases = vec![format!("*a{}", level - 1); 9].join(", ");
            text.push_str(&format!("a{level}: &a{level} [{aliases}]\n"));
        }
        text
    }

    #[test]
    fn a_billion_laughs_is_excessive_aliasing() {
        let started = std::time::Instant::now();
        let parsed = parse(&laughs(9));
        let err = parsed.error.expect("refused");
        assert!(err.message.contains("excessive aliasing"), "{err}");
        assert!(err.line >= 4 && err.line <= 10, "{err}");
        assert!(started.elapsed().as_secs() < 2);
        // A few aliases are fine.
        let parsed = parse(&laughs(2));
        assert!(parsed.error.is_none(), "{:?}", parsed.error);
        assert_eq!(
            parsed.documents[0].root.get("a2").unwrap().to_json()[8][8][8],
            "lol"
        );
    }

    #[test]
    fn copies_of_long_text_are_bounded_by_size_not_only_count() {
        // Few nodes, so go-yaml's ratio allows it, but each copy is 1 MiB.
        let mut text = format!("a: &a {}\nb: [", "x".repeat(1 << 20));
        text.push_str(&vec!["*a"; 200].join(", "));
        text.push_str("]\n");
        let err = parse(&text).error.expect("refused");
        assert!(err.message.contains("excessive aliasing"), "{err}");
        assert_eq!(err.line, 2);
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_stack_overflow() {
        for text in [
            // Block sequences, 10,000 deep on one line.
            format!("{}x\n", "- ".repeat(10_000)),
            // Block mappings, one level per line.
            (0..10_000)
                .map(|depth| format!("{}k:\n", " ".repeat(depth)))
                .collect(),
        ] {
            let parsed = parse(&text);
            let err = parsed.error.expect("refused");
            assert!(
                err.message.contains("nested more than 1000 levels"),
                "{err}"
            );
            assert!(err.line >= 1, "{err}");
        }
        let fine = format!("{}x\n", "- ".repeat(MAX_DEPTH));
        assert!(parse(&fine).error.is_none());
    }

    #[test]
    fn a_file_over_the_size_limit_is_refused_before_reading() {
        let text = "#".repeat(MAX_FILE_BYTES + 1);
        let err = parse(&text).error.expect("refused");
        assert!(err.message.contains("larger than 64 MiB"), "{err}");
    }

    #[test]
    fn duplicate_keys_keep_the_last_value_and_name_both_lines() {
        let text = "spec:\n  containers:\n  - name: a\n    image: one\n    image: two\n";
        let parsed = parse(text);
        let doc = &parsed.documents[0];
        let container = &doc
            .root
            .get("spec")
            .unwrap()
            .get("containers")
            .unwrap()
            .to_json()[0];
        assert_eq!(container["image"], "two");
        assert_eq!(
            doc.duplicate_keys,
            vec![DuplicateKey {
                path: "spec.containers[0].image".into(),
                key: "image".into(),
                line: 5,
                first_line: 4,
            }]
        );
        // Keys that only resolve alike are duplicates too (`on` is `true`).
        let parsed = parse("x: {true: 1, on: 2}");
        assert_eq!(parsed.documents[0].duplicate_keys.len(), 1);
        // Large mappings use an index; still found.
        let mut big: String = (0..100).map(|i| format!("k{i}: {i}\n")).collect();
        big.push_str("k7: last\n");
        let parsed = parse(&big);
        assert_eq!(parsed.documents[0].duplicate_keys[0].first_line, 8);
        assert_eq!(
            parsed.documents[0].root.get("k7").unwrap().as_str(),
            Some("last")
        );
    }

    #[test]
    fn thousands_of_duplicate_keys_stop_the_reading() {
        let text = format!("{{{}}}\n", vec!["a: 1"; 10_000].join(", "));
        let err = parse(&format!("x: {text}")).error.expect("refused");
        assert!(
            err.message.contains("more than 100 duplicate keys"),
            "{err}"
        );
    }

    #[test]
    fn merge_keys_are_applied_as_go_yaml_v2_does() {
        let text = "base: &base {a: 1, b: 2}\nother: &other {b: 3, c: 4}\nx:\n  <<: [*base, *other]\n  c: 5\n";
        let parsed = parse(text);
        assert!(parsed.error.is_none(), "{:?}", parsed.error);
        let doc = &parsed.documents[0];
        assert!(doc.duplicate_keys.is_empty(), "{:?}", doc.duplicate_keys);
        assert_eq!(
            doc.root.get("x").unwrap().to_json(),
            serde_json::json!({"a": 1, "b": 2, "c": 5})
        );
        let err = parse("x:\n  <<: 1\n").error.expect("refused");
        assert!(err.message.contains("merge key"), "{err}");
        // A quoted "<<" is an ordinary key.
        let parsed = parse("x: {'<<': 1}\n");
        assert!(parsed.documents[0]
            .root
            .get("x")
            .unwrap()
            .get("<<")
            .is_some());
    }

    #[test]
    fn json_text_follows_json_and_is_read_as_yaml_when_it_is_not_json() {
        let parsed = parse("  {\"a\": 1.0, \"b\": \"yes\"}");
        assert!(parsed.error.is_none());
        assert_eq!(
            parsed.documents[0].root.to_json(),
            serde_json::json!({"a": 1.0, "b": "yes"})
        );
        // apimachinery 0.33 reads a `{` text that is not JSON as YAML.
        let parsed = parse("{\"a\": yes}");
        assert!(parsed.error.is_none(), "{:?}", parsed.error);
        assert_eq!(
            parsed.documents[0].root.to_json(),
            serde_json::json!({"a": true})
        );
        // Neither JSON nor YAML: the YAML error, at its line.
        let err = parse("{\"a\":\n 1").error.expect("refused");
        assert!(err.message.starts_with("invalid YAML"), "{err}");
        assert!(err.line >= 2, "{err}");
        // After a first JSON value, the stream stays JSON.
        let err = parse("{\"a\": 1}\n{\"a\": yes}").error.expect("refused");
        assert!(err.message.starts_with("invalid JSON"), "{err}");
        assert_eq!(err.line, 2, "{err}");
    }

    #[test]
    fn null_keys_are_refused() {
        let err = parse("~: 1\n").error.expect("refused");
        assert!(err.message.contains("null mapping key"), "{err}");
    }

    #[test]
    fn documents_come_one_at_a_time() {
        let mut reader = Reader::new("a: 1\n---\n---\nb: 2\n---\n[: bad\n");
        assert_eq!(reader.next().unwrap().unwrap().index, 0);
        let second = reader.next().unwrap().unwrap();
        assert_eq!((second.index, second.line), (1, 3));
        assert!(reader.next().unwrap().is_err());
        assert!(reader.next().is_none());
    }
}
