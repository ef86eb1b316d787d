//! `vergate editor`: the set-up of one editor for vergate, printed for the
//! user to copy (docs/editor.md): `vergate lsp` (every finding of `check`,
//! with the workspace's vergate.toml) beside yaml-language-server pointed
//! at vergate's JSON Schema of one minor (generic YAML completion, and the
//! schema's verdicts, hover and completion).
//!
//! It prints VS Code's settings.json (for docs/editors/vscode's extension and
//! the Red Hat YAML extension), Neovim's Lua, Helix's languages.toml, Zed's
//! settings.json (for docs/editors/zed's extension and Zed's built-in
//! yaml-language-server), or one file's modelines; `--yaml-only` leaves
//! `vergate lsp` out. The schema is the minor's `all.json` (any kind of the
//! minor, each held to its kind's file) in the strict tree, or the plain
//! one with `--plain`; from a generated API directory (checked to have it)
//! or under the URL its trees are published at.

use super::{write_out, Editor, EditorArgs, Outcome};
use std::fmt::Write;
use vergate::Version;

/// What one set-up is made of.
pub struct Setup<'a> {
    /// The schema's path or URL, as yaml-language-server takes it.
    pub schema: &'a str,
    /// The files the schema applies to.
    pub globs: &'a [String],
    /// The minor (for the modeline).
    pub target: Version,
    /// `vergate lsp` too.
    pub server: bool,
}

pub fn run(args: &EditorArgs) -> Outcome {
    let target = match target(args) {
        Ok(target) => target,
        Err(message) => {
            eprintln!("error: {message}");
            return Outcome::InputError;
        }
    };
    let schema = match schema_location(args, target) {
        Ok(schema) => schema,
        Err(message) => {
            eprintln!("error: {message}");
            return Outcome::InputError;
        }
    };
    let globs: Vec<String> = if args.globs.is_empty() {
        vec!["*.yaml".to_owned(), "*.yml".to_owned()]
    } else {
        args.globs.clone()
    };
    let setup = Setup {
        schema: &schema,
        globs: &globs,
        target,
        server: !args.yaml_only,
    };
    write_out(&settings(args.which.unwrap_or(args.editor), &setup));
    Outcome::Clean
}

/// `--target`, else the target of the nearest vergate.toml.
fn target(args: &EditorArgs) -> Result<Version, String> {
    if let Some(target) = args.target {
        return Ok(target);
    }
    let dir = std::env::current_dir().map_err(|err| format!("no current directory: {err}"))?;
    match vergate::settings::Settings::discover(&dir) {
        Ok(Some(settings)) => settings.target.ok_or_else(|| {
            format!(
                "{} sets no target; pass --target (e.g. --target 1.34) or add target = \"1.34\" to it",
                settings.file.display()
            )
        }),
        Ok(None) => Err(
            "which minor? pass --target (e.g. --target 1.34), or run it in a workspace whose vergate.toml sets target"
                .to_owned(),
        ),
        Err(err) => Err(err.to_string()),
    }
}

/// The tree's directory name: `v1.34-strict`, or `v1.34` with `--plain`.
fn tree(args: &EditorArgs, target: Version) -> String {
    let suffix = if args.plain { "" } else { "-strict" };
    format!("{}{suffix}", target.dir_name())
}

/// Where the schema is: under `--url`, or in `--api DIR`'s json/ (which
/// must have the minor).
fn schema_location(args: &EditorArgs, target: Version) -> Result<String, String> {
    let tree = tree(args, target);
    if let Some(url) = &args.url {
        return Ok(format!("{}/{tree}/all.json", url.trim_end_matches('/')));
    }
    let json = args.api.join("json");
    let schema = json.join(&tree).join("all.json");
    if schema.is_file() {
        return Ok(schema.display().to_string());
    }
    let mut minors: Vec<Version> = std::fs::read_dir(&json)
        .map(|entries| {
            entries
                .filter_map(|entry| entry.ok())
                .filter_map(|entry| entry.file_name().to_str().map(str::to_owned))
                .filter(|name| vergate::is_version_dir(name.trim_end_matches("-strict")))
                .filter_map(|name| name.strip_suffix("-strict")?.parse::<Version>().ok())
                .collect()
        })
        .unwrap_or_default();
    if minors.is_empty() {
        return Err(format!(
            "{}: no JSON Schema trees there; give the generated API directory (`cargo xtask regen` writes generated/<api>/json/), or --url where its trees are published",
            json.display()
        ));
    }
    minors.sort();
    let minors: Vec<String> = minors.iter().map(Version::to_string).collect();
    Err(format!(
        "{}: no such schema; the minors under {}: {}",
        schema.display(),
        json.display(),
        minors.join(", ")
    ))
}

/// JSON's quoting of `text` (Lua and TOML read the same escapes for the
/// paths and globs written here).
fn quoted(text: &str) -> String {
    serde_json::to_string(text).expect("a string serializes")
}

/// The text to copy for `editor`.
pub fn settings(editor: Editor, setup: &Setup) -> String {
    match editor {
        Editor::Vscode => vscode(setup),
        Editor::Neovim => neovim(setup),
        Editor::Helix => helix(setup),
        Editor::Zed => zed(setup),
        Editor::Modeline => {
            let mut out = format!("# yaml-language-server: $schema={}\n", setup.schema);
            if setup.server {
                let _ = writeln!(out, "# vergate: target={}", setup.target);
            }
            out
        }
    }
}

/// `.vscode/settings.json`: docs/editors/vscode's `vergate.path` and
/// `vergate.args` (its package.json declares them), and the YAML
/// extension's `yaml.schemas`.
fn vscode(setup: &Setup) -> String {
    let mut value = serde_json::json!({ "yaml.schemas": { setup.schema: setup.globs } });
    if setup.server {
        value["vergate.path"] = "vergate".into();
        value["vergate.args"] = serde_json::json!(["lsp"]);
    }
    let mut text = serde_json::to_string_pretty(&value).expect("JSON serializes");
    text.push('\n');
    text
}

fn neovim(setup: &Setup) -> String {
    let list = setup
        .globs
        .iter()
        .map(|glob| quoted(glob))
        .collect::<Vec<_>>()
        .join(", ");
    let mut out = String::new();
    if setup.server {
        out.push_str(
            "-- vergate lsp: check's findings while typing, settings from vergate.toml (Neovim 0.10+)
vim.api.nvim_create_autocmd(\"FileType\", {
  pattern = { \"yaml\", \"json\" },
  callback = function(args)
    vim.lsp.start({
      name = \"vergate\",
      cmd = { \"vergate\", \"lsp\" },
      root_dir = vim.fs.root(args.buf, { \"vergate.toml\", \".git\" }),
    })
  end,
})

",
        );
    }
    let _ = writeln!(
        out,
        "-- nvim-lspconfig: yaml-language-server with vergate's schema"
    );
    let _ = writeln!(out, "require(\"lspconfig\").yamlls.setup({{");
    let _ = writeln!(out, "  settings = {{");
    let _ = writeln!(out, "    yaml = {{");
    let _ = writeln!(out, "      schemas = {{");
    let _ = writeln!(out, "        [{}] = {{ {list} }},", quoted(setup.schema));
    let _ = writeln!(out, "      }},");
    let _ = writeln!(out, "    }},");
    let _ = writeln!(out, "  }},");
    let _ = writeln!(out, "}})");
    out
}

fn helix(setup: &Setup) -> String {
    let list = setup
        .globs
        .iter()
        .map(|glob| quoted(glob))
        .collect::<Vec<_>>()
        .join(", ");
    let mut out = String::new();
    if setup.server {
        let _ = writeln!(
            out,
            "# languages.toml: vergate lsp beside yaml-language-server (with vergate's schema)"
        );
        let _ = writeln!(out, "[language-server.vergate]");
        let _ = writeln!(out, "command = \"vergate\"");
        let _ = writeln!(out, "args = [\"lsp\"]");
        let _ = writeln!(out);
    } else {
        let _ = writeln!(
            out,
            "# languages.toml: yaml-language-server with vergate's schema"
        );
    }
    let _ = writeln!(
        out,
        "[language-server.yaml-language-server.config.yaml.schemas]"
    );
    let _ = writeln!(out, "{} = [{list}]", quoted(setup.schema));
    if setup.server {
        let _ = writeln!(out);
        let _ = writeln!(out, "[[language]]");
        let _ = writeln!(out, "name = \"yaml\"");
        let _ = writeln!(
            out,
            "language-servers = [\"vergate\", \"yaml-language-server\"]"
        );
    }
    out
}

/// Zed's settings.json: Zed resolves a schema path starting with `./`
/// from the worktree root, so a relative path gets one.
fn zed(setup: &Setup) -> String {
    let relative = !setup.schema.contains("://")
        && !setup.schema.starts_with(['/', '.', '~'])
        && !std::path::Path::new(setup.schema).is_absolute();
    let schema = if relative {
        format!("./{}", setup.schema)
    } else {
        setup.schema.to_owned()
    };
    let mut value = serde_json::json!({
        "lsp": {
            "yaml-language-server": {
                "settings": { "yaml": { "schemas": { schema: setup.globs } } }
            }
        }
    });
    if setup.server {
        value["lsp"]["vergate"] = serde_json::json!({
            "binary": { "path": "vergate", "arguments": ["lsp"] }
        });
        value["languages"] = serde_json::json!({
            "YAML": { "language_servers": ["vergate", "yaml-language-server", "..."] }
        });
    }
    let mut text = serde_json::to_string_pretty(&value).expect("JSON serializes");
    text.push('\n');
    text
}
