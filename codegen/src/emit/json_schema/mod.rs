//! The JSON Schema emitter: `generated/<api>/json/`.
//!
//! - `v<X.Y>/`: one standalone JSON Schema 2020-12 per resource kind
//!   (`deployment-apps-v1.json`, `service-v1.json`), everything it refers to
//!   under `$defs`, plus `index.json`, `_definitions.json` and `all.json`
//!   (any kind of the minor, each checked by its file);
//! - `v<X.Y>-strict/`: the same with `additionalProperties: false` on every
//!   object that has properties, so a field the minor lacks is an error;
//! - `v<X.Y>.0-standalone/` and `v<X.Y>.0-standalone-strict/`: copies of
//!   the two, named as kubeconform's default `-schema-location` layout
//!   names them (`{{ .NormalizedKubernetesVersion }}-standalone{{ .StrictSuffix }}`);
//! - `openapi/v<X.Y>.json`: the minor as an OpenAPI 3.1 document;
//! - `<pkl_package>.schema.json`, for APIs whose documents carry their minor
//!   (`document_version_field`): one schema for every minor.
//!
//! Each minor's subtree holds exactly that minor's definitions; gates go in
//! an `x-vergate` keyword. See docs/json-schema.md.

mod assemble;
mod combined;
mod convert;
mod naming;
mod openapi;
mod standalone;

pub use crate::to_json_schema::{DRAFT_2020_12, GATE_KEYWORD};
pub use naming::{definition_file, kind_file, kubeconform_dir};
pub use standalone::Selection;

use crate::api::ApiConfig;
use crate::error::Result;
use crate::model::{GatedModel, MinorModel};
use crate::output::{Contents, FileTree};
use crate::to_json_schema::{GateKeywords, Style};
use assemble::RenderedDefinitions;

/// Generated files: (path, bytes).
pub type Files = Vec<(String, Vec<u8>)>;

/// Generated files as the tree holds them: (path, contents), documents made
/// of `$defs` entries shared with the minor's other documents.
type Documents = Vec<(String, Contents)>;

/// A minor's files for the tree: (path, file or link).
type Entries = Vec<(String, Document)>;

/// One generated file.
enum Document {
    /// Made of `$defs` entries shared with the minor's other documents.
    File(Contents),
    /// The same bytes as the file at this path (inserted before it), kept
    /// on disk once: a kubeconform-layout copy.
    CopyOf(String),
}

/// The emitter's directory inside `generated/<api>/`.
pub const DIR: &str = "json";

/// Adds `json/` to the tree.
pub fn emit(model: &GatedModel, config: &ApiConfig, tree: &mut FileTree) -> Result<()> {
    let gates = GateKeywords::new(model);
    let field = config.document_version_field.as_deref();
    let minors: Vec<&MinorModel> = model.minors.values().collect();
    let per_minor = crate::parallel::map_each(&minors, |minor| {
        minor_files(model, config, minor, field, &gates)
    });
    for files in per_minor {
        for (path, document) in files? {
            match document {
                Document::File(contents) => tree.insert_contents(path, contents)?,
                Document::CopyOf(target) => tree.insert_link(path, target)?,
            }
        }
    }
    if let Some(field) = field {
        let file = format!("{DIR}/{}", combined::file_name(&config.pkl_package));
        let text = combined::document(model, field, &gates, &file)?;
        tree.insert(file, text.into_bytes())?;
    }
    Ok(())
}

/// Every file of one minor: its plain and strict trees and its OpenAPI export.
fn minor_files(
    model: &GatedModel,
    config: &ApiConfig,
    minor: &MinorModel,
    field: Option<&str>,
    gates: &GateKeywords,
) -> Result<Entries> {
    let mut out = Vec::new();
    let style = Style {
        minor: minor.version,
        strict: false,
        ref_base: "#/$defs/",
        document_version_field: field,
        gates,
    };
    let renderings = RenderedDefinitions::renderings(minor, &style, openapi::COMPONENTS);
    for (rendered, is_strict) in [(&renderings.plain, false), (&renderings.strict, true)] {
        let dir = minor_dir(minor, is_strict);
        let files = standalone::files(
            &model.api,
            minor,
            rendered,
            &dir,
            is_strict,
            Selection::Kinds,
            field,
        )?;
        // The same files again where kubeconform's default layout looks
        // (`v1.34.0-standalone-strict/`, see `naming::kubeconform_dir`),
        // hard links to the first where the file system allows.
        let kubeconform = format!("{DIR}/{}", kubeconform_dir(minor.version, is_strict));
        for (name, bytes) in files {
            let path = format!("{dir}/{name}");
            out.push((path.clone(), Document::File(bytes)));
            out.push((format!("{kubeconform}/{name}"), Document::CopyOf(path)));
        }
    }
    let text = openapi::document(config, minor, &renderings.openapi);
    out.push((
        format!("{DIR}/openapi/{}.json", minor.version.dir_name()),
        Document::File(text.into()),
    ));
    Ok(out)
}

/// `json/v<X.Y>` or `json/v<X.Y>-strict`.
pub fn minor_dir(minor: &MinorModel, strict: bool) -> String {
    let suffix = if strict { "-strict" } else { "" };
    format!("{DIR}/{}{suffix}", minor.version.dir_name())
}

/// The standalone strict tree of one minor alone (`index.json`,
/// `_definitions.json` and the files `selection` asks for), by file name.
/// With [`Selection::EveryDefinition`] it has the file set of the ecosystem's
/// full trees; the benchmark compares it with openapi2jsonschema's.
pub fn strict_tree(model: &GatedModel, minor: &MinorModel, selection: Selection) -> Result<Files> {
    let gates = GateKeywords::new(model);
    let style = Style {
        minor: minor.version,
        strict: true,
        ref_base: "#/$defs/",
        document_version_field: None,
        gates: &gates,
    };
    let rendered = RenderedDefinitions::new(minor, &style);
    let files = standalone::files(
        &model.api,
        minor,
        &rendered,
        &minor_dir(minor, true),
        true,
        selection,
        None,
    )?;
    Ok(files
        .into_iter()
        .map(|(name, contents)| (name, contents.into_bytes()))
        .collect())
}
