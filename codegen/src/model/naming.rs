//! How a definition name reads: its namespace, short name, API version and
//! group. The one place every emitter's naming starts from: Pkl's module
//! paths (`emit/pkl/definition_modules.rs`), Rust's module paths (`emit/rust/paths.rs`)
//! and JSON Schema's file names (`emit/json_schema/naming.rs`) each apply
//! their ecosystem's rule to these parts.

/// The last dot-separated segment of a definition name
/// (`io.k8s.api.core.v1.ServiceSpec` → `ServiceSpec`).
pub fn short_name(name: &str) -> &str {
    name.rsplit('.').next().unwrap_or(name)
}

/// The namespace of a definition name: everything before its last dot
/// (`io.k8s.api.core.v1`; `""` for a name without one).
pub fn namespace_of(name: &str) -> &str {
    name.rsplit_once('.').map_or("", |(namespace, _)| namespace)
}

/// The segments of a namespace, empty ones left out.
pub fn namespace_segments(namespace: &str) -> Vec<&str> {
    namespace.split('.').filter(|s| !s.is_empty()).collect()
}

/// A namespace whose last segment is an API version, split around it:
/// `io.k8s.api.apps.v1` is `before` `[io, k8s, api]`, `group` `apps`,
/// `version` `v1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Versioned<'s> {
    /// The segments in front of the group segment.
    pub before: &'s [&'s str],
    /// The segment just before the version (the group, as the namespace
    /// spells it).
    pub group: &'s str,
    /// The API version segment (`v1`, `v2beta1`).
    pub version: &'s str,
}

/// `segments` split around its API version, when the last segment is one
/// and a segment comes before it.
pub fn versioned<'s>(segments: &'s [&'s str]) -> Option<Versioned<'s>> {
    let (version, rest) = segments.split_last()?;
    let (group, before) = rest.split_last()?;
    is_api_version(version).then_some(Versioned {
        before,
        group,
        version,
    })
}

/// The first label of a served group (`networking.k8s.io` → `networking`;
/// the core group `""` stays `""`).
pub fn group_label(group: &str) -> &str {
    group.split('.').next().unwrap_or_default()
}

/// True for API version segments: `v1`, `v2beta1`, `v1alpha3`.
pub fn is_api_version(segment: &str) -> bool {
    parse_api_version(segment).is_some()
}

/// Kubernetes' version priority: GA over beta over alpha, then by major,
/// then by the pre-release number. Unparsable versions sort lowest.
pub fn version_priority(segment: &str) -> (u8, u32, u32) {
    parse_api_version(segment).unwrap_or((0, 0, 0))
}

/// (stage: 3 GA, 2 beta, 1 alpha; major; pre-release number).
fn parse_api_version(segment: &str) -> Option<(u8, u32, u32)> {
    let rest = segment.strip_prefix('v')?;
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let major: u32 = rest[..digits].parse().ok()?;
    let tail = &rest[digits..];
    if tail.is_empty() {
        return Some((3, major, 0));
    }
    let (stage, number) = if let Some(n) = tail.strip_prefix("beta") {
        (2, n)
    } else if let Some(n) = tail.strip_prefix("alpha") {
        (1, n)
    } else {
        return None;
    };
    if number.is_empty() || !number.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((stage, major, number.parse().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn api_versions_and_priority() {
        for yes in ["v1", "v2", "v1beta1", "v2alpha3"] {
            assert!(is_api_version(yes), "{yes}");
        }
        for no in ["v", "v1.34", "vbeta1", "v1beta", "core", "v1gamma1"] {
            assert!(!is_api_version(no), "{no}");
        }
        let mut versions = ["v1alpha1", "v1", "v2beta2", "v1beta1", "v2", "v1beta3"];
        versions.sort_by_key(|v| std::cmp::Reverse(version_priority(v)));
        assert_eq!(
            versions,
            ["v2", "v1", "v2beta2", "v1beta3", "v1beta1", "v1alpha1"]
        );
    }

    #[test]
    fn parts_of_a_name() {
        let name = "io.k8s.api.apps.v1.Deployment";
        assert_eq!(short_name(name), "Deployment");
        assert_eq!(namespace_of(name), "io.k8s.api.apps.v1");
        assert_eq!((short_name("Bare"), namespace_of("Bare")), ("Bare", ""));
        let segments = namespace_segments(namespace_of(name));
        assert_eq!(
            versioned(&segments),
            Some(Versioned {
                before: &["io", "k8s", "api"],
                group: "apps",
                version: "v1"
            })
        );
        assert_eq!(versioned(&["io", "resource"]), None);
        assert_eq!(versioned(&["v1"]), None);
        assert_eq!(group_label("networking.k8s.io"), "networking");
        assert_eq!(group_label(""), "");
    }
}
