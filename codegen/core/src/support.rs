//! Support code that vergate's runtime compiles and that the Rust emitter
//! copies verbatim into every generated crate: one text for both, kept here
//! so that each package that needs it depends on this crate instead of
//! including a file from another package's folder (which `cargo package`
//! would leave out).

/// Conversions between minors: [`migrate::Migrate`], [`migrate::Migration`]
/// and [`migrate::ConversionError`]. The file names `Version` from its
/// including module (the generated crate defines its own), so it is
/// included here with this crate's [`Version`](crate::Version) in scope.
pub mod migrate {
    use crate::Version;
    include!("support/migrate.rs");
}

/// Kubernetes quantities as `resource.ParseQuantity` reads them: the one
/// grammar of `check` and the generated crates' readers.
#[cfg(feature = "index")]
pub mod quantity;

/// The text of [`migrate`], written into generated crates.
pub const MIGRATE_SOURCE: &str = include_str!("support/migrate.rs");

/// The text of [`quantity`], written into generated crates as `src/quantity.rs`.
pub const QUANTITY_SOURCE: &str = include_str!("support/quantity.rs");
