//! How definitions are written ([`Style`]): shared by the converter and
//! the keywords it adds (gates, unions, editor keywords).

use super::gate_keyword::GateKeywords;
use vergate_core::Version;

/// How definitions are written: for which minor, strict or not, and where
/// references point.
#[derive(Clone, Copy, Debug)]
pub struct Style<'a> {
    pub minor: Version,
    /// `additionalProperties: false` on every object that has properties.
    pub strict: bool,
    /// What a definition's name is appended to in a `$ref` (`#/$defs/`).
    pub ref_base: &'a str,
    /// The property that carries the document's minor, when the API has one
    /// (api.toml's `document_version_field`).
    pub document_version_field: Option<&'a str>,
    pub gates: &'a GateKeywords,
}
