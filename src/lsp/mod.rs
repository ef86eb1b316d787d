//! `vergate lsp`: the language server. It speaks the Language Server
//! Protocol over standard input and output and shows, while a manifest is
//! typed, what `vergate check` would say of it, with the same settings
//! (`vergate.toml`, the modeline), plus hover, completion and fixes.
//!
//! One job per module:
//! - `server`: the protocol loop (handshake, dispatch, debouncing, cancellation);
//! - `transport`: the wire (framing, bounds, malformed messages answered);
//! - `line_index`: byte offsets ↔ UTF-16 positions;
//! - `documents`: the open documents, full and incremental sync, bounded;
//! - `locate`: the cursor's place in a document (its path of keys);
//! - `schema`: a path through the gate tables in the target minor;
//! - `lifecycle`: a gate's lifecycle in the editor schemas' words;
//! - `descriptions`, `crd_descriptions`: descriptions for hover, from a
//!   generated tree's JSON Schema and from the workspace's CRDs;
//! - `workspace`: settings, modeline and the validator of each document;
//! - `diagnostics`: a file's report as diagnostics;
//! - `hover`, `completion`, `actions`: what the editor asks;
//! - `minimal_edit`: a changed text as the smallest edit.
//!
//! The library compiles it with the `cli` feature only: a plugin crate's
//! runtime never sees it.

pub mod actions;
pub mod completion;
pub mod crd_descriptions;
pub mod descriptions;
pub mod diagnostics;
pub mod documents;
pub mod hover;
pub mod lifecycle;
pub mod line_index;
pub mod locate;
pub mod minimal_edit;
pub mod schema;
pub mod server;
pub mod transport;
pub mod workspace;

pub use server::run_stdio;
