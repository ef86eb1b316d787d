//! IP addresses, CIDRs and MAC addresses as the API server's Go code reads
//! them for the `ipv4`, `ipv6`, `cidr` and `mac` formats.
//!
//! Two Go parsers are in play, and they differ:
//! - `ipv4` and `cidr` use `k8s.io/utils/net`'s `ParseIPSloppy` and
//!   `ParseCIDRSloppy`: Go 1.16's `net` parser kept by Kubernetes, which
//!   reads an IPv4 field with leading zeros (`010.1.1.1`) as decimal and a
//!   16-bit IPv6 group of any number of digits (`00001::`).
//! - `ipv6` uses today's `net.ParseIP` (`netip`): no leading zeros in an
//!   IPv4 field, at most four digits in a group, no zone.
//!
//! Rust's `Ipv4Addr` / `Ipv6Addr` parsers are not used: they refuse the
//! sloppy forms the first parser accepts and accept no form the second
//! refuses, but their rules for an IPv4 tail inside IPv6 are their own, so
//! both Go parsers are written out here, step for step.

/// Go's `big` in `net`: a number this large stops the digit loops.
const BIG: u32 = 0xFF_FFFF;

/// Go 1.16's `dtoi`: the decimal number at the start of `s`, and how many
/// bytes it took; `None` without a digit or when the number grows to `BIG`.
fn dtoi(s: &[u8]) -> Option<(u32, usize)> {
    let mut n = 0u32;
    let mut i = 0;
    while i < s.len() && s[i].is_ascii_digit() {
        n = n * 10 + u32::from(s[i] - b'0');
        if n >= BIG {
            return None;
        }
        i += 1;
    }
    (i > 0).then_some((n, i))
}

/// Go 1.16's `xtoi`: as [`dtoi`] for hexadecimal.
fn xtoi(s: &[u8]) -> Option<(u32, usize)> {
    let mut n = 0u32;
    let mut i = 0;
    while i < s.len() {
        let digit = match s[i] {
            b'0'..=b'9' => s[i] - b'0',
            b'a'..=b'f' => s[i] - b'a' + 10,
            b'A'..=b'F' => s[i] - b'A' + 10,
            _ => break,
        };
        n = n * 16 + u32::from(digit);
        if n >= BIG {
            return None;
        }
        i += 1;
    }
    (i > 0).then_some((n, i))
}

/// Go 1.16's `parseIPv4`: four decimal fields of at most 255, leading
/// zeros allowed.
fn sloppy_ipv4(mut s: &[u8]) -> bool {
    for field in 0..4 {
        if s.is_empty() {
            return false;
        }
        if field > 0 {
            if s[0] != b'.' {
                return false;
            }
            s = &s[1..];
        }
        match dtoi(s) {
            Some((n, used)) if n <= 0xFF => s = &s[used..],
            _ => return false,
        }
    }
    s.is_empty()
}

/// Go 1.16's `parseIPv6` (no zone): groups of any length up to 0xFFFF, one
/// `::`, an IPv4 tail in the last 32 bits.
fn sloppy_ipv6(s: &[u8]) -> bool {
    let group = |s: &[u8]| xtoi(s).filter(|(n, _)| *n <= 0xFFFF).map(|(_, used)| used);
    ipv6(s, group, sloppy_ipv4)
}

/// An IPv6 address as Go's parsers walk it: hex groups (each read by
/// `group`, which gives its length), at most one `::` standing for at least
/// one group, and an IPv4 tail (read by `ipv4`) in the last 32 bits.
fn ipv6(mut s: &[u8], group: impl Fn(&[u8]) -> Option<usize>, ipv4: fn(&[u8]) -> bool) -> bool {
    const LEN: usize = 16;
    let mut ellipsis: Option<usize> = None;
    if s.starts_with(b"::") {
        ellipsis = Some(0);
        s = &s[2..];
        if s.is_empty() {
            return true;
        }
    }
    let mut i = 0;
    while i < LEN {
        let Some(used) = group(s) else {
            return false;
        };
        if s.get(used) == Some(&b'.') {
            if (ellipsis.is_none() && i != LEN - 4) || i + 4 > LEN || !ipv4(s) {
                return false;
            }
            s = &[];
            i += 4;
            break;
        }
        i += 2;
        s = &s[used..];
        if s.is_empty() {
            break;
        }
        if s[0] != b':' || s.len() == 1 {
            return false;
        }
        s = &s[1..];
        if s[0] == b':' {
            if ellipsis.is_some() {
                return false;
            }
            ellipsis = Some(i);
            s = &s[1..];
            if s.is_empty() {
                break;
            }
        }
    }
    if !s.is_empty() {
        return false;
    }
    if i < LEN {
        ellipsis.is_some()
    } else {
        // An ellipsis must stand for at least one group.
        ellipsis.is_none()
    }
}

/// `netutils.ParseIPSloppy`: IPv4 when a `.` comes before any `:`, else IPv6.
fn sloppy_ip(s: &str) -> bool {
    match s.bytes().find(|b| matches!(b, b'.' | b':')) {
        Some(b'.') => sloppy_ipv4(s.as_bytes()),
        Some(_) => sloppy_ipv6(s.as_bytes()),
        None => false,
    }
}

/// The `ipv4` format: `ParseIPSloppy` reads it and it holds a `.`; so an
/// IPv6 address with an IPv4 tail (`::ffff:1.2.3.4`) passes too, as on the
/// server.
pub(super) fn is_ipv4(s: &str) -> bool {
    sloppy_ip(s) && s.contains('.')
}

/// The `cidr` format: `ParseCIDRSloppy`, an address (IPv4 first, then
/// IPv6) and `/` a decimal prefix length within the address's bits.
pub(super) fn is_cidr(s: &str) -> bool {
    let Some((addr, mask)) = s.split_once('/') else {
        return false;
    };
    let bits = if sloppy_ipv4(addr.as_bytes()) {
        32
    } else if sloppy_ipv6(addr.as_bytes()) {
        128
    } else {
        return false;
    };
    matches!(dtoi(mask.as_bytes()), Some((n, used)) if used == mask.len() && n <= bits)
}

/// Today's Go `netip` IPv4 fields (from `start` to the end of `s`): four
/// decimal fields, each at most 255, no leading zero, no empty field.
fn strict_ipv4(s: &[u8]) -> bool {
    let (mut value, mut digits, mut fields) = (0u32, 0, 0);
    for (i, &b) in s.iter().enumerate() {
        match b {
            b'0'..=b'9' => {
                if digits == 1 && value == 0 {
                    return false;
                }
                value = value * 10 + u32::from(b - b'0');
                digits += 1;
                if value > 255 {
                    return false;
                }
            }
            b'.' => {
                if i == 0 || i == s.len() - 1 || s[i - 1] == b'.' || fields == 3 {
                    return false;
                }
                fields += 1;
                value = 0;
                digits = 0;
            }
            _ => return false,
        }
    }
    fields == 3 && digits > 0
}

/// Today's Go `netip` IPv6: groups of one to four hex digits, one `::`
/// standing for at least one group, an IPv4 tail last; a zone (`%eth0`)
/// is refused by `net.ParseIP`.
fn strict_ipv6(s: &[u8]) -> bool {
    let group = |s: &[u8]| {
        let digits = s.iter().take_while(|b| b.is_ascii_hexdigit()).count();
        (1..=4).contains(&digits).then_some(digits)
    };
    ipv6(s, group, strict_ipv4)
}

/// Today's Go `net.ParseIP` reads `s` as an IPv4 address.
pub(super) fn is_strict_ipv4(s: &str) -> bool {
    strict_ipv4(s.as_bytes())
}

/// The `ipv6` format: `net.ParseIP` reads it and it holds a `:`.
pub(super) fn is_ipv6(s: &str) -> bool {
    let first = s.bytes().find(|b| matches!(b, b'.' | b':' | b'%'));
    let parsed = match first {
        Some(b'.') => strict_ipv4(s.as_bytes()),
        Some(b':') => strict_ipv6(s.as_bytes()),
        _ => false,
    };
    parsed && s.contains(':')
}

/// Go's `xtoi2`: two hex digits at the start of `s`, followed by `end`
/// when `s` goes on.
fn hex_pair(s: &[u8], end: Option<u8>) -> bool {
    if s.len() > 2 && Some(s[2]) != end {
        return false;
    }
    s.len() >= 2 && s[0].is_ascii_hexdigit() && s[1].is_ascii_hexdigit()
}

/// The `mac` format: Go's `net.ParseMAC`, 6, 8 or 20 bytes written as
/// `00:00:5e:00:53:01`, `00-00-5e-00-53-01` or `0000.5e00.5301`.
pub(super) fn is_mac(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() < 14 {
        return false;
    }
    let sizes = |n: usize| matches!(n, 6 | 8 | 20);
    if matches!(b[2], b':' | b'-') {
        if (b.len() + 1) % 3 != 0 || !sizes((b.len() + 1) / 3) {
            return false;
        }
        (0..(b.len() + 1) / 3).all(|i| hex_pair(&b[i * 3..], Some(b[2])))
    } else if b[4] == b'.' {
        if (b.len() + 1) % 5 != 0 || !sizes(2 * (b.len() + 1) / 5) {
            return false;
        }
        (0..(b.len() + 1) / 5).all(|i| {
            let x = i * 5;
            hex_pair(&b[x..x + 2], None) && hex_pair(&b[x + 2..], Some(b[4]))
        })
    } else {
        false
    }
}
