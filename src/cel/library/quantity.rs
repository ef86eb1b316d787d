//! Kubernetes quantities (`quantity('1.5Gi')`), as the API server's CEL
//! quantity library offers them: read by the one quantity grammar
//! (`vergate_core::support::quantity`, `resource.ParseQuantity`'s), valued
//! as `ParseQuantity` values them (rounded up to a nano, a binary quantity
//! capped at 2^63 - 1), compared exactly.
//!
//! A value is held as `digits × 10^exp10 × 2^exp2`: exact for every
//! quantity of up to 38 significant digits (more are rounded up at the
//! 38th; Go keeps them all). Comparisons bring both sides to one scale in
//! 128-bit integers and fall back to their magnitudes beyond that.

use std::cmp::Ordering;
use vergate_core::support::quantity::parse_quantity;

/// A parsed quantity; two are equal when their values are (`1Gi` ==
/// `1024Mi`), as cel-go's `==` on quantities compares them (`Equal`).
#[derive(Clone, Copy, Debug)]
pub struct Quantity {
    /// The significant digits, signed.
    digits: i128,
    exp10: i32,
    exp2: u32,
}

impl PartialEq for Quantity {
    fn eq(&self, other: &Quantity) -> bool {
        self.compare(other) == Ordering::Equal
    }
}

impl Eq for Quantity {}

impl cel::objects::Opaque for Quantity {
    fn runtime_type_name(&self) -> &str {
        "kubernetes.Quantity"
    }
}

/// The most significant digits held (every 38-digit number fits an `i128`).
const MAX_DIGITS: usize = 38;

/// The finest unit the API server keeps: 10^-9 (`Nano`).
const NANO: i32 = -9;

impl Quantity {
    /// Reads `text` as the API server does, or gives its error.
    pub fn parse(text: &str) -> Result<Quantity, String> {
        let parts = parse_quantity(text).map_err(|err| {
            err.go_message()
                .map_or_else(|| err.to_string(), str::to_owned)
        })?;
        let whole = parts.whole.trim_start_matches('0');
        let mut exp10 = i64::from(parts.exponent) - parts.fraction.len() as i64;
        let significant = if whole.is_empty() {
            parts.fraction.trim_start_matches('0')
        } else {
            parts.fraction
        };
        // The digits, with trailing zeros moved into the exponent; past
        // MAX_DIGITS, rounded up (away from zero) at the last one kept.
        let count = whole.len() + significant.len();
        let kept = count.min(MAX_DIGITS);
        let mut bytes = whole.bytes().chain(significant.bytes());
        let mut digits: i128 = 0;
        for byte in bytes.by_ref().take(kept) {
            digits = digits * 10 + i128::from(byte - b'0');
        }
        if bytes.any(|byte| byte != b'0') {
            digits += 1;
        }
        exp10 += (count - kept) as i64;
        while digits != 0 && digits % 10 == 0 {
            digits /= 10;
            exp10 += 1;
        }
        if parts.negative {
            digits = -digits;
        }
        let mut quantity = Quantity {
            digits,
            exp10: exp10.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32,
            exp2: parts.binary,
        };
        quantity.round_to_nano();
        if parts.binary > 0 {
            quantity.cap_binary();
        }
        Ok(quantity)
    }

    /// Rounds up (away from zero) to a whole number of nanos, as
    /// `ParseQuantity` does (`Round(amount, Nano, inf.RoundUp)`).
    fn round_to_nano(&mut self) {
        if self.exp10 >= NANO || self.digits == 0 {
            return;
        }
        // A binary suffix's power folded into the digits first, when it fits.
        if self.exp2 > 0 {
            match self.digits.checked_mul(1i128 << self.exp2) {
                Some(digits) => {
                    self.digits = digits;
                    self.exp2 = 0;
                }
                None => return,
            }
        }
        let shift = (i64::from(NANO) - i64::from(self.exp10)) as u32;
        let sign = self.digits.signum();
        self.digits = match 10i128.checked_pow(shift) {
            Some(divisor) => {
                let rounded = self.digits / divisor;
                rounded + if self.digits % divisor != 0 { sign } else { 0 }
            }
            // Below a nano whatever the digits: one nano.
            None => sign,
        };
        self.exp10 = NANO;
    }

    /// A binary quantity past 2^63 - 1 is that (`maxAllowed`), signed.
    fn cap_binary(&mut self) {
        let max = Quantity::from_i64(i64::MAX);
        if self.magnitude().compare(&max) == Ordering::Greater {
            *self = if self.digits < 0 { max.negated() } else { max };
        }
    }

    fn magnitude(&self) -> Quantity {
        Quantity {
            digits: self.digits.abs(),
            ..*self
        }
    }

    /// The value as a float (`asApproximateFloat`).
    pub fn as_f64(&self) -> f64 {
        self.digits as f64 * 10f64.powi(self.exp10) * 2f64.powi(self.exp2 as i32)
    }

    /// The value as an exact integer, when it is one within `i128`.
    fn as_integer(&self) -> Option<i128> {
        let mut value = self.digits.checked_mul(1i128.checked_shl(self.exp2)?)?;
        if self.exp10 >= 0 {
            value = value.checked_mul(10i128.checked_pow(self.exp10 as u32)?)?;
            Some(value)
        } else {
            let divisor = 10i128.checked_pow(self.exp10.unsigned_abs())?;
            (value % divisor == 0).then(|| value / divisor)
        }
    }

    /// `asInteger()`: the value when it is an integer within `int`.
    pub fn as_i64(&self) -> Option<i64> {
        self.as_integer()
            .and_then(|value| i64::try_from(value).ok())
    }

    /// `isInteger()`.
    pub fn is_integer(&self) -> bool {
        self.as_i64().is_some()
    }

    /// -1, 0 or 1 (`sign()`).
    pub fn sign(&self) -> i64 {
        self.digits.signum() as i64
    }

    /// The value scaled to `10^exp10` units, exactly, if it fits.
    fn scaled(&self, exp10: i32) -> Option<i128> {
        let value = self.digits.checked_mul(1i128.checked_shl(self.exp2)?)?;
        let up = u32::try_from(i64::from(self.exp10) - i64::from(exp10)).ok()?;
        value.checked_mul(10i128.checked_pow(up)?)
    }

    /// Compares exactly where 128 bits allow, else by sign and then by
    /// order of magnitude (which then differ by far more than a rounding).
    pub fn compare(&self, other: &Quantity) -> Ordering {
        let exp10 = self.exp10.min(other.exp10);
        if let (Some(a), Some(b)) = (self.scaled(exp10), other.scaled(exp10)) {
            return a.cmp(&b);
        }
        let (sign, other_sign) = (self.digits.signum(), other.digits.signum());
        if sign != other_sign || sign == 0 {
            return sign.cmp(&other_sign);
        }
        let log10 = |q: &Quantity| {
            (q.digits.unsigned_abs() as f64).log10()
                + f64::from(q.exp10)
                + f64::from(q.exp2) * std::f64::consts::LOG10_2
        };
        let order = log10(self)
            .partial_cmp(&log10(other))
            .unwrap_or(Ordering::Equal);
        if sign < 0 {
            order.reverse()
        } else {
            order
        }
    }

    /// The sum, when it can be held exactly.
    pub fn add(&self, other: &Quantity) -> Option<Quantity> {
        let exp10 = self.exp10.min(other.exp10);
        let digits = self.scaled(exp10)?.checked_add(other.scaled(exp10)?)?;
        Some(Quantity {
            digits,
            exp10,
            exp2: 0,
        })
    }

    /// The negated value.
    pub fn negated(&self) -> Quantity {
        Quantity {
            digits: -self.digits,
            ..*self
        }
    }

    /// An integer as a quantity.
    pub fn from_i64(value: i64) -> Quantity {
        Quantity {
            digits: value.into(),
            exp10: 0,
            exp2: 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Quantity;
    use std::cmp::Ordering;

    #[test]
    fn reads_and_compares_as_the_api_server() {
        let q = |text: &str| Quantity::parse(text).unwrap();
        assert_eq!(q("1Gi").compare(&q("1024Mi")), Ordering::Equal);
        assert_eq!(q("1G").compare(&q("1Gi")), Ordering::Less);
        assert_eq!(q("500m").compare(&q("0.5")), Ordering::Equal);
        assert_eq!(q("1.5e3").as_i64(), Some(1500));
        assert_eq!(q("-2k").sign(), -1);
        assert!(!q("500m").is_integer());
        assert_eq!(q("1Ki").add(&q("24")).unwrap().as_i64(), Some(1048));
        for bad in ["", "abc", "1..2", "1Qi", "--1", "1e"] {
            assert!(Quantity::parse(bad).is_err(), "{bad}");
        }
    }

    /// What k8s.io/apimachinery v0.36's `ParseQuantity` and `Cmp` answer
    /// at the limits (each pair run through them): values rounded up to a
    /// nano, binary ones capped at 2^63 - 1, no digits read as 0, an
    /// exponent kept in 32 bits, no limit on digits or exponents.
    #[test]
    fn values_at_the_limits_are_parse_quantitys() {
        let q = |text: &str| Quantity::parse(text).unwrap_or_else(|err| panic!("{text}: {err}"));
        for (a, b, go) in [
            ("1e-10", "1n", Ordering::Equal),
            ("0.0000000001", "1n", Ordering::Equal),
            ("-1e-10", "-1n", Ordering::Equal),
            ("1e-1000", "1n", Ordering::Equal),
            ("1.0000000001", "1.000000001", Ordering::Equal),
            ("0.001Ki", "1.024", Ordering::Equal),
            ("8Ei", "9Ei", Ordering::Equal),
            ("9Ei", "9223372036854775807", Ordering::Equal),
            ("-9Ei", "-9223372036854775807", Ordering::Equal),
            ("1e19", "9Ei", Ordering::Greater),
            (".", "0", Ordering::Equal),
            ("Ki", "0", Ordering::Equal),
            ("e3", "0", Ordering::Equal),
            ("-", "0", Ordering::Equal),
            ("1e4294967296", "1", Ordering::Equal),
            ("1e1000", "1e999", Ordering::Greater),
            ("-1e1000", "-1e999", Ordering::Less),
            ("1Ki", "1k", Ordering::Greater),
            ("1e3", "1E3", Ordering::Equal),
            ("1.5Gi", "1536Mi", Ordering::Equal),
            ("1Gi", "1024Mi", Ordering::Equal),
            (".5", "500m", Ordering::Equal),
            ("5.", "5", Ordering::Equal),
            (
                "12345678901234567890123456789012345678",
                "12345678901234567890123456789012345679",
                Ordering::Less,
            ),
        ] {
            assert_eq!(q(a).compare(&q(b)), go, "{a} vs {b}");
        }
        assert_eq!(q("1Gi"), q("1024Mi"));
        assert_eq!(q("5.").as_i64(), Some(5));
        assert_eq!(q("1E3").as_i64(), Some(1000));
        assert_eq!(q(".5").as_f64(), 0.5);
        assert_eq!(q("-0").sign(), 0);
        assert_eq!(q("1e1000").as_f64(), f64::INFINITY);
        // Go keeps every digit; vergate rounds up past the 38th.
        assert!(Quantity::parse("1234567890123456789012345678901234567890").is_ok());
        // ParseQuantity's own errors, in its words.
        assert_eq!(
            Quantity::parse("1K"),
            Err("unable to parse quantity's suffix".to_owned())
        );
        assert!(Quantity::parse("1 ").is_err_and(|err| err.starts_with("quantities must match")));
        assert!(Quantity::parse("1e9223372036854775808").is_err());
    }
}
