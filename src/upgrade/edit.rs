//! Minimal edits: a converted document written back into the text it was
//! read from, changing only the nodes that changed.
//!
//! The plan compares the document as read with the document the
//! conversion built, node by node, over the spans of the text
//! ([`crate::document::spans`]):
//!
//! - a scalar that changed is replaced where it is written (`apiVersion`
//!   bumps, `8080` → `"8080"`), in its old quoting where that still reads
//!   as the new value;
//! - a renamed key is replaced in place, its value and comments kept;
//! - a dropped entry removes exactly its lines in block style (its key's
//!   line to its value's last), or the entry and one comma in flow style;
//! - anything else that changed (a list of another length, a value of
//!   another kind, a mapping left empty) is written anew in the style of
//!   its surroundings (`render`).
//!
//! Everything outside those nodes keeps its bytes: comments, blank lines,
//! quoting, flow or block style, key order, line breaks. [`rewrite`] then
//! reads the whole text back and refuses it unless every document reads as
//! the value intended.

use super::render::{self, Context};
use crate::document::scalar::Syntax;
use crate::document::spans::{Spanned, Style, Written};
use crate::document::{self, Entry, Node, Value};

/// One replacement of `start..end` in the text by `text`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edit {
    pub start: usize,
    pub end: usize,
    pub text: String,
}

/// Why a text could not be edited into the values intended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EditError {
    /// The 1-based line of the document concerned.
    pub line: u32,
    pub message: String,
}

/// One document of a file: as read, and as it is to be written.
pub struct Target<'a> {
    pub read: &'a Node,
    pub intended: &'a Node,
}

/// The targets of a file's documents as read, each with its intended value
/// (`intended`, in the same order).
pub fn targets<'a>(read: &'a [document::Document], intended: &'a [Node]) -> Vec<Target<'a>> {
    read.iter()
        .zip(intended)
        .map(|(doc, intended)| Target {
            read: &doc.root,
            intended,
        })
        .collect()
}

/// The text of a file whose documents (`targets`, in the reader's order)
/// are rewritten as intended, every other byte kept; `Ok(None)` when no
/// document changes (the file is left as it is). Refused when the text
/// edited would not read back as intended.
pub fn rewrite(text: &str, targets: &[Target<'_>]) -> Result<Option<String>, EditError> {
    rewrite_part(text, 1, targets)
}

/// [`rewrite`] for a part of a file that starts on line `first_line`
/// (`document::split`), so that a file is edited one part at a time and
/// its lines are still the file's.
pub fn rewrite_part(
    text: &str,
    first_line: u32,
    targets: &[Target<'_>],
) -> Result<Option<String>, EditError> {
    let changed: Vec<usize> = (0..targets.len())
        .filter(|&at| !same(targets[at].read, targets[at].intended))
        .collect();
    let Some(&first) = changed.first() else {
        return Ok(None);
    };
    let refuse = |at: usize, why: &str| EditError {
        line: targets[at].read.line,
        message: format!("cannot edit the document in place: {why}; nothing written"),
    };
    let layout = document::spans::layout(text)
        .filter(|layout| layout.documents.len() == targets.len())
        .ok_or_else(|| refuse(first, "its text could not be located"))?;
    let newline = if text.contains("\r\n") { "\r\n" } else { "\n" };
    let mut edits = Vec::new();
    for &at in &changed {
        let mut planner = Planner {
            text,
            syntax: layout.syntax,
            newline,
            edits: Vec::new(),
            shared: None,
        };
        let target = &targets[at];
        planner.node(target.read, target.intended, &layout.documents[at], false);
        if let Some((offset, what)) = planner.shared {
            let line = first_line.saturating_add(line_count(&text[..offset]));
            let message = match what {
                Some(what) => format!(
                    "cannot edit the document in place: {what} on line {line} stands for a node this upgrade changes: the document shares nodes through anchors, aliases or merge keys, which upgrade edits only where they are written, and writing this node anew would drop its comments; expand them by hand, then run upgrade again; nothing written"
                ),
                None => format!(
                    "cannot edit the document in place: the mapping on line {line} repeats a key, and writing it anew would drop the repeated line and its comments; remove one of the two, then run upgrade again; nothing written"
                ),
            };
            return Err(EditError { line, message });
        }
        edits.extend(planner.edits);
    }
    let edited = apply(text, edits).ok_or_else(|| refuse(first, "two edits overlap"))?;
    verify(&edited, targets).map_err(|err| {
        // Anchors, aliases and merge keys share a node between places;
        // an edit of one place changes the others.
        match changed.iter().find(|&&at| has_copies(text, &layout.documents[at])) {
            Some(&at) => refuse(
                at,
                "the document shares nodes through anchors and aliases or merge keys (`<<`), which upgrade cannot edit one place at a time; expand them by hand, then run upgrade again",
            ),
            None => err,
        }
    })?;
    Ok(Some(edited))
}

/// True when a document holds an alias or a merge key (`<<`).
fn has_copies(text: &str, root: &Spanned) -> bool {
    first_copy(text, root).is_some()
}

/// The first alias or merge key (`<<`) at or below `root`: where it is
/// written and what it is, for a message.
fn first_copy(text: &str, root: &Spanned) -> Option<(usize, &'static str)> {
    let mut stack = vec![root];
    let mut found: Option<(usize, &'static str)> = None;
    let mut keep = |at: usize, what: &'static str| {
        if found.is_none_or(|(first, _)| at < first) {
            found = Some((at, what));
        }
    };
    while let Some(node) = stack.pop() {
        match &node.written {
            Written::Alias => keep(node.start, "an alias (`*`)"),
            Written::Scalar { .. } => {}
            Written::Seq { items, .. } => stack.extend(items),
            Written::Map { entries, .. } => {
                for (key, value) in entries {
                    if key.written == Written::Alias {
                        keep(key.start, "an alias (`*`)");
                    } else if text.get(key.start..key.end) == Some("<<") {
                        keep(key.start, "the merge key `<<`");
                    }
                    stack.push(value);
                }
            }
        }
    }
    found
}

/// The line breaks in `text` (LF; a CR alone is rare enough in manifests
/// that a message's line may be off by it).
fn line_count(text: &str) -> u32 {
    u32::try_from(memchr::memchr_iter(b'\n', text.as_bytes()).count()).unwrap_or(u32::MAX)
}

/// Reads `edited` back and checks every document against its target.
fn verify(edited: &str, targets: &[Target<'_>]) -> Result<(), EditError> {
    let parsed = document::parse(edited);
    let line = targets.first().map_or(1, |target| target.read.line);
    if let Some(err) = parsed.error {
        return Err(EditError {
            line,
            message: format!(
                "the edited text would not read back (line {}: {}); nothing written — please report this with the file",
                err.line, err.message
            ),
        });
    }
    if parsed.documents.len() != targets.len() {
        return Err(EditError {
            line,
            message: format!(
                "the edited text would read as {} documents instead of {}; nothing written — please report this with the file",
                parsed.documents.len(),
                targets.len()
            ),
        });
    }
    for (read, target) in parsed.documents.iter().zip(targets) {
        if !same(&read.root, target.intended) {
            return Err(EditError {
                line: target.read.line,
                message: "the document edited in place would not read back as the upgraded value; nothing written — please report this with the file".into(),
            });
        }
    }
    Ok(())
}

/// Applies non-overlapping edits to `text`; `None` when two overlap.
pub fn apply(text: &str, mut edits: Vec<Edit>) -> Option<String> {
    edits.sort_by_key(|edit| (edit.start, edit.end));
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for edit in edits {
        if edit.start < at || edit.end < edit.start || edit.end > text.len() {
            return None;
        }
        out.push_str(text.get(at..edit.start)?);
        out.push_str(&edit.text);
        at = edit.end;
    }
    out.push_str(text.get(at..)?);
    Some(out)
}

/// True when two nodes hold the same value (lines aside).
pub fn same(a: &Node, b: &Node) -> bool {
    match (&a.value, &b.value) {
        (Value::Seq(left), Value::Seq(right)) => {
            left.len() == right.len() && left.iter().zip(right).all(|(l, r)| same(l, r))
        }
        (Value::Map(left), Value::Map(right)) => {
            left.len() == right.len()
                && left
                    .iter()
                    .zip(right)
                    .all(|(l, r)| l.key == r.key && same(&l.value, &r.value))
        }
        (left, right) => left == right,
    }
}

/// What becomes of one entry of a mapping.
enum Step<'n> {
    /// Kept under the same or (`Some`) another key, with its new value.
    Keep(&'n Entry, Option<&'n str>),
    Drop,
}

struct Planner<'t> {
    text: &'t str,
    syntax: Syntax,
    newline: &'static str,
    edits: Vec<Edit>,
    /// Where a node to be written anew holds an alias or a merge key, and
    /// which (`None`: a mapping that repeats a key): writing it anew would
    /// expand them, or drop the repeated line, and drop the comments
    /// around them, so the document is refused instead.
    shared: Option<(usize, Option<&'static str>)>,
}

impl Planner<'_> {
    fn context(&self, in_flow: bool) -> Context<'static> {
        Context {
            syntax: self.syntax,
            in_flow,
            newline: self.newline,
        }
    }

    fn edit(&mut self, start: usize, end: usize, text: String) {
        self.edits.push(Edit { start, end, text });
    }

    /// Plans the edits that turn `read` (written at `span`) into `new`.
    fn node(&mut self, read: &Node, new: &Node, span: &Spanned, in_flow: bool) {
        if same(read, new) {
            return;
        }
        if span.written == Written::Alias {
            // A copy of an anchored node: the anchored node's own edit
            // changes it too, and the read-back check refuses the text
            // when that is not what this place needs.
            return;
        }
        if let (Value::Map(old), Written::Map { entries, .. }) = (&read.value, &span.written) {
            // More keys written than read, with no merge key among them: a
            // key written twice.
            if old.len() < entries.len() && first_copy(self.text, span).is_none() {
                self.shared = self.shared.or(Some((span.start, None)));
                return;
            }
        }
        match (&read.value, &new.value, &span.written) {
            (
                Value::Map(old),
                Value::Map(entries),
                Written::Map {
                    flow,
                    entries: spans,
                },
            ) if old.len() == spans.len() && !entries.is_empty() => {
                let in_flow = in_flow || *flow;
                match align(old, entries) {
                    Some(steps) => self.map(old, &steps, spans, in_flow),
                    None => self.replace(new, span, in_flow),
                }
            }
            (Value::Seq(old), Value::Seq(items), Written::Seq { flow, items: spans })
                if old.len() == items.len() && old.len() == spans.len() =>
            {
                let in_flow = in_flow || *flow;
                for ((old, new), span) in old.iter().zip(items).zip(spans) {
                    self.node(old, new, span, in_flow);
                }
            }
            (_, value, Written::Scalar { style, tag })
                if !matches!(value, Value::Seq(_) | Value::Map(_)) =>
            {
                match render::scalar_text(value, *style, self.context(in_flow)) {
                    Some(text) => {
                        self.untag(*tag, span.start);
                        self.edit(span.start, span.end, text);
                    }
                    None => self.replace(new, span, in_flow),
                }
            }
            _ => self.replace(new, span, in_flow),
        }
    }

    /// A mapping whose entries are kept (perhaps renamed) or dropped.
    fn map(
        &mut self,
        old: &[Entry],
        steps: &[Step<'_>],
        spans: &[(Spanned, Spanned)],
        in_flow: bool,
    ) {
        for ((entry, step), (key, value)) in old.iter().zip(steps).zip(spans) {
            if let Step::Keep(new, renamed) = step {
                if let Some(name) = renamed {
                    let (style, tag) = match key.written {
                        Written::Scalar { style, tag } => (style, tag),
                        _ => (Style::DoubleQuoted, None),
                    };
                    let name = Value::String((*name).into());
                    if let Some(text) = render::scalar_text(&name, style, self.context(in_flow)) {
                        self.untag(tag, key.start);
                        self.edit(key.start, key.end, text);
                    }
                }
                if value.start == value.end && !same(&entry.value, &new.value) {
                    self.fill(key, &new.value, in_flow);
                } else {
                    self.node(&entry.value, &new.value, value, in_flow);
                }
            }
        }
        // Runs of dropped entries, each removed at once.
        let mut at = 0;
        while at < steps.len() {
            if !matches!(steps[at], Step::Drop) {
                at += 1;
                continue;
            }
            let first = at;
            while at < steps.len() && matches!(steps[at], Step::Drop) {
                at += 1;
            }
            self.drop_run(spans, first, at, in_flow);
        }
    }

    /// Removes a scalar's tag (and the blanks after it, up to `before`):
    /// its new value is written plain or quoted, as the tag does not fit it.
    fn untag(&mut self, tag: Option<(usize, usize)>, before: usize) {
        if let Some((start, end)) = tag {
            let blanks = self.text[end..before]
                .find(|c: char| c != ' ' && c != '\t')
                .map_or(before, |at| end + at);
            self.edit(start, blanks, String::new());
        }
    }

    /// Writes a value for an entry written without one (`key:`, perhaps
    /// with a tag or an anchor), after its `:` on the key's line: anchors
    /// kept, tags left out, a comment kept after it.
    fn fill(&mut self, key: &Spanned, new: &Node, in_flow: bool) {
        let rest = &self.text[key.end..];
        let Some(colon) = rest.find(':').map(|at| key.end + at + 1) else {
            return;
        };
        let line = &self.text[colon..line_end(self.text, colon, false)];
        let content = line.find(" #").map_or(line, |at| &line[..at]);
        let content = if in_flow {
            content
                .find([',', '}', ']'])
                .map_or(content, |at| &content[..at])
        } else {
            content
        };
        let anchors: Vec<&str> = content
            .split_whitespace()
            .filter(|word| word.starts_with('&'))
            .collect();
        let text = match &new.value {
            Value::Seq(_) | Value::Map(_) => render::flow(new, self.context(in_flow)),
            value => render::scalar_text(value, Style::Plain, self.context(in_flow)),
        };
        if let Some(text) = text {
            let mut filled = String::from(" ");
            for anchor in anchors {
                filled.push_str(anchor);
                filled.push(' ');
            }
            filled.push_str(&text);
            let end = colon + content.trim_end().len();
            self.edit(colon, end, filled);
        }
    }

    /// Removes the entries `first..end` of a mapping (some entry is kept).
    fn drop_run(&mut self, spans: &[(Spanned, Spanned)], first: usize, end: usize, in_flow: bool) {
        let key_start = spans[first].0.start;
        let last_end = entry_end(&spans[end - 1]);
        if in_flow {
            self.drop_flow_run(spans, first, end);
            return;
        }
        let line_start = line_start(self.text, key_start);
        // What stands before the key on its line: nothing but blanks, an
        // explicit key's `?`, an anchor or a tag; or a list item's `-`.
        let before = self.text[line_start..key_start].trim_start_matches([' ', '\t']);
        if !before.starts_with('-') {
            // The key opens its line: remove whole lines, the last one's
            // line break (and trailing comment) included.
            let line_end = line_end(self.text, last_end, true);
            self.edit(line_start, line_end, String::new());
        } else if let Some((next, _)) = spans.get(end) {
            // After `- `: the next kept key moves up to its place, or,
            // when comment lines stand above it, the first of them does
            // (`- # about name` then `name: b`): a comment stays with the
            // entry below it; the dropped entries' own trailing comment
            // goes with them.
            let after = line_end(self.text, last_end, true);
            let comment = (after <= next.start)
                .then(|| first_comment_line(&self.text[after..next.start]))
                .flatten();
            match comment {
                Some(at) => self.edit(key_start, after + at, String::new()),
                None => self.edit(key_start, next.start, String::new()),
            }
        }
    }

    /// Removes the entries `first..end` of a flow mapping (some entry is
    /// kept) with one comma, each comment staying with its entry: on a
    /// line of their own (`{` and `}` on other lines), the entries' lines
    /// go whole, their trailing comments with them, and when they were
    /// last, the comma after the entry before them (its comment stays);
    /// on a line shared with other entries, the entries go with the comma
    /// after them (or before them, when they are last).
    fn drop_flow_run(&mut self, spans: &[(Spanned, Spanned)], first: usize, end: usize) {
        let text = self.text;
        let start = spans[first].0.start;
        let last_end = entry_end(&spans[end - 1]);
        let own_start = line_start(text, start);
        let opens_line = text[own_start..start].trim_matches([' ', '\t']).is_empty();
        let rest = text[last_end..line_end(text, last_end, false)].trim_start_matches([' ', '\t']);
        let comma_follows = rest.starts_with(',');
        let rest = rest
            .strip_prefix(',')
            .unwrap_or(rest)
            .trim_start_matches([' ', '\t']);
        let owns_lines = opens_line && (rest.is_empty() || rest.starts_with('#'));
        let whole_lines = (own_start, line_end(text, last_end, true));
        match spans.get(end) {
            Some(_) if owns_lines && comma_follows => {
                self.edit(whole_lines.0, whole_lines.1, String::new());
            }
            Some((next, _)) if text[last_end..next.start].contains(is_break) => {
                // The next entry on a later line: the entries and their
                // comma go, what stands between (comments) stays.
                match comma_at(text, last_end, next.start) {
                    Some(comma) => {
                        let after = comma + 1;
                        let blanks = text[after..].len()
                            - text[after..].trim_start_matches([' ', '\t']).len();
                        self.edit(start, after + blanks, String::new());
                    }
                    None => self.edit(start, next.start, String::new()),
                }
            }
            Some((next, _)) => self.edit(start, next.start, String::new()),
            None => {
                let before = entry_end(&spans[first - 1]);
                if !text[before..start].contains(is_break) {
                    self.edit(before, last_end, String::new());
                    return;
                }
                if let Some(comma) = comma_at(text, before, start) {
                    self.edit(comma, comma + 1, String::new());
                }
                if owns_lines {
                    self.edit(whole_lines.0, whole_lines.1, String::new());
                } else {
                    self.edit(start, last_end, String::new());
                }
            }
        }
    }

    /// Writes `new` anew where `span` was: block style for a block
    /// collection, flow style (or JSON) otherwise.
    fn replace(&mut self, new: &Node, span: &Spanned, in_flow: bool) {
        if let Some((at, what)) = first_copy(self.text, span) {
            self.shared = self.shared.or(Some((at, Some(what))));
            return;
        }

        let line_start = line_start(self.text, span.start);
        let column = self.text[line_start..span.start].chars().count();
        let context = self.context(in_flow);
        let text = if self.syntax == Syntax::Json {
            let old = &self.text[span.start..span.end];
            let unit = json_indent_unit(self.text);
            let indent = self.text[line_start..]
                .len()
                .saturating_sub(self.text[line_start..].trim_start().len());
            Some(render::json(
                new,
                indent,
                &unit,
                !old.contains('\n'),
                self.newline,
            ))
        } else if is_block_collection(span) && !in_flow && is_filled(new) {
            render::block(new, column, context)
        } else {
            render::flow(new, context)
        };
        if let Some(text) = text {
            self.edit(span.start, span.end, text);
        }
    }
}

/// A line break as go-yaml reads one: LF, CR (CRLF is both), NEL, LS, PS.
fn is_break(c: char) -> bool {
    matches!(c, '\n' | '\r' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

/// Where the line holding `at` starts.
fn line_start(text: &str, at: usize) -> usize {
    text[..at]
        .char_indices()
        .rev()
        .find(|&(_, c)| is_break(c))
        .map_or(0, |(at, c)| at + c.len_utf8())
}

/// Where the line holding `at` ends: at its line break, or after it (CRLF
/// as one) when `with_break`.
fn line_end(text: &str, at: usize, with_break: bool) -> usize {
    let Some((found, c)) = text[at..].char_indices().find(|&(_, c)| is_break(c)) else {
        return text.len();
    };
    let end = at + found;
    if !with_break {
        end
    } else if text[end..].starts_with("\r\n") {
        end + 2
    } else {
        end + c.len_utf8()
    }
}

/// The first comma in `text[from..to]` outside comments: the separator
/// between two flow entries (what stands between them is blanks, line
/// breaks, comments and that one comma).
fn comma_at(text: &str, from: usize, to: usize) -> Option<usize> {
    let mut in_comment = false;
    let mut after_blank = true;
    for (at, c) in text[from..to].char_indices() {
        if is_break(c) {
            in_comment = false;
        } else if !in_comment {
            if c == '#' && after_blank {
                in_comment = true;
            } else if c == ',' {
                return Some(from + at);
            }
        }
        after_blank = matches!(c, ' ' | '\t') || is_break(c);
    }
    None
}

/// Where the first line holding only a comment starts its `#`, in a text
/// of whole lines (blank lines and comment lines, then the next key's
/// indentation).
fn first_comment_line(text: &str) -> Option<usize> {
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let content = line.trim_start_matches([' ', '\t']);
        if content.starts_with('#') {
            return Some(at + line.len() - content.len());
        }
        at += line.len();
    }
    None
}

/// True for a list or mapping written in block style.
fn is_block_collection(span: &Spanned) -> bool {
    matches!(span.written, Written::Seq { .. } | Written::Map { .. }) && !span.is_flow()
}

/// True for a list or mapping holding something (an empty one has no
/// block style: `[]`, `{}`).
fn is_filled(node: &Node) -> bool {
    match &node.value {
        Value::Seq(items) => !items.is_empty(),
        Value::Map(entries) => !entries.is_empty(),
        _ => false,
    }
}

/// Where an entry's text ends: its value's end, or its key's when the value
/// is empty (`key:` alone, whose empty scalar the parser marks further on).
fn entry_end((key, value): &(Spanned, Spanned)) -> usize {
    if value.start == value.end {
        key.end
    } else {
        value.end.max(key.end)
    }
}

/// The indentation unit of a JSON text: the first indented line's leading
/// spaces or tab (two spaces when no line is indented).
fn json_indent_unit(text: &str) -> String {
    text.lines()
        .map(|line| &line[..line.len() - line.trim_start_matches([' ', '\t']).len()])
        .find(|indent| !indent.is_empty())
        .unwrap_or("  ")
        .to_owned()
}

/// Pairs the entries read with the entries built: the conversion keeps
/// their order, drops some and renames some in place (a renamed entry keeps
/// its line). `None` when the built entries are not that (an entry added),
/// so the mapping is written anew.
fn align<'n>(old: &[Entry], new: &'n [Entry]) -> Option<Vec<Step<'n>>> {
    let mut steps = Vec::with_capacity(old.len());
    let mut next = 0;
    for entry in old {
        let step = match new.get(next) {
            Some(built) if built.key == entry.key => Step::Keep(built, None),
            Some(built)
                if built.line == entry.line
                    && !old.iter().any(|o| o.key == built.key)
                    && !new.iter().any(|n| n.key == entry.key) =>
            {
                Step::Keep(built, Some(built.key.as_str()))
            }
            _ => Step::Drop,
        };
        if matches!(step, Step::Keep(..)) {
            next += 1;
        }
        steps.push(step);
    }
    (next == new.len()).then_some(steps)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::parse;

    /// `text` rewritten so that its first document is `intended` (YAML).
    fn rewritten(text: &str, intended: &str) -> String {
        let read = parse(text).documents.remove(0).root;
        let intended = parse(intended).documents.remove(0).root;
        let targets = [Target {
            read: &read,
            intended: &intended,
        }];
        rewrite(text, &targets)
            .unwrap()
            .unwrap_or_else(|| text.to_owned())
    }

    #[test]
    fn scalars_keys_and_drops_change_only_their_text() {
        let text = "# top\nkind: A # the kind\nversion: \"1.10\"\nspec:\n  # before\n  old: 1 # kept\n  gone: x\n  more:\n    - a\n  flow: {a: 1, b: 2, c: 3}\n";
        // On the lines of the text: a renamed entry keeps its line.
        let intended = "\nkind: A\nversion: '1.12'\nspec:\n\n  new: 1\n\n  more: [a]\n\n  flow: {a: 1, c: 3}\n";
        assert_eq!(
            rewritten(text, intended),
            "# top\nkind: A # the kind\nversion: \"1.12\"\nspec:\n  # before\n  new: 1 # kept\n  more:\n    - a\n  flow: {a: 1, c: 3}\n"
        );
    }

    #[test]
    fn flow_drops_take_one_comma_and_block_items_move_up() {
        assert_eq!(
            rewritten("x: [{a: 1, b: 2}]\n", "x: [{a: 1}]"),
            "x: [{a: 1}]\n"
        );
        assert_eq!(rewritten("x: {a: 1, b: 2}\n", "x: {b: 2}"), "x: {b: 2}\n");
        assert_eq!(
            rewritten("x:\n- a: 1\n  b: 2\n", "x: [{b: 2}]"),
            "x:\n- b: 2\n"
        );
        assert_eq!(
            rewritten("x:\n  a: 1\ny: 2\n", "x: {}\ny: 2"),
            "x:\n  {}\ny: 2\n"
        );
    }

    #[test]
    fn comments_stay_with_their_entries_when_entries_are_dropped() {
        // Flow entries on lines of their own: the last one dropped with
        // its comment, the comma before it alone.
        assert_eq!(
            rewritten(
                "r: {\n  a: 1, # about a\n  b: 2 # about b\n}\n",
                "r: {a: 1}"
            ),
            "r: {\n  a: 1 # about a\n}\n"
        );
        // A middle one: its line whole; a comment line above the next
        // entry stays.
        assert_eq!(
            rewritten(
                "r: {\n  a: 1,\n  b: 2, # about b\n  # about c\n  c: 3\n}\n",
                "r: {a: 1, c: 3}"
            ),
            "r: {\n  a: 1,\n  # about c\n  c: 3\n}\n"
        );
        // After `{` on its line: the entry and its comma, not the comment
        // line below.
        assert_eq!(
            rewritten("r: {a: 1,\n  # about b\n  b: 2}\n", "r: {b: 2}"),
            "r: {\n  # about b\n  b: 2}\n"
        );
        // The first key of a `- ` item: the comment above the next key
        // opens the item.
        assert_eq!(
            rewritten("x:\n- a: 1 # about a\n  # about b\n  b: 2\n", "x: [{b: 2}]"),
            "x:\n- # about b\n  b: 2\n"
        );
    }

    #[test]
    fn merge_keys_and_repeated_keys_are_refused_not_written_anew() {
        let refusal = |text: &str, intended: &str| {
            let read = parse(text).documents.remove(0).root;
            let intended = parse(intended).documents.remove(0).root;
            let targets = [Target {
                read: &read,
                intended: &intended,
            }];
            rewrite(text, &targets).unwrap_err()
        };
        let err = refusal("# c\n<<: {a: 1, k: x}\nb: 2 # c\n", "{a: 2, k: x, b: 2}");
        assert_eq!(err.line, 2);
        assert!(
            err.message.contains("the merge key `<<` on line 2"),
            "{err:?}"
        );
        let err = refusal("a: 1\nb: 2 # c\nb: 3\nc: 4\n", "{a: 1, b: 3, d: 4}");
        assert!(err.message.contains("repeats a key"), "{err:?}");
        // An alias whose value changes is changed through its anchor.
        assert_eq!(
            rewritten("a: &x 1 # c\nb: *x\n", "{a: 2, b: 2}"),
            "a: &x 2 # c\nb: *x\n"
        );
    }

    #[test]
    fn an_unchanged_document_gives_no_text() {
        let read = parse("a: 1 # c\n").documents.remove(0).root;
        let targets = [Target {
            read: &read,
            intended: &read,
        }];
        assert_eq!(rewrite("a: 1 # c\n", &targets), Ok(None));
    }

    #[test]
    fn a_text_that_would_not_read_back_is_refused() {
        let read = parse("a: 1\n").documents.remove(0).root;
        let intended = parse("a: 2\n").documents.remove(0).root;
        let wrong = Target {
            read: &read,
            intended: &read,
        };
        // The plan is made for `intended`, the check against `read`.
        let targets = [Target {
            read: &read,
            intended: &intended,
        }];
        let edited = rewrite("a: 1\n", &targets).unwrap().unwrap();
        assert_eq!(edited, "a: 2\n");
        let err = verify(&edited, &[wrong]).unwrap_err();
        assert!(err.message.contains("would not read back"), "{err:?}");
    }
}
