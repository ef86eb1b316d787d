//! The `{min, max}` pairs cel-go's cost model computes with (sizes and
//! costs alike), with its saturating arithmetic: a hostile rule's estimate
//! clamps at `u64::MAX` rather than overflowing.

/// A size (elements) or a cost (units), as a range.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Est {
    pub min: u64,
    pub max: u64,
}

/// A size nothing is known of.
pub const UNKNOWN: Est = Est {
    min: 0,
    max: u64::MAX,
};

/// Per character of a string walked (cel-go `StringTraversalCostFactor`).
pub const STRING_TRAVERSAL: f64 = 0.1;
/// Per character of a regular expression (`RegexStringLengthCostFactor`).
pub const REGEX_LENGTH: f64 = 0.25;
/// Creating a list, a map, a message (`ListCreateBaseCost`, …).
pub const LIST_CREATE: u64 = 10;
pub const MAP_CREATE: u64 = 30;
pub const STRUCT_CREATE: u64 = 40;

impl Est {
    pub const fn fixed(value: u64) -> Est {
        Est {
            min: value,
            max: value,
        }
    }

    pub fn add(self, other: Est) -> Est {
        Est {
            min: self.min.saturating_add(other.min),
            max: self.max.saturating_add(other.max),
        }
    }

    pub fn multiply(self, other: Est) -> Est {
        Est {
            min: self.min.saturating_mul(other.min),
            max: self.max.saturating_mul(other.max),
        }
    }

    /// Times a cost per unit, rounded up (cel-go `MultiplyByCostFactor`).
    pub fn factor(self, per_unit: f64) -> Est {
        Est {
            min: by_factor(self.min, per_unit),
            max: by_factor(self.max, per_unit),
        }
    }

    /// The smaller minimum and the larger maximum.
    pub fn union(self, other: Est) -> Est {
        Est {
            min: self.min.min(other.min),
            max: self.max.max(other.max),
        }
    }
}

/// `x * per_unit` rounded up, `u64::MAX` when it does not fit.
pub fn by_factor(x: u64, per_unit: f64) -> u64 {
    let product = (x as f64 * per_unit).ceil();
    if product >= 18_446_744_073_709_551_616.0 {
        u64::MAX
    } else {
        product as u64
    }
}
