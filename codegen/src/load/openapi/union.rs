//! `oneOf` / `anyOf` (with OpenAPI's `discriminator`) and OpenAPI 3.1 type
//! lists (`type: [string, integer]`) as [`Schema::Union`] definitions.
//!
//! A union met inside a property, list or map is hoisted into a definition
//! of its own (as inline objects are), named like one: `ServiceSpecPorts`.
//! Members are converted like any schema (inline objects and nested unions
//! hoisted under `<Union>Option<N>`). A `null` member (`{type: "null"}`,
//! 3.1's way to say nullable) is not a member: the schema is nullable
//! instead (see [`says_null`]), and a union left with one member is that
//! member.

use super::{kind_of, Converter};
use crate::error::Result;
use crate::model::{Definition, Discriminator, Schema, UnionKind, UnionSchema};
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use vergate_core::json_pointer;

/// The most members a union may have; more is an error naming the schema.
pub const MAX_MEMBERS: usize = 256;

/// True when the schema accepts `null` besides its type: OpenAPI 3.1's
/// `type: [T, "null"]` or a `{type: "null"}` member of `oneOf` / `anyOf`.
/// (3.0's `nullable: true` is kept as is.)
pub fn says_null(object: &Map<String, Value>) -> bool {
    let null_type = |value: &Value| match value.get("type") {
        Some(Value::String(name)) => name == "null",
        _ => false,
    };
    let type_list_has_null = object
        .get("type")
        .and_then(Value::as_array)
        .is_some_and(|types| types.iter().any(|t| t == "null"));
    let member_is_null = ["oneOf", "anyOf"].iter().any(|keyword| {
        object
            .get(*keyword)
            .and_then(Value::as_array)
            .is_some_and(|members| members.iter().any(null_type))
    });
    type_list_has_null || member_is_null
}

/// True when converting `object` may make a union (so a hoisted name is
/// needed): it has `oneOf` / `anyOf` or lists several non-null types.
pub fn may_be_union(object: &Map<String, Value>) -> bool {
    object.contains_key("oneOf") || object.contains_key("anyOf") || type_list(object).len() > 1
}

/// The non-null names of a `type` list (empty when `type` is not a list).
fn type_list(object: &Map<String, Value>) -> Vec<&str> {
    match object.get("type") {
        Some(Value::Array(names)) => names
            .iter()
            .filter_map(Value::as_str)
            .filter(|name| *name != "null")
            .collect(),
        _ => Vec::new(),
    }
}

impl Converter<'_> {
    /// The schema of `object` when it is a union (`oneOf`, `anyOf` or a
    /// list of types), else `None`. `name` names the union if it is
    /// hoisted (when `top` is false) and its inline members.
    pub(super) fn union(
        &mut self,
        object: &Map<String, Value>,
        pointer: &str,
        name: &str,
        top: bool,
    ) -> Result<Option<Schema>> {
        let keyword = ["oneOf", "anyOf"]
            .into_iter()
            .find(|keyword| object.contains_key(*keyword));
        let Some(keyword) = keyword else {
            if object.contains_key("discriminator") {
                self.warn(
                    &format!("{pointer}/discriminator"),
                    "a `discriminator` without `oneOf` / `anyOf` beside it is not modeled; ignored",
                );
            }
            return self.type_list_union(object, pointer, name, top);
        };
        let at = format!("{pointer}/{keyword}");
        if object.contains_key("properties") {
            // `properties` beside `oneOf: [{required: [a]}, {required: [b]}]`:
            // the object is what the model keeps.
            self.warn(
                &at,
                format!("`{keyword}` beside `properties` is not modeled; the object's properties are kept and the `{keyword}` is ignored"),
            );
            return Ok(None);
        }
        let Some(values) = object[keyword].as_array() else {
            return Err(self.error(
                &at,
                format!(
                    "{keyword} must be an array of schemas, found {}",
                    kind_of(&object[keyword])
                ),
            ));
        };
        if values.len() > MAX_MEMBERS {
            return Err(self.error(
                &at,
                format!("{keyword} has {} members; vergate reads at most {MAX_MEMBERS}: split the union", values.len()),
            ));
        }
        let kind = if keyword == "oneOf" {
            UnionKind::OneOf
        } else {
            UnionKind::AnyOf
        };
        let mut members = Vec::with_capacity(values.len());
        for (index, value) in values.iter().enumerate() {
            let member_at = format!("{at}/{index}");
            if value.get("type").and_then(Value::as_str) == Some("null") {
                continue;
            }
            let child = self.child_name(value, name, &format!("Option{}", index + 1));
            let member = self.schema(value, &member_at, &child, false)?;
            self.add_member(&mut members, member, &member_at, name);
        }
        let discriminator = match object.get("discriminator") {
            Some(value) => {
                self.discriminator(value, &format!("{pointer}/discriminator"), &members)?
            }
            None => None,
        };
        self.finish(
            UnionSchema {
                kind,
                members,
                discriminator,
            },
            object,
            &at,
            name,
            top,
        )
        .map(Some)
    }

    /// `type: [string, integer]` (3.1): a union (`anyOf`) of one schema per
    /// type, each with the object's other keywords.
    fn type_list_union(
        &mut self,
        object: &Map<String, Value>,
        pointer: &str,
        name: &str,
        top: bool,
    ) -> Result<Option<Schema>> {
        let types = type_list(object);
        if types.len() < 2 {
            return Ok(None);
        }
        let at = format!("{pointer}/type");
        let mut members = Vec::with_capacity(types.len());
        for (index, ty) in types.iter().enumerate() {
            let mut single = object.clone();
            single.insert("type".into(), Value::String((*ty).to_owned()));
            let child = self.child_name(
                &Value::Object(single.clone()),
                name,
                &format!("Option{}", index + 1),
            );
            let member = self.schema(&Value::Object(single), pointer, &child, false)?;
            self.add_member(&mut members, member, &format!("{at}/{index}"), name);
        }
        let union = UnionSchema {
            kind: UnionKind::AnyOf,
            members,
            discriminator: None,
        };
        self.finish(union, object, &at, name, top).map(Some)
    }

    /// Adds `member` unless it is the union itself or already a member.
    fn add_member(&mut self, members: &mut Vec<Schema>, member: Schema, at: &str, name: &str) {
        if member == Schema::Ref(name.to_owned()) {
            self.warn(at, format!("{name:?} lists itself as a member; a value could never be decoded that way, so the member is left out"));
        } else if members.contains(&member) {
            self.warn(
                at,
                format!(
                    "member {} is listed twice; the second is left out",
                    member.type_expr()
                ),
            );
        } else {
            members.push(member);
        }
    }

    /// The union as the schema at `pointer`: nothing left → any value
    /// (warned); one member → that member; else the union, hoisted when
    /// not `top`.
    fn finish(
        &mut self,
        mut union: UnionSchema,
        object: &Map<String, Value>,
        at: &str,
        name: &str,
        top: bool,
    ) -> Result<Schema> {
        match union.members.len() {
            0 => {
                self.warn(at, "a union with no members (other than null) is not modeled; treated as accepting any value");
                Ok(Schema::Any)
            }
            1 if union.discriminator.is_none() => Ok(union.members.remove(0)),
            _ if top => Ok(Schema::Union(union)),
            _ => {
                let hoisted = self.hoisted_name(name);
                let meta = self.meta(object, at)?;
                let mut definition = Definition::new(hoisted.clone(), Schema::Union(union));
                definition.description = meta.description;
                definition.deprecated = meta.deprecated;
                definition.source = self.source(at);
                self.hoisted.push(definition);
                Ok(Schema::Ref(hoisted))
            }
        }
    }

    /// `name`, or `name2`, `name3`… when taken; then taken.
    fn hoisted_name(&mut self, name: &str) -> String {
        let mut hoisted = name.to_owned();
        let mut counter = 2;
        while self.taken.contains(&hoisted) {
            hoisted = format!("{name}{counter}");
            counter += 1;
        }
        self.taken.insert(hoisted.clone());
        hoisted
    }

    /// OpenAPI's `discriminator` of a union with `members`: the mapping's
    /// targets must be member definitions; each member definition no
    /// mapping entry names is selected by its own name.
    fn discriminator(
        &mut self,
        value: &Value,
        pointer: &str,
        members: &[Schema],
    ) -> Result<Option<Discriminator>> {
        let Some(property) = value.get("propertyName").and_then(Value::as_str) else {
            return Err(self.error(pointer, "a discriminator needs `propertyName`, the name of the property that selects the member"));
        };
        let member_names: Vec<&str> = members
            .iter()
            .filter_map(|member| match member {
                Schema::Ref(name) => Some(name.as_str()),
                _ => None,
            })
            .collect();
        let mut mapping = BTreeMap::new();
        if let Some(entries) = value.get("mapping") {
            let at = format!("{pointer}/mapping");
            let Some(entries) = entries.as_object() else {
                return Err(self.error(
                    &at,
                    format!(
                        "mapping must be an object of value → schema, found {}",
                        kind_of(entries)
                    ),
                ));
            };
            for (tag, target) in entries {
                let entry_at = format!("{at}/{}", json_pointer::escape(tag));
                let Some(target) = target.as_str() else {
                    return Err(self.error(
                        &entry_at,
                        "a mapping value is a schema name or a `$ref` string",
                    ));
                };
                let target_name = target
                    .strip_prefix('#')
                    .and_then(|local| self.definition_segment(local))
                    .map_or_else(
                        || target.to_owned(),
                        |segment| json_pointer::unescape(segment).into_owned(),
                    );
                if !member_names.contains(&target_name.as_str()) {
                    return Err(self.error(
                        &entry_at,
                        format!(
                            "discriminator value {tag:?} maps to {target:?}, which is not a member of the union (members: {}); map it to one of them",
                            member_names.join(", ")
                        ),
                    ));
                }
                mapping.insert(tag.clone(), target_name);
            }
        }
        for member in member_names {
            if !mapping.values().any(|target| target == member) {
                mapping.insert(member.to_owned(), member.to_owned());
            }
        }
        Ok(Some(Discriminator {
            property: property.to_owned(),
            mapping,
        }))
    }
}

#[cfg(test)]
mod tests {
    use crate::error::Result;
    use crate::load::{build_minor, parse, LoadedMinor};
    use crate::model::{Schema, UnionKind};
    use std::path::PathBuf;
    use vergate_core::Version;

    fn load(text: &str) -> Result<LoadedMinor> {
        let path = PathBuf::from("spec.yaml");
        let document = parse(&path, text.as_bytes())?;
        build_minor(Version::new(1, 0), &[(path, document)])
    }

    fn schemas(body: &str) -> String {
        format!("openapi: 3.1.0\ncomponents:\n  schemas:\n{body}")
    }

    #[test]
    fn a_discriminator_maps_its_values_and_names_the_rest_by_definition() {
        let minor = load(&schemas(
            "    a.Pet:
      oneOf: [{$ref: '#/components/schemas/a.Cat'}, {$ref: '#/components/schemas/a.Dog'}]
      discriminator: {propertyName: kind, mapping: {cat: '#/components/schemas/a.Cat'}}
    a.Cat: {type: object, properties: {kind: {type: string}}}
    a.Dog: {type: object, properties: {kind: {type: string}}}
",
        ))
        .unwrap();
        let union = minor.model.definitions["a.Pet"].union().unwrap();
        assert_eq!(union.kind, UnionKind::OneOf);
        assert_eq!(
            union.members,
            [Schema::Ref("a.Cat".into()), Schema::Ref("a.Dog".into())]
        );
        let discriminator = union.discriminator.as_ref().unwrap();
        assert_eq!(discriminator.property, "kind");
        let mapping: Vec<(&str, &str)> = discriminator
            .mapping
            .iter()
            .map(|(value, member)| (value.as_str(), member.as_str()))
            .collect();
        assert_eq!(mapping, [("a.Dog", "a.Dog"), ("cat", "a.Cat")]);
        assert!(minor.warnings.is_empty(), "{:?}", minor.warnings);
    }

    #[test]
    fn unions_in_properties_are_hoisted_with_their_inline_members() {
        let minor = load(&schemas(
            "    a.Thing:
      type: object
      properties:
        retries:
          anyOf: [{type: integer}, {type: object, properties: {max: {type: integer}}}]
        either: {type: [integer, string, 'null']}
        maybe: {oneOf: [{$ref: '#/components/schemas/a.Other'}, {type: 'null'}]}
        fixed: {const: on}
    a.Other: {type: object, properties: {x: {type: string}}}
",
        ))
        .unwrap();
        let defs = &minor.model.definitions;
        let thing = defs["a.Thing"].object().unwrap();
        assert_eq!(
            thing.properties["retries"].schema,
            Schema::Ref("a.ThingRetries".into())
        );
        let retries = defs["a.ThingRetries"].union().unwrap();
        assert_eq!(retries.kind, UnionKind::AnyOf);
        assert_eq!(
            retries.members,
            [
                Schema::Integer { format: None },
                Schema::Ref("a.ThingRetriesOption2".into())
            ]
        );
        assert!(defs["a.ThingRetriesOption2"].object().is_some());
        // A type list is an anyOf of its types; `null` makes it nullable.
        let either = &thing.properties["either"];
        assert_eq!(either.schema, Schema::Ref("a.ThingEither".into()));
        assert_eq!(either.keywords["nullable"], "true");
        assert_eq!(
            defs["a.ThingEither"].union().unwrap().members,
            [
                Schema::Integer { format: None },
                Schema::String { format: None }
            ]
        );
        // A null member is not a member: one left is that member, nullable.
        let maybe = &thing.properties["maybe"];
        assert_eq!(maybe.schema, Schema::Ref("a.Other".into()));
        assert_eq!(maybe.keywords["nullable"], "true");
        // `const` is a one-value enum.
        let fixed = &thing.properties["fixed"];
        assert_eq!(fixed.schema, Schema::String { format: None });
        assert_eq!(fixed.enum_values, ["on"]);
        assert!(minor.warnings.is_empty(), "{:?}", minor.warnings);
    }

    #[test]
    fn what_a_union_cannot_be_is_said_at_its_pointer() {
        let warnings = |body: &str| -> Vec<String> {
            load(&schemas(body))
                .unwrap()
                .warnings
                .iter()
                .map(ToString::to_string)
                .collect()
        };
        let found = warnings(
            "    a.Thing:
      type: object
      properties: {a: {type: string}, b: {type: string}}
      oneOf: [{required: [a]}, {required: [b]}]
    a.Base:
      type: object
      properties: {kind: {type: string}}
      discriminator: {propertyName: kind}
    a.Twice: {oneOf: [{type: string}, {type: string}, {type: integer}]}
",
        );
        assert_eq!(found.len(), 3, "{found:#?}");
        assert!(found[0].contains("a.Base/discriminator: a `discriminator` without `oneOf`"));
        assert!(found[1].contains("a.Thing/oneOf: `oneOf` beside `properties` is not modeled"));
        assert!(found[2].contains("a.Twice/oneOf/1: member string is listed twice"));
        let members: Vec<String> = (0..300)
            .map(|i| format!("{{type: string, format: f{i}}}"))
            .collect();
        let err = load(&schemas(&format!(
            "    a.Wide: {{anyOf: [{}]}}\n",
            members.join(", ")
        )))
        .unwrap_err()
        .to_string();
        assert!(err.contains("#/components/schemas/a.Wide/anyOf: anyOf has 300 members; vergate reads at most 256"), "{err}");
        let err = load(&schemas(
            "    a.P: {oneOf: [{type: string}], discriminator: {mapping: {}}}\n",
        ))
        .unwrap_err()
        .to_string();
        assert!(
            err.contains("a.P/discriminator: a discriminator needs `propertyName`"),
            "{err}"
        );
    }
}
