//! The gates index the `vergate` binary carries, so that `vergate check
//! --target 1.29 FILES` works right after `cargo install`, with no `--api`.
//!
//! The Kubernetes corpus's index is committed as
//! [`KUBERNETES_PATH`] (`src/embedded/kubernetes.gates.jsonl`), written by
//! `cargo xtask regen --api kubernetes` from `generated/kubernetes/gates.json`
//! and kept fresh by `tests/embedded_data.rs`. Its form is [`render`]'s:
//! JSON Lines, sorted, one line per type and one per field, so a new minor
//! shows in `git diff` as the lines it changes. It holds the whole index
//! (what check, upgrade, diff and the removals-ahead warning read), minified:
//! about 730 KB, against 946 KB for the pretty-printed gates.json.

use crate::gates::{FieldGate, GatesIndex, TypeGate};
use crate::tables::GateTables;
use crate::Version;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Where the Kubernetes index is committed, relative to the repository root.
pub const KUBERNETES_PATH: &str = "src/embedded/kubernetes.gates.jsonl";

/// The API whose index is embedded.
pub const KUBERNETES: &str = "kubernetes";

/// The committed Kubernetes index, as compiled in.
const KUBERNETES_TEXT: &str = include_str!("embedded/kubernetes.gates.jsonl");

/// The command that writes the embedded index, named in its header line.
const GENERATED_BY: &str = "cargo xtask regen --api kubernetes";

/// The header line: everything of the index but its types.
#[derive(Serialize, Deserialize)]
struct Header {
    generated_by: String,
    api: String,
    versions: Vec<Version>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    deprecated_versions: BTreeMap<Version, String>,
}

/// One line after the header: a type (without its fields) or one field.
#[derive(Serialize, Deserialize)]
#[serde(untagged)]
enum Line {
    Field(String, String, FieldGate),
    Type(String, TypeGate),
}

/// The embedded Kubernetes gate tables (parsed on each call; the CLI calls
/// it once).
pub fn kubernetes() -> GateTables {
    let index = parse(KUBERNETES_TEXT).unwrap_or_else(|err| {
        // The committed file is checked by tests/embedded_data.rs; a build
        // from a corrupted checkout is the only way here.
        panic!("the embedded Kubernetes index ({KUBERNETES_PATH}) does not read: {err}")
    });
    GateTables::from_index(index)
}

/// The minors of the embedded Kubernetes index, without building its tables.
pub fn kubernetes_versions() -> Vec<Version> {
    KUBERNETES_TEXT
        .lines()
        .next()
        .and_then(|header| serde_json::from_str::<Header>(header).ok())
        .map(|header| header.versions)
        .unwrap_or_default()
}

/// Writes `index` in the embedded form: a header line, then per type (in
/// name order) one line `["<type>", {gate}]` and one line
/// `["<type>", "<field>", {gate}]` per field (in name order).
pub fn render(index: &GatesIndex) -> String {
    let header = Header {
        generated_by: GENERATED_BY.to_owned(),
        api: index.api.clone(),
        versions: index.versions.clone(),
        deprecated_versions: index.deprecated_versions.clone(),
    };
    let mut out = serde_json::to_string(&header).expect("the header serializes");
    out.push('\n');
    for (name, ty) in &index.types {
        let bare = TypeGate {
            fields: BTreeMap::new(),
            ..ty.clone()
        };
        let line = Line::Type(name.clone(), bare);
        out.push_str(&serde_json::to_string(&line).expect("a type serializes"));
        out.push('\n');
        for (field, gate) in &ty.fields {
            let line = Line::Field(name.clone(), field.clone(), gate.clone());
            out.push_str(&serde_json::to_string(&line).expect("a field serializes"));
            out.push('\n');
        }
    }
    out
}

/// Reads the embedded form back; the error names the line.
pub fn parse(text: &str) -> Result<GatesIndex, String> {
    let mut lines = text.lines().enumerate();
    let (_, header) = lines.next().ok_or("empty index")?;
    let header: Header =
        serde_json::from_str(header).map_err(|err| format!("line 1: not a header: {err}"))?;
    let mut index = GatesIndex {
        api: header.api,
        versions: header.versions,
        deprecated_versions: header.deprecated_versions,
        types: BTreeMap::new(),
    };
    for (number, line) in lines {
        let line: Line =
            serde_json::from_str(line).map_err(|err| format!("line {}: {err}", number + 1))?;
        match line {
            Line::Type(name, ty) => {
                index.types.insert(name, ty);
            }
            Line::Field(name, field, gate) => {
                let ty = index.types.get_mut(&name).ok_or_else(|| {
                    format!(
                        "line {}: field {field} of {name} before its type",
                        number + 1
                    )
                })?;
                ty.fields.insert(field, gate);
            }
        }
    }
    if index.versions.is_empty() {
        return Err("the index lists no versions".into());
    }
    Ok(index)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_committed_index_reads_and_round_trips() {
        let index = parse(KUBERNETES_TEXT).unwrap();
        assert_eq!(index.api, KUBERNETES);
        assert_eq!(render(&index), KUBERNETES_TEXT);
        assert_eq!(kubernetes_versions(), index.versions);
        let service = &index.types["io.k8s.api.core.v1.ServiceSpec"];
        assert_eq!(
            service.fields["trafficDistribution"]
                .gate
                .introduced_in
                .to_string(),
            "1.30"
        );
    }

    #[test]
    fn the_demo_index_round_trips() {
        let text = include_str!("../generated/demo/gates.json");
        let index: GatesIndex = serde_json::from_str(text).unwrap();
        assert_eq!(parse(&render(&index)).unwrap(), index);
    }

    #[test]
    fn a_field_before_its_type_is_refused_naming_the_line() {
        let text = "{\"generated_by\":\"x\",\"api\":\"a\",\"versions\":[\"1.1\"]}\n\
                    [\"T\",\"f\",{\"introduced_in\":\"1.1\",\"removed_in\":null,\"type\":\"string\"}]\n";
        let err = parse(text).unwrap_err();
        assert!(err.starts_with("line 2: field f of T"), "{err}");
    }
}
