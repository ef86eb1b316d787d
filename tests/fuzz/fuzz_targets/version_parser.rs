//! Arbitrary strings as versions: parsing never panics, a parsed version
//! round-trips through its display, directory and identifier forms, and the
//! error message quotes the input.
//! The body is `targets/version_parser.rs`, which `tests/fuzz_seeds.rs` runs on
//! every seed in the normal `cargo test`.
#![no_main]

#[path = "../targets/version_parser.rs"]
mod target;

libfuzzer_sys::fuzz_target!(|data: &[u8]| target::run(data));
