//! Kubernetes semantic versions (`semver('1.2.3')`), as the API server's CEL
//! semver library (1.33) offers them: parsed strictly as SemVer 2.0
//! (`MAJOR.MINOR.PATCH`, optional pre-release and build), or, with
//! `normalize`, after dropping a leading `v`, leading zeros and filling a
//! missing minor or patch with 0. Ordered and compared by SemVer
//! precedence, build metadata ignored.

use std::cmp::Ordering;

/// A parsed version.
#[derive(Clone, Debug)]
pub struct Semver(semver::Version);

impl cel::objects::Opaque for Semver {
    fn runtime_type_name(&self) -> &str {
        "kubernetes.Semver"
    }
}

impl PartialEq for Semver {
    fn eq(&self, other: &Semver) -> bool {
        self.compare(other) == Ordering::Equal
    }
}

impl Eq for Semver {}

impl Semver {
    /// Reads `text` (normalized first when `normalize`), or says why not.
    pub fn parse(text: &str, normalize: bool) -> Result<Semver, String> {
        let text = if normalize {
            normalized(text)?
        } else {
            text.to_owned()
        };
        semver::Version::parse(&text)
            .map(Semver)
            .map_err(|err| err.to_string())
    }

    pub fn major(&self) -> u64 {
        self.0.major
    }

    pub fn minor(&self) -> u64 {
        self.0.minor
    }

    pub fn patch(&self) -> u64 {
        self.0.patch
    }

    /// SemVer precedence: the numbers, then the pre-release (a version
    /// without one is greater); build metadata does not count.
    pub fn compare(&self, other: &Semver) -> Ordering {
        let (a, b) = (&self.0, &other.0);
        (a.major, a.minor, a.patch)
            .cmp(&(b.major, b.minor, b.patch))
            .then_with(|| a.pre.cmp(&b.pre))
    }
}

/// `text` as the library normalizes it before parsing: no leading `v`, no
/// leading zeros in the three parts, a missing minor or patch filled with
/// 0 (refused when the short form carries a pre-release or build).
fn normalized(text: &str) -> Result<String, String> {
    let text = text.strip_prefix('v').unwrap_or(text);
    let mut parts: Vec<String> = text.splitn(3, '.').map(str::to_owned).collect();
    for part in &mut parts {
        if part.len() > 1 {
            let trimmed = part.trim_start_matches('0');
            *part = if trimmed.starts_with(|c: char| c.is_ascii_digit()) {
                trimmed.to_owned()
            } else {
                format!("0{trimmed}")
            };
        }
    }
    if parts.len() < 3 {
        if parts.last().is_some_and(|last| last.contains(['+', '-'])) {
            return Err("short version cannot contain PreRelease/Build meta data".to_owned());
        }
        parts.resize(3, "0".to_owned());
    }
    Ok(parts.join("."))
}

#[cfg(test)]
mod tests {
    use super::Semver;
    use std::cmp::Ordering;

    fn v(text: &str) -> Semver {
        Semver::parse(text, false).unwrap()
    }

    #[test]
    fn versions_parse_and_order_as_semver() {
        assert_eq!(v("1.2.3").major(), 1);
        assert_eq!(v("1.2.3").minor(), 2);
        assert_eq!(v("1.2.3").patch(), 3);
        assert_eq!(v("1.2.3").compare(&v("2.0.0")), Ordering::Less);
        assert_eq!(v("1.0.0-alpha").compare(&v("1.0.0")), Ordering::Less);
        assert_eq!(
            v("1.0.0-alpha.1").compare(&v("1.0.0-alpha.beta")),
            Ordering::Less
        );
        assert_eq!(v("1.0.0+build.1"), v("1.0.0+build.2"));
        for bad in ["1.0", "v1.0.0", "01.1.1", "1.0.0-", "hello", ""] {
            assert!(Semver::parse(bad, false).is_err(), "{bad}");
        }
        for (loose, strict) in [
            ("v1.0", "1.0.0"),
            ("01.01.01", "1.1.1"),
            ("1", "1.0.0"),
            ("v1.2.3-rc.1", "1.2.3-rc.1"),
        ] {
            assert_eq!(Semver::parse(loose, true).unwrap(), v(strict), "{loose}");
        }
        assert!(Semver::parse("1.0-rc.1", true).is_err());
    }
}
