//! Version resolution per namespace: which schema version each package is
//! narrowed to for one run over a set of targets.
//!
//! Priority, per namespace: the version in a target's Config JSON, else the
//! installed package's manifest default, else unresolved (unrestricted globs).
//! Two targets of one namespace naming different versions is an error, and so
//! is a resolved version the installed package has no subtree for.

use crate::manifest::SchemaManifest;
use crate::Version;
use std::collections::BTreeMap;

/// One target of a run: its label, the namespace (plugin) it belongs to, and
/// its Config as JSON.
#[derive(Clone, Debug)]
pub struct Target {
    pub label: String,
    pub namespace: String,
    pub config: serde_json::Value,
}

/// What the resolver knows about one namespace's installed package.
#[derive(Clone, Debug, Default)]
pub struct Package {
    /// The API's own version key (`kubernetesVersion`), accepted besides
    /// `ApiVersion`/`apiVersion`; all are matched case-insensitively.
    pub version_field: Option<String>,
    /// The installed package's manifest; `None` when it ships no version
    /// subtrees or is not installed.
    pub manifest: Option<SchemaManifest>,
}

/// How a namespace's version was decided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Resolution {
    /// A target's Config names it (the first target that does).
    FromConfig {
        version: Version,
        target: String,
        key: String,
    },
    /// No target names one; the package's highest subtree.
    ManifestDefault { version: Version },
    /// Neither: the namespace keeps its unrestricted globs.
    Unresolved,
}

impl Resolution {
    /// The version, when resolved.
    pub fn version(&self) -> Option<Version> {
        match self {
            Resolution::FromConfig { version, .. } | Resolution::ManifestDefault { version } => {
                Some(*version)
            }
            Resolution::Unresolved => None,
        }
    }
}

/// Why the versions of a run cannot be resolved.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ResolveError {
    /// Two targets of one namespace name different versions.
    #[error(
        "namespace {namespace}: target {:?} asks for version {} but target {:?} asks for {}; \
         one run narrows a package one way only: align the versions or split the targets into separate runs",
        first.0, first.1, second.0, second.1
    )]
    Conflict {
        namespace: String,
        first: (String, Version),
        second: (String, Version),
    },
    /// A target's version value is not a version.
    #[error("target {target:?}: config key {key:?}: {message}")]
    Unparsable {
        target: String,
        key: String,
        message: String,
    },
    /// The resolved version has no installed subtree.
    #[error(
        "target {target:?}: namespace {namespace} resolves to version {version}, \
         but the installed package has no {} subtree{}",
        version.dir_name(),
        installed(available, *version)
    )]
    MissingSubtree {
        namespace: String,
        target: String,
        version: Version,
        available: Vec<Version>,
    },
}

/// The end of [`ResolveError::MissingSubtree`]'s message: what is installed.
fn installed(available: &[Version], version: Version) -> String {
    if available.is_empty() {
        return " (it ships no version subtrees at all)".to_owned();
    }
    let shown: Vec<String> = available.iter().map(|v| v.to_string()).collect();
    format!(
        "; installed: {}; pick one of those or install a package that ships {version}",
        shown.join(", ")
    )
}

/// The keys that may carry a version in a Config: `ApiVersion`, `apiVersion`
/// and `version_field`, case-insensitively. Returns the key as written and
/// its value; `null` counts as absent.
pub fn config_version(
    config: &serde_json::Value,
    version_field: Option<&str>,
) -> Option<(String, serde_json::Value)> {
    let object = config.as_object()?;
    object
        .iter()
        .filter(|(_, value)| !value.is_null())
        .find(|(key, _)| {
            key.eq_ignore_ascii_case("apiVersion")
                || version_field.is_some_and(|field| key.eq_ignore_ascii_case(field))
        })
        .map(|(key, value)| (key.clone(), value.clone()))
}

/// Resolves one version per namespace for `targets`; `packages` holds the
/// installed packages by namespace. Every namespace of a target gets an entry.
pub fn resolve_schema_versions(
    targets: &[Target],
    packages: &BTreeMap<String, Package>,
) -> Result<BTreeMap<String, Resolution>, ResolveError> {
    let none = Package::default();
    let mut resolved: BTreeMap<String, Resolution> = BTreeMap::new();
    for target in targets {
        let package = packages.get(&target.namespace).unwrap_or(&none);
        let entry = resolved
            .entry(target.namespace.clone())
            .or_insert(Resolution::Unresolved);
        let Some((key, value)) = config_version(&target.config, package.version_field.as_deref())
        else {
            continue;
        };
        let version = parse_config_version(&target.label, &key, &value)?;
        match entry {
            Resolution::FromConfig {
                version: earlier,
                target: earlier_target,
                ..
            } if *earlier != version => {
                return Err(ResolveError::Conflict {
                    namespace: target.namespace.clone(),
                    first: (earlier_target.clone(), *earlier),
                    second: (target.label.clone(), version),
                });
            }
            Resolution::FromConfig { .. } => {}
            _ => {
                let available: Vec<Version> = package
                    .manifest
                    .as_ref()
                    .map(|m| m.versions.keys().copied().collect())
                    .unwrap_or_default();
                if !available.contains(&version) {
                    return Err(ResolveError::MissingSubtree {
                        namespace: target.namespace.clone(),
                        target: target.label.clone(),
                        version,
                        available,
                    });
                }
                *entry = Resolution::FromConfig {
                    version,
                    target: target.label.clone(),
                    key,
                };
            }
        }
    }
    for (namespace, resolution) in &mut resolved {
        if *resolution == Resolution::Unresolved {
            if let Some(manifest) = packages.get(namespace).and_then(|p| p.manifest.as_ref()) {
                *resolution = Resolution::ManifestDefault {
                    version: manifest.default_version(),
                };
            }
        }
    }
    Ok(resolved)
}

fn parse_config_version(
    target: &str,
    key: &str,
    value: &serde_json::Value,
) -> Result<Version, ResolveError> {
    let unparsable = |message: String| ResolveError::Unparsable {
        target: target.to_owned(),
        key: key.to_owned(),
        message,
    };
    let text = value.as_str().ok_or_else(|| {
        unparsable(format!(
            "expected a version string such as \"1.34\", found {value}; write it quoted (1.30 and 1.3 are the same number)"
        ))
    })?;
    text.parse().map_err(|err| unparsable(format!("{err}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn target(label: &str, namespace: &str, config: serde_json::Value) -> Target {
        Target {
            label: label.into(),
            namespace: namespace.into(),
            config,
        }
    }

    fn installed(versions: &[&str]) -> Package {
        let mut map = BTreeMap::new();
        for v in versions {
            map.insert(v.parse().unwrap(), format!("v{v}"));
        }
        Package {
            version_field: Some("kubernetesVersion".into()),
            manifest: (!map.is_empty()).then(|| SchemaManifest {
                dir: "/pkg".into(),
                versions: map,
            }),
        }
    }

    fn packages(entries: &[(&str, Package)]) -> BTreeMap<String, Package> {
        entries
            .iter()
            .map(|(ns, p)| ((*ns).to_owned(), p.clone()))
            .collect()
    }

    #[test]
    fn config_then_manifest_default_then_unresolved() {
        let pkgs = packages(&[
            ("K8S", installed(&["1.33", "1.34"])),
            ("DEMO", installed(&["1.9", "1.10"])),
        ]);
        let targets = [
            target("prod", "K8S", json!({"KUBERNETESVERSION": "1.33"})),
            target("ci", "DEMO", json!({"auth": {}})),
            target("aws", "AWS", json!({"region": "x"})),
        ];
        let resolved = resolve_schema_versions(&targets, &pkgs).unwrap();
        assert_eq!(
            resolved["K8S"],
            Resolution::FromConfig {
                version: Version::new(1, 33),
                target: "prod".into(),
                key: "KUBERNETESVERSION".into()
            }
        );
        assert_eq!(
            resolved["DEMO"],
            Resolution::ManifestDefault {
                version: Version::new(1, 10)
            }
        );
        assert_eq!(resolved["AWS"], Resolution::Unresolved);
    }

    #[test]
    fn both_conventional_keys_are_accepted() {
        let pkgs = packages(&[("K8S", installed(&["1.34"]))]);
        for key in [
            "ApiVersion",
            "apiVersion",
            "apiversion",
            "kubernetesVersion",
        ] {
            let targets = [target("t", "K8S", json!({ key: "v1.34" }))];
            let resolved = resolve_schema_versions(&targets, &pkgs).unwrap();
            assert_eq!(
                resolved["K8S"].version(),
                Some(Version::new(1, 34)),
                "{key}"
            );
        }
    }

    #[test]
    fn the_same_version_twice_is_fine_two_versions_conflict() {
        let pkgs = packages(&[("K8S", installed(&["1.33", "1.34"]))]);
        let same = [
            target("a", "K8S", json!({"apiVersion": "1.34"})),
            target("b", "K8S", json!({"apiVersion": "1.34.0"})),
            target("c", "K8S", json!({})),
        ];
        assert!(resolve_schema_versions(&same, &pkgs).is_ok());
        let conflicting = [
            target("east", "K8S", json!({"apiVersion": "1.34"})),
            target("west", "K8S", json!({"kubernetesVersion": "1.33"})),
        ];
        let err = resolve_schema_versions(&conflicting, &pkgs).unwrap_err();
        let text = err.to_string();
        assert!(
            text.contains("\"east\"") && text.contains("\"west\"") && text.contains("K8S"),
            "{text}"
        );
        assert!(text.contains("1.34") && text.contains("1.33"), "{text}");
    }

    #[test]
    fn a_version_without_installed_subtree_is_an_error() {
        let pkgs = packages(&[("K8S", installed(&["1.33", "1.34"]))]);
        let targets = [target("old", "K8S", json!({"apiVersion": "1.29"}))];
        let text = resolve_schema_versions(&targets, &pkgs)
            .unwrap_err()
            .to_string();
        assert!(
            text.contains("\"old\"")
                && text.contains("no v1.29 subtree")
                && text.contains("1.33, 1.34"),
            "{text}"
        );
        let unversioned = packages(&[("K8S", installed(&[]))]);
        let text = resolve_schema_versions(&targets, &unversioned)
            .unwrap_err()
            .to_string();
        assert!(text.contains("ships no version subtrees"), "{text}");
    }

    #[test]
    fn unparsable_versions_name_the_target_and_key() {
        let pkgs = packages(&[("K8S", installed(&["1.34"]))]);
        let targets = [target("t", "K8S", json!({"apiVersion": "1.x"}))];
        let text = resolve_schema_versions(&targets, &pkgs)
            .unwrap_err()
            .to_string();
        assert!(
            text.contains("\"t\"")
                && text.contains("\"apiVersion\"")
                && text.contains("\"x\" is not a number"),
            "{text}"
        );
        let targets = [target("t", "K8S", json!({"apiVersion": 1.30}))];
        let text = resolve_schema_versions(&targets, &pkgs)
            .unwrap_err()
            .to_string();
        assert!(text.contains("write it quoted"), "{text}");
    }
}
