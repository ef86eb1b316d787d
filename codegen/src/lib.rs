//! vergate's code generation library.
//!
//! The flow runs one way (see ARCHITECTURE.md):
//!
//! 1. [`api`] reads `upstream-specs/<api>/api.toml` and finds the minors present;
//! 2. [`load`] reads each minor's OpenAPI 2/3 spec into a [`model::MinorModel`];
//! 3. [`model::GatedModel::merge`] merges the per-minor models into one gated
//!    model in which every type, field and enum value carries its lifecycle;
//! 4. the emitters in [`emit`] are pure functions of the gated model that fill
//!    an in-memory [`output::FileTree`];
//! 5. [`output::sync`] writes the tree below `generated/<api>/`, touching only
//!    the files whose bytes changed.
//!
//! [`regen`] runs the whole flow for one API.

#[cfg(feature = "derive")]
pub mod derive;
pub mod error;
pub mod model;
pub mod to_json_schema;

#[cfg(feature = "load")]
pub mod api;
#[cfg(feature = "load")]
pub mod fetch;
#[cfg(feature = "load")]
pub mod file_id;
#[cfg(feature = "load")]
pub mod load;
#[cfg(feature = "load")]
pub mod parallel;
#[cfg(feature = "load")]
pub mod record;
#[cfg(feature = "load")]
pub mod refinements;
#[cfg(feature = "load")]
pub mod review;

#[cfg(feature = "emit")]
pub mod annotations;
#[cfg(feature = "emit")]
pub mod emit;
#[cfg(feature = "emit")]
pub mod output;

#[cfg(feature = "emit")]
pub mod from_rust;
#[cfg(feature = "publish")]
pub mod publish;
#[cfg(feature = "emit")]
pub mod regen;
#[cfg(feature = "emit")]
pub mod stamp;

pub use error::{Error, Result, Warning};
pub use vergate_core::{Version, VersionSet};
