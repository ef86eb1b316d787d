//! Kubernetes quantities (`quantity('1.5Gi')`), as the API server's CEL
//! quantity library offers them: parsed as `resource.Quantity` reads them
//! (a signed decimal number, then a binary suffix `Ki`…`Ei`, a decimal one
//! `n`…`E` or an exponent `e3`), compared exactly.
//!
//! A value is held as `digits × 10^exp10 × 2^exp2`: exact for every
//! quantity a manifest writes. Comparisons bring both sides to one scale
//! in 128-bit integers and fall back to floating point beyond that.

use std::cmp::Ordering;

/// A parsed quantity.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Quantity {
    /// The significant digits, signed.
    digits: i128,
    exp10: i32,
    exp2: u32,
}

impl cel::objects::Opaque for Quantity {
    fn runtime_type_name(&self) -> &str {
        "kubernetes.Quantity"
    }
}

/// The most significant digits kept (an `i128` holds 38).
const MAX_DIGITS: usize = 30;

impl Quantity {
    /// Reads `text` as the API server does, or says why not.
    pub fn parse(text: &str) -> Result<Quantity, String> {
        let invalid = || {
            format!("quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$': {text:?}")
        };
        let (negative, rest) = match text.as_bytes().first() {
            Some(b'-') => (true, &text[1..]),
            Some(b'+') => (false, &text[1..]),
            _ => (false, text),
        };
        let number_end = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len());
        let (number, suffix) = rest.split_at(number_end);
        if number.is_empty() || number.matches('.').count() > 1 || number == "." {
            return Err(invalid());
        }
        let (whole, fraction) = number.split_once('.').unwrap_or((number, ""));
        let significant = format!("{whole}{fraction}");
        let significant = significant.trim_start_matches('0');
        if significant.len() > MAX_DIGITS {
            return Err(format!(
                "{text:?}: more significant digits than vergate reads ({MAX_DIGITS})"
            ));
        }
        let mut digits: i128 = if significant.is_empty() {
            0
        } else {
            significant.parse().map_err(|_| invalid())?
        };
        if negative {
            digits = -digits;
        }
        let mut exp10 = -(fraction.len() as i32);
        let mut exp2 = 0;
        match suffix {
            "" => {}
            "Ki" => exp2 = 10,
            "Mi" => exp2 = 20,
            "Gi" => exp2 = 30,
            "Ti" => exp2 = 40,
            "Pi" => exp2 = 50,
            "Ei" => exp2 = 60,
            "n" => exp10 -= 9,
            "u" => exp10 -= 6,
            "m" => exp10 -= 3,
            "k" => exp10 += 3,
            "M" => exp10 += 6,
            "G" => exp10 += 9,
            "T" => exp10 += 12,
            "P" => exp10 += 15,
            "E" => exp10 += 18,
            exponent if exponent.starts_with(['e', 'E']) => {
                let value: i32 = exponent[1..].parse().map_err(|_| invalid())?;
                if !(-1000..=1000).contains(&value) {
                    return Err(invalid());
                }
                exp10 += value;
            }
            _ => return Err(invalid()),
        }
        Ok(Quantity {
            digits,
            exp10,
            exp2,
        })
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
        let up = u32::try_from(self.exp10 - exp10).ok()?;
        value.checked_mul(10i128.checked_pow(up)?)
    }

    /// Compares exactly where 128 bits allow, else as floats.
    pub fn compare(&self, other: &Quantity) -> Ordering {
        let exp10 = self.exp10.min(other.exp10);
        match (self.scaled(exp10), other.scaled(exp10)) {
            (Some(a), Some(b)) => a.cmp(&b),
            _ => self
                .as_f64()
                .partial_cmp(&other.as_f64())
                .unwrap_or(Ordering::Equal),
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
        for bad in ["", "abc", "1..2", "1Qi", "--1", "1e", "."] {
            assert!(Quantity::parse(bad).is_err(), "{bad}");
        }
    }
}
