//! The fact tables an API's project publishes beside its specs, read from
//! the directories api.toml records (`[facts]`), every file's digest
//! checked first: the Kubernetes feature-gate pages and k8s.io/api's
//! prerelease-lifecycle files, and the tables recorded from each minor's
//! own API server (`recorded.rs`: `feature-gates/v<X.Y>.json`,
//! `api-lifecycle/v<X.Y>.json`), laid together by `sources.rs` with each
//! minor's source kept. Only the `kubernetes` dialect has them
//! (`Api::open` refuses `[facts]` elsewhere).

mod api_lifecycle;
pub mod compare;
mod feature_gates;
pub mod history;
pub mod recorded;
pub mod sources;

use crate::api::{check_digest, Api, FactTable};
use crate::error::{Error, Result};
use crate::file_id::FileId;
use crate::load::LoadCache;
use crate::model::{kubernetes, FactNotes, GatedModel};
use recorded::RecordedGate;
use sources::GateSource;
use std::collections::{BTreeMap, BTreeSet};
use vergate_core::gates::{ApiLifecycle, FeatureGateHistory, GroupVersionKind, RetiredKind};
use vergate_core::Version;

/// The largest fact file read: the real ones are a few kilobytes.
const MAX_FACT_FILE: u64 = 4 * 1024 * 1024;

/// An API's fact tables, read.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Facts {
    /// Each feature gate's history, by name.
    pub feature_gates: BTreeMap<String, FeatureGateHistory>,
    /// Where each gate's history comes from, minor by minor (a minor's
    /// source is the one at or before it): the website's page or a minor's
    /// own API server ([`sources`]).
    pub gate_sources: BTreeMap<String, BTreeMap<Version, GateSource>>,
    /// The gates only a recorded table knows (no page): the table lists
    /// every gate of the binary, and only those the model names are kept.
    pub recorded_only: BTreeSet<String>,
    /// What each minor says of each prerelease kind, by its Go package,
    /// API version and type name (`("resource", "v1beta1", "DeviceClass")`).
    pub api_lifecycle: BTreeMap<GoType, BTreeMap<Version, ApiLifecycle>>,
    /// The statements of [`Facts::api_lifecycle`] a minor's own API server
    /// gave (`api-lifecycle/v<X.Y>.json`); the others are k8s.io/api's files.
    pub lifecycle_recorded: BTreeSet<(GoType, Version)>,
}

/// A type of k8s.io/api: its package, API version and name.
pub type GoType = (String, String, String);

impl Facts {
    /// Lays the tables on `model`: feature gates, then kinds. A kind the
    /// files state and no minor of the model has (removed before its first
    /// minor) becomes a retired kind, with the newest statement, as does
    /// a kind outside k8s.io/api the dialect states
    /// ([`kubernetes::outside_api_lifecycles`]).
    pub fn apply(mut self, model: &mut GatedModel) -> FactNotes {
        if !self.recorded_only.is_empty() {
            let named = named_gates(model);
            let recorded_only = std::mem::take(&mut self.recorded_only);
            self.feature_gates
                .retain(|gate, _| !recorded_only.contains(gate) || named.contains(gate));
        }
        let notes = model.apply_feature_gates(self.feature_gates);
        // Only an API with k8s.io/api's tables is Kubernetes itself.
        let outside = if self.api_lifecycle.is_empty() {
            Vec::new()
        } else {
            kubernetes::outside_api_lifecycles()
        };
        let groups = package_groups(model);
        let mut by_definition = BTreeMap::new();
        let mut retired = Vec::new();
        for ((package, version, kind), said) in self.api_lifecycle {
            let name = kubernetes::api_definition(&package, &version, &kind);
            if model.types.contains_key(&name) {
                by_definition.insert(name, said);
                continue;
            }
            // A list is no document of its own.
            if kind.ends_with("List") {
                continue;
            }
            let Some((_, newest)) = said.into_iter().next_back() else {
                continue;
            };
            let group = groups
                .get(&package)
                .cloned()
                .unwrap_or_else(|| legacy_group(&package));
            retired.push(RetiredKind {
                kind: GroupVersionKind {
                    group,
                    version,
                    kind,
                },
                lifecycle: newest,
            });
        }
        model.apply_api_lifecycle(by_definition);
        // Kinds whose Go types live outside k8s.io/api (apiextensions'
        // v1beta1 CRD), stated by the dialect, when no minor serves them.
        for outside in outside {
            let served = model
                .types
                .values()
                .any(|ty| ty.kinds.contains(&outside.kind));
            if !served && !retired.iter().any(|r: &RetiredKind| r.kind == outside.kind) {
                retired.push(outside);
            }
        }
        retired.sort_by(|a, b| {
            (a.kind.api_version(), &a.kind.kind).cmp(&(b.kind.api_version(), &b.kind.kind))
        });
        model.retired_kinds = retired;
        notes
    }
}

/// Every feature gate an item of the model is guarded by.
fn named_gates(model: &GatedModel) -> BTreeSet<String> {
    let mut named = BTreeSet::new();
    for ty in model.types.values() {
        named.extend(ty.lifecycle.feature_gate.iter().cloned());
        for lifecycle in ty.values.values() {
            named.extend(lifecycle.feature_gate.iter().cloned());
        }
        for field in ty.fields.values() {
            named.extend(field.lifecycle.feature_gate.iter().cloned());
            for lifecycle in field.values.values().chain(field.element_values.values()) {
                named.extend(lifecycle.feature_gate.iter().cloned());
            }
        }
    }
    named
}

/// The group of a k8s.io/api package none of whose kinds the corpus
/// serves: Kubernetes' groups from before API groups had a domain keep the
/// package's name (`extensions`), the others are `<package>.k8s.io`
/// (`admission.k8s.io`, `imagepolicy.k8s.io`).
fn legacy_group(package: &str) -> String {
    const UNSUFFIXED: [&str; 5] = ["apps", "autoscaling", "batch", "extensions", "policy"];
    if UNSUFFIXED.contains(&package) {
        package.to_owned()
    } else {
        format!("{package}.k8s.io")
    }
}

/// The API group each k8s.io/api package serves, from the model's kinds
/// (`flowcontrol` → `flowcontrol.apiserver.k8s.io`, `core` → `""`); a
/// package with none left gets [`legacy_group`].
fn package_groups(model: &GatedModel) -> BTreeMap<String, String> {
    let mut groups = BTreeMap::new();
    for (name, ty) in &model.types {
        let Some(package) = kubernetes::api_package(name) else {
            continue;
        };
        if let Some(gvk) = ty.kinds.iter().next() {
            groups
                .entry(package.to_owned())
                .or_insert_with(|| gvk.group.clone());
        }
    }
    groups
}

/// Reads every fact file api.toml records, after checking that each is
/// present and has its recorded digest (all of them, before any is read
/// for its content).
pub fn load(api: &Api) -> Result<Facts> {
    load_cached(api, None)
}

/// [`load`], not hashing again a file `cache` says the last regen verified
/// with the same digest and has not changed since (size and mtime, as for
/// the specs: [`LoadCache::fact_verified`]).
pub fn load_cached(api: &Api, cache: Option<&LoadCache>) -> Result<Facts> {
    let mut texts = Vec::new();
    let mut missing = Vec::new();
    for (table, path, file, sha256) in api.fact_files() {
        let meta = match std::fs::metadata(&path) {
            Ok(meta) => meta,
            Err(_) => {
                missing.push(format!("  {}", path.display()));
                continue;
            }
        };
        let size = meta.len();
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
        let id = FileId::of_metadata(&meta);
        if !cache.is_some_and(|cache| cache.fact_verified(&path, id, sha256)) {
            check_digest(&path, &bytes, sha256)?;
        }
        if let Some(cache) = cache {
            cache.remember_fact(&path, id, sha256);
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
    let mut pages = BTreeMap::new();
    let mut tables: BTreeMap<Version, BTreeMap<String, RecordedGate>> = BTreeMap::new();
    let mut facts = Facts::default();
    let mut recorded_lifecycles = Vec::new();
    for (table, path, file, text) in texts {
        match table {
            FactTable::FeatureGates if recorded::file_minor(&file).is_some() => {
                let (minor, gates) = recorded::read_gates(&path, &text)?;
                tables.insert(minor, gates);
            }
            FactTable::FeatureGates => {
                let (name, history) = feature_gates::read_page(&path, &text)?;
                pages.insert(name, history);
            }
            FactTable::ApiLifecycle => {
                if let Some(minor) = recorded::file_minor(&file) {
                    recorded_lifecycles.push((minor, recorded::read_lifecycle(&path, &text)?));
                    continue;
                }
                let (minor, package, version) =
                    api_lifecycle::place(&file).ok_or_else(|| Error::Config {
                        path: path.clone(),
                        message:
                            "not at v<X.Y>/<package>/<version>/<file>.go (k8s.io/api's files) \
                             or v<X.Y>.json (a recording) inside api-lifecycle/"
                                .into(),
                    })?;
                for (kind, said) in api_lifecycle::read_file(&path, &text)? {
                    facts
                        .api_lifecycle
                        .entry((package.to_owned(), version.to_owned(), kind))
                        .or_default()
                        .insert(minor, said);
                }
            }
        }
    }
    // A minor's own API server wins for that minor (docs/new-minor.md).
    for (minor, said) in recorded_lifecycles {
        for (go_type, lifecycle) in said.api {
            facts
                .api_lifecycle
                .entry(go_type.clone())
                .or_default()
                .insert(minor, lifecycle);
            facts.lifecycle_recorded.insert((go_type, minor));
        }
    }
    let names: BTreeSet<&String> = pages
        .keys()
        .chain(tables.values().flat_map(BTreeMap::keys))
        .collect();
    for name in names {
        let recorded: BTreeMap<Version, &RecordedGate> = tables
            .iter()
            .filter_map(|(minor, gates)| gates.get(name).map(|gate| (*minor, gate)))
            .collect();
        let page = pages.get(name);
        if page.is_none() {
            facts.recorded_only.insert(name.clone());
        }
        let combined = sources::combine(page, &recorded);
        facts.feature_gates.insert(name.clone(), combined.history);
        facts.gate_sources.insert(name.clone(), combined.sources);
    }
    Ok(facts)
}
