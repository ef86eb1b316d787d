//! Arbitrary text as a document checked against the demo's gates: parsing
//! and preflight never panic, in strict and lenient mode, for every minor.

use std::sync::OnceLock;
use vergate::tables::GateTables;
use vergate::{document, preflight, Version};

fn tables() -> &'static GateTables {
    static TABLES: OnceLock<GateTables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join(crate::ROOT)
            .join("generated/demo");
        GateTables::load(&dir).expect("the committed demo gates load")
    })
}

pub fn run(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let parsed = document::parse(text);
    for doc in &parsed.documents {
        for minor in [
            None,
            Some(Version::new(1, 9)),
            Some(Version::new(1, 12)),
            Some(Version::new(7, 0)),
        ] {
            for strict in [false, true] {
                let options = preflight::Options {
                    target: minor,
                    strict,
                    ..Default::default()
                };
                let _ = preflight::check(tables(), &doc.root, options);
            }
        }
    }
}
