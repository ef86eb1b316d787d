//! The `vergate` command's arguments, as clap reads them.
//!
//! They live in the library (behind the `args` feature) so that both the
//! binary and `cargo xtask completions` / `cargo xtask man` reach the same
//! [`clap::Command`] through [`command`].

use crate::Version;
use clap::{CommandFactory, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

/// The clap command of `vergate`, for shell completions and the man page.
pub fn command() -> clap::Command {
    Cli::command()
}

/// `vergate`: its subcommand.
#[derive(Parser, Debug)]
#[command(name = "vergate", version, about = "Check, upgrade and compare documents across the minors of an API", long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Check documents against a target minor (exit 0 clean, 1 violations, 2 input errors).
    Check(CheckArgs),
    /// Rewrite documents for a newer minor (renames applied, losses reported).
    Upgrade(UpgradeArgs),
    /// What a newer minor adds, removes and deprecates.
    Diff(DiffArgs),
    /// The version subtrees an installed package ships, and the default;
    /// without a package, the minors of the embedded Kubernetes gates.
    Versions(VersionsArgs),
    /// Settings for editors' YAML language server (yaml-language-server):
    /// vergate's JSON Schemas of one minor, for a repository or one file.
    Editor(EditorArgs),
    /// The language server: `vergate check`'s findings, hover, completion
    /// and fixes in an editor, over standard input and output (LSP).
    Lsp(LspArgs),
}

/// Output formats of `check`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ReportFormat {
    /// One line per finding, like a compiler's; the summary on stderr.
    Text,
    /// Findings, input errors, skipped documents and a summary.
    Json,
    /// SARIF 2.1.0, for code-scanning dashboards.
    Sarif,
    /// JUnit XML: a testsuite per file, a testcase per resource.
    Junit,
    /// TAP 14: a test point per resource, findings as YAML diagnostics.
    Tap,
}

/// When to colour text output.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    /// On a terminal, unless NO_COLOR is set (CLICOLOR_FORCE forces it).
    Auto,
    Always,
    Never,
}

/// Output formats without SARIF.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum PlainReportFormat {
    Text,
    Json,
}

/// `vergate check`.
#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    /// The generated API directory holding gates.json (e.g. generated/demo,
    /// or a newer regen of generated/kubernetes). Default: the Kubernetes
    /// gates embedded in the binary (`vergate versions` lists their minors).
    #[arg(long, value_name = "DIR")]
    pub api: Option<PathBuf>,
    /// The minor to check against: 1.29, v1.29, 1.29.3, or a version as a
    /// cluster prints it (v1.29.4-gke.1043000, v1.31.0+a2c84a5). Optional for
    /// documents that carry their own minor in apiVersion: they are checked
    /// against it.
    #[arg(long, value_name = "VERSION", value_parser = cluster_version)]
    pub target: Option<Version>,
    /// Make what the API does not know errors (enum values, kinds, and
    /// unknown fields whatever --validate says), and warnings that may hide
    /// a refusal (a field whose feature gate is off, a custom resource
    /// without its CRD). Documents without apiVersion/kind and templates
    /// found in a directory are skipped and listed all the same.
    #[arg(long)]
    pub strict: bool,
    /// What an unknown, misspelled or misnested field is, as kubectl's
    /// --validate: strict (the default, as `kubectl apply`: an error, the
    /// API server's `strict decoding error: unknown field "spec.replica"`),
    /// warn (the API server's own default, for requests that do not ask,
    /// as Helm's: a warning, the field dropped) or ignore.
    #[arg(long, alias = "field-validation", value_name = "strict|warn|ignore", default_value_t = crate::preflight::FieldValidation::Strict)]
    pub validate: crate::preflight::FieldValidation,
    /// A rule's severity, overriding the default and --strict:
    /// RULE=error, RULE=warning or RULE=off (comma-separated, repeatable),
    /// e.g. removed-ahead=error,unknown-kind=off. The rules are listed in
    /// docs/cli.md.
    #[arg(long = "rule", value_name = "RULE=LEVEL[,…]", value_delimiter = ',', value_parser = rule_setting)]
    pub rules: Vec<(crate::preflight::Rule, Option<crate::preflight::Severity>)>,
    /// The settings file to read (vergate.toml's keys, docs/cli.md),
    /// instead of the nearest vergate.toml at or above the current
    /// directory. Flags given on the command line win over it.
    #[arg(long, value_name = "FILE", conflicts_with = "no_config")]
    pub config: Option<PathBuf>,
    /// Read no vergate.toml.
    #[arg(long)]
    pub no_config: bool,
    #[arg(long, value_enum, default_value_t = ReportFormat::Text)]
    pub format: ReportFormat,
    /// Colour the text output.
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
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
    #[arg(long, value_name = "GLOB", value_parser = ignore_glob)]
    pub ignore: Vec<String>,
    /// Also search hidden directories and files (skipped by default).
    #[arg(long)]
    pub hidden: bool,
    /// Also search what .gitignore and .ignore files list (skipped by default).
    #[arg(long)]
    pub no_ignore: bool,
    /// Feature gates the target cluster sets, as kube-apiserver's flag takes
    /// them: Name=true,Other=false (repeatable). A field behind a gate that
    /// is off (alpha gates are, by default) is reported: the API server
    /// drops it. A warning; an error with --strict.
    #[arg(long, value_name = "NAME=BOOL[,…]", value_delimiter = ',', value_parser = crate::preflight::parse_feature_gate)]
    pub feature_gates: Vec<(String, bool)>,
    /// Threads checking inputs, and the documents of one input, at once;
    /// 0 (the default) uses every core. The output is the same for any
    /// number: results are put back in input order.
    #[arg(long, short = 'j', value_name = "N", default_value_t = 0)]
    pub jobs: usize,
    /// CustomResourceDefinitions to check custom resources against: a YAML
    /// or JSON file (multi-document too), or a directory searched for them.
    /// Repeatable. CRDs found among the inputs are used too.
    #[arg(long, value_name = "FILE|DIR")]
    pub crd: Vec<PathBuf>,
    /// YAML or JSON files (multi-document too), directories (searched for
    /// *.yaml, *.yml, *.json in any case), or - for standard input. With
    /// none, standard input is read when something is piped in.
    #[arg(value_name = "FILE|DIR|-")]
    pub inputs: Vec<PathBuf>,
}

/// `vergate upgrade`.
#[derive(clap::Args, Debug)]
pub struct UpgradeArgs {
    /// The generated API directory holding gates.json (e.g. generated/demo,
    /// or a newer regen of generated/kubernetes). Default: the Kubernetes
    /// gates embedded in the binary (`vergate versions` lists their minors).
    #[arg(long, value_name = "DIR")]
    pub api: Option<PathBuf>,
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
    /// Write here instead of standard output (one input only).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Write every converted file under DIR, mirroring its path: relative
    /// to the directory it was found in, or its file name when named.
    /// Needed (or --in-place) for a directory or several files.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["output", "in_place"])]
    pub out: Option<PathBuf>,
    /// Overwrite each input file.
    #[arg(long, conflicts_with = "output")]
    pub in_place: bool,
    /// YAML or JSON files, directories (searched as `check` does), or - for
    /// standard input. Either every file converts and is written, or
    /// nothing is written.
    #[arg(value_name = "FILE|DIR|-", required = true)]
    pub inputs: Vec<PathBuf>,
}

/// `vergate diff`.
#[derive(clap::Args, Debug)]
pub struct DiffArgs {
    /// The older minor.
    #[arg(value_parser = cluster_version)]
    pub old: Version,
    /// The newer minor.
    #[arg(value_parser = cluster_version)]
    pub new: Version,
    /// The generated API directory holding gates.json (e.g. generated/demo,
    /// or a newer regen of generated/kubernetes). Default: the Kubernetes
    /// gates embedded in the binary (`vergate versions` lists their minors).
    #[arg(long, value_name = "DIR")]
    pub api: Option<PathBuf>,
    #[arg(long, value_enum, default_value_t = PlainReportFormat::Text)]
    pub format: PlainReportFormat,
}

/// `vergate versions`.
#[derive(clap::Args, Debug)]
pub struct VersionsArgs {
    /// An installed schema package (a directory with v<X.Y>/ subtrees).
    /// Without it: the minors of the Kubernetes gates embedded in the binary.
    pub package: Option<PathBuf>,
    #[arg(long, value_enum, default_value_t = PlainReportFormat::Text)]
    pub format: PlainReportFormat,
}

/// `vergate lsp`.
#[derive(clap::Args, Debug)]
pub struct LspArgs {
    /// Talk over standard input and output: the only transport, and the
    /// default (accepted because editors' clients pass it).
    #[arg(long)]
    pub stdio: bool,
}

/// `vergate editor`.
#[derive(clap::Args, Debug)]
pub struct EditorArgs {
    /// The editor to print the set-up of (the same as --editor).
    #[arg(value_enum, value_name = "EDITOR", conflicts_with = "editor")]
    pub which: Option<Editor>,
    /// The minor the files are written for: 1.34, v1.34, or a version as a
    /// cluster prints it. Default: `target` of the nearest vergate.toml at
    /// or above the current directory.
    #[arg(long, value_name = "VERSION", value_parser = cluster_version)]
    pub target: Option<Version>,
    /// What to print: VS Code's settings.json, Neovim's Lua, Helix's
    /// languages.toml, Zed's settings.json, or the modelines of one file.
    #[arg(long, value_enum, default_value_t = Editor::Vscode)]
    pub editor: Editor,
    /// Only yaml-language-server's settings, without `vergate lsp`.
    #[arg(long)]
    pub yaml_only: bool,
    /// The generated API directory whose json/ holds the schemas (a
    /// CRD-based API's too, e.g. generated/demo-operator). The path is
    /// written as given: a relative one is relative to the workspace root.
    #[arg(
        long,
        value_name = "DIR",
        default_value = "generated/kubernetes",
        conflicts_with = "url"
    )]
    pub api: PathBuf,
    /// The URL the API's JSON trees are published under instead (the
    /// unpacked json/ directory, e.g. https://schemas.example.com/k8s/json).
    #[arg(long, value_name = "URL")]
    pub url: Option<String>,
    /// The files the schema applies to, as yaml-language-server globs
    /// (repeatable). Default: *.yaml and *.yml.
    #[arg(long = "glob", value_name = "GLOB")]
    pub globs: Vec<String>,
    /// The plain tree (fields of other minors accepted unexplained) instead
    /// of the strict one.
    #[arg(long)]
    pub plain: bool,
}

/// The editors `vergate editor` writes settings for: `vergate lsp` and
/// yaml-language-server (with vergate's schema) side by side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Editor {
    /// `.vscode/settings.json`: docs/editors/vscode's extension and the Red Hat
    /// YAML extension.
    Vscode,
    /// Lua: `vim.lsp.start` for vergate, nvim-lspconfig's `yamlls`.
    Neovim,
    /// Helix's `languages.toml`.
    Helix,
    /// Zed's `settings.json`: docs/editors/zed's extension and Zed's built-in
    /// yaml-language-server.
    Zed,
    /// `# yaml-language-server: $schema=…` and `# vergate: target=…`,
    /// the first lines of one file.
    Modeline,
}

/// Reads a version argument as a cluster prints it (`v1.29.4-gke.1043000`
/// is the minor 1.29); see [`Version::parse_cluster`].
/// Reads one `RULE=LEVEL` of `--rule`: a rule id, and `error`, `warning`
/// or `off` (`None`).
fn rule_setting(
    text: &str,
) -> Result<(crate::preflight::Rule, Option<crate::preflight::Severity>), String> {
    use crate::preflight::{Rule, Severity};
    let (id, level) = text
        .split_once('=')
        .ok_or_else(|| format!("{text:?}: write RULE=error, RULE=warning or RULE=off"))?;
    let rule = Rule::ALL
        .iter()
        .copied()
        .find(|rule| rule.id() == id.trim())
        .ok_or_else(|| {
            let ids: Vec<&str> = Rule::ALL.iter().map(|rule| rule.id()).collect();
            format!("{:?} is no rule; the rules: {}", id.trim(), ids.join(", "))
        })?;
    let severity = match level.trim() {
        "off" => None,
        other => Some(
            other
                .parse::<Severity>()
                .map_err(|_| format!("{other:?}: the level is error, warning or off"))?,
        ),
    };
    Ok((rule, severity))
}

fn cluster_version(text: &str) -> Result<Version, crate::ParseVersionError> {
    Version::parse_cluster(text)
}

/// Checks an `--ignore` glob (gitignore syntax) and gives it back.
fn ignore_glob(glob: &str) -> Result<String, String> {
    ignore::overrides::OverrideBuilder::new(".")
        .add(&format!("!{glob}"))
        .map(|_| glob.to_owned())
        .map_err(|err| {
            // The message quotes the glob as given, without the `!` added here.
            err.to_string()
                .replace(&format!("'!{glob}'"), &format!("'{glob}'"))
        })
}
