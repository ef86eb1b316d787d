//! The JSON Schema (2020-12) of one definition in one minor: the definition
//! at the root (`$ref`) and every definition it reaches, in that minor, under
//! `$defs`.

use super::json::Json;
use crate::model::{Definition, GatedModel, Property, Schema};
use std::collections::BTreeSet;
use vergate_core::Version;

const DIALECT: &str = "https://json-schema.org/draft/2020-12/schema";

/// The schema of definition `name` as minor `version` has it, as compact JSON
/// text. `closed` rejects properties an object does not declare.
pub fn json_schema(model: &GatedModel, version: Version, name: &str, closed: bool) -> String {
    let minor = &model.minors[&version];
    let mut reached = BTreeSet::new();
    let mut pending = vec![name.to_owned()];
    while let Some(next) = pending.pop() {
        let Some(definition) = minor.definitions.get(&next) else {
            continue;
        };
        if reached.insert(next) {
            pending.extend(references(definition).map(str::to_owned));
        }
    }
    let defs = reached
        .iter()
        .map(|name| {
            let definition = &minor.definitions[name];
            (
                name.clone(),
                definition_schema(model, version, definition, closed),
            )
        })
        .collect();
    Json::object()
        .with("$schema", Json::string(DIALECT))
        .with("$ref", Json::string(def_ref(name)))
        .with("$defs", Json::Object(defs))
        .to_text()
}

fn references(definition: &Definition) -> impl Iterator<Item = &str> {
    let own = definition.schema.referenced();
    let properties = definition.object().into_iter().flat_map(|object| {
        object
            .properties
            .values()
            .filter_map(|property| property.schema.referenced())
            .chain(object.additional.as_deref().and_then(Schema::referenced))
    });
    own.into_iter().chain(properties)
}

fn definition_schema(
    model: &GatedModel,
    version: Version,
    definition: &Definition,
    closed: bool,
) -> Json {
    let mut out = match &definition.schema {
        Schema::Object(object) => {
            let lifecycle = &model.types[&definition.name];
            let properties = object
                .properties
                .iter()
                .map(|(wire, property)| {
                    let deprecated = lifecycle.fields[wire].lifecycle.is_deprecated_in(version);
                    let schema = property_schema(property, deprecated);
                    let schema = if object.required.contains(wire) {
                        schema
                    } else {
                        or_null(schema)
                    };
                    (wire.clone(), schema)
                })
                .collect();
            let mut out = Json::object()
                .with("type", Json::string("object"))
                .with("properties", Json::Object(properties));
            if !object.required.is_empty() {
                let required = object.required.iter().map(Json::string).collect();
                out = out.with("required", Json::Array(required));
            }
            match (&object.additional, closed) {
                (Some(additional), _) => out.with("additionalProperties", schema(additional)),
                (None, true) => out.with("additionalProperties", Json::Bool(false)),
                (None, false) => out,
            }
        }
        other => schema(other),
    };
    if let Some(description) = &definition.description {
        out = out.with("description", Json::string(description.trim()));
    }
    if !definition.enum_values.is_empty() {
        let values = definition.enum_values.iter().map(Json::string).collect();
        out = out.with("enum", Json::Array(values));
    }
    for (keyword, value) in &definition.keywords {
        out = out.with(keyword, Json::Raw(value.clone()));
    }
    out
}

/// A list or map (`ty`) whose elements, under `keyword`, are held to `values`.
fn element_enum(ty: &str, keyword: &str, element: &Schema, values: &[String]) -> Json {
    let values = values.iter().map(Json::string).collect();
    Json::object()
        .with("type", Json::string(ty))
        .with(keyword, schema(element).with("enum", Json::Array(values)))
}

fn property_schema(property: &Property, deprecated: bool) -> Json {
    let mut out = match &property.schema {
        Schema::Array(item) if !property.element_enum_values.is_empty() => {
            element_enum("array", "items", item, &property.element_enum_values)
        }
        Schema::Map(value) if !property.element_enum_values.is_empty() => element_enum(
            "object",
            "additionalProperties",
            value,
            &property.element_enum_values,
        ),
        other => schema(other),
    };
    if let Some(description) = &property.description {
        out = out.with("description", Json::string(description.trim()));
    }
    if deprecated {
        out = out.with("deprecated", Json::Bool(true));
    }
    if !property.enum_values.is_empty() {
        let values = property.enum_values.iter().map(Json::string).collect();
        out = out.with("enum", Json::Array(values));
    }
    if let Some(default) = &property.default {
        out = out.with("default", Json::Raw(default.clone()));
    }
    for (keyword, value) in &property.keywords {
        out = out.with(keyword, Json::Raw(value.clone()));
    }
    out
}

/// `schema` that also accepts `null`, as an optional field (`Option<T>`)
/// does: `"null"` joins a `type`, an `anyOf` or an `enum`; a `$ref` becomes
/// `anyOf: [{"$ref": …}, {"type": "null"}]`. A schema without any of them
/// accepts `null` already.
fn or_null(schema: Json) -> Json {
    let null_type = || Json::object().with("type", Json::string("null"));
    let Json::Object(entries) = schema else {
        return schema;
    };
    let entries = entries
        .into_iter()
        .map(|(key, value)| match (key.as_str(), value) {
            ("type", Json::String(name)) => {
                let types = vec![Json::String(name), Json::string("null")];
                (key, Json::Array(types))
            }
            ("$ref", target) => {
                let options = vec![Json::object().with("$ref", target), null_type()];
                ("anyOf".to_owned(), Json::Array(options))
            }
            ("anyOf", Json::Array(mut options)) => {
                options.push(null_type());
                (key, Json::Array(options))
            }
            ("enum", Json::Array(mut values)) => {
                values.push(Json::Raw("null".into()));
                (key, Json::Array(values))
            }
            (_, value) => (key, value),
        })
        .collect();
    Json::Object(entries)
}

/// The schema of a type expression; always an object, so that callers can add
/// keywords to it.
fn schema(schema: &Schema) -> Json {
    let typed = |name: &str, format: &Option<String>| {
        let out = Json::object().with("type", Json::string(name));
        match format {
            Some(format) => out.with("format", Json::string(format)),
            None => out,
        }
    };
    match schema {
        Schema::Ref(name) => Json::object().with("$ref", Json::string(def_ref(name))),
        Schema::Boolean => typed("boolean", &None),
        Schema::Integer { format } => typed("integer", format),
        Schema::Number { format } => typed("number", format),
        Schema::String { format } => typed("string", format),
        Schema::IntOrString => Json::object().with(
            "anyOf",
            Json::Array(vec![typed("integer", &None), typed("string", &None)]),
        ),
        Schema::Array(item) => typed("array", &None).with("items", self::schema(item)),
        Schema::Map(value) => {
            typed("object", &None).with("additionalProperties", self::schema(value))
        }
        Schema::Object(_) => typed("object", &None),
        Schema::Any => Json::object(),
    }
}

/// `#/$defs/<name>`, escaped as a JSON Pointer (RFC 6901).
fn def_ref(name: &str) -> String {
    format!("#/$defs/{}", vergate_core::json_pointer::escape(name))
}
