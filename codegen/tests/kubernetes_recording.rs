//! `cargo xtask record kubernetes X.Y` end to end with a stand-in for
//! vergate-apiserver (a shell script writing the interface's formats): the
//! recording enters api.toml (or waits in pending/ for a mirror), reads
//! back through the `[facts]` readers with each gate's source, and
//! `add-minor` applies the pending entries only when the mirror holds them.
//! And the proof on the minors we hold: their recordings by the real
//! vergate-apiserver, kept outside git, against the mirror, as committed in
//! `codegen/tests/kubernetes_recording/comparison.txt`.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use vergate_codegen::api::Api;
use vergate_codegen::load::facts::{self, compare, history, sources::GateSource};
use vergate_codegen::record::minor;
use vergate_codegen::Version;

const SPEC: &str = r#"{"swagger":"2.0","info":{"title":"t","version":"unversioned"},"paths":{},"definitions":{"io.k8s.api.core.v1.PodSpec":{"type":"object","properties":{"hostname":{"type":"string"}}}}}"#;

const PAGE: &str = "---\ntitle: Old\nstages:\n  - stage: alpha\n    defaultValue: false\n    fromVersion: \"1.35\"\n---\n";

/// An API directory with 1.36 (a spec and a feature-gate page) recorded.
fn api_dir() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::create_dir_all(dir.join("v1.36")).unwrap();
    std::fs::create_dir_all(dir.join("feature-gates")).unwrap();
    std::fs::write(dir.join("v1.36/swagger.json"), SPEC).unwrap();
    std::fs::write(dir.join("feature-gates/Old.md"), PAGE).unwrap();
    let sha = |text: &str| vergate_codegen::api::sha256_hex(text.as_bytes());
    std::fs::write(
        dir.join("api.toml"),
        format!(
            "# the corpus\nname = \"kubernetes\"\ndialect = \"kubernetes\"\npkl_package = \"k8s\"\n\
             version_field = \"kubernetesVersion\"\nspec_files = [\"swagger.json\"]\n\n\
             [minors.\"1.36\".files.\"swagger.json\"]\nsha256 = \"{}\"\n\
             url = \"https://example.invalid/kubernetes/v1.36.0/api/openapi-spec/swagger.json\"\n\n\
             # the pages\n[facts.feature_gates.files]\n\"Old.md\" = \"{}\"\n",
            sha(SPEC),
            sha(PAGE)
        ),
    )
    .unwrap();
    tmp
}

/// The stand-in: `openapi`, `feature-gates` and `lifecycle` of minor 1.37.
fn stand_in(dir: &Path) -> PathBuf {
    let script = dir.join("vergate-apiserver");
    let gates = r#"{"minor":"1.37","gates":[{"name":"New","lockToDefault":false,"stages":[{"stage":"alpha","defaultValue":false,"fromVersion":"1.36"},{"stage":"beta","defaultValue":true,"fromVersion":"1.37"}]},{"name":"Old","lockToDefault":false,"stages":[{"stage":"alpha","defaultValue":false,"fromVersion":"1.35"},{"stage":"beta","defaultValue":true,"fromVersion":"1.37"}]}]}"#;
    let lifecycle = r#"[{"group":"batch","version":"v1beta1","kind":"CronJob","introduced":"1.8","deprecated":"1.21","removed":"1.25","replacement":{"group":"batch","version":"v1","kind":"CronJob"}}]"#;
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\ncase \"$1\" in\n  openapi) printf '%s' '{SPEC}' > \"$3\";;\n  \
             feature-gates) printf '%s' '{gates}' > \"$3\";;\n  lifecycle) printf '%s' '{lifecycle}' > \"$3\";;\n  \
             *) exit 2;;\nesac\n"
        ),
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    script
}

fn v(minor: u32) -> Version {
    Version::new(1, minor)
}

#[test]
fn a_recording_enters_api_toml_and_the_readers_know_each_source() {
    let api_tmp = api_dir();
    let bin_tmp = tempfile::tempdir().unwrap();
    let api = Api::open(api_tmp.path()).unwrap();
    let before = std::fs::read_to_string(api_tmp.path().join("api.toml")).unwrap();
    let recorded = minor::record(&api, v(37), &stand_in(bin_tmp.path()), None).unwrap();
    assert_eq!(recorded.written.len(), 4, "{:?}", recorded.written);
    let after = std::fs::read_to_string(api_tmp.path().join("api.toml")).unwrap();
    assert!(
        after.starts_with(&before[..before.find("# the pages").unwrap()]),
        "{after}"
    );
    assert!(
        after.contains("# the pages\n"),
        "comments are kept: {after}"
    );
    assert!(
        after.contains(
            "url = \"https://example.invalid/kubernetes/v1.37.0/api/openapi-spec/swagger.json\""
        ),
        "{after}"
    );

    let api = Api::open(api_tmp.path()).unwrap();
    assert!(api.listed.contains_key(&v(37)));
    let facts = facts::load(&api).unwrap();
    // The page's gate: the 1.37 binary's versioned history for 1.35–1.36
    // (it comes before the page), the 1.37 binary for 1.37.
    let old = &facts.feature_gates["Old"];
    assert_eq!(old.keys().copied().collect::<Vec<_>>(), [v(35), v(37)]);
    assert_eq!(
        facts.gate_sources["Old"],
        [
            (v(35), GateSource::BinaryHistory(v(37))),
            (v(37), GateSource::Binary(v(37)))
        ]
        .into()
    );
    // A gate without a page: the binary's versioned history fills 1.36.
    assert_eq!(
        facts.gate_sources["New"][&v(36)],
        GateSource::BinaryHistory(v(37))
    );
    assert!(facts.recorded_only.contains("New") && !facts.recorded_only.contains("Old"));
    let cron = (
        "batch".to_owned(),
        "v1beta1".to_owned(),
        "CronJob".to_owned(),
    );
    assert_eq!(facts.api_lifecycle[&cron][&v(37)].removed, Some(v(25)));
    assert!(facts.lifecycle_recorded.contains(&(cron, v(37))));
}

#[test]
fn a_mirror_recording_waits_in_pending_until_the_mirror_holds_it() {
    let api_tmp = api_dir();
    let tmp = tempfile::tempdir().unwrap();
    let mirror = tmp.path().join("mirror");
    let api = Api::open(api_tmp.path()).unwrap();
    let before = std::fs::read_to_string(api_tmp.path().join("api.toml")).unwrap();
    let recorded = minor::record(&api, v(37), &stand_in(tmp.path()), Some(&mirror)).unwrap();
    let pending = recorded.entries.unwrap();
    assert_eq!(pending, api_tmp.path().join("pending/1.37.toml"));
    assert!(mirror.join("v1.37/swagger.json").is_file());
    assert!(!mirror.join(".record-v1.37").exists());
    assert_eq!(
        std::fs::read_to_string(api_tmp.path().join("api.toml")).unwrap(),
        before
    );
    // CI's mirror lacks 1.37: nothing changes, and the error says so.
    let empty = tmp.path().join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let err = minor::add_minor(&api, v(37), &empty)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("empty/v1.36/swagger.json") && err.contains("does it hold the minor"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(api_tmp.path().join("api.toml")).unwrap(),
        before
    );
    assert!(pending.is_file());
    // The mirror holds what api.toml lists already, as CI's does.
    let held = ["v1.36/swagger.json", "feature-gates/Old.md"];
    let hold = |mirror: &Path| {
        for file in held {
            std::fs::create_dir_all(mirror.join(file).parent().unwrap()).unwrap();
            std::fs::copy(api_tmp.path().join(file), mirror.join(file)).unwrap();
        }
    };
    // A mirror whose 1.37 file differs from the recording is refused too.
    let tampered = tmp.path().join("tampered");
    hold(&tampered);
    std::fs::create_dir_all(tampered.join("v1.37")).unwrap();
    for dir in ["feature-gates", "api-lifecycle"] {
        std::fs::create_dir_all(tampered.join(dir)).unwrap();
        std::fs::copy(
            mirror.join(dir).join("v1.37.json"),
            tampered.join(dir).join("v1.37.json"),
        )
        .unwrap();
    }
    std::fs::write(tampered.join("v1.37/swagger.json"), "{}").unwrap();
    let err = minor::add_minor(&api, v(37), &tampered)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("tampered/v1.37/swagger.json") && err.contains("sha256"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(api_tmp.path().join("api.toml")).unwrap(),
        before
    );
    // Once the mirror holds it: api.toml gains the entries, files are copied.
    hold(&mirror);
    let report = minor::add_minor(&api, v(37), &mirror).unwrap();
    assert!(!pending.exists());
    assert!(
        report
            .written
            .iter()
            .any(|p| p.ends_with("v1.37/swagger.json")),
        "{report:?}"
    );
    let api = Api::open(api_tmp.path()).unwrap();
    assert!(api.listed.contains_key(&v(37)));
    assert!(facts::load(&api).unwrap().feature_gates.contains_key("New"));
}

#[test]
fn a_failed_recording_writes_nothing() {
    let api_tmp = api_dir();
    let tmp = tempfile::tempdir().unwrap();
    let script = tmp.path().join("broken");
    std::fs::write(
        &script,
        "#!/bin/sh\necho 'kube-apiserver: etcd did not start' >&2\nexit 1\n",
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let api = Api::open(api_tmp.path()).unwrap();
    let listing = |dir: &Path| {
        let mut names: Vec<String> = walk(dir);
        names.sort();
        names
    };
    let before = listing(api_tmp.path());
    let err = minor::record(&api, v(37), &script, None)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("openapi -o") && err.contains("etcd did not start"),
        "{err}"
    );
    assert_eq!(listing(api_tmp.path()), before);
}

fn walk(dir: &Path) -> Vec<String> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        found.push(path.display().to_string());
        if path.is_dir() {
            found.extend(walk(&path));
        }
    }
    found
}

/// The recordings of 1.28–1.36 by the real vergate-apiserver, kept outside
/// git (docs/new-minor.md § "Proof on the minors we hold" makes them), held
/// against the mirror: spec, gate table, lifecycle. The result is
/// committed; `UPDATE=1` rewrites it after a review of the difference.
#[test]
#[ignore = "needs recordings by vergate-apiserver (Go, not built in CI): VERGATE_RECORDINGS=<dir>, see docs/new-minor.md"]
fn recordings_of_the_minors_we_hold_compare_as_committed() {
    let (recordings, mirror) = recordings_and_mirror();
    let mut report = String::new();
    for minor in 28..=36 {
        if recordings.join(format!("v1.{minor}")).is_dir() {
            report.push_str(&compare::report(&recordings, &mirror, v(minor)).unwrap());
        }
    }
    assert!(
        !report.is_empty(),
        "{} holds no recording of 1.28–1.36",
        recordings.display()
    );
    assert_committed("comparison.txt", &report);
}

/// The versioned gate history and the lifecycle of the newest binaries
/// (1.36 and 1.37, whichever are recorded), held against the website pages
/// and k8s.io/api's files of every older minor the mirror holds, 1.28 on;
/// a minor's own recording, where there is one, judges each disagreement.
/// Committed as `comparison-history.txt` (`UPDATE=1` rewrites it).
#[test]
#[ignore = "needs recordings by vergate-apiserver (Go, not built in CI): VERGATE_RECORDINGS=<dir>, see docs/new-minor.md"]
fn newer_binaries_history_against_the_older_minors_compares_as_committed() {
    let (recordings, mirror) = recordings_and_mirror();
    let held: Vec<Version> = (28..=36)
        .map(v)
        .filter(|m| mirror.join(m.dir_name()).is_dir())
        .collect();
    let mut report = String::new();
    for binary in [v(36), v(37)] {
        let gates = recordings.join(format!("feature-gates/{}.json", binary.dir_name()));
        if gates.is_file() {
            let older: Vec<Version> = held.iter().copied().filter(|m| *m < binary).collect();
            report.push_str(&history::report(&recordings, &mirror, binary, &older).unwrap());
        }
    }
    assert!(
        !report.is_empty(),
        "{} holds no recording of 1.36 or 1.37",
        recordings.display()
    );
    assert_committed("comparison-history.txt", &report);
}

/// The recordings' directory (`VERGATE_RECORDINGS`) and the mirror they
/// are held against (`VERGATE_KUBERNETES_SPECS`, else `../shared`'s).
fn recordings_and_mirror() -> (PathBuf, PathBuf) {
    let recordings = PathBuf::from(
        std::env::var_os("VERGATE_RECORDINGS")
            .expect("set VERGATE_RECORDINGS to the recordings' directory"),
    );
    let mirror = std::env::var_os("VERGATE_KUBERNETES_SPECS")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("../shared/upstream-specs/kubernetes"));
    (recordings, mirror)
}

/// `report` equals the committed `tests/kubernetes_recording/<name>`
/// (`UPDATE=1` rewrites the file first, after a review of the difference).
fn assert_committed(name: &str, report: &str) {
    let committed = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/kubernetes_recording")
        .join(name);
    if std::env::var_os("UPDATE").is_some() {
        std::fs::write(&committed, report).unwrap();
    }
    assert_eq!(
        std::fs::read_to_string(&committed).unwrap_or_default(),
        report
    );
}

/// The repository root (this crate is `codegen/`).
fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap()
}
