//! Errors and warnings. Every message names the file, the place in it (a
//! line:column or a JSON pointer) and, where there is one, the fix.

use std::fmt;
use std::path::PathBuf;

/// A result with vergate's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Everything that stops a regen.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A file could not be read or written.
    #[error("{}: {action}: {source}", path.display())]
    Io {
        path: PathBuf,
        action: &'static str,
        #[source]
        source: std::io::Error,
    },
    /// A spec or config file is not well-formed JSON, YAML or TOML.
    #[error("{}:{line}:{column}: {message}{}", path.display(), snippet_block(.snippet))]
    Syntax {
        path: PathBuf,
        line: usize,
        column: usize,
        message: String,
        snippet: String,
    },
    /// A spec is well-formed but says something vergate refuses.
    #[error("{}#{pointer}: {message}", path.display())]
    Spec {
        path: PathBuf,
        pointer: String,
        message: String,
    },
    /// api.toml or the spec directory layout is wrong.
    #[error("{}: {message}", path.display())]
    Config { path: PathBuf, message: String },
    /// The same definition differs between two files of one minor.
    #[error(
        "definition {name:?} of minor {version} differs between {} and {}; \
         a minor's files may repeat a definition only if it is identical",
        first.display(), second.display()
    )]
    ConflictingDefinition {
        name: String,
        version: vergate_core::Version,
        first: PathBuf,
        second: PathBuf,
    },
    /// A spec file does not have the digest recorded in api.toml.
    #[error(
        "{}: sha256 is {actual} but api.toml records {expected}; \
         if the spec changed on purpose, update its digest in api.toml",
        path.display()
    )]
    DigestMismatch {
        path: PathBuf,
        expected: String,
        actual: String,
    },
    /// The annotations overlay has mistakes: one `file:line: message` each.
    #[error("{}", messages.join("\n"))]
    Annotations { messages: Vec<String> },
}

impl Error {
    /// The error of an I/O `action` (`"reading"`, `"writing the zip"`) on
    /// `path`.
    pub fn io(path: &std::path::Path, action: &'static str, source: std::io::Error) -> Error {
        Error::Io {
            path: path.to_owned(),
            action,
            source,
        }
    }
}

fn snippet_block(snippet: &str) -> String {
    if snippet.is_empty() {
        String::new()
    } else {
        format!("\n{snippet}")
    }
}

/// Something a spec holds that the model does not handle; the regen goes on.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[cfg_attr(feature = "load", derive(serde::Serialize, serde::Deserialize))]
pub struct Warning {
    pub path: PathBuf,
    pub pointer: String,
    pub message: String,
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "warning: {}#{}: {}",
            self.path.display(),
            self.pointer,
            self.message
        )
    }
}

/// Renders the line `line` (1-based) of `text` with a caret under `column`,
/// for syntax errors.
pub fn snippet(text: &str, line: usize, column: usize) -> String {
    let Some(source_line) = text.lines().nth(line.saturating_sub(1)) else {
        return String::new();
    };
    // Very long lines (minified JSON) are cut around the column.
    let chars: Vec<char> = source_line.chars().collect();
    let col = column.saturating_sub(1).min(chars.len());
    let start = col.saturating_sub(40);
    let end = (col + 40).min(chars.len());
    let shown: String = chars[start..end].iter().collect();
    let prefix = if start > 0 { "…" } else { "" };
    let caret_pad = " ".repeat(col - start + prefix.chars().count());
    format!("  {line:>5} | {prefix}{shown}\n        | {caret_pad}^")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snippet_points_at_the_column() {
        let text = "{\n  \"a\": tru\n}";
        let shown = snippet(text, 2, 8);
        assert!(shown.contains("\"a\": tru"), "{shown}");
        let caret_line = shown.lines().nth(1).unwrap();
        let code_line = shown.lines().next().unwrap();
        let caret_at = caret_line.find('^').unwrap();
        assert_eq!(&code_line[caret_at..caret_at + 1], "t");
    }
}
