//! Generates the demo API's types into `$OUT_DIR/demo.rs`; `src/lib.rs`
//! includes them as the module `demo`. Cargo reruns this when api.toml or a
//! spec file changes (the builder prints `rerun-if-changed` for each).

fn main() {
    vergate_codegen::emit::rust::Builder::new("../../../upstream-specs/demo")
        .module_path("crate::demo")
        .generate()
        .unwrap_or_else(|err| panic!("{err}"));
}
