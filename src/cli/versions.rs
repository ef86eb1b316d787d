//! `vergate versions`: a package's discovered schema manifest.

use super::{print_json, write_out, Outcome, PlainFormat, VersionsArgs};
use serde_json::json;
use std::fmt::Write;
use vergate::manifest::SchemaManifest;

pub fn run(args: &VersionsArgs) -> Outcome {
    let manifest = match SchemaManifest::discover(&args.package) {
        Ok(manifest) => manifest,
        Err(err) => {
            eprintln!("error: {err}");
            return Outcome::InputError;
        }
    };
    match (args.format, &manifest) {
        (PlainFormat::Text, None) => write_out(&format!(
            "{}: no version subtrees; imports stay unrestricted\n",
            args.package.display()
        )),
        (PlainFormat::Text, Some(manifest)) => {
            let default = manifest.default_version();
            let mut out = format!(
                "{}: {} version{}, default {}\n",
                args.package.display(),
                manifest.versions.len(),
                if manifest.versions.len() == 1 {
                    ""
                } else {
                    "s"
                },
                default.dir_name()
            );
            for (version, dir) in &manifest.versions {
                let mark = if *version == default {
                    "  (default)"
                } else {
                    ""
                };
                let _ = writeln!(out, "  {dir}{mark}");
            }
            write_out(&out);
        }
        (PlainFormat::Json, manifest) => print_json(&json!({
            "package": args.package.display().to_string(),
            "versions": manifest.as_ref().map_or_else(Vec::new, |m| m.dir_names().iter().map(|d| (*d).to_owned()).collect()),
            "default": manifest.as_ref().map(|m| m.default_version().dir_name()),
        })),
    }
    Outcome::Clean
}
