//! Helpers shared by the JSON Schema tests: a real validator (the
//! `jsonschema` crate) judges every schema and document.
#![allow(dead_code)]

use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;
use vergate_codegen::api::Api;
use vergate_codegen::emit::json_schema;
use vergate_codegen::emit::json_text::to_sorted_pretty;
use vergate_codegen::load;
use vergate_codegen::model::GatedModel;
use vergate_codegen::output::FileTree;

/// Loads every minor of `api` and runs the JSON Schema emitter alone (the
/// other emitters are not needed here).
pub fn emit(api: &Api) -> FileTree {
    let loaded = load::load_api(api).unwrap_or_else(|err| panic!("{err}"));
    let minors = loaded.into_iter().map(|minor| minor.model).collect();
    let model = GatedModel::merge(api.name(), minors).unwrap_or_else(|err| panic!("{err}"));
    let mut tree = FileTree::new();
    json_schema::emit(&model, &api.config, &mut tree).unwrap_or_else(|err| panic!("{err}"));
    tree
}

/// The JSON files of a tree below `prefix`, parsed, by path. Each must be
/// exactly what the project's deterministic JSON writer gives for it.
pub fn json_files(tree: &FileTree, prefix: &str) -> BTreeMap<String, Value> {
    tree.iter()
        .filter_map(|(path, bytes)| {
            let path = path.to_string_lossy().into_owned();
            (path.starts_with(prefix) && path.ends_with(".json")).then(|| {
                let text = std::str::from_utf8(bytes).expect("generated JSON is UTF-8");
                let value: Value = serde_json::from_str(text)
                    .unwrap_or_else(|err| panic!("{path} is not JSON: {err}"));
                assert!(
                    text == to_sorted_pretty(&value),
                    "{path} is not written with sorted keys and two-space indentation"
                );
                (path, value)
            })
        })
        .collect()
}

/// Checks a schema against the 2020-12 meta-schema and compiles it (which
/// resolves every `$ref`).
pub fn check_schema(path: &str, schema: &Value) -> jsonschema::Validator {
    check_meta(path, schema);
    jsonschema::draft202012::new(schema)
        .unwrap_or_else(|err| panic!("{path} does not compile: {err}"))
}

/// Checks a schema against the 2020-12 meta-schema only.
pub fn check_meta(path: &str, schema: &Value) {
    if let Err(err) = jsonschema::draft202012::meta::validate(schema) {
        panic!(
            "{path} is not a valid JSON Schema 2020-12: {err} at {}",
            err.instance_path()
        );
    }
}

/// The errors of `instance` against a validator, as (instance path, message).
/// An `anyOf` error whose branches all but one fail only by their `type` (an
/// optional `$ref` property: `anyOf: [{$ref}, {type: null}]`) is replaced by
/// that branch's errors, the cause a validator reports among the `anyOf`'s
/// sub-errors; there is an error either way.
pub fn errors(validator: &jsonschema::Validator, instance: &Value) -> Vec<(String, String)> {
    let mut found = Vec::new();
    for err in validator.iter_errors(instance) {
        causes(&err, &mut found);
    }
    found
}

fn causes(err: &jsonschema::ValidationError, found: &mut Vec<(String, String)>) {
    use jsonschema::error::ValidationErrorKind;
    if let ValidationErrorKind::AnyOf { context } = err.kind() {
        let type_only = |branch: &Vec<jsonschema::ValidationError>| {
            matches!(branch.as_slice(), [only] if matches!(only.kind(), ValidationErrorKind::Type { .. })
                && only.instance_path() == err.instance_path())
        };
        let mut relevant = context.iter().filter(|branch| !type_only(branch));
        if let (Some(branch), None) = (relevant.next(), relevant.next()) {
            for inner in branch {
                causes(inner, found);
            }
            return;
        }
    }
    found.push((err.instance_path().to_string(), err.to_string()));
}

/// The YAML documents of a file (several when separated by `---`), skipping
/// empty ones.
pub fn yaml_documents(path: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|err| panic!("reading {}: {err}", path.display()));
    serde_yaml_ng::Deserializer::from_str(&text)
        .map(|document| {
            serde::Deserialize::deserialize(document)
                .unwrap_or_else(|err| panic!("{}: {err}", path.display()))
        })
        .filter(|value: &Value| !value.is_null())
        .collect()
}

/// The files of a directory with an extension, sorted.
pub fn files_in(dir: &Path, extension: &str) -> Vec<std::path::PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<_> = entries
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|ext| ext == extension))
        .collect();
    files.sort();
    files
}
