//! The keys of a [`FileTree`](super::FileTree): a path made of its normal
//! components only, ordered as [`Path`] orders paths (component by
//! component) but compared as bytes. A tree of ~10,000 paths is looked up
//! and inserted into ~700,000 times per regen, and `Path`'s comparison,
//! which splits both paths into components each time, was 8 % of it.

use std::cmp::Ordering;
use std::path::{Path, PathBuf, MAIN_SEPARATOR};

/// A relative path without `.`, `..`, root, repeated or trailing separators.
#[derive(Clone, Debug)]
pub(super) struct TreePath(PathBuf);

impl TreePath {
    /// `path` rebuilt from its components, so that two paths `Path` holds
    /// equal are the same bytes.
    pub(super) fn new(path: &Path) -> TreePath {
        TreePath(path.components().collect())
    }

    pub(super) fn as_path(&self) -> &Path {
        &self.0
    }

    fn bytes(&self) -> &[u8] {
        self.0.as_os_str().as_encoded_bytes()
    }
}

/// Where two paths first differ, the separator sorts below every other
/// byte: then comparing the bytes is comparing the components in order
/// (`a/b` < `a.b` < `ab`, as `Path` has it), since a component holds no
/// separator and [`TreePath::new`] leaves no empty one.
impl Ord for TreePath {
    fn cmp(&self, other: &TreePath) -> Ordering {
        let (a, b) = (self.bytes(), other.bytes());
        let rank = |byte: u8| {
            if byte == MAIN_SEPARATOR as u8 {
                0
            } else {
                u16::from(byte) + 1
            }
        };
        match a.iter().zip(b).position(|(x, y)| x != y) {
            Some(at) => rank(a[at]).cmp(&rank(b[at])),
            None => a.len().cmp(&b.len()),
        }
    }
}

impl PartialOrd for TreePath {
    fn partial_cmp(&self, other: &TreePath) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for TreePath {
    fn eq(&self, other: &TreePath) -> bool {
        self.bytes() == other.bytes()
    }
}

impl Eq for TreePath {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orders_as_path_does() {
        let paths = [
            "a",
            "a/b",
            "a/b/c",
            "a.b",
            "a.b/c",
            "ab",
            "a-b/c",
            "a/b.json",
            "a/b/c.json",
            "a/bc",
            "b",
            "json/v1.28/x.json",
            "json/v1.28-strict/x.json",
            "json/v1.28/y/z.json",
            "json/v1.28.json",
            "pkl/@k8s/v1.28/apps/Deployment.pkl",
            "pkl/@k8s/v1.28/apps.pkl",
        ];
        for a in paths {
            for b in paths {
                let (x, y) = (TreePath::new(Path::new(a)), TreePath::new(Path::new(b)));
                assert_eq!(x.cmp(&y), Path::new(a).cmp(Path::new(b)), "{a} against {b}");
                assert_eq!(x == y, a == b, "{a} against {b}");
            }
        }
    }

    #[test]
    fn paths_path_holds_equal_are_equal() {
        let (x, y) = (
            TreePath::new(Path::new("a//b/")),
            TreePath::new(Path::new("a/b")),
        );
        assert_eq!(x, y);
        assert_eq!(x.as_path(), Path::new("a/b"));
    }
}
