//! Where each converted input goes, or why the command refuses to run
//! before anything is read: several inputs (or a directory) need `--out
//! DIR` or `--in-place`; standard input cannot be written in place or
//! mirrored; nothing is written onto an input except in place, nor two
//! inputs onto one file. Files are told apart by what they are (device and
//! inode), not by name, so a symbolic or hard link to an input is that
//! input.

use super::super::atomic_write::FileKey;
use super::super::inputs;
use super::UpgradeArgs;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// Where one converted input goes.
pub(super) enum Destination {
    Stdout,
    File(PathBuf),
}

/// The destination of each source, in order, or the message refusing.
pub(super) fn of(
    args: &UpgradeArgs,
    sources: &[inputs::Source],
) -> Result<Vec<Destination>, String> {
    let directories: Vec<String> = args
        .inputs
        .iter()
        .filter(|path| path.is_dir())
        .map(|path| path.display().to_string())
        .collect();
    if sources.is_empty() {
        return Err(format!(
            "no YAML or JSON files found in {}; nothing to upgrade",
            directories.join(", ")
        ));
    }
    let many = sources.len() > 1 || !directories.is_empty();
    if many && args.out.is_none() && !args.in_place {
        let what = if directories.is_empty() {
            format!("{} files", sources.len())
        } else {
            format!(
                "{} ({} file{})",
                directories.join(", "),
                sources.len(),
                if sources.len() == 1 { "" } else { "s" }
            )
        };
        let flag = if args.output.is_some() {
            "-o FILE takes one input"
        } else {
            "standard output takes one input"
        };
        return Err(format!(
            "refusing to upgrade {what}: {flag}; pass --out DIR to write each file under DIR (mirroring its path) or --in-place to overwrite each"
        ));
    }
    // The inputs' identities, to refuse writing onto any of them.
    let inputs: Vec<(FileKey, &Path)> = sources
        .iter()
        .filter_map(inputs::Source::path)
        .filter_map(|path| Some((FileKey::of(path)?, path)))
        .collect();
    let input_at = |target: &Path| {
        let key = FileKey::of(target)?;
        inputs
            .iter()
            .find(|(input, _)| *input == key)
            .map(|(_, path)| *path)
    };
    let mut targets: Vec<Destination> = Vec::new();
    let mut written: HashMap<Written, &str> = HashMap::new();
    for source in sources {
        let Some(path) = source.path() else {
            if args.out.is_some() || args.in_place {
                return Err(format!(
                    "{}: --out and --in-place need files, not standard input",
                    source.name
                ));
            }
            targets.push(Destination::Stdout);
            continue;
        };
        let target = if args.in_place {
            path.to_owned()
        } else if let Some(dir) = &args.out {
            let target = dir.join(source.relative.as_deref().unwrap_or(path));
            if let Some(input) = input_at(&target) {
                return Err(format!(
                    "--out {}: would overwrite the input {}{}; nothing written: choose a directory outside the inputs, or pass --in-place",
                    dir.display(),
                    input.display(),
                    alias(&target, input)
                ));
            }
            target
        } else if let Some(output) = &args.output {
            if let Some(input) = input_at(output) {
                return Err(format!(
                    "-o {}: refusing to overwrite the input {}{}; nothing written: pass --in-place to rewrite it",
                    output.display(),
                    input.display(),
                    alias(output, input)
                ));
            }
            output.clone()
        } else {
            targets.push(Destination::Stdout);
            continue;
        };
        if let Some(other) = written.insert(Written::of(&target), &source.name) {
            return Err(format!(
                "{} and {} would both be written to {} (one file); upgrade them in separate runs or name their directory instead; nothing written",
                other,
                source.name,
                target.display()
            ));
        }
        targets.push(Destination::File(target));
    }
    Ok(targets)
}

/// How `target` is the file `input` (they are one file): said in the
/// message, so that a link is not a surprise.
fn alias(target: &Path, input: &Path) -> &'static str {
    let canonical = |path: &Path| std::fs::canonicalize(path).ok();
    let is_link = |path: &Path| {
        std::fs::symlink_metadata(path).is_ok_and(|meta| meta.file_type().is_symlink())
    };
    if target == input {
        ""
    } else if canonical(target) != canonical(input) {
        " (a hard link to it)"
    } else if is_link(target) || is_link(input) {
        " (a symbolic link to it)"
    } else {
        " (the same file)"
    }
}

/// A file to be written: an existing one by identity, a new one by path.
#[derive(PartialEq, Eq, Hash)]
enum Written {
    Existing(FileKey),
    New(PathBuf),
}

impl Written {
    fn of(path: &Path) -> Written {
        match FileKey::of(path) {
            Some(key) => Written::Existing(key),
            None => Written::New(path.to_owned()),
        }
    }
}
