//! The full YAML parser: yaml-rust2 0.13.0's scanner and parser, forked so
//! that they scan as go-yaml v2 (and so kubectl) does where the two differ.
//!
//! Copied from yaml-rust2 0.13.0 (`src/scanner.rs`, `src/parser.rs`,
//! `src/char_traits.rs`; MIT or Apache-2.0, copyright 2015 Chen Yuheng and
//! 2023 Ethiraric), its tests left out. Every change from the original is
//! marked `go-yaml:` and says which rule of go-yaml v2's `scannerc.go` or
//! `readerc.go` it follows; `tests/yaml_reference.rs` holds the result to
//! what sigs.k8s.io/yaml and go-yaml v2 read. The rest of the crate (its
//! `Yaml` type and emitter, used to write documents) is the dependency.

#![allow(dead_code, clippy::all, clippy::pedantic)]

mod char_traits;
pub mod parser;
pub mod scanner;
