//! The string formats the API server validates in custom resources: the
//! formats of kube-openapi's `strfmt` registry that apiextensions-apiserver
//! keeps in a CRD's schema for a minor (`pkg/apiserver/validation/
//! formats.go`; any other format is stripped there, so never validated),
//! each with the semantics of `strfmt/default.go` and the Go functions it
//! calls. Built-in Kubernetes types are validated by Go code instead, so
//! the walker asks this only for a custom resource's own types.
//!
//! A format name is normalized as the registry does, by removing `-`
//! (`date-time` is `datetime`); messages show it as the CRD writes it.

mod duration;
mod mail;
mod net;
mod text;
mod uri;

use crate::Version;

/// A format the API server validates in a CRD schema.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum CrdFormat {
    BsonObjectId,
    Uri,
    Email,
    Hostname,
    Ipv4,
    Ipv6,
    Cidr,
    Mac,
    Uuid,
    Uuid3,
    Uuid4,
    Uuid5,
    Isbn,
    Isbn10,
    Isbn13,
    CreditCard,
    Ssn,
    HexColor,
    RgbColor,
    Byte,
    Password,
    Date,
    Duration,
    DateTime,
    /// From 1.34.
    K8sShortName,
    /// From 1.34.
    K8sLongName,
}

/// The first minor whose API server validates the `k8s-` formats.
const K8S_NAMES_FROM: Version = Version::new(1, 34);

impl CrdFormat {
    /// The format `name` stands for when the API server of `minor`
    /// validates it (`None` for a minor: an API that is not Kubernetes,
    /// whose server's minor is unknown, so only the formats every minor
    /// validates); `None` when the server strips it.
    pub(crate) fn supported(name: &str, minor: Option<Version>) -> Option<CrdFormat> {
        let normalized = name.replace('-', "");
        let format = match normalized.as_str() {
            "bsonobjectid" => CrdFormat::BsonObjectId,
            "uri" => CrdFormat::Uri,
            "email" => CrdFormat::Email,
            "hostname" => CrdFormat::Hostname,
            "ipv4" => CrdFormat::Ipv4,
            "ipv6" => CrdFormat::Ipv6,
            "cidr" => CrdFormat::Cidr,
            "mac" => CrdFormat::Mac,
            "uuid" => CrdFormat::Uuid,
            "uuid3" => CrdFormat::Uuid3,
            "uuid4" => CrdFormat::Uuid4,
            "uuid5" => CrdFormat::Uuid5,
            "isbn" => CrdFormat::Isbn,
            "isbn10" => CrdFormat::Isbn10,
            "isbn13" => CrdFormat::Isbn13,
            "creditcard" => CrdFormat::CreditCard,
            "ssn" => CrdFormat::Ssn,
            "hexcolor" => CrdFormat::HexColor,
            "rgbcolor" => CrdFormat::RgbColor,
            "byte" => CrdFormat::Byte,
            "password" => CrdFormat::Password,
            "date" => CrdFormat::Date,
            "duration" => CrdFormat::Duration,
            "datetime" => CrdFormat::DateTime,
            "k8sshortname" => CrdFormat::K8sShortName,
            "k8slongname" => CrdFormat::K8sLongName,
            _ => return None,
        };
        let k8s = matches!(format, CrdFormat::K8sShortName | CrdFormat::K8sLongName);
        (!k8s || minor.is_some_and(|minor| minor >= K8S_NAMES_FROM)).then_some(format)
    }

    /// True when the API server accepts `value` as a string of this format.
    pub(crate) fn accepts(self, value: &str) -> bool {
        match self {
            CrdFormat::BsonObjectId => text::is_bson_object_id(value),
            CrdFormat::Uri => uri::is_request_uri(value),
            CrdFormat::Email => mail::is_email(value),
            CrdFormat::Hostname => text::is_hostname(value),
            CrdFormat::Ipv4 => net::is_ipv4(value),
            CrdFormat::Ipv6 => net::is_ipv6(value),
            CrdFormat::Cidr => net::is_cidr(value),
            CrdFormat::Mac => net::is_mac(value),
            CrdFormat::Uuid => text::matches(text::Pattern::Uuid, value),
            CrdFormat::Uuid3 => text::matches(text::Pattern::Uuid3, value),
            CrdFormat::Uuid4 => text::matches(text::Pattern::Uuid4, value),
            CrdFormat::Uuid5 => text::matches(text::Pattern::Uuid5, value),
            CrdFormat::Isbn => text::is_isbn10(value) || text::is_isbn13(value),
            CrdFormat::Isbn10 => text::is_isbn10(value),
            CrdFormat::Isbn13 => text::is_isbn13(value),
            CrdFormat::CreditCard => text::is_credit_card(value),
            CrdFormat::Ssn => value.len() == 11 && text::matches(text::Pattern::Ssn, value),
            CrdFormat::HexColor => text::matches(text::Pattern::HexColor, value),
            CrdFormat::RgbColor => text::matches(text::Pattern::RgbColor, value),
            CrdFormat::Byte => text::matches(text::Pattern::Base64, value),
            CrdFormat::Password => true,
            CrdFormat::Date => text::is_full_date(value),
            CrdFormat::Duration => duration::is_duration(value),
            CrdFormat::DateTime => text::is_date_time(value),
            CrdFormat::K8sShortName => {
                value.len() <= 63 && text::matches(text::Pattern::K8sShortName, value)
            }
            CrdFormat::K8sLongName => {
                value.len() <= 253 && text::matches(text::Pattern::K8sLongName, value)
            }
        }
    }
}

/// The API server's words for a string `value` at `path` that is not of
/// `format` (as the CRD writes it): kube-openapi's `typeFailWithData`
/// (`%s in %s must be of type %s: %q`) as apiextensions-apiserver reports
/// it (`field.TypeInvalid`, `Invalid value: "<value>"`), the path left to
/// the caller: `Invalid value: "1.2.3.4:8080": spec.addresses[0].value in
/// body must be of type ipv4: "1.2.3.4:8080"`.
pub(crate) fn message(path: &str, format: &str, value: &str) -> String {
    let quoted = go_quoted(value);
    format!("Invalid value: {quoted}: {path} in body must be of type {format}: {quoted}")
}

/// `value` as Go's `%q` writes it (`strconv.Quote`): the escapes Go uses
/// for quotes, backslashes and control characters; other characters as
/// they are, but spaces outside ASCII, written `\u00a0` as Go does (Go's
/// `unicode.IsPrint`, approximated by Rust's whitespace and control
/// classes).
pub(crate) fn go_quoted(value: &str) -> String {
    use std::fmt::Write;
    let mut out = String::with_capacity(value.len() + 2);
    out.push('"');
    for c in value.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{b}' => out.push_str("\\v"),
            ' ' => out.push(' '),
            c if c.is_ascii_control() => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c if c.is_control() || c.is_whitespace() || c == '\u{feff}' => {
                if (c as u32) < 0x10000 {
                    let _ = write!(out, "\\u{:04x}", c as u32);
                } else {
                    let _ = write!(out, "\\U{:08x}", c as u32);
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests;
