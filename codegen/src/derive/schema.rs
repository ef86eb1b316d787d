//! `Versioned::JSON_SCHEMA`: the JSON Schema (2020-12) of one definition in
//! one minor, written by the converter the JSON Schema emitter uses
//! ([`crate::to_json_schema`]), so that a derived type's schema and the tree
//! `regen --from-rust` writes for it agree.

use crate::model::GatedModel;
use crate::to_json_schema::{standalone, GateKeywords, Style};
use vergate_core::Version;

/// The standalone schema of definition `name` as minor `version` has it, as
/// compact JSON text: `$ref` to the definition, everything it reaches under
/// `$defs`. `closed` writes the strict style (`additionalProperties: false`
/// on every object that has properties), as the emitter's `-strict` trees.
pub fn json_schema(model: &GatedModel, version: Version, name: &str, closed: bool) -> String {
    let gates = GateKeywords::new(model);
    let style = Style {
        minor: version,
        strict: closed,
        ref_base: "#/$defs/",
        document_version_field: None,
        gates: &gates,
    };
    standalone(&model.minors[&version], name, &style).to_string()
}
