//! CustomResourceDefinitions as spec input: a YAML (or JSON) file holding
//! one or many documents, CRDs among them, becomes an OpenAPI-shaped
//! [`Document`] whose definitions the one converter (`openapi.rs`) reads
//! like any other spec's, hoisting nested inline objects as usual.
//!
//! Each *served* version of each CRD (`apiextensions.k8s.io/v1`) becomes a
//! definition named as the API server publishes it, the group reversed:
//! `monitoring.coreos.com` `v1` `ServiceMonitor` →
//! `com.coreos.monitoring.v1.ServiceMonitor`, served as that
//! group/version/kind. Its `openAPIV3Schema` is rewritten into what the
//! model reads:
//! - `metadata` refers to `io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta`
//!   (the API server validates it as ObjectMeta, whatever the CRD says); a
//!   minor without that definition gets vergate's built-in minimal one
//!   ([`OBJECT_META`], `object_meta.json`);
//! - `x-kubernetes-preserve-unknown-fields: true` beside `properties` opens
//!   the object (`additionalProperties: true`); without them the value is
//!   any object, as before;
//! - `x-kubernetes-int-or-string: true`, and the idiom
//!   `anyOf: [{type: integer}, {type: string}]`, are IntOrString;
//! - the logical junctors left (`allOf`, `anyOf`, `oneOf`, `not`) hold
//!   value validations only (a structural schema puts no type in them),
//!   so they say nothing of the type: they are moved under
//!   [`VALUE_VALIDATIONS`], which the converter does not read and
//!   `vergate check --crd` evaluates, and said in the description;
//! - `x-kubernetes-list-type: set` is `uniqueItems: true`; `map` (with
//!   `x-kubernetes-list-map-keys`), `x-kubernetes-map-type`,
//!   `x-kubernetes-embedded-resource` and the CEL rules of
//!   `x-kubernetes-validations` are written into the description; the rules
//!   are also kept as they are, for gates.json's constraints and the JSON
//!   Schema (`vergate check --crd` evaluates them, from the CRD itself);
//! - a version's `deprecated: true` marks the definition deprecated, and
//!   its `deprecationWarning` becomes the definition's deprecation warning
//!   (and a last paragraph of its description, `Deprecated: …`).
//!
//! Unserved versions are left out: no one can create them.

pub use super::document::CrdVersions;
use super::document::Document;
use super::yaml::{yaml_error, yaml_to_json};
use crate::error::{Error, Result};
use crate::model::ResourcePath;
use serde::Deserialize;
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use vergate_core::gates::{GroupVersionKind, CRD_API_VERSION, CRD_KIND};

/// The definition every custom resource's `metadata` refers to.
pub use crate::model::kubernetes::OBJECT_META;

/// vergate's built-in minimal ObjectMeta (and OwnerReference), an OpenAPI
/// 2 document, used when a minor has CRDs but no ObjectMeta of its own.
const OBJECT_META_SPEC: &str = include_str!("object_meta.json");

/// The name the built-in ObjectMeta is loaded under, in messages.
pub const OBJECT_META_SOURCE: &str = "<vergate built-in ObjectMeta>";

/// Marks a version's schema whose CRD serves the `status` subresource.
pub const STATUS_SUBRESOURCE: &str = "x-vergate-status-subresource";

/// Where a CRD schema's logical junctors are kept (`{oneOf: [...], ...}`):
/// value validations the API server applies, out of the converter's way.
pub const VALUE_VALIDATIONS: &str = "x-vergate-value-validations";

/// The logical junctors of a structural schema.
const JUNCTORS: [&str; 4] = ["allOf", "anyOf", "oneOf", "not"];

/// True when a YAML file holds a CRD document: a line `kind:
/// CustomResourceDefinition` at the top level (not indented, so an OpenAPI
/// spec that merely describes CRDs is not taken for one). Cheap, to route a
/// spec file to [`parse`].
pub fn holds_crd(bytes: &[u8]) -> bool {
    // The lines starting with `kind:`, found by substring search (a CRD is
    // thousands of lines, and `check` asks this of each one among its inputs).
    let first = bytes.starts_with(b"kind:").then_some(0);
    let others = memchr::memmem::find_iter(bytes, b"\nkind:").map(|newline| newline + 1);
    first.into_iter().chain(others).any(|start| {
        let line = &bytes[start..];
        let line = &line[..memchr::memchr(b'\n', line).unwrap_or(line.len())];
        let value = line[b"kind:".len()..].trim_ascii();
        let unquoted = match value {
            [b'"', inner @ .., b'"'] | [b'\'', inner @ .., b'\''] => inner,
            other => other,
        };
        unquoted == CRD_KIND.as_bytes()
    })
}

/// The built-in ObjectMeta document.
pub fn object_meta_document() -> Document {
    let root: Value =
        serde_json::from_str(OBJECT_META_SPEC).expect("the built-in ObjectMeta is valid JSON");
    Document {
        openapi_version: "2.0".into(),
        root,
        definitions_pointer: "/definitions",
        deprecation_warnings: BTreeMap::new(),
        crds: Vec::new(),
        resources: BTreeMap::new(),
        path_kinds: Vec::new(),
    }
}

/// True when some document holds custom resources and none defines
/// ObjectMeta: the built-in one is then added to the minor.
pub fn needs_object_meta(documents: &[(PathBuf, Document)]) -> bool {
    let needed = documents
        .iter()
        .any(|(_, document)| !document.crds.is_empty());
    needed
        && !documents.iter().any(|(_, document)| {
            document
                .root
                .pointer(document.definitions_pointer)
                .and_then(|definitions| definitions.get(OBJECT_META))
                .is_some()
        })
}

/// Reads every document of the file at `path`; the CRDs among them become
/// definitions, other documents are skipped. A file without any CRD is an
/// error (it is neither OpenAPI nor CRDs).
pub fn parse(path: &Path, bytes: &[u8]) -> Result<Document> {
    let mut documents = Vec::new();
    for (index, document) in serde_yaml_ng::Deserializer::from_slice(bytes).enumerate() {
        let yaml = serde_yaml_ng::Value::deserialize(document)
            .map_err(|err| yaml_error(path, bytes, err))?;
        documents.push((index, yaml_to_json(yaml, path, &mut String::new())?));
    }
    from_documents(path, documents)
}

/// The CRDs among documents already read (each with its index in the
/// file at `path`), as [`parse`] makes them; for a reader of its own
/// (`vergate check` reads CRDs with the reader it checks documents with).
pub fn from_documents(
    path: &Path,
    documents: impl IntoIterator<Item = (usize, Value)>,
) -> Result<Document> {
    let mut definitions = Map::new();
    let mut warnings = BTreeMap::new();
    let mut crds = Vec::new();
    for (index, value) in documents {
        if value.get("kind").and_then(Value::as_str) != Some(CRD_KIND) {
            continue;
        }
        let at = Place {
            path,
            document: index,
        };
        crds.push(crd(&at, &value, &mut definitions, &mut warnings)?);
    }
    if crds.is_empty() {
        return Err(Error::Spec {
            path: path.to_owned(),
            pointer: String::new(),
            message: format!(
                "not an OpenAPI document and no {CRD_KIND} in it: a spec file is OpenAPI (`swagger: \"2.0\"` or `openapi: 3.x` at the top) or YAML holding CRDs"
            ),
        });
    }
    let mut root = Map::new();
    root.insert("definitions".into(), Value::Object(definitions));
    let mut resources = BTreeMap::new();
    for crd in &crds {
        let Some(resource) = &crd.resource else {
            continue;
        };
        for version in &crd.served {
            let gvk = GroupVersionKind {
                group: crd.group.clone(),
                version: version.clone(),
                kind: crd.kind.clone(),
            };
            resources.entry(gvk).or_insert_with(|| resource.clone());
        }
    }
    Ok(Document {
        openapi_version: CRD_API_VERSION.into(),
        root: Value::Object(root),
        definitions_pointer: "/definitions",
        deprecation_warnings: warnings,
        crds,
        resources,
        path_kinds: Vec::new(),
    })
}

/// Where a CRD is: its file and its document's index there.
struct Place<'p> {
    path: &'p Path,
    document: usize,
}

impl Place<'_> {
    fn error(&self, pointer: &str, message: String) -> Error {
        Error::Spec {
            path: self.path.to_owned(),
            pointer: format!("document {}{pointer}", self.document),
            message,
        }
    }
}

/// Adds the served versions of one CRD to `definitions`.
fn crd(
    at: &Place<'_>,
    value: &Value,
    definitions: &mut Map<String, Value>,
    warnings: &mut BTreeMap<String, String>,
) -> Result<CrdVersions> {
    let api_version = value
        .get("apiVersion")
        .and_then(Value::as_str)
        .unwrap_or("");
    if api_version != CRD_API_VERSION {
        return Err(at.error(
            "/apiVersion",
            format!("{CRD_KIND} of apiVersion {api_version:?} is not read; vergate reads {CRD_API_VERSION} (convert older CRDs with the API server or rewrite `spec.validation` into `spec.versions[].schema`)"),
        ));
    }
    let text = |pointer: &str| value.pointer(pointer).and_then(Value::as_str);
    let group = text("/spec/group")
        .ok_or_else(|| at.error("/spec/group", format!("a {CRD_KIND} needs spec.group")))?;
    let kind = text("/spec/names/kind").ok_or_else(|| {
        at.error(
            "/spec/names/kind",
            format!("a {CRD_KIND} needs spec.names.kind"),
        )
    })?;
    let crd_name = text("/metadata/name").unwrap_or(kind);
    let Some(versions) = value.pointer("/spec/versions").and_then(Value::as_array) else {
        return Err(at.error(
            "/spec/versions",
            format!("{CRD_KIND} {crd_name} lists no spec.versions"),
        ));
    };
    let reversed: Vec<&str> = group.split('.').rev().collect();
    let mut summary = CrdVersions {
        name: crd_name.to_owned(),
        group: group.to_owned(),
        kind: kind.to_owned(),
        served: Vec::new(),
        unserved: Vec::new(),
        resource: text("/spec/names/plural").map(|plural| ResourcePath {
            plural: plural.to_owned(),
            namespaced: text("/spec/scope") != Some("Cluster"),
        }),
    };
    for (index, version) in versions.iter().enumerate() {
        let pointer = format!("/spec/versions/{index}");
        let Some(name) = version.get("name").and_then(Value::as_str) else {
            return Err(at.error(
                &format!("{pointer}/name"),
                "a CRD version needs a name".into(),
            ));
        };
        if version.get("served") != Some(&Value::Bool(true)) {
            summary.unserved.push(name.to_owned());
            continue;
        }
        summary.served.push(name.to_owned());
        let definition_name = format!("{}.{name}.{kind}", reversed.join("."));
        let schema = version
            .pointer("/schema/openAPIV3Schema")
            .cloned()
            .unwrap_or_else(
                || json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true}),
            );
        let Value::Object(mut schema) = rewrite(schema) else {
            return Err(at.error(
                &format!("{pointer}/schema/openAPIV3Schema"),
                "openAPIV3Schema must be an object (a schema)".into(),
            ));
        };
        schema.insert("type".into(), json!("object"));
        let properties = schema
            .entry("properties")
            .or_insert_with(|| Value::Object(Map::new()));
        if let Value::Object(properties) = properties {
            properties.insert(
                "metadata".into(),
                json!({"$ref": format!("#/definitions/{OBJECT_META}"),
                       "description": "Standard object metadata, validated by the API server as ObjectMeta."}),
            );
            for field in ["apiVersion", "kind"] {
                properties
                    .entry(field)
                    .or_insert_with(|| json!({"type": "string"}));
            }
        }
        if version.pointer("/subresources/status").is_some() {
            // The API server resets `status` on create: what its CEL rules
            // say of a status is not checked then (`vergate check`).
            schema.insert(STATUS_SUBRESOURCE.into(), Value::Bool(true));
        }
        schema.insert(
            "x-kubernetes-group-version-kind".into(),
            json!([{"group": group, "version": name, "kind": kind}]),
        );
        if !schema.contains_key("description") {
            schema.insert(
                "description".into(),
                json!(format!(
                    "{kind} ({group}/{name}), a custom resource defined by the CRD {crd_name}."
                )),
            );
        }
        if version.get("deprecated") == Some(&Value::Bool(true)) {
            schema.insert("deprecated".into(), Value::Bool(true));
            let warning = version
                .get("deprecationWarning")
                .and_then(Value::as_str)
                .map_or_else(
                    || format!("{group}/{name} {kind} is deprecated"),
                    str::to_owned,
                );
            // Said in the description too, so every output shows it.
            let description = schema
                .get("description")
                .and_then(Value::as_str)
                .unwrap_or_default();
            let noted = format!("{description}\n\nDeprecated: {warning}");
            schema.insert("description".into(), Value::String(noted));
            warnings.insert(definition_name.clone(), warning);
        }
        definitions.insert(definition_name, Value::Object(schema));
    }
    Ok(summary)
}

/// Rewrites one schema (and every schema inside it) as the module doc says.
/// Recursion is bounded by the YAML reader's nesting limit.
///
/// Linear in the schema: the notes a description gets are written only
/// outside the junctors, from the junctors' text as read, so a schema
/// nested in junctors is written into one note, not into the note of
/// every junctor around it (that doubled the text at each level: 20
/// nested `not` took gigabytes).
fn rewrite(value: Value) -> Value {
    rewrite_at(value, false)
}

/// [`rewrite`] of a schema, `in_junctor` when it is a junctor's branch
/// (or below one): such a schema gets no notes, the note of the outermost
/// junctor shows it.
fn rewrite_at(value: Value, in_junctor: bool) -> Value {
    let Value::Object(mut object) = value else {
        return value;
    };
    // The junctors' text as written, for the note; taken before their
    // branches are rewritten, and only where a note is written.
    let junctor_texts: Vec<(&str, String)> = if in_junctor {
        Vec::new()
    } else {
        JUNCTORS
            .iter()
            .filter_map(|key| Some((*key, junctor_text(key, object.get(*key)?)?)))
            .collect()
    };
    for key in ["properties", "patternProperties", "definitions", "$defs"] {
        if let Some(Value::Object(members)) = object.get_mut(key) {
            for member in members.values_mut() {
                *member = rewrite_at(std::mem::take(member), in_junctor);
            }
        }
    }
    for key in ["items", "additionalProperties"] {
        if let Some(member) = object.get_mut(key) {
            if member.is_object() {
                *member = rewrite_at(std::mem::take(member), in_junctor);
            }
        }
    }
    if let Some(member) = object.get_mut("not") {
        if member.is_object() {
            *member = rewrite_at(std::mem::take(member), true);
        }
    }
    for key in ["allOf", "anyOf", "oneOf"] {
        if let Some(Value::Array(members)) = object.get_mut(key) {
            for member in members.iter_mut() {
                *member = rewrite_at(std::mem::take(member), true);
            }
        }
    }
    let mut notes = Vec::new();
    let flag = |object: &Map<String, Value>, key: &str| object.get(key) == Some(&Value::Bool(true));
    for key in ["anyOf", "oneOf"] {
        let Some(Value::Array(members)) = object.get(key) else {
            continue;
        };
        if is_int_or_string_idiom(members) {
            object.remove(key);
            object.insert("x-kubernetes-int-or-string".into(), Value::Bool(true));
        } else if flag(&object, "x-kubernetes-int-or-string") {
            object.remove(key);
        }
    }
    let mut junctors = Map::new();
    for key in JUNCTORS {
        // A junctor of the wrong shape stays, for the converter to refuse
        // with its place (the API server refuses such a CRD).
        let well_formed = match object.get(key) {
            Some(Value::Array(members)) => key != "not" && members.iter().all(Value::is_object),
            Some(Value::Object(_)) => key == "not",
            _ => false,
        };
        if !well_formed {
            continue;
        }
        if let Some(junctor) = object.remove(key) {
            if let Some((_, text)) = junctor_texts.iter().find(|(written, _)| *written == key) {
                notes.push(text.clone());
            }
            junctors.insert(key.to_owned(), junctor);
        }
    }
    if !junctors.is_empty() {
        object.insert(VALUE_VALIDATIONS.into(), Value::Object(junctors));
    }
    if flag(&object, "x-kubernetes-preserve-unknown-fields")
        && object.contains_key("properties")
        && !object.contains_key("additionalProperties")
    {
        object.insert("additionalProperties".into(), Value::Bool(true));
    }
    match object.get("x-kubernetes-list-type").and_then(Value::as_str) {
        Some("set") => {
            object.entry("uniqueItems").or_insert(Value::Bool(true));
            notes.push("List type: set (items unique).".into());
        }
        Some("map") => {
            let keys = object
                .get("x-kubernetes-list-map-keys")
                .and_then(Value::as_array)
                .map(|keys| {
                    keys.iter()
                        .filter_map(Value::as_str)
                        .collect::<Vec<_>>()
                        .join(", ")
                })
                .unwrap_or_default();
            notes.push(format!(
                "List type: map (items unique by their keys: {keys})."
            ));
        }
        _ => {}
    }
    if let Some(map_type) = object.get("x-kubernetes-map-type").and_then(Value::as_str) {
        notes.push(format!("Map type: {map_type}."));
    }
    if flag(&object, "x-kubernetes-embedded-resource") {
        notes.push("An embedded Kubernetes resource (apiVersion, kind, metadata).".into());
    }
    if let Some(Value::Array(rules)) = object.get("x-kubernetes-validations") {
        let mut text = String::from(
            "Validation rules (CEL; enforced by the API server, evaluated by `vergate check --crd`):",
        );
        for rule in rules {
            let expression = rule.get("rule").and_then(Value::as_str).unwrap_or_default();
            text.push_str(&format!("\n- `{expression}`"));
            if let Some(message) = rule.get("message").and_then(Value::as_str) {
                text.push_str(&format!(": {message}"));
            }
        }
        notes.push(text);
    }
    if !notes.is_empty() {
        let mut description = object
            .get("description")
            .and_then(Value::as_str)
            .map(str::to_owned)
            .unwrap_or_default();
        for note in notes {
            if !description.is_empty() {
                description.push_str("\n\n");
            }
            description.push_str(&note);
        }
        object.insert("description".into(), Value::String(description));
    }
    Value::Object(object)
}

/// `[{type: integer}, {type: string}]` in either order, each member
/// nothing else.
fn is_int_or_string_idiom(members: &[Value]) -> bool {
    let mut types: Vec<&str> = members
        .iter()
        .filter_map(|member| {
            let object = member.as_object()?;
            (object.len() == 1).then(|| object.get("type")?.as_str())?
        })
        .collect();
    types.sort_unstable();
    members.len() == 2 && types == ["integer", "string"]
}

/// The note of the junctor `key` holding `junctor` (as written), when it
/// is well formed.
fn junctor_text(key: &str, junctor: &Value) -> Option<String> {
    let how = match key {
        "allOf" => "all of these must hold",
        "anyOf" => "at least one of these must hold",
        "oneOf" => "exactly one of these must hold",
        _ => "this must not hold",
    };
    let alternatives: Vec<String> = match junctor {
        Value::Array(members) if key != "not" => members.iter().map(compact).collect(),
        Value::Object(_) if key == "not" => vec![compact(junctor)],
        _ => return None,
    };
    Some(format!(
        "{how} (checked by `vergate check --crd`): {}",
        alternatives.join("; ")
    ))
}

fn compact(value: &Value) -> String {
    value.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    const CRD: &str = r#"
apiVersion: v1
kind: Namespace
metadata: {name: ops}
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  versions:
  - name: v1alpha1
    served: false
    storage: false
    schema: {openAPIV3Schema: {type: object}}
  - name: v1beta1
    served: true
    storage: false
    deprecated: true
    deprecationWarning: "example.com/v1beta1 Widget is deprecated; use example.com/v1"
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: {type: object, x-kubernetes-preserve-unknown-fields: true}
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          metadata: {type: object}
          spec:
            type: object
            x-kubernetes-preserve-unknown-fields: true
            x-kubernetes-validations:
            - rule: "self.replicas <= 10"
              message: at most ten
            anyOf:
            - required: [size]
            - required: [replicas]
            properties:
              size:
                anyOf: [{type: integer}, {type: string}]
              replicas: {type: integer, minimum: 0}
              tags:
                type: array
                x-kubernetes-list-type: set
                items: {type: string}
"#;

    #[test]
    fn served_versions_become_definitions() {
        let document = parse(Path::new("widgets.yaml"), CRD.as_bytes()).unwrap();
        let definitions = document.root["definitions"].as_object().unwrap();
        let names: Vec<&String> = definitions.keys().collect();
        assert_eq!(
            names,
            ["com.example.v1.Widget", "com.example.v1beta1.Widget"]
        );
        let v1 = &definitions["com.example.v1.Widget"];
        assert_eq!(
            v1["properties"]["metadata"]["$ref"],
            "#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"
        );
        assert_eq!(
            v1["x-kubernetes-group-version-kind"],
            json!([{"group": "example.com", "version": "v1", "kind": "Widget"}])
        );
        let spec = &v1["properties"]["spec"];
        assert_eq!(spec["additionalProperties"], true);
        assert!(spec.get("anyOf").is_none());
        assert_eq!(
            spec[VALUE_VALIDATIONS]["anyOf"],
            json!([{"required": ["size"]}, {"required": ["replicas"]}])
        );
        let description = spec["description"].as_str().unwrap();
        assert!(
            description.contains("`self.replicas <= 10`: at most ten"),
            "{description}"
        );
        assert!(
            description.contains(
                r#"at least one of these must hold (checked by `vergate check --crd`): {"required":["size"]}"#
            ),
            "{description}"
        );
        assert_eq!(
            spec["properties"]["size"]["x-kubernetes-int-or-string"],
            true
        );
        assert_eq!(spec["properties"]["tags"]["uniqueItems"], true);
        assert_eq!(
            definitions["com.example.v1beta1.Widget"]["deprecated"],
            true
        );
        assert_eq!(document.crds[0].served, ["v1beta1", "v1"]);
        assert_eq!(document.crds[0].unserved, ["v1alpha1"]);
        assert_eq!(
            document.deprecation_warnings["com.example.v1beta1.Widget"],
            "example.com/v1beta1 Widget is deprecated; use example.com/v1"
        );
    }

    #[test]
    fn only_top_level_crd_kinds_route_a_file_here() {
        assert!(holds_crd(
            b"apiVersion: x\nkind: CustomResourceDefinition\n"
        ));
        assert!(holds_crd(b"---\nkind: 'CustomResourceDefinition'  \r\n"));
        let openapi = b"openapi: 3.0.0\ncomponents:\n  schemas:\n    X:\n      kind: CustomResourceDefinition\n";
        assert!(!holds_crd(openapi));
        assert!(!holds_crd(b"kind: CustomResourceDefinitionList\n"));
        assert!(holds_crd(b"kind: CustomResourceDefinition"));
        assert!(holds_crd(
            b"a: 1\nkind: Other\nkind: CustomResourceDefinition"
        ));
        assert!(!holds_crd(
            b"a: 1\n  kind: CustomResourceDefinition\nkind:\n"
        ));
    }

    #[test]
    fn files_without_crds_and_old_crds_are_refused() {
        let err = parse(Path::new("x.yaml"), b"kind: ConfigMap\n").unwrap_err();
        assert!(
            err.to_string().contains("no CustomResourceDefinition"),
            "{err}"
        );
        let old = b"apiVersion: apiextensions.k8s.io/v1beta1\nkind: CustomResourceDefinition\n";
        let err = parse(Path::new("old.yaml"), old).unwrap_err();
        assert!(
            err.to_string().contains("old.yaml#document 0/apiVersion"),
            "{err}"
        );
    }

    /// A CRD with `versions` as given (YAML flow text).
    fn with_versions(versions: &str) -> String {
        format!(
            "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\n\
             metadata: {{name: xs.example.com}}\n\
             spec:\n  group: example.com\n  names: {{kind: X, plural: xs}}\n  versions: {versions}\n"
        )
    }

    /// Parses and builds a minor: the error text, or "" when it loads.
    fn outcome(text: &str) -> String {
        let path = Path::new("hostile.yaml");
        let loaded = parse(path, text.as_bytes()).and_then(|document| {
            super::super::build_minor(crate::Version::new(1, 0), &[(path.to_owned(), document)])
        });
        loaded.err().map(|err| err.to_string()).unwrap_or_default()
    }

    #[test]
    fn hostile_crds_give_errors_with_their_place_never_a_panic() {
        for (versions, expected) in [
            ("{}", "hostile.yaml#document 0/spec/versions: CustomResourceDefinition xs.example.com lists no spec.versions"),
            ("[{served: true}]", "document 0/spec/versions/0/name: a CRD version needs a name"),
            ("[{name: v1, served: true, schema: {openAPIV3Schema: nope}}]", "openAPIV3Schema must be an object"),
            ("[{name: ../v1, served: true}]", "cannot become a file or module name"),
            ("[{name: v1, served: true, schema: {openAPIV3Schema: {type: object, properties: [a]}}}]", "`properties` must be a JSON object"),
            ("[{name: v1, served: true, schema: {openAPIV3Schema: {type: object, properties: {a: {type: array, items: 5}}}}}]", "a schema must be a JSON object"),
            ("[{name: v1, served: true, schema: {openAPIV3Schema: {type: object, properties: {a: {anyOf: 3}}}}}]", "properties/a/anyOf: anyOf must be an array of schemas, found a number"),
            ("[{name: v1, served: yes}]", ""),
        ] {
            let found = outcome(&with_versions(versions));
            assert!(found.contains(expected), "{versions}: {found}");
            if expected.is_empty() {
                assert_eq!(found, "", "{versions}");
            }
        }
        let bad_group = with_versions("[{name: v1, served: true}]")
            .replace("group: example.com", "group: \"ex ample.com\"");
        assert!(outcome(&bad_group).contains("cannot become a file or module name"));
        // Nesting beyond the YAML reader's limit is its error, not a stack overflow.
        let nested = |depth: usize| {
            with_versions(&format!(
                "[{{name: v1, served: true, schema: {{openAPIV3Schema: {}{{}}{}}}}}]",
                "{properties: {a: ".repeat(depth),
                "}}".repeat(depth)
            ))
        };
        assert_eq!(outcome(&nested(20)), "", "twenty levels load");
        let found = outcome(&nested(300));
        assert!(found.contains("recursion limit exceeded"), "{found}");
    }
}
