//! [`VersionSet`]: the minors in which something is present.

use crate::Version;
use std::collections::BTreeSet;

/// A sorted set of minors: where a type, field or enum value is present, or
/// where a field is required.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct VersionSet(BTreeSet<Version>);

impl VersionSet {
    /// The empty set.
    pub fn new() -> Self {
        VersionSet(BTreeSet::new())
    }

    /// Adds a minor; returns false when it was already there.
    pub fn insert(&mut self, version: Version) -> bool {
        self.0.insert(version)
    }

    /// True when `version` is in the set.
    pub fn contains(&self, version: Version) -> bool {
        self.0.contains(&version)
    }

    /// True when the set holds no minor.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The number of minors in the set.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// The minors in ascending order.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = Version> + '_ {
        self.0.iter().copied()
    }

    /// The oldest minor in the set.
    pub fn first(&self) -> Option<Version> {
        self.0.first().copied()
    }

    /// The newest minor in the set.
    pub fn last(&self) -> Option<Version> {
        self.0.last().copied()
    }

    /// The first minor of `corpus` after the last minor of this set, if any:
    /// the minor in which something present here was removed.
    pub fn removed_in(&self, corpus: &[Version]) -> Option<Version> {
        let last = self.last()?;
        corpus.iter().copied().find(|v| *v > last)
    }

    /// True when the set covers every corpus minor between its first and its
    /// last: presence has no gap.
    pub fn is_contiguous_in(&self, corpus: &[Version]) -> bool {
        match (self.first(), self.last()) {
            (Some(first), Some(last)) => corpus
                .iter()
                .filter(|v| **v >= first && **v <= last)
                .all(|v| self.contains(*v)),
            _ => true,
        }
    }
}

impl FromIterator<Version> for VersionSet {
    fn from_iter<I: IntoIterator<Item = Version>>(iter: I) -> Self {
        VersionSet(iter.into_iter().collect())
    }
}

impl Extend<Version> for VersionSet {
    fn extend<I: IntoIterator<Item = Version>>(&mut self, iter: I) {
        self.0.extend(iter);
    }
}

/// The presence rule of a gate, shared by the gates index and the derive's
/// static tables: the exact minors when presence has a gap, otherwise from
/// `introduced_in` up to (not including) `removed_in`.
pub fn gate_admits(
    version: Version,
    introduced_in: Version,
    removed_in: Option<Version>,
    present_in: Option<&[Version]>,
) -> bool {
    match present_in {
        Some(minors) => minors.contains(&version),
        None => version >= introduced_in && removed_in.is_none_or(|removed| version < removed),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(minors: &[u32]) -> VersionSet {
        minors.iter().map(|m| Version::new(1, *m)).collect()
    }

    #[test]
    fn removal_and_gaps() {
        let corpus: Vec<Version> = (28..=36).map(|m| Version::new(1, m)).collect();
        assert_eq!(
            set(&[28, 29, 30]).removed_in(&corpus),
            Some(Version::new(1, 31))
        );
        assert_eq!(set(&[30, 36]).removed_in(&corpus), None);
        assert!(set(&[30, 31, 32]).is_contiguous_in(&corpus));
        assert!(!set(&[30, 32]).is_contiguous_in(&corpus));
        assert!(VersionSet::new().is_contiguous_in(&corpus));
    }
}
