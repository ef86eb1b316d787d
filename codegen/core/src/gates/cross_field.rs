//! Cross-field rules: checks the API server makes over several fields of
//! one object that no schema states (port names unique in a list, exactly
//! one probe handler). They are declared once, in the API's refinements
//! overlay, carried in gates.json on their type, enforced by the Pkl
//! packages and by `vergate check`, and worded here once for both, as the
//! API server words them (k8s.io/apimachinery's `field.Error` types:
//! `Duplicate value`, `Required value`, `Forbidden`).

/// One cross-field rule of an object type.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(tag = "rule", rename_all = "snake_case"))]
pub enum CrossFieldRule {
    /// The items of the list field `field` that set `key` (non-empty) set
    /// different values of it.
    UniqueKey { field: String, key: String },
    /// When the list field `field` has more than one item, every item sets
    /// `key` (non-empty).
    KeyRequiredWhenMany { field: String, key: String },
    /// Exactly one of `fields` is set (non-null), in the API server's
    /// order: none is `none` at the object, a second is `too_many` at that
    /// field.
    ExactlyOneOf {
        fields: Vec<String>,
        none: String,
        too_many: String,
    },
    /// At least one of `fields` is set (non-null): none is `none` at the
    /// object; and `alone`, when set, is the only one: beside another it is
    /// `too_many` at the object (a NetworkPolicyPeer's `ipBlock`).
    OneOrMoreOf {
        fields: Vec<String>,
        alone: String,
        none: String,
        too_many: String,
    },
}

impl CrossFieldRule {
    /// The fields of the object the rule reads.
    pub fn fields(&self) -> Vec<&str> {
        match self {
            CrossFieldRule::UniqueKey { field, .. }
            | CrossFieldRule::KeyRequiredWhenMany { field, .. } => vec![field],
            CrossFieldRule::ExactlyOneOf { fields, .. }
            | CrossFieldRule::OneOrMoreOf { fields, .. } => {
                fields.iter().map(String::as_str).collect()
            }
        }
    }
}

/// `Duplicate value: "http"`: a list item repeats a key's value.
pub fn duplicate_message(value: &str) -> String {
    format!(
        "{DUPLICATE}\"{}\"",
        value.replace('\\', "\\\\").replace('"', "\\\"")
    )
}

/// The words of a duplicate before the quoted value.
pub const DUPLICATE: &str = "Duplicate value: ";

/// A required key is missing.
pub const REQUIRED: &str = "Required value";

/// `Required value: must specify a handler type`: none of the fields is set.
pub fn none_message(none: &str) -> String {
    format!("{REQUIRED}: {none}")
}

/// A field that may not be set.
pub const FORBIDDEN: &str = "Forbidden";

/// `Forbidden: may not specify more than 1 handler type`: a second field is set.
pub fn too_many_message(too_many: &str) -> String {
    format!("{FORBIDDEN}: {too_many}")
}
