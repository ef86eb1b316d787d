//! The models: what one minor's spec says ([`MinorModel`]) and what all the
//! minors say together ([`GatedModel`]).
//!
//! Nothing here depends on serde_json or on any file format, so the derive
//! macro builds the very same model from annotated Rust structs. With the
//! `load` feature the minor model derives serde, for the load cache
//! (`load/cache.rs`).

pub mod constraints;
mod deprecation;
pub mod dialect;
mod enum_dates;
mod facts;
mod feature_gate_prose;
mod gated;
mod lifecycle;
pub mod naming;
mod schema;
mod union;
pub mod wording;

pub use deprecation::{description_says_deprecated, prose_deprecations, ProseDeprecations};
pub use dialect::{kubernetes, mark, Convention, Dialect, DIALECTS};
pub use facts::FactNotes;
pub use feature_gate_prose::{prose_gates, ProseGates};
pub use gated::GatedModel;
pub use lifecycle::{FieldLifecycle, Lifecycle, TypeLifecycle};
pub use schema::{Definition, MinorModel, ObjectSchema, Property, ResourcePath, Schema, Source};
pub use union::{Discriminator, UnionLifecycle, UnionSchema};
pub use vergate_core::gates::{GroupVersionKind, Rename, Stage, UnionKind};
