//! Arbitrary text as a document checked against the demo's gates: parsing
//! and preflight never panic, in strict and lenient mode, for every minor.
//! The body is `targets/preflight.rs`, which `tests/fuzz_seeds.rs` runs on
//! every seed in the normal `cargo test`.
#![no_main]

/// The repository's root, from this crate's directory.
const ROOT: &str = "../..";

#[path = "../targets/preflight.rs"]
mod target;

libfuzzer_sys::fuzz_target!(|data: &[u8]| target::run(data));
