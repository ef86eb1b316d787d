//! Checks custom resources against their CRDs through vergate's library
//! API (`vergate::engine`), as `vergate check --crd` does:
//!
//! ```text
//! cargo run --example validate -- --crd widgets-crd.yaml widget.yaml
//! ```
//!
//! One line per finding (`file:line:column: severity rule: message`), exit
//! code 0 when clean, 1 with an error-level finding, 2 when an input cannot
//! be read or used.

use std::io::Write;
use std::process::ExitCode;
use vergate::engine::{CrdText, Validator};
use vergate::Version;

const USAGE: &str = "usage: validate [--target MINOR] --crd CRD.yaml [--crd …] RESOURCE.yaml…
Checks custom resources (and built-in Kubernetes kinds) against their CRDs,
for Kubernetes MINOR (default: the newest known); exit 0 clean, 1 error-level
findings, 2 input errors.";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut out = std::io::stdout().lock();
    let code = run(&args, &mut out);
    let _ = out.flush();
    ExitCode::from(code)
}

/// The command line `args` (without the program's name): what to check.
struct Request {
    target: Option<Version>,
    crds: Vec<String>,
    resources: Vec<String>,
}

/// Reads `args`; `Err` holds the exit code and what to print.
fn parse(args: &[String]) -> Result<Request, (u8, String)> {
    let mut request = Request {
        target: None,
        crds: Vec::new(),
        resources: Vec::new(),
    };
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        let mut value = |flag: &str| {
            args.next()
                .cloned()
                .ok_or_else(|| (2, format!("error: {flag} needs a value\n{USAGE}")))
        };
        match arg.as_str() {
            "-h" | "--help" => return Err((0, USAGE.to_owned())),
            "--crd" => request.crds.push(value("--crd")?),
            "--target" => {
                let text = value("--target")?;
                let minor = text
                    .parse()
                    .map_err(|err| (2, format!("error: --target {text}: {err}")))?;
                request.target = Some(minor);
            }
            flag if flag.starts_with('-') => {
                return Err((2, format!("error: unknown option {flag}\n{USAGE}")))
            }
            file => request.resources.push(file.to_owned()),
        }
    }
    if request.resources.is_empty() {
        return Err((2, format!("error: no resource to check\n{USAGE}")));
    }
    Ok(request)
}

/// Runs the example on `args`, writing to `out`; the exit code.
fn run(args: &[String], out: &mut impl Write) -> u8 {
    let request = match parse(args) {
        Ok(request) => request,
        Err((code, message)) => {
            let _ = writeln!(out, "{message}");
            return code;
        }
    };
    let read = |file: &String| {
        std::fs::read_to_string(file).map_err(|err| format!("{file}: error: cannot read: {err}"))
    };
    let mut code = 0;
    let mut crd_texts = Vec::new();
    for file in &request.crds {
        match read(file) {
            Ok(text) => crd_texts.push((file, text)),
            Err(message) => {
                let _ = writeln!(out, "{message}");
                code = 2;
            }
        }
    }
    let crds: Vec<CrdText> = crd_texts
        .iter()
        .map(|(file, text)| CrdText { file, text })
        .collect();
    // Built once; `check_text` takes `&self`, so one validator serves any
    // number of files (and threads).
    // Kubernetes documents do not say which minor they are for: without
    // --target, the newest minor the embedded index knows.
    let validator = Validator::kubernetes();
    let newest = validator.tables().versions().last().copied();
    let (validator, errors) = validator.target(request.target.or(newest)).with_crds(&crds);
    for error in &errors {
        let _ = writeln!(out, "{}: error: {}", error.file, error.message);
        code = 2;
    }
    for file in &request.resources {
        let text = match read(file) {
            Ok(text) => text,
            Err(message) => {
                let _ = writeln!(out, "{message}");
                code = 2;
                continue;
            }
        };
        let report = validator.check_text(file, &text);
        for error in &report.errors {
            let _ = writeln!(out, "{file}:{}: error: {}", error.line, error.message);
            code = 2;
        }
        for finding in &report.findings {
            let violation = &finding.violation;
            // The column of the offending key, from its byte span.
            let column = finding.span.as_ref().map_or(1, |span| {
                let line_start = text[..span.start].rfind('\n').map_or(0, |at| at + 1);
                text[line_start..span.start].chars().count() + 1
            });
            let _ = writeln!(
                out,
                "{file}:{}:{column}: {} {}: {}",
                violation.line,
                violation.severity,
                violation.rule.id(),
                violation.message
            );
            if violation.severity.is_error() && code == 0 {
                code = 1;
            }
        }
        if report.errors.is_empty() && report.findings.is_empty() {
            let _ = writeln!(out, "{file}: ok ({} documents)", report.documents);
        }
    }
    code
}

#[cfg(test)]
mod tests {
    use super::run;

    /// The example run from the repository's root on `args`: its exit code
    /// and output.
    fn validate(args: &[&str]) -> (u8, String) {
        let root = env!("CARGO_MANIFEST_DIR");
        let args: Vec<String> = args
            .iter()
            .map(|arg| match arg.strip_prefix("tests/") {
                Some(_) => format!("{root}/{arg}"),
                None => (*arg).to_owned(),
            })
            .collect();
        let mut out = Vec::new();
        let code = run(&args, &mut out);
        let text = String::from_utf8(out)
            .unwrap()
            .replace(&format!("{root}/"), "");
        (code, text)
    }

    /// The widgets CRD with its look-ahead `pattern` (which Go's regexp
    /// refuses, so the API server would refuse the CRD and serve no
    /// widget) replaced by one the server takes: a file of this process's.
    fn crd() -> String {
        static PATH: std::sync::OnceLock<String> = std::sync::OnceLock::new();
        PATH.get_or_init(|| {
            let root = env!("CARGO_MANIFEST_DIR");
            let text =
                std::fs::read_to_string(format!("{root}/tests/custom-resources/widgets-crd.yaml"))
                    .unwrap()
                    .replace("^(?!kube-).*$", "^[a-z-]*$");
            let path = std::env::temp_dir().join(format!(
                "vergate-validate-{}-widgets-crd.yaml",
                std::process::id()
            ));
            std::fs::write(&path, text).unwrap();
            path.to_str().unwrap().to_owned()
        })
        .clone()
    }

    #[test]
    fn a_good_resource_passes() {
        let (code, out) = validate(&["--crd", &crd(), "tests/custom-resources/example/good.yaml"]);
        assert_eq!(
            (code, out.as_str()),
            (
                0,
                "tests/custom-resources/example/good.yaml: ok (1 documents)\n"
            )
        );
    }

    #[test]
    fn a_bad_resource_fails_at_its_keys() {
        let (code, out) = validate(&["--crd", &crd(), "tests/custom-resources/example/bad.yaml"]);
        assert_eq!(code, 1, "{out}");
        let bad = "tests/custom-resources/example/bad.yaml";
        assert!(
            out.contains(&format!("{bad}:8:3: error ")) && out.contains("huge"),
            "the enum finding at tier's key: {out}"
        );
        assert!(
            out.contains("more than ten replicas need the large tier"),
            "the CEL rule's finding: {out}"
        );
    }

    #[test]
    fn help_and_misuse() {
        let (code, out) = validate(&["--help"]);
        assert_eq!(code, 0);
        assert!(out.starts_with("usage: validate"), "{out}");
        let (code, out) = validate(&["--crd"]);
        assert_eq!(code, 2);
        assert!(out.starts_with("error: --crd needs a value"), "{out}");
        let (code, out) = validate(&["--crd", "tests/custom-resources/example/good.yaml", &crd()]);
        assert_eq!(code, 2, "{out}");
        assert!(out.contains("no CustomResourceDefinition in it"), "{out}");
    }
}
