//! The one typed tree of a served CRD version's structural schema
//! ([`SchemaNode`]), read once, with one depth bound ([`MAX_DEPTH`]), and
//! what each concern reads hung on its nodes as annotations, read in the
//! same pass: the node's type (`self`'s CEL type, [`Shape`]), its
//! `x-kubernetes-validations` rules (compiled), its junctors (`allOf`,
//! `anyOf`, `oneOf`, `not`, as the CRD reader moved them), its `default`
//! and `nullable`, and whether any rule, junctor or default lies below (so a walk skips
//! the rest).
//!
//! Its readers: [`defaults`] defaults a custom resource as the API server
//! does before it validates, without copying it whole: the rules lay the
//! defaults they reach as they convert the resource to CEL values
//! (`cel::value`), the junctors those of each value they read
//! (`defaults::apply_at`); the bytes laid are counted first, and past the
//! bound the resource is defaulted ahead up to it and neither judges it.
//! `cel::evaluate` runs the rules, `junctors` validates the value where
//! junctors are, `engine::crds::nulls` drops and defaults `null`s by the
//! nodes' `nullable` and `default`, and `engine::crds` reads the
//! version's `status` subresource here ([`ServedSchema::status_reset`]).
//! `cel::gates` builds the same tree from an API's own gates (without
//! defaults).
//!
//! The CRD's own checks (what the server refuses on create, in every
//! version, served or not) read the schemas as written, before the CRD
//! reader rewrites them: [`written`] is their one walk, with the same
//! depth bound.

mod bound;
pub mod defaults;
pub mod line;
pub mod sizes;
pub mod written;

pub use bound::MAX_DEPTH;
pub use sizes::Sizes;

use super::passed::Passed;
use super::rule::CompiledRule;
use serde_json::Value as Json;
use std::collections::BTreeMap;
use std::sync::Arc;
use vergate_codegen::load::{STATUS_SUBRESOURCE, VALUE_VALIDATIONS};
use written::Written;

/// The type of a schema node, as the API server's CEL types read it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    Object,
    Array,
    String,
    /// `format: date-time`: a CEL timestamp.
    Timestamp,
    /// `format: duration`: a CEL duration.
    Duration,
    Integer,
    Number,
    Boolean,
    /// `x-kubernetes-int-or-string`, `x-kubernetes-preserve-unknown-fields`
    /// without a type, or a reference: the value as written.
    Any,
}

impl Shape {
    /// The name the API server's messages give values of this type
    /// (`Invalid value: "object"`).
    pub fn name(self) -> &'static str {
        match self {
            Shape::Object => "object",
            Shape::Array => "array",
            Shape::String | Shape::Timestamp | Shape::Duration => "string",
            Shape::Integer => "integer",
            Shape::Number => "number",
            Shape::Boolean => "boolean",
            Shape::Any => "object",
        }
    }
}

/// The junctors of one schema node (`{x-vergate-value-validations: …}`)
/// and the node's schema path, for messages.
#[derive(Debug)]
pub struct Junctors {
    pub validations: Json,
    /// `openAPIV3Schema.properties.spec`.
    pub schema: String,
}

/// One node of a served version's schema, with its annotations.
pub struct SchemaNode {
    pub shape: Shape,
    pub rules: Vec<Arc<CompiledRule>>,
    /// Each rule's index in the node's `x-kubernetes-validations` (an
    /// entry without a `rule` has none), for the API server's field paths.
    pub rule_indexes: Vec<usize>,
    /// The size facts the static cost estimate reads (`cel::cost`).
    pub sizes: Sizes,
    pub junctors: Option<Junctors>,
    pub properties: BTreeMap<String, SchemaNode>,
    /// Items of an array.
    pub items: Option<Box<SchemaNode>>,
    /// Values of a map (`additionalProperties` with a schema).
    pub values: Option<Box<SchemaNode>>,
    pub default: Option<Json>,
    /// `nullable: true`: a `null` here is a value, which the API server
    /// neither drops nor defaults (`engine::crds::nulls`).
    pub nullable: bool,
    /// The size of `default` as JSON text, what laying it costs
    /// ([`defaults::MAX_DEFAULT_BYTES`]).
    pub default_bytes: usize,
    /// What laying `default` costs in all: its bytes and those of the
    /// defaults laid inside it in turn.
    pub laid_bytes: usize,
    /// True when this node or one below it has rules.
    pub rules_below: bool,
    /// True when this node or one below it has junctors.
    pub junctors_below: bool,
    /// True when a property of this node or below has a default.
    pub defaults_below: bool,
    /// True for a tree read from gates, which keep no defaults: a rule
    /// that reads an absent field is then not judged (the API server would
    /// have defaulted it, or not).
    pub defaults_unknown: bool,
    /// The values this node's rules have passed on.
    pub passed: Passed,
}

/// A served CRD version's schema: its tree, the CRD version it belongs
/// to (named in messages) and where junctors were left unread.
pub struct ServedSchema {
    pub tree: SchemaNode,
    /// `the CRD widgets.example.com in crd.yaml, version v1`.
    pub crd: String,
    /// The schema path below which junctors were not read: the schema
    /// nests deeper than [`MAX_DEPTH`] there.
    pub junctors_cut: Option<String>,
    /// The version has the `status` subresource: the API server resets a
    /// resource's `status` on create (the tree leaves it out).
    pub status_reset: bool,
}

impl ServedSchema {
    /// Reads every schema of `schemas` (each with the words naming its
    /// CRD version), each distinct rule among them compiled once and the
    /// compilations spread over the threads (parsing is most of reading;
    /// one CRD version may hold most of the rules).
    pub fn read_all<K: Send>(schemas: Vec<(K, &Json, String)>) -> Vec<(K, ServedSchema)> {
        use rayon::prelude::*;
        precompile(schemas.iter().map(|(_, schema, _)| *schema));
        schemas
            .into_par_iter()
            .map(|(key, schema, crd)| (key, ServedSchema::read(schema, crd)))
            .collect()
    }

    /// Reads `schema`, a served version's `openAPIV3Schema` as the CRD
    /// reader rewrote it.
    pub fn read(schema: &Json, crd: String) -> ServedSchema {
        let mut reading = Reading {
            trail: Vec::new(),
            junctors_cut: None,
            served: true,
        };
        let tree = reading.node(schema, 0, true);
        ServedSchema {
            tree,
            crd,
            junctors_cut: reading.junctors_cut,
            status_reset: schema.get(STATUS_SUBRESOURCE) == Some(&Json::Bool(true)),
        }
    }

    /// True when anything reads this schema: rules, or junctors (read or
    /// cut).
    pub fn is_checked(&self) -> bool {
        self.tree.rules_below || self.tree.junctors_below || self.junctors_cut.is_some()
    }
}

impl SchemaNode {
    /// Reads `schema`, a version's `openAPIV3Schema` as written (served or
    /// not, before the CRD reader rewrites it), into the same tree with
    /// the same pass and bound as [`ServedSchema::read`], `status`
    /// included: what the static cost estimate reads (`cel::cost`), as
    /// the API server estimates every version on create. Its rules are
    /// never run, so their passes are not kept ([`SchemaNode::passed`]).
    pub fn read_written<W: Written>(schema: &W) -> SchemaNode {
        let mut reading = Reading {
            trail: Vec::new(),
            junctors_cut: None,
            served: false,
        };
        reading.node(schema, 0, true)
    }

    /// A node of `shape` with nothing on it and nothing below.
    pub fn leaf(shape: Shape) -> SchemaNode {
        SchemaNode {
            shape,
            rules: Vec::new(),
            rule_indexes: Vec::new(),
            sizes: Sizes::default(),
            junctors: None,
            properties: BTreeMap::new(),
            items: None,
            values: None,
            default: None,
            nullable: false,
            default_bytes: 0,
            laid_bytes: 0,
            rules_below: false,
            junctors_below: false,
            defaults_below: false,
            defaults_unknown: false,
            passed: Passed::default(),
        }
    }

    /// Sets what follows from the node's own annotations and its children:
    /// the passes of its rules and the `*_below` flags.
    pub fn finish(self) -> SchemaNode {
        self.finish_with(true)
    }

    /// [`SchemaNode::finish`]; without the passes (`passes` false) for a
    /// tree whose rules are estimated, never run ([`SchemaNode::read_written`]).
    fn finish_with(mut self, passes: bool) -> SchemaNode {
        let children = || {
            self.properties
                .values()
                .chain(self.items.as_deref())
                .chain(self.values.as_deref())
        };
        let rules_below = !self.rules.is_empty() || children().any(|node| node.rules_below);
        let junctors_below = self.junctors.is_some() || children().any(|node| node.junctors_below);
        let defaults_below = children().any(|node| node.default.is_some() || node.defaults_below);
        self.rules_below = rules_below;
        self.junctors_below = junctors_below;
        self.defaults_below = defaults_below;
        if passes {
            self.passed = Passed::for_rules(&self.rules);
        }
        if let Some(default) = &self.default {
            let laid = defaults::node_of_json(default, 0);
            let inside = defaults::bytes_to_lay(&self, &laid, false);
            self.laid_bytes = self.default_bytes.saturating_add(inside);
        }
        self
    }
}

/// One pass over a schema: the path to the node read (for junctors'
/// messages) and where the depth first cut junctors off.
struct Reading<'s> {
    trail: Vec<&'s str>,
    junctors_cut: Option<String>,
    /// A served version as the CRD reader rewrote it (its `status`
    /// subresource marked), not a schema as written.
    served: bool,
}

impl<'s> Reading<'s> {
    /// The path of the node read: `openAPIV3Schema.properties.spec`.
    fn path(&self) -> String {
        let mut path = String::from("openAPIV3Schema");
        for step in &self.trail {
            path.push('.');
            path.push_str(step);
        }
        path
    }

    /// Reads the node `schema` at `depth`; `junctors_counted` is false
    /// under the root's `metadata` (ObjectMeta's, never validated by the
    /// CRD's junctors).
    fn node<W: Written>(
        &mut self,
        schema: &'s W,
        depth: usize,
        junctors_counted: bool,
    ) -> SchemaNode {
        let flag = |key: &str| schema.get(key).is_some_and(W::is_true);
        let shape = match schema.get("type").and_then(W::text) {
            _ if flag("x-kubernetes-int-or-string") => Shape::Any,
            Some("object") => Shape::Object,
            Some("array") => Shape::Array,
            Some("string") => match schema.get("format").and_then(W::text) {
                Some("date-time") => Shape::Timestamp,
                Some("duration") => Shape::Duration,
                _ => Shape::String,
            },
            Some("integer") => Shape::Integer,
            Some("number") => Shape::Number,
            Some("boolean") => Shape::Boolean,
            _ => Shape::Any,
        };
        let mut node = SchemaNode::leaf(shape);
        node.nullable = flag("nullable");
        node.sizes = Sizes::read(schema);
        if let Some(entries) = schema.get("x-kubernetes-validations") {
            for (index, entry) in entries.items().iter().enumerate() {
                if let Some(rule) = CompiledRule::compile_shared(&entry.json()) {
                    node.rules.push(rule);
                    node.rule_indexes.push(index);
                }
            }
        }
        if let Some(junctors) = schema.get(VALUE_VALIDATIONS).filter(|_| junctors_counted) {
            node.junctors = Some(Junctors {
                validations: serde_json::json!({ VALUE_VALIDATIONS: &*junctors.json() }),
                schema: self.path(),
            });
        }
        if let Some(default) = schema.get("default") {
            let default = default.json().into_owned();
            node.default_bytes = default.to_string().len();
            node.default = Some(default);
        }
        // The API server resets `status` on create (the status
        // subresource): its rules run on status updates only.
        let status_reset = self.served && depth == 0 && flag(STATUS_SUBRESOURCE);
        if let Some(properties) = schema.get("properties").filter(|p| p.is_map()) {
            let required = sizes::required(schema);
            for (name, member) in properties.members() {
                if !member.is_map() || (status_reset && name == "status") {
                    continue;
                }
                let counted = junctors_counted && !(depth == 0 && name == "metadata");
                self.trail.extend(["properties", name]);
                if let Some(mut child) = self.child(member, depth, counted) {
                    child.sizes.required = required.contains(&name);
                    node.properties.insert(name.to_owned(), child);
                }
                self.trail.truncate(self.trail.len() - 2);
            }
        }
        for key in ["items", "additionalProperties"] {
            let Some(inner) = schema.get(key).filter(|inner| inner.is_map()) else {
                continue;
            };
            self.trail.push(key);
            let child = self.child(inner, depth, junctors_counted).map(Box::new);
            self.trail.pop();
            match key {
                "items" => node.items = child,
                _ => node.values = child,
            }
        }
        node.finish_with(self.served)
    }

    /// The node `schema` one level below `depth`; `None` past
    /// [`MAX_DEPTH`] (the first junctors cut off so are remembered).
    fn child<W: Written>(
        &mut self,
        schema: &'s W,
        depth: usize,
        counted: bool,
    ) -> Option<SchemaNode> {
        if depth < MAX_DEPTH {
            return Some(self.node(schema, depth + 1, counted));
        }
        if counted && self.junctors_cut.is_none() && holds_junctors(schema) {
            self.junctors_cut = Some(self.path());
        }
        None
    }
}

/// True when junctors are anywhere in `schema`: looked for with a stack,
/// not by recursion, as a schema past [`MAX_DEPTH`] may nest as deep as
/// its reader allowed.
fn holds_junctors<W: Written>(schema: &W) -> bool {
    let mut stack = vec![schema];
    while let Some(value) = stack.pop() {
        if value.is_map() {
            if value.get(VALUE_VALIDATIONS).is_some() {
                return true;
            }
            stack.extend(value.members().map(|(_, member)| member));
        } else {
            stack.extend(value.items());
        }
    }
    false
}

/// Appends the rule entries of `schema` and the schemas below it, as far as
/// [`ServedSchema::read`] goes.
fn rule_entries<'j>(schema: &'j Json, depth: usize, out: &mut Vec<&'j Json>) {
    if let Some(Json::Array(entries)) = schema.get("x-kubernetes-validations") {
        out.extend(entries);
    }
    if depth >= MAX_DEPTH {
        return;
    }
    if let Some(Json::Object(members)) = schema.get("properties") {
        for member in members.values() {
            rule_entries(member, depth + 1, out);
        }
    }
    for key in ["items", "additionalProperties"] {
        if let Some(child) = schema.get(key).filter(|child| child.is_object()) {
            rule_entries(child, depth + 1, out);
        }
    }
}

/// Compiles each distinct rule of `schemas` (and the schemas below them)
/// once, spread over the threads, for whatever reads them next.
pub fn precompile<'j>(schemas: impl IntoIterator<Item = &'j Json>) {
    use rayon::prelude::*;
    let mut entries = Vec::new();
    for schema in schemas {
        rule_entries(schema, 0, &mut entries);
    }
    let mut seen = std::collections::HashSet::new();
    entries.retain(|entry| seen.insert(entry.to_string()));
    entries.into_par_iter().for_each(|entry| {
        let _ = CompiledRule::compile_shared(entry);
    });
}
