//! `vergate versions`: a package's discovered schema manifest, or the
//! minors of the gates embedded in the binary.

use super::{print_json, write_out, Outcome, PlainReportFormat, VersionsArgs};
use serde_json::json;
use std::fmt::Write;
use vergate::manifest::SchemaManifest;

pub fn run(args: &VersionsArgs) -> Outcome {
    let Some(package) = &args.package else {
        embedded(args.format);
        return Outcome::Clean;
    };
    let manifest = match SchemaManifest::discover(package) {
        Ok(manifest) => manifest,
        Err(err) => {
            eprintln!("error: {err}");
            return Outcome::InputError;
        }
    };
    match (args.format, &manifest) {
        (PlainReportFormat::Text, None) => write_out(&format!(
            "{}: no version subtrees; imports stay unrestricted\n",
            package.display()
        )),
        (PlainReportFormat::Text, Some(manifest)) => {
            let default = manifest.default_version();
            let mut out = format!(
                "{}: {} version{}, default {}\n",
                package.display(),
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
        (PlainReportFormat::Json, manifest) => print_json(&json!({
            "package": package.display().to_string(),
            "versions": manifest.as_ref().map_or_else(Vec::new, |m| m.dir_names().iter().map(|d| (*d).to_owned()).collect()),
            "default": manifest.as_ref().map(|m| m.default_version().dir_name()),
        })),
    }
    Outcome::Clean
}

/// The minors of the embedded Kubernetes gates, newest last.
fn embedded(format: PlainReportFormat) {
    let versions = vergate::embedded::kubernetes_versions();
    let names: Vec<String> = versions.iter().map(ToString::to_string).collect();
    match format {
        PlainReportFormat::Text => {
            let mut out = format!(
                "embedded in this vergate: {} gates, {} minors, newest {}\n",
                vergate::embedded::KUBERNETES,
                names.len(),
                names.last().map_or("none", String::as_str)
            );
            for name in &names {
                let _ = writeln!(out, "  {name}");
            }
            out.push_str("check, upgrade and diff use them unless --api DIR names another API or a newer regen\n");
            write_out(&out);
        }
        PlainReportFormat::Json => print_json(&json!({
            "embedded": {
                "api": vergate::embedded::KUBERNETES,
                "versions": names,
            },
        })),
    }
}
