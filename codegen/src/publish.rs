//! Packing a generated API for publishing, reproducibly: the same tree gives
//! byte-identical archives.
//!
//! Into `out/` it writes:
//!
//! - `pkl/<pkg>@<version>.zip` and its metadata `pkl/<pkg>@<version>`: the Pkl
//!   package (root + every `v<X.Y>` subtree), made by the real
//!   `pkl project package`, exactly as Pkl packages are published;
//! - `pkl/<pkg>-v<X.Y>@<X.Y>.0.zip` and its metadata: each minor's own
//!   package (`v<X.Y>/PklProject`), by `pkl project package` too, for users
//!   who depend on one minor;
//! - `json/<dir>.tar.gz` for every JSON tree (`v1.34`, `v1.34-strict`,
//!   `openapi`), and the combined schema when there is one;
//! - `SHA256SUMS`, in `sha256sum` format, over everything above.

use crate::api::sha256_hex;
use crate::emit::{Emitter, Packing, EMITTERS};
use crate::error::{Error, Result};
use std::path::{Path, PathBuf};
use std::process::Command;
use vergate_core::is_version_dir;

/// What [`publish`] wrote, relative to its output directory.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Published {
    pub artifacts: Vec<PathBuf>,
}

/// Packs `generated_dir` (`generated/<api>/`) into `out`, which is emptied
/// first: the output of every emitter of the registry that is published,
/// each into `out/<its output>/` as its [`Packing`] says. `pkl` is the pkl
/// CLI used for the Pkl package.
pub fn publish(generated_dir: &Path, out: &Path, pkl: &Path) -> Result<Published> {
    let published: Vec<(&Emitter, PathBuf)> = EMITTERS
        .iter()
        .filter(|emitter| emitter.packing != Packing::None)
        .map(|emitter| (emitter, generated_dir.join(emitter.output.path())))
        .collect();
    for (_, required) in &published {
        if !required.exists() {
            return Err(Error::Config {
                path: required.clone(),
                message: "missing; run `cargo xtask regen` first".into(),
            });
        }
    }
    if out.exists() {
        std::fs::remove_dir_all(out)
            .map_err(|source| Error::io(out, "emptying the output directory", source))?;
    }
    for (emitter, dir) in &published {
        let target = out.join(emitter.output.path());
        std::fs::create_dir_all(&target)
            .map_err(|source| Error::io(&target, "creating the output directory", source))?;
        match emitter.packing {
            Packing::None => {}
            Packing::PklPackage => pkl_packages(pkl, dir, &target)?,
            Packing::Tarballs => tarballs(dir, &target)?,
        }
    }
    let artifacts = list_relative(out)?;
    let sums: String = artifacts
        .iter()
        .map(|path| {
            let bytes = std::fs::read(out.join(path)).expect("just written");
            format!("{}  {}\n", sha256_hex(&bytes), path.display())
        })
        .collect();
    write(&out.join("SHA256SUMS"), sums.as_bytes())?;
    let mut artifacts = artifacts;
    artifacts.push(PathBuf::from("SHA256SUMS"));
    Ok(Published { artifacts })
}

/// The Pkl package of `pkl_dir` and each minor's own package, into `out`.
fn pkl_packages(pkl: &Path, pkl_dir: &Path, out: &Path) -> Result<()> {
    pkl_package(pkl, pkl_dir, out)?;
    for minor in subdirs(pkl_dir)?
        .into_iter()
        .filter(|name| is_version_dir(name))
    {
        pkl_package(pkl, &pkl_dir.join(&minor), out)?;
    }
    Ok(())
}

/// Every subdirectory of `dir` as `<name>.tar.gz` in `out`, and its files
/// copied as they are.
fn tarballs(dir: &Path, out: &Path) -> Result<()> {
    for tree in subdirs(dir)? {
        tar_gz_dir(&dir.join(&tree), &out.join(format!("{tree}.tar.gz")))?;
    }
    for file in files_in(dir)? {
        let bytes = std::fs::read(dir.join(&file))
            .map_err(|source| Error::io(&dir.join(&file), "reading", source))?;
        write(&out.join(&file), &bytes)?;
    }
    Ok(())
}

/// Runs `pkl project package` on a copy of the project at `pkl_dir` (so
/// nothing is written into `generated/`), offline (`--skip-publish-check`:
/// pkl does not ask the package's host whether the version exists), and
/// moves what it writes into `out`; returns the package's name and version.
fn pkl_package(pkl: &Path, pkl_dir: &Path, out: &Path) -> Result<(String, String)> {
    let scratch = tempfile_dir(out)?;
    let result = package_in(pkl, pkl_dir, &scratch, out);
    let _ = std::fs::remove_dir_all(&scratch);
    result
}

/// [`pkl_package`] with `scratch` as its working directory.
fn package_in(pkl: &Path, pkl_dir: &Path, scratch: &Path, out: &Path) -> Result<(String, String)> {
    let project = scratch.join("project");
    let written = scratch.join("out");
    copy_dir(pkl_dir, &project)?;
    let output = Command::new(pkl)
        .args([
            "project",
            "package",
            "--skip-publish-check",
            "--output-path",
        ])
        .arg(&written)
        .arg(&project)
        .env("HOME", scratch.join("home"))
        .output()
        .map_err(|source| {
            Error::io(
                pkl,
                "running the pkl CLI (set VERGATE_PKL or install it, see docs/pkl.md)",
                source,
            )
        })?;
    if !output.status.success() {
        return Err(Error::Config {
            path: pkl_dir.to_owned(),
            message: format!(
                "`pkl project package` failed:\n{}",
                String::from_utf8_lossy(&output.stderr)
            ),
        });
    }
    // pkl writes `<name>@<version>`, its zip and `.sha256` files; our own
    // checksum manifest replaces the latter.
    let mut metadata = None;
    for name in files_in(&written)? {
        let text = name.to_string_lossy().into_owned();
        if text.ends_with(".sha256") {
            continue;
        }
        if !text.ends_with(".zip") {
            metadata = Some(text);
        }
        let bytes = std::fs::read(written.join(&name))
            .map_err(|source| Error::io(&written.join(&name), "reading", source))?;
        write(&out.join(&name), &bytes)?;
    }
    let metadata = metadata.ok_or_else(|| Error::Config {
        path: pkl_dir.to_owned(),
        message: "`pkl project package` wrote no package metadata".into(),
    })?;
    let (name, version) = metadata.split_once('@').ok_or_else(|| Error::Config {
        path: out.join(&metadata),
        message: "unexpected package metadata name (expected <name>@<version>)".into(),
    })?;
    Ok((name.to_owned(), version.to_owned()))
}

fn tempfile_dir(near: &Path) -> Result<PathBuf> {
    let dir = near
        .parent()
        .unwrap_or(near)
        .join(format!(".pkl-package-{}", std::process::id()));
    if dir.exists() {
        std::fs::remove_dir_all(&dir).map_err(|source| Error::io(&dir, "removing", source))?;
    }
    std::fs::create_dir_all(&dir).map_err(|source| Error::io(&dir, "creating", source))?;
    Ok(dir)
}

/// A gzipped tar of `dir` with sorted entries, zero mtimes and fixed modes.
fn tar_gz_dir(dir: &Path, target: &Path) -> Result<()> {
    let file =
        std::fs::File::create(target).map_err(|source| Error::io(target, "creating", source))?;
    let gzip = flate2::GzBuilder::new()
        .mtime(0)
        .write(file, flate2::Compression::default());
    let mut tar = tar::Builder::new(gzip);
    tar.mode(tar::HeaderMode::Deterministic);
    let prefix = dir.file_name().map(PathBuf::from).unwrap_or_default();
    for path in list_relative(dir)? {
        let bytes = std::fs::read(dir.join(&path))
            .map_err(|source| Error::io(&dir.join(&path), "reading", source))?;
        let mut header = tar::Header::new_gnu();
        header.set_size(bytes.len() as u64);
        header.set_mode(0o644);
        header.set_mtime(0);
        header.set_entry_type(tar::EntryType::Regular);
        tar.append_data(&mut header, prefix.join(&path), bytes.as_slice())
            .map_err(|source| Error::io(target, "writing", source))?;
    }
    let gzip = tar
        .into_inner()
        .map_err(|source| Error::io(target, "writing", source))?;
    gzip.finish()
        .map_err(|source| Error::io(target, "writing", source))?;
    Ok(())
}

fn write(path: &Path, bytes: &[u8]) -> Result<()> {
    std::fs::write(path, bytes).map_err(|source| Error::io(path, "writing", source))
}

fn entries(dir: &Path) -> Result<Vec<(String, bool)>> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(|source| Error::io(dir, "listing", source))? {
        let entry = entry.map_err(|source| Error::io(dir, "listing", source))?;
        let is_dir = entry
            .file_type()
            .map_err(|source| Error::io(&entry.path(), "inspecting", source))?
            .is_dir();
        found.push((entry.file_name().to_string_lossy().into_owned(), is_dir));
    }
    found.sort();
    Ok(found)
}

fn subdirs(dir: &Path) -> Result<Vec<String>> {
    Ok(entries(dir)?
        .into_iter()
        .filter(|(_, d)| *d)
        .map(|(n, _)| n)
        .collect())
}

fn files_in(dir: &Path) -> Result<Vec<PathBuf>> {
    Ok(entries(dir)?
        .into_iter()
        .filter(|(_, d)| !*d)
        .map(|(n, _)| PathBuf::from(n))
        .collect())
}

/// Every file below `dir`, relative, sorted.
fn list_relative(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    let mut pending = vec![PathBuf::new()];
    while let Some(relative) = pending.pop() {
        for (name, is_dir) in entries(&dir.join(&relative))? {
            if is_dir {
                pending.push(relative.join(name));
            } else {
                out.push(relative.join(name));
            }
        }
    }
    out.sort();
    Ok(out)
}

fn copy_dir(from: &Path, to: &Path) -> Result<()> {
    for path in list_relative(from)? {
        let target = to.join(&path);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent)
                .map_err(|source| Error::io(parent, "creating", source))?;
        }
        std::fs::copy(from.join(&path), &target)
            .map_err(|source| Error::io(&target, "copying", source))?;
    }
    Ok(())
}
