//! The Kubernetes CEL format library (`format.dns1123Label().validate(s)`):
//! named string formats, each validated as apimachinery's validation
//! functions do, giving the same error sentences.

use regex::Regex;
use std::sync::LazyLock;

/// A named format (`format.named('dns1123Label')`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NamedFormat(pub &'static str);

impl cel::objects::Opaque for NamedFormat {
    fn runtime_type_name(&self) -> &str {
        "kubernetes.NamedFormat"
    }
}

/// Every format the library names.
pub const NAMES: [&str; 13] = [
    "dns1123Label",
    "dns1123Subdomain",
    "dns1035Label",
    "qualifiedName",
    "dns1123LabelPrefix",
    "dns1123SubdomainPrefix",
    "dns1035LabelPrefix",
    "labelValue",
    "uri",
    "uuid",
    "byte",
    "date",
    "datetime",
];

fn regex(pattern: &str) -> Regex {
    Regex::new(pattern).expect("the format patterns compile")
}

static DNS1123_LABEL: LazyLock<Regex> = LazyLock::new(|| regex("^[a-z0-9]([-a-z0-9]*[a-z0-9])?$"));
static DNS1123_SUBDOMAIN: LazyLock<Regex> =
    LazyLock::new(|| regex(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$"));
static DNS1035_LABEL: LazyLock<Regex> = LazyLock::new(|| regex("^[a-z]([-a-z0-9]*[a-z0-9])?$"));
static QUALIFIED_NAME: LazyLock<Regex> =
    LazyLock::new(|| regex("^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$"));
static LABEL_VALUE: LazyLock<Regex> =
    LazyLock::new(|| regex("^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$"));
static UUID: LazyLock<Regex> = LazyLock::new(|| {
    regex("^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")
});

/// The errors `value` has against `format` (empty when valid).
pub fn validate(format: &str, value: &str) -> Vec<String> {
    let mut errors = Vec::new();
    let mut length = |max: usize| {
        if value.len() > max {
            errors.push(format!("must be no more than {max} characters"));
        }
    };
    match format {
        "dns1123Label" | "dns1123LabelPrefix" => {
            length(63);
            let checked = if format.ends_with("Prefix") {
                value.trim_end_matches('-')
            } else {
                value
            };
            if !DNS1123_LABEL.is_match(checked) {
                errors.push("a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character".into());
            }
        }
        "dns1123Subdomain" | "dns1123SubdomainPrefix" => {
            length(253);
            let checked = if format.ends_with("Prefix") {
                value.trim_end_matches('-')
            } else {
                value
            };
            if !DNS1123_SUBDOMAIN.is_match(checked) {
                errors.push("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character".into());
            }
        }
        "dns1035Label" | "dns1035LabelPrefix" => {
            length(63);
            let checked = if format.ends_with("Prefix") {
                value.trim_end_matches('-')
            } else {
                value
            };
            if !DNS1035_LABEL.is_match(checked) {
                errors.push("a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character".into());
            }
        }
        "qualifiedName" => {
            let (prefix, name) = match value.split_once('/') {
                Some((prefix, name)) => (Some(prefix), name),
                None => (None, value),
            };
            if let Some(prefix) = prefix {
                if prefix.is_empty() {
                    errors.push("prefix part must be non-empty".into());
                } else {
                    errors.extend(
                        validate("dns1123Subdomain", prefix)
                            .into_iter()
                            .map(|e| format!("prefix part {e}")),
                    );
                }
            }
            if name.is_empty() {
                errors.push("name part must be non-empty".into());
            } else if name.len() > 63 {
                errors.push("name part must be no more than 63 characters".into());
            }
            if !name.is_empty() && !QUALIFIED_NAME.is_match(name) {
                errors.push("name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character".into());
            }
        }
        "labelValue" => {
            length(63);
            if !LABEL_VALUE.is_match(value) {
                errors.push("a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character".into());
            }
        }
        "uri" if super::net::parse_url(value).is_err() => {
            errors.push("must be a valid URI".into());
        }
        "uuid" if !UUID.is_match(value) => {
            errors.push("does not match the UUID format".into());
        }
        "byte" => {
            use base64::Engine;
            if base64::engine::general_purpose::STANDARD
                .decode(value)
                .is_err()
            {
                errors.push("invalid base64".into());
            }
        }
        "date" if chrono::NaiveDate::parse_from_str(value, "%Y-%m-%d").is_err() => {
            errors.push("must be a valid date".into());
        }
        "datetime" if chrono::DateTime::parse_from_rfc3339(value).is_err() => {
            errors.push("must be a valid datetime".into());
        }
        _ => {}
    }
    errors
}
