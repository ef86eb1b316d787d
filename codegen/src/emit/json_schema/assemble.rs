//! Standalone documents assembled from definitions rendered once per minor.
//!
//! A minor's Kubernetes tree holds hundreds of files that share most of their
//! `$defs` (every workload kind carries the whole PodSpec closure). Each
//! definition is therefore serialized once, already indented as a `$defs`
//! entry, and each file is the concatenation of the entries it needs. The
//! bytes are exactly what [`to_sorted_pretty`](crate::emit::json_text::to_sorted_pretty) writes for the whole document
//! (checked by this module's tests and by the integration tests).

use super::convert;
use crate::emit::json_text::{compare_keys, write_value};
use crate::model::MinorModel;
use crate::output::{Contents, Piece};
use crate::to_json_schema::{self, Style};
use serde_json::Value;
use std::collections::HashMap;
use std::sync::Arc;
use vergate_core::json::push_string;

/// The key definitions live under.
pub const DEFS: &str = "$defs";

/// One minor's definitions in one style, each rendered as a `$defs` entry.
#[derive(Debug)]
pub struct RenderedDefinitions {
    /// Definitions in the order [`to_sorted_pretty`](crate::emit::json_text::to_sorted_pretty) writes their keys.
    entries: Vec<Entry>,
    /// Definition name → its index in `entries`.
    index: HashMap<String, usize>,
}

#[derive(Debug)]
struct Entry {
    /// `"name": ` followed by the schema text indented for depth 2, no final
    /// newline; shared by every document that holds the definition.
    text: Arc<str>,
    /// The entries it refers to directly.
    references: Vec<usize>,
}

/// Every rendering of one minor's definitions that the JSON tree needs.
#[derive(Debug)]
pub struct Renderings {
    pub plain: RenderedDefinitions,
    pub strict: RenderedDefinitions,
    /// Each definition as a `components.schemas` entry of the OpenAPI
    /// export (references to `#/components/schemas/`, nested three levels
    /// deep), in key order.
    pub openapi: Vec<String>,
}

impl RenderedDefinitions {
    /// Renders every definition of `minor` in `style`.
    pub fn new(minor: &MinorModel, style: &Style) -> Self {
        Self::render(minor, style, None).0
    }

    /// Renders every definition of `minor` once in the plain `style`, and
    /// derives the other renderings from it:
    ///
    /// - strict differs only by `"additionalProperties": false` at the top of
    ///   closable definitions ([`convert::is_closable`]), and that key sorts
    ///   before every other key a definition's top level can have, so it goes
    ///   right after the brace; the other definitions' texts are shared. A
    ///   closable definition that also lists, closed, the properties of other
    ///   minors ([`json_schema::closes_absent_properties`]) is converted again
    ///   in the strict style;
    /// - the OpenAPI export differs only by its references, so the converted
    ///   schema is rebased ([`convert::rebase_refs`]) and written again.
    pub fn renderings(minor: &MinorModel, style: &Style, openapi_base: &str) -> Renderings {
        debug_assert!(
            !style.strict,
            "the strict rendering is derived from the plain one"
        );
        let (plain, openapi) = Self::render(minor, style, Some(openapi_base));
        let mut names: Vec<&String> = minor.definitions.keys().collect();
        names.sort_by(|a, b| compare_keys(a, b));
        let entries = plain
            .entries
            .iter()
            .zip(names)
            .map(|(entry, name)| {
                let definition = &minor.definitions[name];
                let strict_style = Style {
                    strict: true,
                    ..*style
                };
                let text = if to_json_schema::closes_absent_properties(definition, &strict_style) {
                    let schema = convert::definition(definition, &strict_style);
                    let mut text = String::with_capacity(entry.text.len() + 400);
                    push_key(&mut text, name);
                    write_value(&mut text, &schema, 2);
                    Arc::from(text)
                } else if convert::is_closable(definition) {
                    let brace = entry
                        .text
                        .find("{\n")
                        .expect("a closable definition is a non-empty object");
                    let body = brace + "{\n      ".len();
                    let mut strict = String::with_capacity(entry.text.len() + 40);
                    strict.push_str(&entry.text[..body]);
                    strict.push_str("\"additionalProperties\": false,\n      ");
                    strict.push_str(&entry.text[body..]);
                    Arc::from(strict)
                } else {
                    Arc::clone(&entry.text)
                };
                Entry {
                    text,
                    references: entry.references.clone(),
                }
            })
            .collect();
        let strict = RenderedDefinitions {
            entries,
            index: plain.index.clone(),
        };
        Renderings {
            plain,
            strict,
            openapi,
        }
    }

    /// The definitions rendered in `style` as `$defs` entries and, with
    /// `rebased`, also as OpenAPI components with that ref base.
    fn render(minor: &MinorModel, style: &Style, rebased: Option<&str>) -> (Self, Vec<String>) {
        let mut names: Vec<&String> = minor.definitions.keys().collect();
        names.sort_by(|a, b| compare_keys(a, b));
        let index: HashMap<String, usize> = names
            .iter()
            .enumerate()
            .map(|(position, name)| ((*name).clone(), position))
            .collect();
        let mut others = Vec::with_capacity(if rebased.is_some() { names.len() } else { 0 });
        let entries = names
            .iter()
            .map(|name| {
                let definition = &minor.definitions[*name];
                let mut schema = convert::definition(definition, style);
                let mut text = String::new();
                push_key(&mut text, name);
                write_value(&mut text, &schema, 2);
                if let Some(base) = rebased {
                    convert::rebase_refs(&mut schema, style.ref_base, base);
                    let mut other = String::with_capacity(text.len() + text.len() / 8);
                    push_key(&mut other, name);
                    write_value(&mut other, &schema, 3);
                    others.push(other);
                }
                let references = convert::references(&definition.schema)
                    .into_iter()
                    .filter_map(|target| index.get(target).copied())
                    .collect();
                Entry {
                    text: Arc::from(text),
                    references,
                }
            })
            .collect();
        (RenderedDefinitions { entries, index }, others)
    }

    /// Every definition, in key order.
    pub fn all(&self) -> Vec<usize> {
        (0..self.entries.len()).collect()
    }

    /// The definition `root` and every definition reachable from it, in key
    /// order; empty when the minor has no definition `root`.
    pub fn closure(&self, root: &str) -> Vec<usize> {
        let Some(&start) = self.index.get(root) else {
            return Vec::new();
        };
        let mut seen = vec![false; self.entries.len()];
        seen[start] = true;
        let mut pending = vec![start];
        let mut found = vec![start];
        while let Some(current) = pending.pop() {
            for &next in &self.entries[current].references {
                if !seen[next] {
                    seen[next] = true;
                    pending.push(next);
                    found.push(next);
                }
            }
        }
        found.sort_unstable();
        found
    }

    /// A document whose `$defs` holds the `definitions` (from [`closure`] or
    /// [`all`]) and whose other top-level keys are `rest`, as
    /// [`to_sorted_pretty`](crate::emit::json_text::to_sorted_pretty) would write it.
    ///
    /// [`closure`]: RenderedDefinitions::closure
    /// [`all`]: RenderedDefinitions::all
    pub fn document(&self, definitions: &[usize], rest: &[(&str, Field)]) -> Contents {
        let mut entries: Vec<(&str, Option<&Field>)> = rest
            .iter()
            .filter(|(key, _)| *key != DEFS)
            .map(|(key, value)| (*key, Some(value)))
            .collect();
        entries.push((DEFS, None));
        entries.sort_by(|(a, _), (b, _)| compare_keys(a, b));
        let mut pieces = Vec::with_capacity(2 * definitions.len() + 2);
        let mut out = String::from("{");
        for (position, (key, value)) in entries.iter().enumerate() {
            if position > 0 {
                out.push(',');
            }
            out.push_str("\n  ");
            push_key(&mut out, key);
            match value {
                Some(Field::Str(text)) => push_string(&mut out, text),
                Some(Field::Json(value)) => write_value(&mut out, value, 1),
                None if definitions.is_empty() => out.push_str("{}"),
                None => {
                    out.push('{');
                    pieces.push(Piece::Owned(std::mem::take(&mut out)));
                    for (position, &entry) in definitions.iter().enumerate() {
                        let separator = if position > 0 { ",\n    " } else { "\n    " };
                        pieces.push(Piece::Static(separator));
                        pieces.push(Piece::Shared(Arc::clone(&self.entries[entry].text)));
                    }
                    out.push_str("\n  }");
                }
            }
        }
        out.push_str("\n}\n");
        pieces.push(Piece::Owned(out));
        Contents::from_pieces(pieces)
    }
}

/// A top-level value of a document beside its `$defs`.
#[derive(Debug)]
pub enum Field<'a> {
    /// A JSON string.
    Str(&'a str),
    /// Any JSON value.
    Json(&'a Value),
}

fn push_key(out: &mut String, key: &str) {
    push_string(out, key);
    out.push_str(": ");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::emit::json_text::to_sorted_pretty;
    use crate::model::{Definition, ObjectSchema, Property, Schema};
    use crate::to_json_schema::GateKeywords;
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
        let plain_style = Style {
            strict: false,
            ..style
        };
        let Renderings {
            plain,
            strict: derived,
            ..
        } = RenderedDefinitions::renderings(&minor, &plain_style, "#/components/schemas/");
        let texts = |r: &RenderedDefinitions| -> Vec<String> {
            r.entries.iter().map(|e| e.text.to_string()).collect()
        };
        assert_eq!(texts(&derived), texts(&rendered));
        assert_ne!(texts(&plain), texts(&rendered));
        assert_eq!(rendered.closure("a.A"), [0, 1]);
        assert_eq!(rendered.closure("a.B"), [1]);
        let title = serde_json::json!({"nested": [1]});
        let rest = [
            ("$ref", Field::Str("#/$defs/a.A")),
            ("$comment", Field::Str("x")),
            ("title", Field::Json(&title)),
        ];
        let text = rendered.document(&rendered.closure("a.A"), &rest);
        let text = String::from_utf8(text.into_bytes()).unwrap();
        let parsed: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(text, to_sorted_pretty(&parsed));
        assert_eq!(
            parsed["$defs"]["a.A"]["additionalProperties"],
            Value::Bool(false)
        );
        let empty = rendered.document(&[], &[]);
        assert_eq!(empty.as_bytes(), b"{\n  \"$defs\": {}\n}\n");
    }
}
