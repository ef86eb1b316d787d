//! Paths into a document and their text (`spec.ports[0].name`).

use std::fmt::Write;

/// One step of a path: a key or a list index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Step<'a> {
    Key(&'a str),
    Index(usize),
}

/// The text of `steps` followed by the key `last`: keys joined by dots,
/// indices in brackets.
pub(super) fn text(steps: &[Step<'_>], last: Option<&str>) -> String {
    let mut text = String::new();
    for step in steps.iter().copied().chain(last.map(Step::Key)) {
        match step {
            Step::Key(key) => {
                if !text.is_empty() {
                    text.push('.');
                }
                text.push_str(key);
            }
            Step::Index(index) => {
                let _ = write!(text, "[{index}]");
            }
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_dotted_indices_bracketed() {
        let steps = [Step::Key("spec"), Step::Key("ports"), Step::Index(0)];
        assert_eq!(text(&steps, Some("name")), "spec.ports[0].name");
        assert_eq!(text(&[Step::Index(2)], None), "[2]");
        assert_eq!(text(&[], Some("kind")), "kind");
    }
}
