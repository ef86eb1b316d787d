//! Writing a file so that no crash can leave less than its old or its new
//! text: the bytes go to a temporary file beside the target (same
//! directory, so same file system), which is flushed to disk, renamed over
//! the target, and the directory flushed so the rename itself is durable.
//! A process killed at any point leaves the target as it was or as
//! written, never empty or cut; at worst a hidden `.NAME.*.vergate-tmp`
//! file stays beside it.
//!
//! - An existing file keeps its permission bits (not its owner: the new
//!   file belongs to whoever runs the command, as with any editor that
//!   writes aside); a new file gets the permissions `File::create` gives
//!   (0666 less the umask).
//! - A symbolic link is followed: the file it points to is replaced in its
//!   own directory and the link is kept; [`Written::through_link`] says so,
//!   so the caller can tell the user.
//! - Something that is neither a regular file nor a link to one (`-o
//!   /dev/null`, a named pipe) is written to directly: there is nothing to
//!   rename over.

use std::fs::{File, Permissions};
use std::io::Write;
use std::path::{Path, PathBuf};

/// What [`write`] did.
#[derive(Debug)]
pub struct Written {
    /// The file replaced when `path` was a symbolic link to it.
    pub through_link: Option<PathBuf>,
}

/// Writes `bytes` to `path` as described in the module's documentation.
/// The error names the path and what could not be done.
pub fn write(path: &Path, bytes: &[u8]) -> Result<Written, String> {
    let fail = |what: &str, at: &Path, err: std::io::Error| {
        format!("{}: error: cannot {what}: {err}", at.display())
    };
    let (target, through_link) = match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => match std::fs::canonicalize(path) {
            Ok(real) => (real.clone(), Some(real)),
            Err(err) => {
                return Err(format!(
                    "{}: error: a symbolic link to a missing file ({err}); nothing written: name the file itself",
                    path.display()
                ))
            }
        },
        _ => (path.to_owned(), None),
    };
    let existing = match std::fs::metadata(&target) {
        Ok(meta) if meta.is_dir() => {
            return Err(format!(
                "{}: error: is a directory; nothing written",
                target.display()
            ))
        }
        Ok(meta) if !meta.is_file() => {
            // A device or a pipe: written to as it is.
            let mut file = File::options()
                .write(true)
                .open(&target)
                .map_err(|err| fail("write", &target, err))?;
            file.write_all(bytes)
                .map_err(|err| fail("write", &target, err))?;
            return Ok(Written { through_link });
        }
        Ok(meta) => Some(meta.permissions()),
        Err(_) => None,
    };
    let dir = match target.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.to_owned(),
        _ => PathBuf::from("."),
    };
    let name = target
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default();
    let prefix = format!(".{name}.");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".vergate-tmp");
    #[cfg(unix)]
    if existing.is_none() {
        // What `File::create` gives: 0666 less the umask.
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(Permissions::from_mode(0o666));
    }
    let mut temp = builder
        .tempfile_in(&dir)
        .map_err(|err| fail("create a file beside it", &target, err))?;
    if let Some(permissions) = existing {
        temp.as_file()
            .set_permissions(permissions)
            .map_err(|err| fail("keep its permissions", &target, err))?;
    }
    temp.write_all(bytes)
        .and_then(|()| temp.as_file().sync_all())
        .map_err(|err| fail("write beside it", temp.path(), err))?;
    temp.persist(&target)
        .map_err(|err| fail("replace it", &target, err.error))?;
    sync_dir(&dir).map_err(|err| fail("flush the directory", &dir, err))?;
    Ok(Written { through_link })
}

/// Flushes a directory's entries (the rename) to disk. Windows has no
/// such call; there a rename is as durable as the file system makes it.
fn sync_dir(dir: &Path) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        File::open(dir)?.sync_all()
    }
    #[cfg(not(unix))]
    {
        let _ = dir;
        Ok(())
    }
}

/// The identity of an existing file: device and inode on Unix, so that
/// two paths (the same path, a symbolic link, a hard link) are known to be
/// one file; the canonical path elsewhere.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FileKey(Key);

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Key {
    #[cfg(unix)]
    Inode(u64, u64),
    #[cfg_attr(unix, allow(dead_code))]
    Path(PathBuf),
}

impl FileKey {
    /// The key of the file at `path` (links followed); `None` when nothing
    /// is there.
    pub fn of(path: &Path) -> Option<FileKey> {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            let meta = std::fs::metadata(path).ok()?;
            Some(FileKey(Key::Inode(meta.dev(), meta.ino())))
        }
        #[cfg(not(unix))]
        {
            Some(FileKey(Key::Path(std::fs::canonicalize(path).ok()?)))
        }
    }
}

/// How many names (hard links) the file at `path` has; 1 where unknown.
pub fn link_count(path: &Path) -> u64 {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        std::fs::metadata(path).map_or(1, |meta| meta.nlink())
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_the_file_and_keeps_its_mode() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.yaml");
        std::fs::write(&path, "old").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, Permissions::from_mode(0o640)).unwrap();
        }
        let before = FileKey::of(&path).unwrap();
        write(&path, b"new").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"new");
        // A new file renamed over the old one, nothing left beside it.
        assert_ne!(FileKey::of(&path).unwrap(), before);
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o640);
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_link_is_followed_and_kept() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real.yaml");
        let link = dir.path().join("link.yaml");
        std::fs::write(&real, "old").unwrap();
        std::os::unix::fs::symlink(&real, &link).unwrap();
        let written = write(&link, b"new").unwrap();
        assert_eq!(
            written.through_link,
            Some(std::fs::canonicalize(&real).unwrap())
        );
        assert!(std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(std::fs::read(&real).unwrap(), b"new");
    }

    #[cfg(unix)]
    #[test]
    fn a_dangling_link_or_a_directory_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let link = dir.path().join("link.yaml");
        std::os::unix::fs::symlink(dir.path().join("missing"), &link).unwrap();
        let err = write(&link, b"x").unwrap_err();
        assert!(err.contains("a symbolic link to a missing file"), "{err}");
        let err = write(dir.path(), b"x").unwrap_err();
        assert!(err.contains("is a directory"), "{err}");
    }

    #[cfg(unix)]
    #[test]
    fn hard_links_are_one_file() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a.yaml");
        let h = dir.path().join("h.yaml");
        std::fs::write(&a, "x").unwrap();
        std::fs::hard_link(&a, &h).unwrap();
        assert_eq!(FileKey::of(&a), FileKey::of(&h));
        assert_eq!(link_count(&a), 2);
        assert_eq!(FileKey::of(&dir.path().join("none")), None);
    }
}
