//! Converting OpenAPI 2 `definitions` / OpenAPI 3 `components.schemas` into
//! model [`Definition`]s.
//!
//! Local `$ref`s are resolved; remote ones are refused and never fetched.
//! Inline objects with properties are hoisted into definitions of their own
//! (`ServiceSpec` + property `ports` → `ServiceSpecPorts`). An `allOf` is
//! read in `openapi/all_of.rs`; its objects are merged once the minor is
//! converted (`load/compose.rs`). Constructs the model does not handle
//! become [`Warning`]s with their JSON pointer.

mod all_of;
mod enum_type;

use super::compose::Composition;
use crate::error::{Error, Result, Warning};
use crate::model::{Definition, GroupVersionKind, ObjectSchema, Property, Schema, Source};
use heck::ToUpperCamelCase;
use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use vergate_core::gates::ListType;
use vergate_core::json_pointer;

mod union;

/// Keywords kept verbatim (as JSON text) for the emitters.
const KEPT_KEYWORDS: [&str; 21] = [
    "title",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "pattern",
    "minItems",
    "maxItems",
    "uniqueItems",
    "minProperties",
    "maxProperties",
    "readOnly",
    "writeOnly",
    "nullable",
    "example",
    "examples",
    "const",
    // A CRD's CEL rules: gates.json's constraints, the JSON Schema's
    // documentation, `vergate diff`.
    "x-kubernetes-validations",
];

/// Keywords that change a schema's meaning in ways the model does not follow.
const UNHANDLED_KEYWORDS: [&str; 6] = [
    "not",
    "patternProperties",
    "if",
    "then",
    "else",
    "prefixItems",
];

/// The extension that records a property's previous wire name.
pub const RENAMED_FROM: &str = "x-vergate-renamed-from";
const GROUP_VERSION_KIND: &str = "x-kubernetes-group-version-kind";

/// The definitions of one document, converted.
pub struct Converted {
    pub definitions: Vec<Definition>,
    pub warnings: Vec<Warning>,
    /// The `allOf`s of objects, merged once the whole minor is converted.
    pub compositions: Vec<Composition>,
}

/// Converts the named definitions of one document. `all_names` holds every
/// definition name of the minor (across its files), for `$ref` checks and
/// for choosing names of hoisted inline objects.
pub fn convert(
    path: &Path,
    root: &Value,
    definitions_pointer: &str,
    names: &[&str],
    all_names: &BTreeSet<String>,
) -> Result<Converted> {
    let mut converter = Converter {
        path,
        root,
        definitions_pointer,
        all_names,
        taken: all_names.clone(),
        hoisted: Vec::new(),
        warnings: Vec::new(),
        resolving: Vec::new(),
        element_enums: Vec::new(),
        compositions: Vec::new(),
    };
    let definitions_value = root.pointer(definitions_pointer).unwrap_or(&Value::Null);
    let mut definitions = Vec::with_capacity(names.len());
    for name in names {
        let value = &definitions_value[*name];
        let pointer = format!("{definitions_pointer}/{}", json_pointer::escape(name));
        definitions.push(converter.definition(name, value, &pointer)?);
    }
    definitions.append(&mut converter.hoisted);
    Ok(Converted {
        definitions,
        warnings: converter.warnings,
        compositions: converter.compositions,
    })
}

/// Checks that a definition name can safely become a file or module name.
///
/// Names must match OpenAPI 3's rule for component keys,
/// `^[a-zA-Z0-9.\-_]+$` (OpenAPI 2 specs such as Kubernetes' follow it too),
/// and may not be `.`/`..` or have an empty dot-separated segment. This keeps
/// path separators, NUL, control and invisible characters out of every
/// emitter's file and module names.
pub fn check_definition_name(path: &Path, pointer: &str, name: &str) -> Result<()> {
    let bad_char = name
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_')));
    let problem = if name.is_empty() {
        Some("it is empty".to_owned())
    } else if let Some(c) = bad_char {
        let what = match c {
            '/' | '\\' => "a path separator".to_owned(),
            '\0' => "a NUL character".to_owned(),
            c if c.is_control() => format!("the control character U+{:04X}", c as u32),
            c => format!("the character {c:?} (U+{:04X})", c as u32),
        };
        Some(format!("it contains {what}; names may use only A-Z a-z 0-9 . - _ (OpenAPI's rule for component names)"))
    } else if name.split('.').any(str::is_empty) {
        Some(
            "it has an empty dot-separated segment (`..`, or a leading or trailing dot)".to_owned(),
        )
    } else {
        None
    };
    match problem {
        Some(problem) => Err(Error::Spec {
            path: path.to_owned(),
            pointer: pointer.to_owned(),
            message: format!(
                "definition name {name:?} cannot become a file or module name: {problem}; rename the definition"
            ),
        }),
        None => Ok(()),
    }
}

struct Converter<'a> {
    path: &'a Path,
    root: &'a Value,
    definitions_pointer: &'a str,
    all_names: &'a BTreeSet<String>,
    /// Names in use, including hoisted ones.
    taken: BTreeSet<String>,
    hoisted: Vec<Definition>,
    warnings: Vec<Warning>,
    /// Local pointers being resolved, to catch `$ref` cycles.
    resolving: Vec<String>,
    /// The `enum`s met on elements (arrays' `items`, maps'
    /// `additionalProperties`), by the pointer of the element schema, not
    /// yet claimed: a property takes its own list's or map's (see
    /// [`Converter::claim_element_enum`]); any other is warned about.
    element_enums: Vec<(String, Vec<String>)>,
    /// The `allOf`s of objects met so far (see `openapi/all_of.rs`).
    compositions: Vec<Composition>,
}

/// Documentation and annotations read beside a schema.
#[derive(Default)]
struct Meta {
    description: Option<String>,
    enum_values: Vec<String>,
    default: Option<String>,
    keywords: BTreeMap<String, String>,
    deprecated: bool,
    kinds: Vec<GroupVersionKind>,
    renamed_from: Option<String>,
}

impl Converter<'_> {
    fn source(&self, pointer: &str) -> Source {
        Source {
            path: self.path.to_owned(),
            pointer: pointer.to_owned(),
        }
    }

    fn error(&self, pointer: &str, message: impl Into<String>) -> Error {
        Error::Spec {
            path: self.path.to_owned(),
            pointer: pointer.to_owned(),
            message: message.into(),
        }
    }

    fn warn(&mut self, pointer: &str, message: impl Into<String>) {
        self.warnings.push(Warning {
            path: self.path.to_owned(),
            pointer: pointer.to_owned(),
            message: message.into(),
        });
    }

    fn definition(&mut self, name: &str, value: &Value, pointer: &str) -> Result<Definition> {
        check_definition_name(self.path, pointer, name)?;
        let object = self.expect_object(value, pointer, "a definition")?;
        let meta = self.meta(object, pointer)?;
        let mark = self.element_enums.len();
        let schema = self.schema(value, pointer, name, true)?;
        self.warn_unclaimed_element_enums(mark);
        let mut definition = Definition::new(name, schema);
        definition.description = meta.description;
        definition.enum_values = meta.enum_values;
        definition.kinds = meta.kinds;
        definition.keywords = meta.keywords;
        definition.deprecated = meta.deprecated;
        definition.source = self.source(pointer);
        Ok(definition)
    }

    fn expect_object<'v>(
        &self,
        value: &'v Value,
        pointer: &str,
        what: &str,
    ) -> Result<&'v Map<String, Value>> {
        value.as_object().ok_or_else(|| {
            self.error(
                pointer,
                format!(
                    "{what} must be a JSON object (a schema), found {}",
                    kind_of(value)
                ),
            )
        })
    }

    /// Reads the documentation and annotations of a schema object.
    fn meta(&mut self, object: &Map<String, Value>, pointer: &str) -> Result<Meta> {
        let mut meta = Meta::default();
        for (key, value) in object {
            let at = || format!("{pointer}/{}", json_pointer::escape(key));
            match key.as_str() {
                "description" => match value {
                    Value::String(text) => meta.description = Some(text.clone()),
                    other => self.warn(
                        &at(),
                        format!(
                            "description must be a string, found {}; ignored",
                            kind_of(other)
                        ),
                    ),
                },
                "enum" => meta.enum_values = self.enum_values(value, &at())?,
                "default" => meta.default = Some(value.to_string()),
                "deprecated" => meta.deprecated = value.as_bool().unwrap_or(false),
                GROUP_VERSION_KIND => meta.kinds = self.kinds(value, &at()),
                RENAMED_FROM => match value {
                    Value::String(from) => meta.renamed_from = Some(from.clone()),
                    other => {
                        return Err(self.error(
                            &at(),
                            format!(
                            "{RENAMED_FROM} must be the previous wire name as a string, found {}",
                            kind_of(other)
                        ),
                        ))
                    }
                },
                key if KEPT_KEYWORDS.contains(&key) => {
                    meta.keywords.insert(key.to_owned(), value.to_string());
                }
                _ => {}
            }
        }
        if meta.enum_values.is_empty() {
            // `const` (3.1) is an enum of one value.
            if let Some(value) = object.get("const").filter(|value| !value.is_null()) {
                meta.enum_values = self.enum_values(&Value::Array(vec![value.clone()]), pointer)?;
            }
        }
        if union::says_null(object) {
            meta.keywords.insert("nullable".into(), "true".into());
        }
        Ok(meta)
    }

    /// The values of an `enum` keyword as text (`null` left out; a
    /// non-string value as its JSON text).
    fn enum_values(&self, value: &Value, pointer: &str) -> Result<Vec<String>> {
        let Value::Array(values) = value else {
            return Err(self.error(
                pointer,
                format!("enum must be an array, found {}", kind_of(value)),
            ));
        };
        Ok(values
            .iter()
            .filter(|value| !value.is_null())
            .map(|value| match value {
                Value::String(text) => text.clone(),
                other => other.to_string(),
            })
            .collect())
    }

    fn kinds(&mut self, value: &Value, pointer: &str) -> Vec<GroupVersionKind> {
        let parsed: Option<Vec<GroupVersionKind>> = value.as_array().and_then(|items| {
            items
                .iter()
                .map(|item| {
                    let field =
                        |name: &str| item.get(name).and_then(Value::as_str).map(str::to_owned);
                    Some(GroupVersionKind {
                        group: field("group").unwrap_or_default(),
                        version: field("version")?,
                        kind: field("kind")?,
                    })
                })
                .collect()
        });
        parsed.unwrap_or_else(|| {
            self.warn(
                pointer,
                "expected a list of {group, version, kind} objects; ignored",
            );
            Vec::new()
        })
    }

    /// Converts a schema. `name` is the name hoisted inline objects start from;
    /// `top` is true for a definition's own schema (an object there is the
    /// definition itself, not hoisted).
    fn schema(&mut self, value: &Value, pointer: &str, name: &str, top: bool) -> Result<Schema> {
        let object = match value {
            Value::Object(object) => object,
            Value::Bool(true) => return Ok(Schema::Any),
            other => {
                return Err(self.error(
                    pointer,
                    format!("a schema must be a JSON object, found {}", kind_of(other)),
                ))
            }
        };
        if let Some(reference) = object.get("$ref") {
            return self.reference(reference, pointer, name);
        }
        if !is_int_or_string(object) {
            if let Some(union) = self.union(object, pointer, name, top)? {
                return Ok(union);
            }
        }
        for keyword in UNHANDLED_KEYWORDS {
            if object.contains_key(keyword) && !is_int_or_string(object) {
                self.warn(
                    &format!("{pointer}/{keyword}"),
                    format!(
                        "`{keyword}` is not modeled; the schema is treated as accepting any value"
                    ),
                );
                return Ok(Schema::Any);
            }
        }
        if object.contains_key("allOf") {
            return self.all_of(object, pointer, name, top);
        }
        if is_int_or_string(object) {
            return Ok(Schema::IntOrString);
        }
        let format = object
            .get("format")
            .and_then(Value::as_str)
            .map(str::to_owned);
        let ty = self.type_name(object, pointer)?;
        Ok(match ty.as_deref() {
            Some("string") if format.as_deref() == Some("int-or-string") => Schema::IntOrString,
            Some("string") => Schema::String { format },
            Some("integer") => Schema::Integer { format },
            Some("number") => Schema::Number { format },
            Some("boolean") => Schema::Boolean,
            Some("array") => {
                let item = match object.get("items") {
                    Some(items) => self.element(items, pointer, "items", name)?,
                    None => {
                        self.warn(
                            pointer,
                            "an array without `items`; its items may be any value",
                        );
                        Schema::Any
                    }
                };
                Schema::Array(Box::new(item))
            }
            Some("object") | None if object.contains_key("properties") => {
                let shape = self.object(object, pointer, name)?;
                if top {
                    Schema::Object(shape)
                } else {
                    self.hoist(object, shape, pointer, name)?
                }
            }
            Some("object") => match object.get("additionalProperties") {
                Some(Value::Bool(false)) if top => Schema::Object(ObjectSchema::default()),
                Some(additional @ Value::Object(_)) => Schema::Map(Box::new(self.element(
                    additional,
                    pointer,
                    "additionalProperties",
                    name,
                )?)),
                _ if top => Schema::Object(ObjectSchema {
                    additional: Some(Box::new(Schema::Any)),
                    ..ObjectSchema::default()
                }),
                _ => Schema::Map(Box::new(Schema::Any)),
            },
            Some("null") => Schema::Any,
            Some(other) => {
                self.warn(
                    &format!("{pointer}/type"),
                    format!("unknown type {other:?}; treated as any value"),
                );
                Schema::Any
            }
            None if object.contains_key("items") => Schema::Array(Box::new(self.element(
                &object["items"],
                pointer,
                "items",
                name,
            )?)),
            None if object.contains_key("enum") => {
                self.untyped_enum(&object["enum"], pointer, format)
            }
            None if object.contains_key("const") => self.untyped_enum(
                &Value::Array(vec![object["const"].clone()]),
                pointer,
                format,
            ),
            None => Schema::Any,
        })
    }

    /// Converts the element schema of the list or map at `pointer` (under
    /// `keyword`: `items` or `additionalProperties`), and records its
    /// `enum`, if any, for the property to claim. Only scalar elements keep
    /// one (an `enum` beside a `$ref` or on objects is warned about).
    fn element(
        &mut self,
        element: &Value,
        pointer: &str,
        keyword: &str,
        name: &str,
    ) -> Result<Schema> {
        let at = format!("{pointer}/{keyword}");
        let suffix = if keyword == "items" { "Item" } else { "Value" };
        let schema = self.schema(element, &at, &self.child_name(element, name, suffix), false)?;
        if let Some(values) = element.get("enum") {
            let enum_at = format!("{at}/enum");
            let values = self.enum_values(values, &enum_at)?;
            if is_scalar(&schema) {
                self.element_enums.push((at, values));
            } else {
                self.warn(
                    &enum_at,
                    format!(
                        "`enum` on {keyword} of type {} is not modeled; its values are not enforced",
                        schema.type_expr()
                    ),
                );
            }
        }
        Ok(schema)
    }

    /// Takes the element enums recorded since `mark`: the one on the items
    /// or map values of the property at `pointer`, whose schema is
    /// `schema`, is returned; any other (elements of nested lists or maps,
    /// behind `allOf` or a local `$ref`, of a hoisted object) cannot be
    /// represented and is warned about.
    fn claim_element_enum(&mut self, mark: usize, pointer: &str, schema: &Schema) -> Vec<String> {
        let own = match schema {
            Schema::Array(_) => format!("{pointer}/items"),
            Schema::Map(_) => format!("{pointer}/additionalProperties"),
            _ => String::new(),
        };
        let position = self.element_enums[mark..]
            .iter()
            .position(|(at, _)| *at == own);
        let claimed = position.map(|index| self.element_enums.remove(mark + index).1);
        self.warn_unclaimed_element_enums(mark);
        claimed.unwrap_or_default()
    }

    /// Warns about every element enum recorded since `mark` and forgets them.
    fn warn_unclaimed_element_enums(&mut self, mark: usize) {
        let unclaimed: Vec<_> = self.element_enums.drain(mark..).collect();
        for (at, _) in unclaimed {
            self.warn(
                &format!("{at}/enum"),
                "`enum` on these elements is not modeled (only on the items or map values of a property); its values are not enforced",
            );
        }
    }

    /// The `type` keyword as one name. OpenAPI 3.1 lists like
    /// `["string", "null"]` are read as their non-null member.
    fn type_name(&mut self, object: &Map<String, Value>, pointer: &str) -> Result<Option<String>> {
        let at = || format!("{pointer}/type");
        match object.get("type") {
            None => Ok(None),
            Some(Value::String(name)) => Ok(Some(name.clone())),
            Some(Value::Array(names)) => {
                let non_null: Vec<&str> = names
                    .iter()
                    .filter_map(Value::as_str)
                    .filter(|n| *n != "null")
                    .collect();
                match non_null.as_slice() {
                    [single] => Ok(Some((*single).to_owned())),
                    [] => {
                        self.warn(
                            &at(),
                            "a type list of only \"null\" is not modeled; treated as any value",
                        );
                        Ok(Some("null".into()))
                    }
                    _ => {
                        self.warn(
                            &at(),
                            "a list of several types is not modeled; treated as any value",
                        );
                        Ok(Some("null".into()))
                    }
                }
            }
            Some(other) => Err(self.error(
                &at(),
                format!("type must be a string, found {}", kind_of(other)),
            )),
        }
    }

    fn object(
        &mut self,
        object: &Map<String, Value>,
        pointer: &str,
        name: &str,
    ) -> Result<ObjectSchema> {
        let properties_pointer = format!("{pointer}/properties");
        let properties =
            self.expect_object(&object["properties"], &properties_pointer, "`properties`")?;
        let mut shape = ObjectSchema::default();
        for (property_name, value) in properties {
            let at = format!(
                "{properties_pointer}/{}",
                json_pointer::escape(property_name)
            );
            let property_object = self.expect_object(value, &at, "a property")?;
            let meta = self.meta(property_object, &at)?;
            let hoist_name = self.child_name(value, name, &pascal(property_name));
            let mark = self.element_enums.len();
            let schema = self.schema(value, &at, &hoist_name, false)?;
            let element_enum = self.claim_element_enum(mark, &at, &schema);
            let mut property = Property::new(schema);
            property.element_enum_values = element_enum;
            property.element_keywords = element_keywords(property_object, &property.schema);
            (property.list_type, property.list_map_keys) = list_type(property_object);
            property.description = meta.description;
            property.enum_values = meta.enum_values;
            property.default = meta.default;
            property.keywords = meta.keywords;
            property.deprecated = meta.deprecated;
            property.renamed_from = meta.renamed_from;
            property.source = self.source(&at);
            shape.properties.insert(property_name.clone(), property);
        }
        if let Some(required) = object.get("required") {
            let at = format!("{pointer}/required");
            let names = required.as_array().ok_or_else(|| {
                self.error(
                    &at,
                    format!(
                        "required must be an array of names, found {}",
                        kind_of(required)
                    ),
                )
            })?;
            for (index, entry) in names.iter().enumerate() {
                let Some(entry) = entry.as_str() else {
                    return Err(self.error(
                        &format!("{at}/{index}"),
                        "required lists property names as strings",
                    ));
                };
                if !shape.properties.contains_key(entry) {
                    self.warn(
                        &format!("{at}/{index}"),
                        format!("{entry:?} is required but not among the properties; ignored"),
                    );
                    continue;
                }
                shape.required.insert(entry.to_owned());
            }
        }
        match object.get("additionalProperties") {
            // An `enum` here is recorded and, as no property claims it,
            // warned about: the model has no place for it.
            Some(additional @ Value::Object(_)) => {
                shape.additional = Some(Box::new(self.element(
                    additional,
                    pointer,
                    "additionalProperties",
                    name,
                )?));
            }
            Some(Value::Bool(true)) => shape.additional = Some(Box::new(Schema::Any)),
            Some(Value::Bool(false)) => shape.closed = true,
            _ => {}
        }
        Ok(shape)
    }

    /// The name an inline object inside `value` would be hoisted under:
    /// `name` + `suffix`, built only when converting `value` can hoist.
    fn child_name(&self, value: &Value, name: &str, suffix: &str) -> String {
        if self.may_hoist(value) {
            format!("{name}{suffix}")
        } else {
            String::new()
        }
    }

    /// False when converting `value` (not a definition's own schema) cannot
    /// hoist anything: no inline object with properties is reachable from
    /// it. Then the names hoisting would use need not be built. Errs on the
    /// side of true.
    fn may_hoist(&self, value: &Value) -> bool {
        let Value::Object(object) = value else {
            return false;
        };
        if object.contains_key("properties") || union::may_be_union(object) {
            return true;
        }
        if let Some(reference) = object.get("$ref") {
            // A reference to a definition hoists nothing; another local
            // pointer is converted in place and may.
            let to_definition = reference
                .as_str()
                .and_then(|target| target.strip_prefix('#'))
                .and_then(|local| self.definition_segment(local))
                .is_some();
            return !to_definition;
        }
        // An `allOf` of objects is hoisted whole (`openapi/all_of.rs`).
        ["items", "additionalProperties"]
            .iter()
            .any(|key| object.get(*key).is_some_and(|inner| self.may_hoist(inner)))
            || object.contains_key("allOf")
    }

    /// Moves an inline object into a definition of its own and refers to it.
    fn hoist(
        &mut self,
        object: &Map<String, Value>,
        shape: ObjectSchema,
        pointer: &str,
        name: &str,
    ) -> Result<Schema> {
        let mut hoisted_name = name.to_owned();
        let mut counter = 2;
        while self.taken.contains(&hoisted_name) {
            hoisted_name = format!("{name}{counter}");
            counter += 1;
        }
        self.taken.insert(hoisted_name.clone());
        let meta = self.meta(object, pointer)?;
        let mut definition = Definition::new(hoisted_name.clone(), Schema::Object(shape));
        definition.description = meta.description;
        definition.keywords = meta.keywords;
        definition.deprecated = meta.deprecated;
        definition.source = self.source(pointer);
        self.hoisted.push(definition);
        Ok(Schema::Ref(hoisted_name))
    }

    /// The (escaped) name segment when the local pointer `local` points
    /// straight at a definition (`/definitions/X`), not into one.
    fn definition_segment<'p>(&self, local: &'p str) -> Option<&'p str> {
        local
            .strip_prefix(self.definitions_pointer)
            .and_then(|rest| rest.strip_prefix('/'))
            .filter(|segment| !segment.contains('/'))
    }

    /// A `$ref` found in the schema at `schema_pointer`.
    fn reference(&mut self, reference: &Value, schema_pointer: &str, name: &str) -> Result<Schema> {
        let pointer = || format!("{schema_pointer}/$ref");
        let Some(target) = reference.as_str() else {
            return Err(self.error(
                &pointer(),
                format!("$ref must be a string, found {}", kind_of(reference)),
            ));
        };
        let Some(local) = target.strip_prefix('#') else {
            return Err(self.error(
                &pointer(),
                format!(
                    "$ref {target:?} points outside this document; vergate never fetches remote or external \
                     references: copy the schema into the spec's {} and refer to it with \"#{}/NAME\"",
                    self.definitions_pointer, self.definitions_pointer
                ),
            ));
        };
        if let Some(segment) = self.definition_segment(local) {
            let target_name = json_pointer::unescape(segment).into_owned();
            if !self.all_names.contains(&target_name) {
                return Err(self.error(
                    &pointer(),
                    format!("$ref {target:?} points to no definition: there is no {target_name:?} in {}", self.definitions_pointer),
                ));
            }
            return Ok(Schema::Ref(target_name));
        }
        // Any other local pointer: resolve it and convert the schema found there.
        if self.resolving.iter().any(|seen| seen == local) {
            return Err(self.error(
                &pointer(),
                format!("$ref {target:?} is part of a cycle of references"),
            ));
        }
        let Some(resolved) = self.root.pointer(local) else {
            return Err(self.error(
                &pointer(),
                format!("$ref {target:?} points to nothing in this document"),
            ));
        };
        if resolved.get("enum").is_some() {
            self.warn(
                &pointer(),
                format!("the `enum` of {target:?} (a schema that is no definition) is not modeled here; its values are not enforced"),
            );
        }
        self.resolving.push(local.to_owned());
        let schema = self.schema(resolved, local, name, false);
        self.resolving.pop();
        schema
    }
}

/// The value-constraint keywords of the elements of a list or map
/// property (`property`, of `schema`): its `items` or
/// `additionalProperties`, unless that refers to a definition (whose own
/// constraints apply to it) or holds an object. Kept as JSON text, as the
/// property's own keywords.
fn element_keywords(property: &Map<String, Value>, schema: &Schema) -> BTreeMap<String, String> {
    let element = match schema {
        Schema::Array(item) if !matches!(**item, Schema::Ref(_)) => property.get("items"),
        Schema::Map(value) if !matches!(**value, Schema::Ref(_)) => {
            property.get("additionalProperties")
        }
        _ => None,
    };
    let Some(Value::Object(element)) = element else {
        return BTreeMap::new();
    };
    CONSTRAINT_KEYWORDS
        .iter()
        .filter_map(|key| Some(((*key).to_owned(), element.get(*key)?.to_string())))
        .collect()
}

/// The keywords of [`KEPT_KEYWORDS`] that constrain a value.
const CONSTRAINT_KEYWORDS: [&str; 13] = [
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "pattern",
    "minItems",
    "maxItems",
    "uniqueItems",
    "minProperties",
    "maxProperties",
];

/// A list property's `x-kubernetes-list-type` (`set` or `map`) and, for
/// `map`, its `x-kubernetes-list-map-keys` (the names that are strings).
fn list_type(property: &Map<String, Value>) -> (Option<ListType>, Vec<String>) {
    let list_type = property
        .get("x-kubernetes-list-type")
        .and_then(Value::as_str)
        .and_then(ListType::parse);
    let keys = match (list_type, property.get("x-kubernetes-list-map-keys")) {
        (Some(ListType::Map), Some(Value::Array(keys))) => keys
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_owned)
            .collect(),
        _ => Vec::new(),
    };
    (list_type, keys)
}

/// True for the schemas an enum of JSON scalars can constrain.
fn is_scalar(schema: &Schema) -> bool {
    matches!(
        schema,
        Schema::String { .. }
            | Schema::Integer { .. }
            | Schema::Number { .. }
            | Schema::Boolean
            | Schema::IntOrString
    )
}

fn is_int_or_string(object: &Map<String, Value>) -> bool {
    object.get("x-kubernetes-int-or-string") == Some(&Value::Bool(true))
}

fn pascal(name: &str) -> String {
    let converted = name.to_upper_camel_case();
    if converted.is_empty() {
        "Field".to_owned()
    } else {
        converted
    }
}

/// Names a JSON value's kind for error messages.
pub fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}
