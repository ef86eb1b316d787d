//! Arbitrary import paths: aliasing never panics, gives one alias per path,
//! never two equal aliases for different paths, and every alias is a legal
//! Pkl identifier (plain, or quotable with backticks).
//! The body is `targets/alias.rs`, which `tests/fuzz_seeds.rs` runs on
//! every seed in the normal `cargo test`.
#![no_main]

#[path = "../targets/alias.rs"]
mod target;

libfuzzer_sys::fuzz_target!(|data: &[u8]| target::run(data));
