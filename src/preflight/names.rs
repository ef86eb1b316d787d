//! The API server's name and key rules (k8s.io/apimachinery
//! `pkg/util/validation`, `pkg/api/validation/path`), with its messages:
//! DNS-1123 subdomains and labels, DNS-1035 labels, path segments,
//! qualified names (label and annotation keys) and label values.
//!
//! Each function returns the server's messages for `value`, none when it is
//! valid. They match by hand, not by regex: the patterns are simple, and a
//! check calls them for every name, label and annotation of every document.

/// `metadata.name` and `generateName` may be this long at most.
pub const DNS1123_SUBDOMAIN_MAX: usize = 253;
/// A DNS-1123 or DNS-1035 label may be this long at most.
pub const DNS_LABEL_MAX: usize = 63;
/// The name part of a qualified name, and a label value, at most.
const QUALIFIED_NAME_MAX: usize = 63;

const SUBDOMAIN_MESSAGE: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const LABEL_MESSAGE: &str = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const DNS1035_MESSAGE: &str = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
const QUALIFIED_MESSAGE: &str = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const LABEL_VALUE_MESSAGE: &str = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

/// Go's `MaxLenError`.
fn too_long(max: usize) -> String {
    format!("must be no more than {max} characters")
}

/// Which of apimachinery's two sets of words a check uses: the older
/// `pkg/util/validation`, or `pkg/api/validate/content`, which label keys
/// and values (and finalizer names) use from 1.35 and which counts bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Words {
    /// `pkg/util/validation`: "must be no more than 63 characters".
    Util,
    /// `pkg/api/validate/content`: "must be no more than 63 bytes", and
    /// "a valid label key" for a key with two slashes.
    Content,
}

impl Words {
    /// The words label keys and values have on `target`.
    pub fn of_labels(target: crate::Version) -> Words {
        if target >= crate::Version::new(1, 35) {
            Words::Content
        } else {
            Words::Util
        }
    }

    fn too_long(self, max: usize) -> String {
        match self {
            Words::Util => too_long(max),
            Words::Content => format!("must be no more than {max} bytes"),
        }
    }
}

/// `[a-z0-9]([-a-z0-9]*[a-z0-9])?`, whole.
fn is_label(text: &str) -> bool {
    let bytes = text.as_bytes();
    let alnum = |b: &u8| b.is_ascii_lowercase() || b.is_ascii_digit();
    match (bytes.first(), bytes.last()) {
        (Some(first), Some(last)) => {
            alnum(first) && alnum(last) && bytes.iter().all(|b| alnum(b) || *b == b'-')
        }
        _ => false,
    }
}

/// Labels joined by dots, each one [`is_label`]: one pass over the bytes,
/// a dot neither first, last, doubled nor next to a dash.
fn is_subdomain(text: &str) -> bool {
    // The byte before the current one; a dot at the start, so that the
    // first byte is read as a label's first.
    let mut previous = b'.';
    for &byte in text.as_bytes() {
        let fits = match byte {
            b'a'..=b'z' | b'0'..=b'9' => true,
            b'-' => previous != b'.',
            b'.' => previous != b'.' && previous != b'-',
            _ => false,
        };
        if !fits {
            return false;
        }
        previous = byte;
    }
    previous != b'.' && previous != b'-'
}

/// `([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]`, whole (`empty_ok`: or empty,
/// as a label value may be).
fn is_qualified(text: &str, empty_ok: bool) -> bool {
    let bytes = text.as_bytes();
    match (bytes.first(), bytes.last()) {
        (Some(first), Some(last)) => {
            first.is_ascii_alphanumeric()
                && last.is_ascii_alphanumeric()
                && bytes
                    .iter()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
        }
        _ => empty_ok,
    }
}

/// Go's `IsDNS1123Subdomain`.
pub fn dns1123_subdomain(value: &str) -> Vec<String> {
    dns1123_subdomain_in(value, Words::Util)
}

/// `IsDNS1123Subdomain` in `words` (content's counts bytes).
pub fn dns1123_subdomain_in(value: &str, words: Words) -> Vec<String> {
    let mut errors = Vec::new();
    if value.len() > DNS1123_SUBDOMAIN_MAX {
        errors.push(words.too_long(DNS1123_SUBDOMAIN_MAX));
    }
    if !is_subdomain(value) {
        errors.push(SUBDOMAIN_MESSAGE.to_owned());
    }
    errors
}

/// Go's `IsDNS1123Label`: one that would be a subdomain says it has dots.
pub fn dns1123_label(value: &str) -> Vec<String> {
    let mut errors = Vec::new();
    if value.len() > DNS_LABEL_MAX {
        errors.push(too_long(DNS_LABEL_MAX));
    }
    if !is_label(value) {
        errors.push(if is_subdomain(value) {
            "must not contain dots".to_owned()
        } else {
            LABEL_MESSAGE.to_owned()
        });
    }
    errors
}

/// Go's `IsDNS1035Label`: a DNS-1123 label that starts with a letter.
pub fn dns1035_label(value: &str) -> Vec<String> {
    let mut errors = Vec::new();
    if value.len() > DNS_LABEL_MAX {
        errors.push(too_long(DNS_LABEL_MAX));
    }
    if !is_label(value) || !value.starts_with(|c: char| c.is_ascii_lowercase()) {
        errors.push(DNS1035_MESSAGE.to_owned());
    }
    errors
}

/// `path.IsValidPathSegmentName` (or `IsValidPathSegmentPrefix` for a
/// `generateName`): no `/` or `%`, and not `.` or `..`.
pub fn path_segment(value: &str, prefix: bool) -> Vec<String> {
    if !prefix && (value == "." || value == "..") {
        return vec![format!("may not be '{value}'")];
    }
    // One byte scan for both (a name is short; a substring search of
    // each costs more).
    let (mut slash, mut percent) = (false, false);
    for byte in value.bytes() {
        slash |= byte == b'/';
        percent |= byte == b'%';
    }
    [("/", slash), ("%", percent)]
        .iter()
        .filter(|(_, found)| *found)
        .map(|(illegal, _)| format!("may not contain '{illegal}'"))
        .collect()
}

/// Go's `IsQualifiedName`: a label key, or an annotation key once
/// lowercased: `[prefix/]name`, the prefix a DNS-1123 subdomain.
// The words before 1.35; the go_validation checks call it.
#[allow(dead_code)]
pub fn qualified_name(value: &str) -> Vec<String> {
    qualified_name_in(value, Words::Util)
}

/// Whether `IsQualifiedName` accepts `value` (in either words: they
/// differ only in what they say), without building its messages.
pub fn is_qualified_name(value: &str) -> bool {
    let name = match value.bytes().position(|byte| byte == b'/') {
        None => value,
        Some(at) => {
            let (prefix, name) = (&value[..at], &value[at + 1..]);
            if prefix.len() > DNS1123_SUBDOMAIN_MAX
                || !is_subdomain(prefix)
                || name.bytes().any(|byte| byte == b'/')
            {
                return false;
            }
            name
        }
    };
    name.len() <= QUALIFIED_NAME_MAX && is_qualified(name, false)
}

/// `IsQualifiedName` in `words` (content's `IsLabelKey` from 1.35).
pub fn qualified_name_in(value: &str, words: Words) -> Vec<String> {
    // Most keys are valid: the verdict first, the messages only for the
    // rest.
    if is_qualified_name(value) {
        return Vec::new();
    }
    let mut errors = Vec::new();
    // Byte scans: names are short, and a char searcher's set-up costs more
    // than reading them.
    let slash = value.bytes().position(|byte| byte == b'/');
    let name = match slash.map(|at| (&value[..at], &value[at + 1..])) {
        None => value,
        Some((prefix, name)) if !name.bytes().any(|byte| byte == b'/') => {
            if prefix.is_empty() {
                errors.push("prefix part must be non-empty".to_owned());
            } else {
                errors.extend(
                    dns1123_subdomain_in(prefix, words)
                        .into_iter()
                        .map(|message| format!("prefix part {message}")),
                );
            }
            name
        }
        _ => {
            let what = match words {
                Words::Util => "a qualified name",
                Words::Content => "a valid label key",
            };
            return vec![format!(
                "{what} {QUALIFIED_MESSAGE} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"
            )];
        }
    };
    if name.is_empty() {
        errors.push("name part must be non-empty".to_owned());
    } else if name.len() > QUALIFIED_NAME_MAX {
        errors.push(format!("name part {}", words.too_long(QUALIFIED_NAME_MAX)));
    }
    if !is_qualified(name, false) {
        errors.push(format!("name part {QUALIFIED_MESSAGE}"));
    }
    errors
}

/// Go's `IsValidLabelValue`.
// The words before 1.35; the go_validation checks call it.
#[allow(dead_code)]
pub fn label_value(value: &str) -> Vec<String> {
    label_value_in(value, Words::Util)
}

/// `IsValidLabelValue` in `words` (content's `IsLabelValue` from 1.35).
pub fn label_value_in(value: &str, words: Words) -> Vec<String> {
    let mut errors = Vec::new();
    if value.len() > QUALIFIED_NAME_MAX {
        errors.push(words.too_long(QUALIFIED_NAME_MAX));
    }
    if !is_qualified(value, true) {
        errors.push(LABEL_VALUE_MESSAGE.to_owned());
    }
    errors
}

/// apimachinery's `maskTrailingDash`: a `generateName` may end with a dash
/// (the server appends a suffix), so its last two bytes become `a`.
pub fn mask_trailing_dash(name: &str) -> std::borrow::Cow<'_, str> {
    match name.strip_suffix('-') {
        // The server cuts two bytes (`name[:len(name)-2] + "a"`). Inside a
        // character that leaves bytes no name rule accepts: so does the
        // name as it is, ending with a dash.
        Some(_) if name.len() > 1 && name.is_char_boundary(name.len() - 2) => {
            format!("{}a", &name[..name.len() - 2]).into()
        }
        _ => name.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subdomains_labels_and_dns1035() {
        assert!(dns1123_subdomain("web.example-1.com").is_empty());
        assert_eq!(dns1123_subdomain("Web"), [SUBDOMAIN_MESSAGE]);
        assert_eq!(dns1123_subdomain("a..b").len(), 1);
        let long = "a".repeat(254);
        assert_eq!(
            dns1123_subdomain(&long),
            ["must be no more than 253 characters"]
        );
        assert!(dns1123_label("my-ns").is_empty());
        assert_eq!(dns1123_label("my.ns"), ["must not contain dots"]);
        assert_eq!(dns1123_label("my_ns"), [LABEL_MESSAGE]);
        assert_eq!(
            dns1123_label(&"a".repeat(64)),
            ["must be no more than 63 characters"]
        );
        assert!(dns1035_label("web-1").is_empty());
        assert_eq!(dns1035_label("1web"), [DNS1035_MESSAGE]);
        assert_eq!(dns1035_label(""), [DNS1035_MESSAGE]);
    }

    /// Every text of up to four characters from an alphabet of each kind
    /// of character the rules tell apart.
    fn short_texts() -> Vec<String> {
        let alphabet = ["a", "Z", "0", "-", ".", "_", "/", "%", "é"];
        let mut texts = vec![String::new()];
        let mut last = vec![String::new()];
        for _ in 0..4 {
            last = last
                .iter()
                .flat_map(|text| alphabet.iter().map(move |byte| format!("{text}{byte}")))
                .collect();
            texts.extend(last.iter().cloned());
        }
        texts
    }

    #[test]
    fn byte_scans_agree_with_the_servers_regular_expressions() {
        // Go's patterns (apimachinery `pkg/util/validation`), anchored.
        let label = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
        let subdomain = regex::Regex::new(&format!("^{label}(\\.{label})*$")).unwrap();
        let qualified = regex::Regex::new("^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$").unwrap();
        let is_qualified_by_go = |value: &str| {
            let parts: Vec<&str> = value.split('/').collect();
            let (prefix, name) = match parts.as_slice() {
                [name] => (None, *name),
                [prefix, name] => (Some(*prefix), *name),
                _ => return false,
            };
            prefix.is_none_or(|prefix| prefix.len() <= 253 && subdomain.is_match(prefix))
                && name.len() <= 63
                && qualified.is_match(name)
        };
        let long = format!("{}.", "a".repeat(250));
        for text in short_texts() {
            for value in [
                text.clone(),
                format!("{long}{text}"),
                format!("{text}{}", "b".repeat(60)),
            ] {
                assert_eq!(
                    is_subdomain(&value),
                    subdomain.is_match(&value),
                    "{value:?}"
                );
                assert_eq!(
                    is_qualified_name(&value),
                    is_qualified_by_go(&value),
                    "{value:?}"
                );
                assert_eq!(
                    qualified_name_in(&value, Words::Util).is_empty(),
                    is_qualified_by_go(&value),
                    "{value:?}"
                );
                let slash = value.contains('/');
                let percent = value.contains('%');
                assert_eq!(
                    path_segment(&value, true).len(),
                    usize::from(slash) + usize::from(percent),
                    "{value:?}"
                );
            }
        }
    }

    #[test]
    fn path_segments() {
        assert!(path_segment("system:controller:x", false).is_empty());
        assert_eq!(path_segment("..", false), ["may not be '..'"]);
        assert!(path_segment("..", true).is_empty());
        assert_eq!(
            path_segment("a/b%", false),
            ["may not contain '/'", "may not contain '%'"]
        );
    }

    #[test]
    fn qualified_names_and_label_values() {
        assert!(qualified_name("app.kubernetes.io/name").is_empty());
        assert!(qualified_name("MyName").is_empty());
        assert_eq!(
            qualified_name("/x"),
            ["prefix part must be non-empty".to_owned()]
        );
        assert_eq!(
            qualified_name("Example.com/x"),
            [format!("prefix part {SUBDOMAIN_MESSAGE}")]
        );
        assert_eq!(
            qualified_name("a/"),
            [
                "name part must be non-empty".to_owned(),
                format!("name part {QUALIFIED_MESSAGE}")
            ]
        );
        assert!(qualified_name("a/b/c")[0].starts_with("a qualified name must consist"));
        assert!(label_value("").is_empty());
        assert!(label_value("v1.2_x").is_empty());
        assert_eq!(label_value("-x"), [LABEL_VALUE_MESSAGE]);
        assert_eq!(label_value(&"a".repeat(64)).len(), 1);
    }

    #[test]
    fn label_words_count_bytes_from_1_35() {
        use crate::Version;
        assert_eq!(Words::of_labels(Version::new(1, 34)), Words::Util);
        let words = Words::of_labels(Version::new(1, 35));
        assert_eq!(
            label_value_in(&"a".repeat(64), words),
            ["must be no more than 63 bytes"]
        );
        assert_eq!(
            qualified_name_in(&"a".repeat(64), words),
            ["name part must be no more than 63 bytes"]
        );
        assert!(qualified_name_in("a/b/c", words)[0].starts_with("a valid label key must consist"));
        assert_eq!(
            dns1123_subdomain_in(&"a".repeat(254), words),
            ["must be no more than 253 bytes"]
        );
    }

    #[test]
    fn generate_name_may_end_with_a_dash() {
        assert_eq!(mask_trailing_dash("web-"), "wea");
        assert_eq!(mask_trailing_dash("-"), "-");
        assert_eq!(mask_trailing_dash("web"), "web");
        assert_eq!(mask_trailing_dash("é-"), "é-");
        assert!(dns1123_subdomain(&mask_trailing_dash("web-")).is_empty());
    }
}
