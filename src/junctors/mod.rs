//! The logical junctors of CRD schemas (`allOf`, `anyOf`, `oneOf`, `not`),
//! evaluated over custom resources as the API server evaluates them.
//!
//! In a structural schema the junctors hold value validations only (no
//! types), so the CRD reader moves them out of the type model, under
//! `x-vergate-value-validations` (see `vergate_codegen`'s `load/crd.rs`),
//! and they are read here from the CRD version's schema: [`Junctors::read`]
//! keeps the places of the schema that hold some (a document is only
//! walked where they are), [`Junctors::check`] walks a custom resource to
//! them and validates the value there (`validate.rs`), after applying the
//! schema's defaults, as the API server does before it validates.
//!
//! Linear in the schema: it is read once, each place keeps only its own
//! junctors, and a document's value is validated against them where it
//! lies. Bounded: schemas nested at most [`MAX_DEPTH`] deep are read,
//! junctors nested at most as deep are followed, and one document's
//! junctors visit at most `validate::MAX_VISITS` schemas; the first bound
//! reached is a warning (rule `junctor`) naming it, the CRD (its file,
//! name and version) and the schema path where it was reached.

mod defaults;
mod validate;

use crate::document::{Node, Value};
use crate::preflight::{Deviation, Rule, Violation};
use crate::Version;
use serde_json::Value as Json;
use vergate_codegen::load::{STATUS_SUBRESOURCE, VALUE_VALIDATIONS};

/// The deepest nesting of schemas read.
const MAX_DEPTH: usize = 64;

/// The most bytes of defaults (as JSON text) laid on the values of one
/// document: each place with junctors copies its schema's defaults onto
/// a copy of its value, so a CRD with large defaults and a document with
/// many items could otherwise take memory without bound.
const MAX_DEFAULT_BYTES: usize = 64 << 20;

/// The places of one CRD version's schema that hold junctors.
#[derive(Debug)]
pub struct Junctors {
    root: Place,
    /// The CRD version, for messages (`crd.yaml: CRD widgets.example.com
    /// version v1`).
    crd: String,
    /// The schema path below which junctors were not read: the schema
    /// nests deeper than [`MAX_DEPTH`] there.
    unread: Option<String>,
}

/// What a place with junctors keeps of its schema.
#[derive(Debug)]
struct Here {
    junctors: Json,
    defaults: Option<Json>,
    /// Its path in the CRD (`openAPIV3Schema.properties.spec`), for messages.
    schema: String,
}

/// One place of the schema, kept because junctors are at or below it.
#[derive(Debug, Default)]
struct Place {
    /// The junctors here (`{x-vergate-value-validations: …}`), when it
    /// holds some itself, and the part of its schema that has defaults.
    here: Option<Here>,
    properties: Vec<(String, Place)>,
    items: Option<Box<Place>>,
    additional: Option<Box<Place>>,
}

/// The reading of one schema: the path to the schema read, and where the
/// depth ran out.
struct Reading<'s> {
    trail: Vec<&'s str>,
    unread: Option<String>,
}

impl<'s> Reading<'s> {
    /// The path of the schema read: `openAPIV3Schema.properties.spec`.
    fn path(&self) -> String {
        let mut path = String::from("openAPIV3Schema");
        for step in &self.trail {
            path.push('.');
            path.push_str(step);
        }
        path
    }

    /// The place of `schema`, when junctors are at or below it. Each
    /// schema is read once, and a place keeps only its own junctors (and
    /// the defaults below it): linear in the schema.
    fn place(&mut self, schema: &'s Json, depth: usize) -> Option<Place> {
        let object = schema.as_object()?;
        if depth > MAX_DEPTH {
            if self.unread.is_none() && holds_junctors(schema) {
                self.unread = Some(self.path());
            }
            return None;
        }
        let mut place = Place {
            here: object.get(VALUE_VALIDATIONS).map(|junctors| Here {
                junctors: serde_json::json!({ VALUE_VALIDATIONS: junctors }),
                defaults: defaults::skeleton(schema),
                schema: self.path(),
            }),
            ..Place::default()
        };
        let status_reset = depth == 0 && object.get(STATUS_SUBRESOURCE) == Some(&Json::Bool(true));
        if let Some(properties) = object.get("properties").and_then(Json::as_object) {
            for (name, property) in properties {
                // `status` is reset on create when the CRD serves the
                // status subresource; `metadata` is ObjectMeta's.
                if depth == 0 && (name == "metadata" || (status_reset && name == "status")) {
                    continue;
                }
                self.trail.extend(["properties", name.as_str()]);
                let inner = self.place(property, depth + 1);
                self.trail.truncate(self.trail.len() - 2);
                if let Some(inner) = inner {
                    place.properties.push((name.clone(), inner));
                }
            }
        }
        place.items = object
            .get("items")
            .and_then(|items| self.inside("items", items, depth))
            .map(Box::new);
        place.additional = object
            .get("additionalProperties")
            .and_then(|additional| self.inside("additionalProperties", additional, depth))
            .map(Box::new);
        let empty = place.here.is_none()
            && place.properties.is_empty()
            && place.items.is_none()
            && place.additional.is_none();
        (!empty).then_some(place)
    }

    /// [`Reading::place`] of the schema under `key`.
    fn inside(&mut self, key: &'s str, schema: &'s Json, depth: usize) -> Option<Place> {
        self.trail.push(key);
        let place = self.place(schema, depth + 1);
        self.trail.pop();
        place
    }
}

/// True when junctors are anywhere in `schema`: looked for with a stack,
/// not by recursion, as a schema past [`MAX_DEPTH`] may nest as deep as
/// its reader allowed.
fn holds_junctors(schema: &Json) -> bool {
    let mut stack = vec![schema];
    while let Some(value) = stack.pop() {
        match value {
            Json::Object(entries) => {
                if entries.contains_key(VALUE_VALIDATIONS) {
                    return true;
                }
                stack.extend(entries.values());
            }
            Json::Array(items) => stack.extend(items),
            _ => {}
        }
    }
    false
}

impl Junctors {
    /// The junctors of a CRD version's schema (as the CRD reader rewrote
    /// it); `None` when it has none. `crd` names the CRD version in
    /// messages (its file, name and version).
    pub fn read(schema: &Json, crd: &str) -> Option<Junctors> {
        let mut reading = Reading {
            trail: Vec::new(),
            unread: None,
        };
        let root = reading.place(schema, 0);
        if root.is_none() && reading.unread.is_none() {
            return None;
        }
        Some(Junctors {
            root: root.unwrap_or_default(),
            crd: crd.to_owned(),
            unread: reading.unread,
        })
    }

    /// The API server's errors for the junctors `root`, a custom resource,
    /// fails; `minor` is the Kubernetes minor whose formats apply (`None`
    /// for another API: the formats of every minor). A bound reached is a
    /// warning that names it, the CRD and the schema where it was reached.
    pub fn check(&self, root: &Node, minor: Option<Version>) -> Vec<Violation> {
        let mut walk = Walk {
            validator: validate::Validator::new(minor),
            violations: Vec::new(),
            default_bytes_left: MAX_DEFAULT_BYTES,
            cut_place: None,
        };
        if let Some(schema) = &self.unread {
            let message = format!(
                "the CRD's allOf / anyOf / oneOf / not were not all checked: the schema nests deeper than {MAX_DEPTH} levels at {schema} ({}); nest it less deeply",
                self.crd
            );
            let violation = Violation::new(Rule::Junctor, "", root.line, message);
            walk.violations
                .push(violation.deviating(Deviation::NotChecked));
        }
        walk.place(&self.root, root, String::new());
        if let (Some(cut), Some(place)) = (&walk.validator.cut, walk.cut_place) {
            let (why, fix) = match cut.bound {
                validate::Bound::Visits => (
                    format!(
                        "this document would visit more than {} of their schemas",
                        crate::findings::grouped(validate::MAX_VISITS)
                    ),
                    "; use fewer branches, or fewer items under them",
                ),
                validate::Bound::Depth => (
                    format!("they nest deeper than {MAX_DEPTH} levels"),
                    "; nest them less deeply",
                ),
                validate::Bound::Defaults => (
                    format!(
                        "they would lay more than {} MiB of defaults on this document",
                        MAX_DEFAULT_BYTES >> 20
                    ),
                    "",
                ),
            };
            let line = line_of(root, "", &cut.path).unwrap_or(root.line);
            let message = format!(
                "the CRD's allOf / anyOf / oneOf / not were not all checked: {why} at {place}{} ({}){fix}",
                cut.schema, self.crd
            );
            let violation = Violation::new(Rule::Junctor, cut.path.clone(), line, message);
            walk.violations
                .push(violation.deviating(Deviation::NotChecked));
        }
        walk.violations
    }
}

/// A walk of one document to the places that hold junctors.
struct Walk<'j> {
    validator: validate::Validator<'j>,
    violations: Vec<Violation>,
    /// Bytes of defaults still to be laid ([`MAX_DEFAULT_BYTES`]).
    default_bytes_left: usize,
    /// The schema path of the place being validated when a bound was
    /// first reached.
    cut_place: Option<&'j str>,
}

impl<'j> Walk<'j> {
    fn place(&mut self, place: &'j Place, node: &Node, path: String) {
        if matches!(node.value, Value::Null) {
            return;
        }
        if let Some(here) = &place.here {
            self.junctors(here, node, &path);
        }
        let child = |key: &str| {
            if path.is_empty() {
                key.to_owned()
            } else {
                format!("{path}.{key}")
            }
        };
        match &node.value {
            Value::Map(entries) => {
                for entry in entries {
                    let named = place
                        .properties
                        .iter()
                        .find(|(name, _)| *name == entry.key)
                        .map(|(_, inner)| inner);
                    let inner = match named {
                        Some(inner) => Some(inner),
                        None if place.properties.iter().all(|(name, _)| *name != entry.key) => {
                            place.additional.as_deref()
                        }
                        None => None,
                    };
                    if let Some(inner) = inner {
                        self.place(inner, &entry.value, child(&entry.key));
                    }
                }
            }
            Value::Seq(items) => {
                if let Some(inner) = &place.items {
                    for (index, item) in items.iter().enumerate() {
                        self.place(inner, item, format!("{path}[{index}]"));
                    }
                }
            }
            _ => {}
        }
    }

    /// Validates the value of `node` (its defaults applied) against the
    /// junctors `here`, reporting each error at the line of the value it
    /// names (or of `node`).
    fn junctors(&mut self, here: &'j Here, node: &Node, path: &str) {
        // Once a bound is reached, a branch cut short looks valid: no
        // verdict is given past that point.
        if self.validator.cut.is_some() {
            return;
        }
        let mut value = node.to_json();
        if let Some(defaults) = &here.defaults {
            if !defaults::apply(defaults, &mut value, &mut self.default_bytes_left) {
                self.validator.cut_at(validate::Bound::Defaults, path);
                self.cut_place = Some(here.schema.as_str());
                return;
            }
        }
        let outcome = self.validator.validate(&here.junctors, &value, path, 0);
        if self.validator.cut.is_some() {
            self.cut_place = Some(here.schema.as_str());
            return;
        }
        for finding in outcome.errors {
            let line = line_of(node, path, &finding.path).unwrap_or(node.line);
            self.violations.push(Violation::new(
                Rule::Junctor,
                finding.path,
                line,
                finding.message,
            ));
        }
    }
}

/// The line of the value at path `at` below `node` (at path `base`), when
/// the document has it (a defaulted value has none).
fn line_of(node: &Node, base: &str, at: &str) -> Option<u32> {
    let mut rest = at.strip_prefix(base)?;
    let mut here = node;
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix('[') {
            let (index, tail) = after.split_once(']')?;
            let Value::Seq(items) = &here.value else {
                return None;
            };
            here = items.get(index.parse::<usize>().ok()?)?;
            rest = tail;
        } else {
            let after = rest.strip_prefix('.').unwrap_or(rest);
            let end = after.find(['.', '[']).unwrap_or(after.len());
            here = here.get(&after[..end])?;
            rest = &after[end..];
        }
    }
    Some(here.line)
}

#[cfg(test)]
mod tests;
