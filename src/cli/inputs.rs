//! Turning command-line inputs (files, directories, `-`) into texts to read.

use std::io::Read;
use std::path::{Path, PathBuf};

/// One input: the name shown in messages and its text, or why it could not be read.
pub struct Input {
    pub name: String,
    pub text: Result<String, String>,
}

/// Expands `paths` in order: a directory gives its `*.yaml`, `*.yml` and
/// `*.json` files (recursively, sorted), `-` gives standard input.
pub fn collect(paths: &[PathBuf]) -> Vec<Input> {
    let mut inputs = Vec::new();
    for path in paths {
        if path.as_os_str() == "-" {
            let mut text = String::new();
            let result = std::io::stdin()
                .read_to_string(&mut text)
                .map(|_| text)
                .map_err(|err| format!("cannot read standard input: {err}"));
            inputs.push(Input {
                name: "<stdin>".into(),
                text: result,
            });
        } else if path.is_dir() {
            let mut files = Vec::new();
            if let Err(err) = walk(path, &mut files) {
                inputs.push(Input {
                    name: path.display().to_string(),
                    text: Err(err),
                });
            }
            files.sort();
            inputs.extend(files.iter().map(|file| read(file)));
        } else {
            inputs.push(read(path));
        }
    }
    inputs
}

/// Reads one file.
pub fn read(path: &Path) -> Input {
    let text = std::fs::read(path)
        .map_err(|err| format!("cannot read: {err}"))
        .and_then(|bytes| {
            String::from_utf8(bytes).map_err(|_| "not UTF-8 text; save it as UTF-8".to_owned())
        });
    Input {
        name: path.display().to_string(),
        text,
    }
}

fn walk(dir: &Path, files: &mut Vec<PathBuf>) -> Result<(), String> {
    let entries = std::fs::read_dir(dir).map_err(|err| format!("cannot list: {err}"))?;
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            walk(&path, files)?;
        } else if path
            .extension()
            .and_then(|ext| ext.to_str())
            .is_some_and(|ext| matches!(ext, "yaml" | "yml" | "json"))
        {
            files.push(path);
        }
    }
    Ok(())
}
