//! Arbitrary bytes as a spec file (JSON and YAML): the loader returns a model
//! or an error, never panics; a model always merges.

use std::path::PathBuf;
use vergate_codegen::load::{build_minor, parse};
use vergate_codegen::model::GatedModel;
use vergate_codegen::Version;

pub fn run(data: &[u8]) {
    for name in ["spec.json", "spec.yaml"] {
        let path = PathBuf::from(name);
        let Ok(document) = parse(&path, data) else {
            continue;
        };
        let Ok(minor) = build_minor(Version::new(1, 0), &[(path, document)]) else {
            continue;
        };
        let model = GatedModel::merge("fuzz", vec![minor.model]).expect("one minor always merges");
        let index = model.gates_index();
        assert_eq!(index.types.len(), model.types.len());
    }
}
