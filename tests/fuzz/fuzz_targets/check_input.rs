//! Arbitrary bytes as a file given to `vergate check`: decoding, the bounded
//! document reader and preflight (against the demo's gates) never panic,
//! and what they report is well formed: every error and duplicate key has a
//! line, a duplicate key comes after the one it repeats.
//! The body is `targets/check_input.rs`, which `tests/fuzz_seeds.rs` runs on
//! every seed in the normal `cargo test`.
#![no_main]

/// The repository's root, from this crate's directory.
const ROOT: &str = "../..";

#[path = "../targets/check_input.rs"]
mod target;

libfuzzer_sys::fuzz_target!(|data: &[u8]| target::run(data));
