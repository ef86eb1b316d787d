//! Which world an API belongs to, as its api.toml declares it (`dialect`),
//! and so which conventions and rules apply to it. Nothing here is detected
//! from the specs: a rule of one world never runs on another's.
//!
//! Each world's conventions live in a module of their own
//! ([`kubernetes`]); a plain OpenAPI service has none. The load pass marks
//! the definitions that carry one ([`mark`]), and emitters and the
//! runtime match on [`Convention`], never on a definition's name. A new
//! dialect is a variant here and, if it has conventions, one module.

pub mod kubernetes;

use crate::model::MinorModel;

/// A meaning a dialect gives a definition beyond what its schema says.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "load", derive(serde::Serialize, serde::Deserialize))]
pub enum Convention {
    /// A quantity (`"500m"`, `"1Gi"`): the schema says string, the decoder
    /// takes a number too; Pkl's `Quantity`, Rust's quantity readers.
    Quantity,
    /// The object metadata every kind's `metadata` is; what kube-rs's
    /// `Resource` hands out.
    ObjectMeta,
    /// A JSONSchemaProps or another shape (JSONSchemaPropsOrArray, …OrBool,
    /// …OrStringArray): the spec says only "an object", the Go type's JSON
    /// decoding takes either. Marked definitions are an `anyOf` of the two,
    /// the JSONSchemaProps first; Pkl makes it the default member and
    /// writes the union where it is used, as pkl-k8s does.
    SchemaOr,
}

pub use vergate_core::dialect::{Dialect, DIALECTS};

/// Marks the definitions of `minor` that carry one of `dialect`'s
/// conventions (once per load, before the merge).
pub fn mark(dialect: Dialect, minor: &mut MinorModel) {
    match dialect {
        Dialect::Kubernetes | Dialect::CustomResources => kubernetes::mark(minor),
        Dialect::OpenApi => {}
    }
}
