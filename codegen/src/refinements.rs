//! The refinements overlay, `upstream-specs/<api>/refinements.toml`: value
//! shapes an API server enforces but its specs state only in prose (a port
//! number is 1–65535, a container name is a DNS-1123 label), given as
//! constraints to the fields that have them. They are laid on each minor's
//! model before the merge, as if the spec had said them, so gates.json, the
//! JSON Schemas, the Pkl types and `vergate check` all enforce them.
//!
//! ```toml
//! [shapes.port-number]          # a name of your choice
//! minimum = 1
//! maximum = 65535
//!
//! [fields]                      # "<definition>.<field>" = [shapes]
//! "io.k8s.api.core.v1.ContainerPort.containerPort" = ["port-number"]
//! ```
//!
//! A shape has any of `minimum`, `maximum` (for numbers), `min_length`,
//! `max_length`, `pattern` (RE2, unanchored as in JSON Schema: anchor it;
//! for strings). An int-or-string field may take one shape for each side:
//! JSON Schema applies number keywords to numbers and string keywords to
//! strings. A shape may not restate a key the spec gives the field
//! differently; a field no minor has, or an unknown shape, is an error.

use crate::error::{Error, Result};
use crate::model::MinorModel;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;

/// The overlay's file name inside `upstream-specs/<api>/`.
pub const REFINEMENTS_FILE: &str = "refinements.toml";

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Overlay {
    #[serde(default)]
    shapes: BTreeMap<String, Shape>,
    #[serde(default)]
    fields: BTreeMap<String, Vec<String>>,
}

/// One named shape: JSON Schema's value keywords, in TOML's snake case.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Shape {
    minimum: Option<i64>,
    maximum: Option<i64>,
    min_length: Option<u64>,
    max_length: Option<u64>,
    pattern: Option<String>,
}

impl Shape {
    /// The keywords as the model keeps them: JSON Schema names, compact
    /// JSON text.
    fn keywords(&self) -> Vec<(&'static str, String)> {
        let mut out = Vec::new();
        out.extend(self.minimum.map(|v| ("minimum", v.to_string())));
        out.extend(self.maximum.map(|v| ("maximum", v.to_string())));
        out.extend(self.min_length.map(|v| ("minLength", v.to_string())));
        out.extend(self.max_length.map(|v| ("maxLength", v.to_string())));
        if let Some(pattern) = &self.pattern {
            out.push((
                "pattern",
                serde_json::Value::String(pattern.clone()).to_string(),
            ));
        }
        out
    }
}

/// Applies `api_dir/refinements.toml`, when there is one, to `minors`.
pub fn apply(minors: &mut [MinorModel], api_dir: &Path) -> Result<()> {
    let path = api_dir.join(REFINEMENTS_FILE);
    if !path.is_file() {
        return Ok(());
    }
    let text = std::fs::read_to_string(&path)
        .map_err(|source| Error::io(&path, "reading the refinements", source))?;
    apply_text(minors, &path, &text)
}

/// Applies the overlay `text` (read from `path`); every mistake is reported
/// at once.
pub fn apply_text(minors: &mut [MinorModel], path: &Path, text: &str) -> Result<()> {
    let config = |message: String| Error::Config {
        path: path.to_owned(),
        message,
    };
    let overlay: Overlay = toml::from_str(text).map_err(|err| config(err.to_string()))?;
    let mut problems = Vec::new();
    for (target, shapes) in &overlay.fields {
        let Some((definition, field)) = target.rsplit_once('.') else {
            problems.push(format!(
                "fields.{target:?}: name a field as \"<definition>.<field>\""
            ));
            continue;
        };
        let mut keywords: BTreeMap<&str, String> = BTreeMap::new();
        for name in shapes {
            let Some(shape) = overlay.shapes.get(name) else {
                let known: Vec<&str> = overlay.shapes.keys().map(String::as_str).collect();
                problems.push(format!(
                    "fields.{target:?}: no shape {name:?} (shapes: {})",
                    known.join(", ")
                ));
                continue;
            };
            for (key, value) in shape.keywords() {
                if keywords.insert(key, value).is_some() {
                    problems.push(format!(
                        "fields.{target:?}: two of its shapes give `{key}`; keep one"
                    ));
                }
            }
        }
        let mut found = false;
        for minor in minors.iter_mut() {
            let Some(property) = minor
                .definitions
                .get_mut(definition)
                .and_then(|d| d.object_mut())
                .and_then(|object| object.properties.get_mut(field))
            else {
                continue;
            };
            found = true;
            for (key, value) in &keywords {
                match property.keywords.get(*key) {
                    Some(stated) if stated != value => problems.push(format!(
                        "fields.{target:?}: the {} spec gives `{key}` {stated}, the shape {value}; drop it from the shape",
                        minor.version
                    )),
                    _ => {
                        property.keywords.insert((*key).to_owned(), value.clone());
                    }
                }
            }
        }
        if !found {
            problems.push(format!(
                "fields.{target:?}: no minor's spec has field {field:?} in {definition:?}"
            ));
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(config(problems.join("\n")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Definition, ObjectSchema, Property, Schema};
    use vergate_core::Version;

    fn minors() -> Vec<MinorModel> {
        let mut minor = MinorModel::new(Version::new(1, 0));
        let mut object = ObjectSchema::default();
        object
            .properties
            .insert("port".into(), Property::new(Schema::IntOrString));
        let mut name = Property::new(Schema::String { format: None });
        name.keywords.insert("maxLength".into(), "63".into());
        object.properties.insert("name".into(), name);
        minor.definitions.insert(
            "a.Port".into(),
            Definition::new("a.Port", Schema::Object(object)),
        );
        vec![minor]
    }

    const SHAPES: &str = r#"
[shapes.port-number]
minimum = 1
maximum = 65535
[shapes.port-name]
max_length = 15
pattern = "^[a-z]+$"
[shapes.label]
max_length = 63
"#;

    #[test]
    fn shapes_become_the_fields_keywords() {
        let mut minors = minors();
        let text = format!(
            "{SHAPES}[fields]\n\"a.Port.port\" = [\"port-number\", \"port-name\"]\n\"a.Port.name\" = [\"label\"]\n"
        );
        apply_text(&mut minors, Path::new("r.toml"), &text).unwrap();
        let object = minors[0].definitions["a.Port"].object().unwrap();
        let port = &object.properties["port"].keywords;
        assert_eq!(port["minimum"], "1");
        assert_eq!(port["maximum"], "65535");
        assert_eq!(port["pattern"], "\"^[a-z]+$\"");
        assert_eq!(object.properties["name"].keywords["maxLength"], "63");
    }

    #[test]
    fn every_mistake_is_named_at_once() {
        let mut minors = minors();
        let text = format!(
            "{SHAPES}[fields]\n\"a.Port.nope\" = [\"label\"]\n\"a.Port.port\" = [\"missing\"]\n\"a.Port.name\" = [\"port-name\"]\n\"a.Port.port\" = []\n"
        );
        // A duplicate key is TOML's own error.
        let err = apply_text(&mut minors, Path::new("r.toml"), &text).unwrap_err();
        assert!(err.to_string().contains("r.toml"), "{err}");
        let text = format!(
            "{SHAPES}[fields]\n\"a.Port.nope\" = [\"label\"]\n\"a.Port.port\" = [\"missing\"]\n\"a.Port.name\" = [\"port-name\"]\n"
        );
        let err = apply_text(&mut minors, Path::new("r.toml"), &text)
            .unwrap_err()
            .to_string();
        assert!(err.contains("no minor's spec has field \"nope\""), "{err}");
        assert!(err.contains("no shape \"missing\""), "{err}");
        assert!(
            err.contains("the 1.0 spec gives `maxLength` 63, the shape 15"),
            "{err}"
        );
    }
}
