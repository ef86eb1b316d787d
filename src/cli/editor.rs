//! `vergate editor`: the settings that point an editor's YAML language
//! server (yaml-language-server) at vergate's JSON Schema of one minor, so
//! the editor gives vergate's verdicts while typing (docs/editor.md).
//!
//! It prints what the user copies: VS Code's settings.json, Neovim's
//! lspconfig setup, Helix's languages.toml, or one file's modeline. The
//! schema is the minor's `all.json` (any kind of the minor, each held to its
//! kind's file) in the strict tree, or the plain one with `--plain`; from a
//! generated API directory (checked to have it) or under the URL its trees
//! are published at.

use super::{write_out, Editor, EditorArgs, Outcome};
use std::fmt::Write;
use vergate::Version;

pub fn run(args: &EditorArgs) -> Outcome {
    let schema = match schema_location(args) {
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
    write_out(&settings(args.editor, &schema, &globs));
    Outcome::Clean
}

/// The tree's directory name: `v1.34-strict`, or `v1.34` with `--plain`.
fn tree(args: &EditorArgs) -> String {
    let suffix = if args.plain { "" } else { "-strict" };
    format!("{}{suffix}", args.target.dir_name())
}

/// Where the schema is: under `--url`, or in `--api DIR`'s json/ (which
/// must have the minor).
fn schema_location(args: &EditorArgs) -> Result<String, String> {
    let tree = tree(args);
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

/// The text to copy for `editor`.
pub fn settings(editor: Editor, schema: &str, globs: &[String]) -> String {
    let quoted = |text: &str| serde_json::to_string(text).expect("a string serializes");
    let list = globs
        .iter()
        .map(|glob| quoted(glob))
        .collect::<Vec<_>>()
        .join(", ");
    let mut out = String::new();
    match editor {
        Editor::Vscode => {
            let value = serde_json::json!({ "yaml.schemas": { schema: globs } });
            let text = serde_json::to_string_pretty(&value).expect("JSON serializes");
            let _ = writeln!(out, "{text}");
        }
        Editor::Neovim => {
            let _ = writeln!(
                out,
                "-- nvim-lspconfig: yaml-language-server with vergate's schema"
            );
            let _ = writeln!(out, "require(\"lspconfig\").yamlls.setup({{");
            let _ = writeln!(out, "  settings = {{");
            let _ = writeln!(out, "    yaml = {{");
            let _ = writeln!(out, "      schemas = {{");
            let _ = writeln!(out, "        [{}] = {{ {list} }},", quoted(schema));
            let _ = writeln!(out, "      }},");
            let _ = writeln!(out, "    }},");
            let _ = writeln!(out, "  }},");
            let _ = writeln!(out, "}})");
        }
        Editor::Helix => {
            let _ = writeln!(
                out,
                "# languages.toml: yaml-language-server with vergate's schema"
            );
            let _ = writeln!(
                out,
                "[language-server.yaml-language-server.config.yaml.schemas]"
            );
            let _ = writeln!(out, "{} = [{list}]", quoted(schema));
        }
        Editor::Modeline => {
            let _ = writeln!(out, "# yaml-language-server: $schema={schema}");
        }
    }
    out
}
