//! Where the cursor is in a document's structure: which document of the
//! file, the path of keys and list items down to the node under it, and
//! whether it is on a key or a value.
//!
//! A text that reads is located over its spans (`document::spans`, the
//! ones `upgrade` edits with: YAML in any style, and JSON). A text being
//! typed often does not read (`  replic` has no `:` yet): block YAML is
//! then located by indentation, line by line above the cursor, which is
//! how the structure of a half-written manifest shows.

use crate::document::spans::{self, Spanned, Written};

/// One step of a path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    Key(String),
    /// A list item (its index, when known).
    Item,
}

/// What the cursor is on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Located {
    /// The document's byte range in the text.
    pub document: std::ops::Range<usize>,
    /// The path from the document's root to the node under the cursor: for
    /// a key, the path ends with it.
    pub path: Vec<Step>,
    /// True when the cursor is on a key (or where one is being typed).
    pub on_key: bool,
    /// The byte range of the word under the cursor (a key, a scalar, or the
    /// part of either typed so far).
    pub word: std::ops::Range<usize>,
    /// The document's top-level `apiVersion` and `kind`, when written.
    pub api_version: Option<String>,
    pub kind: Option<String>,
}

/// Locates `offset` over the text's spans, when the text reads.
pub fn by_spans(text: &str, offset: usize) -> Option<Located> {
    let layout = spans::layout(text)?;
    let root = layout
        .documents
        .iter()
        .find(|doc| doc.start <= offset && offset <= doc.end)?;
    let (api_version, kind) = identity_of(text, root);
    let mut path = Vec::new();
    let mut node = root;
    loop {
        match &node.written {
            Written::Map { entries, .. } => {
                let Some((key, value)) = entries.iter().find(|(key, value)| {
                    (key.start <= offset && offset <= key.end)
                        || (value.start <= offset && offset <= value.end)
                }) else {
                    break;
                };
                path.push(Step::Key(unquote(&text[key.start..key.end])));
                if key.start <= offset && offset <= key.end {
                    return Some(Located {
                        document: root.start..root.end,
                        path,
                        on_key: true,
                        word: key.start..key.end,
                        api_version,
                        kind,
                    });
                }
                node = value;
            }
            Written::Seq { items, .. } => {
                let Some(item) = items
                    .iter()
                    .find(|item| item.start <= offset && offset <= item.end)
                else {
                    break;
                };
                path.push(Step::Item);
                node = item;
            }
            Written::Scalar { .. } | Written::Alias => break,
        }
    }
    let word = scalar_range(node).unwrap_or(offset..offset);
    Some(Located {
        document: root.start..root.end,
        path,
        on_key: false,
        word,
        api_version,
        kind,
    })
}

/// The scalar values of a document root's `apiVersion` and `kind`.
fn identity_of(text: &str, root: &Spanned) -> (Option<String>, Option<String>) {
    let Written::Map { entries, .. } = &root.written else {
        return (None, None);
    };
    let value = |name: &str| {
        entries
            .iter()
            .find(|(key, _)| unquote(&text[key.start..key.end]) == name)
            .filter(|(_, value)| matches!(value.written, Written::Scalar { .. }))
            .map(|(_, value)| unquote(&text[value.start..value.end]))
    };
    (value("apiVersion"), value("kind"))
}

fn scalar_range(node: &Spanned) -> Option<std::ops::Range<usize>> {
    matches!(node.written, Written::Scalar { .. }).then_some(node.start..node.end)
}

/// A key or scalar as written, without its quotes.
pub fn unquote(written: &str) -> String {
    let trimmed = written.trim();
    for quote in ['"', '\''] {
        if let Some(inner) = trimmed
            .strip_prefix(quote)
            .and_then(|rest| rest.strip_suffix(quote))
        {
            return inner.to_owned();
        }
    }
    trimmed.to_owned()
}

/// Locates `offset` in block YAML by indentation: the keys of the lines
/// above the cursor that open a block holding it. For a text that does
/// not read (being typed); flow collections and JSON are not followed.
pub fn by_indentation(text: &str, offset: usize) -> Located {
    let offset = floor_char_boundary(text, offset.min(text.len()));
    let line_start = text[..offset].rfind('\n').map_or(0, |at| at + 1);
    let line_end = text[offset..]
        .find('\n')
        .map_or(text.len(), |at| offset + at);
    let document = document_range(text, line_start);
    let before = &text[line_start..offset];
    let line = &text[line_start..line_end];
    // The cursor's own line: `  - key: val` → indentation, items, key.
    let (mut column, mut items) = indentation(line);
    let content = &line[column..];
    let (on_key, word, key_here) = match content.find(':').map(|at| line_start + column + at) {
        Some(colon) if colon < offset => {
            let value_start = colon + 1 + count_spaces(&text[colon + 1..line_end]);
            let key = unquote(&text[line_start + column..colon]);
            let end = value_end(text, value_start, line_end);
            (false, value_start..end.max(offset), Some(key))
        }
        colon => {
            let end = colon.unwrap_or(line_end).min(line_end);
            let start = line_start + column.min(before.len());
            (true, start..end.max(offset).min(line_end), None)
        }
    };
    if line.trim().is_empty() {
        column = before.len();
        items = 0;
    }
    let mut path = parents(&text[document.start..line_start], column);
    path.extend(std::iter::repeat_n(Step::Item, items));
    if let Some(key) = key_here {
        path.push(Step::Key(key));
    } else if on_key {
        let typed = text[word.clone()].trim();
        path.push(Step::Key(unquote(typed)));
    }
    let (api_version, kind) = identity_by_lines(text, document.clone());
    Located {
        document,
        path,
        on_key,
        word,
        api_version,
        kind,
    }
}

/// The parents of a line whose content starts at `column`: from the
/// nearest line above that is less indented, upward. A list may sit at
/// its key's own indentation (`containers:` then `- name: x` below it).
fn parents(above: &str, column: usize) -> Vec<Step> {
    let mut path = Vec::new();
    let mut column = column;
    let mut list_at_key_column = false;
    for line in above.lines().rev() {
        let trimmed = line.trim_start();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let lead = count_spaces(line);
        let (content, items) = indentation(line);
        if items > 0 {
            if lead >= column {
                continue;
            }
            if column > content {
                if let Some((key, rest)) = line[content..].split_once(':') {
                    if opens_block(rest) {
                        path.push(Step::Key(unquote(key)));
                    }
                }
            }
            path.extend(std::iter::repeat_n(Step::Item, items));
            column = lead;
            list_at_key_column = true;
            continue;
        }
        if lead < column || (list_at_key_column && lead == column) {
            if let Some((key, rest)) = line[lead..].split_once(':') {
                if opens_block(rest) {
                    path.push(Step::Key(unquote(key)));
                }
            }
            column = lead;
            list_at_key_column = false;
            if column == 0 {
                break;
            }
        }
    }
    path.reverse();
    path
}

/// True when what follows a key's colon opens a block (nothing, or a
/// comment, or a block scalar's indicator is not one).
fn opens_block(rest: &str) -> bool {
    let rest = rest.trim();
    rest.is_empty() || rest.starts_with('#')
}

/// A line's content column and how many `- ` item markers lead it.
fn indentation(line: &str) -> (usize, usize) {
    let mut column = count_spaces(line);
    let mut items = 0;
    while line[column..].starts_with("- ") || &line[column..] == "-" {
        items += 1;
        column += 1;
        column += count_spaces(&line[column..]);
    }
    (column, items)
}

fn count_spaces(text: &str) -> usize {
    text.bytes().take_while(|b| *b == b' ').count()
}

fn value_end(text: &str, start: usize, line_end: usize) -> usize {
    let value = &text[start..line_end];
    let end = value.find(" #").unwrap_or(value.len());
    start + value[..end].trim_end().len()
}

/// The range of the document holding byte `at`: between `---` lines.
fn document_range(text: &str, at: usize) -> std::ops::Range<usize> {
    let mut start = 0;
    let mut end = text.len();
    let mut position = 0;
    for line in text.split_inclusive('\n') {
        let next = position + line.len();
        if line.starts_with("---") {
            if position <= at {
                start = next;
            } else {
                end = position;
                break;
            }
        }
        position = next;
    }
    start.min(end)..end
}

fn floor_char_boundary(text: &str, mut at: usize) -> usize {
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// The top-level `apiVersion` and `kind` of the document in `range`, read
/// line by line (for a text that does not read).
fn identity_by_lines(
    text: &str,
    range: std::ops::Range<usize>,
) -> (Option<String>, Option<String>) {
    let mut api_version = None;
    let mut kind = None;
    for line in text[range].lines() {
        if let Some(rest) = line.strip_prefix("apiVersion:") {
            api_version = Some(unquote(rest.split(" #").next().unwrap_or("")));
        } else if let Some(rest) = line.strip_prefix("kind:") {
            kind = Some(unquote(rest.split(" #").next().unwrap_or("")));
        }
    }
    (api_version, kind)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(name: &str) -> Step {
        Step::Key(name.into())
    }

    const DEPLOYMENT: &str = "apiVersion: apps/v1\nkind: Deployment\nspec:\n  template:\n    spec:\n      containers:\n      - name: web\n        image: nginx\n        ports:\n        - containerPort: 80\n          protocol: TCP\n";

    #[test]
    fn spans_give_the_path_of_keys_and_values() {
        let at = DEPLOYMENT.find("protocol").unwrap() + 2;
        let located = by_spans(DEPLOYMENT, at).unwrap();
        assert!(located.on_key);
        let expected = vec![
            key("spec"),
            key("template"),
            key("spec"),
            key("containers"),
            Step::Item,
            key("ports"),
            Step::Item,
            key("protocol"),
        ];
        assert_eq!(located.path, expected);
        let at = DEPLOYMENT.find("TCP").unwrap() + 1;
        let located = by_spans(DEPLOYMENT, at).unwrap();
        assert!(!located.on_key);
        assert_eq!(&DEPLOYMENT[located.word], "TCP");
        assert_eq!(located.path, expected);
    }

    #[test]
    fn indentation_gives_the_same_path_on_a_text_being_typed() {
        let text = DEPLOYMENT.replace("          protocol: TCP\n", "          proto\n");
        let at = text.find("proto").unwrap() + 5;
        let located = by_indentation(&text, at);
        assert!(located.on_key);
        assert_eq!(
            located.path,
            vec![
                key("spec"),
                key("template"),
                key("spec"),
                key("containers"),
                Step::Item,
                key("ports"),
                Step::Item,
                key("proto")
            ]
        );
        let text = DEPLOYMENT.replace("protocol: TCP", "protocol: T");
        let at = text.find(": T").unwrap() + 3;
        let located = by_indentation(&text, at);
        assert!(!located.on_key);
        assert_eq!(located.path.last(), Some(&key("protocol")));
        assert_eq!(located.path.len(), 8);
        // A sibling key of a list item's first key.
        let at = DEPLOYMENT.find("image").unwrap() + 1;
        let located = by_indentation(DEPLOYMENT, at);
        assert_eq!(
            located.path,
            vec![
                key("spec"),
                key("template"),
                key("spec"),
                key("containers"),
                Step::Item,
                key("image")
            ]
        );
    }

    #[test]
    fn the_document_of_a_stream_and_its_identity() {
        let text = "kind: A\n---\napiVersion: v1\nkind: Service\nspec:\n  ty\n";
        let at = text.find("ty").unwrap() + 2;
        let located = by_indentation(text, at);
        assert_eq!(located.path, vec![key("spec"), key("ty")]);
        assert_eq!(located.api_version.as_deref(), Some("v1"));
        assert_eq!(located.kind.as_deref(), Some("Service"));
        let json = r#"{"apiVersion": "v1", "kind": "Service", "spec": {"type": "x"}}"#;
        let located = by_spans(json, json.find("type").unwrap()).unwrap();
        assert_eq!(
            (located.api_version.as_deref(), located.kind.as_deref()),
            (Some("v1"), Some("Service"))
        );
        assert_eq!(located.path, vec![key("spec"), key("type")]);
    }
}
