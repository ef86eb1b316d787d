//! List envelopes: a definition that is exactly `{apiVersion, kind,
//! metadata: M, items: [T]}` with only `items` required (Kubernetes'
//! `DeploymentList`, `PodList`, … 315 of its 1,586 shapes) is emitted as an
//! alias of the root's generic `List<T, M>` instead of a struct of its own.
//! The wire form is the same; the compiler checks `List` once instead of
//! once per list, and `DeploymentList` still names the type.

use crate::model::{Definition, GatedModel, Schema};
use proc_macro2::TokenStream;
use quote::quote;
use vergate_core::Version;

/// The wire names of a list envelope's properties.
const FIELDS: [&str; 4] = ["apiVersion", "items", "kind", "metadata"];

/// The item and metadata definitions of `definition` as `version` has it,
/// when it is a list envelope whose fields carry nothing an alias would
/// lose (no field deprecated).
pub fn envelope<'m>(
    model: &GatedModel,
    version: Version,
    definition: &'m Definition,
) -> Option<(&'m str, &'m str)> {
    let object = definition.object()?;
    if object.additional.is_some()
        || !object.properties.keys().map(String::as_str).eq(FIELDS)
        || !object.required.iter().map(String::as_str).eq(["items"])
    {
        return None;
    }
    let lifecycles = &model.types[&definition.name].fields;
    if FIELDS.iter().any(|wire| {
        lifecycles[*wire]
            .lifecycle
            .deprecated_in
            .is_some_and(|since| version >= since)
    }) {
        return None;
    }
    let schema = |wire: &str| &object.properties[wire].schema;
    let (Schema::String { .. }, Schema::String { .. }) = (schema("apiVersion"), schema("kind"))
    else {
        return None;
    };
    let Schema::Array(item) = schema("items") else {
        return None;
    };
    match (item.as_ref(), schema("metadata")) {
        (Schema::Ref(item), Schema::Ref(metadata)) => Some((item, metadata)),
        _ => None,
    }
}

/// The root's `List<T, M>` and its serde impls.
pub fn list_type() -> TokenStream {
    let bounds = quote!(
        T: __private::serde::Serialize + __private::serde::de::DeserializeOwned,
        M: __private::serde::Serialize + __private::serde::de::DeserializeOwned
    );
    quote! {
        /// A list of objects of one kind, as a list call returns it: every
        /// list envelope of the API (`{apiVersion, kind, metadata, items}`)
        /// is this type, e.g. `DeploymentList` is
        /// `List<Deployment, ListMeta>` with the minor's `ListMeta`.
        #[derive(Clone, Debug, PartialEq)]
        pub struct List<T, M> {
            /// The API version of the list (`apps/v1`).
            pub api_version: ::core::option::Option<::std::string::String>,
            /// The objects.
            pub items: ::std::vec::Vec<T>,
            /// The kind of the list (`DeploymentList`).
            pub kind: ::core::option::Option<::std::string::String>,
            /// The list's metadata (resource version, continuation).
            pub metadata: ::core::option::Option<M>,
        }

        impl<T, M> ::core::default::Default for List<T, M> {
            fn default() -> Self {
                List {
                    api_version: ::core::option::Option::None,
                    items: ::std::vec::Vec::new(),
                    kind: ::core::option::Option::None,
                    metadata: ::core::option::Option::None,
                }
            }
        }

        impl<#bounds> __private::serde::Serialize for List<T, M> {
            fn serialize<S: __private::serde::Serializer>(
                &self,
                serializer: S,
            ) -> ::core::result::Result<S::Ok, S::Error> {
                __private::wire::serialize(self, serializer)
            }
        }

        impl<'de, #bounds> __private::serde::Deserialize<'de> for List<T, M> {
            fn deserialize<D: __private::serde::Deserializer<'de>>(
                deserializer: D,
            ) -> ::core::result::Result<Self, D::Error> {
                __private::wire::deserialize(deserializer)
            }
        }

        impl<#bounds> __private::wire::Object for List<T, M> {
            const NAME: &'static str = "List";
            const FIELDS: &'static [&'static str] = &["apiVersion", "items", "kind", "metadata"];
            const REQUIRED: &'static [usize] = &[1];
            fn write<W: __private::wire::Write>(&self, out: &mut W) {
                out.optional("apiVersion", &self.api_version);
                out.field("items", &self.items);
                out.optional("kind", &self.kind);
                out.optional("metadata", &self.metadata);
            }
            fn read<'de, R: __private::wire::Read<'de>>(&mut self, index: usize, input: &mut R) {
                match index {
                    0 => input.value(&mut self.api_version),
                    1 => input.value(&mut self.items),
                    2 => input.value(&mut self.kind),
                    3 => input.value(&mut self.metadata),
                    _ => {}
                }
            }
        }
    }
}
