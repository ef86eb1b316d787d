//! Standalone documents assembled from definitions rendered once per minor.
//!
//! A minor's Kubernetes tree holds hundreds of files that share most of their
//! `$defs` (every workload kind carries the whole PodSpec closure). Each
//! definition is therefore serialized once, already indented as a `$defs`
//! entry, and each file is the concatenation of the entries it needs. The
//! bytes are exactly what [`to_sorted_pretty`] writes for the whole document
//! (checked by this module's tests and by the integration tests).

use super::convert::{self, Style};
use crate::emit::json_text::{compare_keys, to_sorted_pretty};
use crate::model::MinorModel;
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// The key definitions live under.
pub const DEFS: &str = "$defs";

/// One minor's definitions in one style, each rendered as a `$defs` entry.
#[derive(Debug)]
pub struct RenderedDefinitions {
    /// Definition name → its schema text, indented for depth 2, no final newline.
    texts: BTreeMap<String, String>,
    /// Definition name → the definitions it refers to directly.
    references: BTreeMap<String, Vec<String>>,
}

impl RenderedDefinitions {
    /// Renders every definition of `minor` in `style`.
    pub fn new(minor: &MinorModel, style: &Style) -> Self {
        let mut texts = BTreeMap::new();
        let mut references = BTreeMap::new();
        for (name, definition) in &minor.definitions {
            let value = convert::definition(definition, style);
            texts.insert(name.clone(), indented(&value, 2));
            let direct = convert::references(&definition.schema)
                .into_iter()
                .map(str::to_owned)
                .collect();
            references.insert(name.clone(), direct);
        }
        RenderedDefinitions { texts, references }
    }

    /// Every definition name, sorted.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.texts.keys().map(String::as_str)
    }

    /// `root` and every definition reachable from it.
    pub fn closure<'a>(&'a self, root: &'a str) -> Vec<&'a str> {
        let mut seen = std::collections::BTreeSet::from([root]);
        let mut pending = vec![root];
        while let Some(name) = pending.pop() {
            for next in self.references.get(name).into_iter().flatten() {
                if seen.insert(next.as_str()) {
                    pending.push(next);
                }
            }
        }
        seen.into_iter().collect()
    }

    /// A document whose `$defs` holds `names` and whose other top-level keys
    /// are `rest`, as [`to_sorted_pretty`] would write it.
    pub fn document<'a>(
        &self,
        names: impl IntoIterator<Item = &'a str>,
        rest: &Map<String, Value>,
    ) -> String {
        let mut names: Vec<&str> = names.into_iter().collect();
        names.sort_by(|a, b| compare_keys(a, b));
        let length: usize = names.iter().map(|name| self.texts[*name].len() + 64).sum();
        let mut defs = String::with_capacity(length + 16);
        if names.is_empty() {
            defs.push_str("{}");
        } else {
            defs.push('{');
            for (index, name) in names.iter().enumerate() {
                if index > 0 {
                    defs.push(',');
                }
                defs.push_str("\n    ");
                push_key(&mut defs, name);
                defs.push_str(&self.texts[*name]);
            }
            defs.push_str("\n  }");
        }
        let mut entries: Vec<(&str, String)> = rest
            .iter()
            .filter(|(key, _)| key.as_str() != DEFS)
            .map(|(key, value)| (key.as_str(), indented(value, 1)))
            .collect();
        entries.push((DEFS, defs));
        entries.sort_by(|(a, _), (b, _)| compare_keys(a, b));
        let mut out = String::with_capacity(length + 1024);
        out.push('{');
        for (index, (key, text)) in entries.iter().enumerate() {
            if index > 0 {
                out.push(',');
            }
            out.push_str("\n  ");
            push_key(&mut out, key);
            out.push_str(text);
        }
        out.push_str("\n}\n");
        out
    }
}

fn push_key(out: &mut String, key: &str) {
    out.push_str(&Value::String(key.to_owned()).to_string());
    out.push_str(": ");
}

/// `value` as [`to_sorted_pretty`] writes it at `depth`, without the final
/// newline.
fn indented(value: &Value, depth: usize) -> String {
    let text = to_sorted_pretty(value);
    let text = text.strip_suffix('\n').unwrap_or(&text);
    let indent = "  ".repeat(depth);
    text.replace('\n', &format!("\n{indent}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::emit::json_schema::vergate_keyword::GateKeywords;
    use crate::model::{Definition, ObjectSchema, Property, Schema};
    use vergate_core::Version;

    #[test]
    fn assembled_documents_are_sorted_pretty() {
        let mut minor = MinorModel::new(Version::new(1, 2));
        let mut object = ObjectSchema::default();
        let mut property = Property::new(Schema::Ref("a.B".into()));
        property.description = Some("line one\nline \"two\"".into());
        object.properties.insert("b".into(), property);
        object.properties.insert(
            "list".into(),
            Property::new(Schema::Array(Box::new(Schema::Any))),
        );
        minor
            .definitions
            .insert("a.A".into(), Definition::new("a.A", Schema::Object(object)));
        minor.definitions.insert(
            "a.B".into(),
            Definition::new("a.B", Schema::String { format: None }),
        );
        let gates = GateKeywords::default();
        let style = Style {
            minor: minor.version,
            strict: true,
            ref_base: "#/$defs/",
            document_version_field: None,
            gates: &gates,
        };
        let rendered = RenderedDefinitions::new(&minor, &style);
        assert_eq!(rendered.closure("a.A"), ["a.A", "a.B"]);
        let mut rest = Map::new();
        rest.insert("$ref".into(), Value::String("#/$defs/a.A".into()));
        rest.insert("$comment".into(), Value::String("x".into()));
        rest.insert("title".into(), serde_json::json!({"nested": [1]}));
        let text = rendered.document(rendered.closure("a.A"), &rest);
        let parsed: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(text, to_sorted_pretty(&parsed));
        assert_eq!(
            parsed["$defs"]["a.A"]["additionalProperties"],
            Value::Bool(false)
        );
        let empty = rendered.document([], &Map::new());
        assert_eq!(empty, "{\n  \"$defs\": {}\n}\n");
    }
}
