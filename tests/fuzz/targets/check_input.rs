//! Arbitrary bytes as a file given to `vergate check`: decoding, the bounded
//! document reader and preflight (against the demo's gates) never panic,
//! and what they report is well formed: every error and duplicate key has a
//! line, a duplicate key comes after the one it repeats.

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
    let text = match document::decode(data.to_vec()) {
        Ok(text) => text,
        Err(err) => {
            assert!(err.line() >= 1, "{err:?}");
            return;
        }
    };
    for read in document::Reader::new(&text) {
        let doc = match read {
            Ok(doc) => doc,
            Err(err) => {
                assert!(err.line >= 1, "{err:?}");
                continue;
            }
        };
        for duplicate in &doc.duplicate_keys {
            assert!(duplicate.line >= duplicate.first_line, "{duplicate:?}");
            assert!(duplicate.path.ends_with(&duplicate.key), "{duplicate:?}");
        }
        let _ = doc.root.to_json();
        for target in [None, Some(Version::new(1, 10))] {
            for strict in [false, true] {
                let options = preflight::Options {
                    target,
                    strict,
                    ..Default::default()
                };
                let _ = preflight::check(tables(), &doc.root, options);
            }
        }
    }
}
