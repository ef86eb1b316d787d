//! Both front doors give the same JSON Schema for the same type: the
//! derive's `Versioned::JSON_SCHEMA` of every type of this crate, in every
//! minor, is the schema the JSON Schema emitter writes for that definition
//! in the model `cargo xtask regen --from-rust` reads from this crate's
//! source (its strict tree, per-definition file, without the `$comment` and
//! `title` a file carries).

use serde_json::Value;
use std::collections::BTreeSet;
use std::path::Path;
use vergate::versioned::Versioned;
use vergate::Version;
use vergate_codegen::emit::json_schema::{definition_file, strict_tree, Selection};
use vergate_codegen::from_rust::read_crate;
use vergate_example_plugin::api;

/// `(minor, type name, JSON_SCHEMA)` of each listed type of each minor.
macro_rules! derived {
    ($($minor:ident: [$($ty:ident),*]),* $(,)?) => {
        vec![$($((
            <api::$minor::$ty as Versioned>::VERSION,
            <api::$minor::$ty as Versioned>::NAME,
            <api::$minor::$ty as Versioned>::JSON_SCHEMA,
        ),)*)*]
    };
}

#[test]
fn the_derive_and_the_emitter_write_the_same_schema() {
    let derived = derived! {
        v2_3: [QueueSpec, Ordering],
        v2_4: [QueueSpec, DeadLetter, Ordering],
        v2_5: [QueueSpec, DeadLetter, Ordering],
        v2_6: [QueueSpec, DeadLetter, Ordering],
    };
    let modules = read_crate(Path::new(env!("CARGO_MANIFEST_DIR"))).unwrap();
    let [module] = modules.as_slice() else {
        panic!("one versioned module, found {}", modules.len());
    };
    let every: BTreeSet<(Version, &str)> = module
        .model
        .minors
        .values()
        .flat_map(|minor| {
            minor
                .definitions
                .keys()
                .map(|name| (minor.version, name.as_str()))
        })
        .collect();
    let listed: BTreeSet<(Version, &str)> = derived
        .iter()
        .map(|(minor, name, _)| (*minor, *name))
        .collect();
    assert_eq!(listed, every, "list every type of every minor above");
    for (version, name, text) in derived {
        let minor = &module.model.minors[&version];
        let files = strict_tree(&module.model, minor, Selection::EveryDefinition).unwrap();
        let file = definition_file(name);
        let (_, bytes) = files
            .iter()
            .find(|(path, _)| *path == file)
            .unwrap_or_else(|| panic!("{version}: no {file}"));
        let mut emitted: Value = serde_json::from_slice(bytes).unwrap();
        let root = emitted.as_object_mut().unwrap();
        root.remove("$comment");
        root.remove("title");
        let derived: Value = serde_json::from_str(text).unwrap();
        assert_eq!(derived, emitted, "{name} in {version}");
    }
}
