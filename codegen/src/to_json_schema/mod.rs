//! The one converter from the gated model to JSON Schema 2020-12, shared by
//! both front doors: the derive's `Versioned::JSON_SCHEMA`
//! ([`crate::derive::json_schema`]) and the JSON Schema emitter
//! (`emit::json_schema`, which lays the converted definitions out as files).
//! Both therefore give the same schema for the same type.
//!
//! It builds serde_json values, the one JSON value of the codegen (the proc
//! macro builds with serde_json too, as kube-derive does); the gates in
//! `x-vergate` are serde's serialization of `vergate_core::gates`, as in
//! gates.json. The emitter writes the values with its deterministic writer
//! (`emit::json_text`).

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

/// A JSON string value.
pub fn string(text: impl Into<String>) -> serde_json::Value {
    serde_json::Value::String(text.into())
}

/// A JSON object's members (serde_json's map: sorted by key).
pub type Object = serde_json::Map<String, serde_json::Value>;
