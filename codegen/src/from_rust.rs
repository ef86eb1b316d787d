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
//! attribute = "plugin_sdk::versioned" # a re-export of the attribute, besides vergate::versioned
//! ```
//!
//! A module is read when its attribute is `vergate::versioned` (or
//! `::vergate::versioned`) or the configured `attribute` path, written as
//! the path: any other attribute that merely ends in `versioned` is not
//! vergate's and is left alone.

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
    /// Another path of the `versioned` attribute (a re-export).
    attribute: Option<String>,
}

/// The attribute path every versioned module may use.
const VERGATE_ATTRIBUTE: &str = "vergate::versioned";

/// The attribute paths a versioned module is recognised by, as segments.
struct Attributes(Vec<Vec<String>>);

impl Attributes {
    /// `vergate::versioned` and the configured `attribute`, if any.
    fn new(settings: &Settings, manifest: &Path) -> Result<Attributes> {
        let mut paths = vec![VERGATE_ATTRIBUTE];
        paths.extend(settings.attribute.as_deref());
        paths
            .into_iter()
            .map(|text| {
                syn::parse_str::<syn::Path>(text)
                    .map(|path| segments(&path))
                    .map_err(|_| Error::Config {
                        path: manifest.to_owned(),
                        message: format!(
                            "[package.metadata.vergate] attribute = {text:?} is not a Rust path; \
                             write the path the modules' attribute uses, such as \"plugin_sdk::versioned\""
                        ),
                    })
            })
            .collect::<Result<_>>()
            .map(Attributes)
    }

    /// True when `path` is one of them (a leading `::` aside).
    fn matches(&self, path: &syn::Path) -> bool {
        let written = segments(path);
        self.0.contains(&written)
    }
}

/// A path's segment names (`::vergate::versioned` → `[vergate, versioned]`).
fn segments(path: &syn::Path) -> Vec<String> {
    path.segments
        .iter()
        .map(|segment| segment.ident.to_string())
        .collect()
}

/// Reads every `#[vergate::versioned]` module (or one with the configured
/// attribute path) below `crate_dir/src`.
pub fn read_crate(crate_dir: &Path) -> Result<Vec<VersionedModule>> {
    let settings = read_settings(crate_dir)?;
    let attributes = Attributes::new(&settings, &crate_dir.join("Cargo.toml"))?;
    let mut files = Vec::new();
    collect_rust_files(&crate_dir.join("src"), &mut files)?;
    files.sort();
    let mut modules = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file)
            .map_err(|source| Error::io(&file, "reading Rust source", source))?;
        let parsed = crate::annotations::parse_rust(&file, &text)?;
        find_modules(&parsed.items, &file, &settings, &attributes, &mut modules)?;
    }
    if modules.is_empty() {
        return Err(Error::Config {
            path: crate_dir.join("src"),
            message: format!(
                "no `#[vergate::versioned(minors = …)] mod …` found{}; see docs/derive.md",
                settings
                    .attribute
                    .as_deref()
                    .map(|path| format!(" (nor `#[{path}(…)]`)"))
                    .unwrap_or_default()
            ),
        });
    }
    Ok(modules)
}

fn find_modules(
    items: &[Item],
    file: &Path,
    settings: &Settings,
    attributes: &Attributes,
    out: &mut Vec<VersionedModule>,
) -> Result<()> {
    for item in items {
        let Item::Mod(module) = item else { continue };
        match versioned_args(module, attributes) {
            Some(args) => out.push(read_module(module, args, file, settings)?),
            None => {
                if let Some((_, inner)) = &module.content {
                    find_modules(inner, file, settings, attributes, out)?;
                }
            }
        }
    }
    Ok(())
}

/// The arguments of the module's `#[vergate::versioned(…)]` (or configured)
/// attribute.
fn versioned_args(module: &ItemMod, attributes: &Attributes) -> Option<proc_macro2::TokenStream> {
    let attr = module
        .attrs
        .iter()
        .find(|attr| attributes.matches(attr.path()))?;
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
    let model = crate::derive::annotated::gated_model(args, module).map_err(|errors| {
        Error::Annotations {
            messages: errors
                .into_iter()
                .map(|err| format!("{}:{}: {err}", file.display(), err.span().start().line))
                .collect(),
        }
    })?;
    let config = ApiConfig {
        name: name.clone(),
        description: None,
        dialect: None,
        facts: Default::default(),
        pkl_package: settings.pkl_package.clone().unwrap_or_else(|| name.clone()),
        version_field: settings
            .version_field
            .clone()
            .unwrap_or_else(|| "apiVersion".into()),
        annotation_class: settings.annotation_class.clone(),
        document_version_field: settings.document_version_field.clone(),
        kinds: Default::default(),
        pkl_publish_url: None,
        pkl_own_modules: Vec::new(),
        rust: Default::default(),
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

#[cfg(test)]
mod tests {
    use super::*;

    const MODULE_BODY: &str = "{ pub struct Spec { pub name: String } }";

    /// A crate whose src/lib.rs holds `modules` (attribute, module name) and
    /// whose manifest adds `metadata`.
    fn plugin(modules: &[(&str, &str)], metadata: &str) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("Cargo.toml"),
            format!("[package]\nname = \"p\"\n\n[package.metadata.vergate]\n{metadata}\n"),
        )
        .unwrap();
        std::fs::create_dir(dir.path().join("src")).unwrap();
        let source: String = modules
            .iter()
            .map(|(attribute, name)| {
                format!("#[{attribute}(minors = \"1.0..=1.1\")]\npub mod {name} {MODULE_BODY}\n")
            })
            .collect();
        std::fs::write(dir.path().join("src/lib.rs"), source).unwrap();
        dir
    }

    fn names(dir: &tempfile::TempDir) -> Vec<String> {
        read_crate(dir.path())
            .unwrap()
            .into_iter()
            .map(|module| module.name)
            .collect()
    }

    #[test]
    fn only_vergates_attribute_is_read() {
        let dir = plugin(
            &[
                ("vergate::versioned", "ours"),
                ("::vergate::versioned", "rooted"),
                ("other::versioned", "theirs"),
                ("versioned", "bare"),
            ],
            "",
        );
        assert_eq!(names(&dir), ["ours", "rooted"]);
    }

    #[test]
    fn a_configured_attribute_path_is_read_too() {
        let dir = plugin(
            &[
                ("vergate::versioned", "ours"),
                ("sdk::versioned", "reexported"),
                ("other::versioned", "theirs"),
            ],
            "attribute = \"sdk::versioned\"",
        );
        assert_eq!(names(&dir), ["ours", "reexported"]);
        let bad = plugin(
            &[("vergate::versioned", "ours")],
            "attribute = \"not a path\"",
        );
        let err = read_crate(bad.path()).unwrap_err().to_string();
        assert!(
            err.contains("Cargo.toml") && err.contains("not a Rust path"),
            "{err}"
        );
    }
}
