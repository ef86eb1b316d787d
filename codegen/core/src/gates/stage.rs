//! A feature's maturity stage: the one part of the gates index the
//! runtime's generated tables name (`gates::Stage`), so it builds without
//! the `index` feature.

/// A maturity stage.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Stage {
    /// Off unless its feature gate is enabled.
    Alpha,
    /// On by default in most APIs, may still change.
    Beta,
    /// Generally available.
    Ga,
}

impl Stage {
    /// The stage as gates.json writes it: `alpha`, `beta`, `ga`.
    pub fn name(self) -> &'static str {
        match self {
            Stage::Alpha => "alpha",
            Stage::Beta => "beta",
            Stage::Ga => "ga",
        }
    }
}
