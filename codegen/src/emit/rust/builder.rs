//! [`Builder`]: the Rust output from a plugin's `build.rs`.

use super::format;
use super::render::Plan;
use crate::api::Api;
use crate::error::{Error, Result};
use crate::load;
use crate::model::GatedModel;
use quote::{format_ident, quote};
use std::path::{Path, PathBuf};

/// Generates one API's Rust types into a single file for `include!`, from a
/// `build.rs`:
///
/// ```no_run
/// // build.rs: `fn main` of the build script
/// vergate_codegen::emit::rust::Builder::new("specs/demo")
///     .module_path("crate::demo")
///     .generate()
///     .unwrap_or_else(|err| panic!("{err}"));
/// ```
///
/// ```ignore
/// // src/lib.rs
/// pub mod demo {
///     include!(concat!(env!("OUT_DIR"), "/demo.rs"));
/// }
/// ```
///
/// The spec directory is laid out like `upstream-specs/<api>/` (an
/// `api.toml` and one `v<X.Y>/` directory per minor). The file holds every
/// minor the directory has, each a module (`v1_12`) with its groups and its
/// prelude, without cargo features. It prints `cargo:rerun-if-changed` for
/// `api.toml` and every spec file, and rewrites the file only when its
/// contents change.
#[derive(Clone, Debug)]
pub struct Builder {
    spec_dir: PathBuf,
    module_path: String,
    out_dir: Option<PathBuf>,
    file_name: Option<String>,
}

impl Builder {
    /// A builder for the API whose `api.toml` is in `spec_dir` (relative
    /// paths are relative to the crate's manifest directory, as in `build.rs`).
    pub fn new(spec_dir: impl Into<PathBuf>) -> Builder {
        Builder {
            spec_dir: spec_dir.into(),
            module_path: "crate".to_owned(),
            out_dir: None,
            file_name: None,
        }
    }

    /// The Rust path of the module the file is `include!`d in (`crate` by
    /// default; `crate::demo` for `pub mod demo { include!(…) }`). The
    /// generated code names its own items through it.
    pub fn module_path(mut self, path: impl Into<String>) -> Builder {
        self.module_path = path.into();
        self
    }

    /// Where to write (default: `$OUT_DIR`).
    pub fn out_dir(mut self, dir: impl Into<PathBuf>) -> Builder {
        self.out_dir = Some(dir.into());
        self
    }

    /// The file's name (default: `<api>.rs`, the API's name from api.toml).
    pub fn file_name(mut self, name: impl Into<String>) -> Builder {
        self.file_name = Some(name.into());
        self
    }

    /// Loads the specs, writes the file and returns its path.
    pub fn generate(self) -> Result<PathBuf> {
        let api = Api::open(&self.spec_dir)?;
        println!(
            "cargo:rerun-if-changed={}",
            self.spec_dir.join("api.toml").display()
        );
        for minor in api.present_minors()? {
            for file in api.spec_files(&minor)? {
                println!("cargo:rerun-if-changed={}", file.display());
            }
        }
        let loaded = load::load_api(&api)?;
        let mut model = GatedModel::merge_as(
            api.name(),
            api.dialect,
            loaded.into_iter().map(|m| m.model).collect(),
        )?;
        load::facts::load(&api)?.apply(&mut model);
        let root = syn::parse_str::<syn::Path>(&self.module_path).map_err(|err| Error::Config {
                path: self.spec_dir.clone(),
                message: format!(
                    "Builder::module_path({:?}) is not a Rust path ({err}); give the path of the module that include!s the file, like \"crate::demo\"",
                    self.module_path
                ),
            })?;
        let text = single_file(&model, &root)?;
        let out_dir = match self.out_dir {
            Some(dir) => dir,
            None => std::env::var_os("OUT_DIR").map(PathBuf::from).ok_or_else(|| Error::Config {
                path: self.spec_dir.clone(),
                message: "OUT_DIR is not set; call Builder::generate from a build script, or set Builder::out_dir".into(),
            })?,
        };
        let path = out_dir.join(
            self.file_name
                .unwrap_or_else(|| format!("{}.rs", model.api)),
        );
        write_if_changed(&path, text.as_bytes())?;
        Ok(path)
    }
}

/// The whole output as one file: the root items, every minor's module and
/// the shapes, inline.
pub(super) fn single_file(model: &GatedModel, root: &syn::Path) -> Result<String> {
    let plan = Plan::new(model, root, false);
    let mut tokens = plan.root_items(super::render::inline_wire_module());
    for version in &model.versions {
        let attrs = plan.minor_attrs(*version);
        let module = format_ident!("{}", version.ident());
        let body = plan.minor_body(*version);
        tokens.extend(quote!(#attrs pub mod #module { #body }));
    }
    let homes = plan.shapes.homes().into_iter().map(|(home, names)| {
        let module = format_ident!("{}", home.ident());
        let body = plan.shapes_body(home, &names);
        quote!(pub mod #module { #body })
    });
    tokens.extend(quote! {
        #[allow(deprecated)]
        mod shapes {
            #(#homes)*
        }
    });
    let text = format(&format!("{} (Builder output)", model.api), tokens)?;
    Ok(format!(
        "// Generated by vergate_codegen::emit::rust::Builder; do not edit.\n{text}"
    ))
}

fn write_if_changed(path: &Path, bytes: &[u8]) -> Result<()> {
    if std::fs::read(path).is_ok_and(|old| old == bytes) {
        return Ok(());
    }
    std::fs::write(path, bytes)
        .map_err(|source| Error::io(path, "writing the generated Rust", source))
}
