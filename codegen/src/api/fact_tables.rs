//! api.toml's `[facts]`: the fact tables, their directories beside
//! api.toml and their recorded files.

use super::Api;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// api.toml's `[facts]`: the fact tables of the API, each a directory
/// beside api.toml (`feature-gates/`, `api-lifecycle/`) whose files are
/// recorded here with their sha256 and copied by `fetch-specs` from a
/// mirror laid out the same way.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Facts {
    /// The feature-gate pages (`feature-gates/<Gate>.md`): each gate's
    /// stage and default by minor.
    #[serde(default)]
    pub feature_gates: Option<FactFiles>,
    /// The prerelease-lifecycle files of each minor
    /// (`api-lifecycle/v<X.Y>/<group>/<version>/zz_generated.prerelease-lifecycle.go`).
    #[serde(default)]
    pub api_lifecycle: Option<FactFiles>,
}

/// The recorded files of one fact table.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FactFiles {
    /// Where upstream publishes them.
    #[serde(default)]
    pub source: Option<String>,
    /// Each file's path inside the table's directory, and its sha256.
    #[serde(default)]
    pub files: BTreeMap<String, String>,
}

/// One of an API's fact tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FactTable {
    FeatureGates,
    ApiLifecycle,
}

impl FactTable {
    /// Every table, in api.toml's order.
    pub const ALL: [FactTable; 2] = [FactTable::FeatureGates, FactTable::ApiLifecycle];

    /// Its key under `[facts]`.
    pub fn key(self) -> &'static str {
        match self {
            FactTable::FeatureGates => "feature_gates",
            FactTable::ApiLifecycle => "api_lifecycle",
        }
    }

    /// Its directory beside api.toml (and in a mirror).
    pub fn dir_name(self) -> &'static str {
        match self {
            FactTable::FeatureGates => "feature-gates",
            FactTable::ApiLifecycle => "api-lifecycle",
        }
    }
}

impl Facts {
    /// The recorded files of `table`, if api.toml has it.
    pub fn files(&self, table: FactTable) -> Option<&FactFiles> {
        match table {
            FactTable::FeatureGates => self.feature_gates.as_ref(),
            FactTable::ApiLifecycle => self.api_lifecycle.as_ref(),
        }
    }
}

impl Api {
    /// Every recorded fact file: its table, its path beside api.toml, its
    /// path inside the table's directory, and its sha256.
    pub fn fact_files(&self) -> Vec<(FactTable, PathBuf, &str, &str)> {
        let mut found = Vec::new();
        for table in FactTable::ALL {
            if let Some(recorded) = self.config.facts.files(table) {
                for (file, sha256) in &recorded.files {
                    let path = self.dir.join(table.dir_name()).join(file);
                    found.push((table, path, file.as_str(), sha256.as_str()));
                }
            }
        }
        found
    }
}
