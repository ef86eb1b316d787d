//! The example user file of one minor: a target of that minor and a minimal
//! document of every kind (its required properties filled in, and a
//! `metadata.name`), importing `@<pkg>/v<X.Y>/…`.

use super::definition_modules::{Location, MinorLayout};
use super::escape::pkl_string;
use crate::model::{Definition, MinorModel, Property, Schema};
use serde::Serialize;
use std::collections::BTreeSet;
use vergate_core::alias::{import_aliases, pkl_identifier};
use vergate_core::Version;

#[derive(Debug, Serialize)]
pub struct ExampleData {
    pub api: String,
    pub package: String,
    pub version: String,
    pub dir: String,
    pub ident: String,
    pub version_field: String,
    pub imports: Vec<super::subtree::Import>,
    pub target_alias: String,
    pub resources: Vec<ExampleResource>,
}

#[derive(Debug, Serialize)]
pub struct ExampleResource {
    pub alias: String,
    /// The lines inside `(Kind) { … }`, indented by four spaces.
    pub body: String,
}

/// The example of `minor`: every preferred kind that has `metadata` and is
/// not a list.
pub fn example<'a>(
    api: &str,
    package: &str,
    version_field: &str,
    minor: &'a MinorModel,
    layout: &'a MinorLayout<'a>,
) -> ExampleData {
    let version: Version = minor.version;
    let chosen: Vec<(&String, &'a Definition)> = layout
        .resources
        .iter()
        .filter(|(_, r)| {
            r.preferred
                && !r.kind.kind.ends_with("List")
                && r.definition
                    .object()
                    .is_some_and(|o| o.properties.contains_key("metadata"))
        })
        .map(|(module, r)| (module, r.definition))
        .collect();
    let target_path = format!("@{package}/target.pkl");
    let mut paths = vec![target_path];
    paths.extend(
        chosen
            .iter()
            .map(|(module, _)| format!("@{package}/{}/{module}.pkl", version.dir_name())),
    );
    let aliases: Vec<String> = import_aliases(&paths)
        .iter()
        .map(|a| pkl_identifier(a).into_owned())
        .collect();
    let resources = chosen
        .iter()
        .zip(&aliases[1..])
        .map(|((module, definition), alias)| {
            let kind = module.rsplit('/').next().unwrap_or(module);
            let mut filler = Filler {
                minor,
                layout,
                name: format!("example-{}", kind.to_ascii_lowercase()),
                body: String::new(),
            };
            filler.fill(definition, 2, &mut BTreeSet::new(), Level::Document);
            ExampleResource {
                alias: alias.clone(),
                body: filler.body,
            }
        })
        .collect();
    ExampleData {
        api: api.to_owned(),
        package: package.to_owned(),
        version: version.to_string(),
        dir: version.dir_name(),
        ident: version.ident(),
        version_field: version_field.to_owned(),
        imports: paths
            .iter()
            .zip(&aliases)
            .map(|(path, alias)| super::subtree::Import {
                path: path.clone(),
                alias: alias.clone(),
            })
            .collect(),
        target_alias: aliases[0].clone(),
        resources,
    }
}

/// Writes the smallest amendment that gives every required property a value.
struct Filler<'a> {
    minor: &'a MinorModel,
    layout: &'a MinorLayout<'a>,
    name: String,
    body: String,
}

/// What a property is filled with.
enum Value<'a> {
    Scalar(String),
    Object(&'a Definition),
}

/// Which extra properties a level fills beside the required ones.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Level {
    /// The document: also `metadata`; `apiVersion` and `kind` are fixed.
    Document,
    /// The document's `metadata`: also `name`.
    Metadata,
    Nested,
}

impl<'a> Filler<'a> {
    /// Fills `definition`'s required properties at `depth` (in units of two
    /// spaces). `open` holds the definitions being filled, so a required
    /// cycle stops instead of recursing forever.
    fn fill(
        &mut self,
        definition: &'a Definition,
        depth: usize,
        open: &mut BTreeSet<&'a str>,
        level: Level,
    ) {
        let Some(object) = definition.object() else {
            return;
        };
        if !open.insert(&definition.name) {
            return;
        }
        let pad = "  ".repeat(depth);
        for (name, property) in &object.properties {
            let is_metadata = level == Level::Document && name == "metadata";
            let is_name = level == Level::Metadata && name == "name";
            let fixed = level == Level::Document && (name == "apiVersion" || name == "kind");
            if fixed || !(object.required.contains(name) || is_metadata || is_name) {
                continue;
            }
            let ident = pkl_identifier(name);
            if is_name {
                let value = pkl_string(&self.name);
                self.body.push_str(&format!("{pad}{ident} = {value}\n"));
                continue;
            }
            let value = self.value(&property.schema, &property.enum_values);
            match within_constraints(value, property) {
                Some(Value::Scalar(text)) => {
                    self.body.push_str(&format!("{pad}{ident} = {text}\n"));
                }
                Some(Value::Object(inner)) => {
                    let mark = self.body.len();
                    self.body.push_str(&format!("{pad}{ident} {{\n"));
                    let before = self.body.len();
                    let next = if is_metadata {
                        Level::Metadata
                    } else {
                        Level::Nested
                    };
                    self.fill(inner, depth + 1, open, next);
                    if self.body.len() == before {
                        // Its default instance will do.
                        self.body.truncate(mark);
                    } else {
                        self.body.push_str(&format!("{pad}}}\n"));
                    }
                }
                None => {}
            }
        }
        open.remove(definition.name.as_str());
    }

    fn value(&self, schema: &'a Schema, enum_values: &'a [String]) -> Option<Value<'a>> {
        Some(match schema {
            Schema::Integer { .. } | Schema::Number { .. } | Schema::Boolean | Schema::Any
                if !enum_values.is_empty() =>
            {
                Value::Scalar(super::enum_type::literal(&enum_values[0]))
            }
            Schema::String { .. } => Value::Scalar(pkl_string(
                enum_values.first().map_or("example", String::as_str),
            )),
            Schema::Integer { .. } | Schema::Number { .. } | Schema::IntOrString => {
                Value::Scalar("1".into())
            }
            Schema::Boolean => Value::Scalar("false".into()),
            Schema::Any => Value::Scalar("new Dynamic {}".into()),
            Schema::Ref(name) => {
                let minor: &'a MinorModel = self.minor;
                let definition = minor.definitions.get(name)?;
                let location = self.layout.locations.get(name.as_str())?;
                return match (location, &definition.schema) {
                    (Location::Member { .. }, Schema::Object(o)) if !o.properties.is_empty() => {
                        Some(Value::Object(definition))
                    }
                    // A class that is a module of its own (ObjectMeta), not a resource.
                    (Location::Module { module }, Schema::Object(o))
                        if !o.properties.is_empty()
                            && self.layout.object_modules.contains_key(module) =>
                    {
                        Some(Value::Object(definition))
                    }
                    (Location::Member { .. }, Schema::Object(_)) | (Location::Module { .. }, _) => {
                        None
                    }
                    (Location::Member { .. }, other) => self.value(other, &definition.enum_values),
                };
            }
            // No example for a union: which member fits best is the
            // user's call (the example sets required properties only).
            Schema::Array(_) | Schema::Map(_) | Schema::Object(_) | Schema::Union(_) => {
                return None
            }
        })
    }
}

/// An example scalar moved inside the property's constraints where it
/// falls outside: a number into its bounds, `"example"` cut or padded to
/// its length (a `pattern` it misses is not chased).
fn within_constraints<'a>(value: Option<Value<'a>>, property: &Property) -> Option<Value<'a>> {
    let constraints = crate::model::constraints::constraints_of(&property.keywords);
    let example = match (&property.schema, value) {
        (Schema::Integer { .. } | Schema::Number { .. }, Some(Value::Scalar(_))) => {
            let mut number = 1.0_f64;
            if let Some(min) = constraints.minimum.filter(|min| number < min.0) {
                number = min.0.ceil();
            }
            if let Some(min) = constraints.exclusive_minimum.filter(|min| number <= min.0) {
                number = min.0.floor() + 1.0;
            }
            if let Some(max) = constraints.maximum.filter(|max| number > max.0) {
                number = max.0.floor();
            }
            if let Some(max) = constraints.exclusive_maximum.filter(|max| number >= max.0) {
                number = max.0.ceil() - 1.0;
            }
            vergate_core::gates::Number(number).to_string()
        }
        (Schema::String { .. }, Some(Value::Scalar(_)))
            if property.enum_values.is_empty()
                && (constraints.min_length.is_some() || constraints.max_length.is_some()) =>
        {
            let mut text = "example".to_owned();
            let min = constraints.min_length.unwrap_or(0) as usize;
            while text.len() < min.min(4096) {
                text.push('x');
            }
            if let Some(max) = constraints.max_length {
                text.truncate(max as usize);
            }
            pkl_string(&text)
        }
        (_, value) => return value,
    };
    Some(Value::Scalar(example))
}
