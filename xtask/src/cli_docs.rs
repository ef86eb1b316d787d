//! `cargo xtask completions --out DIR` and `cargo xtask man --out DIR`: shell
//! completions (clap_complete) and man pages (clap_mangen) for the `vergate`
//! command, from the same clap definition the binary parses with.

use anyhow::{Context, Result};
use clap_complete::Shell;
use std::path::Path;

/// Writes a completion script for every shell clap_complete knows
/// (`vergate.bash`, `_vergate`, `vergate.fish`, `vergate.elv`,
/// `_vergate.ps1`) into `out`.
pub fn completions(out: &Path) -> Result<()> {
    std::fs::create_dir_all(out).with_context(|| format!("cannot create {}", out.display()))?;
    for shell in [
        Shell::Bash,
        Shell::Zsh,
        Shell::Fish,
        Shell::Elvish,
        Shell::PowerShell,
    ] {
        let mut command = vergate::cli_args::command();
        let path =
            clap_complete::generate_to(shell, &mut command, "vergate", out).with_context(|| {
                format!(
                    "cannot write the {shell} completions into {}",
                    out.display()
                )
            })?;
        println!("wrote {}", path.display());
    }
    Ok(())
}

/// Writes `vergate.1` and one page per subcommand (`vergate-check.1`, …)
/// into `out`.
pub fn man(out: &Path) -> Result<()> {
    std::fs::create_dir_all(out).with_context(|| format!("cannot create {}", out.display()))?;
    let command = vergate::cli_args::command();
    write_page(out, "vergate", command.clone())?;
    for sub in command.get_subcommands() {
        let name = format!("vergate-{}", sub.get_name());
        let mut page = sub.clone().name(name.clone());
        if let Some(version) = command.get_version() {
            page = page.version(version.to_owned());
        }
        write_page(out, &name, page)?;
    }
    Ok(())
}

fn write_page(out: &Path, name: &str, command: clap::Command) -> Result<()> {
    let mut page = Vec::new();
    clap_mangen::Man::new(command).render(&mut page)?;
    let path = out.join(format!("{name}.1"));
    std::fs::write(&path, page).with_context(|| format!("cannot write {}", path.display()))?;
    println!("wrote {}", path.display());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fresh empty directory under the system's temporary directory.
    fn scratch(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("vergate-xtask-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn completions_cover_every_shell_and_the_check_flags() {
        let dir = scratch("completions");
        completions(&dir).unwrap();
        for file in [
            "vergate.bash",
            "_vergate",
            "vergate.fish",
            "vergate.elv",
            "_vergate.ps1",
        ] {
            let text = std::fs::read_to_string(dir.join(file)).unwrap();
            // fish spells a long option `-l NAME`, the others `--NAME`.
            for flag in ["target", "ignore", "reject"] {
                let written = [format!("--{flag}"), format!("-l {flag}")];
                assert!(
                    written.iter().any(|form| text.contains(form.as_str())),
                    "{file} lacks --{flag}"
                );
            }
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn man_pages_are_written_for_the_command_and_each_subcommand() {
        let dir = scratch("man");
        man(&dir).unwrap();
        for name in [
            "vergate",
            "vergate-check",
            "vergate-upgrade",
            "vergate-diff",
            "vergate-versions",
        ] {
            let page = std::fs::read_to_string(dir.join(format!("{name}.1"))).unwrap();
            assert!(
                page.starts_with(".ie \\n(.g .ds Aq"),
                "{name}: {}",
                &page[..40]
            );
            assert!(page.contains(&format!(".TH {name} 1")), "{name}");
        }
        let check = std::fs::read_to_string(dir.join("vergate-check.1")).unwrap();
        assert!(check.contains("v1.29.4\\-gke.1043000"), "{check}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
