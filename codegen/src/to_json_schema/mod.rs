//! The one converter from the gated model to JSON Schema 2020-12, shared by
//! both front doors: the derive's `Versioned::JSON_SCHEMA`
//! ([`crate::derive::json_schema`]) and the JSON Schema emitter
//! (`emit::json_schema`, which lays the converted definitions out as files).
//! Both therefore give the same schema for the same type.
//!
//! It builds [`vergate_core::json`] values, whose compact text is
//! serde_json's byte for byte: the proc macro runs this converter, and
//! serde_json would bring memchr into every plugin crate's build. Keywords,
//! defaults and enum values, which the model keeps as JSON text, are read
//! back with `vergate_core::json::parse`; the gates in `x-vergate` are
//! serde's serialization of `vergate_core::gates` (`json::to_value`), as in
//! gates.json. The emitter takes the values over as serde_json values in
//! one place (`emit::json_schema::convert`) and writes them with its
//! deterministic writer (`emit::json_text`).

mod convert;
mod editor;
mod gate_keyword;
mod keywords;
mod lifecycles;
mod shape;
mod standalone;
mod style;
mod union;

pub use convert::{closes_absent_properties, definition, is_closable, references, Style};
pub use gate_keyword::{GateKeywords, KEYWORD as GATE_KEYWORD};
pub use keywords::typed_enum;
pub use standalone::{standalone, DRAFT_2020_12};

pub use vergate_core::json::Object;

/// A JSON string value.
pub fn string(text: impl Into<String>) -> vergate_core::json::Value {
    vergate_core::json::Value::String(text.into())
}
