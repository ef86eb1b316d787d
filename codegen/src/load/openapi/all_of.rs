//! Reading an `allOf`: its members (nested `allOf`s flattened, local
//! pointers followed) sorted into references to definitions, inline
//! objects, scalar schemas and members that only document.
//!
//! - One `$ref` and nothing else that shapes the value (the other members
//!   only document) is that reference, as `allOf: [{$ref}]` is in OpenAPI 3.
//! - Objects (inline or definitions) become a [`Composition`], merged once
//!   the minor's definitions are all converted (`load/compose.rs`).
//! - Scalars only (`{type: string}` + `{maxLength: 9}`) merge their keywords
//!   into one schema; a keyword two members give differently is an error.
//! - Objects and scalars together are an error: no value is both.

use super::{kind_of, Converter, UNHANDLED_KEYWORDS};
use crate::error::Result;
use crate::load::compose::{Composition, Part};
use crate::model::{ObjectSchema, Schema};
use serde_json::{Map, Value};

/// How deep `allOf`s may nest in one another (through inline members or
/// local pointers) before the spec is refused.
const MAX_NESTING: usize = 64;

/// Keywords that document a member without shaping the value.
const DOCUMENTING: [&str; 7] = [
    "description",
    "title",
    "example",
    "examples",
    "externalDocs",
    "readOnly",
    "writeOnly",
];

/// Keywords that make a member without `type` an object.
const OBJECT_KEYWORDS: [&str; 5] = [
    "properties",
    "required",
    "additionalProperties",
    "minProperties",
    "maxProperties",
];

/// One member of an `allOf`, sorted.
enum Member<'v> {
    /// A `$ref` to a definition: its name and the `$ref`'s pointer.
    Definition(String, String),
    /// An inline object with `properties`, at its pointer.
    Object(&'v Map<String, Value>, String),
    /// A schema of some other type, at its pointer.
    Scalar(&'v Map<String, Value>, String),
    /// Documentation only, at its pointer.
    Note(&'v Map<String, Value>, String),
}

impl<'a> Converter<'a> {
    /// Converts the schema `holder` at `pointer`, which has an `allOf`.
    /// `name` and `top` are as for [`Converter::schema`].
    pub(super) fn all_of<'v>(
        &mut self,
        holder: &'v Map<String, Value>,
        pointer: &str,
        name: &str,
        top: bool,
    ) -> Result<Schema>
    where
        'a: 'v,
    {
        let mut members = Vec::new();
        self.members(holder, pointer, &mut members, 0)?;
        let (mut definitions, mut objects, mut scalars) = (0, 0, 0);
        for member in &members {
            match member {
                Member::Definition(..) => definitions += 1,
                Member::Object(..) => objects += 1,
                Member::Scalar(..) => scalars += 1,
                Member::Note(..) => {}
            }
        }
        if scalars > 0 && definitions + objects > 0 {
            let place = |wanted: fn(&Member) -> bool| {
                members
                    .iter()
                    .find(|member| wanted(member))
                    .map(|member| match member {
                        Member::Definition(_, at)
                        | Member::Object(_, at)
                        | Member::Scalar(_, at)
                        | Member::Note(_, at) => at.clone(),
                    })
                    .unwrap_or_default()
            };
            let object_at = place(|m| matches!(m, Member::Definition(..) | Member::Object(..)));
            let scalar_at = place(|m| matches!(m, Member::Scalar(..)));
            return Err(self.error(
                &format!("{pointer}/allOf"),
                format!(
                    "allOf mixes an object ({object_at}) with a schema that is no object ({scalar_at}): \
                     no value is both; make every member an object, or every member the same scalar type"
                ),
            ));
        }
        if definitions == 1 && objects == 0 {
            let target = members.iter().find_map(|member| match member {
                Member::Definition(target, _) => Some(target.clone()),
                _ => None,
            });
            return Ok(Schema::Ref(target.unwrap_or_default()));
        }
        if definitions + objects == 0 {
            return self.scalar_members(&members, pointer, name, top);
        }
        self.composition(holder, &members, pointer, name, top)
    }

    /// Collects the members of `holder`'s `allOf` into `members`, with
    /// nested `allOf`s flattened; `holder`'s own `properties` are a member
    /// too.
    fn members<'v>(
        &mut self,
        holder: &'v Map<String, Value>,
        pointer: &str,
        members: &mut Vec<Member<'v>>,
        depth: usize,
    ) -> Result<()>
    where
        'a: 'v,
    {
        let at = format!("{pointer}/allOf");
        if depth > MAX_NESTING {
            return Err(self.error(
                &at,
                format!("allOf nests more than {MAX_NESTING} levels deep; flatten it"),
            ));
        }
        let Some(list) = holder.get("allOf").and_then(Value::as_array) else {
            let found = holder.get("allOf").map_or("nothing", kind_of);
            return Err(self.error(&at, format!("allOf must be an array, found {found}")));
        };
        if holder.contains_key("properties") {
            members.push(Member::Object(holder, pointer.to_owned()));
        }
        for (index, member) in list.iter().enumerate() {
            let member_at = format!("{at}/{index}");
            let object = match member {
                Value::Object(object) => object,
                Value::Bool(true) => continue,
                other => {
                    return Err(self.error(
                        &member_at,
                        format!(
                            "an allOf member must be a schema (a JSON object), found {}",
                            kind_of(other)
                        ),
                    ))
                }
            };
            self.member(object, member_at, members, depth)?;
        }
        Ok(())
    }

    /// Sorts one member (at `at`) into `members`.
    fn member<'v>(
        &mut self,
        object: &'v Map<String, Value>,
        at: String,
        members: &mut Vec<Member<'v>>,
        depth: usize,
    ) -> Result<()>
    where
        'a: 'v,
    {
        if let Some(reference) = object.get("$ref") {
            let ref_at = format!("{at}/$ref");
            let target = reference.as_str().and_then(|t| t.strip_prefix('#'));
            let local = match target {
                Some(local) if self.definition_segment(local).is_none() => local,
                // A definition (checked to exist) or an error.
                _ => {
                    // `reference` gives a `Ref` for a `$ref` to a definition.
                    if let Schema::Ref(name) = self.reference(reference, &at, "")? {
                        members.push(Member::Definition(name, ref_at));
                    }
                    return Ok(());
                }
            };
            if self.resolving.iter().any(|seen| seen == local) {
                return Err(self.error(
                    &ref_at,
                    format!("$ref \"#{local}\" is part of a cycle of references"),
                ));
            }
            let root = self.root;
            let Some(resolved) = root.pointer(local).and_then(Value::as_object) else {
                return Err(self.error(
                    &ref_at,
                    format!("$ref \"#{local}\" points to no schema object in this document"),
                ));
            };
            self.resolving.push(local.to_owned());
            let sorted = self.member(resolved, local.to_owned(), members, depth + 1);
            self.resolving.pop();
            return sorted;
        }
        if object.contains_key("allOf") {
            return self.members(object, &at, members, depth + 1);
        }
        if let Some(keyword) = UNHANDLED_KEYWORDS
            .iter()
            .find(|keyword| object.contains_key(**keyword))
        {
            self.warn(
                &format!("{at}/{keyword}"),
                format!("`{keyword}` is not modeled; this allOf member is not merged"),
            );
            return Ok(());
        }
        let is_object = match object.get("type") {
            Some(ty) => ty.as_str() == Some("object"),
            None => OBJECT_KEYWORDS.iter().any(|key| object.contains_key(*key)),
        };
        if is_object {
            members.push(Member::Object(object, at));
        } else if object
            .keys()
            .all(|key| DOCUMENTING.contains(&key.as_str()) || key.starts_with("x-"))
        {
            members.push(Member::Note(object, at));
        } else {
            members.push(Member::Scalar(object, at));
        }
        Ok(())
    }

    /// Members that are all scalars (or notes): their keywords merged into
    /// one schema, converted at the `allOf`.
    fn scalar_members(
        &mut self,
        members: &[Member<'_>],
        pointer: &str,
        name: &str,
        top: bool,
    ) -> Result<Schema> {
        let mut merged: Map<String, Value> = Map::new();
        let mut origin: Map<String, Value> = Map::new();
        for member in members {
            let (Member::Scalar(object, at) | Member::Note(object, at)) = member else {
                continue;
            };
            for (key, value) in object.iter() {
                if DOCUMENTING.contains(&key.as_str()) {
                    continue;
                }
                match merged.get(key) {
                    Some(existing) if existing != value => {
                        let first = origin[key].as_str().unwrap_or_default().to_owned();
                        return Err(self.error(
                            &format!("{at}/{}", vergate_core::json_pointer::escape(key)),
                            format!(
                                "allOf members give `{key}` differently: here and at {first}; \
                                 make them agree or drop one"
                            ),
                        ));
                    }
                    Some(_) => {}
                    None => {
                        merged.insert(key.clone(), value.clone());
                        origin.insert(key.clone(), Value::String(at.clone()));
                    }
                }
            }
        }
        if let Some(at) = origin.get("enum").and_then(Value::as_str) {
            self.warn(
                &format!("{at}/enum"),
                "`enum` inside `allOf` is not modeled; its values are not enforced",
            );
        }
        let scalars: Vec<(&Map<String, Value>, &String)> = members
            .iter()
            .filter_map(|member| match member {
                Member::Scalar(object, at) => Some((*object, at)),
                _ => None,
            })
            .collect();
        match scalars.as_slice() {
            // One member that shapes the value is that member, at its place.
            [(object, at)] => {
                let single = Value::Object((*object).clone());
                self.schema(&single, at, name, top)
            }
            _ => self.schema(
                &Value::Object(merged),
                &format!("{pointer}/allOf"),
                name,
                top,
            ),
        }
    }

    /// Members that are objects: converted into a [`Composition`] for the
    /// definition itself (`top`) or a hoisted one.
    fn composition(
        &mut self,
        holder: &Map<String, Value>,
        members: &[Member<'_>],
        pointer: &str,
        name: &str,
        top: bool,
    ) -> Result<Schema> {
        let mut parts = Vec::new();
        let mut required = Vec::new();
        let mut description = None;
        for member in members {
            match member {
                Member::Definition(target, at) => {
                    parts.push(Part::Definition(target.clone(), self.source(at)))
                }
                Member::Object(object, at) => {
                    self.required_names(object, at, &mut required)?;
                    if !std::ptr::eq(*object, holder) && description.is_none() {
                        description = object
                            .get("description")
                            .and_then(Value::as_str)
                            .map(str::to_owned);
                    }
                    if object.contains_key("properties") {
                        let mut without_required = (*object).clone();
                        without_required.remove("required");
                        let shape = self.object(&without_required, at, name)?;
                        parts.push(Part::Inline(shape));
                    }
                }
                Member::Note(object, _) | Member::Scalar(object, _) => {
                    if description.is_none() {
                        description = object
                            .get("description")
                            .and_then(Value::as_str)
                            .map(str::to_owned);
                    }
                }
            }
        }
        if holder.get("required").is_some() && !holder.contains_key("properties") {
            self.required_names(holder, pointer, &mut required)?;
        }
        let schema = if top {
            Schema::Object(ObjectSchema::default())
        } else {
            self.hoist(holder, ObjectSchema::default(), pointer, name)?
        };
        let composed = match &schema {
            Schema::Ref(hoisted) => hoisted.clone(),
            _ => name.to_owned(),
        };
        self.compositions.push(Composition {
            name: composed,
            source: self.source(&format!("{pointer}/allOf")),
            parts,
            required,
            description,
        });
        Ok(schema)
    }

    /// The names `object`'s `required` lists, each with its place.
    fn required_names(
        &mut self,
        object: &Map<String, Value>,
        pointer: &str,
        out: &mut Vec<(String, crate::model::Source)>,
    ) -> Result<()> {
        let Some(required) = object.get("required") else {
            return Ok(());
        };
        let at = format!("{pointer}/required");
        let Some(names) = required.as_array() else {
            return Err(self.error(
                &at,
                format!(
                    "required must be an array of names, found {}",
                    kind_of(required)
                ),
            ));
        };
        for (index, entry) in names.iter().enumerate() {
            let Some(entry) = entry.as_str() else {
                return Err(self.error(
                    &format!("{at}/{index}"),
                    "required lists property names as strings",
                ));
            };
            out.push((entry.to_owned(), self.source(&format!("{at}/{index}"))));
        }
        Ok(())
    }
}
