//! `vergate versions`: a package's discovered schema manifest.

use super::{print_json, Outcome, PlainFormat, VersionsArgs};
use serde_json::json;
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
        (PlainFormat::Text, None) => println!(
            "{}: no version subtrees; imports stay unrestricted",
            args.package.display()
        ),
        (PlainFormat::Text, Some(manifest)) => {
            let default = manifest.default_version();
            println!(
                "{}: {} version{}, default {}",
                args.package.display(),
                manifest.versions.len(),
                if manifest.versions.len() == 1 { "" } else { "s" },
                default.dir_name()
            );
            for (version, dir) in &manifest.versions {
                let mark = if *version == default { "  (default)" } else { "" };
                println!("  {dir}{mark}");
            }
        }
        (PlainFormat::Json, manifest) => print_json(&json!({
            "package": args.package.display().to_string(),
            "versions": manifest.as_ref().map_or_else(Vec::new, |m| m.dir_names().iter().map(|d| (*d).to_owned()).collect()),
            "default": manifest.as_ref().map(|m| m.default_version().dir_name()),
        })),
    }
    Outcome::Clean
}
