//! k8s.io/api's prerelease-lifecycle files
//! (`v<X.Y>/<package>/<version>/zz_generated.prerelease-lifecycle.go`), the
//! source of the API server's deprecation warnings. Each prerelease kind
//! has up to four generated methods:
//!
//! ```go
//! func (in *DeviceClass) APILifecycleIntroduced() (major, minor int) {
//!     return 1, 32
//! }
//! func (in *FlowSchema) APILifecycleReplacement() schema.GroupVersionKind {
//!     return schema.GroupVersionKind{Group: "flowcontrol.apiserver.k8s.io", Version: "v1", Kind: "FlowSchema"}
//! }
//! ```
//!
//! The files are generated, so their form is fixed; anything else in one
//! is an error naming the line, never a guess.

use crate::error::{Error, Result};
use std::collections::BTreeMap;
use std::path::Path;
use vergate_core::gates::{ApiLifecycle, GroupVersionKind};
use vergate_core::Version;

/// What one file says: each Go type's lifecycle, by type name.
pub fn read_file(path: &Path, text: &str) -> Result<BTreeMap<String, ApiLifecycle>> {
    let mut found: BTreeMap<String, ApiLifecycle> = BTreeMap::new();
    let lines: Vec<&str> = text.lines().collect();
    for (index, line) in lines.iter().enumerate() {
        let Some(rest) = line.strip_prefix("func (in *") else {
            continue;
        };
        let failed = |message: String| Error::Config {
            path: path.to_owned(),
            message: format!("line {}: {message}", index + 1),
        };
        let (kind, rest) = rest
            .split_once(") ")
            .ok_or_else(|| failed("a method without its receiver's type".into()))?;
        let (method, _) = rest
            .split_once('(')
            .ok_or_else(|| failed("a method without its parameters".into()))?;
        let body = lines
            .get(index + 1)
            .map(|line| line.trim())
            .and_then(|line| line.strip_prefix("return "))
            .ok_or_else(|| failed(format!("{method}: no `return` on the next line")))?;
        let entry = found.entry(kind.to_owned()).or_default();
        match method {
            "APILifecycleIntroduced" => entry.introduced = Some(release(body).map_err(&failed)?),
            "APILifecycleDeprecated" => entry.deprecated = Some(release(body).map_err(&failed)?),
            "APILifecycleRemoved" => entry.removed = Some(release(body).map_err(&failed)?),
            "APILifecycleReplacement" => {
                entry.replacement = Some(replacement(body).map_err(&failed)?)
            }
            // Other generated methods (none today) say nothing of the lifecycle.
            _ => {}
        }
    }
    Ok(found)
}

/// `1, 32` → 1.32.
fn release(body: &str) -> std::result::Result<Version, String> {
    let (major, minor) = body
        .split_once(',')
        .ok_or_else(|| format!("`return {body}` is not `return <major>, <minor>`"))?;
    let number = |text: &str| {
        text.trim()
            .parse::<u32>()
            .map_err(|_| format!("`return {body}` is not `return <major>, <minor>`"))
    };
    Ok(Version::new(number(major)?, number(minor)?))
}

/// `schema.GroupVersionKind{Group: "g", Version: "v", Kind: "K"}`.
fn replacement(body: &str) -> std::result::Result<GroupVersionKind, String> {
    let fields = body
        .strip_prefix("schema.GroupVersionKind{")
        .and_then(|rest| rest.strip_suffix('}'))
        .ok_or_else(|| format!("`return {body}` is not a schema.GroupVersionKind literal"))?;
    let mut gvk = GroupVersionKind {
        group: String::new(),
        version: String::new(),
        kind: String::new(),
    };
    for field in fields.split(',').map(str::trim).filter(|f| !f.is_empty()) {
        let (key, value) = field
            .split_once(':')
            .ok_or_else(|| format!("{field:?} is not `Key: \"value\"`"))?;
        let value = value
            .trim()
            .strip_prefix('"')
            .and_then(|v| v.strip_suffix('"'))
            .ok_or_else(|| format!("{field:?}: the value is not a plain string"))?;
        match key.trim() {
            "Group" => gvk.group = value.to_owned(),
            "Version" => gvk.version = value.to_owned(),
            "Kind" => gvk.kind = value.to_owned(),
            other => return Err(format!("{other:?} is no field of a GroupVersionKind")),
        }
    }
    if gvk.version.is_empty() || gvk.kind.is_empty() {
        return Err(format!("`return {body}` names no version or kind"));
    }
    Ok(gvk)
}

/// Where a file sits: its minor, Go package and API version
/// (`v1.36/resource/v1beta1/zz_generated.prerelease-lifecycle.go`).
pub fn place(file: &str) -> Option<(Version, &str, &str)> {
    let mut parts = file.split('/');
    let minor = parts.next()?.parse().ok()?;
    let package = parts.next()?;
    let version = parts.next()?;
    let name = parts.next()?;
    (name.ends_with(".go") && parts.next().is_none()).then_some((minor, package, version))
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: &str = "package v1beta3\n\n// APILifecycleIntroduced is an autogenerated function.\nfunc (in *FlowSchema) APILifecycleIntroduced() (major, minor int) {\n\treturn 1, 26\n}\n\nfunc (in *FlowSchema) APILifecycleDeprecated() (major, minor int) {\n\treturn 1, 29\n}\n\nfunc (in *FlowSchema) APILifecycleReplacement() schema.GroupVersionKind {\n\treturn schema.GroupVersionKind{Group: \"flowcontrol.apiserver.k8s.io\", Version: \"v1\", Kind: \"FlowSchema\"}\n}\n\nfunc (in *FlowSchema) APILifecycleRemoved() (major, minor int) {\n\treturn 1, 32\n}\n";

    #[test]
    fn the_generated_methods_give_the_lifecycle() {
        let found = read_file(Path::new("x.go"), FILE).unwrap();
        let flow = &found["FlowSchema"];
        assert_eq!(flow.introduced, Some(Version::new(1, 26)));
        assert_eq!(flow.deprecated, Some(Version::new(1, 29)));
        assert_eq!(flow.removed, Some(Version::new(1, 32)));
        assert_eq!(
            flow.replacement.as_ref().unwrap().api_version(),
            "flowcontrol.apiserver.k8s.io/v1"
        );
    }

    #[test]
    fn anything_unlike_the_generator_is_an_error_with_its_line() {
        for (text, says) in [
            ("func (in *A) APILifecycleRemoved() (major, minor int) {\n\treturn 1\n}\n", "line 1"),
            ("func (in *A) APILifecycleRemoved() (major, minor int) {\n}\n", "no `return`"),
            ("\nfunc (in *A) APILifecycleReplacement() schema.GroupVersionKind {\n\treturn schema.GroupVersionKind{Group: x}\n}\n", "line 2"),
            ("func (in *A) APILifecycleReplacement() schema.GroupVersionKind {\n\treturn schema.GroupVersionKind{Group: \"g\"}\n}\n", "no version or kind"),
        ] {
            let err = read_file(Path::new("f.go"), text).unwrap_err().to_string();
            assert!(err.contains("f.go") && err.contains(says), "{text:?}: {err}");
        }
    }

    #[test]
    fn a_files_place_is_its_minor_package_and_version() {
        assert_eq!(
            place("v1.36/resource/v1beta1/zz_generated.prerelease-lifecycle.go"),
            Some((Version::new(1, 36), "resource", "v1beta1"))
        );
        assert_eq!(place("v1.36/README.md"), None);
    }
}
