//! A minor's recording held against what the mirror already has for it:
//! the served spec against the published `swagger.json`, the binary's gate
//! table against the website's pages, the binary's lifecycle against
//! k8s.io/api's files. `cargo xtask record` prints the result; the proof
//! on the minors we hold is in docs/new-minor.md.

use super::recorded::{GateTable, RecordedLifecycle};
use super::{api_lifecycle, feature_gates, GoType, MAX_FACT_FILE};
use crate::error::{Error, Result};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;
use vergate_core::gates::{gate_state_in, ApiLifecycle, FeatureGateHistory, FeatureGateState};
use vergate_core::Version;

/// The most files a mirror's fact directory is read for (the real ones
/// hold a few hundred): a wrong `--against` fails instead of reading a disk.
const MAX_FILES: usize = 10_000;

/// How a recorded spec compares with the published one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpecComparison {
    /// The same bytes.
    Identical,
    /// The same JSON value; the text differs (key order or layout).
    ValueEqual,
    /// Different values.
    Differs,
}

/// Compares two JSON texts (either unreadable is an error naming it).
pub fn compare_specs(
    recorded: (&Path, &[u8]),
    published: (&Path, &[u8]),
) -> Result<SpecComparison> {
    if recorded.1 == published.1 {
        return Ok(SpecComparison::Identical);
    }
    let read = |(path, bytes): (&Path, &[u8])| {
        serde_json::from_slice::<serde_json::Value>(bytes).map_err(|err| Error::Config {
            path: path.to_owned(),
            message: format!("not JSON: {err}"),
        })
    };
    Ok(if read(recorded)? == read(published)? {
        SpecComparison::ValueEqual
    } else {
        SpecComparison::Differs
    })
}

/// One way a binary's gate table and a page disagree in the binary's minor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GateDisagreement {
    pub gate: String,
    /// `stage`, `default` or `presence` (one side does not know the gate then).
    pub field: &'static str,
    pub page: String,
    pub binary: String,
}

/// Every gate with a page, in the table's minor: its page's state against
/// the binary's (gates without a page are not compared: the pages are the
/// gates the specs name).
pub fn compare_gates(
    pages: &BTreeMap<String, FeatureGateHistory>,
    table: &GateTable,
) -> Vec<GateDisagreement> {
    let (minor, gates) = table;
    let mut found = Vec::new();
    for (gate, history) in pages {
        let page = gate_state_in(history, *minor);
        let binary = gates.get(gate).and_then(|g| g.state_in(*minor));
        push_disagreements(&mut found, gate, page, binary);
    }
    found
}

/// The fields in which a gate's page state and its binary state differ
/// (stage, default, or whether it is there at all), pushed onto `found`.
pub(super) fn push_disagreements(
    found: &mut Vec<GateDisagreement>,
    gate: &str,
    page: Option<FeatureGateState>,
    binary: Option<FeatureGateState>,
) {
    let show = |state: Option<FeatureGateState>| match state {
        None => "absent".to_owned(),
        Some(state) => format!("{} (default {})", state.stage.name(), state.default),
    };
    let mut differ = |field: &'static str, page: String, binary: String| {
        found.push(GateDisagreement {
            gate: gate.to_owned(),
            field,
            page,
            binary,
        })
    };
    match (page, binary) {
        (None, None) => {}
        (Some(p), Some(b)) => {
            if p.stage != b.stage {
                differ("stage", p.stage.name().into(), b.stage.name().into());
            }
            if p.default != b.default {
                differ("default", p.default.to_string(), b.default.to_string());
            }
        }
        (page, binary) => differ("presence", show(page), show(binary)),
    }
}

/// One kind whose lifecycle the binary and k8s.io/api's files state
/// differently (or only one of them states).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LifecycleDifference {
    pub kind: GoType,
    pub files: Option<ApiLifecycle>,
    pub binary: Option<ApiLifecycle>,
}

/// Every kind of k8s.io/api the files or the binary state, where they differ.
pub fn compare_lifecycle(
    files: &BTreeMap<GoType, ApiLifecycle>,
    recorded: &RecordedLifecycle,
) -> Vec<LifecycleDifference> {
    let kinds: std::collections::BTreeSet<&GoType> =
        files.keys().chain(recorded.api.keys()).collect();
    kinds
        .into_iter()
        .filter_map(|kind| {
            let (files, binary) = (files.get(kind), recorded.api.get(kind));
            (files != binary).then(|| LifecycleDifference {
                kind: kind.clone(),
                files: files.cloned(),
                binary: binary.cloned(),
            })
        })
        .collect()
}

/// The pages of a mirror's `feature-gates/` (every `*.md` but README.md).
pub fn read_pages(dir: &Path) -> Result<BTreeMap<String, FeatureGateHistory>> {
    let mut pages = BTreeMap::new();
    for path in list(dir, |name| name.ends_with(".md") && name != "README.md")? {
        let (name, history) = feature_gates::read_page(&path, &read_text(&path)?)?;
        pages.insert(name, history);
    }
    Ok(pages)
}

/// k8s.io/api's files of one minor in a mirror's `api-lifecycle/`
/// (`v<X.Y>/<package>/<version>/*.go`).
pub fn read_lifecycle_files(dir: &Path, minor: Version) -> Result<BTreeMap<GoType, ApiLifecycle>> {
    let root = dir.join(minor.dir_name());
    let mut found = BTreeMap::new();
    for package in list(&root, |_| true)? {
        for version in list(&package, |_| true)? {
            for file in list(&version, |name| name.ends_with(".go"))? {
                let name = |p: &Path| {
                    p.file_name()
                        .unwrap_or_default()
                        .to_string_lossy()
                        .into_owned()
                };
                for (kind, said) in api_lifecycle::read_file(&file, &read_text(&file)?)? {
                    found.insert((name(&package), name(&version), kind), said);
                }
            }
        }
    }
    Ok(found)
}

fn list(dir: &Path, keep: impl Fn(&str) -> bool) -> Result<Vec<std::path::PathBuf>> {
    let entries = std::fs::read_dir(dir).map_err(|err| Error::io(dir, "listing", err))?;
    let mut found = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|err| Error::io(dir, "listing", err))?;
        if keep(&entry.file_name().to_string_lossy()) {
            found.push(entry.path());
        }
        if found.len() > MAX_FILES {
            return Err(Error::Config {
                path: dir.to_owned(),
                message: format!(
                    "holds more than {MAX_FILES} entries; is this a mirror's fact directory?"
                ),
            });
        }
    }
    found.sort();
    Ok(found)
}

pub(super) fn read_text(path: &Path) -> Result<String> {
    let size = std::fs::metadata(path)
        .map_err(|err| Error::io(path, "reading", err))?
        .len();
    if size > MAX_FACT_FILE {
        return Err(Error::Config {
            path: path.to_owned(),
            message: format!("{size} bytes; a fact file is at most {MAX_FACT_FILE}"),
        });
    }
    let bytes = std::fs::read(path).map_err(|err| Error::io(path, "reading", err))?;
    String::from_utf8(bytes).map_err(|_| Error::Config {
        path: path.to_owned(),
        message: "not UTF-8 text".into(),
    })
}

/// The gate disagreements as `gates-review` lists things: one line each,
/// with the source that wins for the minor.
pub fn gates_report(minor: Version, pages: usize, found: &[GateDisagreement]) -> String {
    let mut out = format!(
        "feature gates in {minor}: the API server's table against {pages} website pages: {} disagreement{}\n",
        found.len(),
        if found.len() == 1 { "" } else { "s" }
    );
    for d in found {
        // A gate the binary no longer registers (removed after it went GA,
        // or withdrawn) is no state of the binary's: the page's history holds.
        let winner = if d.field == "presence" && d.binary == "absent" {
            format!("the page holds: the {minor} binary no longer registers the gate")
        } else {
            format!("the binary wins for {minor}")
        };
        let _ = writeln!(
            out,
            "  {minor} {}  {}: page {}, binary {}  ({winner})",
            d.gate, d.field, d.page, d.binary
        );
    }
    out
}

/// The lifecycle differences, one line each.
pub fn lifecycle_report(
    minor: Version,
    files: usize,
    outside: usize,
    found: &[LifecycleDifference],
) -> String {
    let show = |said: &Option<ApiLifecycle>| match said {
        None => "not stated".to_owned(),
        Some(s) => {
            let v = |v: Option<Version>| v.map_or("-".to_owned(), |v| v.to_string());
            let replacement = s.replacement.as_ref().map_or("-".to_owned(), |r| {
                format!("{} {}", r.api_version(), r.kind)
            });
            format!(
                "introduced {} deprecated {} removed {} replacement {}",
                v(s.introduced),
                v(s.deprecated),
                v(s.removed),
                replacement
            )
        }
    };
    let mut out = format!(
        "lifecycle in {minor}: the API server against k8s.io/api's files ({files} kinds stated there; \
         {outside} kinds outside k8s.io/api, which the dialect states): {} difference{}\n",
        found.len(),
        if found.len() == 1 { "" } else { "s" }
    );
    for d in found {
        let (package, version, kind) = &d.kind;
        let _ = writeln!(
            out,
            "  {minor} {package}/{version} {kind}: files {}; binary {}",
            show(&d.files),
            show(&d.binary)
        );
    }
    out
}

/// The recording of `minor` in `out` (laid out like a mirror) against
/// `against` (a mirror): spec, gates and lifecycle, each where `against`
/// has the minor's files.
pub fn report(out: &Path, against: &Path, minor: Version) -> Result<String> {
    let json = format!("{}.json", minor.dir_name());
    let mut report = String::new();
    let spec = out
        .join(minor.dir_name())
        .join(crate::record::minor::SPEC_FILE);
    let published = against
        .join(minor.dir_name())
        .join(crate::record::minor::SPEC_FILE);
    if published.is_file() {
        let read = |path: &Path| std::fs::read(path).map_err(|err| Error::io(path, "reading", err));
        let (a, b) = (read(&spec)?, read(&published)?);
        let said = match compare_specs((&spec, &a), (&published, &b))? {
            SpecComparison::Identical => "byte-identical to",
            SpecComparison::ValueEqual => "value-equal to (the text differs: key order or layout)",
            SpecComparison::Differs => "DIFFERENT from",
        };
        report.push_str(&format!(
            "spec {minor}: the served spec is {said} the mirror's {}/{}\n",
            minor.dir_name(),
            crate::record::minor::SPEC_FILE
        ));
    } else {
        report.push_str(&format!(
            "spec {minor}: the mirror has no {}; not compared\n",
            minor.dir_name()
        ));
    }
    let pages_dir = against.join("feature-gates");
    if pages_dir.is_dir() {
        let pages = read_pages(&pages_dir)?;
        let path = out.join("feature-gates").join(&json);
        let table = super::recorded::read_gates(&path, &read_text(&path)?)?;
        let found = compare_gates(&pages, &table);
        report.push_str(&gates_report(minor, pages.len(), &found));
    }
    let lifecycle_dir = against.join("api-lifecycle");
    if lifecycle_dir.join(minor.dir_name()).is_dir() {
        let files = read_lifecycle_files(&lifecycle_dir, minor)?;
        let path = out.join("api-lifecycle").join(&json);
        let said = super::recorded::read_lifecycle(&path, &read_text(&path)?)?;
        let found = compare_lifecycle(&files, &said);
        report.push_str(&lifecycle_report(
            minor,
            files.len(),
            said.outside.len(),
            &found,
        ));
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::super::recorded::RecordedGate;
    use super::*;
    use vergate_core::gates::GateStage;

    fn v(minor: u32) -> Version {
        Version::new(1, minor)
    }

    #[test]
    fn gates_disagree_by_field_in_the_binarys_minor() {
        let beta_on = FeatureGateState {
            stage: GateStage::Beta,
            default: true,
        };
        let alpha_off = FeatureGateState {
            stage: GateStage::Alpha,
            default: false,
        };
        let pages = BTreeMap::from([
            (
                "Same".to_owned(),
                FeatureGateHistory::from([(v(30), beta_on)]),
            ),
            (
                "Lags".to_owned(),
                FeatureGateHistory::from([(v(30), alpha_off)]),
            ),
            (
                "Gone".to_owned(),
                FeatureGateHistory::from([(v(30), beta_on)]),
            ),
        ]);
        let gate = |state| RecordedGate {
            locked: false,
            stages: BTreeMap::from([(v(31), state)]),
        };
        let table = (
            v(31),
            BTreeMap::from([
                ("Same".to_owned(), gate(beta_on)),
                ("Lags".to_owned(), gate(beta_on)),
                ("NoPage".to_owned(), gate(beta_on)),
            ]),
        );
        let found = compare_gates(&pages, &table);
        let fields: Vec<(&str, &str)> = found.iter().map(|d| (d.gate.as_str(), d.field)).collect();
        assert_eq!(
            fields,
            [("Gone", "presence"), ("Lags", "stage"), ("Lags", "default")]
        );
        let report = gates_report(v(31), pages.len(), &found);
        assert!(report.contains("3 disagreements"), "{report}");
        assert!(
            report
                .contains("1.31 Lags  stage: page alpha, binary beta  (the binary wins for 1.31)"),
            "{report}"
        );
    }

    #[test]
    fn specs_compare_by_value_when_their_text_differs() {
        let p = Path::new("a.json");
        assert_eq!(
            compare_specs((p, b"{\"a\":1,\"b\":2}"), (p, b"{\"a\":1,\"b\":2}")).unwrap(),
            SpecComparison::Identical
        );
        assert_eq!(
            compare_specs((p, b"{\"b\":2,\"a\":1}"), (p, b"{\"a\": 1, \"b\": 2}")).unwrap(),
            SpecComparison::ValueEqual
        );
        assert_eq!(
            compare_specs((p, b"{\"a\":1}"), (p, b"{\"a\":2}")).unwrap(),
            SpecComparison::Differs
        );
        let err = compare_specs((Path::new("rec.json"), b"{"), (p, b"{}"))
            .unwrap_err()
            .to_string();
        assert!(err.contains("rec.json"), "{err}");
    }

    #[test]
    fn lifecycles_differ_by_kind() {
        let said = |removed| ApiLifecycle {
            removed: Some(v(removed)),
            ..ApiLifecycle::default()
        };
        let key = |kind: &str| ("batch".to_owned(), "v1beta1".to_owned(), kind.to_owned());
        let files = BTreeMap::from([(key("A"), said(25)), (key("B"), said(25))]);
        let recorded = RecordedLifecycle {
            api: BTreeMap::from([
                (key("A"), said(25)),
                (key("B"), said(26)),
                (key("C"), said(30)),
            ]),
            outside: BTreeMap::new(),
        };
        let found = compare_lifecycle(&files, &recorded);
        assert_eq!(
            found.iter().map(|d| d.kind.2.as_str()).collect::<Vec<_>>(),
            ["B", "C"]
        );
        let report = lifecycle_report(v(30), files.len(), 0, &found);
        assert!(
            report.contains("files not stated; binary introduced - deprecated - removed 1.30"),
            "{report}"
        );
    }
}
