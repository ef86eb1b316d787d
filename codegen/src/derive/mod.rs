//! The Rust expansion engine, shared by both front doors: the derive macro
//! ([`annotated`], reached through `vergate-macros`) and the spec-driven Rust
//! output. It turns a [`GatedModel`](crate::model::GatedModel) and a
//! [`Layout`] into one `TokenStream` per minor plus the items the minors
//! share ([`expand`]).
//!
//! This module needs only syn, quote, proc-macro2 and heck, so the proc macro
//! depends on this crate with `default-features = false` and nothing heavier.

pub mod annotated;
mod convert;
mod docs;
mod expand;
mod expanded;
mod field;
mod int_or_string;
mod items;
mod layout_policy;
mod options;
mod schema;
mod table;
mod union;
mod variant_names;

#[cfg(feature = "emit")]
pub(crate) use convert::Plan as ConversionPlan;
#[cfg(feature = "emit")]
pub(crate) use docs::{deprecated_attr, doc_attrs};
pub use expand::{expand, Expansion};
pub use int_or_string::int_or_string_item;
pub use items::type_item;
pub use layout_policy::{ident, DefaultLayout, Layout, SerdeImpls};
pub use options::Options;
pub use schema::json_schema;
pub use variant_names::{is_string_enum, variant_name};

#[cfg(test)]
mod tests;
