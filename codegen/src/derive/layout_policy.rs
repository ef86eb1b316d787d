//! [`Layout`]: the naming and layout policy the engine asks whenever it has
//! to name a type, a field, a variant or a path. The derive uses the names
//! the user wrote ([`crate::derive::annotated`]); spec-driven output derives
//! them from wire names with the defaults here.

use crate::model::Schema;
use heck::{ToShoutySnakeCase, ToSnakeCase, ToUpperCamelCase};
use proc_macro2::{Ident, Span, TokenStream};
use quote::{format_ident, quote};
use vergate_core::Version;

/// How the engine names and places what it emits.
pub trait Layout {
    /// The path of the runtime crate in generated code.
    fn runtime(&self) -> TokenStream {
        quote!(::vergate)
    }

    /// The Rust name of the definition `name`.
    fn type_ident(&self, name: &str) -> Ident {
        ident(&crate::model::naming::short_name(name).to_upper_camel_case())
    }

    /// The Rust name of field `wire` of definition `type_name`.
    fn field_ident(&self, type_name: &str, wire: &str) -> Ident {
        let _ = type_name;
        ident(&wire.to_snake_case())
    }

    /// The Rust name of the enum value `value` of definition `type_name`
    /// (see [`variant_name`](super::variant_name)).
    fn variant_ident(&self, type_name: &str, value: &str) -> Ident {
        let _ = type_name;
        ident(&super::variant_name(value))
    }

    /// The path, from inside a minor's module, of definition `name` of the
    /// same minor.
    fn type_path(&self, name: &str) -> TokenStream {
        let ident = self.type_ident(name);
        quote!(#ident)
    }

    /// The path, from inside minor `from`'s module, of definition `name` in
    /// minor `to`.
    fn other_minor_path(&self, name: &str, from: Version, to: Version) -> TokenStream {
        let _ = from;
        let module = format_ident!("{}", to.ident());
        let ident = self.type_ident(name);
        quote!(super::#module::#ident)
    }

    /// True when definition `name` is one Rust type in minors `from` and
    /// `to` (the spec-driven crate shares identical shapes): a conversion
    /// moves such a value as it is.
    fn same_type(&self, name: &str, from: Version, to: Version) -> bool {
        let _ = (name, from, to);
        false
    }

    /// The name of the static gate table of definition `name`.
    fn gates_ident(&self, name: &str) -> Ident {
        format_ident!(
            "{}",
            self.type_ident(name)
                .to_string()
                .trim_start_matches("r#")
                .to_shouty_snake_case()
        )
    }

    /// The path, from inside a minor's module, of the module holding the
    /// shared gate tables.
    fn gates_path(&self) -> TokenStream {
        quote!(super::gates)
    }

    /// The Rust type of field `wire` in `version`, without the `Option` the
    /// engine wraps optional fields in.
    fn field_type(
        &self,
        type_name: &str,
        wire: &str,
        schema: &Schema,
        version: Version,
    ) -> TokenStream {
        let _ = (type_name, wire, version);
        self.rust_type(schema)
    }

    /// The Rust type of a schema: the one mapping both front doors use.
    /// An int-or-string is the runtime's `IntOrString` (`vergate::IntOrString`
    /// for the derive, the generated crate's own for the spec-driven output),
    /// free-form JSON its `serde_json::Value`.
    fn rust_type(&self, schema: &Schema) -> TokenStream {
        let rt = self.runtime();
        match schema {
            Schema::Ref(name) => self.type_path(name),
            Schema::Boolean => quote!(bool),
            Schema::Integer { format } if format.as_deref() == Some("int32") => quote!(i32),
            Schema::Integer { .. } => quote!(i64),
            Schema::Number { format } if format.as_deref() == Some("float") => quote!(f32),
            Schema::Number { .. } => quote!(f64),
            Schema::String { format } => self.string_type(format.as_deref()),
            Schema::IntOrString => quote!(#rt::IntOrString),
            Schema::Array(item) => {
                let item = self.rust_type(item);
                quote!(::std::vec::Vec<#item>)
            }
            Schema::Map(value) => {
                let value = self.rust_type(value);
                quote!(::std::collections::BTreeMap<::std::string::String, #value>)
            }
            Schema::Object(_) | Schema::Union(_) | Schema::Any => {
                quote!(#rt::__private::serde_json::Value)
            }
        }
    }

    /// The Rust type of a string of `format`: `String`, unless a layout
    /// has a typed form (the spec-driven crate's `ByteString` for base64).
    fn string_type(&self, format: Option<&str>) -> TokenStream {
        let _ = format;
        quote!(::std::string::String)
    }

    /// How the items' serde impls are written.
    fn serde_impls(&self) -> SerdeImpls {
        SerdeImpls::Derive
    }

    /// A description as the item's doc text (the spec-driven output fences
    /// the code in upstream descriptions so rustdoc does not run it).
    fn description(&self, text: &str) -> String {
        text.to_owned()
    }

    /// Whether items carry doc comments (descriptions and gates).
    fn docs(&self) -> bool {
        true
    }

    /// `#[cfg]` attributes put on the item of definition `name` and on its
    /// impls.
    fn cfg_attrs(&self, name: &str) -> TokenStream {
        let _ = name;
        TokenStream::new()
    }

    /// Attributes put on every per-minor copy of definition `name` (derives,
    /// lint levels).
    fn type_attrs(&self, name: &str) -> TokenStream {
        let _ = name;
        TokenStream::new()
    }
}

/// How the engine writes an item's `Serialize` and `Deserialize`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SerdeImpls {
    /// `#[derive(Serialize, Deserialize)]` through the runtime's serde
    /// re-export, with `#[serde]` attributes for wire names.
    Derive,
    /// Impls written out that call the runtime's `__private::wire` drivers;
    /// every type also derives `Default` (an enum's default is its first
    /// value). No proc macro runs on the output, and each type is a few
    /// lines for the compiler.
    Expanded,
    /// No serde impls: the bare item, for comparing items' shapes (the
    /// wire names follow from the field and variant names a layout gives).
    None,
}

/// The default [`Layout`]: names from wire names, one flat module per minor.
#[derive(Clone, Copy, Debug, Default)]
pub struct DefaultLayout;

impl Layout for DefaultLayout {}

/// An identifier for `name`, raw when `name` is a keyword (`r#type`); a
/// leading digit gets an underscore, and `""` and `_` (which no identifier
/// can be) are `__`. `name` holds identifier characters only.
pub fn ident(name: &str) -> Ident {
    let name = if name.starts_with(|c: char| c.is_ascii_digit()) || name.is_empty() {
        format!("_{name}")
    } else {
        name.to_owned()
    };
    match name.as_str() {
        "_" => format_ident!("__"),
        "self" | "Self" | "super" | "crate" => format_ident!("{name}_"),
        _ => syn::parse_str::<Ident>(&name)
            .unwrap_or_else(|_| Ident::new_raw(&name, Span::call_site())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        let layout = DefaultLayout;
        assert_eq!(
            layout.type_ident("io.k8s.api.core.v1.ServiceSpec"),
            "ServiceSpec"
        );
        assert_eq!(
            layout.field_ident("T", "trafficDistribution"),
            "traffic_distribution"
        );
        assert_eq!(layout.field_ident("T", "type").to_string(), "r#type");
        assert_eq!(layout.field_ident("T", "self").to_string(), "self_");
        assert_eq!(layout.variant_ident("T", "PreferClose"), "PreferClose");
        let ty = layout.rust_type(&Schema::Array(Box::new(Schema::Ref("a.Container".into()))));
        assert_eq!(ty.to_string(), ":: std :: vec :: Vec < Container >");
    }
}
