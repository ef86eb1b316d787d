//! Upstream descriptions as rustdoc text: code in them is shown, never run.
//! Rustdoc compiles indented blocks and fences without a language as Rust
//! doctests, so a spec's `    - If failurePolicy=Fail, …` would become a
//! failing doctest in every crate that includes the output.

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

#[cfg(test)]
mod tests {
    use super::fence_code;

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
}
