//! Tells the integration tests which of their outside inputs (the
//! Kubernetes specs and output, the pkl CLI, openapi-spec-validator, the
//! Docker specs) are present, as cfgs: a test whose input is missing is then
//! reported as ignored by the test runner instead of passing without
//! running. Under CI (`CI` set) every cfg is set, so those tests run or
//! fail, except an input CI lacks too (`optional_in_ci`: the Docker specs). See
//! `tests/support/inputs.rs`. Nothing else in the package reads these cfgs.

#[path = "tests/support/inputs.rs"]
#[allow(dead_code)]
mod inputs;

use inputs::{Input, VARIABLES};
use std::path::PathBuf;

fn main() {
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
