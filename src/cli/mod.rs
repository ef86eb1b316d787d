//! The `vergate` command line: arguments, and one module per subcommand.

pub mod check;
pub mod diff;
mod inputs;
mod sarif;
pub mod upgrade;
pub mod versions;

use clap::{Parser, Subcommand, ValueEnum};
use std::path::PathBuf;
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

#[derive(Parser, Debug)]
#[command(name = "vergate", version, about = "Check, upgrade and compare documents across the minors of an API", long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Check documents against a target minor (exit 0 clean, 1 violations, 2 input errors).
    Check(CheckArgs),
    /// Rewrite a document for a newer minor (renames applied, losses reported).
    Upgrade(UpgradeArgs),
    /// What a newer minor adds, removes and deprecates.
    Diff(DiffArgs),
    /// The version subtrees an installed package ships, and the default.
    Versions(VersionsArgs),
}

/// Output formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    Json,
    Sarif,
}

/// Output formats without SARIF.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum PlainFormat {
    Text,
    Json,
}

#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    /// The generated API directory holding gates.json (e.g. generated/kubernetes).
    #[arg(long, value_name = "DIR")]
    pub api: PathBuf,
    /// The minor to check against: 1.29, v1.29, 1.29.3, or a version as a
    /// cluster prints it (v1.29.4-gke.1043000, v1.31.0+a2c84a5). Optional for
    /// documents that carry their own minor in apiVersion: they are checked
    /// against it.
    #[arg(long, value_name = "VERSION", value_parser = cluster_version)]
    pub target: Option<Version>,
    /// Also report fields, enum values and kinds the API does not know, and
    /// make documents without apiVersion/kind and templates found in a
    /// directory input errors instead of skipping them.
    #[arg(long)]
    pub strict: bool,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Kinds not to check (comma-separated, repeatable), e.g. Secret,ConfigMap.
    #[arg(long, value_name = "KIND[,KIND]", value_delimiter = ',')]
    pub skip: Vec<String>,
    /// Kinds refused outright: each document of them is an error (rule
    /// rejected-kind). Comma-separated, repeatable.
    #[arg(long, value_name = "KIND[,KIND]", value_delimiter = ',')]
    pub reject: Vec<String>,
    /// Leave out of directory walks what this glob matches (gitignore
    /// syntax, relative to the directory given: `values*.yaml`, `charts/`,
    /// `/ci/**`). Repeatable. Files named on the command line are read.
    #[arg(long, value_name = "GLOB", value_parser = inputs::ignore_glob)]
    pub ignore: Vec<String>,
    /// Also search hidden directories and files (skipped by default).
    #[arg(long)]
    pub hidden: bool,
    /// Also search what .gitignore and .ignore files list (skipped by default).
    #[arg(long)]
    pub no_ignore: bool,
    /// YAML or JSON files (multi-document too), directories (searched for
    /// *.yaml, *.yml, *.json in any case), or - for standard input. With
    /// none, standard input is read when something is piped in.
    #[arg(value_name = "FILE|DIR|-")]
    pub inputs: Vec<PathBuf>,
}

#[derive(clap::Args, Debug)]
pub struct UpgradeArgs {
    /// The generated API directory holding gates.json.
    #[arg(long, value_name = "DIR")]
    pub api: PathBuf,
    /// The minor the document is written for; defaults to its own apiVersion.
    #[arg(long, value_name = "VERSION", value_parser = cluster_version)]
    pub from: Option<Version>,
    /// The minor to upgrade to (not older than --from).
    #[arg(
        long,
        value_name = "VERSION",
        value_parser = cluster_version,
        required_unless_present = "all",
        conflicts_with = "all"
    )]
    pub to: Option<Version>,
    /// Write the document once for every minor it holds in without loss,
    /// ascending, as multi-document YAML.
    #[arg(long)]
    pub all: bool,
    /// Write here instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Overwrite the input file.
    #[arg(long, conflicts_with = "output")]
    pub in_place: bool,
    /// The YAML or JSON file, or - for standard input.
    #[arg(value_name = "FILE|-")]
    pub input: PathBuf,
}

#[derive(clap::Args, Debug)]
pub struct DiffArgs {
    /// The older minor.
    #[arg(value_parser = cluster_version)]
    pub old: Version,
    /// The newer minor.
    #[arg(value_parser = cluster_version)]
    pub new: Version,
    /// The generated API directory holding gates.json.
    #[arg(long, value_name = "DIR")]
    pub api: PathBuf,
    #[arg(long, value_enum, default_value_t = PlainFormat::Text)]
    pub format: PlainFormat,
}

#[derive(clap::Args, Debug)]
pub struct VersionsArgs {
    /// An installed schema package (a directory with v<X.Y>/ subtrees).
    pub package: PathBuf,
    #[arg(long, value_enum, default_value_t = PlainFormat::Text)]
    pub format: PlainFormat,
}

/// Reads a version argument as a cluster prints it (`v1.29.4-gke.1043000`
/// is the minor 1.29); see [`Version::parse_cluster`].
fn cluster_version(text: &str) -> Result<Version, vergate::ParseVersionError> {
    Version::parse_cluster(text)
}

/// Loads the gate tables or says why not (one line on stderr).
pub fn load_tables(api: &std::path::Path) -> Result<GateTables, Outcome> {
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

/// Prints JSON to stdout.
pub fn print_json(value: &serde_json::Value) {
    let mut text = serde_json::to_string_pretty(value).expect("JSON values always serialize");
    text.push('\n');
    write_out(&text);
}

/// Writes to stdout; a closed pipe (`vergate diff … | head`) ends quietly.
pub fn write_out(text: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    if let Err(err) = out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        if err.kind() != std::io::ErrorKind::BrokenPipe {
            eprintln!("error: cannot write to standard output: {err}");
        }
    }
}
