//! `check`'s settings: the nearest `vergate.toml` at or above the current
//! directory (or `--config FILE`, or none with `--no-config`), with the
//! command line's flags over it (`vergate::settings::CheckConfig::overlay`).

use super::{CheckArgs, Outcome};
use vergate::settings::{CheckConfig, Settings};
use vergate::tables::GateTables;

/// What `check` runs with, and the file it came from.
pub struct Resolved {
    pub config: CheckConfig,
    pub settings: Option<Settings>,
    /// The target came from `--target`: modelines do not change it.
    pub target_from_flag: bool,
}

/// Reads the settings file `args` select and lays the flags over it; a
/// broken file is one error at its line and column (exit 2).
pub fn resolve(args: &CheckArgs) -> Result<Resolved, Outcome> {
    let settings = if args.no_config {
        Ok(None)
    } else if let Some(path) = &args.config {
        Settings::load(path).map(Some)
    } else {
        match std::env::current_dir() {
            Ok(dir) => Settings::discover(&dir),
            // No current directory (removed under the process): no settings.
            Err(_) => Ok(None),
        }
    };
    let settings = settings.map_err(|err| {
        eprintln!("error: {err}");
        Outcome::InputError
    })?;
    let flags = CheckConfig {
        target: args.target,
        crds: args.crd.clone(),
        rules: args.rules.clone(),
        feature_gates: args.feature_gates.iter().cloned().collect(),
        api: args.api.clone(),
    };
    let config = match &settings {
        Some(settings) => settings.check_config().overlay(flags),
        None => flags,
    };
    Ok(Resolved {
        config,
        settings,
        target_from_flag: args.target.is_some(),
    })
}

impl Resolved {
    /// Checks the target the settings file sets against the API's minors
    /// (a flag's is checked as a flag, by the caller): the error names the
    /// file, line and column.
    pub fn check_settings_target(&self, tables: &GateTables) -> Result<(), Outcome> {
        let Some(settings) = self.settings.as_ref().filter(|_| !self.target_from_flag) else {
            return Ok(());
        };
        match settings.target {
            Some(target) if !tables.has_version(target) => {
                if let Some(err) = settings.unknown_target(tables.api(), &tables.versions_text()) {
                    eprintln!("error: {err}");
                }
                Err(Outcome::InputError)
            }
            _ => Ok(()),
        }
    }
}
