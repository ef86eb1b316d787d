//! `vergate lsp` driven by a real LSP client: pytest-lsp runs tests/lsp/
//! (open, change and close; diagnostics, hover, completion, code actions
//! with their edits applied; a workspace's vergate.toml and CRDs on disk
//! and among the open documents; and the differential test: the server's
//! diagnostics equal `vergate check --format json`'s on every corpus
//! file) against the binary cargo built for this test.
//!
//! Run from `cargo test` rather than as its own `.ci/run` step, so that
//! the binary under test is the one cargo just built, and the test is
//! ignored (saying why) where the venv is missing, except under CI.

mod support;

use std::process::Command;

#[test]
#[cfg_attr(
    not(vergate_pytest_lsp),
    ignore = "needs pytest-lsp: target/venv-openapi (see .ci/run) or VERGATE_PYTEST"
)]
fn pytest_lsp_drives_the_server() {
    let pytest = support::pytest_lsp();
    let root = support::root();
    let output = Command::new(&pytest)
        .args(["-q", "-p", "no:cacheprovider", "tests/lsp"])
        .current_dir(root)
        .env("VERGATE_BIN", env!("CARGO_BIN_EXE_vergate"))
        // No __pycache__ left in tests/lsp.
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .output()
        .unwrap_or_else(|err| panic!("cannot run {}: {err}", pytest.display()));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "pytest tests/lsp failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    // Every test ran: none skipped, none deselected.
    assert!(
        stdout.contains(" passed") && !stdout.contains("skipped"),
        "{stdout}"
    );
}
