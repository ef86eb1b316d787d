//! A CRD with nested junctors and CEL rules, and a custom resource of it,
//! built from bytes (`gen/crd_pair.rs`), read and checked.
//! The body is `targets/crd_rules.rs`, which `tests/fuzz_seeds.rs` runs on
//! every seed in the normal `cargo test`.
#![no_main]

#[path = "../gen/crd_pair.rs"]
mod crd_pair;
#[path = "../targets/crd_rules.rs"]
mod target;

libfuzzer_sys::fuzz_target!(|data: &[u8]| target::run(data));
