//! Custom resources checked by their CRDs' CEL validation rules
//! (`x-kubernetes-validations`), as the Kubernetes API server checks them
//! on create.
//!
//! - `rule`: one rule compiled ([`CompiledRule`], once per process): program, message,
//!   `fieldPath`, `reason`, whether it reads `oldSelf`, the Kubernetes
//!   functions it calls.
//! - `passed`: the values each node's rules passed on, so an equal value
//!   met again is not evaluated again; `reads`: the part of a value the
//!   rules read, which is all that keys a pass.
//! - `plan`: a rule's syntax tree rewritten once into one cel-rust runs
//!   with less work (selections on variables as indexes), instrumented to
//!   count its runtime cost as cel-go does: `charges` (where the tree
//!   charges what), `sized` (the functions it charges with, and the calls
//!   whose cost depends on their values), `meter` (the count per
//!   evaluation, and the API server's limits that stop it).
//! - `schema`: the one tree of a served CRD version's schema
//!   ([`SchemaNode`], one depth bound), with the rules, junctors and
//!   defaults on its nodes; `schema::defaults` lays the defaults on a
//!   resource once, for the rules and the junctors alike.
//! - `value`: document values as the CEL values the API server gives a rule;
//!   `shared`: their lists and maps, cheap to copy.
//! - `evaluate`: the walk that runs the rules over one resource, spending
//!   the API server's runtime cost budget; `probe`: one expression run,
//!   its cost counted.
//! - `tree`: the children of a syntax tree's node, for walks over all.
//! - `crd_document`: a CRD among the inputs, its rules compiled as the
//!   target's API server compiles a new CRD's (libraries of the minor
//!   before).
//! - `cost`: the API server's estimated cost of a rule and its per-rule
//!   and per-CRD limits.
//! - `crd_cost`: a CRD document's rules over those limits, as violations.
//! - `gates`: the same tree from an API's own gates (a regen of CRDs), per
//!   type and minor.
//! - `library`: the API server's CEL libraries per minor, and the
//!   Kubernetes functions on top of cel-rust's standard library.
//!
//! CEL itself (parser, interpreter, standard library, strings extension) is
//! the `cel` crate's (cel-rust); see docs/cli.md for what differs from the
//! API server.

mod charges;
pub mod cost;
pub mod crd_cost;
pub mod crd_document;
mod evaluate;
mod gates;
pub mod library;
pub mod meter;
mod passed;
mod plan;
pub mod probe;
mod reads;
pub(crate) mod rule;
pub mod schema;
mod shared;
mod sized;
mod tree;
mod value;

pub use charges::Costing;
pub use evaluate::{evaluate, Outcome};
pub use gates::GateRules;
pub use meter::{PER_CALL_LIMIT, RESOURCE_BUDGET};
pub use rule::CompiledRule;
pub use schema::{SchemaNode, ServedSchema};
