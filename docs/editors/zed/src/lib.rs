//! vergate's Zed extension: registers `vergate lsp` as a language server
//! for YAML and JSON. The command is `lsp.vergate.binary` from Zed's
//! settings when set, else `vergate` found on the worktree's PATH.

use zed_extension_api::{self as zed, settings::LspSettings, LanguageServerId, Result};

struct Vergate;

impl zed::Extension for Vergate {
    fn new() -> Self {
        Vergate
    }

    fn language_server_command(
        &mut self,
        id: &LanguageServerId,
        worktree: &zed::Worktree,
    ) -> Result<zed::Command> {
        let binary = LspSettings::for_worktree(id.as_ref(), worktree)
            .ok()
            .and_then(|settings| settings.binary);
        let command = binary
            .as_ref()
            .and_then(|binary| binary.path.clone())
            .or_else(|| worktree.which("vergate"))
            .ok_or("vergate is not on PATH: `cargo install vergate`, or set lsp.vergate.binary.path")?;
        let args = binary
            .and_then(|binary| binary.arguments)
            .unwrap_or_else(|| vec!["lsp".to_owned()]);
        Ok(zed::Command {
            command,
            args,
            env: worktree.shell_env(),
        })
    }
}

zed::register_extension!(Vergate);
