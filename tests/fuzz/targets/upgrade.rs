//! Arbitrary bytes as a file given to `vergate upgrade` (Kubernetes, the
//! embedded tables): decoding, reading, converting each document from
//! 1.28 to 1.36 (and back) and editing the text in place never panic; an
//! edited text reads back as the documents intended, one for one.

use std::sync::OnceLock;
use vergate::tables::GateTables;
use vergate::upgrade::{self, edit};
use vergate::{document, Version};

fn tables() -> &'static GateTables {
    static TABLES: OnceLock<GateTables> = OnceLock::new();
    TABLES.get_or_init(vergate::embedded::kubernetes)
}

pub fn run(data: &[u8]) {
    let Ok(text) = document::decode(data.to_vec()) else {
        return;
    };
    let parsed = document::parse(&text);
    for (from, to) in [((1, 28), (1, 36)), ((1, 36), (1, 28))] {
        let (from, to) = (Version::new(from.0, from.1), Version::new(to.0, to.1));
        let intended: Vec<document::Node> = parsed
            .documents
            .iter()
            .map(
                |doc| match upgrade::convert(tables(), &doc.root, Some(from), to) {
                    Ok(conversion) if !conversion.is_refused() => conversion.document,
                    _ => doc.root.clone(),
                },
            )
            .collect();
        let targets = edit::targets(&parsed.documents, &intended);
        if let Ok(Some(edited)) = edit::rewrite(&text, &targets) {
            let again = document::parse(&edited);
            assert!(
                again.error.is_none(),
                "the edited text reads: {:?}",
                again.error
            );
            assert_eq!(again.documents.len(), intended.len(), "{edited}");
            for (read, meant) in again.documents.iter().zip(&intended) {
                assert!(edit::same(&read.root, meant), "{edited}");
            }
        }
    }
}
