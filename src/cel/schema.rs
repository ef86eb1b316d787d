//! A CRD version's structural schema, as far as its CEL rules need it: the
//! rules at each node, the node's type (to give `self` the CEL type the API
//! server gives it), the defaults the API server applies before it
//! validates, and whether any rule lies below (so a walk skips the rest).

use super::passed::Passed;
use super::rule::Rule;
use serde_json::Value as Json;
use std::collections::BTreeMap;
use std::sync::Arc;

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

/// One schema node.
pub struct Node {
    pub shape: Shape,
    pub rules: Vec<Arc<Rule>>,
    pub properties: BTreeMap<String, Node>,
    /// Items of an array.
    pub items: Option<Box<Node>>,
    /// Values of a map (`additionalProperties` with a schema).
    pub values: Option<Box<Node>>,
    pub default: Option<Json>,
    /// True when this node or one below it has rules.
    pub rules_below: bool,
    /// True for a tree read from gates, which keep no defaults: a rule
    /// that reads an absent field is then not judged (the API server would
    /// have defaulted it, or not).
    pub defaults_unknown: bool,
    /// The values this node's rules have passed on.
    pub passed: Passed,
}

/// Appends the rule entries of `schema` and the schemas below it, as far as
/// [`Node::read`] goes.
fn rule_entries<'j>(schema: &'j Json, depth: usize, out: &mut Vec<&'j Json>) {
    if depth > MAX_DEPTH {
        return;
    }
    if let Some(Json::Array(entries)) = schema.get("x-kubernetes-validations") {
        out.extend(entries);
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

/// The most schema levels read: a CRD deeper than this has its deeper
/// rules left out (the YAML reader bounds CRDs well below it anyway).
const MAX_DEPTH: usize = 128;

impl Node {
    /// Reads `schema` (an `openAPIV3Schema` or one inside it).
    pub fn read(schema: &Json) -> Node {
        Node::read_at(schema, 0)
    }

    /// Reads every schema of `schemas`, each distinct rule among them
    /// compiled once and the compilations spread over the threads (parsing
    /// is most of reading; one CRD version may hold most of the rules).
    pub fn read_all<K: Send>(schemas: Vec<(K, &Json)>) -> Vec<(K, Node)> {
        use rayon::prelude::*;
        precompile(schemas.iter().map(|(_, schema)| *schema));
        schemas
            .into_par_iter()
            .map(|(key, schema)| (key, Node::read(schema)))
            .collect()
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
        let _ = Rule::compile_shared(entry);
    });
}

impl Node {
    fn read_at(schema: &Json, depth: usize) -> Node {
        let child = |schema: &Json| -> Option<Box<Node>> {
            (schema.is_object() && depth < MAX_DEPTH)
                .then(|| Box::new(Node::read_at(schema, depth + 1)))
        };
        let flag = |key: &str| schema.get(key) == Some(&Json::Bool(true));
        let shape = match schema.get("type").and_then(Json::as_str) {
            _ if flag("x-kubernetes-int-or-string") => Shape::Any,
            Some("object") => Shape::Object,
            Some("array") => Shape::Array,
            Some("string") => match schema.get("format").and_then(Json::as_str) {
                Some("date-time") => Shape::Timestamp,
                Some("duration") => Shape::Duration,
                _ => Shape::String,
            },
            Some("integer") => Shape::Integer,
            Some("number") => Shape::Number,
            Some("boolean") => Shape::Boolean,
            _ => Shape::Any,
        };
        let rules: Vec<Arc<Rule>> = match schema.get("x-kubernetes-validations") {
            Some(Json::Array(entries)) => entries.iter().filter_map(Rule::compile_shared).collect(),
            _ => Vec::new(),
        };
        let mut properties = BTreeMap::new();
        if let Some(Json::Object(members)) = schema.get("properties") {
            if depth < MAX_DEPTH {
                for (name, member) in members {
                    if member.is_object() {
                        properties.insert(name.clone(), Node::read_at(member, depth + 1));
                    }
                }
            }
        }
        if depth == 0 && flag(vergate_codegen::load::STATUS_SUBRESOURCE) {
            // The API server resets `status` on create (the status
            // subresource): its rules run on status updates only.
            properties.remove("status");
        }
        let items = schema.get("items").and_then(child);
        let values = schema.get("additionalProperties").and_then(child);
        let rules_below = !rules.is_empty()
            || properties.values().any(|node| node.rules_below)
            || items.as_ref().is_some_and(|node| node.rules_below)
            || values.as_ref().is_some_and(|node| node.rules_below);
        Node {
            shape,
            passed: Passed::for_rules(&rules),
            rules,
            properties,
            items,
            values,
            default: schema.get("default").cloned(),
            rules_below,
            defaults_unknown: false,
        }
    }
}
