//! The fact tables an API's project publishes beside its specs, read from
//! the directories api.toml records (`[facts]`), every file's digest
//! checked first: the Kubernetes feature-gate pages and k8s.io/api's
//! prerelease-lifecycle files. Only the `kubernetes` dialect has them
//! (`Api::open` refuses `[facts]` elsewhere).

mod api_lifecycle;
mod feature_gates;

use crate::api::{sha256_hex, Api, FactTable};
use crate::error::{Error, Result};
use crate::model::{FactNotes, GatedModel};
use std::collections::BTreeMap;
use vergate_core::gates::{ApiLifecycle, FeatureGateHistory};
use vergate_core::Version;

/// The largest fact file read: the real ones are a few kilobytes.
const MAX_FACT_FILE: u64 = 4 * 1024 * 1024;

/// An API's fact tables, read.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Facts {
    /// Each feature gate's history, by name.
    pub feature_gates: BTreeMap<String, FeatureGateHistory>,
    /// What each minor says of each prerelease kind, by definition name.
    pub api_lifecycle: BTreeMap<String, BTreeMap<Version, ApiLifecycle>>,
}

impl Facts {
    /// Lays the tables on `model` (feature gates, then kinds).
    pub fn apply(self, model: &mut GatedModel) -> FactNotes {
        let notes = model.apply_feature_gates(self.feature_gates);
        model.apply_api_lifecycle(self.api_lifecycle);
        notes
    }
}

/// Reads every fact file api.toml records, after checking that each is
/// present and has its recorded digest (all of them, before any is read
/// for its content).
pub fn load(api: &Api) -> Result<Facts> {
    let mut texts = Vec::new();
    let mut missing = Vec::new();
    for (table, path, file, sha256) in api.fact_files() {
        let size = match std::fs::metadata(&path) {
            Ok(meta) => meta.len(),
            Err(_) => {
                missing.push(format!("  {}", path.display()));
                continue;
            }
        };
        if size > MAX_FACT_FILE {
            return Err(Error::Config {
                path,
                message: format!(
                    "{size} bytes; a fact file is at most {MAX_FACT_FILE} (the real ones are a few KB)"
                ),
            });
        }
        let bytes = std::fs::read(&path)
            .map_err(|source| Error::io(&path, "reading a fact file", source))?;
        let actual = sha256_hex(&bytes);
        if !actual.eq_ignore_ascii_case(sha256) {
            return Err(Error::DigestMismatch {
                path,
                expected: sha256.to_ascii_lowercase(),
                actual,
            });
        }
        let text = String::from_utf8(bytes).map_err(|_| Error::Config {
            path: path.clone(),
            message: "not UTF-8 text".into(),
        })?;
        texts.push((table, path, file.to_owned(), text));
    }
    if !missing.is_empty() {
        return Err(Error::Config {
            path: api.dir.join(crate::api::API_TOML),
            message: format!(
                "{} fact file{} recorded here {} missing:\n{}\nfetch them with the specs: cargo xtask fetch-specs {} --from <mirror>",
                missing.len(),
                if missing.len() == 1 { "" } else { "s" },
                if missing.len() == 1 { "is" } else { "are" },
                missing.join("\n"),
                api.name()
            ),
        });
    }
    let mut facts = Facts::default();
    for (table, path, file, text) in texts {
        match table {
            FactTable::FeatureGates => {
                let (name, history) = feature_gates::read_page(&path, &text)?;
                facts.feature_gates.insert(name, history);
            }
            FactTable::ApiLifecycle => {
                let (minor, package, version) =
                    api_lifecycle::place(&file).ok_or_else(|| Error::Config {
                        path: path.clone(),
                        message:
                            "not at v<X.Y>/<package>/<version>/<file>.go inside api-lifecycle/"
                                .into(),
                    })?;
                for (kind, said) in api_lifecycle::read_file(&path, &text)? {
                    facts
                        .api_lifecycle
                        .entry(kubernetes_definition(package, version, &kind))
                        .or_default()
                        .insert(minor, said);
                }
            }
        }
    }
    Ok(facts)
}

/// The definition name the Kubernetes specs give the Go type `kind` of
/// k8s.io/api's package `package`/`version` (`io.k8s.api.resource.v1beta1.DeviceClass`).
fn kubernetes_definition(package: &str, version: &str, kind: &str) -> String {
    format!("io.k8s.api.{package}.{version}.{kind}")
}
