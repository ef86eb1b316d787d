//! `vergate check` on hostile and unusual input: bounded resources, text
//! encodings, directory walks, standard input, YAML read the way Kubernetes
//! reads it, duplicate keys and mistyped kinds.

mod support;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;
use support::capped::children_cpu_time;
use support::cli::{code, stderr, stdout};
use support::root;

const DEMO: &str = "generated/demo";
const GOOD: &str = "tests/cli/demo/pipeline.yaml";
/// The first line `vergate check` prints for GOOD.
const GOOD_LINE: &str =
    "tests/cli/demo/pipeline.yaml:14: Pipeline build-web: spec.steps[0].runtime";

/// Runs `vergate` from the repository root under a 2 GiB address-space cap
/// (`ulimit -v`) and a 30 s time limit, with `stdin` piped in when given.
/// Returns its output and the CPU time (user + system) it used: unlike wall
/// time, that does not grow when other tests load the machine, so a bound on
/// it tells a slow input from a busy machine. A hang still ends at the 30 s
/// limit, with `timeout`'s exit code 124, which no test accepts.
fn vergate_capped(args: &[&str], stdin: Option<&[u8]>) -> (Output, Duration) {
    let times = tempfile::NamedTempFile::new().expect("a temporary file");
    let mut command = Command::new("sh");
    command
        .arg("-c")
        .arg(
            "ulimit -v 2097152 && timeout 30 \"$0\" \"$@\"; code=$?; \
             times > \"$VERGATE_TEST_TIMES\"; exit $code",
        )
        .arg(env!("CARGO_BIN_EXE_vergate"))
        .args(args)
        .env("VERGATE_TEST_TIMES", times.path())
        .current_dir(root())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        });
    let mut child = command.spawn().expect("sh runs");
    if let Some(bytes) = stdin {
        let mut pipe = child.stdin.take().expect("stdin is piped");
        pipe.write_all(bytes).expect("stdin takes the input");
    }
    let output = child.wait_with_output().expect("vergate finishes");
    let times = std::fs::read_to_string(times.path()).expect("sh wrote its times");
    (output, children_cpu_time(&times))
}

fn vergate(args: &[&str]) -> Output {
    vergate_capped(args, None).0
}

fn write(dir: &Path, name: &str, bytes: impl AsRef<[u8]>) -> PathBuf {
    let path = dir.join(name);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, bytes).unwrap();
    path
}

/// A demo document with one violation: `shell` is not in 1.10.
const DEMO_DOC: &str = "apiVersion: \"1.10\"\nkind: Pipeline\nmetadata:\n  name: x\nspec:\n  steps:\n    - name: a\n      shell: bash\n";

fn laughs() -> String {
    let mut text = String::from("apiVersion: \"1.10\"\nkind: Pipeline\nmetadata:\n  name: x\n  labels:\n    a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
    for level in 1..=9 {
        let aliases = vec![format!("*a{}", level - 1); 9].join(", ");
        text.push_str(&format!("    a{level}: &a{level} [{aliases}]\n"));
    }
    text
}

#[test]
fn hostile_files_are_input_errors_with_a_line_and_the_good_file_is_still_checked() {
    let dir = tempfile::tempdir().unwrap();
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        ("laughs.yaml", laughs().into_bytes(), "excessive aliasing"),
        (
            "deep-sequences.yaml",
            format!(
                "apiVersion: \"1.10\"\nkind: Pipeline\nspec:\n  steps:\n  {}x\n",
                "- ".repeat(10_000)
            )
            .into_bytes(),
            "nested more than 1000 levels",
        ),
        (
            "deep-mappings.yaml",
            (0..10_000)
                .map(|depth| format!("{}k:\n", " ".repeat(depth)))
                .collect::<String>()
                .into_bytes(),
            "nested more than 1000 levels",
        ),
        (
            "nul.yaml",
            b"apiVersion: \"1.10\"\nkind: Pipeline\x00\n".to_vec(),
            "a NUL character",
        ),
        (
            "latin1.yaml",
            b"apiVersion: \"1.10\"\nkind: Pipeline\nmetadata:\n  name: caf\xe9\n".to_vec(),
            "not UTF-8 text",
        ),
    ];
    for (name, bytes, expected) in cases {
        let path = write(dir.path(), name, bytes);
        let path = path.to_str().unwrap();
        let (out, took) = vergate_capped(&["check", "--api", DEMO, path, GOOD], None);
        assert_eq!(code(&out), 2, "{name}: {}", stderr(&out));
        assert!(took < Duration::from_secs(5), "{name} took {took:?}");
        let errors = stderr(&out);
        let line = errors
            .lines()
            .find(|line| line.starts_with(path))
            .unwrap_or_else(|| panic!("{name}: no error line in\n{errors}"));
        assert!(line.contains(expected), "{name}: {line}");
        let place = line[path.len()..].split(':').nth(1).unwrap();
        assert!(
            place.parse::<u32>().is_ok_and(|n| n > 0),
            "{name}: no line number in {line}"
        );
        assert!(
            stdout(&out).contains(GOOD_LINE),
            "{name}: the good file was not checked"
        );
    }
}

#[test]
fn byte_order_marks_are_read_as_kubectl_reads_them() {
    let dir = tempfile::tempdir().unwrap();
    let utf8 = write(
        dir.path(),
        "utf8-bom.yaml",
        [b"\xEF\xBB\xBF".as_slice(), DEMO_DOC.as_bytes()].concat(),
    );
    let utf16: Vec<u8> = [0xFF, 0xFE]
        .into_iter()
        .chain(DEMO_DOC.encode_utf16().flat_map(u16::to_le_bytes))
        .collect();
    let utf16 = write(dir.path(), "utf16.yaml", utf16);
    for path in [utf8, utf16] {
        let path = path.to_str().unwrap();
        let out = vergate(&["check", "--api", DEMO, path]);
        assert_eq!(code(&out), 1, "{path}: {}", stderr(&out));
        assert_eq!(
            stdout(&out),
            format!("{path}:8: Pipeline x: spec.steps[0].shell: not available in 1.10 (present in 1.9, 1.11, 1.12)\n")
        );
    }
}

#[cfg(unix)]
#[test]
fn a_symbolic_link_loop_is_followed_once_and_each_file_checked_once() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "docs/one.yaml", DEMO_DOC);
    std::os::unix::fs::symlink("..", dir.path().join("docs/loop")).unwrap();
    std::os::unix::fs::symlink("one.yaml", dir.path().join("docs/again.yaml")).unwrap();
    let docs = dir.path().join("docs");
    let (out, took) = vergate_capped(&["check", "--api", DEMO, docs.to_str().unwrap()], None);
    assert!(took < Duration::from_secs(5), "took {took:?}");
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    assert_eq!(stdout(&out).lines().count(), 1, "{}", stdout(&out));
    assert!(
        stderr(&out).contains("checked 1 document"),
        "{}",
        stderr(&out)
    );
    assert!(
        stderr(&out).contains("symbolic link loop"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn directory_walks_skip_hidden_and_ignored_entries_and_read_any_extension_case() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "UPPER.YAML", DEMO_DOC);
    write(dir.path(), "Mixed.Yml", DEMO_DOC);
    write(dir.path(), ".hidden/one.yaml", DEMO_DOC);
    write(dir.path(), ".dot.yaml", DEMO_DOC);
    write(dir.path(), "build/out.yaml", DEMO_DOC);
    write(dir.path(), "notes.txt", "not a document");
    write(dir.path(), ".gitignore", "build/\n");
    let path = dir.path().to_str().unwrap();
    let out = vergate(&["check", "--api", DEMO, path]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("UPPER.YAML:8:") && text.contains("Mixed.Yml:8:"),
        "{text}"
    );
    assert_eq!(text.lines().count(), 2, "{text}");
    let out = vergate(&["check", "--api", DEMO, "--hidden", "--no-ignore", path]);
    assert_eq!(stdout(&out).lines().count(), 5, "{}", stdout(&out));
    // A file named on the command line is read even when hidden.
    let hidden = dir.path().join(".dot.yaml");
    let out = vergate(&["check", "--api", DEMO, hidden.to_str().unwrap()]);
    assert_eq!(stdout(&out).lines().count(), 1, "{}", stdout(&out));
}

#[test]
fn standard_input_is_read_when_no_path_is_given() {
    let (out, _) = vergate_capped(&["check", "--api", DEMO], Some(DEMO_DOC.as_bytes()));
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "<stdin>:8: Pipeline x: spec.steps[0].shell: not available in 1.10 (present in 1.9, 1.11, 1.12)\n"
    );
}

#[test]
fn duplicate_keys_warn_naming_both_lines_and_the_last_value_is_checked() {
    let dir = tempfile::tempdir().unwrap();
    // The first runtime is accepted in 1.10, the last is not: the last is
    // what kubectl sends, so it is the one checked.
    let doc = "apiVersion: \"1.10\"\nkind: Pipeline\nmetadata:\n  name: x\nspec:\n  steps:\n    - name: a\n      runtime: docker\n      runtime: wasm\n";
    let path = write(dir.path(), "dup.yaml", doc);
    let path = path.to_str().unwrap();
    let out = vergate(&["check", "--api", DEMO, path]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let said = stdout(&out);
    assert!(
        said.contains(&format!(
            "{path}:9: warning: Pipeline x: spec.steps[0].runtime: duplicate key \"runtime\", first written on line 8"
        )),
        "{said}"
    );
    assert!(
        said.contains(&format!(
            "{path}:9: Pipeline x: spec.steps[0].runtime: value \"wasm\" is not available in 1.10"
        )),
        "{said}"
    );
}

/// kubectl sends a duplicate key's last value alone and the API server
/// accepts the document: a warning, so `check` passes; `--strict` and
/// `--rule duplicate-key=error` refuse it.
#[test]
fn a_duplicate_key_alone_passes_with_a_warning_and_fails_with_strict() {
    let dir = tempfile::tempdir().unwrap();
    let doc = "apiVersion: \"1.10\"\nkind: Pipeline\nmetadata:\n  name: x\nspec:\n  steps:\n    - name: a\n      runtime: wasm\n      runtime: docker\n";
    let path = write(dir.path(), "dup.yaml", doc);
    let path = path.to_str().unwrap();
    let out = vergate(&["check", "--api", DEMO, path]);
    assert_eq!(code(&out), 0, "{}{}", stdout(&out), stderr(&out));
    assert!(
        stdout(&out).contains("warning: Pipeline x: spec.steps[0].runtime: duplicate key"),
        "{}",
        stdout(&out)
    );
    for refusing in [&["--strict"][..], &["--rule", "duplicate-key=error"]] {
        let mut args = vec!["check", "--api", DEMO];
        args.extend_from_slice(refusing);
        args.push(path);
        let out = vergate(&args);
        assert_eq!(code(&out), 1, "{refusing:?}: {}", stderr(&out));
        assert!(
            stdout(&out).contains(&format!(
                "{path}:9: Pipeline x: spec.steps[0].runtime: duplicate key \"runtime\", first written on line 8"
            )),
            "{refusing:?}: {}",
            stdout(&out)
        );
    }
}

#[test]
fn a_mistyped_kind_of_the_api_is_an_error_with_the_nearest_kind() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(
        dir.path(),
        "typo.yaml",
        "apiVersion: \"1.10\"\nkind: Pipline\nmetadata:\n  name: x\n",
    );
    let path = path.to_str().unwrap();
    let out = vergate(&["check", "--api", DEMO, path]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        format!(
            "{path}:2: Pipline x: 1.10 Pipline: no such kind in demo; did you mean Pipeline?\n"
        )
    );
}

#[test]
fn json_text_that_is_not_json_is_read_as_yaml_as_apimachinery_0_33_does() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(
        dir.path(),
        "doc.json",
        "{\"apiVersion\": \"1.10\", \"kind\": \"Pipeline\",\n \"metadata\": {\"name\": yes}}\n",
    );
    let path = path.to_str().unwrap();
    let out = vergate(&["check", "--api", DEMO, path]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    assert!(
        stdout(&out).contains(&format!(
            "{path}:2: Pipeline: metadata.name: expected a string (string in 1.10), found a boolean"
        )),
        "{}",
        stdout(&out)
    );
    // A stream of JSON objects stays JSON after its first one: a value that
    // is not JSON there is an input error at its line.
    let path = write(
        dir.path(),
        "stream.json",
        "{\"apiVersion\": \"1.10\", \"kind\": \"Pipeline\",\n \"metadata\": {\"name\": \"x\"}}\n{\"apiVersion\": \"1.10\", \"kind\": \"Pipeline\",\n \"metadata\": {\"name\": yes}}\n",
    );
    let path = path.to_str().unwrap();
    let out = vergate(&["check", "--api", DEMO, path]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert!(
        stderr(&out).contains(&format!("{path}:4: error: invalid JSON")),
        "{}",
        stderr(&out)
    );
    assert!(
        stdout(&out).contains(&format!("{path}:1: Pipeline x")),
        "{}",
        stdout(&out)
    );
}

/// The Kubernetes gates, or `None` (and a note) when they are not built.
fn kubernetes_gates(test: &str) -> Option<&'static str> {
    if root().join("generated/kubernetes/gates.json").is_file() {
        return Some("generated/kubernetes");
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "{test}: CI must run `cargo xtask regen --api kubernetes` first"
    );
    eprintln!("{test}: skipped, run `cargo xtask regen --api kubernetes` first");
    None
}

#[test]
fn kubernetes_yaml_1_1_scalars_are_read_as_kubectl_reads_them() {
    let Some(api) = kubernetes_gates("kubernetes_yaml_1_1_scalars_are_read_as_kubectl_reads_them")
    else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let doc = "\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels: {enabled: on}
spec:
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: web
        image: nginx
        env:
        - name: DEBUG
          value: yes
        volumeMounts:
        - name: data
          mountPath: /data
          readOnly: yes
      volumes:
      - name: data
        emptyDir: {}
";
    let path = write(dir.path(), "deployment.yaml", doc);
    let path = path.to_str().unwrap();
    let out = vergate(&["check", "--api", api, "--target", "1.33", path]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        format!(
            "{path}:5: Deployment web: metadata.labels.enabled: expected a string (string in 1.33), found a boolean\n\
             {path}:18: Deployment web: spec.template.spec.containers[0].env[0].value: expected a string (string in 1.33), found a boolean\n"
        )
    );
}

#[test]
fn kubernetes_a_mistyped_built_in_kind_and_a_custom_one_without_its_crd_are_errors() {
    let Some(api) = kubernetes_gates(
        "kubernetes_a_mistyped_built_in_kind_and_a_custom_one_without_its_crd_are_errors",
    ) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let doc = "apiVersion: apps/v1\nkind: Deploymnet\nmetadata:\n  name: x\n---\napiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: x\n";
    let path = write(dir.path(), "kinds.yaml", doc);
    let path = path.to_str().unwrap();
    let out = vergate(&["check", "--api", api, "--target", "1.33", path]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        format!(
            "{path}:2: Deploymnet x: apps/v1 Deploymnet: no such kind in apps/v1; did you mean Deployment?\n\
             {path}:7: Widget x: example.com/v1 Widget: 1.33 serves no such group/version/kind (kubernetes serves no group \"example.com\": a custom resource's, and no CRD for it was given); pass its CRD with --crd FILE (or among the inputs), or --rule unknown-kind=warning to leave it unchecked\n"
        )
    );
}

/// Every seed of the `check_input` fuzz target (the cases above, and every
/// crash fuzzing found) ends in an exit code, within bounds, never a signal.
#[test]
fn every_fuzz_seed_ends_in_an_exit_code_within_bounds() {
    let seeds = root().join("tests/fuzz/seeds/check_input");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&seeds)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .collect();
    paths.sort();
    assert!(paths.len() >= 20, "seeds missing in {}", seeds.display());
    for path in paths {
        let path = path.to_str().unwrap();
        for strict in [false, true] {
            let mut args = vec!["check", "--api", DEMO, path, GOOD];
            if strict {
                args.insert(1, "--strict");
            }
            let (out, took) = vergate_capped(&args, None);
            assert!(took < Duration::from_secs(5), "{path} took {took:?}");
            assert!((0..=2).contains(&code(&out)), "{path}: {}", stderr(&out));
            assert!(
                stdout(&out).contains(GOOD_LINE),
                "{path}: the good file was not checked"
            );
        }
    }
}

/// Runs `vergate` with a terminal as its standard input (through `script`,
/// from util-linux: Debian's essential package bsdutils), feeding `typed`.
fn vergate_on_a_terminal(args: &str, typed: &[u8]) -> Output {
    let available = Command::new("script")
        .arg("--version")
        .output()
        .is_ok_and(|out| out.status.success());
    assert!(
        available,
        "this test needs `script` (util-linux; Debian: bsdutils) to give vergate a terminal"
    );
    let command = format!("{} {args}", env!("CARGO_BIN_EXE_vergate"));
    let mut child = Command::new("timeout")
        .args(["10", "script", "-qec", &command, "/dev/null"])
        .current_dir(root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("script runs");
    let mut pipe = child.stdin.take().unwrap();
    pipe.write_all(typed).unwrap();
    drop(pipe);
    child.wait_with_output().unwrap()
}

#[test]
fn a_terminal_gets_a_usage_error_without_a_path_and_a_hint_with_a_dash() {
    let out = vergate_on_a_terminal(&format!("check --api {DEMO}"), b"");
    assert_eq!(code(&out), 2, "{}", stdout(&out));
    assert!(
        stdout(&out).contains("error: no input: name files or directories, or pipe documents in"),
        "{}",
        stdout(&out)
    );
    let out = vergate_on_a_terminal(&format!("check --api {DEMO} -"), DEMO_DOC.as_bytes());
    // `script` puts the terminal's output, stderr included, on its stdout.
    assert!(
        stdout(&out)
            .contains("reading documents from standard input (the terminal); end with Ctrl-D"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn a_file_over_a_mebibyte_is_read_in_halves_and_checked_whole() {
    // Large files are read in two halves at once (`cli/inputs.rs`): the
    // findings at the start, across the middle and at the end are all
    // there, on their lines.
    let filler = format!(
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: filler\ndata:\n  text: {}\n",
        "x".repeat(1000)
    );
    let service = |pad: usize| {
        format!(
            "apiVersion: v1\nkind: Service\nmetadata:\n  name: s\n  annotations:\n    pad: {}\nspec:\n  trafficDistribution: PreferClose\n  ports:\n  - port: 80\n",
            "p".repeat(pad)
        )
    };
    // A service as long as a filler, so that one can stand in the middle.
    let service = service(filler.len() - service(0).len());
    assert_eq!(service.len(), filler.len());
    let count = 1201;
    // The document holding the text's middle byte (each but the first
    // follows a `---` line).
    let length = count * filler.len() + (count - 1) * 4;
    let middle = length / 2 / (filler.len() + 4);
    let mut text = String::new();
    let mut expected = Vec::new();
    let mut line = 1;
    for index in 0..count {
        if index > 0 {
            text.push_str("---\n");
            line += 1;
        }
        let doc = if [0, middle, count - 1].contains(&index) {
            expected.push(line + 7);
            &service
        } else {
            &filler
        };
        text.push_str(doc);
        line += doc.lines().count();
    }
    assert!(text.len() > 1 << 20);
    let half = text.len() / 2;
    let middle_start = middle * (filler.len() + 4);
    assert!((middle_start..middle_start + service.len()).contains(&half));
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "large.yaml", &text);
    let path = path.to_str().unwrap();
    let output = vergate(&["check", "--target", "1.29", path]);
    let out = stdout(&output);
    assert_eq!(code(&output), 1, "{out}{}", stderr(&output));
    let found: Vec<&str> = out.lines().collect();
    assert_eq!(found.len(), 3, "{out}");
    for (finding, line) in found.iter().zip(&expected) {
        let prefix = format!("{path}:{line}: Service s: spec.trafficDistribution: ");
        assert!(
            finding.starts_with(&prefix),
            "{finding} (expected {prefix})"
        );
    }
}
