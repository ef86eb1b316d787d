//! apiextensions' `JSONSchemaPropsOrArray`, `…OrBool` and
//! `…OrStringArray`: the specs describe each as an object and say nothing
//! of its shape, but their Go types (k8s.io/apiextensions-apiserver
//! `pkg/apis/apiextensions/v1`, `JSONSchemaPropsOrArray.UnmarshalJSON` and
//! its siblings) decode a JSONSchemaProps or another shape: a list of
//! schemas, a boolean, a list of strings. k8s-openapi's enums and pkl-k8s's
//! `*JSONSchemaProps|Listing<JSONSchemaProps>` say the same. A Kubernetes
//! fact the specs leave out, declared here once.

use crate::model::{Convention, MinorModel, Schema, UnionSchema};
use vergate_core::gates::UnionKind;

/// The namespaces that define JSONSchemaProps (apiextensions' `v1`, and
/// `v1beta1` in specs before 1.22).
const NAMESPACES: [&str; 2] = [
    "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.",
    "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1beta1.",
];

/// The other member of a `JSONSchemaPropsOr…` union, given the
/// JSONSchemaProps reference.
type Other = fn(&Schema) -> Schema;

/// Each `JSONSchemaPropsOr…` definition's suffix and its other member.
const ALTERNATIVES: [(&str, Other); 3] = [
    ("OrArray", |props| Schema::Array(Box::new(props.clone()))),
    ("OrBool", |_| Schema::Boolean),
    ("OrStringArray", |_| {
        Schema::Array(Box::new(Schema::String { format: None }))
    }),
];

/// Rewrites each `JSONSchemaPropsOr…` definition of `minor` whose spec
/// leaves its shape unsaid into the `anyOf` it decodes (the JSONSchemaProps
/// first) and marks it [`Convention::SchemaOr`]. A definition the spec
/// gives a shape keeps it.
pub(super) fn mark(minor: &mut MinorModel) {
    for namespace in NAMESPACES {
        let props_name = format!("{namespace}JSONSchemaProps");
        if !minor.definitions.contains_key(&props_name) {
            continue;
        }
        let props = Schema::Ref(props_name.clone());
        for (suffix, other) in ALTERNATIVES {
            let name = format!("{props_name}{suffix}");
            let Some(definition) = minor.definitions.get_mut(&name) else {
                continue;
            };
            let unsaid = match &definition.schema {
                Schema::Any => true,
                Schema::Object(object) => {
                    object.properties.is_empty() && object.additional.is_none()
                }
                _ => false,
            };
            if !unsaid {
                continue;
            }
            definition.schema = Schema::Union(UnionSchema {
                kind: UnionKind::AnyOf,
                members: vec![props.clone(), other(&props)],
                discriminator: None,
            });
            definition.convention = Some(Convention::SchemaOr);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Definition;

    #[test]
    fn the_or_types_become_unions_with_the_schema_first() {
        let v1 = NAMESPACES[0];
        let mut minor = MinorModel::new(crate::Version::new(1, 34));
        for name in [
            "JSONSchemaProps",
            "JSONSchemaPropsOrArray",
            "JSONSchemaPropsOrBool",
        ] {
            let name = format!("{v1}{name}");
            minor
                .definitions
                .insert(name.clone(), Definition::new(name, Schema::Any));
        }
        let typed = format!("{v1}JSONSchemaPropsOrStringArray");
        minor.definitions.insert(
            typed.clone(),
            Definition::new(typed.clone(), Schema::Boolean),
        );
        mark(&mut minor);
        let props = Schema::Ref(format!("{v1}JSONSchemaProps"));
        let array = &minor.definitions[&format!("{v1}JSONSchemaPropsOrArray")];
        assert_eq!(array.convention, Some(Convention::SchemaOr));
        assert_eq!(
            array.union().map(|union| union.members.clone()),
            Some(vec![props.clone(), Schema::Array(Box::new(props.clone()))])
        );
        let boolean = &minor.definitions[&format!("{v1}JSONSchemaPropsOrBool")];
        assert_eq!(
            boolean.union().map(|union| union.members.clone()),
            Some(vec![props, Schema::Boolean])
        );
        // A shape the spec states is kept.
        assert_eq!(minor.definitions[&typed].schema, Schema::Boolean);
        assert_eq!(minor.definitions[&typed].convention, None);
    }
}
