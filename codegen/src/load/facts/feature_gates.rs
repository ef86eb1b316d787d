//! Kubernetes' feature-gate pages (`feature-gates/<Gate>.md` of the
//! kubernetes/website repository): the front matter's `stages:` list is
//! the gate's history as the project publishes it.
//!
//! ```yaml
//! stages:
//!   - stage: beta          # alpha | beta | stable | deprecated
//!     defaultValue: true
//!     fromVersion: "1.27"
//!     toVersion: "1.31"
//! ```

use crate::error::{Error, Result};
use serde::Deserialize;
use std::path::Path;
use vergate_core::gates::{FeatureGateHistory, FeatureGateState, GateStage};
use vergate_core::Version;

/// The front matter's keys this reader uses; the rest are the page's.
#[derive(Deserialize)]
struct FrontMatter {
    title: String,
    #[serde(default)]
    stages: Vec<StageEntry>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct StageEntry {
    stage: String,
    default_value: bool,
    from_version: Option<String>,
}

/// Reads one page (`path` for messages): the gate's name (its title) and
/// history. The title must be the file's name: a page copied under the
/// wrong name would give another gate's history.
pub fn read_page(path: &Path, text: &str) -> Result<(String, FeatureGateHistory)> {
    let failed = |message: String| Error::Config {
        path: path.to_owned(),
        message,
    };
    let front = front_matter(text).ok_or_else(|| {
        failed("no front matter (`---` … `---` at the top); is this a feature-gate page?".into())
    })?;
    let page: FrontMatter = serde_yaml_ng::from_str(front)
        .map_err(|err| failed(format!("the front matter does not read: {err}")))?;
    let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned());
    if stem.as_deref() != Some(page.title.trim()) {
        return Err(failed(format!(
            "the page's title is {:?}, not its file name; name the file {}.md",
            page.title.trim(),
            page.title.trim()
        )));
    }
    if page.stages.is_empty() {
        return Err(failed("the front matter lists no `stages:`".into()));
    }
    let mut history = FeatureGateHistory::new();
    for (index, entry) in page.stages.iter().enumerate() {
        let at = format!("stages[{index}]");
        let stage = match entry.stage.trim() {
            "alpha" => GateStage::Alpha,
            "beta" => GateStage::Beta,
            "stable" | "ga" | "GA" => GateStage::Ga,
            "deprecated" => GateStage::Deprecated,
            other => {
                return Err(failed(format!(
                    "{at}: stage {other:?} is none of alpha, beta, stable, deprecated"
                )))
            }
        };
        let from = entry
            .from_version
            .as_deref()
            .ok_or_else(|| failed(format!("{at}: no fromVersion")))?;
        let from: Version = from
            .trim()
            .parse()
            .map_err(|err| failed(format!("{at}: fromVersion {from:?}: {err}")))?;
        let state = FeatureGateState {
            stage,
            default: entry.default_value,
        };
        // A later entry of one minor (a stage locked in the same release)
        // is the state that minor ships with.
        history.insert(from, state);
    }
    // Consecutive entries in one state (`stable`, then `stable` locked)
    // are one state.
    let mut previous = None;
    history.retain(|_, state| {
        let keep = previous != Some(*state);
        previous = Some(*state);
        keep
    });
    Ok((page.title.trim().to_owned(), history))
}

/// The YAML between the opening `---` line and the next.
fn front_matter(text: &str) -> Option<&str> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let rest = text.strip_prefix("---")?;
    let rest = rest
        .strip_prefix("\r\n")
        .or_else(|| rest.strip_prefix('\n'))?;
    let end = rest.match_indices("\n---").map(|(at, _)| at).find(|at| {
        let after = &rest[at + 4..];
        after.is_empty() || after.starts_with('\n') || after.starts_with("\r\n")
    })?;
    Some(&rest[..end])
}

#[cfg(test)]
mod tests {
    use super::*;

    const PAGE: &str = "---\ntitle: StatefulSetAutoDeletePVC\ncontent_type: feature_gate\n\n_build:\n  list: never\n\nstages:\n  - stage: alpha \n    defaultValue: false\n    fromVersion: \"1.23\"\n    toVersion: \"1.26\"\n  - stage: beta\n    defaultValue: true\n    fromVersion: \"1.27\"\n    toVersion: \"1.31\"\n  - stage: stable\n    defaultValue: true\n    fromVersion: \"1.32\"\n  - stage: stable\n    defaultValue: true\n    locked: true\n    fromVersion: \"1.33\"\n---\nAllows the automatic deletion of PVCs.\n";

    fn v(minor: u32) -> Version {
        Version::new(1, minor)
    }

    #[test]
    fn a_page_gives_the_gates_history() {
        let (name, history) =
            read_page(Path::new("feature-gates/StatefulSetAutoDeletePVC.md"), PAGE).unwrap();
        assert_eq!(name, "StatefulSetAutoDeletePVC");
        let stages: Vec<(Version, GateStage, bool)> = history
            .iter()
            .map(|(minor, state)| (*minor, state.stage, state.default))
            .collect();
        assert_eq!(
            stages,
            [
                (v(23), GateStage::Alpha, false),
                (v(27), GateStage::Beta, true),
                (v(32), GateStage::Ga, true)
            ]
        );
    }

    #[test]
    fn bad_pages_are_errors_naming_the_file() {
        let path = Path::new("feature-gates/Other.md");
        let err = read_page(path, PAGE).unwrap_err().to_string();
        assert!(
            err.contains("Other.md") && err.contains("name the file StatefulSetAutoDeletePVC.md"),
            "{err}"
        );
        let path = Path::new("feature-gates/X.md");
        for (text, says) in [
            ("no front matter", "no front matter"),
            ("---\ntitle: X\n---\n", "no `stages:`"),
            ("---\ntitle: X\nstages:\n  - stage: gamma\n    defaultValue: true\n    fromVersion: \"1.2\"\n---\n", "gamma"),
            ("---\ntitle: X\nstages:\n  - stage: beta\n    defaultValue: true\n---\n", "no fromVersion"),
            ("---\ntitle: X\nstages:\n  - stage: beta\n    defaultValue: true\n    fromVersion: \"one\"\n---\n", "fromVersion"),
            ("---\ntitle: [\n---\n", "does not read"),
        ] {
            let err = read_page(path, text).unwrap_err().to_string();
            assert!(err.contains("X.md") && err.contains(says), "{text:?}: {err}");
        }
    }
}
