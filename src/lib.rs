//! vergate: per-minor schema trees for APIs whose accepted field set changes
//! from minor to minor.
//!
//! This package is what plugin crates and the `vergate` CLI depend on. It
//! re-exports the shared vocabulary ([`Version`], the gates index).

pub use vergate_core::{gates, is_version_dir, ParseVersionError, Version, VersionSet};

pub mod versioned;
pub use vergate_macros::versioned;
#[doc(hidden)]
pub use versioned::__private;
