//! What an expansion emits besides the types themselves.

/// What to emit besides the types themselves.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// `From`/`TryFrom` between each pair of adjacent minors.
    pub conversions: bool,
    /// `impl Versioned` (name, minor, gate table, JSON Schema) on every type.
    /// Spec-driven output at Kubernetes scale may leave it out: each JSON
    /// Schema embeds every definition its type reaches.
    pub versioned_impls: bool,
    /// JSON Schemas reject properties a type does not declare
    /// (`additionalProperties: false`) unless the model gives a schema for them.
    pub closed_schemas: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            conversions: true,
            versioned_impls: true,
            closed_schemas: true,
        }
    }
}
