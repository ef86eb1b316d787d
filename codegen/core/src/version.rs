//! [`Version`]: one API minor, the single type behind every version string,
//! directory name and identifier vergate reads or writes.

use std::fmt;
use std::str::FromStr;

/// An API minor such as Kubernetes `1.34`.
///
/// `1.34`, `v1.34`, `1.34.0` and `v1.34.2` all parse to the same minor (a patch
/// number is accepted and dropped). Ordering is numeric, so `1.9 < 1.10`.
/// It displays as `1.34`; [`Version::dir_name`] gives `v1.34` and
/// [`Version::ident`] gives `v1_34`. The default is `0.0`, the lowest minor.
#[derive(Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Version {
    major: u32,
    minor: u32,
}

impl Version {
    /// The minor `major.minor`.
    pub const fn new(major: u32, minor: u32) -> Self {
        Version { major, minor }
    }

    /// The major number (`1` in `1.34`).
    pub const fn major(self) -> u32 {
        self.major
    }

    /// The minor number (`34` in `1.34`).
    pub const fn minor(self) -> u32 {
        self.minor
    }

    /// The directory that holds this minor's subtree: `v1.34`.
    pub fn dir_name(self) -> String {
        format!("v{}.{}", self.major, self.minor)
    }

    /// The identifier form used for Rust modules and Pkl aliases: `v1_34`.
    pub fn ident(self) -> String {
        format!("v{}_{}", self.major, self.minor)
    }

    /// Parses the identifier form `v1_34` back into a minor.
    pub fn from_ident(ident: &str) -> Result<Self, ParseVersionError> {
        let err = |reason| ParseVersionError::new(ident, reason);
        let rest = ident.strip_prefix('v').ok_or_else(|| err(Reason::Shape))?;
        let (major, minor) = rest.split_once('_').ok_or_else(|| err(Reason::Shape))?;
        Ok(Version::new(
            parse_number(ident, major)?,
            parse_number(ident, minor)?,
        ))
    }
}

impl Version {
    /// Parses a version as a cluster prints it (`kubectl version`, a managed
    /// provider's console) into its minor.
    ///
    /// Everything [`FromStr`] takes is taken, and besides, after a full
    /// `MAJOR.MINOR.PATCH`, a semantic-versioning pre-release (`-gke.1043000`,
    /// `-eks-1552ad0`) and/or build suffix (`+a2c84a5`): `v1.29.4-gke.1043000`
    /// is the minor `1.29`. A suffix is a dot-separated list of non-empty
    /// identifiers of ASCII letters, digits and `-`. The suffix is dropped.
    ///
    /// [`FromStr`] stays strict on purpose: it reads directory names and
    /// identifiers, where a suffix is a mistake.
    pub fn parse_cluster(input: &str) -> Result<Self, ParseVersionError> {
        let Some(cut) = input.find(['-', '+']) else {
            return input.parse();
        };
        let (core, suffix) = input.split_at(cut);
        let body = core.strip_prefix('v').unwrap_or(core);
        if body.split('.').count() != 3 {
            return Err(ParseVersionError::new(input, Reason::SuffixWithoutPatch));
        }
        let version = core
            .parse()
            .map_err(|err: ParseVersionError| ParseVersionError::new(input, err.reason))?;
        let (pre, build) = match suffix.split_once('+') {
            Some((pre, build)) => (pre, Some(build)),
            None => (suffix, None),
        };
        let pre = pre.strip_prefix('-');
        let well_formed = pre.is_none_or(is_suffix) && build.is_none_or(is_suffix);
        if !well_formed {
            return Err(ParseVersionError::new(input, Reason::BadSuffix));
        }
        Ok(version)
    }
}

/// True for a semantic-versioning pre-release or build suffix without its
/// leading `-` or `+`: dot-separated, non-empty `[0-9A-Za-z-]+` identifiers.
fn is_suffix(text: &str) -> bool {
    text.split('.').all(|identifier| {
        !identifier.is_empty()
            && identifier
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-')
    })
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)
    }
}

impl fmt::Debug for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Version({self})")
    }
}

impl FromStr for Version {
    type Err = ParseVersionError;

    fn from_str(input: &str) -> Result<Self, Self::Err> {
        let body = input.strip_prefix('v').unwrap_or(input);
        if body.is_empty() {
            return Err(ParseVersionError::new(input, Reason::Empty));
        }
        let parts: Vec<&str> = body.split('.').collect();
        match parts.as_slice() {
            [major, minor] | [major, minor, _] => {
                let version =
                    Version::new(parse_number(input, major)?, parse_number(input, minor)?);
                if let [_, _, patch] = parts.as_slice() {
                    parse_number(input, patch)?;
                }
                Ok(version)
            }
            [_] => Err(ParseVersionError::new(input, Reason::MissingMinor)),
            _ => Err(ParseVersionError::new(input, Reason::TooManyParts)),
        }
    }
}

fn parse_number(input: &str, digits: &str) -> Result<u32, ParseVersionError> {
    if digits.is_empty() {
        return Err(ParseVersionError::new(input, Reason::EmptyPart));
    }
    if !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ParseVersionError::new(
            input,
            Reason::NotANumber(digits.to_owned()),
        ));
    }
    if digits.len() > 1 && digits.starts_with('0') {
        return Err(ParseVersionError::new(
            input,
            Reason::LeadingZero(digits.to_owned()),
        ));
    }
    digits
        .parse()
        .map_err(|_| ParseVersionError::new(input, Reason::Overflow(digits.to_owned())))
}

/// Returns true when a directory name is a version directory: `^v\d+(\..+)?$`.
///
/// This is the one test used both by import aliasing (a parent that is a
/// version directory takes the version branch) and by schema manifest
/// discovery (`vpcaccess` is not a version, `v1.34` is).
pub fn is_version_dir(name: &str) -> bool {
    let Some(rest) = name.strip_prefix('v') else {
        return false;
    };
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return false;
    }
    let tail = &rest[digits..];
    tail.is_empty() || (tail.starts_with('.') && tail.len() > 1)
}

/// Why a string is not a [`Version`]. Its message quotes the input.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    r#"invalid version {input:?}: {reason}; expected MAJOR.MINOR such as "1.34" (a leading "v" and a ".PATCH" are accepted)"#
)]
pub struct ParseVersionError {
    input: String,
    reason: Reason,
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
enum Reason {
    #[error("it is empty")]
    Empty,
    #[error("an identifier form looks like `v1_34`")]
    Shape,
    #[error("it has no minor number")]
    MissingMinor,
    #[error("it has more than major.minor.patch")]
    TooManyParts,
    #[error("a number is missing between the dots")]
    EmptyPart,
    #[error("{0:?} is not a number")]
    NotANumber(String),
    #[error("{0:?} has a leading zero")]
    LeadingZero(String),
    #[error("{0:?} is too large")]
    Overflow(String),
    #[error("a \"-\" or \"+\" suffix needs a full major.minor.patch before it")]
    SuffixWithoutPatch,
    #[error("its suffix after the patch is not dot-separated letters, digits and \"-\"")]
    BadSuffix,
}

impl ParseVersionError {
    fn new(input: &str, reason: Reason) -> Self {
        ParseVersionError {
            input: input.to_owned(),
            reason,
        }
    }

    /// The string that failed to parse.
    pub fn input(&self) -> &str {
        &self.input
    }
}

#[cfg(feature = "serde")]
mod serde_impl {
    use super::Version;
    use serde::de::{self, Deserialize, Deserializer, Visitor};
    use serde::ser::{Serialize, Serializer};
    use std::fmt;

    impl Serialize for Version {
        fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            serializer.collect_str(self)
        }
    }

    impl<'de> Deserialize<'de> for Version {
        fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            struct VersionVisitor;
            impl Visitor<'_> for VersionVisitor {
                type Value = Version;
                fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                    f.write_str("a minor version string such as \"1.34\"")
                }
                fn visit_str<E: de::Error>(self, value: &str) -> Result<Version, E> {
                    value.parse().map_err(E::custom)
                }
            }
            deserializer.deserialize_str(VersionVisitor)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> Version {
        s.parse().unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn every_spelling_of_a_minor_is_the_same_minor() {
        for spelling in ["1.34", "v1.34", "1.34.0", "v1.34.0", "1.34.7"] {
            assert_eq!(v(spelling), Version::new(1, 34), "{spelling}");
        }
    }

    #[test]
    fn ordering_is_numeric() {
        assert!(v("1.9") < v("1.10"));
        assert!(v("1.10") < v("2.0"));
        let mut versions = [v("1.10"), v("1.9"), v("1.28"), v("0.99")];
        versions.sort();
        let shown: Vec<String> = versions.iter().map(ToString::to_string).collect();
        assert_eq!(shown, ["0.99", "1.9", "1.10", "1.28"]);
    }

    #[test]
    fn forms() {
        let version = v("v1.34.0");
        assert_eq!(version.to_string(), "1.34");
        assert_eq!(version.dir_name(), "v1.34");
        assert_eq!(version.ident(), "v1_34");
        assert_eq!(Version::from_ident("v1_34"), Ok(version));
        assert!(Version::from_ident("1_34").is_err());
    }

    #[test]
    fn garbage_is_rejected_with_the_input_quoted() {
        let overflow = format!("1.{}", u64::MAX);
        for input in [
            "", "v", "1", "1.", ".1", "1.x", "1.34.0.1", "-1.2", "+1.2", " 1.2", "1.2 ", "01.2",
            "1.02", "1..2", "1.2-rc1", "v1.2.x", "vv1.2", &overflow,
        ] {
            let err = input.parse::<Version>().expect_err(input);
            let message = err.to_string();
            assert!(
                message.contains(&format!("{input:?}")),
                "{message} does not quote {input:?}"
            );
            assert_eq!(err.input(), input);
        }
    }

    #[test]
    fn messages_say_what_is_wrong() {
        let msg = |s: &str| s.parse::<Version>().unwrap_err().to_string();
        assert!(msg("1.x").contains("\"x\" is not a number"));
        assert!(msg("").contains("empty"));
        assert!(msg("1.34.0.1").contains("more than major.minor.patch"));
        assert!(msg("1.99999999999").contains("too large"));
    }

    #[test]
    fn version_directory_test() {
        for yes in ["v1", "v1.34", "v10.0", "v1.x", "v2.beta"] {
            assert!(is_version_dir(yes), "{yes}");
        }
        for no in [
            "vpcaccess",
            "v",
            "v.1",
            "v1.",
            "1.34",
            "V1.34",
            "v1_34",
            "version",
            "",
        ] {
            assert!(!is_version_dir(no), "{no}");
        }
    }

    #[test]
    fn cluster_printed_versions_are_their_minor() {
        for (spelling, minor) in [
            ("1.29", 29),
            ("v1.29", 29),
            ("1.29.3", 29),
            ("v1.29.4-gke.1043000", 29),
            ("v1.31.0+a2c84a5", 31),
            ("v1.30.2-eks-1552ad0", 30),
            ("v1.28.3+k3s1", 28),
            ("1.32.1-rc.1+build.7", 32),
        ] {
            let parsed = Version::parse_cluster(spelling).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(parsed, Version::new(1, minor), "{spelling}");
        }
    }

    #[test]
    fn cluster_suffixes_need_a_patch_and_a_well_formed_suffix() {
        for (input, reason) in [
            ("v1.29-gke.1", "full major.minor.patch"),
            ("1-rc1", "full major.minor.patch"),
            ("-1.2.3", "full major.minor.patch"),
            ("v1.29.4-", "suffix after the patch"),
            ("v1.29.4+", "suffix after the patch"),
            ("v1.29.4-gke..1", "suffix after the patch"),
            ("v1.29.4-gke_1", "suffix after the patch"),
            ("v1.29.4-a+b+c", "suffix after the patch"),
            ("v1.29.4 -x", "not a number"),
            ("v1.x.4-gke.1", "\"x\" is not a number"),
            ("v1.29.4.1", "more than major.minor.patch"),
        ] {
            let err = Version::parse_cluster(input).expect_err(input);
            let message = err.to_string();
            assert!(message.contains(reason), "{input}: {message}");
            assert!(message.contains(&format!("{input:?}")), "{message}");
        }
    }

    #[test]
    fn from_str_stays_strict_about_suffixes() {
        for input in ["v1.29.4-gke.1043000", "v1.31.0+a2c84a5"] {
            assert!(input.parse::<Version>().is_err(), "{input}");
        }
    }

    #[cfg(feature = "serde")]
    #[test]
    fn serde_uses_the_display_form() {
        let json = serde_json::to_string(&v("v1.9.0")).unwrap();
        assert_eq!(json, "\"1.9\"");
        let back: Version = serde_json::from_str("\"v1.10\"").unwrap();
        assert_eq!(back, Version::new(1, 10));
        let err = serde_json::from_str::<Version>("\"1.x\"").unwrap_err();
        assert!(err.to_string().contains("\"1.x\""));
    }
}
