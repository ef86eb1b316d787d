//! What api.toml holds: the API's settings, its `[rust]` table and its
//! minors' spec files with their digests, as read (checked by
//! [`Api::open`](super::Api::open)).

use super::fact_tables::Facts;
use serde::Deserialize;
use std::collections::BTreeMap;

/// What api.toml says about an API.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ApiConfig {
    /// The API's name; also its directory names under `upstream-specs/` and `generated/`.
    pub name: String,
    /// One sentence on what the API is.
    #[serde(default)]
    pub description: Option<String>,
    /// What kind of API it is, which decides the rules that apply to it:
    /// `kubernetes` (the API server's own), `custom-resources` (an
    /// operator's CRDs) or `openapi` (a plain service; the default).
    #[serde(default)]
    pub dialect: Option<String>,
    /// The fact tables the API's project publishes beside its specs
    /// (`[facts.feature_gates]`, `[facts.api_lifecycle]`; the `kubernetes`
    /// dialect's), recorded by digest like the specs.
    #[serde(default)]
    pub facts: Facts,
    /// The Pkl package name (`k8s` gives `@k8s/v1.34/…`).
    pub pkl_package: String,
    /// The field of a target's Config that carries the minor (`kubernetesVersion`).
    pub version_field: String,
    /// The name of the Pkl annotation class for gates (`K8sVersion`).
    #[serde(default)]
    pub annotation_class: Option<String>,
    /// When the API's documents carry their own minor, the field that holds it
    /// (`apiVersion`); the JSON emitter then writes a combined schema.
    #[serde(default)]
    pub document_version_field: Option<String>,
    /// `[kinds]`: definitions served as resource kinds, each with the
    /// `apiVersion` it is served as (`"v1.VirtualMachine" = "kubevirt.io/v1"`;
    /// `"v1"` for the core group); the kind is the definition's short name.
    /// For a spec that says it neither by `x-kubernetes-group-version-kind`
    /// nor by Kubernetes-style paths (`load/resources.rs`); a definition the
    /// spec gives kinds keeps those.
    #[serde(default)]
    pub kinds: BTreeMap<String, String>,
    /// Where the Pkl packages are published (`https://pkg.example.com/k8s`):
    /// the root package is `package://pkg.example.com/k8s/<pkl_package>`, a
    /// minor's `…/<pkl_package>-v1.34`, their zips `<that>@<version>.zip`.
    /// Unset, they name the reserved host `pkg.vergate.invalid`: fine for
    /// local dependencies, not for publishing.
    #[serde(default)]
    pub pkl_publish_url: Option<String>,
    /// Classes (definition names) that are Pkl modules of their own in a
    /// Kubernetes-style API though one module uses them all: pkl-k8s's
    /// choice for some of `io.k8s.api.core.v1`, kept so that its users'
    /// imports resolve (`emit/pkl/owners.rs`).
    #[serde(default)]
    pub pkl_own_modules: Vec<String>,
    /// The generated Rust crate's package metadata (`[rust]`).
    #[serde(default)]
    pub rust: RustCrate,
    /// The spec file names (or `*` patterns) inside each `v<X.Y>/` directory.
    pub spec_files: Vec<String>,
    /// Per minor: each spec file's digest and public URL.
    #[serde(default)]
    pub minors: BTreeMap<String, MinorEntry>,
}

/// api.toml's `[rust]`: what the generated crate's Cargo.toml says about
/// it. Unset, the crate is `vergate-<api>`, versioned by the newest minor it
/// holds (`1.36.0`), without license or repository, and not publishable.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RustCrate {
    /// The package name (default `vergate-<api>`).
    #[serde(default)]
    pub name: Option<String>,
    /// The crate version, SemVer (default: the newest minor the crate
    /// holds, `1.36.0`, as the Pkl package's).
    #[serde(default)]
    pub version: Option<String>,
    /// Whether `cargo publish` may publish it (default false); true needs
    /// `license` and `repository`, as crates.io users expect.
    #[serde(default)]
    pub publish: bool,
    /// An SPDX license expression (`Apache-2.0`): the specs' license, which
    /// the generated code carries.
    #[serde(default)]
    pub license: Option<String>,
    /// The source repository's URL: where the specs come from
    /// (`https://github.com/kubernetes/kubernetes`), or where you keep the
    /// generated crate.
    #[serde(default)]
    pub repository: Option<String>,
}

impl RustCrate {
    /// Checks each value as cargo and crates.io would, before a regen
    /// writes a manifest they refuse; the error names the key and the fix.
    pub(super) fn check(&self) -> std::result::Result<(), String> {
        if let Some(name) = &self.name {
            let valid = name.len() <= 64
                && name.starts_with(|c: char| c.is_ascii_alphabetic())
                && name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
            if !valid {
                return Err(format!(
                    "[rust] name {name:?}: a crate name starts with a letter and holds up to 64 \
                     ASCII letters, digits, `-` and `_`, e.g. \"vergate-kubernetes\""
                ));
            }
        }
        if let Some(version) = &self.version {
            if !is_semver(version) {
                return Err(format!(
                    "[rust] version {version:?}: give a SemVer version MAJOR.MINOR.PATCH, \
                     e.g. \"1.36.0\" (or leave it out: the newest minor the crate holds)"
                ));
            }
        }
        if let Some(license) = &self.license {
            if license.trim().is_empty() {
                return Err(
                    "[rust] license is empty; give an SPDX expression, e.g. \"Apache-2.0\"".into(),
                );
            }
        }
        if let Some(repository) = &self.repository {
            let host = repository
                .strip_prefix("https://")
                .or_else(|| repository.strip_prefix("http://"))
                .unwrap_or_default();
            if host.is_empty() || host.contains(char::is_whitespace) {
                return Err(format!(
                    "[rust] repository {repository:?}: give the repository's URL, \
                     e.g. \"https://github.com/kubernetes/kubernetes\""
                ));
            }
        }
        if self.publish {
            let missing: Vec<&str> = [
                ("license", self.license.is_none()),
                ("repository", self.repository.is_none()),
            ]
            .iter()
            .filter(|(_, missing)| *missing)
            .map(|(key, _)| *key)
            .collect();
            if !missing.is_empty() {
                return Err(format!(
                    "[rust] publish = true needs {} too: crates.io shows them",
                    missing.join(" and ")
                ));
            }
        }
        Ok(())
    }
}

/// True for a SemVer version cargo takes: three numbers without leading
/// zeros, then an optional `-pre-release` and `+build`, dot-separated
/// identifiers of ASCII letters, digits and `-`.
fn is_semver(version: &str) -> bool {
    let (rest, build) = match version.split_once('+') {
        Some((rest, build)) => (rest, Some(build)),
        None => (version, None),
    };
    let (core, pre) = match rest.split_once('-') {
        Some((core, pre)) => (core, Some(pre)),
        None => (rest, None),
    };
    let number = |part: &str| {
        !part.is_empty()
            && part.bytes().all(|b| b.is_ascii_digit())
            && (part == "0" || !part.starts_with('0'))
    };
    let identifiers = |text: &str| {
        text.split('.')
            .all(|id| !id.is_empty() && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-'))
    };
    let parts: Vec<&str> = core.split('.').collect();
    parts.len() == 3
        && parts.iter().all(|part| number(part))
        && pre.is_none_or(identifiers)
        && build.is_none_or(identifiers)
}

/// One minor's entry in api.toml.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MinorEntry {
    /// Set when the minor is deprecated: why, or what users should do. It
    /// goes into gates.json; `vergate check` and runtime resolution warn.
    #[serde(default)]
    pub deprecated: Option<String>,
    /// Spec files by name.
    #[serde(default)]
    pub files: BTreeMap<String, SpecFile>,
}

/// One spec file's digest and where it is published.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpecFile {
    /// The lowercase hex sha256 of the file's bytes.
    pub sha256: String,
    /// Where the file is published upstream.
    #[serde(default)]
    pub url: Option<String>,
}
