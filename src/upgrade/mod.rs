//! Converting a document from one minor to another: renames applied, the
//! version field bumped, values whose type changed converted where that is
//! lossless (the table in `retype.rs`), and every loss (a field the other minor does
//! not have, a type change that cannot be converted, an enum value it does
//! not accept) reported.
//!
//! The conversion works in both directions so that `vergate upgrade --all`
//! can write a document for older minors too, but only where it is lossless;
//! a plain upgrade refuses to go to an older minor.

use crate::document::{Entry, Node, Place, Value};
use crate::gates::{show_values, type_expr, values_listed_in, Gate, TypeGate};
use crate::preflight::{absent_reason, identify, DocumentError, Identity};
use crate::tables::GateTables;
use crate::Version;
use std::collections::BTreeMap;
use std::fmt;

mod retype;

/// What a conversion changed or could not carry over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChangeKind {
    /// A field renamed between the two minors; its value is kept.
    Renamed,
    /// The document's own minor field was rewritten.
    VersionBumped,
    /// The document moved to the apiVersion that serves its kind in the
    /// other minor (`flowcontrol.apiserver.k8s.io/v1beta3` → `…/v1`).
    ApiVersionChanged,
    /// A field the other minor does not have; dropped from the output.
    Dropped,
    /// A value converted to its field's new type without loss (`8080` →
    /// `"8080"`), or kept because the new type accepts it as written.
    Converted,
    /// A value whose type differs between the minors and that cannot be
    /// converted without loss; kept as written, so the conversion
    /// [refuses](Conversion::is_refused) to be used.
    TypeChanged,
    /// An enum value the other minor does not accept; kept as written, so
    /// the conversion [refuses](Conversion::is_refused) to be used.
    ValueNotAccepted,
    /// The document's kind is not served in the other minor (nor under
    /// another apiVersion); the conversion refuses to be used.
    KindNotServed,
    /// A field the other minor requires and the old one did not, missing
    /// from the document (or null); the conversion refuses to be used.
    MissingRequired,
}

impl ChangeKind {
    /// True when the change loses or leaves behind something.
    pub fn is_loss(&self) -> bool {
        !matches!(
            self,
            ChangeKind::Renamed
                | ChangeKind::VersionBumped
                | ChangeKind::ApiVersionChanged
                | ChangeKind::Converted
        )
    }

    /// True when the output would be rejected and must not be written: a
    /// value of the wrong type or outside the enum, or a kind not served.
    pub fn refuses(&self) -> bool {
        matches!(
            self,
            ChangeKind::TypeChanged
                | ChangeKind::ValueNotAccepted
                | ChangeKind::KindNotServed
                | ChangeKind::MissingRequired
        )
    }
}

/// One change, with the path and line in the input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    pub kind: ChangeKind,
    pub path: String,
    pub line: u32,
    pub message: String,
}

impl fmt::Display for Change {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

/// A converted document and what the conversion did.
#[derive(Clone, Debug, PartialEq)]
pub struct Conversion {
    pub from: Version,
    pub to: Version,
    pub document: Node,
    pub changes: Vec<Change>,
}

impl Conversion {
    /// True when nothing was lost.
    pub fn is_lossless(&self) -> bool {
        !self.changes.iter().any(|change| change.kind.is_loss())
    }

    /// True when `to` would reject the output: a value that could not be
    /// converted to its new type or is not in its enum there (kept as
    /// written), or a kind `to` does not serve. It must not be written out.
    pub fn is_refused(&self) -> bool {
        self.changes.iter().any(|change| change.kind.refuses())
    }
}

/// Converts `root` to minor `to`. `from` defaults to the document's own minor
/// (its `apiVersion`, for APIs whose documents carry it).
pub fn convert(
    tables: &GateTables,
    root: &Node,
    from: Option<Version>,
    to: Version,
) -> Result<Conversion, DocumentError> {
    let identity = identify(tables, root)?;
    let from = from.or(identity.own_minor).ok_or_else(|| DocumentError {
        line: root.line,
        message: format!(
            "{} {} does not say which minor it is written for; pass --from",
            identity.api_version, identity.kind
        ),
    })?;
    for version in [from, to] {
        if !tables.has_version(version) {
            return Err(DocumentError {
                line: root.line,
                message: format!(
                    "{} has no minor {version} (its minors: {})",
                    tables.api(),
                    tables.versions_text()
                ),
            });
        }
    }
    let mut converter = Converter {
        tables,
        from,
        to,
        path: Vec::new(),
        changes: Vec::new(),
    };
    let found = identity
        .type_name
        .and_then(|name| Some((name, tables.ty(name)?)));
    let mut document = match found {
        Some((name, ty)) if ty.gate.is_present_in(to) => {
            converter.value(root, root.line, name, name)
        }
        Some((name, _)) => match replacement(tables, &identity, to) {
            Some((api_version, new_name)) => {
                let mut document = converter.value(root, root.line, name, new_name);
                if let Some(node) = document.get_mut("apiVersion") {
                    node.value = Value::String(api_version.clone());
                }
                converter.change(
                    ChangeKind::ApiVersionChanged,
                    Some("apiVersion"),
                    root.get("apiVersion").map_or(root.line, |node| node.line),
                    format!(
                        "{} → {api_version} ({} {} is not served in {to})",
                        identity.api_version, identity.api_version, identity.kind
                    ),
                );
                document
            }
            None => {
                converter.change(
                    ChangeKind::KindNotServed,
                    None,
                    root.line,
                    format!(
                        "{} {} is not served in {to}, and no other apiVersion of {} is",
                        identity.api_version, identity.kind, identity.kind
                    ),
                );
                root.clone()
            }
        },
        None => root.clone(),
    };
    if identity.own_minor.is_some() && from != to {
        if let Some(node) = document.get_mut("apiVersion") {
            let line = node.line;
            node.value = Value::String(to.to_string());
            converter.change(
                ChangeKind::VersionBumped,
                Some("apiVersion"),
                line,
                format!("{from} → {to}"),
            );
        }
    }
    let mut changes = converter.changes;
    changes.sort_by_key(|change| change.line);
    Ok(Conversion {
        from,
        to,
        document,
        changes,
    })
}

/// The apiVersion and type serving the document's kind in `to`, when its own
/// group/version is not served there (Kubernetes-style documents only).
fn replacement<'t>(
    tables: &'t GateTables,
    identity: &Identity,
    to: Version,
) -> Option<(String, &'t str)> {
    if identity.own_minor.is_some() {
        return None;
    }
    let group = identity
        .api_version
        .rsplit_once('/')
        .map_or("", |(group, _)| group);
    let gvk = tables.served_kind(group, identity.kind, to)?;
    let name = tables
        .types_for_gvk(&gvk.group, &gvk.version, &gvk.kind)
        .iter()
        .find(|name| tables.ty(name).is_some_and(|ty| ty.gate.is_present_in(to)))?;
    Some((gvk.api_version(), name.as_str()))
}

struct Converter<'a> {
    tables: &'a GateTables,
    from: Version,
    to: Version,
    path: Vec<String>,
    changes: Vec<Change>,
}

impl Converter<'_> {
    fn change(&mut self, kind: ChangeKind, last: Option<&str>, line: u32, message: String) {
        let mut path = String::new();
        for step in self.path.iter().map(String::as_str).chain(last) {
            if !path.is_empty() && !step.starts_with('[') {
                path.push('.');
            }
            path.push_str(step);
        }
        self.changes.push(Change {
            kind,
            path,
            line,
            message,
        });
    }

    /// Converts `node`, of type `from_ty` in the old minor and `to_ty` in the
    /// new; `line` is the line of its key or list item.
    fn value(&mut self, node: &Node, line: u32, from_ty: &str, to_ty: &str) -> Node {
        if from_ty != to_ty && !same_shape(self.tables, from_ty, to_ty) {
            return self.retyped(node, line, from_ty, to_ty);
        }
        match (&node.value, type_expr::array_item(to_ty)) {
            (Value::Seq(items), Some(to_item)) => {
                let from_item = type_expr::array_item(from_ty).unwrap_or(to_item);
                let items = items
                    .iter()
                    .enumerate()
                    .map(|(index, item)| {
                        self.path.push(format!("[{index}]"));
                        let converted = self.value(item, item.line, from_item, to_item);
                        self.path.pop();
                        converted
                    })
                    .collect();
                return Node {
                    value: Value::Seq(items),
                    line: node.line,
                };
            }
            (Value::Seq(_), None) => return node.clone(),
            _ => {}
        }
        if let (Value::Map(entries), Some(to_value)) = (&node.value, type_expr::map_value(to_ty)) {
            let from_value = type_expr::map_value(from_ty).unwrap_or(to_value);
            let entries = entries
                .iter()
                .map(|entry| {
                    self.path.push(entry.key.clone());
                    let value = self.value(&entry.value, entry.line, from_value, to_value);
                    self.path.pop();
                    Entry {
                        key: entry.key.clone(),
                        line: entry.line,
                        value,
                    }
                })
                .collect();
            return Node {
                value: Value::Map(entries),
                line: node.line,
            };
        }
        let tables = self.tables;
        match (&node.value, tables.ty(to_ty)) {
            (Value::Map(entries), Some(def)) if !def.fields.is_empty() => {
                let from_def = tables.ty(from_ty).unwrap_or(def);
                let converted: Vec<Entry> = entries
                    .iter()
                    .filter_map(|entry| self.entry(entry, from_def, def, to_ty))
                    .collect();
                self.newly_required_missing(&converted, def, node.line);
                Node {
                    value: Value::Map(converted),
                    line: node.line,
                }
            }
            _ => node.clone(),
        }
    }

    /// Reports each field of `def` that the new minor requires, the old one
    /// did not, and the converted object lacks or holds as null: upgrade
    /// cannot make its value up. (A field both minors require and the
    /// document lacks is `vergate check`'s to report.)
    fn newly_required_missing(&mut self, entries: &[Entry], def: &TypeGate, line: u32) {
        let (from, to) = (self.from, self.to);
        for (name, field) in &def.fields {
            if !field.is_required_in(to) || field.is_required_in(from) {
                continue;
            }
            let present = entries
                .iter()
                .any(|entry| entry.key == *name && !matches!(entry.value.value, Value::Null));
            if !present {
                self.change(
                    ChangeKind::MissingRequired,
                    Some(name),
                    line,
                    format!(
                        "missing: required in {to} but not in {from}; add it by hand, then run upgrade again"
                    ),
                );
            }
        }
    }

    /// Converts a value whose type changed shape (`integer` → `string`), or
    /// keeps it as written and records the refusal.
    fn retyped(&mut self, node: &Node, line: u32, from_ty: &str, to_ty: &str) -> Node {
        let (from, to) = (self.from, self.to);
        let types = format!("type is {from_ty} in {from} but {to_ty} in {to}");
        match retype::convert(&node.value, from_ty, to_ty) {
            Some(value) => {
                let how = if value == node.value {
                    "kept as written".to_owned()
                } else {
                    format!("{} written as {}", show(&node.value), show(&value))
                };
                self.change(ChangeKind::Converted, None, line, format!("{types}; {how}"));
                Node {
                    value,
                    line: node.line,
                }
            }
            None => {
                self.change(
                    ChangeKind::TypeChanged,
                    None,
                    line,
                    format!(
                        "{types}, and {} cannot be converted without loss; edit it by hand to fit {to_ty}, then run upgrade again",
                        show(&node.value)
                    ),
                );
                node.clone()
            }
        }
    }

    /// Converts one entry of an object of type `def` (named `def_name`) in
    /// the new minor and `from_def` in the old; `None` when it is dropped.
    fn entry(
        &mut self,
        entry: &Entry,
        from_def: &TypeGate,
        def: &TypeGate,
        def_name: &str,
    ) -> Option<Entry> {
        let (from, to) = (self.from, self.to);
        let key = entry.key.as_str();
        let to_field = def.fields.get(key);
        let Some(field) = from_def.fields.get(key).or(to_field) else {
            return Some(entry.clone());
        };
        let new_name = if to_field.is_some_and(|f| f.gate.is_present_in(to)) {
            key.to_owned()
        } else if let Some(name) = renamed_forward(def, key, from, to) {
            self.change(
                ChangeKind::Renamed,
                Some(key),
                entry.line,
                format!("renamed to {name} (in {})", forward_in(def, &name)),
            );
            name
        } else if let Some(old) = field
            .renamed_from
            .as_ref()
            .filter(|rename| to < rename.in_version)
            .filter(|rename| {
                def.fields
                    .get(&rename.from)
                    .is_some_and(|f| f.gate.is_present_in(to))
            })
        {
            self.change(
                ChangeKind::Renamed,
                Some(key),
                entry.line,
                format!(
                    "renamed to {} (its name before {})",
                    old.from, old.in_version
                ),
            );
            old.from.clone()
        } else {
            let gate = &to_field.unwrap_or(field).gate;
            let why = if to_field.is_none() {
                format!("its type in {to}, {def_name}, has none")
            } else if to < gate.introduced_in {
                format!("introduced in {}", gate.introduced_in)
            } else if let Some(removed) = gate.removed_in.filter(|r| to >= *r) {
                format!("removed in {removed}")
            } else {
                format!("absent in {to}")
            };
            self.change(
                ChangeKind::Dropped,
                Some(key),
                entry.line,
                format!("dropped: {to} has no such field ({why})"),
            );
            return None;
        };
        let to_field = def.fields.get(&new_name).unwrap_or(field);
        let from_ty = field.type_in(from);
        let to_ty = to_field.type_in(to);
        if from_ty != to_ty
            && to_field.type_in(from) != to_field.type_in(to)
            && same_shape(self.tables, from_ty, to_ty)
            && !type_expr::is_builtin(innermost(to_ty))
        {
            self.change(
                ChangeKind::Converted,
                Some(&new_name),
                entry.line,
                format!(
                    "type is {from_ty} in {from} but {to_ty} in {to}; converted field by field"
                ),
            );
        }
        match &entry.value.value {
            Value::String(text) => {
                let values = if to_field.values.is_empty() {
                    self.tables
                        .ty(to_ty)
                        .map_or(&to_field.values, |ty| &ty.values)
                } else {
                    &to_field.values
                };
                self.value_not_accepted(text, values, key, entry.line);
            }
            _ => self.elements_not_accepted(&entry.value, &to_field.element_values, key),
        }
        self.path.push(new_name.clone());
        let value = self.value(&entry.value, entry.line, from_ty, to_ty);
        self.path.pop();
        Some(Entry {
            key: new_name,
            line: entry.line,
            value,
        })
    }
}

/// True when a value of type `from` converts to type `to` by walking it:
/// lists to lists and maps to maps (item by item), and definitions with
/// fields on both sides (`v1beta3.FlowSchemaSpec` → `v1.FlowSchemaSpec`,
/// field by field).
fn same_shape(tables: &GateTables, from: &str, to: &str) -> bool {
    let object = |expr: &str| {
        !type_expr::is_builtin(expr) && tables.ty(expr).is_some_and(|ty| !ty.fields.is_empty())
    };
    (type_expr::array_item(from).is_some() && type_expr::array_item(to).is_some())
        || (type_expr::map_value(from).is_some() && type_expr::map_value(to).is_some())
        || (object(from) && object(to))
}

/// The item type of a list or map expression, through every level
/// (`[]map[string]T` → `T`).
fn innermost(expr: &str) -> &str {
    match type_expr::array_item(expr).or_else(|| type_expr::map_value(expr)) {
        Some(inner) => innermost(inner),
        None => expr,
    }
}

impl Converter<'_> {
    /// Reports each string element of the list or map `node` (under `key`)
    /// that the new minor's element enum `values` does not accept.
    fn elements_not_accepted(&mut self, node: &Node, values: &BTreeMap<String, Gate>, key: &str) {
        for (place, text, line) in node.string_elements() {
            let at = match place {
                Place::Index(index) => format!("{key}[{index}]"),
                Place::Key(map_key) => format!("{key}.{map_key}"),
            };
            self.value_not_accepted(text, values, &at, line);
        }
    }

    /// Reports `text` when `values` constrain the new minor and it is not
    /// among them (a value no minor lists is left alone, as preflight does
    /// outside strict mode). The conversion is then refused.
    fn value_not_accepted(
        &mut self,
        text: &str,
        values: &BTreeMap<String, Gate>,
        last: &str,
        line: u32,
    ) {
        let to = self.to;
        let accepted = values_listed_in(values, to);
        let Some(gate) = values
            .get(text)
            .filter(|g| !accepted.is_empty() && !g.is_present_in(to))
        else {
            return;
        };
        let (_, reason) = absent_reason(gate, to, None);
        self.change(
            ChangeKind::ValueNotAccepted,
            Some(last),
            line,
            format!(
                "value {text:?} is not accepted in {to} ({reason}; accepted: {}); choose one of those by hand, then run upgrade again",
                show_values(&accepted)
            ),
        );
    }
}

/// The field `old` became by a rename after `from`, at or before `to`.
fn renamed_forward(def: &TypeGate, old: &str, from: Version, to: Version) -> Option<String> {
    def.fields.iter().find_map(|(name, field)| {
        field
            .renamed_from
            .as_ref()
            .filter(|r| r.from == old && from < r.in_version && r.in_version <= to)
            .map(|_| name.clone())
    })
}

fn forward_in(def: &TypeGate, name: &str) -> String {
    def.fields
        .get(name)
        .and_then(|field| field.renamed_from.as_ref())
        .map_or_else(String::new, |rename| rename.in_version.to_string())
}

/// A value as it appears in a message: scalars as written, others by kind.
fn show(value: &Value) -> String {
    match value {
        Value::Int(number) => number.to_string(),
        Value::String(text) => format!("{text:?}"),
        Value::Bool(flag) => flag.to_string(),
        Value::Float(text) => text.clone(),
        Value::Null => "null".to_owned(),
        Value::Seq(_) => "the list".to_owned(),
        Value::Map(_) => "the mapping".to_owned(),
    }
}

/// Writes documents as multi-document YAML.
pub fn to_yaml(documents: &[&Node]) -> String {
    let mut out = String::new();
    for document in documents {
        let mut text = String::new();
        let mut emitter = yaml_rust2::YamlEmitter::new(&mut text);
        emitter.multiline_strings(true);
        emitter
            .dump(&document.to_yaml())
            .expect("writing YAML to a String cannot fail");
        out.push_str(&text);
        out.push('\n');
    }
    out
}
