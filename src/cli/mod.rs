//! The `vergate` command line: arguments, and one module per subcommand.

mod atomic_write;
mod cases;
pub mod check;
mod config;
mod crd_inputs;
pub mod diff;
pub mod editor;
mod inputs;
mod json_report;
mod junit;
mod read;
mod results;
mod sarif;
mod tap;
mod text;
pub mod upgrade;
pub mod versions;

pub use vergate::cli_args::{
    CheckArgs, Cli, ColorChoice, Command, DiffArgs, Editor, EditorArgs, PlainReportFormat,
    ReportFormat, UpgradeArgs, VersionsArgs,
};
use vergate::tables::GateTables;
use vergate::Version;

/// How a run ended; the process exit code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Outcome {
    /// Nothing to report.
    Clean = 0,
    /// Violations found (or an upgrade lost something).
    Violations = 1,
    /// A usage or input error.
    InputError = 2,
}

/// Loads the gate tables of `--api DIR`, or the embedded Kubernetes ones
/// without it, or says why not (one line on stderr).
pub fn load_tables(api: Option<&std::path::Path>) -> Result<GateTables, Outcome> {
    let Some(api) = api else {
        return Ok(vergate::embedded::kubernetes());
    };
    GateTables::load(api).map_err(|err| {
        eprintln!("error: {err}");
        Outcome::InputError
    })
}

/// Checks that `version` is a minor of the API, or says so on stderr.
pub fn known_minor(tables: &GateTables, flag: &str, version: Version) -> Result<(), Outcome> {
    if tables.has_version(version) {
        return Ok(());
    }
    if let Some(newest) = tables.versions().last().filter(|newest| version > **newest) {
        eprintln!(
            "error: {flag} {version}: newer than the data: the newest minor {} knows is {newest}; \
             check against {newest}, or regenerate the API with {version}'s spec",
            tables.api()
        );
        return Err(Outcome::InputError);
    }
    eprintln!(
        "error: {flag} {version}: {} has no minor {version} (its minors: {})",
        tables.api(),
        tables.versions_text()
    );
    Err(Outcome::InputError)
}

/// Prints JSON to stdout as it is written: a report of thousands of
/// documents is not held as one text first (its growing copies were a
/// tenth of a large check's fresh memory).
pub fn print_json(value: &impl serde::Serialize) {
    use std::io::Write;
    let mut out = std::io::BufWriter::with_capacity(64 << 10, std::io::stdout().lock());
    let written = serde_json::to_writer_pretty(&mut out, value)
        .map_err(std::io::Error::from)
        .and_then(|()| out.write_all(b"\n"))
        .and_then(|()| out.flush());
    if let Err(err) = written {
        unwritten(&err);
    }
}

/// Writes to stdout; a closed pipe (`vergate diff … | head`) ends quietly.
pub fn write_out(text: &str) {
    write_out_with(std::io::stdout().lock(), text);
}

/// Writes to `out` (stdout, perhaps through a colour filter); a closed pipe
/// ends quietly.
pub fn write_out_with(out: impl std::io::Write, text: &str) {
    write_bytes_out(out, text.as_bytes());
}

/// [`write_out_with`] for bytes that may not be UTF-8 (a file's text in its
/// own encoding).
pub fn write_bytes_out(mut out: impl std::io::Write, bytes: &[u8]) {
    if let Err(err) = out.write_all(bytes).and_then(|()| out.flush()) {
        unwritten(&err);
    }
}

/// Says why stdout could not be written, unless it was a closed pipe.
fn unwritten(err: &std::io::Error) {
    if err.kind() != std::io::ErrorKind::BrokenPipe {
        eprintln!("error: cannot write to standard output: {err}");
    }
}
