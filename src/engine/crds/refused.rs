//! CRDs the API server refuses on create, so that no resource of theirs
//! can be created either: the server's own CRD validation
//! (apiextensions-apiserver's `pkg/apiserver/schema/validation.go`), as
//! far as vergate knows it. Each reason is said in the server's words,
//! at the server's field path.
//!
//! - a `pattern` Go's `regexp` does not compile (look-around,
//!   backreferences: RE2 syntax, read here by the `regex` crate, whose
//!   syntax is RE2's). A pattern that compiles but exceeds the `regex`
//!   crate's size limit is not a refusal: Go has no such limit.
//!
//! CEL rules over the estimated cost limits are not a refusal here: a CRD
//! given with `--crd` is on the cluster already (the server ratchets the
//! cost of a CRD it holds), so its cost is a warning (`crd_cost`).

use crate::document::Node;
use crate::walk::constraints::REGEX_SIZE_LIMIT as SIZE_LIMIT;
use serde_json::Value;
use vergate_core::gates::{is_crd, GroupVersionKind};

/// How many reasons a refused CRD's message gives (the rest are counted).
const SHOWN: usize = 1;

/// The schemas nested deeper than this are not looked into: the reader
/// bounds a document's nesting already; this keeps the recursion bounded
/// on its own.
const MAX_DEPTH: usize = 256;

/// A CRD the API server refuses on create: its group and kind (the
/// custom resources it would serve), its name and why, in the server's
/// words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct RefusedCrd {
    pub group: String,
    pub kind: String,
    pub name: String,
    pub reasons: Vec<String>,
}

impl RefusedCrd {
    /// What a custom resource of the CRD is told, at its `apiVersion`.
    pub fn message(&self, api_version: &str) -> String {
        let shown: Vec<&str> = self
            .reasons
            .iter()
            .take(SHOWN)
            .map(String::as_str)
            .collect();
        let more = match self.reasons.len().saturating_sub(SHOWN) {
            0 => String::new(),
            more => format!(" (and {more} more)"),
        };
        format!(
            "{api_version} {}: not served, as the API server refuses its CRD {} on create: {}{more}; fix the CRD",
            self.kind,
            self.name,
            shown.join("; ")
        )
    }
}

/// The CRD document `root` (as JSON), when the API server refuses it for
/// one of the reasons above that its schemas alone show (not cost).
pub(crate) fn by_schema(root: &Value) -> Option<RefusedCrd> {
    let reasons = invalid_patterns(root);
    (!reasons.is_empty()).then(|| refused(root, reasons))?
}

/// The CRD document `root` refused for `reasons`; `None` when it is no
/// CRD or names no group and kind.
pub(crate) fn refused(root: &Value, reasons: Vec<String>) -> Option<RefusedCrd> {
    let text = |pointer: &str| root.pointer(pointer).and_then(Value::as_str);
    if !is_crd(text("/apiVersion"), text("/kind")) {
        return None;
    }
    let kind = text("/spec/names/kind")?;
    Some(RefusedCrd {
        group: text("/spec/group")?.to_owned(),
        kind: kind.to_owned(),
        name: text("/metadata/name").unwrap_or(kind).to_owned(),
        reasons,
    })
}

/// True when the custom resource `root` (`apiVersion`, `kind`) is of `crd`.
pub(crate) fn is_of(crd: &RefusedCrd, root: &Node) -> bool {
    let text = |key: &str| root.get(key).and_then(Node::as_str);
    let (Some(api_version), Some(kind)) = (text("apiVersion"), text("kind")) else {
        return false;
    };
    let (group, _) = GroupVersionKind::split_api_version(api_version);
    group == crd.group && kind == crd.kind
}

/// The patterns of every version's schema that Go's `regexp` refuses, as
/// the API server says it. When every version has the same schema, the
/// server validates it once, as the top-level `spec.validation`.
fn invalid_patterns(root: &Value) -> Vec<String> {
    let Some(versions) = root.pointer("/spec/versions").and_then(Value::as_array) else {
        return Vec::new();
    };
    let schemas: Vec<Option<&Value>> = versions
        .iter()
        .map(|version| version.pointer("/schema/openAPIV3Schema"))
        .collect();
    let mut out = Vec::new();
    let identical = match schemas.split_first() {
        Some((Some(first), rest)) => rest.iter().all(|other| *other == Some(*first)),
        _ => false,
    };
    if identical {
        if let Some(Some(schema)) = schemas.first() {
            patterns(schema, "spec.validation.openAPIV3Schema", 0, &mut out);
        }
        return out;
    }
    for (index, schema) in schemas.iter().enumerate() {
        if let Some(schema) = schema {
            let at = format!("spec.versions[{index}].schema.openAPIV3Schema");
            patterns(schema, &at, 0, &mut out);
        }
    }
    out
}

/// Adds the refused patterns of `schema` (at the field path `at`) and of
/// the schemas inside it, as apiextensions walks them.
fn patterns(schema: &Value, at: &str, depth: usize, out: &mut Vec<String>) {
    let Value::Object(object) = schema else {
        return;
    };
    if depth > MAX_DEPTH {
        return;
    }
    if let Some(Value::String(pattern)) = object.get("pattern") {
        if let Some(why) = go_refuses(pattern) {
            out.push(format!(
                "{at}.pattern: Invalid value: {pattern:?}: must be a valid regular expression, but isn't: error parsing regexp: {why}"
            ));
        }
    }
    for key in ["properties", "patternProperties"] {
        if let Some(Value::Object(members)) = object.get(key) {
            for (name, member) in members {
                patterns(member, &format!("{at}.{key}[{name}]"), depth + 1, out);
            }
        }
    }
    for key in ["items", "additionalProperties", "not"] {
        if let Some(member @ Value::Object(_)) = object.get(key) {
            patterns(member, &format!("{at}.{key}"), depth + 1, out);
        }
    }
    for key in ["allOf", "anyOf", "oneOf"] {
        if let Some(Value::Array(members)) = object.get(key) {
            for (index, member) in members.iter().enumerate() {
                patterns(member, &format!("{at}.{key}[{index}]"), depth + 1, out);
            }
        }
    }
}

/// Why Go's `regexp.Compile` refuses `pattern`, as near its words as
/// known (`invalid or unsupported Perl syntax: `(?!``); `None` when RE2
/// syntax takes it.
fn go_refuses(pattern: &str) -> Option<String> {
    let error = regex::RegexBuilder::new(pattern)
        .size_limit(SIZE_LIMIT)
        .dfa_size_limit(SIZE_LIMIT)
        .build()
        .err()?;
    let regex::Error::Syntax(text) = error else {
        // Too big for the regex crate's limit; Go's has none so low.
        return None;
    };
    // Go names the group opener of a look-around it does not take.
    for opener in ["(?=", "(?!", "(?<=", "(?<!"] {
        if pattern.contains(opener) {
            return Some(format!(
                "invalid or unsupported Perl syntax: `{}`",
                &opener[..3]
            ));
        }
    }
    let last = text.lines().last().unwrap_or_default().trim();
    Some(last.strip_prefix("error: ").unwrap_or(last).to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn crd(versions: Value) -> Value {
        json!({
            "apiVersion": "apiextensions.k8s.io/v1",
            "kind": "CustomResourceDefinition",
            "metadata": {"name": "widgets.example.com"},
            "spec": {"group": "example.com", "names": {"kind": "Widget"}, "versions": versions}
        })
    }

    fn schema(pattern: &str) -> Value {
        json!({"openAPIV3Schema": {"type": "object", "properties": {"spec": {
            "type": "object", "properties": {
                "prefix": {"type": "string", "pattern": pattern},
                "tags": {"type": "array", "items": {"type": "string", "pattern": "^[a-z]+$"}}
            }
        }}}})
    }

    #[test]
    fn a_look_ahead_pattern_refuses_the_crd_at_the_servers_path() {
        let root = crd(json!([
            {"name": "v1", "schema": schema("^[a-z]+$")},
            {"name": "v2", "schema": schema("^(?!kube-).*$")}
        ]));
        let refused = by_schema(&root).unwrap();
        assert_eq!(refused.kind, "Widget");
        assert_eq!(
            refused.reasons,
            ["spec.versions[1].schema.openAPIV3Schema.properties[spec].properties[prefix].pattern: Invalid value: \"^(?!kube-).*$\": must be a valid regular expression, but isn't: error parsing regexp: invalid or unsupported Perl syntax: `(?!`"]
        );
        let message = refused.message("example.com/v2");
        assert!(message.starts_with("example.com/v2 Widget: not served, as the API server refuses its CRD widgets.example.com on create: spec.versions[1]"), "{message}");
    }

    #[test]
    fn identical_schemas_are_the_top_level_validation_and_valid_ones_pass() {
        let root = crd(json!([
            {"name": "v1", "schema": schema("(a")},
            {"name": "v2", "schema": schema("(a")}
        ]));
        let reasons = by_schema(&root).unwrap().reasons;
        assert_eq!(reasons.len(), 1);
        assert!(reasons[0].starts_with(
            "spec.validation.openAPIV3Schema.properties[spec].properties[prefix].pattern: Invalid value: \"(a\""
        ), "{reasons:?}");
        let fine = crd(json!([{"name": "v1", "schema": schema("^[a-z]([-a-z0-9]*)?$")}]));
        assert_eq!(by_schema(&fine), None);
    }
}
