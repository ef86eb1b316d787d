//! Writes one minor's standalone strict JSON Schema tree: the vergate side of
//! `xtask/bench/json_schema.sh`, which times it against openapi2jsonschema.
//!
//! ```text
//! cargo run --release -p vergate-codegen --example json_schema_tree -- \
//!     upstream-specs/kubernetes 1.34 OUT_DIR [--every-definition]
//! ```
//!
//! Reads and verifies the minor's spec, builds its model, and writes the
//! kind files, `index.json` and `_definitions.json` into `OUT_DIR` (with
//! `--every-definition`, also one file per other definition: the file set of
//! the ecosystem's full trees).

use std::path::PathBuf;
use std::process::ExitCode;
use vergate_codegen::api::Api;
use vergate_codegen::emit::json_schema::{strict_tree, Selection};
use vergate_codegen::load::load_minor;
use vergate_codegen::model::GatedModel;
use vergate_codegen::Version;

fn main() -> ExitCode {
    match run() {
        Ok(count) => {
            eprintln!("wrote {count} files");
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<usize, String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let every = args.iter().any(|arg| arg == "--every-definition");
    let positional: Vec<&String> = args.iter().filter(|arg| !arg.starts_with("--")).collect();
    let [api_dir, minor, out] = positional.as_slice() else {
        return Err("usage: json_schema_tree API_DIR MINOR OUT_DIR [--every-definition]".into());
    };
    let version: Version = minor.parse().map_err(|err| format!("{err}"))?;
    let api = Api::open(&PathBuf::from(api_dir)).map_err(|err| err.to_string())?;
    let present = api.present_minors().map_err(|err| err.to_string())?;
    let Some(present) = present.iter().find(|p| p.version == version) else {
        return Err(format!(
            "{api_dir} has no {} directory; run `cargo xtask fetch-specs` first",
            version.dir_name()
        ));
    };
    let loaded = load_minor(&api, present).map_err(|err| err.to_string())?;
    let model = GatedModel::merge(api.name(), vec![loaded.model]).map_err(|err| err.to_string())?;
    let selection = if every {
        Selection::EveryDefinition
    } else {
        Selection::Kinds
    };
    let files =
        strict_tree(&model, &model.minors[&version], selection).map_err(|err| err.to_string())?;
    let out = PathBuf::from(out);
    std::fs::create_dir_all(&out).map_err(|err| format!("{}: {err}", out.display()))?;
    for (name, bytes) in &files {
        let path = out.join(name);
        std::fs::write(&path, bytes).map_err(|err| format!("{}: {err}", path.display()))?;
    }
    Ok(files.len())
}
