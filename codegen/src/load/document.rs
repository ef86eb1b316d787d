//! Reading one spec file into a JSON value: JSON or YAML, with syntax errors
//! reported at their line:column with a snippet.

use super::yaml::{yaml_error, yaml_to_json};
use crate::error::{snippet, Error, Result};
use crate::model::ResourcePath;
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::path::Path;
use vergate_core::gates::GroupVersionKind;

/// The parts of a spec document the model reads. Everything else (paths,
/// parameters, …) is skipped while parsing, without being built in memory.
#[derive(serde::Deserialize)]
struct Skeleton {
    swagger: Option<Value>,
    openapi: Option<Value>,
    definitions: Option<Value>,
    components: Option<Components>,
    #[serde(default)]
    paths: BTreeMap<String, super::resources::PathItem>,
}

#[derive(serde::Deserialize)]
struct Components {
    schemas: Option<Value>,
}

/// The schema-bearing sections of one spec document.
#[derive(Debug)]
pub struct Document {
    /// `"2.0"` for OpenAPI 2 (`swagger`), `"3.x"` for OpenAPI 3 (`openapi`).
    pub openapi_version: String,
    /// A value shaped like the document but holding only `definitions` (v2) or
    /// `components.schemas` (v3), so local JSON pointers resolve against it.
    pub root: Value,
    /// The JSON pointer of the definitions object: `/definitions` or
    /// `/components/schemas`.
    pub definitions_pointer: &'static str,
    /// The deprecation warning of each definition that has one (a CRD
    /// version's `deprecationWarning`; see `crd.rs`).
    pub deprecation_warnings: std::collections::BTreeMap<String, String>,
    /// The CRDs the definitions were read from (none for OpenAPI): their
    /// custom resources' `metadata` refers to ObjectMeta.
    pub crds: Vec<CrdVersions>,
    /// Where each kind is served (`load/resources.rs`).
    pub resources: BTreeMap<GroupVersionKind, ResourcePath>,
    /// The kinds told only by the request bodies of `paths`, where no
    /// operation has `x-kubernetes-group-version-kind` (`load/resources.rs`).
    pub path_kinds: Vec<super::resources::PathKind>,
}

/// One CRD's name, group, kind and versions: what `vergate check` tells a
/// custom resource of an unserved version.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CrdVersions {
    /// `metadata.name` (`servicemonitors.monitoring.coreos.com`).
    pub name: String,
    pub group: String,
    pub kind: String,
    /// The versions served, in the CRD's order.
    pub served: Vec<String>,
    /// The versions listed but not served.
    pub unserved: Vec<String>,
    /// Where its kind is served: `spec.names.plural` and `spec.scope`.
    pub resource: Option<ResourcePath>,
}

/// Parses an OpenAPI spec file's bytes, YAML or JSON.
pub(super) fn parse_openapi(path: &Path, bytes: &[u8], is_yaml: bool) -> Result<Document> {
    let skeleton: Skeleton = if is_yaml {
        parse_yaml(path, bytes)?
    } else {
        serde_json::from_slice(bytes).map_err(|err| json_error(path, bytes, &err))?
    };
    let not_openapi = |message: String| Error::Spec {
        path: path.to_owned(),
        pointer: String::new(),
        message,
    };
    let resources = super::resources::resources_of(&skeleton.paths);
    let path_kinds = super::resources::kinds_of(&skeleton.paths);
    match (skeleton.swagger, skeleton.openapi) {
        (Some(version), None) => {
            let version = version_text(&version);
            if version != "2.0" {
                return Err(not_openapi(format!(
                    "`swagger: {version}` is not supported; vergate reads OpenAPI 2.0 and 3.x"
                )));
            }
            let definitions = skeleton.definitions.unwrap_or_else(|| Value::Object(Map::new()));
            let mut root = Map::new();
            root.insert("definitions".into(), definitions);
            Ok(Document {
                openapi_version: version,
                root: Value::Object(root),
                definitions_pointer: "/definitions",
                deprecation_warnings: Default::default(),
                crds: Vec::new(),
                resources,
                path_kinds,
            })
        }
        (None, Some(version)) => {
            let version = version_text(&version);
            if !version.starts_with("3.") {
                return Err(not_openapi(format!(
                    "`openapi: {version}` is not supported; vergate reads OpenAPI 2.0 and 3.x"
                )));
            }
            let schemas = skeleton
                .components
                .and_then(|components| components.schemas)
                .unwrap_or_else(|| Value::Object(Map::new()));
            let mut components = Map::new();
            components.insert("schemas".into(), schemas);
            let mut root = Map::new();
            root.insert("components".into(), Value::Object(components));
            Ok(Document {
                openapi_version: version,
                root: Value::Object(root),
                definitions_pointer: "/components/schemas",
                deprecation_warnings: Default::default(),
                crds: Vec::new(),
                resources,
                path_kinds,
            })
        }
        (Some(_), Some(_)) => Err(not_openapi(
            "the document has both `swagger` and `openapi`; keep the one that matches its format".into(),
        )),
        (None, None) => Err(not_openapi(
            "not an OpenAPI document: it has neither `swagger: \"2.0\"` nor `openapi: 3.x` at the top".into(),
        )),
    }
}

fn version_text(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}

fn json_error(path: &Path, bytes: &[u8], err: &serde_json::Error) -> Error {
    let full = err.to_string();
    let message = match full.rfind(" at line ") {
        Some(cut) => full[..cut].to_owned(),
        None => full,
    };
    let text = String::from_utf8_lossy(bytes);
    Error::Syntax {
        path: path.to_owned(),
        line: err.line(),
        column: err.column(),
        message: format!("invalid JSON: {message}"),
        snippet: snippet(&text, err.line(), err.column()),
    }
}

fn parse_yaml(path: &Path, bytes: &[u8]) -> Result<Skeleton> {
    let yaml: serde_yaml_ng::Value =
        serde_yaml_ng::from_slice(bytes).map_err(|err| yaml_error(path, bytes, err))?;
    let json = yaml_to_json(yaml, path, &mut String::new())?;
    serde_json::from_value(json).map_err(|err| Error::Spec {
        path: path.to_owned(),
        pointer: String::new(),
        message: format!("unexpected document shape: {err}"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::parse;

    #[test]
    fn json_syntax_error_has_line_column_and_snippet() {
        let bytes = b"{\n  \"swagger\": \"2.0\",\n  \"definitions\": {,}\n}";
        let err = parse(Path::new("spec.json"), bytes).unwrap_err();
        let text = err.to_string();
        assert!(text.starts_with("spec.json:3:19: invalid JSON: "), "{text}");
        assert!(text.contains("\"definitions\": {,}"), "{text}");
        assert!(text.contains('^'), "{text}");
    }

    #[test]
    fn yaml_syntax_error_has_line_column() {
        let bytes = b"openapi: 3.0.0\ncomponents:\n  schemas: [a, b\n";
        let err = parse(Path::new("spec.yaml"), bytes).unwrap_err();
        let text = err.to_string();
        assert!(text.starts_with("spec.yaml:"), "{text}");
        assert!(text.contains("invalid YAML"), "{text}");
    }

    #[test]
    fn yaml_numeric_keys_become_strings() {
        let bytes = b"openapi: 3.1.0\npaths:\n  /x:\n    get:\n      responses:\n        200: {description: ok}\ncomponents:\n  schemas:\n    A: {type: string}\n";
        let doc = parse(Path::new("spec.yml"), bytes).unwrap();
        assert_eq!(doc.openapi_version, "3.1.0");
        assert_eq!(
            doc.root.pointer("/components/schemas/A/type"),
            Some(&Value::from("string"))
        );
    }

    #[test]
    fn not_openapi() {
        let err = parse(Path::new("x.json"), b"{\"definitions\": {}}").unwrap_err();
        assert!(err.to_string().contains("neither `swagger"), "{err}");
        let err = parse(Path::new("x.json"), b"{\"swagger\": \"1.2\"}").unwrap_err();
        assert!(err.to_string().contains("not supported"), "{err}");
    }
}
