//! Fetching an API's specs into `upstream-specs/<api>/v<X.Y>/` from a local
//! mirror, verifying every sha256 recorded in api.toml.

use crate::api::{check_digest, Api};
use crate::error::{Error, Result};
use std::path::{Path, PathBuf};

/// What a fetch did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FetchReport {
    /// Files verified (all of api.toml's files).
    pub verified: usize,
    /// Files written because they were missing or different.
    pub written: Vec<PathBuf>,
}

/// Copies every spec file api.toml lists from `mirror/v<X.Y>/<file>` into the
/// API's directory. All files are read and verified before the first write:
/// on any missing file or digest mismatch nothing is written.
///
/// The fact tables api.toml records (`[facts]`) come from the mirror's
/// directories of the same names (`mirror/feature-gates/…`), verified and
/// written with the specs.
pub fn fetch_from_dir(api: &Api, mirror: &Path) -> Result<FetchReport> {
    let mut facts = Vec::new();
    for (table, target, file, sha256) in api.fact_files() {
        let source = mirror.join(table.dir_name()).join(file);
        let bytes = std::fs::read(&source).map_err(|source_err| {
            Error::io(&source, "reading a fact file from the mirror", source_err)
        })?;
        check_digest(&source, &bytes, sha256)?;
        facts.push((target, bytes));
    }
    let mut report = fetch_with(api, facts, |version, file, _url| {
        let source = mirror.join(version.dir_name()).join(file);
        let bytes = std::fs::read(&source).map_err(|source_err| {
            Error::io(&source, "reading a spec from the mirror", source_err)
        })?;
        Ok((source.display().to_string(), bytes))
    })?;
    report.written.sort();
    Ok(report)
}

/// Downloads every spec file api.toml lists, from its `url`, or, with
/// `base_url`, from `<base_url>/v<X.Y>/<file>` (a mirror laid out like
/// upstream-specs/). Verified like [`fetch_from_dir`]: nothing is written
/// unless every download matches its digest.
#[cfg(feature = "net")]
pub fn fetch_from_network(api: &Api, base_url: Option<&str>) -> Result<FetchReport> {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .timeout_global(Some(std::time::Duration::from_secs(120)))
        .build()
        .into();
    if let Some((table, _, _, _)) = api.fact_files().first() {
        return Err(Error::Config {
            path: api.dir.join(crate::api::API_TOML),
            message: format!(
                "[facts.{}] is fetched from a mirror only; pass --from <dir> (a directory laid out like upstream-specs/{}/)",
                table.key(),
                api.name()
            ),
        });
    }
    fetch_with(api, Vec::new(), |version, file, url| {
        let url = match (base_url, url) {
            (Some(base), _) => format!("{}/{}/{file}", base.trim_end_matches('/'), version.dir_name()),
            (None, Some(url)) => url.to_owned(),
            (None, None) => {
                return Err(Error::Config {
                    path: api.dir.join(crate::api::API_TOML),
                    message: format!(
                        "[minors.\"{version}\".files.\"{file}\"] has no url; add one or pass --base-url / --from"
                    ),
                })
            }
        };
        let failed = |message: String| Error::Config {
            path: url.clone().into(),
            message,
        };
        let mut response = agent
            .get(&url)
            .call()
            .map_err(|err| failed(format!("download failed: {err}")))?;
        let bytes = response
            .body_mut()
            .with_config()
            .limit(512 * 1024 * 1024)
            .read_to_vec()
            .map_err(|err| failed(format!("download failed while reading: {err}")))?;
        Ok((url, bytes))
    })
}

/// Reads every listed file with `read` (which returns where it read from and
/// the bytes), verifies all digests, then writes what differs, with the
/// `facts` already read and verified (their target path and bytes).
fn fetch_with(
    api: &Api,
    facts: Vec<(PathBuf, Vec<u8>)>,
    mut read: impl FnMut(crate::Version, &str, Option<&str>) -> Result<(String, Vec<u8>)>,
) -> Result<FetchReport> {
    if api.listed.is_empty() {
        return Err(Error::Config {
            path: api.dir.join(crate::api::API_TOML),
            message: "lists no minors under [minors]; add each minor's spec files and their sha256"
                .into(),
        });
    }
    let mut verified = Vec::new();
    for (version, entry) in &api.listed {
        for (file, spec) in &entry.files {
            let (source, bytes) = read(*version, file, spec.url.as_deref())?;
            check_digest(Path::new(&source), &bytes, &spec.sha256)?;
            verified.push((api.dir.join(version.dir_name()).join(file), bytes));
        }
    }
    verified.extend(facts);
    let mut report = FetchReport {
        verified: verified.len(),
        written: Vec::new(),
    };
    for (target, bytes) in verified {
        if std::fs::read(&target).is_ok_and(|current| current == bytes) {
            continue;
        }
        let dir = target
            .parent()
            .expect("spec and fact files live in a directory beside api.toml");
        std::fs::create_dir_all(dir)
            .map_err(|source| Error::io(dir, "creating the file's directory", source))?;
        std::fs::write(&target, &bytes)
            .map_err(|source| Error::io(&target, "writing the spec", source))?;
        report.written.push(target);
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::sha256_hex;

    fn setup(mirror_bytes: &[u8]) -> (tempfile::TempDir, Api, PathBuf) {
        let tmp = tempfile::tempdir().unwrap();
        let api_dir = tmp.path().join("api");
        let mirror = tmp.path().join("mirror");
        std::fs::create_dir_all(&api_dir).unwrap();
        std::fs::create_dir_all(mirror.join("v1.2")).unwrap();
        std::fs::write(mirror.join("v1.2/spec.json"), mirror_bytes).unwrap();
        std::fs::write(
            api_dir.join("api.toml"),
            format!(
                "name = \"t\"\npkl_package = \"t\"\nversion_field = \"v\"\nspec_files = [\"spec.json\"]\n\
                 [minors.\"1.2\".files.\"spec.json\"]\nsha256 = \"{}\"\n",
                sha256_hex(b"{}")
            ),
        )
        .unwrap();
        let api = Api::open(&api_dir).unwrap();
        (tmp, api, mirror)
    }

    #[test]
    fn copies_verified_files_once() {
        let (_tmp, api, mirror) = setup(b"{}");
        let report = fetch_from_dir(&api, &mirror).unwrap();
        assert_eq!((report.verified, report.written.len()), (1, 1));
        assert_eq!(
            std::fs::read(api.dir.join("v1.2/spec.json")).unwrap(),
            b"{}"
        );
        assert!(fetch_from_dir(&api, &mirror).unwrap().written.is_empty());
    }

    /// Serves `root`'s files over HTTP on 127.0.0.1; returns the base URL.
    #[cfg(feature = "net")]
    fn serve(root: PathBuf) -> String {
        let server = tiny_http::Server::http("127.0.0.1:0").unwrap();
        let base = format!("http://{}", server.server_addr().to_ip().unwrap());
        std::thread::spawn(move || {
            for request in server.incoming_requests() {
                let path = root.join(request.url().trim_start_matches('/'));
                let _ = match std::fs::read(&path) {
                    Ok(bytes) => request.respond(tiny_http::Response::from_data(bytes)),
                    Err(_) => request.respond(tiny_http::Response::empty(404)),
                };
            }
        });
        base
    }

    #[cfg(feature = "net")]
    #[test]
    fn downloads_from_a_mirror_over_http() {
        let (_tmp, api, mirror) = setup(b"{}");
        let base = serve(mirror);
        let report = fetch_from_network(&api, Some(&base)).unwrap();
        assert_eq!(report.written.len(), 1);
        assert_eq!(
            std::fs::read(api.dir.join("v1.2/spec.json")).unwrap(),
            b"{}"
        );
        let missing = fetch_from_network(&api, Some(&format!("{base}/nowhere")))
            .unwrap_err()
            .to_string();
        assert!(
            missing.contains("/nowhere/v1.2/spec.json") && missing.contains("404"),
            "{missing}"
        );
    }

    #[test]
    fn a_mismatch_names_both_digests_and_writes_nothing() {
        let (_tmp, api, mirror) = setup(b"{\"tampered\": true}");
        let err = fetch_from_dir(&api, &mirror).unwrap_err().to_string();
        assert!(err.contains(&sha256_hex(b"{}")), "{err}");
        assert!(err.contains(&sha256_hex(b"{\"tampered\": true}")), "{err}");
        assert!(err.contains("mirror/v1.2/spec.json"), "{err}");
        assert!(!api.dir.join("v1.2").exists());
    }
}
