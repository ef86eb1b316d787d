//! `vergate upgrade` edits files as a careful person would: byte-for-byte
//! golden files (`tests/upgrade_golden/NAME.in.*` → `NAME.out.*`) show
//! that only the nodes that change are rewritten, and every other byte
//! (comments, blank lines, flow style, quoting, key order, CRLF, the
//! encoding) is kept;
//! a file with nothing to change is not rewritten at all. Each output then
//! checks clean at the target minor.
//!
//! To re-record the expected files after a deliberate change, run with
//! `VERGATE_BLESS=1` and review the diff.

mod support;

use std::path::{Path, PathBuf};
use support::cli::{code, stderr, stdout, vergate};

/// One golden case: its file name stem and extension, the upgrade's
/// options, the target minor and the exit code (1 when something is lost).
struct Case {
    name: &'static str,
    ext: &'static str,
    options: &'static [&'static str],
    target: &'static str,
    exit: i32,
}

const DEMO: &[&str] = &["--api", "generated/demo", "--to", "1.12"];
const K8S_1_28: &[&str] = &["--from", "1.28", "--to", "1.34"];
const K8S_1_33: &[&str] = &["--from", "1.33", "--to", "1.34"];

const CASES: &[Case] = &[
    // Nothing to change: the same bytes.
    case("unchanged", "yaml", K8S_1_33, "1.34", 0),
    // Block, trailing and header comments, inside the changed mapping too;
    // a rename in place; a quoted version bumped in its quotes.
    case("comments", "yaml", DEMO, "1.12", 0),
    // Flow mappings stay flow, single quotes stay single.
    case("flow", "yaml", DEMO, "1.12", 0),
    // A dropped field removes exactly its lines (exit 1: something lost).
    case("drop", "yaml", DEMO, "1.12", 1),
    // A dropped flow entry goes with one comma, first or last.
    case("drop-flow", "yaml", DEMO, "1.12", 1),
    // Values retyped in place (`42` → `"42"`), list items too.
    case(
        "retype",
        "yaml",
        &["--api", "tests/cli/retype", "--from", "1.0", "--to", "1.1"],
        "1.1",
        0,
    ),
    // An apiVersion no longer served moves to its replacement: the scalar
    // is replaced, flow style and comments around it kept.
    case("api-version", "yaml", K8S_1_28, "1.34", 0),
    // One changed document among unchanged ones (and a `...` end marker).
    case("multi", "yaml", K8S_1_28, "1.34", 0),
    // HorizontalPodAutoscaler autoscaling/v2beta2 → autoscaling/v2.
    case("hpa", "yaml", K8S_1_33, "1.34", 0),
    // JSON stays JSON, in its own indentation.
    case("json", "json", K8S_1_28, "1.34", 0),
    // CRLF line breaks are kept.
    case("crlf", "yaml", DEMO, "1.12", 0),
    // So is a UTF-8 byte order mark.
    case("bom", "yaml", DEMO, "1.12", 0),
    // A UTF-16 file (little-endian, with its byte order mark) is written
    // back as UTF-16.
    case("utf16", "yaml", DEMO, "1.12", 0),
];

const fn case(
    name: &'static str,
    ext: &'static str,
    options: &'static [&'static str],
    target: &'static str,
    exit: i32,
) -> Case {
    Case {
        name,
        ext,
        options,
        target,
        exit,
    }
}

fn golden(name: &str) -> PathBuf {
    support::root().join("tests/upgrade_golden").join(name)
}

/// The `--api` option of a case, for `check` (none: the embedded
/// Kubernetes index).
fn api(options: &[&'static str]) -> Vec<&'static str> {
    match options.iter().position(|option| *option == "--api") {
        Some(at) => options[at..at + 2].to_vec(),
        None => Vec::new(),
    }
}

#[test]
fn upgrade_writes_only_what_changes_byte_for_byte() {
    let bless = std::env::var_os("VERGATE_BLESS").is_some();
    let tmp = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    for case in CASES {
        let input = golden(&format!("{}.in.{}", case.name, case.ext));
        let expected_path = golden(&format!("{}.out.{}", case.name, case.ext));
        let output = tmp.path().join(format!("{}.{}", case.name, case.ext));
        let mut args = vec!["upgrade"];
        args.extend(case.options);
        let input_text = input.to_str().unwrap();
        let output_text = output.to_str().unwrap();
        args.extend([input_text, "-o", output_text]);
        let out = vergate(&args);
        assert_eq!(code(&out), case.exit, "{}: {}", case.name, stderr(&out));
        let written = std::fs::read(&output).unwrap();
        if bless {
            std::fs::write(&expected_path, &written).unwrap();
        }
        let expected = std::fs::read(&expected_path).unwrap();
        if written != expected {
            failures.push(format!(
                "{}: written\n{}\nexpected\n{}",
                case.name,
                String::from_utf8_lossy(&written),
                String::from_utf8_lossy(&expected)
            ));
            continue;
        }
        // Standard output gives the same bytes.
        let mut args = vec!["upgrade"];
        args.extend(case.options);
        args.push(input_text);
        assert_eq!(
            vergate(&args).stdout,
            expected,
            "{}: standard output",
            case.name
        );
        // So does standard input: the encoding is read from the stream.
        let mut args = vec!["upgrade"];
        args.extend(case.options);
        args.push("-");
        assert_eq!(
            support::cli::vergate_with_stdin(&args, &std::fs::read(&input).unwrap()).stdout,
            expected,
            "{}: standard input",
            case.name
        );
        // `check --target` of the output is clean.
        let mut args = vec!["check", "--strict", "--target", case.target];
        args.extend(api(case.options));
        args.push(output_text);
        let check = vergate(&args);
        assert_eq!(
            (code(&check), stdout(&check)),
            (0, String::new()),
            "{}: check of the output: {}",
            case.name,
            stderr(&check)
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn every_golden_input_changes_but_the_unchanged_one() {
    for case in CASES {
        let input = std::fs::read(golden(&format!("{}.in.{}", case.name, case.ext))).unwrap();
        let output = std::fs::read(golden(&format!("{}.out.{}", case.name, case.ext))).unwrap();
        assert_eq!(input == output, case.name == "unchanged", "{}", case.name);
    }
    // The CRLF case really has CRLF line breaks, in and out.
    for file in ["crlf.in.yaml", "crlf.out.yaml"] {
        let text = std::fs::read_to_string(golden(file)).unwrap();
        assert_eq!(
            text.matches("\r\n").count(),
            text.matches('\n').count(),
            "{file}"
        );
    }
}

/// In place, a file with nothing to change is not written (its mtime
/// stays), and one that changes is.
#[test]
fn in_place_leaves_unchanged_files_untouched() {
    let tmp = tempfile::tempdir().unwrap();
    let unchanged = tmp.path().join("unchanged.yaml");
    let changed = tmp.path().join("multi.yaml");
    std::fs::copy(golden("unchanged.in.yaml"), &unchanged).unwrap();
    std::fs::copy(golden("multi.in.yaml"), &changed).unwrap();
    let old = std::time::SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_000_000_000);
    for path in [&unchanged, &changed] {
        std::fs::File::options()
            .write(true)
            .open(path)
            .unwrap()
            .set_modified(old)
            .unwrap();
    }
    let mtime = |path: &Path| std::fs::metadata(path).unwrap().modified().unwrap();
    let out = vergate(&[
        "upgrade",
        "--from",
        "1.28",
        "--to",
        "1.34",
        "--in-place",
        unchanged.to_str().unwrap(),
        changed.to_str().unwrap(),
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(
        stderr(&out).ends_with(
            "upgraded 2 files in place (1 changed, 1 left untouched: nothing to change)\n"
        ),
        "{}",
        stderr(&out)
    );
    assert_eq!(mtime(&unchanged), old, "the unchanged file is not written");
    assert_eq!(
        std::fs::read(&unchanged).unwrap(),
        std::fs::read(golden("unchanged.in.yaml")).unwrap()
    );
    assert_ne!(mtime(&changed), old);
    assert_eq!(
        std::fs::read(&changed).unwrap(),
        std::fs::read(golden("multi.out.yaml")).unwrap()
    );
}
