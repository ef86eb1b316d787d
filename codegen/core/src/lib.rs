//! The vocabulary shared by every vergate crate: [`Version`] (an API minor),
//! [`VersionSet`], the version-directory test, and the serialized form of the
//! gates index (`gates.json`).
//!
//! This crate's only required dependency is thiserror (a derive the proc
//! macro's build has already), so that the proc macro and the runtime can
//! both depend on it cheaply. Enable the `serde` feature for
//! (de)serialization, `index` for the gates index and what reads it
//! (the code generator and the check engine; the runtime needs neither),
//! and `json` for the code generator's JSON value ([`json`]).

#[cfg(feature = "index")]
pub mod alias;
#[cfg(feature = "index")]
pub mod dialect;
mod version;
mod version_set;

pub mod gates;
#[cfg(feature = "json")]
pub mod json;
#[cfg(feature = "index")]
pub mod json_pointer;
pub mod pkl_text;
pub mod support;
pub mod table;

pub use version::{is_version_dir, ParseVersionError, Version};
pub use version_set::{gate_admits, VersionSet};
