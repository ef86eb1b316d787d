//! `upgrade`'s visitor of the document walker (`crate::walk`): builds the
//! converted document and records every change and loss.

use super::{retype, Change, ChangeKind};
use crate::document::{Entry, Node, Value};
use crate::gates::{show_values, FieldGate, Scalar, TypeExpr, TypeGate};
use crate::preflight::absent_reason;
use crate::tables::GateTables;
use crate::walk::{Expected, FieldStep, Object, Refusal, Visitor, Walk};
use crate::Version;

/// The visitor of `upgrade`: builds the converted document and records
/// what changed.
pub(super) struct Converter {
    from: Version,
    to: Version,
    pub changes: Vec<Change>,
}

impl Converter {
    pub fn new(from: Version, to: Version) -> Self {
        Converter {
            from,
            to,
            changes: Vec::new(),
        }
    }

    /// Converts `root`, a document of definition `from_name` in the old minor
    /// and `to_name` in the new.
    pub fn document(
        &mut self,
        tables: &GateTables,
        root: &Node,
        from_name: &str,
        to_name: &str,
    ) -> Node {
        let from_ty = TypeExpr::Definition(from_name.to_owned());
        let to_ty = TypeExpr::Definition(to_name.to_owned());
        let mut walk = Walk::new(tables, self.from, self.to);
        walk.value(self, root, root.line, &from_ty, &to_ty)
    }

    fn change(
        &mut self,
        walk: &Walk<'_>,
        kind: ChangeKind,
        last: Option<&str>,
        line: u32,
        message: String,
    ) {
        self.change_at(walk.path_text(last), kind, line, message);
    }

    pub fn change_at(&mut self, path: String, kind: ChangeKind, line: u32, message: String) {
        self.changes.push(Change {
            kind,
            path,
            line,
            message,
        });
    }

    /// Reports each field of `def` that the new minor requires, the old one
    /// did not, and the converted object lacks or holds as null: upgrade
    /// cannot make its value up. (A field both minors require and the
    /// document lacks is `vergate check`'s to report.)
    fn newly_required_missing(
        &mut self,
        walk: &Walk<'_>,
        entries: &[Entry],
        def: &TypeGate,
        line: u32,
    ) {
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
                    walk,
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

    /// The name `key` of an object of `def` has in the new minor, with the
    /// change a rename records; `None` when the new minor has no such field.
    fn new_name<'t>(
        &mut self,
        walk: &Walk<'_>,
        entry: &Entry,
        field: &'t FieldGate,
        def: &'t TypeGate,
    ) -> Option<&'t str> {
        let (from, to) = (self.from, self.to);
        let key = entry.key.as_str();
        if let Some((name, _)) = def
            .fields
            .get_key_value(key)
            .filter(|(_, f)| f.gate.is_present_in(to))
        {
            return Some(name);
        }
        if let Some((name, since)) = renamed_forward(def, key, from, to) {
            self.change(
                walk,
                ChangeKind::Renamed,
                Some(key),
                entry.line,
                format!("renamed to {name} (in {since})"),
            );
            return Some(name);
        }
        let old = field
            .renamed_from
            .as_ref()
            .filter(|rename| to < rename.in_version)
            .and_then(|rename| {
                let (name, f) = def.fields.get_key_value(&rename.from)?;
                f.gate
                    .is_present_in(to)
                    .then_some((name, rename.in_version))
            });
        if let Some((old, before)) = old {
            self.change(
                walk,
                ChangeKind::Renamed,
                Some(key),
                entry.line,
                format!("renamed to {old} (its name before {before})"),
            );
            return Some(old);
        }
        None
    }
}

impl<'a> Visitor<'a> for Converter {
    type Out = Node;

    fn leaf(&mut self, _: &Walk<'a>, node: &'a Node) -> Node {
        node.clone()
    }

    fn scalar(&mut self, _: &Walk<'a>, node: &'a Node, _: u32, _: &Scalar) -> Node {
        node.clone()
    }

    /// A value of the wrong shape is kept as written: it is `check`'s to report.
    fn mismatch(
        &mut self,
        _: &Walk<'a>,
        node: &'a Node,
        _: u32,
        _: Expected,
        _: &TypeExpr,
    ) -> Node {
        node.clone()
    }

    /// Converts a value whose type changed shape (`integer` → `string`), or
    /// keeps it as written and records the refusal.
    fn retyped(
        &mut self,
        walk: &Walk<'a>,
        node: &'a Node,
        line: u32,
        from_ty: &TypeExpr,
        to_ty: &TypeExpr,
    ) -> Node {
        let (from, to) = (self.from, self.to);
        let types = format!("type is {from_ty} in {from} but {to_ty} in {to}");
        match retype::convert(&node.value, from_ty, to_ty) {
            Some(value) => {
                let how = if value == node.value {
                    "kept as written".to_owned()
                } else {
                    format!("{} written as {}", show(&node.value), show(&value))
                };
                self.change(
                    walk,
                    ChangeKind::Converted,
                    None,
                    line,
                    format!("{types}; {how}"),
                );
                Node {
                    value,
                    line: node.line,
                }
            }
            None => {
                self.change(
                    walk,
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

    /// Reports a value the new minor's enum no longer (or not yet) lists; a
    /// value no minor lists is left alone, as `check` does outside strict
    /// mode. The conversion is then refused.
    fn refused(
        &mut self,
        walk: &Walk<'a>,
        last: Option<&str>,
        line: u32,
        text: &str,
        refusal: Refusal<'a>,
    ) {
        let to = self.to;
        let Refusal::NotInMinor { gate, accepted } = refusal else {
            return;
        };
        let (_, reason) = absent_reason(gate, to, None);
        self.change(
            walk,
            ChangeKind::ValueNotAccepted,
            last,
            line,
            format!(
                "value {text:?} is not accepted in {to} ({reason}; accepted: {}); choose one of those by hand, then run upgrade again",
                show_values(&accepted)
            ),
        );
    }

    /// Keeps, renames or drops one entry of an object.
    fn field(
        &mut self,
        walk: &Walk<'a>,
        entry: &'a Entry,
        object: &Object<'a>,
    ) -> FieldStep<'a, Node> {
        let (from, to) = (self.from, self.to);
        let (def, from_def) = (object.def, object.from_def);
        let key = entry.key.as_str();
        let to_field = def.fields.get(key);
        let Some(field) = from_def.fields.get(key).or(to_field) else {
            return FieldStep::Keep(entry.value.clone());
        };
        let Some(new_name) = self.new_name(walk, entry, field, def) else {
            let gate = &to_field.unwrap_or(field).gate;
            let why = if to_field.is_none() {
                format!("its type in {to}, {}, has none", object.name)
            } else if to < gate.introduced_in {
                format!("introduced in {}", gate.introduced_in)
            } else if let Some(removed) = gate.removed_in.filter(|r| to >= *r) {
                format!("removed in {removed}")
            } else {
                format!("absent in {to}")
            };
            self.change(
                walk,
                ChangeKind::Dropped,
                Some(key),
                entry.line,
                format!("dropped: {to} has no such field ({why})"),
            );
            return FieldStep::Drop;
        };
        let to_field = def.fields.get(new_name).unwrap_or(field);
        let from_ty = field.type_in(from);
        let to_ty = to_field.type_in(to);
        if from_ty != to_ty
            && to_field.type_in(from) != to_ty
            && walk.same_shape(from_ty, to_ty)
            && to_ty.innermost().definition().is_some()
        {
            self.change(
                walk,
                ChangeKind::Converted,
                Some(new_name),
                entry.line,
                format!(
                    "type is {from_ty} in {from} but {to_ty} in {to}; converted field by field"
                ),
            );
        }
        FieldStep::Walk {
            key: new_name,
            from: field,
            to: to_field,
            constrained: true,
            plain: false,
        }
    }

    fn list(&mut self, node: &'a Node, items: Vec<Node>) -> Node {
        Node {
            value: Value::Seq(items),
            line: node.line,
        }
    }

    fn map(&mut self, node: &'a Node, values: Vec<Node>) -> Node {
        let entries = node.as_map().unwrap_or_default();
        let entries = entries
            .iter()
            .zip(values)
            .map(|(entry, value)| Entry {
                key: entry.key.clone(),
                line: entry.line,
                value,
            })
            .collect();
        Node {
            value: Value::Map(entries),
            line: node.line,
        }
    }

    fn object(
        &mut self,
        walk: &Walk<'a>,
        node: &'a Node,
        _: u32,
        object: &Object<'a>,
        entries: Vec<(&'a str, u32, Node)>,
    ) -> Node {
        let entries: Vec<Entry> = entries
            .into_iter()
            .map(|(key, line, value)| Entry {
                key: key.into(),
                line,
                value,
            })
            .collect();
        self.newly_required_missing(walk, &entries, object.def, node.line);
        Node {
            value: Value::Map(entries),
            line: node.line,
        }
    }
}

/// The field `old` became by a rename after `from`, at or before `to`, and
/// the minor of the rename.
fn renamed_forward<'d>(
    def: &'d TypeGate,
    old: &str,
    from: Version,
    to: Version,
) -> Option<(&'d str, Version)> {
    def.fields.iter().find_map(|(name, field)| {
        field
            .renamed_from
            .as_ref()
            .filter(|r| r.from == old && from < r.in_version && r.in_version <= to)
            .map(|r| (name.as_str(), r.in_version))
    })
}

/// A value as it appears in a message: scalars as written, others by kind.
fn show(value: &Value) -> String {
    match value {
        Value::Int(number) => number.to_string(),
        Value::String(text) => format!("{text:?}"),
        Value::Bool(flag) => flag.to_string(),
        Value::Float(text) => text.to_string(),
        Value::Null => "null".to_owned(),
        Value::Seq(_) => "the list".to_owned(),
        Value::Map(_) => "the mapping".to_owned(),
    }
}
