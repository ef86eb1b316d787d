//! One definition of one minor as a JSON Schema 2020-12 value.

use super::editor;
use super::gate_keyword::KEYWORD;
use super::keywords::{allow_null, insert_keywords, is_nullable, typed_enum};
use super::shape::{shape, type_union};
pub use super::style::Style;
use crate::model::{Convention, Definition, ObjectSchema, Property, Schema};
use crate::to_json_schema::Object;
use std::collections::BTreeSet;
use vergate_core::json::{self, Value};

/// The schema of `definition` in `style`.
pub fn definition(definition: &Definition, style: &Style) -> Value {
    // A quantity is written as a string or a number, as the Kubernetes
    // tooling accepts both.
    let mut out = if definition.convention == Some(Convention::Quantity) {
        type_union(&["number", "string"])
    } else {
        shape(&definition.schema, style)
    };
    if let Schema::Object(object) = &definition.schema {
        let closed = is_closed(definition, object, style);
        if !object.properties.is_empty() {
            // Where the object is closed anyway, properties of other minors
            // are refused in vergate's words (`closes_absent_properties`).
            let mut properties: Object = object
                .properties
                .iter()
                .map(|(name, property)| {
                    let required = object.required.contains(name);
                    let value = property_schema(definition, name, property, required, style);
                    (name.clone(), value)
                })
                .collect();
            if closed {
                properties.extend(editor::absent_properties(
                    &definition.name,
                    &object.properties,
                    style,
                ));
            }
            out.insert("properties".into(), Value::Object(properties));
            if !object.required.is_empty() {
                let required = object.required.iter().map(super::string);
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
            None if closed => {
                out.insert("additionalProperties".into(), Value::Bool(false));
            }
            _ => {}
        }
    }
    if let Schema::Union(union) = &definition.schema {
        out.extend(super::union::union_keywords(&definition.name, union, style));
    }
    describe(&mut out, definition.description.as_deref());
    if !definition.enum_values.is_empty() {
        out.insert(
            "enum".into(),
            typed_enum(&definition.enum_values, &definition.schema),
        );
    }
    insert_keywords(&mut out, &definition.keywords);
    editor::definition(&mut out, &definition.name, style);
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

/// True when `definition`, converted in `style`, is closed and lists the
/// properties of other minors with the error each gives (for editors; see
/// `editor.rs`): its strict schema then differs from the plain one by more
/// than `additionalProperties: false`.
pub fn closes_absent_properties(definition: &Definition, style: &Style) -> bool {
    match &definition.schema {
        Schema::Object(object)
            if !object.properties.is_empty() && is_closed(definition, object, style) =>
        {
            editor::has_absent_properties(&definition.name, &object.properties, style)
        }
        _ => false,
    }
}

/// True when the schema of `definition` (whose object is `object`) gets
/// `additionalProperties: false` in `style`: its spec closes it, or the
/// strict style does.
fn is_closed(definition: &Definition, object: &ObjectSchema, style: &Style) -> bool {
    object.additional.is_none() && (object.closed || (style.strict && is_closable(definition)))
}

/// True when the strict style closes the definition with
/// `additionalProperties: false`: an object that has properties and says
/// nothing about other keys (one whose spec closes it is closed in every
/// style). Objects occur only at the top of a definition
/// (inline ones are hoisted), so this is the only place strict differs.
pub fn is_closable(definition: &Definition) -> bool {
    matches!(&definition.schema, Schema::Object(object)
        if !object.properties.is_empty() && object.additional.is_none() && !object.closed)
}

/// The schema of one property. An optional one also accepts `null`, which
/// Kubernetes reads as "unset" (and serde as `None`), except the fixed
/// `apiVersion`, `kind` and document version field of a resource kind: a
/// null there names no kind.
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
            let mut out = Object::from_iter([("type".to_owned(), super::string("string"))]);
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
    if let Some(default) = property.default.as_deref().and_then(json::parse) {
        out.insert("default".into(), default);
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
    editor::property(&mut out, &owner.name, name, property, style);
    if nullable {
        allow_null(&mut out);
    }
    Value::Object(out)
}

/// Writes the element enum of a list or map property as `items.enum` or
/// `additionalProperties.enum`, apart from the property's own `enum`.
fn insert_element_enum(out: &mut Object, property: &Property) {
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
fn fixed_value(owner: &Definition, name: &str, style: &Style) -> Option<Object> {
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
    let mut values: Vec<Value> = values.into_iter().map(Value::String).collect();
    let fixed = if values.len() == 1 {
        ("const".to_owned(), values.remove(0))
    } else {
        ("enum".to_owned(), Value::Array(values))
    };
    Some(Object::from_iter([fixed]))
}

fn describe(out: &mut Object, description: Option<&str>) {
    if let Some(text) = description {
        out.insert("description".into(), super::string(text));
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
        Schema::Union(union) => union
            .members
            .iter()
            .filter_map(Schema::referenced)
            .collect(),
        other => other.referenced().into_iter().collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ObjectSchema;
    use crate::to_json_schema::GateKeywords;
    use vergate_core::Version;

    /// The schema of `property` as the optional property of an object.
    fn property_schema(property: Property) -> Value {
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
        let Value::Object(mut schema) = schema else {
            panic!("an object")
        };
        let Some(Value::Object(mut properties)) = schema.remove("properties") else {
            panic!("with properties")
        };
        properties.remove("p").unwrap()
    }

    fn json(text: &str) -> Value {
        json::parse(text).unwrap()
    }

    #[test]
    fn an_arrays_own_enum_and_its_items_enum_stay_apart() {
        let mut list = Property::new(Schema::Array(Box::new(Schema::Integer { format: None })));
        list.enum_values = vec!["[1,2]".into()];
        list.element_enum_values = vec!["1".into(), "2".into(), "3".into()];
        assert_eq!(
            property_schema(list),
            // Optional, so null is allowed beside the array's own value.
            json(
                r#"{"type": ["array", "null"], "items": {"type": "integer", "enum": [1, 2, 3]}, "enum": [[1, 2], null]}"#
            )
        );
    }

    #[test]
    fn a_maps_element_enum_goes_to_its_values() {
        let mut map = Property::new(Schema::Map(Box::new(Schema::String { format: None })));
        map.element_enum_values = vec!["a".into(), "b".into()];
        assert_eq!(
            property_schema(map),
            json(
                r#"{"type": ["object", "null"], "additionalProperties": {"type": "string", "enum": ["a", "b"]}}"#
            )
        );
    }

    #[test]
    fn a_default_that_is_not_json_is_left_out() {
        let mut number = Property::new(Schema::Integer { format: None });
        number.default = Some("3".into());
        assert_eq!(
            property_schema(number.clone()),
            json(r#"{"type": ["integer", "null"], "default": 3}"#)
        );
        number.default = Some("three".into());
        assert_eq!(
            property_schema(number),
            json(r#"{"type": ["integer", "null"]}"#)
        );
    }
}
