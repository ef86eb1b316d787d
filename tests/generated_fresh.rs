//! The committed demo output must be what `cargo xtask regen` writes today.

use std::path::Path;
use vergate_codegen::api::Api;
use vergate_codegen::output::{sync, Mode};
use vergate_codegen::regen;

/// The committed demo APIs: `demo` (OpenAPI) and `demo-operator` (CRDs).
const DEMOS: [&str; 2] = ["demo", "demo-operator"];

#[test]
fn generated_demos_are_fresh() {
    for demo in DEMOS {
        demo_is_fresh(demo);
    }
}

fn demo_is_fresh(demo: &str) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let api =
        Api::open(&root.join("upstream-specs").join(demo)).unwrap_or_else(|err| panic!("{err}"));
    let built = regen::build(&api).unwrap_or_else(|err| panic!("{err}"));
    assert!(
        built.warnings.is_empty(),
        "the {demo} specs give warnings: {:?}",
        built.warnings
    );
    let report = sync(&built.tree, &root.join("generated").join(demo), Mode::Check).unwrap();
    let stale: Vec<String> = report
        .differing()
        .iter()
        .map(|p| p.display().to_string())
        .collect();
    assert!(
        report.is_clean(),
        "generated/{demo} is stale ({}); run `cargo xtask regen` and commit the result",
        stale.join(", ")
    );
}

#[test]
fn regen_is_deterministic() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for demo in DEMOS {
        let api = Api::open(&root.join("upstream-specs").join(demo)).unwrap();
        let first = regen::build(&api).unwrap().tree;
        let second = regen::build(&api).unwrap().tree;
        assert_eq!(first, second, "{demo}");
    }
}
