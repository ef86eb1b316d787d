//! `cargo xtask`: vergate's project tasks.
//!
//! - `cargo xtask regen [--api NAME] [--check]` regenerates `generated/<api>/`
//!   for every API whose specs are present (or one API);
//! - `cargo xtask fetch-specs <api> [--from DIR | --base-url URL]` fetches an
//!   API's minors into `upstream-specs/<api>/`, verifying every sha256;
//! - `cargo xtask add-api <name> --from DIR` adds an API: its api.toml with
//!   every minor's digests, and a copy of its specs;
//! - `cargo xtask record kubernetes <X.Y> [--out DIR]` records a minor from
//!   its own API server (vergate-apiserver), and `cargo xtask add-minor`
//!   applies the entries such a recording left in `pending/`;
//! - `cargo xtask completions --out DIR` and `cargo xtask man --out DIR`
//!   write the `vergate` command's shell completions and man pages.

mod add_api;
mod cli_docs;
mod fetch;
mod publish;
mod record;
mod regen;

use clap::{Parser, Subcommand};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// mimalloc: a regen allocates and frees millions of small token trees and
/// strings, and glibc's allocator was a fifth of its time.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(name = "cargo xtask", about = "vergate's project tasks")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Regenerate generated/<api>/ from upstream-specs/<api>/.
    Regen {
        /// Only this API (a directory name under upstream-specs/).
        #[arg(long)]
        api: Option<String>,
        /// Write nothing; fail and list the files when generated/ would change.
        #[arg(long)]
        check: bool,
        /// Read a plugin crate's `#[vergate::versioned]` modules instead of
        /// upstream specs, and write their gates.json, Pkl and JSON Schema trees.
        #[arg(long, value_name = "CRATE_DIR", conflicts_with = "api")]
        from_rust: Option<PathBuf>,
        /// Print how long each phase took (load, merge, each emitter, sync).
        #[arg(long)]
        timings: bool,
        /// With --from-rust: where to write (default: <CRATE_DIR>/generated).
        #[arg(long, requires = "from_rust")]
        out: Option<PathBuf>,
    },
    /// Pack generated/<api>/ for publishing: the Pkl package and each minor's
    /// subtree (zip + metadata with its sha256), the JSON trees as tarballs,
    /// and a SHA256SUMS manifest. Publishing twice gives identical archives.
    Publish {
        /// The API (a directory name under generated/).
        api: String,
        /// Where to write (default: target/publish/<api>).
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Run a benchmark script of xtask/bench/ (not a test): derive,
    /// json-schema, lsp (yaml-language-server beside `vergate lsp`),
    /// new-minor (NEW=1.37 PREV=1.36: adding each minor, side
    /// by side), pkl (PKL_K8S=<pkl-k8s checkout>), preflight, regen,
    /// regen-compare (BASE=<commit>: this tree's regen beside that
    /// commit's), rust or yaml-parsers. Each compares with its peer tool
    /// side by side where there is one; see docs/benchmarks.md.
    Bench {
        /// Which benchmark.
        name: String,
    },
    /// Write shell completions of the `vergate` command (bash, zsh, fish,
    /// elvish, PowerShell) into DIR.
    Completions {
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
    },
    /// Write man pages of the `vergate` command (vergate.1, vergate-check.1, …) into DIR.
    Man {
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
    },
    /// Fetch an API's minors (from the URLs in api.toml, an HTTP mirror, or a
    /// local directory), verifying each sha256 before writing anything.
    FetchSpecs {
        /// The API (a directory name under upstream-specs/).
        api: String,
        /// A local directory holding v<X.Y>/<spec file> for the minors in api.toml.
        #[arg(long, conflicts_with = "base_url")]
        from: Option<PathBuf>,
        /// An HTTP(S) mirror laid out as <base-url>/v<X.Y>/<spec file>.
        #[arg(long)]
        base_url: Option<String>,
    },
    /// Review the stages and feature gates of an API's fields, minor by
    /// minor, as the next regen writes them into gates.json: which were read from the descriptions' prose and
    /// which annotated, what changed since the previous minor, and the gates
    /// named only as changing a field's behaviour. Run it after a regen that
    /// adds a minor; correct wrong prose with upstream-specs/<api>/annotations.rs.
    GatesReview {
        /// The API (a directory name under upstream-specs/).
        #[arg(default_value = "kubernetes")]
        api: String,
        /// Only the minors from this one on (the new minor, say `1.36`).
        #[arg(long, value_name = "MINOR")]
        since: Option<String>,
    },
    /// Record a Kubernetes minor from its own API server: build
    /// vergate-apiserver for it (xtask/apiserver/build.sh), run `openapi`,
    /// `feature-gates` and `lifecycle`, and write v<X.Y>/swagger.json,
    /// feature-gates/v<X.Y>.json and api-lifecycle/v<X.Y>.json with their
    /// sha256 in api.toml. Everything is staged aside and moved in only when
    /// every step succeeded. See docs/new-minor.md.
    Record {
        /// The API (a directory name under upstream-specs/).
        api: String,
        /// The minor, say 1.37.
        minor: String,
        /// Write into this mirror (laid out like upstream-specs/<api>/)
        /// instead; the api.toml entries then wait in
        /// upstream-specs/<api>/pending/<X.Y>.toml for `add-minor`.
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
        /// Use this vergate-apiserver binary instead of building one.
        #[arg(long, value_name = "BIN", conflicts_with = "build_script")]
        apiserver: Option<PathBuf>,
        /// The build script to run (default: xtask/apiserver/build.sh).
        #[arg(long, value_name = "PATH")]
        build_script: Option<PathBuf>,
        /// Compare the recording with a mirror's files for the same minor
        /// (spec, feature-gate pages, k8s.io/api's lifecycle files).
        #[arg(long, value_name = "MIRROR")]
        against: Option<PathBuf>,
    },
    /// Apply the entries `record --out` left in upstream-specs/<api>/pending/<X.Y>.toml,
    /// once MIRROR holds the minor: every file checked against its sha256,
    /// api.toml gains the entries, the files are copied (as fetch-specs does).
    AddMinor {
        /// The API (a directory name under upstream-specs/).
        api: String,
        /// The minor, say 1.37.
        minor: String,
        /// The mirror holding the minor's files.
        #[arg(long, value_name = "MIRROR")]
        from: PathBuf,
    },
    /// Add an API: write upstream-specs/<name>/api.toml recording every spec
    /// file (JSON or YAML) of DIR's v<X.Y>/ directories with its sha256, and
    /// copy them beside it; then `cargo xtask regen --api <name>` works.
    AddApi {
        /// The API's name (its directory under upstream-specs/ and generated/).
        name: String,
        /// A directory holding one v<X.Y>/ per minor.
        #[arg(long, value_name = "DIR")]
        from: PathBuf,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    // Paths the user gave are relative to where they ran cargo; resolve them
    // before working from the repository root, so that every path in a
    // message reads `upstream-specs/…`, `generated/…`.
    let absolute = |path: PathBuf| std::path::absolute(&path).unwrap_or(path);
    let command = match cli.command {
        Command::Regen {
            api,
            check,
            timings,
            from_rust,
            out,
        } => Command::Regen {
            api,
            check,
            timings,
            from_rust: from_rust.map(absolute),
            out: out.map(absolute),
        },
        Command::Bench { name } => Command::Bench { name },
        Command::Completions { out } => Command::Completions { out: absolute(out) },
        Command::Man { out } => Command::Man { out: absolute(out) },
        Command::Publish { api, out } => Command::Publish {
            api,
            out: out.map(absolute),
        },
        Command::FetchSpecs {
            api,
            from,
            base_url,
        } => Command::FetchSpecs {
            api,
            from: from.map(absolute),
            base_url,
        },
        Command::AddApi { name, from } => Command::AddApi {
            name,
            from: absolute(from),
        },
        Command::Record {
            api,
            minor,
            out,
            apiserver,
            build_script,
            against,
        } => Command::Record {
            api,
            minor,
            out: out.map(absolute),
            apiserver: apiserver.map(absolute),
            build_script: build_script.map(absolute),
            against: against.map(absolute),
        },
        Command::AddMinor { api, minor, from } => Command::AddMinor {
            api,
            minor,
            from: absolute(from),
        },
        review @ Command::GatesReview { .. } => review,
    };
    if let Err(err) = std::env::set_current_dir(project_root()) {
        eprintln!(
            "error: cannot work from {}: {err}",
            project_root().display()
        );
        return ExitCode::FAILURE;
    }
    let root = PathBuf::new();
    let result = match command {
        Command::Regen {
            from_rust: Some(crate_dir),
            out,
            check,
            ..
        } => regen::run_from_rust(&crate_dir, out.as_deref(), check),
        Command::Regen {
            api,
            check,
            timings,
            ..
        } => regen::run(&root, api.as_deref(), check, timings),
        Command::Publish { api, out } => publish::run(&root, &api, out.as_deref()),
        Command::Bench { name } => bench(&name),
        Command::Completions { out } => cli_docs::completions(&out),
        Command::Man { out } => cli_docs::man(&out),
        Command::FetchSpecs {
            api,
            from,
            base_url,
        } => fetch::run(&root, &api, from.as_deref(), base_url.as_deref()),
        Command::AddApi { name, from } => add_api::run(&root, &name, &from),
        Command::GatesReview { api, since } => gates_review(&api, since.as_deref()),
        Command::Record {
            api,
            minor,
            out,
            apiserver,
            build_script,
            against,
        } => record::run(
            &root,
            &record::Options {
                api: &api,
                minor: &minor,
                out: out.as_deref(),
                apiserver: apiserver.as_deref(),
                build_script: build_script.as_deref(),
                against: against.as_deref(),
            },
        ),
        Command::AddMinor { api, minor, from } => record::add_minor(&root, &api, &minor, &from),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::FAILURE
        }
    }
}

/// The repository root: the parent of this crate's directory.
fn project_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives one level below the repository root")
        .to_owned()
}

/// Prints the gates review of upstream-specs/<api>/ (`codegen::regen::review`).
fn gates_review(api: &str, since: Option<&str>) -> anyhow::Result<()> {
    let since = since
        .map(|minor| {
            minor
                .parse::<vergate_codegen::Version>()
                .map_err(|err| anyhow::anyhow!("--since {minor:?}: {err}"))
        })
        .transpose()?;
    let api = vergate_codegen::api::Api::open(&Path::new("upstream-specs").join(api))?;
    print!("{}", vergate_codegen::regen::review(&api, since)?);
    Ok(())
}

/// Runs `xtask/bench/<name>.sh` from the repository root.
fn bench(name: &str) -> anyhow::Result<()> {
    let script = Path::new("xtask/bench").join(format!("{}.sh", name.replace('-', "_")));
    if !script.is_file() {
        let mut known: Vec<String> = std::fs::read_dir("xtask/bench")?
            .flatten()
            .filter_map(|entry| {
                let file = entry.file_name().to_string_lossy().into_owned();
                file.strip_suffix(".sh").map(|stem| stem.replace('_', "-"))
            })
            .collect();
        known.sort();
        anyhow::bail!("no benchmark {name:?}; known: {}", known.join(", "));
    }
    let status = std::process::Command::new("bash").arg(&script).status()?;
    anyhow::ensure!(status.success(), "{} failed ({status})", script.display());
    Ok(())
}
