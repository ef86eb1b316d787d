//! `vergate`: check manifests against an API minor before they reach a server,
//! upgrade them between minors, show what changes between minors, and list a
//! package's version subtrees; `vergate lsp` serves the same checks to editors.
//!
//! Exit codes: 0 clean, 1 violations (or a lossy upgrade), 2 usage or input errors;
//! `vergate lsp`: 0 after the protocol's shutdown, 1 on `exit` without it.

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

/// The stack the command runs on. The CEL parser (cel-rust's ANTLR
/// grammar), its interpreter and the cost estimate recurse along a rule's
/// nesting; rules are bounded to 64 levels, which an unoptimised build's
/// frames need more than the main thread's 8 MiB for. Only what is used is
/// committed; the rest is address space.
const STACK: usize = 64 << 20;

fn main() -> ExitCode {
    let args = cli::Cli::parse();
    let run = move || match args.command {
        // The process ends where the check does: its thread's stack and
        // the wait for it in the main thread are not worth unwinding
        // (`process::exit` flushes standard output first).
        cli::Command::Check(args) => std::process::exit(cli::check::run(&args) as i32),
        cli::Command::Upgrade(args) => cli::upgrade::run(&args),
        cli::Command::Diff(args) => cli::diff::run(&args),
        cli::Command::Versions(args) => cli::versions::run(&args),
        cli::Command::Editor(args) => cli::editor::run(&args),
        cli::Command::Lsp(_) => match vergate::lsp::run_stdio() {
            0 => cli::Outcome::Clean,
            1 => cli::Outcome::Violations,
            _ => cli::Outcome::InputError,
        },
    };
    let code = match std::thread::Builder::new().stack_size(STACK).spawn(run) {
        // A panic goes on as the main thread's would (exit code 101).
        Ok(thread) => thread
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
        Err(err) => {
            eprintln!("error: cannot start the command's thread: {err}");
            cli::Outcome::InputError
        }
    };
    ExitCode::from(code as u8)
}
