//! CRDs the API server refuses on create, so that no resource of theirs
//! can be created either: the server's own CRD validation
//! (apiextensions-apiserver's `pkg/apiserver/schema/validation.go`), as
//! far as vergate knows it. Each reason is said in the server's words,
//! at the server's field path.
//!
//! - a schema `type` that is none of OpenAPI v3's six (`strign`, `null`:
//!   apiextensions' `requireValidPropertyType`, always on for a create);
//! - a `pattern` Go's `regexp` does not compile (look-around,
//!   backreferences: RE2 syntax, read here by the `regex` crate, whose
//!   syntax is RE2's: its syntax is parsed, no automaton built). A
//!   pattern too big for the `regex` crate's size limit is no refusal: Go
//!   has no such limit.
//!
//! - CEL rules over the estimated cost limits (`super::cost`), for a CRD
//!   among the inputs only: it is created with them. A CRD given with
//!   `--crd` is on the cluster already (the server ratchets the cost of a
//!   CRD it holds), so its cost is a warning (`crd_cost`) and its custom
//!   resources are served.

use crate::cel::schema::written::{self, Written};
use crate::document::Node;
use crate::walk::go_quoted;
use serde_json::Value;
use std::cell::RefCell;
use std::collections::HashMap;
use vergate_core::gates::{is_crd, GroupVersionKind};

/// How many reasons a refused CRD's message gives (the rest are counted).
const SHOWN: usize = 1;

/// The schema types apiextensions takes, in the order its message lists
/// them (`openapiV3Types.List()`, sorted).
const OPENAPI_TYPES: [&str; 6] = ["array", "boolean", "integer", "number", "object", "string"];

/// A CRD the API server refuses on create: its group and kind (the
/// custom resources it would serve), its name and why, in the server's
/// words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct RefusedCrd {
    pub group: String,
    pub kind: String,
    pub name: String,
    pub reasons: Vec<Reason>,
}

/// One reason the API server gives for refusing a CRD: the field path in
/// the CRD and the message, as a status cause holds them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Reason {
    pub field: String,
    pub message: String,
    /// Where in the CRD document the refused value is (a JSON pointer; for
    /// identical versions, in the first), for its line.
    pub pointer: String,
}

impl std::fmt::Display for Reason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

impl RefusedCrd {
    /// What a custom resource of the CRD is told, at its `apiVersion`.
    pub fn message(&self, api_version: &str) -> String {
        let shown: Vec<String> = self
            .reasons
            .iter()
            .take(SHOWN)
            .map(Reason::to_string)
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
    let reasons = root.get("spec").map(schema_reasons).unwrap_or_default();
    (!reasons.is_empty()).then(|| refused(root, reasons))?
}

/// The CRD document `root` refused for `reasons`; `None` when it is no
/// CRD or names no group and kind.
pub(crate) fn refused(root: &Value, reasons: Vec<Reason>) -> Option<RefusedCrd> {
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
    // A CRD document is the server's own kind, whatever a CRD claims to
    // serve (kubectl-validate's suite has one that names it): its refusal
    // is the CRD's own check (`go_validation::apiextensions`).
    if is_crd(Some(api_version), Some(kind)) {
        return false;
    }
    let (group, _) = GroupVersionKind::split_api_version(api_version);
    group == crd.group && kind == crd.kind
}

/// What the API server refuses in every version's schema (types and
/// patterns), in its words, as it walks them: each schema of
/// [`written::walk`], with identical versions' once
/// ([`written::versions`]). `spec` is the CRD's, as JSON or as the
/// document read.
pub(crate) fn schema_reasons<V: Written>(spec: &V) -> Vec<Reason> {
    let mut out = Vec::new();
    for (at, schema) in written::versions(spec, true) {
        written::walk(schema, &mut |schema, steps| {
            let reason = |key: &str, message: String| Reason {
                field: format!("{}.{key}", written::server_field(&at.field, steps)),
                message,
                pointer: format!("{}/{key}", written::pointer(&at.pointer, steps)),
            };
            if let Some(kind) = schema.get("type").and_then(Written::text) {
                if !kind.is_empty() && !OPENAPI_TYPES.contains(&kind) {
                    let supported: Vec<String> =
                        OPENAPI_TYPES.iter().map(|t| format!("{t:?}")).collect();
                    out.push(reason(
                        "type",
                        format!(
                            "Unsupported value: {}: supported values: {}",
                            go_quoted(kind),
                            supported.join(", ")
                        ),
                    ));
                }
                if kind == "null" {
                    out.push(reason(
                        "type",
                        "Forbidden: type cannot be set to null, use nullable as an alternative"
                            .to_owned(),
                    ));
                }
            }
            if let Some(pattern) = schema.get("pattern").and_then(Written::text) {
                if let Some(why) = go_refuses_remembered(pattern) {
                    out.push(reason("pattern", format!("Invalid value: {}: must be a valid regular expression, but isn't: error parsing regexp: {why}", go_quoted(pattern))));
                }
            }
        });
    }
    out
}

/// The most patterns [`go_refuses_remembered`] keeps per thread, and the
/// longest it keeps: 4,096 of 1 KiB at most, 4 MiB a thread.
const REMEMBERED: usize = 4096;
const REMEMBERED_LEN: usize = 1024;

/// [`go_refuses`], each pattern parsed once per thread: CRDs repeat their
/// patterns (a hostname's or a name's in many fields, the same field in
/// every version, the same CRD in several inputs).
fn go_refuses_remembered(pattern: &str) -> Option<String> {
    thread_local! {
        static VERDICTS: RefCell<HashMap<Box<str>, Option<String>>> = RefCell::default();
    }
    if pattern.len() > REMEMBERED_LEN {
        return go_refuses(pattern);
    }
    VERDICTS.with(|verdicts| {
        if let Some(verdict) = verdicts.borrow().get(pattern) {
            return verdict.clone();
        }
        let verdict = go_refuses(pattern);
        let mut verdicts = verdicts.borrow_mut();
        if verdicts.len() < REMEMBERED {
            verdicts.insert(pattern.into(), verdict.clone());
        }
        verdict
    })
}

/// Why Go's `regexp.Compile` refuses `pattern`, as near its words as
/// known (`invalid or unsupported Perl syntax: `(?!``); `None` when RE2
/// syntax takes it. Only the syntax is read (`regex_syntax`'s parser, with
/// the settings the `regex` crate parses with: its syntax errors are the
/// parser's), no automaton built: the check asks whether the pattern is
/// valid, and a pattern too big to compile is no refusal (Go has no such
/// limit). The parser's nesting limit bounds its work.
fn go_refuses(pattern: &str) -> Option<String> {
    let error = regex_syntax::ParserBuilder::new()
        .build()
        .parse(pattern)
        .err()?;
    // Go names the group opener of a look-around it does not take.
    for opener in ["(?=", "(?!", "(?<=", "(?<!"] {
        if pattern.contains(opener) {
            return Some(format!(
                "invalid or unsupported Perl syntax: `{}`",
                &opener[..3]
            ));
        }
    }
    let text = error.to_string();
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
            refused.reasons.iter().map(Reason::to_string).collect::<Vec<_>>(),
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
        assert!(reasons[0].to_string().starts_with(
            "spec.validation.openAPIV3Schema.properties[spec].properties[prefix].pattern: Invalid value: \"(a\""
        ), "{reasons:?}");
        let fine = crd(json!([{"name": "v1", "schema": schema("^[a-z]([-a-z0-9]*)?$")}]));
        assert_eq!(by_schema(&fine), None);
    }

    #[test]
    fn a_type_openapi_does_not_have_refuses_the_crd() {
        let typo = json!({"openAPIV3Schema": {"type": "object", "properties": {"spec": {
            "type": "object", "properties": {"message": {"type": "strign"}, "gone": {"type": "null"}}
        }}}});
        let reasons = by_schema(&crd(json!([{"name": "v1", "schema": typo}])))
            .unwrap()
            .reasons;
        let shown: Vec<String> = reasons.iter().map(Reason::to_string).collect();
        assert_eq!(
            shown,
            [
                "spec.validation.openAPIV3Schema.properties[spec].properties[gone].type: Unsupported value: \"null\": supported values: \"array\", \"boolean\", \"integer\", \"number\", \"object\", \"string\"",
                "spec.validation.openAPIV3Schema.properties[spec].properties[gone].type: Forbidden: type cannot be set to null, use nullable as an alternative",
                "spec.validation.openAPIV3Schema.properties[spec].properties[message].type: Unsupported value: \"strign\": supported values: \"array\", \"boolean\", \"integer\", \"number\", \"object\", \"string\"",
            ]
        );
    }

    /// The parser's verdict and words are those of the `regex` crate's
    /// build (which `pattern` constraints use), for valid patterns,
    /// syntax errors of the parser and of the translation, and a pattern
    /// nested past the limit; only a pattern too big to compile differs,
    /// refused by neither.
    #[test]
    fn a_remembered_verdict_is_the_parsers() {
        let long = format!("({}", "a".repeat(REMEMBERED_LEN));
        for pattern in ["(a", "^[a-z]+$", long.as_str()] {
            for _ in 0..2 {
                assert_eq!(go_refuses_remembered(pattern), go_refuses(pattern));
            }
        }
        assert!(go_refuses_remembered(&long).is_some());
    }

    #[test]
    fn the_syntax_parser_refuses_what_the_regex_crate_refuses() {
        let deep = format!("{}a{}", "(".repeat(300), ")".repeat(300));
        let patterns = [
            "^[a-z]([-a-z0-9]*[a-z0-9])?$",
            r"^\d+(\.\d+)?(Mi|Gi)$",
            r"\p{Greek}+\w\b",
            "(?P<name>x)(?i:y)",
            "(a",
            "a)",
            "[z-a]",
            "x{2,1}",
            r"\p{NoSuchClass}",
            r"(?-u)\xFF",
            r"\1",
            "^(?!kube-).*$",
            "(?<=a)b",
            "*a",
            "a**",
            r"\Q",
            deep.as_str(),
        ];
        for pattern in patterns {
            let by_regex = match regex::RegexBuilder::new(pattern)
                .size_limit(1 << 20)
                .build()
            {
                Err(regex::Error::Syntax(text)) => {
                    let last = text.lines().last().unwrap_or_default().trim().to_owned();
                    Some(last.strip_prefix("error: ").unwrap_or(&last).to_owned())
                }
                _ => None,
            };
            let by_regex = by_regex.map(|why| {
                ["(?=", "(?!", "(?<=", "(?<!"]
                    .iter()
                    .find(|opener| pattern.contains(**opener))
                    .map_or(why, |opener| {
                        format!("invalid or unsupported Perl syntax: `{}`", &opener[..3])
                    })
            });
            assert_eq!(go_refuses(pattern), by_regex, "{pattern}");
        }
        assert!(go_refuses("(a").is_some() && go_refuses(&deep).is_some());
        // Compiles past the size limit: no refusal, as before.
        assert_eq!(go_refuses(r"\w{1000}\w{1000}"), None);
    }
}
