//! IP addresses, CIDRs and URLs, as the API server's CEL IP, CIDR and URL
//! libraries read them.
//!
//! IPs and CIDRs go through the standard library's parsers, which are as
//! strict as Go's `netip` on what the Kubernetes library accepts (no zone,
//! no IPv4-mapped IPv6 address, no leading zeros). URLs are split as Go's
//! `url.Parse` splits an absolute URI or an absolute path; vergate reads no
//! more of them than the library's accessors return.

use std::net::IpAddr;

/// An IP address (`ip('10.0.0.1')`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ip(pub IpAddr);

impl cel::objects::Opaque for Ip {
    fn runtime_type_name(&self) -> &str {
        "net.IP"
    }
}

/// A CIDR (`cidr('10.0.0.0/8')`): the address as written and its prefix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cidr {
    pub address: IpAddr,
    pub prefix: u8,
}

impl cel::objects::Opaque for Cidr {
    fn runtime_type_name(&self) -> &str {
        "net.CIDR"
    }
}

/// Reads an IP address as the library's `ip()` does.
pub fn parse_ip(text: &str) -> Result<Ip, String> {
    if text.contains('%') {
        return Err(format!(
            "IP address with zone value is not allowed: {text:?}"
        ));
    }
    let address: IpAddr = text
        .parse()
        .map_err(|_| format!("IP Address {text:?} parse error during conversion from string"))?;
    if let IpAddr::V6(v6) = address {
        if v6.to_ipv4_mapped().is_some() {
            return Err(format!("IPv4-mapped IPv6 address {text:?} is not allowed"));
        }
    }
    Ok(Ip(address))
}

/// Reads a CIDR as the library's `cidr()` does.
pub fn parse_cidr(text: &str) -> Result<Cidr, String> {
    let invalid = || format!("network address parse error during conversion from string: {text:?}");
    let (address, prefix) = text.split_once('/').ok_or_else(invalid)?;
    let address = parse_ip(address).map_err(|_| invalid())?.0;
    if prefix.is_empty()
        || prefix.starts_with(['+', '-'])
        || (prefix.len() > 1 && prefix.starts_with('0'))
    {
        return Err(invalid());
    }
    let prefix: u8 = prefix.parse().map_err(|_| invalid())?;
    let bits = if address.is_ipv4() { 32 } else { 128 };
    if prefix > bits {
        return Err(invalid());
    }
    Ok(Cidr { address, prefix })
}

impl Ip {
    /// 4 or 6.
    pub fn family(&self) -> i64 {
        if self.0.is_ipv4() {
            4
        } else {
            6
        }
    }

    pub fn is_link_local_unicast(&self) -> bool {
        match self.0 {
            IpAddr::V4(v4) => v4.is_link_local(),
            IpAddr::V6(v6) => (v6.segments()[0] & 0xffc0) == 0xfe80,
        }
    }

    pub fn is_link_local_multicast(&self) -> bool {
        match self.0 {
            IpAddr::V4(v4) => v4.octets()[..3] == [224, 0, 0],
            IpAddr::V6(v6) => (v6.segments()[0] & 0xff0f) == 0xff02,
        }
    }

    /// Go's `IsGlobalUnicast`: not unspecified, loopback, multicast,
    /// link-local or (IPv4) broadcast.
    pub fn is_global_unicast(&self) -> bool {
        let broadcast = matches!(self.0, IpAddr::V4(v4) if v4.is_broadcast());
        !(self.0.is_unspecified()
            || self.0.is_loopback()
            || self.0.is_multicast()
            || self.is_link_local_unicast()
            || broadcast)
    }
}

/// True when `text` is the canonical form of its address (`ip.isCanonical`).
pub fn is_canonical(text: &str) -> Result<bool, String> {
    let ip = parse_ip(text)?;
    Ok(ip.0.to_string() == text)
}

impl Cidr {
    /// The network: the address with the bits past the prefix cleared.
    pub fn masked(&self) -> Cidr {
        let address = match self.address {
            IpAddr::V4(v4) => {
                let mask = u32::MAX
                    .checked_shl(32 - u32::from(self.prefix))
                    .unwrap_or(0);
                IpAddr::V4((u32::from(v4) & mask).into())
            }
            IpAddr::V6(v6) => {
                let mask = u128::MAX
                    .checked_shl(128 - u32::from(self.prefix))
                    .unwrap_or(0);
                IpAddr::V6((u128::from(v6) & mask).into())
            }
        };
        Cidr {
            address,
            prefix: self.prefix,
        }
    }

    /// True when `ip` is in the network.
    pub fn contains_ip(&self, ip: IpAddr) -> bool {
        let same_family = ip.is_ipv4() == self.address.is_ipv4();
        same_family
            && Cidr {
                address: ip,
                prefix: self.prefix,
            }
            .masked()
            .address
                == self.masked().address
    }

    /// True when `other` lies within the network.
    pub fn contains_cidr(&self, other: &Cidr) -> bool {
        other.prefix >= self.prefix && self.contains_ip(other.address)
    }
}

impl std::fmt::Display for Cidr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.address, self.prefix)
    }
}

/// A URL (`url('https://example.com:80/a?b=c')`), in the parts the
/// library's accessors return.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Url {
    pub scheme: String,
    /// `host[:port]`, as written.
    pub host: String,
    pub path: String,
    pub query: String,
}

impl cel::objects::Opaque for Url {
    fn runtime_type_name(&self) -> &str {
        "kubernetes.URL"
    }
}

/// Reads a URL as the library's `url()` does: an absolute URI
/// (`scheme://…` or `scheme:…`) or an absolute path.
pub fn parse_url(text: &str) -> Result<Url, String> {
    let invalid =
        |why: &str| format!("URL parse error during conversion from string: {text:?}: {why}");
    if text.chars().any(|c| c.is_ascii_control() || c == ' ') {
        return Err(invalid("invalid character"));
    }
    let (without_fragment, _) = text.split_once('#').unwrap_or((text, ""));
    let (rest, query) = without_fragment
        .split_once('?')
        .map_or((without_fragment, ""), |(rest, query)| (rest, query));
    let scheme_end = rest.find(':').filter(|&end| {
        end > 0
            && rest[..end].starts_with(|c: char| c.is_ascii_alphabetic())
            && rest[..end]
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
    });
    let (scheme, after) = match scheme_end {
        Some(end) => (&rest[..end], &rest[end + 1..]),
        None if rest.starts_with('/') => ("", rest),
        None => return Err(invalid("a URL must be an absolute URI or an absolute path")),
    };
    let (host, path) = match after.strip_prefix("//") {
        Some(authority) => {
            let end = authority.find('/').unwrap_or(authority.len());
            let host = &authority[..end];
            let host = host.rsplit_once('@').map_or(host, |(_, host)| host);
            (host, &authority[end..])
        }
        None => ("", after),
    };
    Ok(Url {
        scheme: scheme.to_ascii_lowercase(),
        host: host.to_owned(),
        path: path.to_owned(),
        query: query.to_owned(),
    })
}

impl Url {
    /// The host without its port (IPv6 brackets removed).
    pub fn hostname(&self) -> &str {
        let host = &self.host;
        if let Some(inner) = host.strip_prefix('[') {
            return inner.split_once(']').map_or(inner, |(inner, _)| inner);
        }
        host.rsplit_once(':').map_or(host, |(name, _)| name)
    }

    /// The port, or `""`.
    pub fn port(&self) -> &str {
        let after_bracket = self
            .host
            .rsplit_once(']')
            .map_or(self.host.as_str(), |(_, after)| after);
        after_bracket.rsplit_once(':').map_or("", |(_, port)| port)
    }

    /// The query's parameters and their values, in order.
    pub fn query_pairs(&self) -> Vec<(String, String)> {
        self.query
            .split('&')
            .filter(|pair| !pair.is_empty())
            .map(|pair| {
                let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
                (key.to_owned(), value.to_owned())
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ips_cidrs_and_urls_read_as_the_libraries_do() {
        assert_eq!(parse_ip("10.0.0.1").unwrap().family(), 4);
        assert!(parse_ip("::ffff:1.2.3.4").is_err());
        assert!(parse_ip("fe80::1%eth0").is_err());
        assert!(parse_ip("010.0.0.1").is_err());
        assert!(is_canonical("2001:db8::1").unwrap());
        assert!(!is_canonical("2001:DB8::1").unwrap());
        let net = parse_cidr("10.0.0.0/8").unwrap();
        assert!(net.contains_ip(parse_ip("10.1.2.3").unwrap().0));
        assert!(!net.contains_ip(parse_ip("11.0.0.1").unwrap().0));
        assert!(net.contains_cidr(&parse_cidr("10.2.0.0/16").unwrap()));
        assert_eq!(
            parse_cidr("10.1.2.3/8").unwrap().masked().to_string(),
            "10.0.0.0/8"
        );
        assert!(parse_cidr("10.0.0.0/33").is_err());
        let url = parse_url("https://user@example.com:8443/a/b?x=1&y=2").unwrap();
        assert_eq!(
            (url.scheme.as_str(), url.hostname(), url.port()),
            ("https", "example.com", "8443")
        );
        assert_eq!(url.path, "/a/b");
        assert_eq!(parse_url("https://[::1]:80/").unwrap().hostname(), "::1");
        assert!(parse_url("example.com").is_err());
        assert!(parse_url("/just/a/path").is_ok());
    }
}
