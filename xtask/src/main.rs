//! `cargo xtask`: vergate's project tasks.
//!
//! - `cargo xtask regen [--api NAME] [--check]` regenerates `generated/<api>/`
//!   for every API whose specs are present (or one API);
//! - `cargo xtask fetch-specs <api> [--from DIR | --base-url URL]` fetches an
//!   API's minors into `upstream-specs/<api>/`, verifying every sha256.

mod fetch;
mod regen;

use clap::{Parser, Subcommand};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

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
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let root = project_root();
    let result = match cli.command {
        Command::Regen { api, check } => regen::run(&root, api.as_deref(), check),
        Command::FetchSpecs {
            api,
            from,
            base_url,
        } => fetch::run(&root, &api, from.as_deref(), base_url.as_deref()),
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
