//! Descriptions for hover, from outside the gates index (which carries
//! none: it is a compact index, and the Kubernetes specs' prose does not
//! belong in it):
//! - a generated API tree (`api = "generated/<api>"` in `vergate.toml`):
//!   its JSON Schema `<dir>/json/v<X.Y>/_definitions.json`, read the first
//!   time a hover asks for that minor and kept (`$defs` → definition →
//!   `description`, and `properties.<field>.description`);
//! - with the embedded Kubernetes index, [`Descriptions::hint`] says where
//!   descriptions come from.
//!
//! A missing, oversized or malformed file is no error: hover goes on
//! without a description.

use crate::Version;
use serde_json::Value;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// The largest `_definitions.json` read. Kubernetes 1.34's is 1.9 MB; a
/// file 16 times that is not one `cargo xtask regen` writes, and reading
/// it whole (then holding its descriptions, per minor) must stay cheap.
pub const MAX_DEFINITIONS_BYTES: u64 = 32 << 20;

/// The line hover shows when the tables are the embedded index.
pub const EMBEDDED_HINT: &str = "Descriptions: set `api` in vergate.toml to a generated tree (`cargo xtask regen`); hover reads its `json/v<X.Y>` schema.";

/// Where a workspace's descriptions come from.
pub struct Descriptions {
    /// The generated API directory, when the tables come from one.
    tree: Option<PathBuf>,
    /// The descriptions of each minor asked for; `None`: none to be had.
    minors: Mutex<HashMap<Version, Option<Arc<Definitions>>>>,
}

/// One minor's descriptions: by definition name, the definition's own and
/// its fields'.
#[derive(Debug, Default)]
struct Definitions(HashMap<String, Definition>);

#[derive(Debug, Default)]
struct Definition {
    description: Option<String>,
    fields: HashMap<String, String>,
}

impl Descriptions {
    /// The embedded index's: none, and a hint.
    pub fn embedded() -> Descriptions {
        Descriptions {
            tree: None,
            minors: Mutex::default(),
        }
    }

    /// A generated API's, `api` being its directory or its gates.json.
    pub fn tree(api: &Path) -> Descriptions {
        let dir = if api.is_dir() {
            api.to_owned()
        } else {
            api.parent().map(Path::to_owned).unwrap_or_default()
        };
        Descriptions {
            tree: Some(dir),
            minors: Mutex::default(),
        }
    }

    /// The line to show in place of a description, when there can be none.
    pub fn hint(&self) -> Option<&'static str> {
        self.tree.is_none().then_some(EMBEDDED_HINT)
    }

    /// The description of field `field` of definition `owner` in `minor`.
    pub fn field(&self, minor: Version, owner: &str, field: &str) -> Option<String> {
        let definitions = self.minor(minor)?;
        definitions.0.get(owner)?.fields.get(field).cloned()
    }

    /// The description of definition `name` in `minor`.
    pub fn definition(&self, minor: Version, name: &str) -> Option<String> {
        let definitions = self.minor(minor)?;
        definitions.0.get(name)?.description.clone()
    }

    fn minor(&self, minor: Version) -> Option<Arc<Definitions>> {
        let dir = self.tree.as_deref()?;
        // A poisoned lock only means another hover panicked mid-read: the
        // map is still whole (entries are inserted at once).
        let mut minors = self
            .minors
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        minors
            .entry(minor)
            .or_insert_with(|| read(&definitions_path(dir, minor)).map(Arc::new))
            .clone()
    }
}

/// `<dir>/json/v<X.Y>/_definitions.json`.
pub fn definitions_path(dir: &Path, minor: Version) -> PathBuf {
    dir.join("json")
        .join(format!("v{minor}"))
        .join("_definitions.json")
}

/// The descriptions of a `_definitions.json`; `None` when it is missing,
/// larger than [`MAX_DEFINITIONS_BYTES`] or not a JSON Schema with `$defs`.
fn read(path: &Path) -> Option<Definitions> {
    use std::io::Read;
    let file = std::fs::File::open(path).ok()?;
    let mut bytes = Vec::new();
    file.take(MAX_DEFINITIONS_BYTES + 1)
        .read_to_end(&mut bytes)
        .ok()?;
    if bytes.len() as u64 > MAX_DEFINITIONS_BYTES {
        return None;
    }
    let schema: Value = serde_json::from_slice(&bytes).ok()?;
    let defs = schema.get("$defs")?.as_object()?;
    let mut definitions = Definitions::default();
    for (name, def) in defs {
        let description = text(def);
        let fields: HashMap<String, String> = def
            .get("properties")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
            .filter_map(|(field, property)| Some((field.clone(), text(property)?)))
            .collect();
        if description.is_some() || !fields.is_empty() {
            definitions.0.insert(
                name.clone(),
                Definition {
                    description,
                    fields,
                },
            );
        }
    }
    Some(definitions)
}

fn text(node: &Value) -> Option<String> {
    node.get("description")?
        .as_str()
        .map(str::trim)
        .filter(|text| !text.is_empty())
        .map(str::to_owned)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn demo() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("generated/demo")
    }

    #[test]
    fn the_demo_tree_describes_its_fields_and_types() {
        let descriptions = Descriptions::tree(&demo());
        let minor = Version::new(1, 12);
        assert_eq!(
            descriptions
                .field(minor, "dev.shipyard.build.v1.PipelineSpec", "artifacts")
                .as_deref(),
            Some("What the pipeline publishes.")
        );
        assert_eq!(
            descriptions
                .definition(minor, "dev.shipyard.build.v1.PipelineSpec")
                .as_deref(),
            Some("What a pipeline runs.")
        );
        assert_eq!(descriptions.hint(), None);
        // Its gates.json names the same tree.
        let by_file = Descriptions::tree(&demo().join("gates.json"));
        assert!(by_file
            .field(minor, "dev.shipyard.build.v1.Artifact", "x-foo")
            .is_some());
    }

    #[test]
    fn a_missing_or_malformed_file_is_no_description() {
        let dir = tempfile::tempdir().unwrap();
        let descriptions = Descriptions::tree(dir.path());
        let minor = Version::new(1, 3);
        assert_eq!(descriptions.definition(minor, "a.B"), None);
        let path = definitions_path(dir.path(), minor);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        // Cached: the minor is not read again.
        std::fs::write(&path, r#"{"$defs": {"a.B": {"description": "x"}}}"#).unwrap();
        assert_eq!(descriptions.definition(minor, "a.B"), None);
        let fresh = Descriptions::tree(dir.path());
        assert_eq!(fresh.definition(minor, "a.B").as_deref(), Some("x"));
        for broken in [
            "{\"$defs\": ",
            "[1, 2]",
            r#"{"$defs": {"a.B": {"description": 3, "properties": [1]}}}"#,
        ] {
            std::fs::write(&path, broken).unwrap();
            let fresh = Descriptions::tree(dir.path());
            assert_eq!(fresh.definition(minor, "a.B"), None, "{broken}");
            assert_eq!(fresh.field(minor, "a.B", "c"), None, "{broken}");
        }
        assert_eq!(Descriptions::embedded().hint(), Some(EMBEDDED_HINT));
    }
}
