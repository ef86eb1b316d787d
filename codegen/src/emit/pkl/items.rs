//! What a module declares after its imports (properties, typealiases,
//! classes) and how it is written out as Pkl text.

use super::escape::pkl_string;
use super::gate::Gate;
use vergate_core::alias::pkl_identifier;

/// What a module declares after its imports, before it is written out.
#[derive(Debug, Default)]
pub struct Items {
    /// A resource or object module's own properties.
    pub properties: Vec<PropertyData>,
    pub typealiases: Vec<TypeAliasData>,
    pub classes: Vec<ClassData>,
}

#[derive(Debug)]
pub struct ClassData {
    pub doc: String,
    pub gate: Gate,
    pub name: String,
    pub properties: Vec<PropertyData>,
}

#[derive(Debug)]
pub struct TypeAliasData {
    pub doc: String,
    pub gate: Gate,
    pub name: String,
    pub ty: String,
    /// `@Deprecated { message = … }` of an old name (`moved.rs`).
    pub deprecated: Option<String>,
}

#[derive(Debug)]
pub struct PropertyData {
    pub doc: String,
    pub gate: Gate,
    /// The wire name (quoted as a Pkl identifier when written).
    pub name: String,
    pub ty: String,
    /// `fixed` (a resource's `apiVersion` and `kind`).
    pub fixed: bool,
}

impl Items {
    /// The items as Pkl text, written in Rust rather than in the template:
    /// a module is mostly items, and tera's per-item lookups and filters
    /// were most of the Pkl emitter's time. Each item follows a blank line;
    /// class properties are indented by two.
    pub(super) fn text(&self, annotation: &str) -> String {
        let mut out = String::new();
        for property in &self.properties {
            push_property(&mut out, property, annotation, 0);
        }
        for alias in &self.typealiases {
            out.push('\n');
            item_head(&mut out, &alias.doc, &alias.gate, annotation, 0);
            if let Some(message) = &alias.deprecated {
                out.push_str(&format!(
                    "@Deprecated {{ message = {} }}\n",
                    pkl_string(message)
                ));
            }
            out.push_str("typealias ");
            out.push_str(&pkl_identifier(&alias.name));
            out.push_str(" = ");
            out.push_str(&alias.ty);
            out.push('\n');
        }
        for class in &self.classes {
            out.push('\n');
            item_head(&mut out, &class.doc, &class.gate, annotation, 0);
            out.push_str("class ");
            out.push_str(&pkl_identifier(&class.name));
            out.push_str(" {");
            for property in &class.properties {
                push_property(&mut out, property, annotation, 2);
            }
            out.push_str("}\n");
        }
        out
    }
}

/// One property after a blank line, indented by `indent` spaces: its head,
/// then `[fixed ]name: type`.
fn push_property(out: &mut String, property: &PropertyData, annotation: &str, indent: usize) {
    out.push('\n');
    item_head(out, &property.doc, &property.gate, annotation, indent);
    out.extend(std::iter::repeat_n(' ', indent));
    if property.fixed {
        out.push_str("fixed ");
    }
    out.push_str(&pkl_identifier(&property.name));
    out.push_str(": ");
    out.push_str(&property.ty);
    out.push('\n');
}

/// An item's doc comment, gate annotation and `@Deprecated`, each line
/// indented by `indent` spaces.
fn item_head(out: &mut String, doc: &str, gate: &Gate, annotation: &str, indent: usize) {
    out.push_str(&super::escape::doc_comment(doc, indent));
    let pad = " ".repeat(indent);
    if !gate.entries.is_empty() {
        let entries: Vec<String> = gate
            .entries
            .iter()
            .map(|entry| format!("{} = {}", entry.key, pkl_string(&entry.value)))
            .collect();
        out.push_str(&format!(
            "{pad}@{annotation} {{ {} }}\n",
            entries.join("; ")
        ));
    }
    if let Some(since) = &gate.deprecated_since {
        out.push_str(&format!(
            "{pad}@Deprecated {{ since = {} }}\n",
            pkl_string(since)
        ));
    }
}
