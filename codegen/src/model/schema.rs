//! One minor's model: its definitions, each a [`Schema`] with descriptions,
//! formats, enums, required lists and keywords.

use super::Convention;
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use vergate_core::gates::{Format, GroupVersionKind, ListType, Scalar, TypeExpr};
use vergate_core::Version;

/// Everything one minor's spec defines.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "load", derive(serde::Serialize, serde::Deserialize))]
pub struct MinorModel {
    pub version: Version,
    /// Definitions by name (`io.k8s.api.core.v1.ServiceSpec`).
    pub definitions: BTreeMap<String, Definition>,
}

impl MinorModel {
    /// An empty model of `version`.
    pub fn new(version: Version) -> Self {
        MinorModel {
            version,
            definitions: BTreeMap::new(),
        }
    }
}

/// Where something came from: a file and a JSON pointer into it.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "load", derive(serde::Serialize, serde::Deserialize))]
pub struct Source {
    pub path: PathBuf,
    pub pointer: String,
}

impl std::fmt::Display for Source {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}#{}", self.path.display(), self.pointer)
    }
}

/// A named type.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "load", derive(serde::Serialize, serde::Deserialize))]
pub struct Definition {
    pub name: String,
    pub description: Option<String>,
    /// The type's shape. For most definitions this is [`Schema::Object`].
    pub schema: Schema,
    /// The string values allowed when the definition is an enum.
    pub enum_values: Vec<String>,
    /// The (group, version, kind) triples it is served as.
    pub kinds: Vec<GroupVersionKind>,
    /// Validation and annotation keywords (`pattern`, `minimum`, `title`, …)
    /// as compact JSON text.
    pub keywords: BTreeMap<String, String>,
    /// True when the spec marks it `deprecated: true`.
    pub deprecated: bool,
    /// What to tell its users when deprecated (a CRD version's
    /// `deprecationWarning`).
    pub deprecation_warning: Option<String>,
    /// Where its one kind is served, when the spec says (its `paths`, a
    /// CRD's names and scope).
    pub resource: Option<ResourcePath>,
    /// What the API's dialect makes of it beyond its schema, marked when
    /// the minor is loaded ([`super::mark`]).
    pub convention: Option<Convention>,
    pub source: Source,
}

/// Where a kind is served: the plural of its URL path and its scope.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[cfg_attr(feature = "load", derive(serde::Serialize, serde::Deserialize))]
pub struct ResourcePath {
    /// The URL path segment (`deployments`).
    pub plural: String,
    /// True when objects of the kind live in a namespace.
    pub namespaced: bool,
}

impl Definition {
    /// A definition with nothing but a name and a shape.
    pub fn new(name: impl Into<String>, schema: Schema) -> Self {
        Definition {
            name: name.into(),
            description: None,
            schema,
            enum_values: Vec::new(),
            kinds: Vec::new(),
            keywords: BTreeMap::new(),
            deprecated: false,
            deprecation_warning: None,
            resource: None,
            convention: None,
            source: Source::default(),
        }
    }

    /// The union, when the definition is one.
    pub fn union(&self) -> Option<&super::UnionSchema> {
        match &self.schema {
            Schema::Union(union) => Some(union),
            _ => None,
        }
    }

    /// The object shape, when the definition is an object with properties.
    pub fn object(&self) -> Option<&ObjectSchema> {
        match &self.schema {
            Schema::Object(object) => Some(object),
            _ => None,
        }
    }

    /// The definitions this one refers to directly (through its own schema,
    /// its properties, its additional properties or its union's members),
    /// in order, possibly repeated.
    pub fn references(&self) -> Vec<&str> {
        let mut schemas: Vec<&Schema> = vec![&self.schema];
        match &self.schema {
            Schema::Object(object) => {
                schemas.extend(object.properties.values().map(|p| &p.schema));
                schemas.extend(object.additional.as_deref());
            }
            Schema::Union(union) => schemas.extend(&union.members),
            _ => {}
        }
        schemas.into_iter().filter_map(Schema::referenced).collect()
    }

    /// The object shape, to change.
    pub fn object_mut(&mut self) -> Option<&mut ObjectSchema> {
        match &mut self.schema {
            Schema::Object(object) => Some(object),
            _ => None,
        }
    }

    /// The definition's own type as gates.json writes it: its schema's type
    /// expression, except for a quantity, whose spec says `string` but
    /// whose decoder takes numbers too.
    pub fn own_type_expr(&self) -> TypeExpr {
        if self.convention == Some(Convention::Quantity) {
            return TypeExpr::Scalar(Scalar::Quantity);
        }
        self.schema.type_expr()
    }

    /// The short name: the last dot-separated segment (`ServiceSpec`).
    pub fn short_name(&self) -> &str {
        super::naming::short_name(&self.name)
    }
}

/// An object's properties, required list and additional properties.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "load", derive(serde::Serialize, serde::Deserialize))]
pub struct ObjectSchema {
    /// Properties by wire name.
    pub properties: BTreeMap<String, Property>,
    pub required: BTreeSet<String>,
    /// The schema of values under keys not listed in `properties`, when the
    /// object allows them (`additionalProperties`).
    pub additional: Option<Box<Schema>>,
    /// True when the spec refuses keys not listed (`additionalProperties:
    /// false`); every JSON Schema then says so, not only the strict one.
    pub closed: bool,
}

/// One property of an object.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "load", derive(serde::Serialize, serde::Deserialize))]
pub struct Property {
    pub schema: Schema,
    pub description: Option<String>,
    /// The values allowed for the property as a whole (its own `enum`).
    pub enum_values: Vec<String>,
    /// The values allowed for each element of a list or map property: the
    /// `enum` of a list's `items` or of a map's `additionalProperties`
    /// (which of the two follows from `schema`). Kept apart from
    /// `enum_values`: OpenAPI's `enum` on a list or map constrains it whole,
    /// on its elements each element, and emitters and preflight must tell
    /// the two apart.
    pub element_enum_values: Vec<String>,
    /// The default value as compact JSON text.
    pub default: Option<String>,
    /// Validation and annotation keywords (`pattern`, `minimum`, `title`, …)
    /// as compact JSON text.
    pub keywords: BTreeMap<String, String>,
    /// The value constraints of each element of a list or map property
    /// (`pattern`, `maxLength`, … of its `items` or `additionalProperties`,
    /// when that is no definition), as compact JSON text.
    pub element_keywords: BTreeMap<String, String>,
    /// What makes the items of a list property unique
    /// (`x-kubernetes-list-type` `set` or `map`).
    pub list_type: Option<ListType>,
    /// The keys of a `map` list (`x-kubernetes-list-map-keys`).
    pub list_map_keys: Vec<String>,
    /// True when the spec marks it `deprecated: true`.
    pub deprecated: bool,
    /// The wire name this property had before it was renamed, from the
    /// `x-vergate-renamed-from` extension.
    pub renamed_from: Option<String>,
    pub source: Source,
}

impl Property {
    /// A property with nothing but a shape.
    pub fn new(schema: Schema) -> Self {
        Property {
            schema,
            description: None,
            enum_values: Vec::new(),
            element_enum_values: Vec::new(),
            default: None,
            keywords: BTreeMap::new(),
            element_keywords: BTreeMap::new(),
            list_type: None,
            list_map_keys: Vec::new(),
            deprecated: false,
            renamed_from: None,
            source: Source::default(),
        }
    }
}

/// A type expression. Inline objects with properties are hoisted into their
/// own [`Definition`] and referenced, so nesting never hides a property.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "load", derive(serde::Serialize, serde::Deserialize))]
pub enum Schema {
    /// A reference to a definition by name.
    Ref(String),
    Boolean,
    Integer {
        format: Option<String>,
    },
    Number {
        format: Option<String>,
    },
    String {
        format: Option<String>,
    },
    /// A value that is an integer or a string (Kubernetes `int-or-string`).
    IntOrString,
    Array(Box<Schema>),
    /// An object whose values all have one schema (`additionalProperties`).
    Map(Box<Schema>),
    /// A named type's own object shape (only at the top of a [`Definition`]).
    Object(ObjectSchema),
    /// A union of member schemas (`oneOf` / `anyOf`; only at the top of a
    /// [`Definition`]: the loader hoists inline ones).
    Union(super::UnionSchema),
    /// Any JSON value.
    Any,
}

impl Eq for ObjectSchema {}
impl Eq for Property {}

impl Schema {
    /// The type expression written in gates.json (`[]io.k8s.api.core.v1.ServicePort`,
    /// `string(date-time)`, `map[string]string`). Two minors whose expressions
    /// differ have a type change.
    pub fn type_expr(&self) -> TypeExpr {
        let format = |format: &Option<String>| format.as_deref().map(Format::from);
        match self {
            Schema::Ref(name) => TypeExpr::Definition(name.clone()),
            Schema::Boolean => TypeExpr::Scalar(Scalar::Boolean),
            Schema::Integer { format: f } => TypeExpr::Scalar(Scalar::Integer(format(f))),
            Schema::Number { format: f } => TypeExpr::Scalar(Scalar::Number(format(f))),
            Schema::String { format: f } => TypeExpr::Scalar(Scalar::String(format(f))),
            Schema::IntOrString => TypeExpr::Scalar(Scalar::IntOrString),
            Schema::Array(item) => TypeExpr::Array(Box::new(item.type_expr())),
            Schema::Map(value) => TypeExpr::Map(Box::new(value.type_expr())),
            Schema::Object(_) => TypeExpr::Scalar(Scalar::Object),
            // A union's own type says nothing more than `any`: its members
            // are in gates.json's `union` (`TypeGate::union`).
            Schema::Union(_) | Schema::Any => TypeExpr::Scalar(Scalar::Any),
        }
    }

    /// The definition this schema refers to, looking through arrays and maps.
    pub fn referenced(&self) -> Option<&str> {
        match self {
            Schema::Ref(name) => Some(name),
            Schema::Array(inner) | Schema::Map(inner) => inner.referenced(),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::naming::short_name;

    #[test]
    fn type_expressions() {
        let ports = Schema::Array(Box::new(Schema::Ref(
            "io.k8s.api.core.v1.ServicePort".into(),
        )));
        assert_eq!(ports.type_expr(), "[]io.k8s.api.core.v1.ServicePort");
        assert_eq!(ports.referenced(), Some("io.k8s.api.core.v1.ServicePort"));
        let labels = Schema::Map(Box::new(Schema::String { format: None }));
        assert_eq!(labels.type_expr(), "map[string]string");
        let time = Schema::String {
            format: Some("date-time".into()),
        };
        assert_eq!(time.type_expr(), "string(date-time)");
        assert_eq!(
            time.type_expr(),
            TypeExpr::Scalar(Scalar::String(Some(Format::DateTime)))
        );
        assert_eq!(short_name("io.k8s.api.core.v1.ServiceSpec"), "ServiceSpec");
    }
}
