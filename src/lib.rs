//! vergate: per-minor schema trees for APIs whose accepted field set changes
//! from minor to minor.
//!
//! This package is what plugin crates and the `vergate` CLI depend on, in
//! layers chosen by features:
//!
//! - **The runtime** (always): the shared vocabulary ([`Version`],
//!   [`VersionSet`], `gates::Stage`), schema manifest discovery
//!   ([`manifest`]), runtime version resolution ([`runtime_version`]), glob
//!   narrowing ([`globs`]), and the `#[versioned]` attribute for hand-written
//!   superset types with its tables and conversions ([`versioned`]). A plugin
//!   crate that builds with `default-features = false` compiles this alone.
//! - **`json`**: strict JSON decoding of the per-minor types
//!   (`versioned::from_str_strict`), version resolution per namespace from
//!   targets' Config JSON (`resolve`) and the local-package swap
//!   (`local_swap`).
//! - **`engine`** (on through the default `cli`): the document layer
//!   (`document`: the reader and spans) and the check engine: the gates
//!   index, the gate tables, preflight, CRDs with their CEL rules and
//!   junctors, and `engine::Validator`, the one entry point that checks a
//!   file's documents as `vergate check` does (`tables`, `preflight`, `cel`,
//!   `junctors`, `engine`), with upgrade and changelog beside it, and
//!   `settings`, the `vergate.toml` both `check` and the language server
//!   read.
//! - **`args`** adds the command's clap definition (`cli_args`), and
//!   **`cli`** the command itself.

pub use vergate_core::{gates, is_version_dir, ParseVersionError, Version, VersionSet};

#[cfg(feature = "engine")]
pub mod cel;
#[cfg(feature = "engine")]
pub mod changelog;
#[cfg(feature = "args")]
pub mod cli_args;
#[cfg(feature = "engine")]
pub mod document;
#[cfg(feature = "engine")]
pub mod embedded;
#[cfg(feature = "engine")]
pub mod engine;
#[cfg(feature = "engine")]
pub mod findings;
pub mod globs;
#[cfg(feature = "engine")]
pub mod junctors;
#[cfg(feature = "json")]
pub mod local_swap;
#[cfg(feature = "cli")]
pub mod lsp;
pub mod manifest;
#[cfg(feature = "engine")]
pub mod preflight;
#[cfg(feature = "json")]
pub mod resolve;
pub mod runtime_version;
#[cfg(feature = "engine")]
pub mod settings;
#[cfg(feature = "engine")]
pub mod tables;
#[cfg(feature = "engine")]
pub mod upgrade;
pub mod versioned;
#[cfg(feature = "engine")]
mod walk;
pub use vergate_macros::versioned;

// `IntOrString`: an int-or-string field of a `#[versioned]` type, the same
// item the spec-driven crate has at its root.
vergate_macros::__int_or_string!();
#[doc(hidden)]
pub use versioned::__private;
