//! IP addresses and CIDRs as the API server reads its "legacy" fields
//! (k8s.io/apimachinery `IsValidIPForLegacyField`,
//! `IsValidCIDRForLegacyField`): Go's sloppy parser, which allows IPv4
//! octets with leading zeros; with the `StrictIPCIDRValidation` feature
//! gate (on by default from 1.36) those and IPv4-mapped IPv6 addresses are
//! refused.

use crate::Version;
use std::net::{IpAddr, Ipv4Addr};

/// The first minor whose default cluster validates IPs strictly.
const STRICT_FROM: Version = Version::new(1, 36);

/// Whether the server of `target` validates legacy IP fields strictly.
pub(super) fn strict(target: Version) -> bool {
    target >= STRICT_FROM
}

/// Go's `ParseIPSloppy` of an IPv4 address: four decimal fields up to 255,
/// leading zeros allowed.
fn sloppy_ipv4(text: &str) -> Option<Ipv4Addr> {
    let mut octets = [0u8; 4];
    let mut fields = text.split('.');
    for octet in &mut octets {
        let field = fields.next()?;
        // Bounded: more digits than this cannot be an octet however many
        // zeros lead.
        if field.is_empty() || field.len() > 16 || !field.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        *octet = u8::try_from(field.parse::<u32>().ok()?).ok()?;
    }
    fields.next().is_none().then(|| Ipv4Addr::from(octets))
}

/// Go's `ParseIPSloppy`: an address, or none.
pub(super) fn parse_sloppy(text: &str) -> Option<IpAddr> {
    if let Ok(address) = text.parse::<IpAddr>() {
        return Some(address);
    }
    sloppy_ipv4(text).map(IpAddr::V4)
}

/// The server's messages for `value` in a legacy IP field.
pub(super) fn legacy_ip(value: &str, strict: bool) -> Vec<&'static str> {
    if parse_sloppy(value).is_none() {
        return vec!["must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)"];
    }
    let mut errors = Vec::new();
    if strict {
        match value.parse::<IpAddr>() {
            Err(_) => errors.push("must not have leading 0s"),
            Ok(IpAddr::V6(v6)) if v6.to_ipv4_mapped().is_some() => {
                errors.push("must not be an IPv4-mapped IPv6 address");
            }
            Ok(_) => {}
        }
    }
    errors
}

/// The server's messages for `value` in a legacy CIDR field.
pub(super) fn legacy_cidr(value: &str, strict: bool) -> Vec<&'static str> {
    let invalid = vec!["must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)"];
    let Some((address, prefix)) = value.split_once('/') else {
        return invalid;
    };
    let Some(ip) = parse_sloppy(address) else {
        return invalid;
    };
    let bits = if ip.is_ipv4() { 32 } else { 128 };
    let length =
        (!prefix.is_empty() && prefix.len() <= 16 && prefix.bytes().all(|b| b.is_ascii_digit()))
            .then(|| prefix.parse::<u32>().ok())
            .flatten();
    let Some(length) = length.filter(|length| *length <= bits) else {
        return invalid;
    };
    if !strict {
        return Vec::new();
    }
    let exact = address.parse::<IpAddr>();
    if exact.is_err() || (prefix.len() > 1 && prefix.starts_with('0')) {
        return vec!["must not have leading 0s in IP or prefix length"];
    }
    let masked = match ip {
        IpAddr::V4(v4) => {
            let mask = u32::MAX.checked_shl(32 - length).unwrap_or(0);
            u32::from(v4) & !mask != 0
        }
        IpAddr::V6(v6) => {
            if v6.to_ipv4_mapped().is_some() {
                return vec!["must not have an IPv4-mapped IPv6 address"];
            }
            let mask = u128::MAX.checked_shl(128 - length).unwrap_or(0);
            u128::from(v6) & !mask != 0
        }
    };
    if masked {
        return vec!["must not have bits set beyond the prefix length"];
    }
    Vec::new()
}

/// core `ValidateEndpointIP`: an endpoint's address is none of the special
/// ranges (after it reads as an IP).
pub(super) fn endpoint_ip(value: &str) -> Vec<String> {
    let Some(ip) = parse_sloppy(value) else {
        return vec!["must be a valid IP address".to_owned()];
    };
    let mut errors = Vec::new();
    if ip.is_unspecified() {
        errors.push(format!("may not be unspecified ({value})"));
    }
    if ip.is_loopback() {
        errors.push("may not be in the loopback range (127.0.0.0/8, ::1/128)".to_owned());
    }
    let (link_local, link_local_multicast) = match ip {
        IpAddr::V4(v4) => (v4.is_link_local(), v4.octets()[..3] == [224, 0, 0]),
        IpAddr::V6(v6) => (
            v6.segments()[0] & 0xffc0 == 0xfe80,
            v6.segments()[0] & 0xff0f == 0xff02,
        ),
    };
    if link_local {
        errors.push("may not be in the link-local range (169.254.0.0/16, fe80::/10)".to_owned());
    }
    if link_local_multicast {
        errors.push(
            "may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)".to_owned(),
        );
    }
    errors
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn legacy_fields_read_sloppily_before_1_36() {
        assert!(legacy_ip("10.0.0.1", true).is_empty());
        assert!(legacy_ip("010.0.0.1", false).is_empty());
        assert_eq!(legacy_ip("010.0.0.1", true), ["must not have leading 0s"]);
        assert_eq!(legacy_ip("10.0.0.300", false).len(), 1);
        assert_eq!(legacy_ip("None", false).len(), 1);
        assert!(legacy_ip("::ffff:1.2.3.4", false).is_empty());
        assert_eq!(legacy_ip("::ffff:1.2.3.4", true).len(), 1);
        assert!(legacy_cidr("10.0.0.0/8", true).is_empty());
        assert!(legacy_cidr("10.0.0.1/8", false).is_empty());
        assert_eq!(
            legacy_cidr("10.0.0.1/8", true),
            ["must not have bits set beyond the prefix length"]
        );
        assert_eq!(legacy_cidr("not-a-cidr", false).len(), 1);
        assert_eq!(legacy_cidr("10.0.0.0/33", false).len(), 1);
        assert!(endpoint_ip("10.1.2.3").is_empty());
        assert_eq!(endpoint_ip("127.0.0.1").len(), 1);
        assert_eq!(endpoint_ip("169.254.1.1").len(), 1);
        assert_eq!(endpoint_ip("x"), ["must be a valid IP address"]);
    }
}
