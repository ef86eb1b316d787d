//! The `schemars` feature: `schemars::JsonSchema` for every shape, as
//! k8s-openapi's `schemars` feature has it, so that a kube-rs
//! `#[derive(CustomResource, JsonSchema)]` struct can hold generated types
//! (a `PodSpec` inside a custom resource's spec) and its CRD carries their
//! schema.
//!
//! Each impl gives its type's schema as JSON text; a referenced type is
//! `{"$subschema": i}`, filled in by `support/schema.rs` with what the
//! generator gives for it. The schemas are what a CRD's structural schema
//! accepts: no `null` types (an optional field is left out of `required`),
//! `x-kubernetes-int-or-string` for int-or-string and quantities,
//! `x-kubernetes-preserve-unknown-fields` for free-form JSON, and of the
//! specs' keywords only those `openAPIV3Schema` has (enums, formats,
//! patterns, bounds, list and map types). The impls are files of their own
//! (`src/schemas/<home>.rs`), read only with the feature.

use super::render::Plan;
use crate::model::{Convention, Definition, Property, Schema};
use crate::to_json_schema::typed_enum;
use crate::to_json_schema::Object;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use std::collections::BTreeMap;
use vergate_core::json::{self, Value};
use vergate_core::Version;

/// The cargo feature.
pub const SCHEMARS_FEATURE: &str = "schemars";

/// The schemars version the impls are written for (k8s-openapi 0.29's).
pub const SCHEMARS: &str = "1";

/// The directory of the impl files under `src/`.
pub const SCHEMAS_MODULE: &str = "schemas";

/// The helper the impls call (`src/__private/schema.rs`).
pub const SCHEMA_SOURCE: &str = include_str!("support/schema.rs");

/// The specs' keywords a CRD's `openAPIV3Schema` also has.
const KEPT_KEYWORDS: &[&str] = &[
    "format",
    "pattern",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "minProperties",
    "maxProperties",
    "uniqueItems",
    "multipleOf",
    "x-kubernetes-list-type",
    "x-kubernetes-list-map-keys",
    "x-kubernetes-map-type",
];

impl Plan<'_> {
    /// The impls of the shapes first seen in `home`, as one file's items.
    pub fn schemas_body(&self, home: Version, names: &[&str]) -> TokenStream {
        let root = self.root_tokens();
        let layout = self.shape_layout(home, &root);
        let mut out = TokenStream::new();
        for name in names {
            let (newest, definition) = self.shape_definition(home, name);
            if super::lists::envelope(self.model, newest, definition).is_some() {
                // `List<T, M>`: one generic impl at the root.
                continue;
            }
            let path = crate::derive::Layout::type_path(&layout, name);
            let cfg = crate::derive::Layout::cfg_attrs(&layout, name);
            let kube = (self.kube && definition.convention == Some(Convention::ObjectMeta))
                .then(|| quote!(#[cfg(not(feature = "kube"))]));
            let mut refs = Refs::default();
            let text = definition_schema(definition, &mut refs).to_string();
            let subschemas = refs
                .names
                .iter()
                .map(|name| crate::derive::Layout::type_path(&layout, name));
            let schema_name = &definition.name;
            let id = format!("::{}::{}", home.ident(), definition.name);
            out.extend(quote! {
                #cfg
                #kube
                impl ::schemars::JsonSchema for #path {
                    fn schema_name() -> ::std::borrow::Cow<'static, str> {
                        ::std::borrow::Cow::Borrowed(#schema_name)
                    }
                    fn schema_id() -> ::std::borrow::Cow<'static, str> {
                        ::std::borrow::Cow::Borrowed(concat!(env!("CARGO_PKG_NAME"), #id))
                    }
                    fn json_schema(generator: &mut ::schemars::SchemaGenerator) -> ::schemars::Schema {
                        #root::__private::schema::build(generator, #text, &[
                            #(::schemars::SchemaGenerator::subschema_for::<#subschemas>,)*
                        ])
                    }
                }
            });
        }
        out
    }
}

/// The impls at the crate's root: `IntOrString`, `List<T, M>` and, when the
/// API has base64 strings, `ByteString`.
pub fn root_impls(bytes: bool) -> TokenStream {
    // Without the `bytes` feature ByteString is a `String`, whose own
    // schema is the string one.
    let byte_string = bytes.then(|| {
        quote! {
            #[cfg(feature = "bytes")]
            impl ::schemars::JsonSchema for ByteString {
                fn schema_name() -> ::std::borrow::Cow<'static, str> {
                    ::std::borrow::Cow::Borrowed("ByteString")
                }
                fn json_schema(_: &mut ::schemars::SchemaGenerator) -> ::schemars::Schema {
                    ::schemars::json_schema!({ "type": "string", "format": "byte" })
                }
            }
        }
    });
    quote! {
        #[cfg(feature = "schemars")]
        const _: () = {
            impl ::schemars::JsonSchema for IntOrString {
                fn schema_name() -> ::std::borrow::Cow<'static, str> {
                    ::std::borrow::Cow::Borrowed("IntOrString")
                }
                fn json_schema(_: &mut ::schemars::SchemaGenerator) -> ::schemars::Schema {
                    ::schemars::json_schema!({ "x-kubernetes-int-or-string": true })
                }
            }

            impl<T: ::schemars::JsonSchema, M: ::schemars::JsonSchema> ::schemars::JsonSchema for List<T, M> {
                fn schema_name() -> ::std::borrow::Cow<'static, str> {
                    ::std::borrow::Cow::Owned(format!("List_of_{}", T::schema_name()))
                }
                fn schema_id() -> ::std::borrow::Cow<'static, str> {
                    ::std::borrow::Cow::Owned(format!(
                        "{}::List<{}, {}>",
                        env!("CARGO_PKG_NAME"),
                        T::schema_id(),
                        M::schema_id()
                    ))
                }
                fn json_schema(generator: &mut ::schemars::SchemaGenerator) -> ::schemars::Schema {
                    __private::schema::build(
                        generator,
                        r#"{"type":"object","properties":{"apiVersion":{"type":"string"},"items":{"type":"array","items":{"$subschema":0}},"kind":{"type":"string"},"metadata":{"$subschema":1}},"required":["items"]}"#,
                        &[
                            ::schemars::SchemaGenerator::subschema_for::<T>,
                            ::schemars::SchemaGenerator::subschema_for::<M>,
                        ],
                    )
                }
            }

            #byte_string
        };
    }
}

/// `#[cfg(feature = "schemars")] mod schemas { mod v1_28; … }` for lib.rs.
pub fn module_declarations(homes: impl Iterator<Item = Version>) -> TokenStream {
    let module = format_ident!("{SCHEMAS_MODULE}");
    let homes = homes.map(|home| format_ident!("{}", home.ident()));
    quote! {
        /// `schemars::JsonSchema` for every type (the `schemars` feature).
        #[cfg(feature = "schemars")]
        #[allow(deprecated)]
        mod #module {
            #(mod #homes;)*
        }
    }
}

/// The types a schema refers to, in the order of their `$subschema` index.
#[derive(Default)]
struct Refs {
    names: Vec<String>,
    index: BTreeMap<String, usize>,
}

impl Refs {
    /// `{"$subschema": i}` for the type `name`, its index given once.
    fn of(&mut self, name: &str) -> Object {
        let next = self.names.len();
        let index = *self.index.entry(name.to_owned()).or_insert_with(|| {
            self.names.push(name.to_owned());
            next
        });
        object([("$subschema", Value::Number((index as u64).into()))])
    }
}

/// The schema of a definition itself.
fn definition_schema(definition: &Definition, refs: &mut Refs) -> Value {
    let mut out = if definition.convention == Some(Convention::Quantity) {
        int_or_string()
    } else if crate::derive::is_string_enum(definition) {
        let mut out = object([("type", crate::to_json_schema::string("string"))]);
        out.insert(
            "enum".into(),
            typed_enum(&definition.enum_values, &definition.schema),
        );
        out
    } else {
        match &definition.schema {
            Schema::Object(object_schema) => {
                let mut out = object([("type", crate::to_json_schema::string("object"))]);
                if !object_schema.properties.is_empty() {
                    let properties = object_schema
                        .properties
                        .iter()
                        .map(|(name, property)| (name.clone(), property_schema(property, refs)))
                        .collect();
                    out.insert("properties".into(), Value::Object(properties));
                    if !object_schema.required.is_empty() {
                        let required = object_schema
                            .required
                            .iter()
                            .map(crate::to_json_schema::string);
                        out.insert("required".into(), Value::Array(required.collect()));
                    }
                }
                match object_schema.additional.as_deref() {
                    Some(Schema::Any) => preserve_unknown(&mut out),
                    Some(additional) => {
                        out.insert(
                            "additionalProperties".into(),
                            Value::Object(shape(additional, refs)),
                        );
                    }
                    None if object_schema.properties.is_empty() => preserve_unknown(&mut out),
                    None => {}
                }
                out
            }
            // A union (JSONSchemaPropsOrArray and the like): any of its
            // members' values, which a structural schema cannot say.
            Schema::Union(_) => {
                object([("x-kubernetes-preserve-unknown-fields", Value::Bool(true))])
            }
            other => shape(other, refs),
        }
    };
    describe(&mut out, definition.description.as_deref());
    Value::Object(out)
}

/// The schema of one property: its shape, enum, kept keywords and
/// description.
fn property_schema(property: &Property, refs: &mut Refs) -> Value {
    let mut out = shape(&property.schema, refs);
    if !property.enum_values.is_empty() {
        out.insert(
            "enum".into(),
            typed_enum(&property.enum_values, &property.schema),
        );
    }
    if !property.element_enum_values.is_empty() {
        let element = match &property.schema {
            Schema::Array(item) => Some(("items", &**item)),
            Schema::Map(value) => Some(("additionalProperties", &**value)),
            _ => None,
        };
        if let Some((key, schema)) = element {
            if let Some(Value::Object(inner)) = out.get_mut(key) {
                inner.insert(
                    "enum".into(),
                    typed_enum(&property.element_enum_values, schema),
                );
            }
        }
    }
    for key in KEPT_KEYWORDS {
        if let Some(value) = property
            .keywords
            .get(*key)
            .and_then(|text| json::parse(text))
        {
            out.insert((*key).to_owned(), value);
        }
    }
    describe(&mut out, property.description.as_deref());
    Value::Object(out)
}

/// The schema of a shape without its description.
fn shape(schema: &Schema, refs: &mut Refs) -> Object {
    match schema {
        Schema::Ref(name) => refs.of(name),
        Schema::Boolean => object([("type", crate::to_json_schema::string("boolean"))]),
        Schema::Integer { format } => typed("integer", format.as_deref()),
        Schema::Number { format } => typed("number", format.as_deref()),
        Schema::String { format } => typed("string", format.as_deref()),
        Schema::IntOrString => int_or_string(),
        Schema::Array(item) => object([
            ("type", crate::to_json_schema::string("array")),
            ("items", Value::Object(shape(item, refs))),
        ]),
        Schema::Map(value) => object([
            ("type", crate::to_json_schema::string("object")),
            ("additionalProperties", Value::Object(shape(value, refs))),
        ]),
        Schema::Object(_) => {
            let mut out = object([("type", crate::to_json_schema::string("object"))]);
            preserve_unknown(&mut out);
            out
        }
        Schema::Union(_) | Schema::Any => {
            object([("x-kubernetes-preserve-unknown-fields", Value::Bool(true))])
        }
    }
}

fn typed(ty: &str, format: Option<&str>) -> Object {
    let mut out = object([("type", crate::to_json_schema::string(ty))]);
    if let Some(format) = format {
        out.insert("format".into(), crate::to_json_schema::string(format));
    }
    out
}

fn int_or_string() -> Object {
    object([("x-kubernetes-int-or-string", Value::Bool(true))])
}

fn preserve_unknown(out: &mut Object) {
    out.insert(
        "x-kubernetes-preserve-unknown-fields".into(),
        Value::Bool(true),
    );
}

fn describe(out: &mut Object, description: Option<&str>) {
    if let Some(text) = description.filter(|text| !text.is_empty()) {
        out.insert("description".into(), crate::to_json_schema::string(text));
    }
}

fn object<const N: usize>(members: [(&str, Value); N]) -> Object {
    members
        .into_iter()
        .map(|(key, value)| (key.to_owned(), value))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ObjectSchema;

    #[test]
    fn objects_refer_and_keep_only_structural_keywords() {
        let mut object_schema = ObjectSchema::default();
        let mut port = Property::new(Schema::Integer {
            format: Some("int32".into()),
        });
        port.keywords.insert("minimum".into(), "1".into());
        port.keywords
            .insert("x-kubernetes-patch-strategy".into(), "\"merge\"".into());
        object_schema.properties.insert("port".into(), port);
        object_schema.properties.insert(
            "selector".into(),
            Property::new(Schema::Ref("io.k8s.L".into())),
        );
        object_schema.properties.insert(
            "more".into(),
            Property::new(Schema::Array(Box::new(Schema::Ref("io.k8s.L".into())))),
        );
        object_schema.required.insert("port".into());
        let mut definition = Definition::new("io.k8s.S", Schema::Object(object_schema));
        definition.description = Some("S.".into());
        let mut refs = Refs::default();
        let text = definition_schema(&definition, &mut refs).to_string();
        assert_eq!(
            text,
            r#"{"description":"S.","properties":{"more":{"items":{"$subschema":0},"type":"array"},"port":{"format":"int32","minimum":1,"type":"integer"},"selector":{"$subschema":0}},"required":["port"],"type":"object"}"#
        );
        assert_eq!(refs.names, ["io.k8s.L"]);
    }

    #[test]
    fn quantities_and_free_form_values_are_structural() {
        let mut refs = Refs::default();
        let mut quantity = Definition::new("Quantity", Schema::String { format: None });
        quantity.convention = Some(Convention::Quantity);
        assert_eq!(
            definition_schema(&quantity, &mut refs).to_string(),
            r#"{"x-kubernetes-int-or-string":true}"#
        );
        let raw = Definition::new("io.k8s.Raw", Schema::Object(ObjectSchema::default()));
        assert_eq!(
            definition_schema(&raw, &mut refs).to_string(),
            r#"{"type":"object","x-kubernetes-preserve-unknown-fields":true}"#
        );
    }
}
