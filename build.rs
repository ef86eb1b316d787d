//! The package's build script, with two jobs:
//!
//! - [`link_at_a_fixed_address`]: how the `vergate` binary is linked;
//! - [`test_inputs`]: which of the integration tests' outside inputs (the
//!   Kubernetes specs and output, the pkl CLI, openapi-spec-validator, the
//!   Docker specs) are present, as cfgs: a test whose input is missing is
//!   then reported as ignored by the test runner instead of passing without
//!   running. Under CI (`CI` set) every cfg is set, so those tests run or
//!   fail, except an input CI lacks too (`optional_in_ci`: the Docker
//!   specs). See `tests/support/inputs.rs`. Nothing else in the package
//!   reads these cfgs.

#[path = "tests/support/inputs.rs"]
#[allow(dead_code)]
mod inputs;

use inputs::{Input, VARIABLES};
use std::path::PathBuf;

fn main() {
    link_at_a_fixed_address();
    test_inputs();
}

/// Links the `vergate` binary on Linux as a fixed-address executable
/// (`-no-pie`), as Go links kubectl, kubeconform and kubectl-validate.
///
/// As a position-independent executable, the dynamic loader rewrote about
/// 50,000 pointers in its read-only tables (chrono-tz's zone names, which
/// the CEL library brings, most of them) at every start: 1.3 MB of copied
/// pages, 356 of a 2,200-document check's 2,900 page faults and a
/// millisecond of each run, however small its input. Linked at a fixed
/// address, those tables are read from the file as they are, and the pages
/// no run reads are never touched. The cost is address-space randomization
/// of the binary's own code (the libraries, stack and heap keep theirs),
/// for a tool that reads files and starts no network service. Tests and
/// the library are not affected: `rustc-link-arg-bins` reaches binaries only.
fn link_at_a_fixed_address() {
    println!("cargo::rerun-if-env-changed=CARGO_CFG_TARGET_OS");
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux") {
        println!("cargo::rustc-link-arg-bins=-no-pie");
    }
}

/// Sets the cfgs of the outside inputs the integration tests need.
fn test_inputs() {
    let root = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let ci = std::env::var_os("CI").is_some();
    for variable in VARIABLES {
        println!("cargo::rerun-if-env-changed={variable}");
    }
    println!("cargo::rerun-if-changed=tests/support/inputs.rs");
    for input in Input::all(&root) {
        println!("cargo::rustc-check-cfg=cfg({})", input.cfg);
        if (ci && !input.optional_in_ci) || input.is_present() {
            println!("cargo::rustc-cfg={}", input.cfg);
        }
        for path in input.watched() {
            println!("cargo::rerun-if-changed={}", path.display());
        }
    }
}
