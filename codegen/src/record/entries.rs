//! A recorded minor's api.toml entries: the spec file's and each fact
//! file's sha256, written as a fragment (`pending/<X.Y>.toml`, for a
//! mirror that does not hold the minor yet) and merged into api.toml with
//! toml_edit, which keeps every comment, key and blank line as it was.

use crate::error::{Error, Result};
use std::path::Path;
use toml_edit::{DocumentMut, Item, Table};
use vergate_core::Version;

/// The digests of one recorded minor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MinorDigests {
    pub minor: Version,
    /// Each spec file of `v<X.Y>/`: its name, sha256 and published URL.
    pub specs: Vec<(String, String, Option<String>)>,
    /// The recorded gate table's sha256 (`feature-gates/v<X.Y>.json`).
    pub feature_gates: String,
    /// The recorded lifecycle's sha256 (`api-lifecycle/v<X.Y>.json`).
    pub api_lifecycle: String,
}

impl MinorDigests {
    /// The fragment: the tables api.toml gains, in api.toml's own form.
    pub fn fragment(&self, header: &str) -> String {
        let mut doc = DocumentMut::new();
        let quoted = |text: &str| toml_edit::Key::new(text);
        let mut files = Table::new();
        for (name, sha256, url) in &self.specs {
            let mut file = Table::new();
            file["sha256"] = toml_edit::value(sha256.as_str());
            if let Some(url) = url {
                file["url"] = toml_edit::value(url.as_str());
            }
            files.insert_formatted(&quoted(name), Item::Table(file));
        }
        files.set_implicit(true);
        let mut minor = Table::new();
        minor.set_implicit(true);
        minor.insert("files", Item::Table(files));
        let mut minors = Table::new();
        minors.set_implicit(true);
        minors.insert_formatted(&quoted(&self.minor.to_string()), Item::Table(minor));
        doc.insert("minors", Item::Table(minors));
        let name = format!("{}.json", self.minor.dir_name());
        let mut facts = Table::new();
        facts.set_implicit(true);
        for (table, sha256) in [
            ("feature_gates", &self.feature_gates),
            ("api_lifecycle", &self.api_lifecycle),
        ] {
            let mut files = Table::new();
            files.insert_formatted(&quoted(&name), toml_edit::value(sha256.as_str()));
            let mut entry = Table::new();
            entry.set_implicit(true);
            entry.insert("files", Item::Table(files));
            facts.insert(table, Item::Table(entry));
        }
        doc.insert("facts", Item::Table(facts));
        format!("{header}{doc}")
    }
}

/// Merges `fragment` (`fragment_path` for messages) into `api_toml`'s text:
/// every key of the fragment is set, a table it lacks is added at the end
/// of api.toml, everything else is kept byte for byte. A key api.toml
/// already holds with another value is an error naming both, since a
/// recorded file must not change its digest silently.
pub fn merge(api_toml: (&Path, &str), fragment: (&Path, &str)) -> Result<String> {
    let parse = |(path, text): (&Path, &str)| {
        text.parse::<DocumentMut>().map_err(|err| Error::Config {
            path: path.to_owned(),
            message: format!("does not read as TOML: {err}"),
        })
    };
    let mut doc = parse(api_toml)?;
    let add = parse(fragment)?;
    merge_table(doc.as_table_mut(), add.as_table(), "", api_toml.0)?;
    Ok(doc.to_string())
}

fn merge_table(into: &mut Table, from: &Table, at: &str, path: &Path) -> Result<()> {
    for (key, item) in from.iter() {
        let here = if at.is_empty() {
            format!("{key:?}")
        } else {
            format!("{at}.{key:?}")
        };
        match (into.get_mut(key), item) {
            (Some(Item::Table(into)), Item::Table(from)) => merge_table(into, from, &here, path)?,
            (Some(existing), Item::Value(value)) => {
                let same = existing
                    .as_value()
                    .is_some_and(|e| e.to_string().trim() == value.to_string().trim());
                if !same {
                    return Err(Error::Config {
                        path: path.to_owned(),
                        message: format!(
                            "{here} is {} here and {} in the entries to add; remove the one that is wrong \
                             (a recorded file's digest does not change)",
                            existing.to_string().trim(),
                            value.to_string().trim()
                        ),
                    });
                }
            }
            (Some(_), _) => {
                return Err(Error::Config {
                    path: path.to_owned(),
                    message: format!(
                        "{here} is a value here and a table in the entries to add, or the reverse"
                    ),
                })
            }
            (None, item) => {
                let mut item = item.clone();
                if let Item::Table(table) = &mut item {
                    // Written right after the last table already under
                    // `into` (toml_edit writes tables by position, ties in
                    // document order): 1.37's entry follows 1.36's.
                    let position = max_position(into).unwrap_or(usize::MAX);
                    place(table, position);
                }
                into.insert(key, item);
            }
        }
    }
    Ok(())
}

/// The largest position of `table` and the tables below it.
fn max_position(table: &Table) -> Option<usize> {
    let below = table.iter().filter_map(|(_, item)| match item {
        Item::Table(child) => max_position(child),
        _ => None,
    });
    table.position().into_iter().chain(below).max()
}

/// Gives `table` and every table below it `position`, each with a blank
/// line before it and none of the fragment's comments.
fn place(table: &mut Table, position: usize) {
    table.set_position(position);
    table.decor_mut().set_prefix("\n");
    for (_, item) in table.iter_mut() {
        if let Item::Table(child) = item {
            place(child, position);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const API: &str = "# the API\nname = \"k\"\n\n[minors.\"1.36\".files.\"swagger.json\"]\nsha256 = \"aa\"\n\n# facts\n[facts.feature_gates.files]\n\"A.md\" = \"bb\" # a page\n\n[facts.api_lifecycle.files]\n\"v1.36/x/v1/z.go\" = \"cc\"\n";

    fn digests() -> MinorDigests {
        MinorDigests {
            minor: Version::new(1, 37),
            specs: vec![(
                "swagger.json".into(),
                "dd".into(),
                Some("https://x/v1.37.0/swagger.json".into()),
            )],
            feature_gates: "ee".into(),
            api_lifecycle: "ff".into(),
        }
    }

    #[test]
    fn the_fragment_merges_keeping_every_other_byte() {
        let fragment = digests().fragment("# pending\n");
        assert!(
            fragment.starts_with(
                "# pending\n[minors.\"1.37\".files.\"swagger.json\"]\nsha256 = \"dd\"\n"
            ),
            "{fragment}"
        );
        let merged = merge(
            (Path::new("api.toml"), API),
            (Path::new("p.toml"), &fragment),
        )
        .unwrap();
        // Nothing of the original changed, and each addition is where it belongs.
        let mut rest = merged.as_str();
        for line in API.lines() {
            let at = rest
                .find(line)
                .unwrap_or_else(|| panic!("{line:?} lost:\n{merged}"));
            rest = &rest[at + line.len()..];
        }
        let doc: toml::Value = toml::from_str(&merged).unwrap();
        assert_eq!(
            doc["minors"]["1.37"]["files"]["swagger.json"]["sha256"].as_str(),
            Some("dd")
        );
        assert_eq!(
            doc["minors"]["1.36"]["files"]["swagger.json"]["sha256"].as_str(),
            Some("aa")
        );
        assert_eq!(
            doc["facts"]["feature_gates"]["files"]["v1.37.json"].as_str(),
            Some("ee")
        );
        assert_eq!(
            doc["facts"]["feature_gates"]["files"]["A.md"].as_str(),
            Some("bb")
        );
        assert_eq!(
            doc["facts"]["api_lifecycle"]["files"]["v1.37.json"].as_str(),
            Some("ff")
        );
        assert!(merged.contains("\"A.md\" = \"bb\" # a page\n"), "{merged}");
        // The 1.37 minor sits after 1.36's, not after the facts.
        assert!(merged.find("1.37\".files").unwrap() > merged.find("1.36\".files").unwrap());
        // Merging again changes nothing.
        let again = merge(
            (Path::new("api.toml"), &merged),
            (Path::new("p.toml"), &fragment),
        )
        .unwrap();
        assert_eq!(again, merged);
    }

    #[test]
    fn a_changed_digest_is_an_error_naming_both() {
        let fragment = digests().fragment("");
        let merged = merge(
            (Path::new("api.toml"), API),
            (Path::new("p.toml"), &fragment),
        )
        .unwrap();
        let other = fragment.replace("\"dd\"", "\"d0\"");
        let err = merge(
            (Path::new("api.toml"), &merged),
            (Path::new("p.toml"), &other),
        )
        .unwrap_err()
        .to_string();
        assert!(
            err.contains("api.toml") && err.contains("\"dd\"") && err.contains("\"d0\""),
            "{err}"
        );
        let err = merge((Path::new("api.toml"), "x = ["), (Path::new("p.toml"), ""))
            .unwrap_err()
            .to_string();
        assert!(err.contains("api.toml") && err.contains("TOML"), "{err}");
    }
}
