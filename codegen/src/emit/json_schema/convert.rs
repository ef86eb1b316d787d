//! One definition of one minor as a JSON Schema 2020-12 value.

use super::keywords::{allow_null, insert_keywords, is_nullable, typed_enum};
use super::vergate_keyword::{GateKeywords, KEYWORD};
use crate::model::{Definition, Property, Schema};
use serde_json::{Map, Value};
use std::collections::BTreeSet;
use vergate_core::Version;

/// Kubernetes' quantity (`"500m"`, `"1Gi"`); written as a string or a number,
/// as the Kubernetes tooling accepts both.
pub const QUANTITY: &str = "io.k8s.apimachinery.pkg.api.resource.Quantity";

/// How definitions are written: for which minor, strict or not, and where
/// references point.
#[derive(Clone, Copy, Debug)]
pub struct Style<'a> {
    pub minor: Version,
    /// `additionalProperties: false` on every object that has properties.
    pub strict: bool,
    /// What a definition's name is appended to in a `$ref` (`#/$defs/`).
    pub ref_base: &'a str,
    /// The property that carries the document's minor, when the API has one
    /// (api.toml's `document_version_field`).
    pub document_version_field: Option<&'a str>,
    pub gates: &'a GateKeywords,
}

/// The schema of `definition` in `style`.
pub fn definition(definition: &Definition, style: &Style) -> Value {
    let mut out = if definition.name == QUANTITY {
        type_union(&["number", "string"])
    } else {
        shape(&definition.schema, style)
    };
    if let Schema::Object(object) = &definition.schema {
        if !object.properties.is_empty() {
            let properties: Map<String, Value> = object
                .properties
                .iter()
                .map(|(name, property)| {
                    let required = object.required.contains(name);
                    let value = property_schema(definition, name, property, required, style);
                    (name.clone(), value)
                })
                .collect();
            out.insert("properties".into(), Value::Object(properties));
            if !object.required.is_empty() {
                let required = object.required.iter().cloned().map(Value::String);
                out.insert("required".into(), Value::Array(required.collect()));
            }
        }
        match &object.additional {
            Some(additional) if !matches!(**additional, Schema::Any) => {
                out.insert(
                    "additionalProperties".into(),
                    Value::Object(shape(additional, style)),
                );
            }
            None if style.strict && is_closable(definition) => {
                out.insert("additionalProperties".into(), Value::Bool(false));
            }
            _ => {}
        }
    }
    describe(&mut out, definition.description.as_deref());
    if !definition.enum_values.is_empty() {
        out.insert(
            "enum".into(),
            typed_enum(&definition.enum_values, &definition.schema),
        );
    }
    insert_keywords(&mut out, &definition.keywords);
    let deprecated = style
        .gates
        .type_deprecated_in(&definition.name, style.minor);
    if definition.deprecated || deprecated {
        out.insert("deprecated".into(), Value::Bool(true));
    }
    if let Some(gate) = style.gates.of_type(&definition.name) {
        out.insert(KEYWORD.into(), gate.clone());
    }
    if is_nullable(&definition.keywords) {
        allow_null(&mut out);
    }
    Value::Object(out)
}

/// Points the references of a schema converted with the ref base `from` at
/// `to` instead, as converting with `to` would have: the `$ref`s that
/// [`definition`] writes sit at the top, in `properties`, `items`,
/// `additionalProperties` and the `anyOf` of a property that may be null.
/// Kept keywords (`examples`, `const`, `default`…) are never entered,
/// whatever they hold.
pub fn rebase_refs(schema: &mut Value, from: &str, to: &str) {
    let Value::Object(map) = schema else {
        return;
    };
    if let Some(Value::String(target)) = map.get_mut("$ref") {
        if let Some(name) = target.strip_prefix(from) {
            *target = format!("{to}{name}");
        }
    }
    for key in ["items", "additionalProperties"] {
        if let Some(inner) = map.get_mut(key) {
            rebase_refs(inner, from, to);
        }
    }
    if let Some(Value::Array(options)) = map.get_mut("anyOf") {
        for option in options {
            rebase_refs(option, from, to);
        }
    }
    if let Some(Value::Object(properties)) = map.get_mut("properties") {
        for property in properties.values_mut() {
            rebase_refs(property, from, to);
        }
    }
}

/// True when the strict style closes the definition with
/// `additionalProperties: false`: an object that has properties and says
/// nothing about other keys. Objects occur only at the top of a definition
/// (inline ones are hoisted), so this is the only place strict differs.
pub fn is_closable(definition: &Definition) -> bool {
    matches!(&definition.schema, Schema::Object(object)
        if !object.properties.is_empty() && object.additional.is_none())
}

/// The schema of one property. An optional one also accepts `null`, which
/// Kubernetes reads as "unset", except the fixed `apiVersion`, `kind` and
/// document version field of a resource kind: a null there names no kind.
fn property_schema(
    owner: &Definition,
    name: &str,
    property: &Property,
    required: bool,
    style: &Style,
) -> Value {
    let fixed = fixed_value(owner, name, style);
    let nullable = (!required && fixed.is_none()) || is_nullable(&property.keywords);
    let mut out = match fixed {
        Some(fixed) => {
            let mut out = Map::new();
            out.insert("type".into(), Value::String("string".into()));
            out.extend(fixed);
            out
        }
        None => {
            let mut out = shape(&property.schema, style);
            if !property.enum_values.is_empty() {
                let values = typed_enum(&property.enum_values, &property.schema);
                out.insert("enum".into(), values);
            }
            insert_element_enum(&mut out, property);
            out
        }
    };
    describe(&mut out, property.description.as_deref());
    if let Some(default) = &property.default {
        if let Ok(value) = serde_json::from_str(default) {
            out.insert("default".into(), value);
        }
    }
    insert_keywords(&mut out, &property.keywords);
    let deprecated = style
        .gates
        .field_deprecated_in(&owner.name, name, style.minor);
    if property.deprecated || deprecated {
        out.insert("deprecated".into(), Value::Bool(true));
    }
    if let Some(gate) = style.gates.of_field(&owner.name, name) {
        out.insert(KEYWORD.into(), gate.clone());
    }
    if nullable {
        allow_null(&mut out);
    }
    Value::Object(out)
}

/// Writes the element enum of a list or map property as `items.enum` or
/// `additionalProperties.enum`, typed for the elements.
fn insert_element_enum(out: &mut Map<String, Value>, property: &Property) {
    if property.element_enum_values.is_empty() {
        return;
    }
    let (keyword, element) = match &property.schema {
        Schema::Array(item) => ("items", item),
        Schema::Map(value) => ("additionalProperties", value),
        _ => return,
    };
    if let Some(Value::Object(schema)) = out.get_mut(keyword) {
        let values = typed_enum(&property.element_enum_values, element);
        schema.insert("enum".into(), values);
    }
}

/// The values `apiVersion`, `kind` and the document version field are held
/// to in a resource kind: `const` for one value, `enum` for several.
fn fixed_value(owner: &Definition, name: &str, style: &Style) -> Option<Map<String, Value>> {
    if owner.kinds.is_empty() {
        return None;
    }
    let values: BTreeSet<String> = if style.document_version_field == Some(name) {
        BTreeSet::from([style.minor.to_string()])
    } else if name == "apiVersion" {
        owner.kinds.iter().map(|gvk| gvk.api_version()).collect()
    } else if name == "kind" {
        owner.kinds.iter().map(|gvk| gvk.kind.clone()).collect()
    } else {
        return None;
    };
    let mut out = Map::new();
    let mut values: Vec<Value> = values.into_iter().map(Value::String).collect();
    if values.len() == 1 {
        out.insert("const".into(), values.remove(0));
    } else {
        out.insert("enum".into(), Value::Array(values));
    }
    Some(out)
}

/// The type keywords of a schema (no documentation).
fn shape(schema: &Schema, style: &Style) -> Map<String, Value> {
    let mut out = Map::new();
    let mut typed = |name: &str, format: &Option<String>| {
        out.insert("type".into(), Value::String(name.into()));
        if let Some(format) = format {
            out.insert("format".into(), Value::String(format.clone()));
        }
    };
    match schema {
        Schema::Ref(name) => {
            out.insert(
                "$ref".into(),
                Value::String(format!("{}{name}", style.ref_base)),
            );
        }
        Schema::Boolean => typed("boolean", &None),
        Schema::Integer { format } => typed("integer", format),
        Schema::Number { format } => typed("number", format),
        Schema::String { format } => typed("string", format),
        Schema::IntOrString => return type_union(&["integer", "string"]),
        Schema::Array(item) => {
            typed("array", &None);
            out.insert("items".into(), Value::Object(shape(item, style)));
        }
        Schema::Map(value) => {
            typed("object", &None);
            if !matches!(**value, Schema::Any) {
                out.insert(
                    "additionalProperties".into(),
                    Value::Object(shape(value, style)),
                );
            }
        }
        Schema::Object(_) => typed("object", &None),
        Schema::Any => {}
    }
    out
}

fn type_union(types: &[&str]) -> Map<String, Value> {
    let mut out = Map::new();
    let types = types.iter().map(|t| Value::String((*t).into())).collect();
    out.insert("type".into(), Value::Array(types));
    out
}

fn describe(out: &mut Map<String, Value>, description: Option<&str>) {
    if let Some(text) = description {
        out.insert("description".into(), Value::String(text.to_owned()));
    }
}

/// The definitions `schema` refers to directly (looking through arrays,
/// maps and an object's properties).
pub fn references(schema: &Schema) -> Vec<&str> {
    match schema {
        Schema::Object(object) => object
            .properties
            .values()
            .filter_map(|property| property.schema.referenced())
            .chain(object.additional.as_deref().and_then(Schema::referenced))
            .collect(),
        other => other.referenced().into_iter().collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ObjectSchema;
    use serde_json::json;

    /// The schema of `property` as the optional property of an object.
    fn property_schema(property: Property) -> serde_json::Value {
        let mut object = ObjectSchema::default();
        object.properties.insert("p".into(), property);
        let gates = GateKeywords::default();
        let style = Style {
            minor: Version::new(1, 0),
            strict: false,
            ref_base: "#/$defs/",
            document_version_field: None,
            gates: &gates,
        };
        let schema = definition(&Definition::new("a.T", Schema::Object(object)), &style);
        schema["properties"]["p"].clone()
    }

    #[test]
    fn an_arrays_own_enum_and_its_items_enum_stay_apart() {
        let mut list = Property::new(Schema::Array(Box::new(Schema::Integer { format: None })));
        list.enum_values = vec!["[1,2]".into()];
        list.element_enum_values = vec!["1".into(), "2".into(), "3".into()];
        assert_eq!(
            property_schema(list),
            // Optional, so null is allowed beside the array's own value.
            json!({"type": ["array", "null"], "items": {"type": "integer", "enum": [1, 2, 3]}, "enum": [[1, 2], null]})
        );
    }

    #[test]
    fn a_maps_element_enum_goes_to_its_values() {
        let mut map = Property::new(Schema::Map(Box::new(Schema::String { format: None })));
        map.element_enum_values = vec!["a".into(), "b".into()];
        assert_eq!(
            property_schema(map),
            json!({"type": ["object", "null"], "additionalProperties": {"type": "string", "enum": ["a", "b"]}})
        );
    }
}
