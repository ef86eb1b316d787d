//! YAML spec files as JSON values: serde_yaml_ng's errors at their
//! line:column with a snippet, and its values converted to serde_json's
//! (for OpenAPI documents and CRDs alike).

use crate::error::{snippet, Error, Result};
use serde_json::{Map, Number, Value};
use std::path::Path;

/// A YAML syntax error at its line:column, with a snippet.
pub(super) fn yaml_error(path: &Path, bytes: &[u8], err: serde_yaml_ng::Error) -> Error {
    let (line, column) = err
        .location()
        .map_or((0, 0), |location| (location.line(), location.column()));
    let full = err.to_string();
    let message = match full.find(" at line ") {
        Some(cut) => full[..cut].to_owned(),
        None => full,
    };
    let text = String::from_utf8_lossy(bytes);
    Error::Syntax {
        path: path.to_owned(),
        line,
        column,
        message: format!("invalid YAML: {message}"),
        snippet: snippet(&text, line, column),
    }
}

/// Converts YAML to JSON. Keys that are numbers or booleans (`200:` under
/// `responses`) become strings; other non-string keys are refused.
pub(super) fn yaml_to_json(
    value: serde_yaml_ng::Value,
    path: &Path,
    pointer: &mut String,
) -> Result<Value> {
    use serde_yaml_ng::Value as Yaml;
    let refuse = |pointer: &str, message: String| Error::Spec {
        path: path.to_owned(),
        pointer: pointer.to_owned(),
        message,
    };
    Ok(match value {
        Yaml::Null => Value::Null,
        Yaml::Bool(b) => Value::Bool(b),
        Yaml::Number(n) => {
            if let Some(i) = n.as_i64() {
                Value::Number(i.into())
            } else if let Some(u) = n.as_u64() {
                Value::Number(u.into())
            } else {
                let f = n.as_f64().unwrap_or(f64::NAN);
                Value::Number(Number::from_f64(f).ok_or_else(|| {
                    refuse(
                        pointer,
                        format!("the number {f} has no JSON representation"),
                    )
                })?)
            }
        }
        Yaml::String(s) => Value::String(s),
        Yaml::Sequence(items) => {
            let mut out = Vec::with_capacity(items.len());
            for (index, item) in items.into_iter().enumerate() {
                let len = pointer.len();
                pointer.push_str(&format!("/{index}"));
                out.push(yaml_to_json(item, path, pointer)?);
                pointer.truncate(len);
            }
            Value::Array(out)
        }
        Yaml::Mapping(mapping) => {
            let mut out = Map::new();
            for (key, item) in mapping {
                let key = match key {
                    Yaml::String(s) => s,
                    Yaml::Number(n) => n.to_string(),
                    Yaml::Bool(b) => b.to_string(),
                    other => {
                        return Err(refuse(
                            pointer,
                            format!("a mapping key must be a string, found {other:?}"),
                        ))
                    }
                };
                let len = pointer.len();
                pointer.push('/');
                pointer.push_str(&vergate_core::json_pointer::escape(&key));
                let converted = yaml_to_json(item, path, pointer)?;
                pointer.truncate(len);
                out.insert(key, converted);
            }
            Value::Object(out)
        }
        Yaml::Tagged(tagged) => yaml_to_json(tagged.value, path, pointer)?,
    })
}
