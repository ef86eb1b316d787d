//! The emitters: pure functions of the gated model that add files to an
//! in-memory [`FileTree`](crate::output::FileTree), listed once in
//! [`registry::EMITTERS`].

pub mod gates;
pub mod json_schema;
pub mod json_text;
pub mod pkl;
pub mod registry;
pub mod rust;

pub use registry::{Emitter, Output, Packing, EMITTERS};
