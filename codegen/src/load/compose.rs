//! `allOf` composition, finished once every definition of a minor is
//! converted: a composed definition takes in the properties, required names
//! and description of each member, whether the member is inline or a `$ref`
//! to a definition in any file of the minor.
//!
//! The converter (`openapi/all_of.rs`) reads an `allOf` into a
//! [`Composition`]: the parts in member order and the names they require.
//! [`apply`] merges them into the composed definition's object, members that
//! are compositions themselves first. The model holds the result flattened,
//! so every output sees one object.

use crate::error::{Error, Result, Warning};
use crate::model::{Definition, ObjectSchema, Property, Schema, Source};
use std::collections::BTreeMap;

/// An `allOf` whose members are objects, to merge into definition `name`.
#[derive(Debug)]
pub struct Composition {
    /// The definition the members merge into (a hoisted one for an `allOf`
    /// inside a property).
    pub name: String,
    /// Where the `allOf` is.
    pub source: Source,
    /// The members, in order.
    pub parts: Vec<Part>,
    /// The names the members (and the schema holding the `allOf`) require,
    /// each with where it is listed.
    pub required: Vec<(String, Source)>,
    /// The first description an inline member gives, used when the
    /// definition has none of its own.
    pub description: Option<String>,
}

/// One member of an `allOf`.
#[derive(Debug)]
pub enum Part {
    /// A `$ref` to a definition, with where the `$ref` is.
    Definition(String, Source),
    /// An inline object, converted.
    Inline(ObjectSchema),
}

/// Merges every composition into its definition, or fails naming a cycle of
/// compositions, a member that is not an object, or a property two members
/// define differently (with both places). Required names that no member
/// defines are warned about.
pub fn apply(
    definitions: &mut BTreeMap<String, Definition>,
    compositions: Vec<Composition>,
) -> Result<Vec<Warning>> {
    let mut pending: BTreeMap<String, Composition> = compositions
        .into_iter()
        .map(|composition| (composition.name.clone(), composition))
        .collect();
    let mut warnings = Vec::new();
    let names: Vec<String> = pending.keys().cloned().collect();
    for name in names {
        let mut stack = Vec::new();
        merge(definitions, &mut pending, &name, &mut stack, &mut warnings)?;
    }
    Ok(warnings)
}

/// Merges the composition of `name` (if still pending), its members'
/// compositions first. `stack` holds the compositions being merged, to name
/// a cycle.
fn merge(
    definitions: &mut BTreeMap<String, Definition>,
    pending: &mut BTreeMap<String, Composition>,
    name: &str,
    stack: &mut Vec<(String, Source)>,
    warnings: &mut Vec<Warning>,
) -> Result<()> {
    let Some(composition) = pending.remove(name) else {
        if let Some(start) = stack.iter().position(|(seen, _)| seen == name) {
            let (_, source) = &stack[start];
            let cycle: Vec<&str> = stack[start..].iter().map(|(n, _)| n.as_str()).collect();
            return Err(Error::Spec {
                path: source.path.clone(),
                pointer: source.pointer.clone(),
                message: format!(
                    "allOf members form a cycle ({} → {name}): a type cannot contain itself; \
                     break the cycle with a property that refers to the type instead",
                    cycle.join(" → ")
                ),
            });
        }
        return Ok(());
    };
    stack.push((name.to_owned(), composition.source.clone()));
    let mut merged = ObjectSchema::default();
    let mut description = None;
    for part in &composition.parts {
        match part {
            Part::Inline(object) => merge_object(&mut merged, object)?,
            Part::Definition(member, at) => {
                let target = resolve_alias(definitions, member);
                if pending.contains_key(&target) || stack.iter().any(|(n, _)| *n == target) {
                    merge(definitions, pending, &target, stack, warnings)?;
                }
                let Some(definition) = definitions.get(&target) else {
                    // A missing definition is refused where the `$ref` is read.
                    continue;
                };
                let Some(object) = definition.object() else {
                    return Err(Error::Spec {
                        path: at.path.clone(),
                        pointer: at.pointer.clone(),
                        message: format!(
                            "allOf member {member:?} of {name:?} is not an object (its type is {}); \
                             vergate merges allOf members that are all objects",
                            definition.own_type_expr()
                        ),
                    });
                };
                let object = object.clone();
                description = description.or_else(|| definition.description.clone());
                merge_object(&mut merged, &object)?;
            }
        }
    }
    for (required, at) in &composition.required {
        if merged.properties.contains_key(required) {
            merged.required.insert(required.clone());
        } else {
            warnings.push(Warning {
                path: at.path.clone(),
                pointer: at.pointer.clone(),
                message: format!(
                    "{required:?} is required but no allOf member defines it; ignored"
                ),
            });
        }
    }
    stack.pop();
    if let Some(definition) = definitions.get_mut(name) {
        definition.schema = Schema::Object(merged);
        if definition.description.is_none() {
            definition.description = composition.description.or(description);
        }
    }
    Ok(())
}

/// The definition `name` stands for: itself, or the end of the chain of
/// definitions that are only a `$ref` to another (cycles of such chains are
/// refused separately).
fn resolve_alias(definitions: &BTreeMap<String, Definition>, name: &str) -> String {
    let mut current = name;
    for _ in 0..definitions.len() {
        match definitions.get(current).map(|d| &d.schema) {
            Some(Schema::Ref(next)) if next != current => current = next,
            _ => break,
        }
    }
    current.to_owned()
}

/// Adds `member`'s properties, required names and additional properties to
/// `merged`; a property already there must be defined the same.
fn merge_object(merged: &mut ObjectSchema, member: &ObjectSchema) -> Result<()> {
    for (name, property) in &member.properties {
        match merged.properties.get(name) {
            Some(existing) if !same_definition(existing, property) => {
                return Err(Error::Spec {
                    path: property.source.path.clone(),
                    pointer: property.source.pointer.clone(),
                    message: format!(
                        "property {name:?} is defined differently by two allOf members: here and at {}; \
                         make the two definitions agree or drop one",
                        existing.source
                    ),
                });
            }
            Some(_) => {}
            None => {
                merged.properties.insert(name.clone(), property.clone());
            }
        }
    }
    merged.required.extend(member.required.iter().cloned());
    if merged.additional.is_none() {
        merged.additional.clone_from(&member.additional);
    }
    Ok(())
}

/// Two definitions of one property agree when all but their documentation
/// and place agree.
fn same_definition(a: &Property, b: &Property) -> bool {
    let plain = |property: &Property| Property {
        description: None,
        source: Source::default(),
        ..property.clone()
    };
    plain(a) == plain(b)
}

#[cfg(test)]
mod tests {
    use crate::error::{Error, Result};
    use crate::load::{build_minor, parse, LoadedMinor};
    use crate::model::Schema;
    use crate::Version;
    use std::path::PathBuf;

    fn load_many(files: &[(&str, &str)]) -> Result<LoadedMinor> {
        let documents = files
            .iter()
            .map(|(name, text)| {
                let path = PathBuf::from(name);
                parse(&path, text.as_bytes()).map(|doc| (path, doc))
            })
            .collect::<Result<Vec<_>>>()?;
        build_minor(Version::new(1, 2), &documents)
    }

    fn load(definitions: &str) -> Result<LoadedMinor> {
        let spec = format!(r#"{{"swagger": "2.0", "definitions": {definitions}}}"#);
        load_many(&[("spec.json", &spec)])
    }

    fn fields(minor: &LoadedMinor, name: &str) -> Vec<String> {
        let object = minor.model.definitions[name].object().expect("an object");
        object.properties.keys().cloned().collect()
    }

    fn message(error: Error) -> String {
        error.to_string()
    }

    const HOST_CONFIG: &str = r##"{
      "Resources": {"description": "Limits.", "type": "object", "required": ["Memory"],
        "properties": {"Memory": {"type": "integer"}, "CpuShares": {"type": "integer"}}},
      "HostConfig": {"description": "Host.", "allOf": [
        {"$ref": "#/definitions/Resources"},
        {"type": "object", "required": ["Binds"], "properties": {
          "Binds": {"type": "array", "items": {"type": "string"}},
          "Restart": {"type": "object", "properties": {"Name": {"type": "string"}}}}}
      ]}
    }"##;

    #[test]
    fn a_reference_and_an_inline_object_merge() {
        let minor = load(HOST_CONFIG).unwrap();
        assert_eq!(
            fields(&minor, "HostConfig"),
            ["Binds", "CpuShares", "Memory", "Restart"]
        );
        let host = &minor.model.definitions["HostConfig"];
        let object = host.object().unwrap();
        assert_eq!(
            object.required.iter().collect::<Vec<_>>(),
            ["Binds", "Memory"]
        );
        assert_eq!(host.description.as_deref(), Some("Host."));
        assert_eq!(
            object.properties["Memory"].source.pointer,
            "/definitions/Resources/properties/Memory"
        );
        assert_eq!(
            object.properties["Binds"].source.pointer,
            "/definitions/HostConfig/allOf/1/properties/Binds"
        );
        // An inline object inside a member is hoisted as usual.
        assert_eq!(
            object.properties["Restart"].schema,
            Schema::Ref("HostConfigRestart".into())
        );
        assert!(minor.warnings.is_empty(), "{:?}", minor.warnings);
    }

    #[test]
    fn members_that_compose_are_merged_first_and_siblings_count() {
        let minor = load(
            r##"{
          "A": {"type": "object", "properties": {"a": {"type": "string"}}},
          "B": {"allOf": [{"$ref": "#/definitions/A"}, {"properties": {"b": {"type": "string"}}}]},
          "C": {"allOf": [{"$ref": "#/definitions/B"}], "properties": {"c": {"type": "string"}}},
          "D": {"allOf": [{"allOf": [{"$ref": "#/definitions/C"}, {"properties": {"d": {"type": "string"}}}]}], "required": ["a"]}
        }"##,
        )
        .unwrap();
        assert_eq!(fields(&minor, "C"), ["a", "b", "c"]);
        assert_eq!(fields(&minor, "D"), ["a", "b", "c", "d"]);
        let d = minor.model.definitions["D"].object().unwrap();
        assert!(d.required.contains("a"));
    }

    #[test]
    fn an_all_of_inside_a_property_is_hoisted() {
        let minor = load(
            r##"{
          "A": {"type": "object", "properties": {"a": {"type": "string"}}},
          "Outer": {"type": "object", "properties": {"inner": {"allOf": [
            {"$ref": "#/definitions/A"}, {"properties": {"b": {"type": "boolean"}}}]}}}
        }"##,
        )
        .unwrap();
        let outer = minor.model.definitions["Outer"].object().unwrap();
        assert_eq!(
            outer.properties["inner"].schema,
            Schema::Ref("OuterInner".into())
        );
        assert_eq!(fields(&minor, "OuterInner"), ["a", "b"]);
    }

    #[test]
    fn members_may_come_from_another_file() {
        let base = r#"{"swagger": "2.0", "definitions": {"Base": {"type": "object", "properties": {"x": {"type": "string"}}}}}"#;
        let derived = r##"{"swagger": "2.0", "definitions": {"Derived": {"allOf": [{"$ref": "#/definitions/Base"}, {"properties": {"y": {"type": "string"}}}]}}}"##;
        let minor = load_many(&[("base.json", base), ("derived.json", derived)]).unwrap();
        assert_eq!(fields(&minor, "Derived"), ["x", "y"]);
        let x = &minor.model.definitions["Derived"]
            .object()
            .unwrap()
            .properties["x"];
        assert_eq!(x.source.path, PathBuf::from("base.json"));
    }

    #[test]
    fn a_single_reference_stays_a_reference() {
        let minor = load(
            r##"{
          "Mode": {"type": "string", "enum": ["a", "b"]},
          "M": {"type": "object", "properties": {"mode": {"allOf": [{"$ref": "#/definitions/Mode"}], "description": "The mode."},
            "doc": {"allOf": [{"$ref": "#/definitions/Mode"}, {"description": "Only words."}]}}}
        }"##,
        )
        .unwrap();
        let m = minor.model.definitions["M"].object().unwrap();
        assert_eq!(m.properties["mode"].schema, Schema::Ref("Mode".into()));
        assert_eq!(m.properties["doc"].schema, Schema::Ref("Mode".into()));
    }

    #[test]
    fn a_property_two_members_define_differently_is_refused_naming_both() {
        let error = load(
            r##"{
          "A": {"type": "object", "properties": {"x": {"type": "string"}}},
          "B": {"allOf": [{"$ref": "#/definitions/A"}, {"properties": {"x": {"type": "integer"}}}]}
        }"##,
        )
        .unwrap_err();
        let text = message(error);
        assert!(
            text.contains("/definitions/B/allOf/1/properties/x"),
            "{text}"
        );
        assert!(text.contains("/definitions/A/properties/x"), "{text}");
        assert!(text.contains("defined differently"), "{text}");
        // The same definition twice (differing only in words) is fine.
        load(
            r##"{
          "A": {"type": "object", "properties": {"x": {"type": "string", "description": "one"}}},
          "B": {"allOf": [{"$ref": "#/definitions/A"}, {"properties": {"x": {"type": "string", "description": "two"}}}]}
        }"##,
        )
        .unwrap();
    }

    #[test]
    fn a_cycle_of_compositions_is_refused_naming_it() {
        let error = load(
            r##"{
          "A": {"allOf": [{"$ref": "#/definitions/B"}, {"properties": {"a": {"type": "string"}}}]},
          "B": {"allOf": [{"$ref": "#/definitions/A"}, {"properties": {"b": {"type": "string"}}}]}
        }"##,
        )
        .unwrap_err();
        let text = message(error);
        assert!(text.contains("cycle (A → B → A)"), "{text}");
        let error = load(
            r##"{"S": {"allOf": [{"$ref": "#/definitions/S"}], "properties": {"a": {"type": "string"}}}}"##,
        )
        .unwrap_err();
        assert!(message(error).contains("cycle (S → S)"));
    }

    #[test]
    fn a_missing_member_or_a_scalar_beside_objects_is_refused() {
        let error = load(
            r##"{"A": {"allOf": [{"$ref": "#/definitions/Nope"}, {"properties": {"a": {"type": "string"}}}]}}"##,
        )
        .unwrap_err();
        assert!(message(error).contains("points to no definition"));
        let error = load(
            r##"{"A": {"allOf": [{"type": "string"}, {"properties": {"a": {"type": "string"}}}]}}"##,
        )
        .unwrap_err();
        let text = message(error);
        assert!(
            text.contains("#/definitions/A/allOf: allOf mixes an object"),
            "{text}"
        );
        let error = load(
            r##"{"S": {"type": "string"}, "A": {"allOf": [{"$ref": "#/definitions/S"}, {"properties": {"a": {"type": "string"}}}]}}"##,
        )
        .unwrap_err();
        let text = message(error);
        assert!(
            text.contains("allOf member \"S\" of \"A\" is not an object"),
            "{text}"
        );
    }

    #[test]
    fn scalar_members_merge_their_keywords() {
        let minor = load(
            r##"{"Name": {"allOf": [{"type": "string"}, {"maxLength": 9}, {"description": "words"}]}}"##,
        )
        .unwrap();
        let name = &minor.model.definitions["Name"];
        assert_eq!(name.schema, Schema::String { format: None });
        let error = load(r##"{"Name": {"allOf": [{"type": "string"}, {"type": "integer"}]}}"##)
            .unwrap_err();
        let text = message(error);
        assert!(text.contains("/definitions/Name/allOf/1/type"), "{text}");
        assert!(text.contains("/definitions/Name/allOf/0"), "{text}");
    }

    #[test]
    fn required_names_no_member_defines_are_warned_about() {
        let minor = load(
            r##"{"A": {"allOf": [{"properties": {"a": {"type": "string"}}}], "required": ["a", "zz"]}}"##,
        )
        .unwrap();
        let a = minor.model.definitions["A"].object().unwrap();
        assert!(a.required.contains("a"));
        assert_eq!(minor.warnings.len(), 1, "{:?}", minor.warnings);
        assert_eq!(minor.warnings[0].pointer, "/definitions/A/required/1");
    }
}
