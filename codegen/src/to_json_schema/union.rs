//! A union definition as JSON Schema: `oneOf` / `anyOf` of its members,
//! each member with its own gate in `x-vergate` when that gate says more
//! than "present in every minor".
//!
//! With a discriminator, each member definition also holds the property to
//! the values that select it (`properties.<p>.enum`, `required: [<p>]`),
//! so exactly one member matches a value whose discriminator is right, as
//! OpenAPI's discriminator means, even when the members' shapes overlap.

use super::gate_keyword::KEYWORD;
use super::shape::shape;
use super::style::Style;
use crate::model::{Schema, UnionSchema};
use crate::to_json_schema::Object;
use vergate_core::json::Value;

/// The `oneOf` / `anyOf` keyword of the union `union`, named `name`.
pub fn union_keywords(name: &str, union: &UnionSchema, style: &Style) -> Object {
    let members = union
        .members
        .iter()
        .map(|member| Value::Object(member_schema(name, union, member, style)))
        .collect();
    Object::from_iter([(union.kind.keyword().to_owned(), Value::Array(members))])
}

fn member_schema(name: &str, union: &UnionSchema, member: &Schema, style: &Style) -> Object {
    let mut out = shape(member, style);
    if let (Some(discriminator), Schema::Ref(target)) = (&union.discriminator, member) {
        let tags: Vec<Value> = union.tags_of(target).map(super::string).collect();
        let property = Object::from_iter([("enum".to_owned(), Value::Array(tags))]);
        out.insert(
            "properties".into(),
            Value::Object(Object::from_iter([(
                discriminator.property.clone(),
                Value::Object(property),
            )])),
        );
        out.insert(
            "required".into(),
            Value::Array(vec![super::string(&discriminator.property)]),
        );
    }
    if let Some(gate) = style.gates.of_member(name, &member.type_expr()) {
        out.insert(KEYWORD.into(), gate.clone());
    }
    out
}
