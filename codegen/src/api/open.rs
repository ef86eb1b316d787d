//! Reading api.toml and checking every value before anything uses it;
//! each error names api.toml, the key and the fix.

use super::{Api, ApiConfig, FactTable, API_TOML};
use crate::error::{Error, Result};
use crate::model::Dialect;
use std::collections::BTreeMap;
use std::path::Path;
use vergate_core::Version;

impl Api {
    /// Reads `dir/api.toml`.
    pub fn open(dir: &Path) -> Result<Api> {
        let path = dir.join(API_TOML);
        let text = std::fs::read_to_string(&path)
            .map_err(|source| Error::io(&path, "reading the API description", source))?;
        let config: ApiConfig = toml::from_str(&text).map_err(|err| {
            let (line, column) = err
                .span()
                .map(|span| line_column(&text, span.start))
                .unwrap_or((0, 0));
            Error::Syntax {
                path: path.clone(),
                line,
                column,
                message: err.message().to_owned(),
                snippet: crate::error::snippet(&text, line, column),
            }
        })?;
        let config_error = |message: String| Error::Config {
            path: path.clone(),
            message,
        };
        if let Some(url) = &config.pkl_publish_url {
            let host = url.strip_prefix("https://").unwrap_or_default();
            if host.is_empty() || host.contains(['?', '#', ' ', '@']) {
                return Err(config_error(format!(
                    "pkl_publish_url {url:?}: give the HTTPS URL the Pkl packages are served from, e.g. \"https://pkg.example.com/k8s\""
                )));
            }
        }
        config.rust.check().map_err(config_error)?;
        for (definition, api_version) in &config.kinds {
            let (group, version) =
                vergate_core::gates::GroupVersionKind::split_api_version(api_version);
            if !crate::model::naming::is_api_version(version)
                || group.contains(['/', ' '])
                || api_version.starts_with('/')
            {
                return Err(config_error(format!(
                    "[kinds] {definition:?} = {api_version:?}: give the apiVersion the kind is served as, \
                     e.g. \"example.com/v1\" (or \"v1\" for the core group)"
                )));
            }
        }
        if config.spec_files.is_empty() {
            return Err(config_error(
                "`spec_files` is empty; name the spec file of each minor, e.g. [\"swagger.json\"]"
                    .into(),
            ));
        }
        let dialect: Dialect = match &config.dialect {
            Some(name) => name
                .parse()
                .map_err(|err| config_error(format!("{err}; say which kind of API this is")))?,
            None => Dialect::default(),
        };
        for table in FactTable::ALL {
            let Some(recorded) = config.facts.files(table) else {
                continue;
            };
            if !dialect.has_fact_tables() {
                return Err(config_error(format!(
                    "[facts.{}]: the {dialect} dialect reads no fact tables (only \"kubernetes\" does); remove it or set dialect",
                    table.key()
                )));
            }
            for (file, sha256) in &recorded.files {
                let plain = !file.is_empty()
                    && !file.starts_with('/')
                    && file
                        .split('/')
                        .all(|part| !part.is_empty() && part != "." && part != "..")
                    && !file.contains('\\');
                if !plain {
                    return Err(config_error(format!(
                        "[facts.{}.files] {file:?}: give a relative path inside {}/, without `..`",
                        table.key(),
                        table.dir_name()
                    )));
                }
                if sha256.len() != 64 || !sha256.bytes().all(|b| b.is_ascii_hexdigit()) {
                    return Err(config_error(format!(
                        "[facts.{}.files] {file:?}: sha256 must be 64 hex digits, found {sha256:?}",
                        table.key()
                    )));
                }
            }
        }
        let mut listed = BTreeMap::new();
        for (key, entry) in &config.minors {
            let version: Version = key
                .parse()
                .map_err(|err| config_error(format!("[minors.{key:?}]: {err}")))?;
            if listed.insert(version, entry.clone()).is_some() {
                return Err(config_error(format!(
                    "minor {version} is listed twice under [minors]"
                )));
            }
            for (file, spec) in &entry.files {
                if spec.sha256.len() != 64 || !spec.sha256.bytes().all(|b| b.is_ascii_hexdigit()) {
                    return Err(config_error(format!(
                        "[minors.{key:?}.files.{file:?}]: sha256 must be 64 hex digits, found {:?}",
                        spec.sha256
                    )));
                }
            }
        }
        Ok(Api {
            dir: dir.to_owned(),
            config,
            listed,
            dialect,
        })
    }
}

fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}
