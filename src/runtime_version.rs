//! Runtime resolution: the minor a plugin talks to at apply time.
//!
//! Priority, like the Kubernetes plugin's: the explicit config value, then an
//! environment variable, then a discovery callback (the cluster's `/version`).
//! The result is checked against the supported minors; a deprecated minor is
//! accepted with a warning.
//!
//! ```
//! use vergate::runtime_version::{RuntimeResolver, Supported};
//! use vergate::Version;
//!
//! let supported = Supported::range(Version::new(1, 31), Version::new(1, 36))
//!     .deprecate(Version::new(1, 31), "upstream support ended");
//! let resolved = RuntimeResolver::new(&supported)
//!     .explicit(None)
//!     .env_var("FORMAE_K8S_VERSION")
//!     .discovery(|| Ok("v1.31.4-gke.100".to_owned()))
//!     .resolve()
//!     .unwrap();
//! assert_eq!(resolved.version, Version::new(1, 31));
//! assert!(resolved.warning.unwrap().contains("deprecated"));
//! ```

use crate::Version;
use std::collections::BTreeMap;
use std::fmt;

/// The minors a plugin supports and those it deprecates (with why).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Supported {
    pub min: Version,
    pub max: Version,
    pub deprecated: BTreeMap<Version, String>,
}

impl Supported {
    /// Every minor from `min` to `max`, both included.
    pub fn range(min: Version, max: Version) -> Supported {
        Supported {
            min,
            max,
            deprecated: BTreeMap::new(),
        }
    }

    /// The range of an API's minors (gates.json `versions`); `None` when empty.
    pub fn of_versions(versions: &[Version]) -> Option<Supported> {
        let min = versions.iter().min()?;
        let max = versions.iter().max()?;
        Some(Supported::range(*min, *max))
    }

    /// The minors of a gates index, with the deprecations api.toml recorded
    /// (the `engine` feature, which reads the index).
    #[cfg(feature = "engine")]
    pub fn of_index(index: &crate::gates::GatesIndex) -> Option<Supported> {
        let mut supported = Supported::of_versions(&index.versions)?;
        supported.deprecated = index.deprecated_versions.clone();
        Some(supported)
    }

    /// Marks `version` deprecated; `note` says why or what to do.
    pub fn deprecate(mut self, version: Version, note: impl Into<String>) -> Supported {
        self.deprecated.insert(version, note.into());
        self
    }

    /// True when `version` is in the range.
    pub fn contains(&self, version: Version) -> bool {
        self.min <= version && version <= self.max
    }
}

/// Where the runtime version came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// The plugin's config.
    Explicit,
    /// The named environment variable.
    Env(String),
    /// The discovery callback.
    Discovery,
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Source::Explicit => f.write_str("the config"),
            Source::Env(name) => write!(f, "${name}"),
            Source::Discovery => f.write_str("discovery"),
        }
    }
}

/// A resolved runtime version.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuntimeVersion {
    pub version: Version,
    pub source: Source,
    /// Set when the minor is deprecated: say it to the user.
    pub warning: Option<String>,
}

/// Why no runtime version could be resolved.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RuntimeVersionError {
    /// Neither config, environment nor discovery gave a version.
    #[error(
        "no API version: set it in the config{}, or make the server reachable for discovery",
        env_var.as_ref().map(|name| format!(" or in ${name}")).unwrap_or_default()
    )]
    NotFound { env_var: Option<String> },
    /// A source gave a string that is no version.
    #[error("the version from {from}: {message}")]
    Unparsable { from: Source, message: String },
    /// Discovery failed.
    #[error("version discovery failed: {0}; set the version in the config to skip discovery")]
    Discovery(String),
    /// The version is outside the supported range.
    #[error(
        "version {version} (from {from}) is not supported: this plugin supports {} to {}",
        supported.0, supported.1
    )]
    Unsupported {
        version: Version,
        from: Source,
        supported: (Version, Version),
    },
}

type Discovery<'a> = Box<dyn FnOnce() -> Result<String, String> + 'a>;
type EnvLookup<'a> = Box<dyn Fn(&str) -> Option<String> + 'a>;

/// Resolves the runtime version through config → environment → discovery.
pub struct RuntimeResolver<'a> {
    supported: &'a Supported,
    explicit: Option<String>,
    env_var: Option<String>,
    env: EnvLookup<'a>,
    discovery: Option<Discovery<'a>>,
}

impl<'a> RuntimeResolver<'a> {
    /// A resolver checking against `supported`, with no sources yet.
    pub fn new(supported: &'a Supported) -> Self {
        RuntimeResolver {
            supported,
            explicit: None,
            env_var: None,
            env: Box::new(|name| std::env::var(name).ok()),
            discovery: None,
        }
    }

    /// The version from the plugin's config, if set (empty counts as unset).
    pub fn explicit(mut self, version: Option<&str>) -> Self {
        self.explicit = version.filter(|v| !v.trim().is_empty()).map(str::to_owned);
        self
    }

    /// The environment variable consulted second.
    pub fn env_var(mut self, name: &str) -> Self {
        self.env_var = Some(name.to_owned());
        self
    }

    /// Replaces the process environment (for tests and embedding).
    pub fn env_lookup(mut self, lookup: impl Fn(&str) -> Option<String> + 'a) -> Self {
        self.env = Box::new(lookup);
        self
    }

    /// The discovery callback consulted last; it returns the server's version
    /// string (`v1.34.2`, `v1.31.4-gke.100`) or why it could not.
    pub fn discovery(mut self, discover: impl FnOnce() -> Result<String, String> + 'a) -> Self {
        self.discovery = Some(Box::new(discover));
        self
    }

    /// Runs the chain. Discovery is only called when config and environment
    /// say nothing.
    pub fn resolve(self) -> Result<RuntimeVersion, RuntimeVersionError> {
        let (text, source) = if let Some(text) = self.explicit {
            (text, Source::Explicit)
        } else if let Some((name, text)) = self.env_var.as_ref().and_then(|name| {
            (self.env)(name)
                .filter(|v| !v.trim().is_empty())
                .map(|v| (name.clone(), v))
        }) {
            (text, Source::Env(name))
        } else if let Some(discover) = self.discovery {
            let text = discover().map_err(RuntimeVersionError::Discovery)?;
            (server_minor(&text).to_owned(), Source::Discovery)
        } else {
            return Err(RuntimeVersionError::NotFound {
                env_var: self.env_var,
            });
        };
        let version: Version = text
            .trim()
            .parse()
            .map_err(
                |err: crate::ParseVersionError| RuntimeVersionError::Unparsable {
                    from: source.clone(),
                    message: err.to_string(),
                },
            )?;
        if !self.supported.contains(version) {
            return Err(RuntimeVersionError::Unsupported {
                version,
                from: source,
                supported: (self.supported.min, self.supported.max),
            });
        }
        let warning = self.supported.deprecated.get(&version).map(|note| {
            format!(
                "version {version} (from {source}) is deprecated: {note}; supported up to {}",
                self.supported.max
            )
        });
        Ok(RuntimeVersion {
            version,
            source,
            warning,
        })
    }
}

/// A server's version string without its build suffix: `v1.31.4-gke.100` →
/// `v1.31.4`, `1.29+` → `1.29`.
fn server_minor(text: &str) -> &str {
    let text = text.trim();
    text.split(['-', '+']).next().unwrap_or(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    fn supported() -> Supported {
        Supported::range(Version::new(1, 31), Version::new(1, 36))
            .deprecate(Version::new(1, 31), "upstream support ended")
    }

    #[test]
    fn explicit_wins_and_discovery_is_not_called() {
        let s = supported();
        let called = Cell::new(false);
        let resolved = RuntimeResolver::new(&s)
            .explicit(Some("1.34"))
            .env_var("X")
            .env_lookup(|_| Some("1.33".into()))
            .discovery(|| {
                called.set(true);
                Ok("1.32".into())
            })
            .resolve()
            .unwrap();
        assert_eq!(resolved.version, Version::new(1, 34));
        assert_eq!(resolved.source, Source::Explicit);
        assert_eq!(resolved.warning, None);
        assert!(!called.get());
    }

    #[test]
    fn env_then_discovery() {
        let s = supported();
        let resolved = RuntimeResolver::new(&s)
            .explicit(Some(" "))
            .env_var("FORMAE_K8S_VERSION")
            .env_lookup(|name| (name == "FORMAE_K8S_VERSION").then(|| "v1.33".into()))
            .resolve()
            .unwrap();
        assert_eq!(resolved.version, Version::new(1, 33));
        assert_eq!(resolved.source, Source::Env("FORMAE_K8S_VERSION".into()));
        let resolved = RuntimeResolver::new(&s)
            .env_var("FORMAE_K8S_VERSION")
            .env_lookup(|_| None)
            .discovery(|| Ok("v1.35.2-eks.7".into()))
            .resolve()
            .unwrap();
        assert_eq!(resolved.version, Version::new(1, 35));
        assert_eq!(resolved.source, Source::Discovery);
    }

    #[test]
    fn outside_the_range_is_an_error_saying_the_range() {
        let s = supported();
        let err = RuntimeResolver::new(&s)
            .explicit(Some("1.29"))
            .resolve()
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("1.29") && err.contains("supports 1.31 to 1.36"),
            "{err}"
        );
    }

    #[cfg(feature = "engine")]
    #[test]
    fn deprecations_come_from_the_gates_index() {
        let text = r#"{"api": "demo", "versions": ["1.9", "1.10"], "deprecated_versions": {"1.9": "leaves support"}, "types": {}}"#;
        let index: crate::gates::GatesIndex = serde_json::from_str(text).unwrap();
        let supported = Supported::of_index(&index).unwrap();
        assert_eq!(
            (supported.min, supported.max),
            (Version::new(1, 9), Version::new(1, 10))
        );
        assert_eq!(supported.deprecated[&Version::new(1, 9)], "leaves support");
    }

    #[test]
    fn deprecated_warns() {
        let s = supported();
        let resolved = RuntimeResolver::new(&s)
            .env_var("V")
            .env_lookup(|_| Some("1.31".into()))
            .resolve()
            .unwrap();
        let warning = resolved.warning.unwrap();
        assert!(
            warning.contains("deprecated")
                && warning.contains("$V")
                && warning.contains("upstream support ended"),
            "{warning}"
        );
    }

    #[test]
    fn nothing_unparsable_and_failed_discovery() {
        let s = supported();
        let err = RuntimeResolver::new(&s)
            .env_var("V")
            .env_lookup(|_| None)
            .resolve()
            .unwrap_err();
        assert!(err.to_string().contains("$V"), "{err}");
        let err = RuntimeResolver::new(&s)
            .explicit(Some("latest"))
            .resolve()
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("the config") && err.contains("\"latest\""),
            "{err}"
        );
        let err = RuntimeResolver::new(&s)
            .discovery(|| Err("connection refused".into()))
            .resolve()
            .unwrap_err()
            .to_string();
        assert!(err.contains("connection refused"), "{err}");
    }

    #[test]
    fn range_from_versions() {
        let versions = [Version::new(1, 10), Version::new(1, 9)];
        let s = Supported::of_versions(&versions).unwrap();
        assert_eq!((s.min, s.max), (Version::new(1, 9), Version::new(1, 10)));
        assert_eq!(Supported::of_versions(&[]), None);
    }
}
