//! The fact tables a minor's own API server gives (`cargo xtask record`,
//! through `vergate-apiserver`): `feature-gates/v<X.Y>.json`, the gate
//! table that minor's binary registers, and `api-lifecycle/v<X.Y>.json`,
//! the prerelease lifecycle of every kind its schemes register.
//!
//! ```json
//! {"minor":"1.37","gates":[{"name":"X","lockToDefault":false,
//!   "stages":[{"stage":"beta","defaultValue":true,"fromVersion":"1.30"}]}]}
//! [{"group":"flowcontrol.apiserver.k8s.io","version":"v1beta3","kind":"FlowSchema",
//!   "introduced":"1.26","deprecated":"1.29","removed":"1.32","replacement":{…}}]
//! ```
//!
//! A minor's binary knows its own minor for certain; where its registry
//! has versioned specs (1.31 on) it also knows the history before it.

use super::GoType;
use crate::error::{Error, Result};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;
use vergate_core::gates::{ApiLifecycle, FeatureGateState, GateStage, GroupVersionKind};
use vergate_core::Version;

/// One gate as a minor's binary registers it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordedGate {
    /// Whether the binary refuses to change its default (`lockToDefault`).
    pub locked: bool,
    /// Its stages by the minor each starts in; a registry without
    /// versioned specs gives one stage, which holds in the recorded minor.
    pub stages: BTreeMap<Version, FeatureGateState>,
}

impl RecordedGate {
    /// The gate's state in `minor` (at most the recorded one): the last
    /// stage starting at or before it.
    pub fn state_in(&self, minor: Version) -> Option<FeatureGateState> {
        self.stages.range(..=minor).next_back().map(|(_, s)| *s)
    }
}

/// A minor's gate table: the minor and each gate by name.
pub type GateTable = (Version, BTreeMap<String, RecordedGate>);

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GatesFile {
    minor: String,
    gates: Vec<GateEntry>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct GateEntry {
    name: String,
    #[serde(default)]
    lock_to_default: bool,
    stages: Vec<StageEntry>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct StageEntry {
    stage: String,
    default_value: bool,
    from_version: Option<String>,
    /// The oldest minor the binary can emulate with this stage: a fact of
    /// emulation (`--emulated-version`), which vergate does not model.
    #[serde(default)]
    #[allow(dead_code)]
    min_compatibility_version: Option<String>,
}

/// The minor a recorded table's file name says (`v1.37.json`).
pub fn file_minor(file: &str) -> Option<Version> {
    let stem = file.strip_suffix(".json")?;
    if stem.contains('/') || !stem.starts_with('v') {
        return None;
    }
    stem.parse().ok()
}

/// Reads `feature-gates/v<X.Y>.json` (`path` for messages). The file's
/// `minor` must be the one its name says.
pub fn read_gates(path: &Path, text: &str) -> Result<GateTable> {
    let failed = |message: String| Error::Config {
        path: path.to_owned(),
        message,
    };
    let named = path
        .file_name()
        .and_then(|name| file_minor(&name.to_string_lossy()))
        .ok_or_else(|| failed("a recorded gate table is named v<X.Y>.json".into()))?;
    let file: GatesFile = serde_json::from_str(text).map_err(|err| {
        failed(format!(
            "does not read as vergate-apiserver's feature-gates table: {err}"
        ))
    })?;
    let minor: Version = file
        .minor
        .parse()
        .map_err(|err| failed(format!("minor {:?}: {err}", file.minor)))?;
    if minor != named {
        return Err(failed(format!(
            "records minor {minor} but is named for {named}; record it again with `cargo xtask record kubernetes {named}`"
        )));
    }
    let mut gates = BTreeMap::new();
    for (index, entry) in file.gates.into_iter().enumerate() {
        let at = format!("gates[{index}] ({})", entry.name);
        if entry.stages.is_empty() {
            return Err(failed(format!("{at}: no stages")));
        }
        // A registry without versioned specs (before 1.31) gives one stage
        // without fromVersion: it holds in the recorded minor, which is all
        // the binary knows. Beside versioned stages, a stage without one
        // (a gate added without a version) holds from before every minor.
        let versioned = entry.stages.iter().any(|s| s.from_version.is_some());
        let mut stages = BTreeMap::new();
        for (number, stage) in entry.stages.iter().enumerate() {
            let at = format!("{at}.stages[{number}]");
            let from = match &stage.from_version {
                None if versioned => Version::new(1, 0),
                None => minor,
                Some(text) => text
                    .parse::<Version>()
                    .map_err(|err| failed(format!("{at}: fromVersion {text:?}: {err}")))?,
            };
            if from > minor {
                // A stage the registry plans for a later minor: not this
                // binary's behaviour, and not a fact about any minor yet.
                continue;
            }
            let Some(stage_name) =
                stage_of(&stage.stage).map_err(|m| failed(format!("{at}: {m}")))?
            else {
                // Pre-alpha: registered, but not a feature of this minor
                // yet (it cannot be turned on); the gate starts later.
                continue;
            };
            let state = FeatureGateState {
                stage: stage_name,
                default: stage.default_value,
            };
            stages.insert(from, state);
        }
        if gates
            .insert(
                entry.name.clone(),
                RecordedGate {
                    locked: entry.lock_to_default,
                    stages,
                },
            )
            .is_some()
        {
            return Err(failed(format!("{at}: the gate is listed twice")));
        }
    }
    Ok((minor, gates))
}

/// A stage's name; `None` for `prealpha`.
fn stage_of(text: &str) -> std::result::Result<Option<GateStage>, String> {
    match text {
        "prealpha" => Ok(None),
        "alpha" => Ok(Some(GateStage::Alpha)),
        "beta" => Ok(Some(GateStage::Beta)),
        "stable" | "ga" | "GA" => Ok(Some(GateStage::Ga)),
        "deprecated" => Ok(Some(GateStage::Deprecated)),
        other => Err(format!(
            "stage {other:?} is none of prealpha, alpha, beta, stable, deprecated"
        )),
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LifecycleEntry {
    group: String,
    version: String,
    kind: String,
    introduced: Option<String>,
    deprecated: Option<String>,
    removed: Option<String>,
    replacement: Option<Gvk>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Gvk {
    group: String,
    version: String,
    kind: String,
}

/// The groups whose Go types live outside k8s.io/api (the apiextensions
/// and aggregator servers'): the recorded lifecycle states them, k8s.io/api's
/// files do not, and the dialect states them itself
/// (`kubernetes::outside_api_lifecycles`), so they are kept apart.
pub const OUTSIDE_API_GROUPS: [&str; 2] = ["apiextensions.k8s.io", "apiregistration.k8s.io"];

/// The k8s.io/api package of an API group (`""` → `core`,
/// `internal.apiserver.k8s.io` → `apiserverinternal`, otherwise the
/// group's first label: `flowcontrol.apiserver.k8s.io` → `flowcontrol`).
pub fn group_package(group: &str) -> String {
    match group {
        "" => "core".into(),
        "internal.apiserver.k8s.io" => "apiserverinternal".into(),
        other => other.split('.').next().unwrap_or(other).to_owned(),
    }
}

/// What a recorded lifecycle says, split: the kinds of k8s.io/api (by Go
/// type) and those of [`OUTSIDE_API_GROUPS`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RecordedLifecycle {
    pub api: BTreeMap<GoType, ApiLifecycle>,
    pub outside: BTreeMap<GroupVersionKind, ApiLifecycle>,
}

/// Reads `api-lifecycle/v<X.Y>.json` (`path` for messages).
pub fn read_lifecycle(path: &Path, text: &str) -> Result<RecordedLifecycle> {
    let failed = |message: String| Error::Config {
        path: path.to_owned(),
        message,
    };
    let entries: Vec<LifecycleEntry> = serde_json::from_str(text).map_err(|err| {
        failed(format!(
            "does not read as vergate-apiserver's lifecycle list: {err}"
        ))
    })?;
    let mut found = RecordedLifecycle::default();
    for (index, entry) in entries.into_iter().enumerate() {
        let at = format!(
            "[{index}] ({}/{} {})",
            entry.group, entry.version, entry.kind
        );
        let release = |field: &str, value: &Option<String>| -> Result<Option<Version>> {
            value
                .as_deref()
                .map(|text| {
                    text.parse::<Version>()
                        .map_err(|err| failed(format!("{at}: {field} {text:?}: {err}")))
                })
                .transpose()
        };
        let said = ApiLifecycle {
            introduced: release("introduced", &entry.introduced)?,
            deprecated: release("deprecated", &entry.deprecated)?,
            removed: release("removed", &entry.removed)?,
            replacement: entry.replacement.map(|gvk| GroupVersionKind {
                group: gvk.group,
                version: gvk.version,
                kind: gvk.kind,
            }),
        };
        let twice = if OUTSIDE_API_GROUPS.contains(&entry.group.as_str()) {
            let gvk = GroupVersionKind {
                group: entry.group,
                version: entry.version,
                kind: entry.kind,
            };
            found.outside.insert(gvk, said).is_some()
        } else {
            let key = (group_package(&entry.group), entry.version, entry.kind);
            found.api.insert(key, said).is_some()
        };
        if twice {
            return Err(failed(format!("{at}: the kind is listed twice")));
        }
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    const GATES: &str = r#"{"minor":"1.33","gates":[
      {"name":"A","lockToDefault":true,"stages":[
        {"stage":"alpha","defaultValue":false,"fromVersion":"1.30"},
        {"stage":"beta","defaultValue":true,"fromVersion":"1.32"},
        {"stage":"stable","defaultValue":true,"fromVersion":"1.34"}]},
      {"name":"B","lockToDefault":false,"stages":[
        {"stage":"beta","defaultValue":false,"fromVersion":null}]}]}"#;

    fn v(minor: u32) -> Version {
        Version::new(1, minor)
    }

    #[test]
    fn a_table_gives_each_gates_stages_up_to_its_minor() {
        let (minor, gates) = read_gates(Path::new("feature-gates/v1.33.json"), GATES).unwrap();
        assert_eq!(minor, v(33));
        let a = &gates["A"];
        assert!(a.locked);
        // The 1.34 stage is the registry's plan, not 1.33's behaviour.
        assert_eq!(a.stages.keys().copied().collect::<Vec<_>>(), [v(30), v(32)]);
        assert_eq!(a.state_in(v(33)).unwrap().stage, GateStage::Beta);
        assert_eq!(a.state_in(v(31)).unwrap().stage, GateStage::Alpha);
        assert_eq!(a.state_in(v(29)), None);
        // An unversioned stage holds in the recorded minor only.
        let b = &gates["B"];
        assert_eq!(
            b.state_in(v(33)),
            Some(FeatureGateState {
                stage: GateStage::Beta,
                default: false
            })
        );
        assert_eq!(b.state_in(v(32)), None);
        // Beside versioned stages, one without a version holds from before
        // every minor; a pre-alpha stage is no stage yet.
        let text = r#"{"minor":"1.33","gates":[{"name":"C","stages":[
          {"stage":"beta","defaultValue":false,"fromVersion":null},
          {"stage":"prealpha","defaultValue":false,"fromVersion":"1.31","minCompatibilityVersion":"1.30"},
          {"stage":"stable","defaultValue":true,"fromVersion":"1.33"}]}]}"#;
        let (_, gates) = read_gates(Path::new("v1.33.json"), text).unwrap();
        let c = &gates["C"];
        assert_eq!(
            c.stages.keys().copied().collect::<Vec<_>>(),
            [Version::new(1, 0), v(33)]
        );
        assert_eq!(c.state_in(v(28)).unwrap().stage, GateStage::Beta);
    }

    #[test]
    fn bad_tables_are_errors_naming_the_file_and_place() {
        let path = Path::new("feature-gates/v1.33.json");
        for (text, says) in [
            ("[]", "does not read"),
            (r#"{"minor":"1.34","gates":[]}"#, "named for 1.33"),
            (
                r#"{"minor":"1.33","gates":[{"name":"A","stages":[]}]}"#,
                "gates[0] (A): no stages",
            ),
            (
                r#"{"minor":"1.33","gates":[{"name":"A","stages":[{"stage":"gamma","defaultValue":true,"fromVersion":"1.2"}]}]}"#,
                "gamma",
            ),
            (
                r#"{"minor":"1.33","gates":[{"name":"A","stages":[{"stage":"beta","defaultValue":true,"fromVersion":null}]},{"name":"A","stages":[{"stage":"beta","defaultValue":true,"fromVersion":null}]}]}"#,
                "listed twice",
            ),
        ] {
            let err = read_gates(path, text).unwrap_err().to_string();
            assert!(
                err.contains("v1.33.json") && err.contains(says),
                "{text}: {err}"
            );
        }
        let err = read_gates(Path::new("feature-gates/gates.json"), GATES)
            .unwrap_err()
            .to_string();
        assert!(err.contains("v<X.Y>.json"), "{err}");
    }

    #[test]
    fn a_lifecycle_list_splits_k8s_io_api_from_the_other_servers() {
        let text = r#"[
          {"group":"flowcontrol.apiserver.k8s.io","version":"v1beta3","kind":"FlowSchema","introduced":"1.26","deprecated":"1.29","removed":"1.32",
           "replacement":{"group":"flowcontrol.apiserver.k8s.io","version":"v1","kind":"FlowSchema"}},
          {"group":"internal.apiserver.k8s.io","version":"v1alpha1","kind":"StorageVersion","introduced":"1.20","deprecated":null,"removed":null,"replacement":null},
          {"group":"apiextensions.k8s.io","version":"v1beta1","kind":"CustomResourceDefinition","introduced":"1.7","deprecated":"1.16","removed":"1.22","replacement":null}]"#;
        let found = read_lifecycle(Path::new("api-lifecycle/v1.30.json"), text).unwrap();
        let flow = &found.api[&("flowcontrol".into(), "v1beta3".into(), "FlowSchema".into())];
        assert_eq!((flow.deprecated, flow.removed), (Some(v(29)), Some(v(32))));
        assert_eq!(flow.replacement.as_ref().unwrap().version, "v1");
        assert!(found.api.contains_key(&(
            "apiserverinternal".into(),
            "v1alpha1".into(),
            "StorageVersion".into()
        )));
        assert_eq!(found.outside.len(), 1);
        let err = read_lifecycle(
            Path::new("api-lifecycle/v1.30.json"),
            r#"[{"group":"","version":"v1","kind":"X","introduced":"soon","deprecated":null,"removed":null,"replacement":null}]"#,
        )
        .unwrap_err()
        .to_string();
        assert!(
            err.contains("v1.30.json") && err.contains("introduced \"soon\""),
            "{err}"
        );
    }

    #[test]
    fn file_names_give_their_minor() {
        assert_eq!(file_minor("v1.37.json"), Some(v(37)));
        assert_eq!(file_minor("Gate.md"), None);
        assert_eq!(file_minor("v1.36/x.json"), None);
    }
}
