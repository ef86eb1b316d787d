//! The rules of an API's own gates (a regen of CRDs: gates.json's
//! `constraints.rules`), as the schema tree [`evaluate`](super::evaluate)
//! walks, built per type and minor from the gate tables: an operator
//! release's rules are run for a document checked against that release.
//!
//! Gates keep no defaults, so unlike a tree read from a CRD no default is
//! applied before the rules run. A rule gates.json states both on a field
//! and on the definition the field refers to (the loader keeps it on both)
//! runs once.

use super::rule::CompiledRule;
use super::schema::{SchemaNode, Shape, MAX_DEPTH};
use crate::gates::{Format, Scalar, TypeExpr, ValidationRule};
use crate::tables::GateTables;
use crate::Version;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// The most nodes one tree holds: a type graph that fans out further is
/// cut there, its deeper rules left out.
const MAX_NODES: usize = 20_000;

/// A tree built (`None`: no rule below the type), shared by the documents
/// that ask for it.
type Built = Arc<Option<SchemaNode>>;

/// Trees built so far, by type and minor, shared by the threads of one check.
#[derive(Default)]
pub struct GateRules {
    built: Mutex<HashMap<(String, Version), Built>>,
}

impl GateRules {
    /// The rules of the type `name` in `minor`, built once; `None` when no
    /// rule lies below it.
    pub fn for_type(&self, tables: &GateTables, name: &str, minor: Version) -> Built {
        let key = (name.to_owned(), minor);
        if let Some(built) = self
            .built
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&key)
        {
            return Arc::clone(built);
        }
        let mut builder = Builder {
            tables,
            minor,
            nodes: 0,
        };
        let node = builder.definition(name, &[], 0);
        let built = Arc::new(Some(node).filter(|node| node.rules_below));
        self.built
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(key, Arc::clone(&built));
        built
    }
}

struct Builder<'t> {
    tables: &'t GateTables,
    minor: Version,
    nodes: usize,
}

impl Builder<'_> {
    /// A node of `shape`, without defaults (gates keep none).
    fn leaf(shape: Shape) -> SchemaNode {
        SchemaNode {
            defaults_unknown: true,
            ..SchemaNode::leaf(shape)
        }
    }

    /// A value of type `ty`, with the rules `extra` (a field's own).
    fn expr(&mut self, ty: &TypeExpr, extra: &[ValidationRule], depth: usize) -> SchemaNode {
        self.nodes += 1;
        if self.nodes > MAX_NODES || depth > MAX_DEPTH {
            return Self::leaf(Shape::Any);
        }
        let mut node = match ty {
            TypeExpr::Definition(name) => return self.definition(name, extra, depth + 1),
            TypeExpr::Array(item) => {
                let mut node = Self::leaf(Shape::Array);
                node.items = Some(Box::new(self.expr(item, &[], depth + 1)));
                node
            }
            TypeExpr::Map(value) => {
                let mut node = Self::leaf(Shape::Object);
                node.values = Some(Box::new(self.expr(value, &[], depth + 1)));
                node
            }
            TypeExpr::Scalar(scalar) => Self::leaf(shape_of(scalar)),
        };
        node.rules = compile(extra, &[]);
        node.finish()
    }

    /// A value of the definition `name`, with the rules `extra`.
    fn definition(&mut self, name: &str, extra: &[ValidationRule], depth: usize) -> SchemaNode {
        let Some(def) = self.tables.ty(name) else {
            let mut node = Self::leaf(Shape::Any);
            node.rules = compile(extra, &[]);
            return node.finish();
        };
        let own = def.constraints_in(self.minor);
        let mut node = if def.fields.is_empty() {
            match def.type_in(self.minor) {
                Some(TypeExpr::Definition(_)) | None => Self::leaf(Shape::Any),
                Some(ty) => self.expr(ty, &[], depth),
            }
        } else {
            let mut node = Self::leaf(Shape::Object);
            for (field_name, field) in &def.fields {
                if !field.gate.is_present_in(self.minor) {
                    continue;
                }
                let rules = &field.constraints_in(self.minor).rules;
                let child = self.expr(field.type_in(self.minor), rules, depth + 1);
                node.properties.insert(field_name.clone(), child);
            }
            node
        };
        node.rules = compile(extra, &own.rules);
        node.finish()
    }
}

/// The rules of `first` and then those of `second` not already among them.
fn compile(first: &[ValidationRule], second: &[ValidationRule]) -> Vec<Arc<CompiledRule>> {
    let mut seen: Vec<&ValidationRule> = Vec::new();
    for rule in first.iter().chain(second) {
        if !seen.contains(&rule) {
            seen.push(rule);
        }
    }
    seen.into_iter()
        .filter_map(|rule| CompiledRule::compile_shared(&json(rule)))
        .collect()
}

/// A rule as the CRD writes it, for [`CompiledRule::compile`].
fn json(rule: &ValidationRule) -> serde_json::Value {
    let mut entry = serde_json::Map::new();
    entry.insert("rule".into(), rule.rule.clone().into());
    for (key, value) in [
        ("message", &rule.message),
        ("messageExpression", &rule.message_expression),
        ("fieldPath", &rule.field_path),
        ("reason", &rule.reason),
    ] {
        if let Some(value) = value {
            entry.insert(key.into(), value.clone().into());
        }
    }
    serde_json::Value::Object(entry)
}

fn shape_of(scalar: &Scalar) -> Shape {
    match scalar {
        Scalar::String(Some(Format::DateTime)) => Shape::Timestamp,
        Scalar::String(_) => Shape::String,
        Scalar::Integer(_) => Shape::Integer,
        Scalar::Number(_) => Shape::Number,
        Scalar::Boolean => Shape::Boolean,
        Scalar::Object => Shape::Object,
        Scalar::Any | Scalar::IntOrString | Scalar::Quantity => Shape::Any,
    }
}
