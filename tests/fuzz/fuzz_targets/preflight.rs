//! Arbitrary text as a document checked against the demo's gates: parsing
//! and preflight never panic, in strict and lenient mode, for every minor.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;
use vergate::tables::GateTables;
use vergate::{document, preflight, Version};

fn tables() -> &'static GateTables {
    static TABLES: OnceLock<GateTables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../generated/demo");
        GateTables::load(&dir).expect("the committed demo gates load")
    })
}

fuzz_target!(|text: &str| {
    let parsed = document::parse(text);
    for doc in &parsed.documents {
        for minor in [None, Some(Version::new(1, 9)), Some(Version::new(1, 12)), Some(Version::new(7, 0))] {
            for strict in [false, true] {
                let _ = preflight::check(tables(), &doc.root, preflight::Options { target: minor, strict, ..Default::default() });
            }
        }
    }
});
