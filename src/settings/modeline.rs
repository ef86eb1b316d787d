//! The modeline: `# vergate: target=1.31` sets the target of one file.
//!
//! Where: a line that starts with `#` (column 1, so a block scalar's
//! indented text is never read as one), among the first or the last
//! [`MODELINE_LINES`] lines of the file, as Vim looks for its modelines.
//! What: `vergate:` then `key=value` settings separated by spaces or
//! commas; `target` (a minor as `check --target` takes it) is the one key.
//! A second modeline, an unknown key or a bad minor is a [`ModelineError`]
//! at its line: `check` reports the file as an input error (exit 2) and
//! checks none of its documents, rather than checking them against a
//! target the author did not mean.

use crate::Version;

/// How many lines at each end of a file may hold the modeline.
pub const MODELINE_LINES: usize = 5;

/// A modeline that does not read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModelineError {
    /// 1-based.
    pub line: u32,
    /// 1-based, in characters.
    pub column: u32,
    pub message: String,
}

impl std::fmt::Display for ModelineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.column, self.message)
    }
}

/// The target a file's modeline sets: `None` without a modeline, an error
/// when it does not read (see the module's documentation).
pub fn modeline_target(text: &str) -> Option<Result<Version, ModelineError>> {
    modeline(text).map(|found| found.map(|modeline| modeline.target))
}

/// A modeline that reads: what it sets, and where (for an error found
/// later, such as a minor the API does not have).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Modeline {
    pub target: Version,
    /// 1-based line and column of the `target=` setting.
    pub line: u32,
    pub column: u32,
}

/// [`modeline_target`], with the modeline's place.
pub fn modeline(text: &str) -> Option<Result<Modeline, ModelineError>> {
    let mut found: Option<Modeline> = None;
    for (line, body, column) in candidates(text) {
        if found.is_some() {
            return Some(Err(ModelineError {
                line,
                column: 1,
                message: "a second `# vergate:` modeline; keep one".to_owned(),
            }));
        }
        match read(body, line, column) {
            Ok(modeline) => found = Some(modeline),
            Err(err) => return Some(Err(err)),
        }
    }
    found.map(Ok)
}

/// The modeline lines of `text`: (1-based line, text after `vergate:`,
/// its 1-based column).
fn candidates(text: &str) -> Vec<(u32, &str, u32)> {
    let mut lines: Vec<(usize, &str)> = text.split('\n').take(MODELINE_LINES).enumerate().collect();
    let head_end = text
        .match_indices('\n')
        .nth(MODELINE_LINES - 1)
        .map_or(text.len(), |(at, _)| at);
    // The last lines, when the file has more than the first ones.
    if head_end < text.len() {
        let tail_text = &text[head_end + 1..];
        let mut tail: Vec<&str> = tail_text.rsplit('\n').take(MODELINE_LINES).collect();
        tail.reverse();
        let total = MODELINE_LINES + tail_text.split('\n').count();
        let first = total - tail.len();
        lines.extend(tail.into_iter().enumerate().map(|(i, l)| (first + i, l)));
    }
    lines
        .into_iter()
        .filter_map(|(index, line)| {
            let line = line.strip_suffix('\r').unwrap_or(line);
            let rest = line.strip_prefix('#')?;
            let trimmed = rest.trim_start();
            let body = trimmed.strip_prefix("vergate:")?;
            let column = 1 + 1 + (rest.len() - trimmed.len()) + "vergate:".len();
            Some((
                u32::try_from(index + 1).unwrap_or(u32::MAX),
                body,
                u32::try_from(column).unwrap_or(u32::MAX),
            ))
        })
        .collect()
}

fn read(body: &str, line: u32, column: u32) -> Result<Modeline, ModelineError> {
    let column_of =
        |offset: usize| column + u32::try_from(body[..offset].chars().count()).unwrap_or(0);
    let error = |offset: usize, message: String| ModelineError {
        line,
        column: column_of(offset),
        message,
    };
    let mut target = None;
    for setting in body.split([' ', '\t', ',']).filter(|part| !part.is_empty()) {
        let offset = setting.as_ptr() as usize - body.as_ptr() as usize;
        let Some((key, value)) = setting.split_once('=') else {
            return Err(error(
                offset,
                format!("modeline: {setting:?} is not key=value; write `# vergate: target=1.31`"),
            ));
        };
        if key != "target" {
            let hint = super::closest(key, ["target"])
                .map(|near| format!("did you mean `{near}`? "))
                .unwrap_or_default();
            return Err(error(
                offset,
                format!("modeline: unknown key `{key}`; {hint}the one key is target (`# vergate: target=1.31`)"),
            ));
        }
        match Version::parse_cluster(value) {
            Ok(version) => {
                target = Some(Modeline {
                    target: version,
                    line,
                    column: column_of(offset),
                })
            }
            Err(err) => {
                return Err(error(
                    offset + key.len() + 1,
                    format!(
                    "modeline: target {value:?}: {err}; write a minor: `# vergate: target=1.31`"
                ),
                ))
            }
        }
    }
    target.ok_or_else(|| {
        error(
            0,
            "modeline: nothing set; write `# vergate: target=1.31`".to_owned(),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::modeline_target;
    use crate::Version;

    fn target(text: &str) -> Option<Result<Version, (u32, u32)>> {
        modeline_target(text).map(|found| found.map_err(|err| (err.line, err.column)))
    }

    #[test]
    fn first_and_last_lines_are_read_and_others_not() {
        let v131: Version = "1.31".parse().unwrap();
        assert_eq!(target("# vergate: target=1.31\nkind: A\n"), Some(Ok(v131)));
        assert_eq!(target("#vergate:target=v1.31.4-gke.1\r\n"), Some(Ok(v131)));
        let body = "a: 1\n".repeat(20);
        let tail = format!("{body}# vergate: target=1.31");
        assert_eq!(target(&tail), Some(Ok(v131)));
        let middle = format!("{body}# vergate: target=1.31\n{body}");
        assert_eq!(target(&middle), None);
        // Indented: the text of a block scalar, not a comment.
        assert_eq!(target("data: |\n  # vergate: target=1.31\n"), None);
        assert_eq!(target(""), None);
    }

    #[test]
    fn bad_modelines_are_errors_at_their_place() {
        assert_eq!(target("# vergate: target=1.x\n"), Some(Err((1, 19))));
        assert_eq!(target("a: 1\n# vergate: taget=1.31\n"), Some(Err((2, 12))));
        assert_eq!(target("# vergate:\n"), Some(Err((1, 11))));
        assert_eq!(
            target("# vergate: target=1.31\n# vergate: target=1.30\n"),
            Some(Err((2, 1)))
        );
        let message = modeline_target("# vergate: taget=1.31")
            .unwrap()
            .unwrap_err()
            .message;
        assert!(message.contains("did you mean `target`"), "{message}");
    }
}
