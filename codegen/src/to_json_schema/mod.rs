//! The one converter from the gated model to JSON Schema 2020-12, shared by
//! both front doors: the derive's `Versioned::JSON_SCHEMA`
//! ([`crate::derive::json_schema`]) and the JSON Schema emitter
//! (`emit::json_schema`, which lays the converted definitions out as files).
//! Both therefore give the same schema for the same type.
//!
//! It builds [`Json`] values, not serde_json's: the proc macro uses this
//! module with codegen's features off, and serde_json stays out of its
//! dependency tree. The emitter converts the values to serde_json's for its
//! deterministic writer.

mod convert;
mod editor;
mod gate_keyword;
mod keywords;
mod standalone;
mod union;
mod value;

pub use convert::{closes_absent_properties, definition, is_closable, references, Style, QUANTITY};
pub use gate_keyword::{GateKeywords, KEYWORD as GATE_KEYWORD};
pub use keywords::typed_enum;
pub use standalone::{standalone, DRAFT_2020_12};
pub use value::{Json, Map};
