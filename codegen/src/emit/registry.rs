//! The emitter registry: the one list of what `regen` writes below
//! `generated/<api>/`. `regen` and `regen --check` run its emitters,
//! `--from-rust` the ones marked for it, `publish` packs their outputs as
//! each says, and README.md's output table is rendered from it (a test keeps
//! them equal). Adding an emitter is a new folder under `emit/` and one
//! entry in [`EMITTERS`].

use crate::api::ApiConfig;
use crate::error::Result;
use crate::model::GatedModel;
use crate::output::{FileTree, RenderCache};

/// One emitter: a pure function of the gated model that adds one subtree
/// (or one file) to the output.
#[derive(Debug)]
pub struct Emitter {
    /// Its name in timings, and the name of its render cache in
    /// `generated/<api>/.regen-cache/`.
    pub name: &'static str,
    /// What it writes inside `generated/<api>/`, and nothing else.
    pub output: Output,
    /// Adds the output to the tree. The render cache is the emitter's own
    /// (those that do not cache texts ignore it).
    pub emit: EmitFn,
    /// Whether `regen --from-rust` writes it for a plugin's hand-written
    /// types (the Rust crate is not: the derive is that plugin's Rust).
    pub from_rust: bool,
    /// How `cargo xtask publish` packs the output.
    pub packing: Packing,
    /// README.md's description of the output (its "What you get" table).
    pub summary: &'static str,
    /// The guide to the output, as README.md links it.
    pub guide: &'static str,
    /// What other tools (and people) leave directly inside its output
    /// directory: names or `*` patterns that a regen never lists, writes or
    /// removes, nor lets an emitter claim (the crate's `Cargo.lock` and
    /// `target/`, which cargo writes beside its manifest).
    pub untouched: &'static [&'static str],
}

/// An emitter's function: the model, api.toml's settings and the emitter's
/// render cache in, its files added to the tree.
pub type EmitFn = fn(&GatedModel, &ApiConfig, &RenderCache, &mut FileTree) -> Result<()>;

/// An emitter's output inside `generated/<api>/`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Output {
    /// A directory (`pkl`) and everything below it.
    Dir(&'static str),
    /// One file (`gates.json`).
    File(&'static str),
}

impl Output {
    /// Its path relative to `generated/<api>/`.
    pub fn path(self) -> &'static str {
        match self {
            Output::Dir(path) | Output::File(path) => path,
        }
    }

    /// True when `path` (relative to `generated/<api>/`) is this output or
    /// below it.
    pub fn owns(self, path: &std::path::Path) -> bool {
        match self {
            Output::Dir(dir) => path.starts_with(dir) && path != std::path::Path::new(dir),
            Output::File(file) => path == std::path::Path::new(file),
        }
    }
}

/// How `cargo xtask publish` packs an emitter's output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Packing {
    /// Not published.
    None,
    /// A Pkl package made by the real `pkl project package`, and each
    /// `v<X.Y>` subtree zipped alone with its metadata.
    PklPackage,
    /// Every subdirectory as a reproducible `.tar.gz`; files at the top
    /// copied as they are.
    Tarballs,
}

/// Every emitter, in the order they start (the costliest first: they run in
/// parallel, and the one started last should be short).
pub const EMITTERS: &[Emitter] = &[
    Emitter {
        name: "rust",
        output: Output::Dir(super::rust::RUST_DIR),
        emit: super::rust::emit_cached,
        from_rust: false,
        packing: Packing::None,
        summary: "a crate with one module per minor (`v1_34::core::v1::Service`), one cargo feature per minor",
        guide: "[docs/rust.md](docs/rust.md)",
        // What cargo writes beside the manifest, and hidden entries: a
        // user's `.cargo/config.toml`, an editor's `.vscode/`, `.DS_Store`.
        untouched: &["Cargo.lock", "target", ".*"],
    },
    Emitter {
        name: "json",
        output: Output::Dir(super::json_schema::DIR),
        emit: |model, config, _, tree| super::json_schema::emit(model, config, tree),
        from_rust: true,
        packing: Packing::Tarballs,
        summary: "JSON Schema 2020-12 per kind and minor, strict variants, `all.json` per minor, copies laid out as kubeconform's `-schema-location` looks for them, a combined schema that picks its branch by `apiVersion`, OpenAPI 3.1",
        guide: "[docs/json-schema.md](docs/json-schema.md)",
        untouched: &[],
    },
    Emitter {
        name: "pkl",
        output: Output::Dir(super::pkl::PKL_DIR),
        emit: super::pkl::emit_cached,
        from_rust: true,
        packing: Packing::PklPackage,
        summary: "a Pkl package: `@k8s/v1.34/apps/Deployment.pkl` holds only what 1.34 accepts",
        guide: "[docs/pkl.md](docs/pkl.md)",
        untouched: &[],
    },
    Emitter {
        name: "gates.json",
        output: Output::File(super::gates::GATES_JSON),
        emit: |model, config, _, tree| super::gates::emit(model, config, tree),
        from_rust: true,
        packing: Packing::None,
        summary: "when every type, field and enum value was introduced, deprecated, removed (below)",
        guide: "this file",
        untouched: &[],
    },
];

/// Every output directory's [`Emitter::untouched`] patterns, by directory
/// (relative to `generated/<api>/`).
pub fn untouched() -> impl Iterator<Item = (&'static str, &'static str)> {
    EMITTERS.iter().flat_map(|emitter| {
        let dir = match emitter.output {
            Output::Dir(dir) => Some(dir),
            Output::File(_) => None,
        };
        dir.into_iter()
            .flat_map(move |dir| emitter.untouched.iter().map(move |name| (dir, *name)))
    })
}

/// README.md's "What you get" table: one row per emitter, by output path.
pub fn readme_table() -> String {
    let mut rows: Vec<(&str, String)> = EMITTERS
        .iter()
        .map(|emitter| {
            let shown = match emitter.output {
                Output::Dir(dir) => format!("{dir}/"),
                Output::File(file) => file.to_owned(),
            };
            let row = format!("| `{shown}` | {} | {} |\n", emitter.summary, emitter.guide);
            (emitter.output.path(), row)
        })
        .collect();
    rows.sort();
    let mut table = String::from("| output | what it is | guide |\n|---|---|---|\n");
    table.extend(rows.into_iter().map(|(_, row)| row));
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_outputs_are_distinct() {
        let mut names: Vec<&str> = EMITTERS.iter().map(|e| e.name).collect();
        let mut outputs: Vec<&str> = EMITTERS.iter().map(|e| e.output.path()).collect();
        names.sort_unstable();
        names.dedup();
        outputs.sort_unstable();
        outputs.dedup();
        assert_eq!(
            (names.len(), outputs.len()),
            (EMITTERS.len(), EMITTERS.len())
        );
    }

    /// Untouched entries are valid patterns of a directory output, read by
    /// the sync (`output::Untouched`).
    #[test]
    fn untouched_entries_are_patterns_of_directory_outputs() {
        for emitter in EMITTERS {
            for name in emitter.untouched {
                assert!(
                    matches!(emitter.output, Output::Dir(_)),
                    "{}: untouched needs a directory output",
                    emitter.name
                );
                glob::Pattern::new(name).unwrap();
                assert!(!name.contains('/'), "{name}: one name, directly inside");
            }
        }
        assert!(untouched().any(|(_, name)| name == "Cargo.lock"));
    }

    /// README.md's table is the registry's: an emitter added without its
    /// row (or a row without its emitter) fails here.
    #[test]
    fn readme_lists_every_emitter() {
        let readme = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../README.md"),
        )
        .expect("README.md at the repository root");
        let table = readme_table();
        assert!(
            readme.contains(&table),
            "README.md's output table differs from the emitter registry \
             (codegen/src/emit/registry.rs); it should read:\n{table}"
        );
    }
}
