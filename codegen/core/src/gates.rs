//! The serialized gates index, `generated/<api>/gates.json`: when every type,
//! field and enum value of an API was introduced, deprecated and removed.
//!
//! The code generator writes it and the runtime preflight reads it, through
//! these types. Keys are written sorted. Optional keys are left out when they
//! do not apply, except `removed_in`, which is always present (`null` when the
//! item is in the newest minor).
//!
//! Without the `index` feature only [`Stage`] is here: the runtime's
//! generated tables name it, and nothing else of the index.

mod stage;
pub use stage::Stage;

#[cfg(feature = "index")]
mod index;
#[cfg(feature = "index")]
pub use index::*;

#[cfg(feature = "index")]
pub use crate::dialect::Dialect;
#[cfg(feature = "index")]
mod constraints;
#[cfg(feature = "index")]
mod cross_field;
#[cfg(feature = "index")]
mod facts;
#[cfg(all(feature = "index", feature = "serde"))]
mod flat;
#[cfg(feature = "index")]
mod type_expr;
#[cfg(feature = "index")]
mod union;
#[cfg(feature = "index")]
pub use constraints::{Constraints, ListType, Number, ValidationRule};
#[cfg(feature = "index")]
pub use cross_field::{
    duplicate_message, none_message, too_many_message, CrossFieldRule, DUPLICATE, FORBIDDEN,
    REQUIRED,
};
#[cfg(feature = "index")]
pub use facts::{
    api_lifecycle_in, gate_state_in, warning_in, ApiLifecycle, FeatureGateHistory,
    FeatureGateState, GateStage, RetiredKind,
};
#[cfg(feature = "index")]
pub use type_expr::{Format, ParseTypeExprError, Scalar, TypeExpr, MAX_NESTING};
#[cfg(feature = "index")]
pub use union::{DiscriminatorGate, UnionGate, UnionKind};
