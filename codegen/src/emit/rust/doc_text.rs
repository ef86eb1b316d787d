//! Upstream descriptions as rustdoc Markdown: shown as written, never run,
//! never read as links or HTML.
//!
//! - Rustdoc compiles indented blocks and fences without a language as Rust
//!   doctests, so a spec's `    - If failurePolicy=Fail, …` would become a
//!   failing doctest in every crate that includes the output: they are fenced
//!   as `text` ([`fence_code`]).
//! - Outside code, `[0-9]` and `[*]` would be broken intra-doc links, a
//!   `<fieldName>` an unclosed HTML tag that swallows the text after it, and a
//!   bare `https://…` an unlinked URL (rustdoc warns on all three): brackets
//!   and `<` are escaped and URLs become autolinks ([`escape_prose`]). What is
//!   code is told by pulldown-cmark, the Markdown parser rustdoc uses.

use pulldown_cmark::{Event, Parser, Tag};
use std::ops::Range;

/// `description` as rustdoc text: [`fence_code`], then [`escape_prose`].
pub fn rustdoc_text(description: &str) -> String {
    escape_prose(&fence_code(description))
}

/// `description` with its indented blocks fenced as ```` ```text ```` and
/// its bare ```` ``` ```` fences marked `text`.
pub fn fence_code(description: &str) -> String {
    let mut out = Vec::new();
    let mut in_fence = false;
    let mut in_indented = false;
    let mut previous_blank = true;
    for line in description.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") {
            if in_indented {
                out.push("```".to_owned());
                in_indented = false;
            }
            let info = trimmed.trim_start_matches('`').trim();
            let language = !info.is_empty()
                && info
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "_-+".contains(c));
            if in_fence || language {
                out.push(line.to_owned());
            } else {
                // No language, or text on the fence line: a text block.
                out.push("```text".to_owned());
                if !info.is_empty() {
                    out.push(info.to_owned());
                }
            }
            in_fence = !in_fence;
            previous_blank = false;
            continue;
        }
        let indented = line.starts_with("    ") || line.starts_with('\t');
        if !in_fence {
            if indented && !in_indented && previous_blank {
                out.push("```text".to_owned());
                in_indented = true;
            } else if in_indented && !indented && !trimmed.is_empty() {
                out.push("```".to_owned());
                in_indented = false;
            }
        }
        previous_blank = trimmed.is_empty();
        out.push(line.to_owned());
    }
    if in_indented || in_fence {
        out.push("```".to_owned());
    }
    out.join("\n")
}

/// `text` with `[`, `]` and `<` escaped and bare URLs made autolinks,
/// except in code spans, code blocks and links, which are kept verbatim.
pub fn escape_prose(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 32);
    let mut at = 0;
    for range in verbatim_ranges(text) {
        escape_span(&text[at..range.start], &mut out);
        out.push_str(&text[range.clone()]);
        at = range.end;
    }
    escape_span(&text[at..], &mut out);
    out
}

/// The byte ranges of code spans, code blocks and links (autolinks among
/// them), in order and without overlaps.
fn verbatim_ranges(text: &str) -> Vec<Range<usize>> {
    let mut ranges: Vec<Range<usize>> = Vec::new();
    for (event, range) in Parser::new(text).into_offset_iter() {
        let verbatim = matches!(
            event,
            Event::Code(_) | Event::Start(Tag::CodeBlock(_) | Tag::Link { .. } | Tag::Image { .. })
        );
        if !verbatim {
            continue;
        }
        match ranges.last_mut() {
            Some(last) if range.start < last.end => last.end = last.end.max(range.end),
            _ => ranges.push(range),
        }
    }
    ranges
}

/// Appends prose `span` to `out`, escaped.
fn escape_span(span: &str, out: &mut String) {
    let mut rest = span;
    let mut previous: Option<char> = out.chars().next_back();
    while let Some(c) = rest.chars().next() {
        if let Some(url) = bare_url(rest, previous) {
            out.push('<');
            out.push_str(url);
            out.push('>');
            previous = url.chars().next_back();
            rest = &rest[url.len()..];
            continue;
        }
        if matches!(c, '[' | ']' | '<') && previous != Some('\\') {
            out.push('\\');
        }
        out.push(c);
        previous = Some(c);
        rest = &rest[c.len_utf8()..];
    }
}

/// The URL `text` starts with, when it is a bare `http://` or `https://` one
/// (not glued to a word): up to the first space or quote, without the
/// punctuation that ends a sentence or closes an unbalanced parenthesis.
fn bare_url(text: &str, previous: Option<char>) -> Option<&str> {
    if !(text.starts_with("https://") || text.starts_with("http://")) {
        return None;
    }
    if previous.is_some_and(|c| c.is_alphanumeric() || matches!(c, '/' | '<' | '\\')) {
        return None;
    }
    let end = text
        .find(|c: char| c.is_whitespace() || matches!(c, '<' | '>' | '"' | '`' | '\''))
        .unwrap_or(text.len());
    let mut url = &text[..end];
    loop {
        let trimmed = url.trim_end_matches(['.', ',', ';', ':', '!', '?', ']', '*', '_']);
        let trimmed = match trimmed.strip_suffix(')') {
            Some(inner) if inner.matches('(').count() < trimmed.matches(')').count() => inner,
            _ => trimmed,
        };
        if trimmed.len() == url.len() {
            break;
        }
        url = trimmed;
    }
    let host = url.split_once("://").map_or("", |(_, rest)| rest);
    (!host.is_empty()).then_some(url)
}

#[cfg(test)]
mod tests {
    use super::{escape_prose, fence_code, rustdoc_text};

    #[test]
    fn indented_blocks_and_bare_fences_become_text() {
        assert_eq!(fence_code("plain\ntext"), "plain\ntext");
        assert_eq!(
            fence_code("Rules:\n\n    - a\n    - b\nAfter."),
            "Rules:\n\n```text\n    - a\n    - b\n```\nAfter."
        );
        assert_eq!(
            fence_code("x\n```\nlet a = 1;\n```\ny"),
            "x\n```text\nlet a = 1;\n```\ny"
        );
        assert_eq!(fence_code("```yaml\na: 1\n```"), "```yaml\na: 1\n```");
        // An indented continuation of a paragraph is not a code block.
        assert_eq!(fence_code("para\n    more"), "para\n    more");
        // Unterminated blocks are closed.
        assert_eq!(fence_code("\n    code"), "\n```text\n    code\n```");
        assert_eq!(fence_code("```\nopen"), "```text\nopen\n```");
        // Text on the fence line is not a language.
        assert_eq!(
            fence_code("``` <q> ::= <n>\n\n<n> ::= 1 ```"),
            "```text\n<q> ::= <n>\n\n<n> ::= 1 ```\n```"
        );
    }

    #[test]
    fn prose_brackets_tags_and_urls_are_escaped() {
        assert_eq!(escape_prose("plain text"), "plain text");
        assert_eq!(
            escape_prose("matches [0-9] and [*]"),
            r"matches \[0-9\] and \[*\]"
        );
        assert_eq!(
            escape_prose("a label <fieldName> or a < b"),
            r"a label \<fieldName> or a \< b"
        );
        assert_eq!(
            escape_prose("See https://kubernetes.io/docs/x#y. More (https://a.b/c) here"),
            "See <https://kubernetes.io/docs/x#y>. More (<https://a.b/c>) here"
        );
        assert_eq!(
            escape_prose("https://en.wikipedia.org/wiki/X_(y), ok"),
            "<https://en.wikipedia.org/wiki/X_(y)>, ok"
        );
        // Code, links and autolinks are kept as written.
        assert_eq!(escape_prose("`a[0] <b>` x"), "`a[0] <b>` x");
        assert_eq!(
            escape_prose("[k8s](https://k8s.io) x"),
            "[k8s](https://k8s.io) x"
        );
        assert_eq!(escape_prose("<https://k8s.io> x"), "<https://k8s.io> x");
        assert_eq!(escape_prose(r"already \[escaped\]"), r"already \[escaped\]");
        assert_eq!(
            escape_prose("```text\n[a] <b> http://c\n```"),
            "```text\n[a] <b> http://c\n```"
        );
        // A URL glued to a word is not one.
        assert_eq!(escape_prose("xhttp://a"), "xhttp://a");
    }

    #[test]
    fn fenced_blocks_stay_verbatim_after_escaping() {
        assert_eq!(
            rustdoc_text("Rules [x]:\n\n    - a [b]\nAfter <c>."),
            "Rules \\[x\\]:\n\n```text\n    - a [b]\n```\nAfter \\<c>."
        );
    }
}
