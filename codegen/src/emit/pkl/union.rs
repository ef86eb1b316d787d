//! A union definition as a Pkl type: its members joined with `|`
//! (`Cat|Dog`, `String|Int`). With a discriminator, a member class that
//! declares the discriminator property is constrained to the values that
//! select it (`Cat(petType == "cat")`), so a value of the wrong member is
//! refused as OpenAPI's discriminator means.

use super::escape::pkl_string;
use crate::error::Result;
use crate::model::{MinorModel, Schema, UnionSchema};
use vergate_core::alias::pkl_identifier;

/// The Pkl type of `union`, as defined in `minor`; `member_type` writes one
/// member's type.
pub fn union_type(
    union: &UnionSchema,
    minor: &MinorModel,
    mut member_type: impl FnMut(&Schema) -> Result<String>,
) -> Result<String> {
    if union.members.is_empty() {
        // A union of nothing accepts nothing; the loader warns about it.
        return Ok("Nothing".into());
    }
    let mut members = Vec::with_capacity(union.members.len());
    for member in &union.members {
        let mut ty = member_type(member)?;
        if let Some(constraint) = discriminator_constraint(union, member, minor) {
            ty = format!("{ty}({constraint})");
        }
        members.push(ty);
    }
    Ok(members.join("|"))
}

/// `petType == "cat"` (or `petType == "a" || petType == "b"`) for a member
/// definition that declares the discriminator property.
fn discriminator_constraint(
    union: &UnionSchema,
    member: &Schema,
    minor: &MinorModel,
) -> Option<String> {
    let discriminator = union.discriminator.as_ref()?;
    let Schema::Ref(target) = member else {
        return None;
    };
    let object = minor.definitions.get(target)?.object()?;
    object.properties.get(&discriminator.property)?;
    let property = pkl_identifier(&discriminator.property);
    let tests: Vec<String> = union
        .tags_of(target)
        .map(|tag| format!("{property} == {}", pkl_string(tag)))
        .collect();
    (!tests.is_empty()).then(|| tests.join(" || "))
}
