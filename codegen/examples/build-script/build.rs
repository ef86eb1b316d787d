//! Generates the demo API's types into `$OUT_DIR/demo.rs`; `src/lib.rs`
//! includes them as the module `demo`. Cargo reruns this when api.toml or a
//! spec file changes (the builder prints `rerun-if-changed` for each).
//! `demo-api` links to the repository's `upstream-specs/demo`, so that the
//! packaged crate (`cargo package` copies a linked directory's files) finds
//! the same files as the workspace does.

fn main() {
    vergate_codegen::emit::rust::Builder::new("demo-api")
        .module_path("crate::demo")
        .generate()
        .unwrap_or_else(|err| panic!("{err}"));
}
