//! The Kubernetes API's published facts against what users meet: every
//! stage and default in gates.json agrees with the project's feature-gate
//! pages, no field whose gate a default cluster has on is refused, and every
//! served deprecated prerelease kind gets the API server's own warning.
//! The expectations are read here from the recorded pages and Go files,
//! independently of vergate's readers.

mod support;

use std::collections::BTreeMap;
use std::path::Path;
use vergate::document;
use vergate::gates::{GatesIndex, Stage};
use vergate::preflight::{self, Options, Rule};
use vergate::tables::GateTables;
use vergate::Version;

fn corpus_gates(specs: &std::path::Path) -> &'static GatesIndex {
    support::kubernetes_corpus_gates(specs)
}

fn v(text: &str) -> Version {
    text.trim().parse().unwrap()
}

/// One gate's history as its page lists it: (from, stage, default).
type History = Vec<(Version, String, bool)>;

/// Every page's `stages:`, read with a plain YAML reader.
fn feature_gate_pages(specs: &Path) -> BTreeMap<String, History> {
    let mut pages = BTreeMap::new();
    for entry in std::fs::read_dir(specs.join("feature-gates")).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        if path.extension().is_none_or(|ext| ext != "md") || name == "README" {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let front = text
            .split("\n---")
            .next()
            .unwrap()
            .trim_start_matches("---");
        let page: serde_yaml_ng::Value = serde_yaml_ng::from_str(front).unwrap();
        let mut history: History = page["stages"]
            .as_sequence()
            .unwrap()
            .iter()
            .map(|stage| {
                let name = stage["stage"].as_str().unwrap().trim();
                let name = if name == "stable" { "ga" } else { name };
                (
                    v(stage["fromVersion"].as_str().unwrap()),
                    name.to_owned(),
                    stage["defaultValue"].as_bool().unwrap(),
                )
            })
            .collect();
        history.sort_by_key(|(from, _, _)| *from);
        pages.insert(name, history);
    }
    pages
}

/// The page's stage and default in `minor`.
fn published(history: &History, minor: Version) -> Option<(&str, bool)> {
    history
        .iter()
        .rev()
        .find(|(from, _, _)| *from <= minor)
        .map(|(_, stage, default)| (stage.as_str(), *default))
}

#[test]
#[cfg_attr(
    not(vergate_kubernetes_specs),
    ignore = "needs the Kubernetes specs: ../shared/upstream-specs/kubernetes or VERGATE_KUBERNETES_SPECS"
)]
fn stages_and_defaults_agree_with_the_feature_gate_table() {
    let specs = support::kubernetes_specs();
    let index = corpus_gates(&specs);
    let pages = feature_gate_pages(&specs);
    let tables = GateTables::from_index(index.clone());
    let (mut agree, mut total) = (0, 0);
    let mut disagreements = Vec::new();
    for (type_name, ty) in &index.types {
        let items = std::iter::once((type_name.clone(), &ty.gate)).chain(
            ty.fields
                .iter()
                .map(|(field, gate)| (format!("{type_name}.{field}"), &gate.gate)),
        );
        for (item, gate) in items {
            let Some(history) = gate.feature_gate.as_ref().and_then(|name| pages.get(name)) else {
                continue;
            };
            for &minor in &index.versions {
                let Some((stage, default)) = published(history, minor) else {
                    continue;
                };
                if !gate.is_present_in(minor) || stage == "deprecated" {
                    continue;
                }
                total += 1;
                let ours = gate.stage_in(minor).map(Stage::name);
                let on = tables.enabled_by_default(gate, minor);
                if ours == Some(stage) && on == default {
                    agree += 1;
                } else {
                    disagreements.push(format!(
                        "{item} in {minor}: {ours:?}, on {on}; the table: {stage}, on {default}"
                    ));
                }
            }
        }
    }
    eprintln!("{agree} of {total} field x minor stages agree with the feature-gate table");
    assert!(total > 500, "only {total} gated field x minor pairs");
    assert!(
        agree * 100 >= total * 95,
        "{agree} of {total} agree:\n{}",
        disagreements.join("\n")
    );
    // Prose fills only what the table lacks: with every gate the specs name
    // recorded, no stage is left inferred.
    let inferred: Vec<&String> = index
        .types
        .iter()
        .flat_map(|(name, ty)| {
            ty.fields
                .iter()
                .map(move |(field, gate)| (name, field, gate))
        })
        .filter(|(_, _, gate)| gate.gate.inferred.iter().any(|key| *key == "stage"))
        .map(|(name, _, _)| name)
        .collect();
    assert!(inferred.is_empty(), "stages still inferred in {inferred:?}");
    // The table itself is in gates.json, for plugins and the embedded index.
    assert_eq!(index.feature_gates.len(), pages.len());
}

/// The check of one YAML document at `target`, without flags.
fn check(tables: &GateTables, yaml: &str, target: &str) -> preflight::Report {
    let parsed = document::parse(yaml);
    assert!(parsed.error.is_none(), "{:?}", parsed.error);
    let root = &parsed.documents[0].root;
    let options = Options {
        target: Some(v(target)),
        ..Options::default()
    };
    preflight::check(tables, root, options).unwrap()
}

#[test]
#[cfg_attr(
    not(vergate_kubernetes_specs),
    ignore = "needs the Kubernetes specs: ../shared/upstream-specs/kubernetes or VERGATE_KUBERNETES_SPECS"
)]
fn a_gate_on_by_default_is_never_refused_and_one_off_by_default_is() {
    let specs = support::kubernetes_specs();
    let index = corpus_gates(&specs);
    let pages = feature_gate_pages(&specs);
    let tables = GateTables::from_index(index.clone());
    // Every gated field, in every minor whose table says its gate is on.
    for (type_name, ty) in &index.types {
        for (field, gate) in &ty.fields {
            let Some(history) = gate
                .gate
                .feature_gate
                .as_ref()
                .and_then(|name| pages.get(name))
            else {
                continue;
            };
            for &minor in &index.versions {
                if let Some((_, true)) = published(history, minor) {
                    assert!(
                        tables.enabled_by_default(&gate.gate, minor),
                        "{type_name}.{field} is dropped in {minor} though its gate is on by default"
                    );
                }
            }
        }
    }
    // StatefulSetAutoDeletePVC: beta and on since 1.27, though the 1.28-1.30
    // descriptions still say alpha.
    let sts = "apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: web}\nspec:\n  selector: {matchLabels: {app: web}}\n  serviceName: web\n  template:\n    metadata: {labels: {app: web}}\n    spec: {containers: [{name: web, image: nginx}]}\n  persistentVolumeClaimRetentionPolicy: {whenDeleted: Delete}\n";
    for target in ["1.28", "1.29", "1.30", "1.31"] {
        let report = check(&tables, sts, target);
        assert!(
            report.violations.is_empty(),
            "{target}: {:?}",
            report.violations
        );
    }
    // VolumeAttributesClass: beta from 1.31 but off by default until 1.34.
    let pvc = "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: data}\nspec:\n  volumeAttributesClassName: gold\n";
    for (target, dropped) in [("1.31", true), ("1.33", true), ("1.34", false)] {
        let report = check(&tables, pvc, target);
        let off: Vec<&str> = report
            .violations
            .iter()
            .filter(|violation| violation.rule == Rule::FeatureGateOff)
            .map(|violation| violation.message.as_str())
            .collect();
        assert_eq!(!off.is_empty(), dropped, "{target}: {off:?}");
        if dropped {
            assert!(
                off[0].starts_with(&format!("beta in {target}: the API server drops this field unless feature gate VolumeAttributesClass is on (off by default in {target}, per Kubernetes' feature-gate table)")),
                "{}",
                off[0]
            );
        }
    }
}

/// A kind's lifecycle as one minor's Go file states it.
#[derive(Default, Debug)]
struct Said {
    deprecated: Option<Version>,
    removed: Option<Version>,
    replacement: Option<(String, String)>,
}

/// Every (minor, package, version, Go type) the lifecycle files state.
fn lifecycle_files(specs: &Path) -> BTreeMap<(Version, String, String, String), Said> {
    let method = regex::Regex::new(
        r#"func \(in \*(\w+)\) APILifecycle(Deprecated|Removed|Replacement)\(\)[^\n]*\n\s*return ([^\n]+)"#,
    )
    .unwrap();
    let gvk =
        regex::Regex::new(r#"Group: "([^"]*)", Version: "([^"]*)", Kind: "([^"]*)""#).unwrap();
    let mut found: BTreeMap<(Version, String, String, String), Said> = BTreeMap::new();
    let root = specs.join("api-lifecycle");
    for minor in std::fs::read_dir(&root).unwrap() {
        let minor = minor.unwrap().path();
        let Ok(version) = minor
            .file_name()
            .unwrap()
            .to_string_lossy()
            .parse::<Version>()
        else {
            continue;
        };
        for package in std::fs::read_dir(&minor).unwrap() {
            let package = package.unwrap().path();
            for group_version in std::fs::read_dir(&package).unwrap() {
                let group_version = group_version.unwrap().path();
                let file = group_version.join("zz_generated.prerelease-lifecycle.go");
                let Ok(text) = std::fs::read_to_string(&file) else {
                    continue;
                };
                for capture in method.captures_iter(&text) {
                    let key = (
                        version,
                        package.file_name().unwrap().to_string_lossy().into_owned(),
                        group_version
                            .file_name()
                            .unwrap()
                            .to_string_lossy()
                            .into_owned(),
                        capture[1].to_owned(),
                    );
                    let said = found.entry(key).or_default();
                    let release = || {
                        let (major, minor) = capture[3].split_once(',').unwrap();
                        v(&format!("{}.{}", major.trim(), minor.trim()))
                    };
                    match &capture[2] {
                        "Deprecated" => said.deprecated = Some(release()),
                        "Removed" => said.removed = Some(release()),
                        _ => {
                            let c = gvk.captures(&capture[3]).unwrap();
                            let api_version = if c[1].is_empty() {
                                c[2].to_owned()
                            } else {
                                format!("{}/{}", &c[1], &c[2])
                            };
                            said.replacement = Some((api_version, c[3].to_owned()));
                        }
                    }
                }
            }
        }
    }
    found
}

#[test]
#[cfg_attr(
    not(vergate_kubernetes_specs),
    ignore = "needs the Kubernetes specs: ../shared/upstream-specs/kubernetes or VERGATE_KUBERNETES_SPECS"
)]
fn every_served_deprecated_prerelease_kind_gets_the_api_servers_warning() {
    let specs = support::kubernetes_specs();
    let index = corpus_gates(&specs);
    let tables = GateTables::from_index(index.clone());
    let stated = lifecycle_files(&specs);
    let mut warned = 0;
    for ((minor, package, group_version, kind), said) in &stated {
        let Some(deprecated) = said.deprecated.filter(|since| since <= minor) else {
            continue;
        };
        // The kind as this minor's spec serves it (a List is no document).
        let name = format!("io.k8s.api.{package}.{group_version}.{kind}");
        let Some(served) = index
            .types
            .get(&name)
            .filter(|ty| ty.gate.is_present_in(*minor))
        else {
            continue;
        };
        let Some(gvk) = served.kinds.first().filter(|_| !kind.ends_with("List")) else {
            continue;
        };
        let api_version = gvk.api_version();
        let mut expected = format!("{api_version} {kind} is deprecated in v{deprecated}+");
        if let Some(removed) = said.removed {
            expected.push_str(&format!(", unavailable in v{removed}+"));
        }
        if let Some((replacement, replacement_kind)) = &said.replacement {
            expected.push_str(&format!("; use {replacement} {replacement_kind}"));
        }
        let yaml = format!("apiVersion: {api_version}\nkind: {kind}\nmetadata: {{name: x}}\n");
        let report = check(&tables, &yaml, &minor.to_string());
        let messages: Vec<&str> = report
            .violations
            .iter()
            .filter(|violation| violation.rule == Rule::Deprecated)
            .map(|violation| violation.message.as_str())
            .collect();
        assert_eq!(
            messages,
            [expected.as_str()],
            "{api_version} {kind} in {minor}"
        );
        warned += 1;
    }
    // 30 kinds over 1.28-1.36 (the issue's count).
    assert_eq!(warned, 63);
}
