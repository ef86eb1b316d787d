//! A union definition as JSON Schema: `oneOf` / `anyOf` of its members,
//! each member with its own gate in `x-vergate` when that gate says more
//! than "present in every minor".
//!
//! With a discriminator, each member definition also holds the property to
//! the values that select it (`properties.<p>.enum`, `required: [<p>]`),
//! so exactly one member matches a value whose discriminator is right, as
//! OpenAPI's discriminator means, even when the members' shapes overlap.

use super::convert::{shape, Style};
use super::gate_keyword::KEYWORD;
use super::value::{Json, Map};
use crate::model::{Schema, UnionSchema};

/// The `oneOf` / `anyOf` keyword of the union `union`, named `name`.
pub fn union_keywords(name: &str, union: &UnionSchema, style: &Style) -> Map {
    let members = union
        .members
        .iter()
        .map(|member| Json::Object(member_schema(name, union, member, style)))
        .collect();
    Map::from([(union.kind.keyword().to_owned(), Json::Array(members))])
}

fn member_schema(name: &str, union: &UnionSchema, member: &Schema, style: &Style) -> Map {
    let mut out = shape(member, style);
    if let (Some(discriminator), Schema::Ref(target)) = (&union.discriminator, member) {
        let tags: Vec<Json> = union.tags_of(target).map(Json::string).collect();
        let property = Map::from([("enum".to_owned(), Json::Array(tags))]);
        out.insert(
            "properties".into(),
            Json::Object(Map::from([(
                discriminator.property.clone(),
                Json::Object(property),
            )])),
        );
        out.insert(
            "required".into(),
            Json::Array(vec![Json::string(&discriminator.property)]),
        );
    }
    if let Some(gate) = style.gates.of_member(name, &member.type_expr()) {
        out.insert(KEYWORD.into(), gate.clone());
    }
    out
}
