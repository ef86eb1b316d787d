//! Recording a Kubernetes minor from its own API server
//! (`cargo xtask record kubernetes X.Y`): `vergate-apiserver openapi`,
//! `feature-gates` and `lifecycle` write into a hidden staging directory,
//! every output is read back as `fetch-specs` and the `[facts]` readers
//! will read it, and only then is the lot moved in:
//!
//! ```text
//! <out>/v<X.Y>/swagger.json            as the server serves /openapi/v2
//! <out>/feature-gates/v<X.Y>.json      the binary's gate table
//! <out>/api-lifecycle/v<X.Y>.json      the binary's prerelease lifecycle
//! ```
//!
//! `<out>` is the API's directory (api.toml gains the minor's entries) or
//! a mirror laid out like it (the entries go to `pending/<X.Y>.toml`).

use super::entries::{merge, MinorDigests};
use crate::api::{sha256_hex, Api, API_TOML};
use crate::error::{Error, Result};
use crate::load::facts::recorded;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use vergate_core::Version;

/// The largest served spec read back: the real ones are 3–5 MB.
const MAX_SPEC: u64 = 256 * 1024 * 1024;
/// The largest recorded fact table: the real ones are tens of KB.
const MAX_TABLE: u64 = 4 * 1024 * 1024;
/// How long one subcommand may run: it starts etcd and an API server
/// (seconds) and reads one endpoint; a hung start must not hang the task.
pub const SUBCOMMAND_TIMEOUT: Duration = Duration::from_secs(15 * 60);

/// The spec file a recording writes into `v<X.Y>/`.
pub const SPEC_FILE: &str = "swagger.json";

/// A minor's recording, read back and checked, before it is moved in.
#[derive(Clone, Debug)]
pub struct Recording {
    pub minor: Version,
    /// Where it is staged: a directory laid out like `<out>`.
    pub stage: PathBuf,
    pub spec: Vec<u8>,
    pub gates: Vec<u8>,
    pub lifecycle: Vec<u8>,
}

impl Recording {
    /// The files, by their path below `<out>`.
    pub fn files(&self) -> [(PathBuf, &[u8]); 3] {
        let json = format!("{}.json", self.minor.dir_name());
        [
            (
                Path::new(&self.minor.dir_name()).join(SPEC_FILE),
                self.spec.as_slice(),
            ),
            (
                Path::new("feature-gates").join(&json),
                self.gates.as_slice(),
            ),
            (
                Path::new("api-lifecycle").join(&json),
                self.lifecycle.as_slice(),
            ),
        ]
    }

    /// Their digests, the spec's with `url` (where it is published).
    pub fn digests(&self, url: Option<String>) -> MinorDigests {
        MinorDigests {
            minor: self.minor,
            specs: vec![(SPEC_FILE.to_owned(), sha256_hex(&self.spec), url)],
            feature_gates: sha256_hex(&self.gates),
            api_lifecycle: sha256_hex(&self.lifecycle),
        }
    }
}

/// Runs `binary`'s three subcommands into `stage` (created; a leftover of
/// a killed run is removed first) and reads each output back: the spec as
/// an OpenAPI 2.0 JSON object, the tables as the `[facts]` readers read
/// them (the gate table must say `minor`). Any failure names the
/// subcommand or the file; the caller removes `stage`.
pub fn run(binary: &Path, minor: Version, stage: &Path, timeout: Duration) -> Result<Recording> {
    if stage.exists() {
        std::fs::remove_dir_all(stage)
            .map_err(|err| Error::io(stage, "removing an earlier recording's staging", err))?;
    }
    let json = format!("{}.json", minor.dir_name());
    let outputs = [
        ("openapi", Path::new(&minor.dir_name()).join(SPEC_FILE)),
        ("feature-gates", Path::new("feature-gates").join(&json)),
        ("lifecycle", Path::new("api-lifecycle").join(&json)),
    ];
    for (subcommand, relative) in &outputs {
        let target = stage.join(relative);
        let dir = target.parent().expect("every output is inside a directory");
        std::fs::create_dir_all(dir).map_err(|err| Error::io(dir, "creating", err))?;
        run_one(binary, subcommand, &target, timeout)?;
    }
    let spec = read_bounded(&stage.join(&outputs[0].1), MAX_SPEC)?;
    check_spec(&stage.join(&outputs[0].1), &spec)?;
    let gates = read_bounded(&stage.join(&outputs[1].1), MAX_TABLE)?;
    let gates_path = stage.join(&outputs[1].1);
    let (said, _) = recorded::read_gates(&gates_path, &text(&gates_path, &gates)?)?;
    if said != minor {
        return Err(Error::Config {
            path: gates_path,
            message: format!("the binary says it is {said}, not {minor}; build it for {minor}"),
        });
    }
    let lifecycle_path = stage.join(&outputs[2].1);
    let lifecycle = read_bounded(&lifecycle_path, MAX_TABLE)?;
    recorded::read_lifecycle(&lifecycle_path, &text(&lifecycle_path, &lifecycle)?)?;
    Ok(Recording {
        minor,
        stage: stage.to_owned(),
        spec,
        gates,
        lifecycle,
    })
}

/// `binary <subcommand> -o <target>`, within `timeout`; a failure says the
/// command, its status and the end of what it wrote to stderr.
fn run_one(binary: &Path, subcommand: &str, target: &Path, timeout: Duration) -> Result<()> {
    let shown = format!("{} {subcommand} -o {}", binary.display(), target.display());
    let failed = |message: String| Error::Config {
        path: binary.to_owned(),
        message: format!("`{shown}` {message}"),
    };
    let errors = tempfile_path(target, "stderr");
    let stderr =
        std::fs::File::create(&errors).map_err(|err| Error::io(&errors, "creating", err))?;
    let mut child = Command::new(binary)
        .arg(subcommand)
        .arg("-o")
        .arg(target)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(stderr)
        .spawn()
        .map_err(|err| {
            failed(format!(
                "did not start: {err}; build it with xtask/apiserver/build.sh"
            ))
        })?;
    let started = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if started.elapsed() > timeout => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(failed(format!(
                    "ran longer than {} s and was stopped",
                    timeout.as_secs()
                )));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(50)),
            Err(err) => return Err(failed(format!("could not be waited for: {err}"))),
        }
    };
    let said = std::fs::read(&errors).unwrap_or_default();
    let _ = std::fs::remove_file(&errors);
    if !status.success() {
        let text = String::from_utf8_lossy(&said);
        let tail: Vec<&str> = text.lines().rev().take(20).collect();
        let tail: Vec<&str> = tail.into_iter().rev().collect();
        return Err(failed(format!("failed ({status}):\n{}", tail.join("\n"))));
    }
    if !target.is_file() {
        return Err(failed("succeeded but wrote no file".into()));
    }
    Ok(())
}

/// A scratch file beside `target` (inside the staging directory).
fn tempfile_path(target: &Path, what: &str) -> PathBuf {
    let mut name = target.file_name().unwrap_or_default().to_os_string();
    name.push(format!(".{what}"));
    target.with_file_name(name)
}

fn read_bounded(path: &Path, limit: u64) -> Result<Vec<u8>> {
    let size = std::fs::metadata(path)
        .map_err(|err| Error::io(path, "reading a recorded file", err))?
        .len();
    if size > limit {
        return Err(Error::Config {
            path: path.to_owned(),
            message: format!("{size} bytes; a recorded file is at most {limit} here"),
        });
    }
    std::fs::read(path).map_err(|err| Error::io(path, "reading a recorded file", err))
}

fn text<'a>(path: &Path, bytes: &'a [u8]) -> Result<std::borrow::Cow<'a, str>> {
    std::str::from_utf8(bytes)
        .map(std::borrow::Cow::Borrowed)
        .map_err(|_| Error::Config {
            path: path.to_owned(),
            message: "not UTF-8 text".into(),
        })
}

/// The served spec is an OpenAPI 2.0 object with definitions and paths.
fn check_spec(path: &Path, bytes: &[u8]) -> Result<()> {
    let failed = |message: String| Error::Config {
        path: path.to_owned(),
        message,
    };
    let value: serde_json::Value =
        serde_json::from_slice(bytes).map_err(|err| failed(format!("not JSON: {err}")))?;
    let swagger = value.get("swagger").and_then(|v| v.as_str());
    if swagger != Some("2.0") || !value.get("definitions").is_some_and(|d| d.is_object()) {
        return Err(failed(
            "not an OpenAPI 2.0 document with definitions (is the binary's `openapi` the API server's /openapi/v2?)".into(),
        ));
    }
    Ok(())
}

/// Moves a recording's files from its stage into `out` (a file already
/// there with the same bytes stays; one with other bytes is replaced),
/// `last` (api.toml, staged beside them) after them. Every move is undone
/// when one fails; the stage is removed in any case. Returns the files
/// written.
pub fn commit(
    recording: &Recording,
    out: &Path,
    last: Option<(&Path, &Path)>,
) -> Result<Vec<PathBuf>> {
    let mut moves: Vec<(PathBuf, PathBuf)> = recording
        .files()
        .iter()
        .filter(|(relative, bytes)| {
            std::fs::read(out.join(relative)).ok().as_deref() != Some(*bytes)
        })
        .map(|(relative, _)| (recording.stage.join(relative), out.join(relative)))
        .collect();
    if let Some((staged, target)) = last {
        moves.push((staged.to_owned(), target.to_owned()));
    }
    let backups = recording.stage.join(".replaced");
    let mut done: Vec<(PathBuf, Option<PathBuf>)> = Vec::new();
    let mut created: Vec<PathBuf> = Vec::new();
    let mut result = Ok(());
    for (index, (from, to)) in moves.iter().enumerate() {
        let step = (|| -> Result<Option<PathBuf>> {
            let dir = to.parent().expect("a target is inside `out`");
            if !dir.exists() {
                std::fs::create_dir_all(dir).map_err(|err| Error::io(dir, "creating", err))?;
                created.push(dir.to_owned());
            }
            let backup = if to.exists() {
                std::fs::create_dir_all(&backups)
                    .map_err(|err| Error::io(&backups, "creating", err))?;
                let backup = backups.join(index.to_string());
                std::fs::rename(to, &backup)
                    .map_err(|err| Error::io(to, "moving aside before replacing", err))?;
                Some(backup)
            } else {
                None
            };
            if let Err(err) = std::fs::rename(from, to) {
                if let Some(backup) = &backup {
                    let _ = std::fs::rename(backup, to);
                }
                return Err(Error::io(to, "moving into place", err));
            }
            Ok(backup)
        })();
        match step {
            Ok(backup) => done.push((to.clone(), backup)),
            Err(err) => {
                result = Err(err);
                break;
            }
        }
    }
    if result.is_err() {
        for (target, backup) in done.iter().rev() {
            match backup {
                Some(backup) => {
                    let _ = std::fs::rename(backup, target);
                }
                None => {
                    let _ = std::fs::remove_file(target);
                }
            }
        }
        for dir in created.iter().rev() {
            let _ = std::fs::remove_dir(dir);
        }
    }
    let _ = std::fs::remove_dir_all(&recording.stage);
    result.map(|()| done.into_iter().map(|(target, _)| target).collect())
}

/// The published URL of a new minor's spec, from the newest recorded
/// minor's (`…/v1.36.0/…` → `…/v1.37.0/…`): Kubernetes publishes each
/// release's spec at the same path of its tag. `None` when that URL does
/// not name its own tag. `fetch-specs` checks the digest, so a published
/// file that differs from the recording is refused, never taken.
pub fn published_url(previous: Option<(Version, &str)>, minor: Version) -> Option<String> {
    let (version, url) = previous?;
    let tag = |v: Version| format!("/v{}.{}.0/", v.major(), v.minor());
    url.contains(&tag(version))
        .then(|| url.replacen(&tag(version), &tag(minor), 1))
}

/// What [`record`] did.
#[derive(Clone, Debug)]
pub struct Recorded {
    pub recording_digests: MinorDigests,
    /// The files written (a file already holding the same bytes is not).
    pub written: Vec<PathBuf>,
    /// api.toml when it gained the entries, else the pending fragment;
    /// `None` for a minor api.toml lists already (a recording made to be
    /// compared with the published files).
    pub entries: Option<PathBuf>,
}

/// Records `minor` of `api` with `binary` into `out` (`None`: the API's
/// own directory). Into the API's directory, api.toml gains the minor's
/// entries, moved in last; into a mirror, the entries are written to
/// `<api>/pending/<X.Y>.toml` for `cargo xtask add-minor` once the mirror
/// that CI reads holds the minor (not for a minor api.toml lists: that
/// recording is for comparing with the published files). Nothing is written unless every
/// subcommand succeeded and every output reads back.
pub fn record(api: &Api, minor: Version, binary: &Path, out: Option<&Path>) -> Result<Recorded> {
    let into_api = out.is_none_or(|out| same_dir(out, &api.dir));
    let out = out.unwrap_or(&api.dir);
    std::fs::create_dir_all(out).map_err(|err| Error::io(out, "creating", err))?;
    let stage = out.join(format!(".record-{}", minor.dir_name()));
    let recording = match run(binary, minor, &stage, SUBCOMMAND_TIMEOUT) {
        Ok(recording) => recording,
        Err(err) => {
            let _ = std::fs::remove_dir_all(&stage);
            return Err(err);
        }
    };
    let previous = api
        .listed
        .range(..minor)
        .next_back()
        .and_then(|(version, entry)| {
            entry
                .files
                .get(SPEC_FILE)?
                .url
                .as_deref()
                .map(|url| (*version, url))
        });
    let digests = recording.digests(published_url(previous, minor));
    let header = format!(
        "# Kubernetes {minor}, recorded by `cargo xtask record {name} {minor}` from its own API server\n\
         # (vergate-apiserver {minor}). Apply once the mirror holds {dir}/:\n\
         #   cargo xtask add-minor {name} {minor} --from <mirror>\n",
        name = api.name(),
        dir = minor.dir_name(),
    );
    let fragment = digests.fragment(&header);
    if into_api {
        let api_toml = api.dir.join(API_TOML);
        let current = std::fs::read_to_string(&api_toml)
            .map_err(|err| Error::io(&api_toml, "reading", err))?;
        let fragment_path = stage.join("entries.toml");
        let merged = merge((&api_toml, &current), (&fragment_path, &fragment));
        let staged = stage.join(API_TOML);
        let checked = merged.and_then(|merged| {
            std::fs::write(&staged, merged).map_err(|err| Error::io(&staged, "writing", err))?;
            // Read back as a regen will, before anything is in place.
            Api::open(&stage).map(|_| ())
        });
        if let Err(err) = checked {
            let _ = std::fs::remove_dir_all(&stage);
            return Err(err);
        }
        let written = commit(&recording, out, Some((&staged, &api_toml)))?;
        return Ok(Recorded {
            recording_digests: digests,
            written,
            entries: Some(api_toml),
        });
    }
    let written = commit(&recording, out, None)?;
    if api.listed.contains_key(&minor) {
        return Ok(Recorded {
            recording_digests: digests,
            written,
            entries: None,
        });
    }
    let pending = pending_path(api, minor);
    let dir = pending
        .parent()
        .expect("pending/ is inside the API's directory");
    std::fs::create_dir_all(dir).map_err(|err| Error::io(dir, "creating", err))?;
    std::fs::write(&pending, fragment).map_err(|err| Error::io(&pending, "writing", err))?;
    Ok(Recorded {
        recording_digests: digests,
        written,
        entries: Some(pending),
    })
}

/// Where a minor's entries wait for the mirror: `<api>/pending/<X.Y>.toml`.
pub fn pending_path(api: &Api, minor: Version) -> PathBuf {
    api.dir.join("pending").join(format!("{minor}.toml"))
}

fn same_dir(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

/// Applies `<api>/pending/<X.Y>.toml` (`cargo xtask add-minor`): checks
/// that `mirror` holds every file api.toml will then list, each with its
/// digest, merges the entries
/// into api.toml (read back before it is moved in), removes it, and copies
/// the minor's files from the mirror (`fetch-specs --from`). Nothing is
/// changed when the mirror lacks a file or holds other bytes.
pub fn add_minor(api: &Api, minor: Version, mirror: &Path) -> Result<crate::fetch::FetchReport> {
    let pending = pending_path(api, minor);
    let fragment = std::fs::read_to_string(&pending).map_err(|err| {
        Error::io(
            &pending,
            "reading the minor's pending entries (written by `cargo xtask record --out`)",
            err,
        )
    })?;
    let api_toml = api.dir.join(API_TOML);
    let current =
        std::fs::read_to_string(&api_toml).map_err(|err| Error::io(&api_toml, "reading", err))?;
    let merged = merge((&api_toml, &current), (&pending, &fragment))?;
    let stage = api.dir.join(format!(".add-minor-{}", minor.dir_name()));
    let _ = std::fs::remove_dir_all(&stage);
    let result = (|| {
        std::fs::create_dir_all(&stage).map_err(|err| Error::io(&stage, "creating", err))?;
        std::fs::write(stage.join(API_TOML), &merged)
            .map_err(|err| Error::io(&stage, "writing", err))?;
        let staged = Api::open(&stage)?;
        // Every file api.toml will list, in the mirror, with its digest:
        // the copy below must not fail once api.toml names the minor.
        let mut wanted: Vec<(PathBuf, String)> = Vec::new();
        for (version, entry) in &staged.listed {
            for (file, spec) in &entry.files {
                wanted.push((
                    Path::new(&version.dir_name()).join(file),
                    spec.sha256.clone(),
                ));
            }
        }
        for (table, _, file, sha256) in staged.fact_files() {
            wanted.push((Path::new(table.dir_name()).join(file), sha256.to_owned()));
        }
        for (relative, sha256) in &wanted {
            let source = mirror.join(relative);
            let bytes = std::fs::read(&source).map_err(|err| {
                Error::io(
                    &source,
                    "reading a file api.toml will list from the mirror (does it hold the minor yet?)",
                    err,
                )
            })?;
            crate::api::check_digest(&source, &bytes, sha256)?;
        }
        std::fs::rename(stage.join(API_TOML), &api_toml)
            .map_err(|err| Error::io(&api_toml, "moving into place", err))?;
        Ok(())
    })();
    let _ = std::fs::remove_dir_all(&stage);
    result?;
    std::fs::remove_file(&pending).map_err(|err| Error::io(&pending, "removing", err))?;
    let _ = std::fs::remove_dir(pending.parent().expect("inside pending/"));
    crate::fetch::fetch_from_dir(&Api::open(&api.dir)?, mirror)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    /// A stand-in for vergate-apiserver: a shell script writing fixed outputs.
    pub(crate) fn fake(dir: &Path, minor: &str, fail: Option<&str>) -> PathBuf {
        let script = dir.join("vergate-apiserver");
        let fail_case = fail
            .map(|sub| format!("  {sub}) echo 'etcd: cannot listen' >&2; exit 3;;\n"))
            .unwrap_or_default();
        std::fs::write(
            &script,
            format!(
                "#!/bin/sh\n[ \"$2\" = -o ] || exit 2\ncase \"$1\" in\n{fail_case}\
                 \x20 openapi) printf '%s' '{{\"swagger\":\"2.0\",\"info\":{{\"version\":\"unversioned\"}},\"definitions\":{{}},\"paths\":{{}}}}' > \"$3\";;\n\
                 \x20 feature-gates) printf '%s' '{{\"minor\":\"{minor}\",\"gates\":[{{\"name\":\"G\",\"lockToDefault\":false,\"stages\":[{{\"stage\":\"beta\",\"defaultValue\":true,\"fromVersion\":null}}]}}]}}' > \"$3\";;\n\
                 \x20 lifecycle) printf '%s' '[]' > \"$3\";;\n\
                 \x20 *) exit 2;;\nesac\n"
            ),
        )
        .unwrap();
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
        script
    }

    #[test]
    fn a_recording_is_read_back_then_moved_in() {
        let tmp = tempfile::tempdir().unwrap();
        let binary = fake(tmp.path(), "1.37", None);
        let out = tmp.path().join("out");
        let stage = out.join(".record-v1.37");
        let recording = run(&binary, Version::new(1, 37), &stage, SUBCOMMAND_TIMEOUT).unwrap();
        let written = commit(&recording, &out, None).unwrap();
        assert_eq!(written.len(), 3);
        for relative in [
            "v1.37/swagger.json",
            "feature-gates/v1.37.json",
            "api-lifecycle/v1.37.json",
        ] {
            assert!(out.join(relative).is_file(), "{relative}");
        }
        assert!(!stage.exists());
        // Recording again with the same bytes writes nothing.
        let recording = run(&binary, Version::new(1, 37), &stage, SUBCOMMAND_TIMEOUT).unwrap();
        assert!(commit(&recording, &out, None).unwrap().is_empty());
    }

    #[test]
    fn a_failed_subcommand_or_a_wrong_minor_is_named() {
        let tmp = tempfile::tempdir().unwrap();
        let stage = tmp.path().join("out/.record-v1.37");
        let binary = fake(tmp.path(), "1.37", Some("lifecycle"));
        let err = run(&binary, Version::new(1, 37), &stage, SUBCOMMAND_TIMEOUT)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("lifecycle -o") && err.contains("etcd: cannot listen"),
            "{err}"
        );
        let binary = fake(tmp.path(), "1.36", None);
        let err = run(&binary, Version::new(1, 37), &stage, SUBCOMMAND_TIMEOUT)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("v1.37.json") && err.contains("named for 1.37"),
            "{err}"
        );
        let err = run(
            &tmp.path().join("absent"),
            Version::new(1, 37),
            &stage,
            SUBCOMMAND_TIMEOUT,
        )
        .unwrap_err()
        .to_string();
        assert!(
            err.contains("did not start") && err.contains("build.sh"),
            "{err}"
        );
    }

    #[test]
    fn a_hung_binary_is_stopped() {
        let tmp = tempfile::tempdir().unwrap();
        let script = tmp.path().join("hangs");
        std::fs::write(&script, "#!/bin/sh\nexec sleep 30\n").unwrap();
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
        let started = Instant::now();
        let err = run(
            &script,
            Version::new(1, 37),
            &tmp.path().join("s"),
            Duration::from_millis(300),
        )
        .unwrap_err()
        .to_string();
        assert!(err.contains("ran longer than"), "{err}");
        assert!(started.elapsed() < Duration::from_secs(10));
    }

    #[test]
    fn the_published_url_follows_the_previous_minors_tag() {
        let url = "https://raw.githubusercontent.com/kubernetes/kubernetes/v1.36.0/api/openapi-spec/swagger.json";
        assert_eq!(
            published_url(Some((Version::new(1, 36), url)), Version::new(1, 37)).as_deref(),
            Some("https://raw.githubusercontent.com/kubernetes/kubernetes/v1.37.0/api/openapi-spec/swagger.json")
        );
        assert_eq!(
            published_url(
                Some((Version::new(1, 36), "https://x/latest.json")),
                Version::new(1, 37)
            ),
            None
        );
    }
}
