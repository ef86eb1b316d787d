//! vergate: per-minor schema trees for APIs whose accepted field set changes
//! from minor to minor.
//!
//! This package is what plugin crates and the `vergate` CLI depend on. It
//! re-exports the shared vocabulary ([`Version`], the gates index) and holds
//! the runtime: schema manifest discovery ([`manifest`]), version resolution
//! per namespace ([`resolve`]), runtime version resolution
//! ([`runtime_version`]), glob narrowing ([`globs`]), the local-package swap
//! ([`local_swap`]), preflight, upgrade and changelog over the gate tables
//! ([`preflight`], [`upgrade`], [`changelog`]), and the `#[versioned]`
//! attribute for hand-written superset types ([`versioned`]).

pub use vergate_core::{gates, is_version_dir, ParseVersionError, Version, VersionSet};

#[cfg(feature = "cli")]
pub mod cel;
pub mod changelog;
#[cfg(feature = "cli")]
#[path = "cli/args.rs"]
pub mod cli_args;
pub mod document;
pub mod embedded;
pub mod findings;
pub mod globs;
#[cfg(feature = "cli")]
pub mod junctors;
pub mod local_swap;
pub mod manifest;
pub mod preflight;
pub mod resolve;
pub mod runtime_version;
pub mod tables;
pub mod upgrade;
pub mod versioned;
mod walk;
pub use vergate_macros::versioned;

// `IntOrString`: an int-or-string field of a `#[versioned]` type, the same
// item the spec-driven crate has at its root.
vergate_macros::__int_or_string!();
#[doc(hidden)]
pub use versioned::__private;
