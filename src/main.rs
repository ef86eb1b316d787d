//! `vergate`: check manifests against an API minor before they reach a server,
//! upgrade them between minors, show what changes between minors, and list a
//! package's version subtrees.
//!
//! Exit codes: 0 clean, 1 violations (or a lossy upgrade), 2 usage or input errors.

mod cli;

use clap::Parser;
use std::process::ExitCode;

/// mimalloc (v2, no transparent huge pages): a check builds and frees a
/// tree of small allocations per document, which it serves in fewer
/// instructions than the system allocator, for about 1.5 MiB more peak
/// memory (docs/benchmarks.md, Preflight).
#[cfg(feature = "mimalloc")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let args = cli::Cli::parse();
    let code = match args.command {
        cli::Command::Check(args) => cli::check::run(&args),
        cli::Command::Upgrade(args) => cli::upgrade::run(&args),
        cli::Command::Diff(args) => cli::diff::run(&args),
        cli::Command::Versions(args) => cli::versions::run(&args),
        cli::Command::Editor(args) => cli::editor::run(&args),
    };
    ExitCode::from(code as u8)
}
