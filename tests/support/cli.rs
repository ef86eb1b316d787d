//! Running the `vergate` binary from the integration tests, and reading
//! what it printed.

use std::io::Write as _;
use std::process::{Command, Output, Stdio};

/// Runs `vergate` from the repository root.
pub fn vergate(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_vergate"))
        .args(args)
        .current_dir(super::root())
        .output()
        .expect("the vergate binary runs")
}

/// Runs `vergate` from the repository root with `input` piped to its
/// standard input.
pub fn vergate_with_stdin(args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_vergate"))
        .args(args)
        .current_dir(super::root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the vergate binary runs");
    let mut stdin = child.stdin.take().expect("stdin is piped");
    stdin.write_all(input).expect("vergate reads its input");
    drop(stdin);
    child.wait_with_output().expect("vergate finishes")
}

/// What the command printed on standard output (it must be UTF-8).
pub fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

/// What the command printed on standard error (it must be UTF-8).
pub fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).unwrap()
}

/// The exit code; a command killed by a signal fails the test, naming it.
pub fn code(output: &Output) -> i32 {
    output
        .status
        .code()
        .unwrap_or_else(|| panic!("killed by a signal: {}", stderr(output)))
}

/// Each violation of a `check --format json` report as one line:
/// `line severity path: message`.
pub fn finding_lines(json: &serde_json::Value) -> Vec<String> {
    json["violations"]
        .as_array()
        .expect("a report's violations")
        .iter()
        .map(|v| {
            format!(
                "{} {} {}: {}",
                v["line"],
                v["severity"].as_str().unwrap(),
                v["path"].as_str().unwrap(),
                v["message"].as_str().unwrap()
            )
        })
        .collect()
}
