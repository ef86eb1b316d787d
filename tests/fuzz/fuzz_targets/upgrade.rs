//! Arbitrary bytes as a file given to `vergate upgrade`.
//! The body is `targets/upgrade.rs`, which `tests/fuzz_seeds.rs` runs on
//! every seed in the normal `cargo test`.
#![no_main]

#[path = "../targets/upgrade.rs"]
mod target;

libfuzzer_sys::fuzz_target!(|data: &[u8]| target::run(data));
