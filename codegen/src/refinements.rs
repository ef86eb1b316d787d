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
//!
//! `[[rules]]` declares the cross-field rules the API server applies to an
//! object (`vergate_core::gates::CrossFieldRule`), each with where it
//! comes from; they are laid on the merged model ([`Rules::apply`]), so
//! gates.json carries them, the Pkl packages and `vergate check` enforce
//! them alike, with the API server's words:
//!
//! ```toml
//! [[rules]]
//! on = "io.k8s.api.core.v1.ServiceSpec.ports"   # a list field …
//! unique = "name"                               # … whose items' names differ
//! required_when_many = "name"                   # … and are set when > 1 item
//! source = "pkg/apis/core/validation: validateServicePort"
//!
//! [[rules]]
//! on = "io.k8s.api.core.v1.Probe"               # an object …
//! exactly_one_of = ["exec", "httpGet", "tcpSocket", "grpc"]
//! none = "must specify a handler type"
//! too_many = "may not specify more than 1 handler type"
//! source = "pkg/apis/core/validation: validateHandler"
//!
//! [[rules]]
//! on = "io.k8s.api.networking.v1.NetworkPolicyPeer"
//! one_or_more_of = ["podSelector", "namespaceSelector", "ipBlock"]
//! alone = "ipBlock"                             # … and this one only alone
//! none = "must specify a peer"
//! too_many = "may not specify both ipBlock and another peer"
//! source = "pkg/apis/networking/validation: ValidateNetworkPolicyPeer"
//! ```

use crate::error::{Error, Result};
use crate::model::{GatedModel, MinorModel};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;
use vergate_core::gates::CrossFieldRule;

/// The overlay's file name inside `upstream-specs/<api>/`.
pub const REFINEMENTS_FILE: &str = "refinements.toml";

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Overlay {
    #[serde(default)]
    shapes: BTreeMap<String, Shape>,
    #[serde(default)]
    fields: BTreeMap<String, Vec<String>>,
    #[serde(default)]
    rules: Vec<RuleEntry>,
}

/// One `[[rules]]` entry: `on` a list field (`unique`,
/// `required_when_many`) or on an object (`exactly_one_of`, or
/// `one_or_more_of` with `alone`; `none`, `too_many`); `source` says where
/// the API server enforces it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RuleEntry {
    on: String,
    source: String,
    unique: Option<String>,
    required_when_many: Option<String>,
    exactly_one_of: Option<Vec<String>>,
    one_or_more_of: Option<Vec<String>>,
    alone: Option<String>,
    none: Option<String>,
    too_many: Option<String>,
}

/// The cross-field rules of the overlay, by definition name, to lay on the
/// merged model.
#[derive(Debug, Default)]
pub struct Rules(Vec<(String, CrossFieldRule)>);

impl Rules {
    /// Adds each rule to its type of `model`.
    pub fn apply(self, model: &mut GatedModel) {
        for (definition, rule) in self.0 {
            if let Some(ty) = model.types.get_mut(&definition) {
                ty.rules.push(rule);
            }
        }
    }
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

/// Applies `api_dir/refinements.toml`, when there is one, to `minors`, and
/// returns its cross-field rules for the merged model.
pub fn apply(minors: &mut [MinorModel], api_dir: &Path) -> Result<Rules> {
    let path = api_dir.join(REFINEMENTS_FILE);
    if !path.is_file() {
        return Ok(Rules::default());
    }
    let text = std::fs::read_to_string(&path)
        .map_err(|source| Error::io(&path, "reading the refinements", source))?;
    apply_text(minors, &path, &text)
}

/// Applies the overlay `text` (read from `path`); every mistake is reported
/// at once.
pub fn apply_text(minors: &mut [MinorModel], path: &Path, text: &str) -> Result<Rules> {
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
    let rules = overlay
        .rules
        .iter()
        .enumerate()
        .flat_map(|(index, entry)| rules_of(index, entry, minors, &mut problems))
        .collect();
    if problems.is_empty() {
        Ok(Rules(rules))
    } else {
        Err(config(problems.join("\n")))
    }
}

/// The rules of one `[[rules]]` entry (the `index`th), each checked
/// against the minors: its definition and fields exist in some minor.
fn rules_of(
    index: usize,
    entry: &RuleEntry,
    minors: &[MinorModel],
    problems: &mut Vec<String>,
) -> Vec<(String, CrossFieldRule)> {
    let at = format!("rules[{index}] (on {:?})", entry.on);
    if entry.source.trim().is_empty() {
        problems.push(format!(
            "{at}: say where the API server enforces it in `source`"
        ));
    }
    let has = |definition: &str, field: &str| {
        minors.iter().any(|minor| {
            minor
                .definitions
                .get(definition)
                .and_then(|d| d.object())
                .is_some_and(|object| object.properties.contains_key(field))
        })
    };
    let mut out = Vec::new();
    let list_rules = entry.unique.is_some() || entry.required_when_many.is_some();
    if let (Some(fields), false, None) = (&entry.one_or_more_of, list_rules, &entry.exactly_one_of)
    {
        let definition = entry.on.as_str();
        for field in fields.iter().filter(|field| !has(definition, field)) {
            problems.push(format!("{at}: no minor's {definition} has field {field:?}"));
        }
        match (&entry.alone, &entry.none, &entry.too_many) {
            (Some(alone), Some(none), Some(too_many)) if fields.contains(alone) => out.push((
                definition.to_owned(),
                CrossFieldRule::OneOrMoreOf {
                    fields: fields.clone(),
                    alone: alone.clone(),
                    none: none.clone(),
                    too_many: too_many.clone(),
                },
            )),
            _ => problems.push(format!(
                "{at}: one_or_more_of needs `alone` (one of its fields) and the API server's `none` and `too_many` messages"
            )),
        }
        return out;
    }
    match (&entry.exactly_one_of, list_rules) {
        (Some(fields), false) if entry.one_or_more_of.is_none() => {
            let definition = entry.on.as_str();
            for field in fields.iter().filter(|field| !has(definition, field)) {
                problems.push(format!("{at}: no minor's {definition} has field {field:?}"));
            }
            match (&entry.none, &entry.too_many, fields.len()) {
                (Some(none), Some(too_many), 2..) => out.push((
                    definition.to_owned(),
                    CrossFieldRule::ExactlyOneOf {
                        fields: fields.clone(),
                        none: none.clone(),
                        too_many: too_many.clone(),
                    },
                )),
                (_, _, 0 | 1) => problems.push(format!("{at}: exactly_one_of needs two fields or more")),
                _ => problems.push(format!(
                    "{at}: exactly_one_of needs the API server's `none` and `too_many` messages"
                )),
            }
        }
        (None, true) => {
            let Some((definition, field)) = entry.on.rsplit_once('.') else {
                problems.push(format!("{at}: name a list field as \"<definition>.<field>\""));
                return out;
            };
            if !has(definition, field) {
                problems.push(format!("{at}: no minor's {definition} has field {field:?}"));
            }
            if let Some(key) = &entry.unique {
                out.push((
                    definition.to_owned(),
                    CrossFieldRule::UniqueKey {
                        field: field.to_owned(),
                        key: key.clone(),
                    },
                ));
            }
            if let Some(key) = &entry.required_when_many {
                out.push((
                    definition.to_owned(),
                    CrossFieldRule::KeyRequiredWhenMany {
                        field: field.to_owned(),
                        key: key.clone(),
                    },
                ));
            }
        }
        _ => problems.push(format!(
            "{at}: give either `exactly_one_of` or `one_or_more_of` (on an object) or `unique`/`required_when_many` (on a list field)"
        )),
    }
    out
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

    #[test]
    fn rules_are_checked_against_the_minors() {
        let mut minors = minors();
        let text = "[[rules]]\non = \"a.Port.port\"\nunique = \"name\"\nsource = \"here\"\n\n[[rules]]\non = \"a.Port\"\nexactly_one_of = [\"port\", \"name\"]\nnone = \"n\"\ntoo_many = \"t\"\nsource = \"there\"\n";
        let rules = apply_text(&mut minors, Path::new("r.toml"), text).unwrap();
        assert_eq!(rules.0.len(), 2);
        let text = "[[rules]]\non = \"a.Port.nope\"\nunique = \"name\"\nsource = \"\"\n\n[[rules]]\non = \"a.Port\"\nexactly_one_of = [\"port\", \"gone\"]\nsource = \"s\"\n\n[[rules]]\non = \"a.Port\"\nsource = \"s\"\n";
        let err = apply_text(&mut minors, Path::new("r.toml"), text)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("no minor's a.Port has field \"nope\""),
            "{err}"
        );
        assert!(
            err.contains("say where the API server enforces it"),
            "{err}"
        );
        assert!(
            err.contains("no minor's a.Port has field \"gone\""),
            "{err}"
        );
        assert!(
            err.contains("needs the API server's `none` and `too_many`"),
            "{err}"
        );
        assert!(err.contains("give either `exactly_one_of`"), "{err}");
    }

    #[test]
    fn one_or_more_of_names_a_field_that_stands_alone() {
        let mut minors = minors();
        let text = "[[rules]]\non = \"a.Port\"\none_or_more_of = [\"port\", \"name\"]\nalone = \"name\"\nnone = \"n\"\ntoo_many = \"t\"\nsource = \"s\"\n";
        let rules = apply_text(&mut minors, Path::new("r.toml"), text).unwrap();
        assert!(matches!(
            &rules.0[..],
            [(on, CrossFieldRule::OneOrMoreOf { alone, .. })] if on == "a.Port" && alone == "name"
        ));
        let text = "[[rules]]\non = \"a.Port\"\none_or_more_of = [\"port\", \"name\"]\nalone = \"other\"\nnone = \"n\"\ntoo_many = \"t\"\nsource = \"s\"\n";
        let err = apply_text(&mut minors, Path::new("r.toml"), text)
            .unwrap_err()
            .to_string();
        assert!(err.contains("needs `alone` (one of its fields)"), "{err}");
    }
}
