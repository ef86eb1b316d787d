//! A CRD and a custom resource built from bytes (`gen/crd_pair.rs`:
//! nested junctors, CEL rules with long messages, long lists): reading
//! the CRD, its junctors and its rules, and checking the resource against
//! them never panic, and what is reported is bounded: at most
//! `findings::MAX_PER_RULE` findings a rule, each message at most
//! `findings::MAX_MESSAGE_BYTES`.

use std::path::Path;
use vergate::cel::schema::{defaults, ServedSchema};
use vergate::findings::{Findings, MAX_MESSAGE_BYTES, MAX_PER_RULE};
use vergate::{document, Version};

pub fn run(data: &[u8]) {
    let pair = crate::crd_pair::pair(data);
    let path = Path::new("crd.yaml");
    let Ok(loaded) = vergate_codegen::load::parse_crds(path, pair.crd.as_bytes()) else {
        return;
    };
    let Some(definitions) = loaded.root.get("definitions").and_then(|d| d.as_object()) else {
        return;
    };
    let resources = document::parse(&pair.cr);
    for schema in definitions.values() {
        let served = ServedSchema::read(schema, "the CRD in crd.yaml".to_owned());
        for doc in &resources.documents {
            let mut found = Findings::new();
            let minor = Some(Version::new(1, 34));
            // As the engine defaults: ahead when junctors read the value
            // or the bound is reached, else as the rules read.
            let defaulted = defaults::ahead(&served.tree, &doc.root);
            let (value, cut) = match &defaulted {
                Some(defaulted) => (&*defaulted.root, defaulted.cut.as_ref()),
                None => (&doc.root, None),
            };
            found.extend(vergate::junctors::check(&served, value, cut, minor));
            if cut.is_none() {
                let outcome = vergate::cel::evaluate(&served.tree, value, minor);
                found.absorb(outcome.violations);
            }
            let (kept, _) = found.into_parts();
            for rule in vergate::preflight::Rule::ALL {
                let count = kept.iter().filter(|v| v.rule == *rule).count();
                assert!(count <= 2 * MAX_PER_RULE, "{count} findings of {rule:?}");
            }
            for violation in &kept {
                assert!(
                    violation.message.len() <= MAX_MESSAGE_BYTES,
                    "{}",
                    violation.message.len()
                );
            }
        }
    }
}
