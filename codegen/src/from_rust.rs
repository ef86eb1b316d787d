//! Typed structs as the source: a plugin crate's `#[vergate::versioned]`
//! modules, read with syn, become gated models, so a plugin without upstream
//! specs gets the same gates.json, Pkl and JSON Schema trees.
//!
//! Settings come from the crate's `Cargo.toml`, all optional:
//!
//! ```toml
//! [package.metadata.vergate]
//! pkl_package = "shipyard"            # default: the module's name
//! version_field = "shipyardVersion"   # default: "apiVersion"
//! annotation_class = "ShipyardVersion"
//! document_version_field = "apiVersion"
//! ```

use crate::api::ApiConfig;
use crate::error::{Error, Result};
use crate::model::GatedModel;

use std::path::{Path, PathBuf};
use syn::{Item, ItemMod};

/// One versioned module found in a crate.
#[derive(Debug)]
pub struct VersionedModule {
    /// The module's name (`api`).
    pub name: String,
    /// The file it is written in.
    pub file: PathBuf,
    pub model: GatedModel,
    /// The settings the emitters read, as an API would have them in api.toml.
    pub config: ApiConfig,
}

#[derive(Default, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Settings {
    pkl_package: Option<String>,
    version_field: Option<String>,
    annotation_class: Option<String>,
    document_version_field: Option<String>,
}

/// Reads every `#[vergate::versioned]` module below `crate_dir/src`.
pub fn read_crate(crate_dir: &Path) -> Result<Vec<VersionedModule>> {
    let settings = read_settings(crate_dir)?;
    let mut files = Vec::new();
    collect_rust_files(&crate_dir.join("src"), &mut files)?;
    files.sort();
    let mut modules = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file)
            .map_err(|source| Error::io(&file, "reading Rust source", source))?;
        let parsed = crate::annotations::parse_rust(&file, &text)?;
        find_modules(&parsed.items, &file, &settings, &mut modules)?;
    }
    if modules.is_empty() {
        return Err(Error::Config {
            path: crate_dir.join("src"),
            message: "no `#[vergate::versioned(minors = …)] mod …` found; see docs/derive.md"
                .into(),
        });
    }
    Ok(modules)
}

fn find_modules(
    items: &[Item],
    file: &Path,
    settings: &Settings,
    out: &mut Vec<VersionedModule>,
) -> Result<()> {
    for item in items {
        let Item::Mod(module) = item else { continue };
        match versioned_args(module) {
            Some(args) => out.push(read_module(module, args, file, settings)?),
            None => {
                if let Some((_, inner)) = &module.content {
                    find_modules(inner, file, settings, out)?;
                }
            }
        }
    }
    Ok(())
}

/// The arguments of a `#[versioned(…)]` / `#[vergate::versioned(…)]` attribute.
fn versioned_args(module: &ItemMod) -> Option<proc_macro2::TokenStream> {
    let attr = module.attrs.iter().find(|attr| {
        attr.path()
            .segments
            .last()
            .is_some_and(|segment| segment.ident == "versioned")
    })?;
    Some(match &attr.meta {
        syn::Meta::List(list) => list.tokens.clone(),
        _ => proc_macro2::TokenStream::new(),
    })
}

fn read_module(
    module: &ItemMod,
    args: proc_macro2::TokenStream,
    file: &Path,
    settings: &Settings,
) -> Result<VersionedModule> {
    let name = module.ident.to_string();
    let model =
        crate::rust::annotated::gated_model(args, module).map_err(|errors| Error::Annotations {
            messages: errors
                .into_iter()
                .map(|err| format!("{}:{}: {err}", file.display(), err.span().start().line))
                .collect(),
        })?;
    let config = ApiConfig {
        name: name.clone(),
        description: None,
        pkl_package: settings.pkl_package.clone().unwrap_or_else(|| name.clone()),
        version_field: settings
            .version_field
            .clone()
            .unwrap_or_else(|| "apiVersion".into()),
        annotation_class: settings.annotation_class.clone(),
        document_version_field: settings.document_version_field.clone(),
        spec_files: Vec::new(),
        minors: Default::default(),
    };
    Ok(VersionedModule {
        name,
        file: file.to_owned(),
        model,
        config,
    })
}

fn read_settings(crate_dir: &Path) -> Result<Settings> {
    let path = crate_dir.join("Cargo.toml");
    let text = std::fs::read_to_string(&path)
        .map_err(|source| Error::io(&path, "reading the crate manifest", source))?;
    let manifest: toml::Table = toml::from_str(&text).map_err(|err| Error::Config {
        path: path.clone(),
        message: err.to_string(),
    })?;
    let Some(value) = manifest
        .get("package")
        .and_then(|package| package.get("metadata"))
        .and_then(|metadata| metadata.get("vergate"))
    else {
        return Ok(Settings::default());
    };
    value
        .clone()
        .try_into()
        .map_err(|err: toml::de::Error| Error::Config {
            path,
            message: format!("[package.metadata.vergate]: {}", err.message()),
        })
}

fn collect_rust_files(dir: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
    let entries =
        std::fs::read_dir(dir).map_err(|source| Error::io(dir, "listing Rust sources", source))?;
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect_rust_files(&path, out)?;
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            out.push(path);
        }
    }
    Ok(())
}
