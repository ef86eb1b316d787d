//! Arbitrary bytes as a spec file (JSON and YAML): the loader returns a model
//! or an error, never panics; a model always merges.
//! The body is `targets/spec_loader.rs`, which `tests/fuzz_seeds.rs` runs on
//! every seed in the normal `cargo test`.
#![no_main]

#[path = "../targets/spec_loader.rs"]
mod target;

libfuzzer_sys::fuzz_target!(|data: &[u8]| target::run(data));
