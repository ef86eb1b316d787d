//! The one document walker: `check` and `upgrade` both walk a document
//! through the type expressions of the gate tables here, so path text, type
//! dispatch, and enum and element-value verdicts are decided in one place
//! and the two commands cannot disagree about them.
//!
//! A walk goes from one minor (`from`) to another (`to`); `check` walks with
//! both the target, `upgrade` from the document's minor to the new one. The
//! [`Walk`] does the recursion: lists item by item, maps value by value,
//! objects field by field, each under the field's type in each minor. What
//! to make of each place (report a violation, record a change, build the
//! converted document) is the [`Visitor`]'s.

pub(crate) mod constraints;
mod crd_formats;
mod decoded_scalars;
mod list_keys;
mod path;
pub(crate) mod scalar;
mod union;
mod values;

pub(crate) use constraints::compiled as compiled_pattern;
pub(crate) use constraints::Verdict;
// The CEL library quotes as the format messages do.
pub(crate) use crd_formats::go_quoted;
pub(crate) use crd_formats::{message as format_message, CrdFormat};
pub(crate) use decoded_scalars::float_value as scalar_float;
pub(crate) use path::Step;
pub(crate) use values::Refusal;

use crate::document::{Entry, Node, Value};
use crate::gates::{Constraints, FieldGate, Gate, Scalar, TypeExpr, TypeGate, UnionGate};
use crate::tables::{FieldIndex, GateTables, TypeEntry};
use crate::Version;
use std::collections::BTreeMap;

/// What a value should have been, when its shape does not fit its type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Expected {
    /// A list (`[]T`).
    List,
    /// A mapping (`map[string]T`, or a definition with fields).
    Mapping,
}

impl Expected {
    /// As messages say it (`a list`).
    pub fn text(self) -> &'static str {
        match self {
            Expected::List => "a list",
            Expected::Mapping => "a mapping",
        }
    }
}

/// The object being walked: its definition in `to` and in `from`.
pub(crate) struct Object<'a> {
    /// The definition's name in `to`.
    pub name: &'a str,
    /// The definition in `to`.
    pub def: &'a TypeGate,
    /// The definition in `from` (the same as `def` unless the type changed).
    pub from_def: &'a TypeGate,
    /// The fields of `def` as a check looks for them.
    pub fields: &'a FieldIndex<'a>,
}

/// What the visitor decides about one entry of an object.
pub(crate) enum FieldStep<'a, Out> {
    /// Left out of the result, not walked (a field `to` does not have).
    Drop,
    /// Kept as it is, not walked (a field no minor has).
    Keep(Out),
    /// Walked under `key` (its name in `to`, after a rename), with the
    /// field's gate in `from` and in `to`; `constrained` is false when the
    /// field is known to have no value constraints in any minor, `plain`
    /// true when `to` is `from` and has no enum values and one type
    /// ([`crate::tables::IndexedField::plain_value`]).
    Walk {
        key: &'a str,
        from: &'a FieldGate,
        to: &'a FieldGate,
        constrained: bool,
        plain: bool,
    },
}

/// What a walk does at each place. `Out` is what a walked value becomes:
/// nothing for `check`, the converted node for `upgrade`.
pub(crate) trait Visitor<'a> {
    type Out;

    /// Whether [`Visitor::object`] is handed what each entry became; a
    /// visitor that makes nothing of them (`check`) spares the walk
    /// gathering them, one allocation per object.
    const GATHERS_ENTRIES: bool = true;

    /// A value the walk does not look into: null, a value of a definition
    /// the tables do not have, or of a definition without fields.
    fn leaf(&mut self, walk: &Walk<'a>, node: &'a Node) -> Self::Out;

    /// A value of a built-in type.
    fn scalar(&mut self, walk: &Walk<'a>, node: &'a Node, line: u32, scalar: &Scalar) -> Self::Out;

    /// A value whose shape is not the `expected` one of its type `ty`.
    fn mismatch(
        &mut self,
        walk: &Walk<'a>,
        node: &'a Node,
        line: u32,
        expected: Expected,
        ty: &TypeExpr,
    ) -> Self::Out;

    /// A value whose type differs in shape between `from` and `to`
    /// (`integer` → `string`); never called when the minors are the same.
    fn retyped(
        &mut self,
        walk: &Walk<'a>,
        node: &'a Node,
        line: u32,
        from: &TypeExpr,
        to: &TypeExpr,
    ) -> Self::Out;

    /// A string value (or element) the enum of `to` refuses; `last` is the
    /// key it is under when the path does not end with it.
    fn refused(
        &mut self,
        walk: &Walk<'a>,
        last: Option<&str>,
        line: u32,
        text: &str,
        refusal: Refusal<'a>,
    );

    /// A string value (or element) the enum of `to` accepts but has
    /// deprecated (`gate`); `last` is as for [`Visitor::refused`]. Nothing
    /// by default.
    fn deprecated_value(
        &mut self,
        _walk: &Walk<'a>,
        _last: Option<&str>,
        _line: u32,
        _text: &str,
        _gate: &'a Gate,
    ) {
    }

    /// A value that breaks a constraint of `to` (`pattern`, `maxLength`,
    /// …), or whose pattern could not be checked; `last` is as for
    /// [`Visitor::refused`]. Nothing by default.
    fn constraint(&mut self, _walk: &Walk<'a>, _last: Option<&str>, _line: u32, _verdict: Verdict) {
    }

    /// A value of the union definition `name` (not null). Not looked into
    /// by default (as [`Visitor::leaf`]); `check` tries the members.
    fn union(
        &mut self,
        walk: &mut Walk<'a>,
        node: &'a Node,
        line: u32,
        name: &'a str,
        union: &'a UnionGate,
    ) -> Self::Out {
        let _ = (line, name, union);
        self.leaf(walk, node)
    }

    /// Decides what to do with one entry of `object`.
    fn field(
        &mut self,
        walk: &Walk<'a>,
        entry: &'a Entry,
        object: &Object<'a>,
    ) -> FieldStep<'a, Self::Out>;

    /// A list, from its walked items.
    fn list(&mut self, node: &'a Node, items: Vec<Self::Out>) -> Self::Out;

    /// A map of `map[string]T`, from its walked values (in entry order).
    fn map(&mut self, node: &'a Node, values: Vec<Self::Out>) -> Self::Out;

    /// An object, from its kept and walked entries: each key (in `to`), its
    /// line and what it became (none unless [`Visitor::GATHERS_ENTRIES`]).
    fn object(
        &mut self,
        walk: &Walk<'a>,
        node: &'a Node,
        line: u32,
        object: &Object<'a>,
        entries: Vec<(&'a str, u32, Self::Out)>,
    ) -> Self::Out;
}

/// A walk of one document from minor `from` to minor `to`.
pub(crate) struct Walk<'a> {
    pub tables: &'a GateTables,
    pub from: Version,
    pub to: Version,
    path: Vec<Step<'a>>,
    /// True inside a value of a custom resource's own type (from a CRD),
    /// whose schema the API server validates as OpenAPI (formats).
    custom: bool,
}

impl<'a> Walk<'a> {
    /// A walk at the document's root.
    pub fn new(tables: &'a GateTables, from: Version, to: Version) -> Self {
        Walk {
            tables,
            from,
            to,
            // Deep enough for most documents without growing.
            path: Vec::with_capacity(16),
            custom: false,
        }
    }

    /// True when the innermost definition being walked is a custom
    /// resource's type added from a CRD ([`GateTables::is_custom`]): the
    /// API server validates its values by the CRD's OpenAPI schema
    /// (string formats), a built-in type's by Go code.
    pub fn in_custom(&self) -> bool {
        self.custom
    }

    /// The path so far, with `last` appended (`spec.ports[0].name`).
    pub fn path_text(&self, last: Option<&str>) -> String {
        path::text(&self.path, last)
    }

    /// Walks `node`, of type `from` in minor `from` and `to` in minor `to`;
    /// `line` is the line of the key (or list item) holding it.
    pub fn value<V: Visitor<'a>>(
        &mut self,
        visitor: &mut V,
        node: &'a Node,
        line: u32,
        from: &TypeExpr,
        to: &TypeExpr,
    ) -> V::Out {
        if !std::ptr::eq(from, to) && from != to && !self.same_shape(from, to) {
            return visitor.retyped(self, node, line, from, to);
        }
        if matches!(node.value, Value::Null) {
            return visitor.leaf(self, node);
        }
        match to {
            TypeExpr::Array(to_item) => {
                let Value::Seq(items) = &node.value else {
                    return visitor.mismatch(self, node, line, Expected::List, to);
                };
                let from_item = match from {
                    TypeExpr::Array(item) => item,
                    _ => to_item,
                };
                let mut outs = Vec::with_capacity(items.len());
                for (index, item) in items.iter().enumerate() {
                    self.path.push(Step::Index(index));
                    outs.push(self.value(visitor, item, item.line, from_item, to_item));
                    self.path.pop();
                }
                visitor.list(node, outs)
            }
            TypeExpr::Map(to_value) => {
                let Value::Map(entries) = &node.value else {
                    return visitor.mismatch(self, node, line, Expected::Mapping, to);
                };
                let from_value = match from {
                    TypeExpr::Map(value) => value,
                    _ => to_value,
                };
                let mut outs = Vec::with_capacity(entries.len());
                for entry in entries {
                    self.path.push(Step::Key(&entry.key));
                    outs.push(self.value(visitor, &entry.value, entry.line, from_value, to_value));
                    self.path.pop();
                }
                visitor.map(node, outs)
            }
            TypeExpr::Scalar(scalar) => visitor.scalar(self, node, line, scalar),
            TypeExpr::Definition(name) => {
                let tables = self.tables;
                match tables.ty_entry(name) {
                    Some(entry) => self.definition(visitor, node, line, from, to, entry),
                    None => visitor.leaf(self, node),
                }
            }
        }
    }

    /// Walks a value of the definition `entry` in `to`, known for the
    /// time of it as custom or not ([`Walk::in_custom`]).
    fn definition<V: Visitor<'a>>(
        &mut self,
        visitor: &mut V,
        node: &'a Node,
        line: u32,
        from: &TypeExpr,
        to: &TypeExpr,
        entry: TypeEntry<'a>,
    ) -> V::Out {
        let custom = self.tables.is_custom(entry.name);
        let outer = std::mem::replace(&mut self.custom, custom);
        let out = self.definition_value(visitor, node, line, from, to, entry);
        self.custom = outer;
        out
    }

    /// See [`Walk::definition`].
    fn definition_value<V: Visitor<'a>>(
        &mut self,
        visitor: &mut V,
        node: &'a Node,
        line: u32,
        from: &TypeExpr,
        to: &TypeExpr,
        entry: TypeEntry<'a>,
    ) -> V::Out {
        let (name, def) = (entry.name, entry.gate);
        if let Some(union) = &def.union {
            return visitor.union(self, node, line, name, union);
        }
        if let Some(text) = values::enum_text(&node.value, def.type_in(self.to)) {
            self.enum_value(visitor, &text, &def.values, None, line, None);
        }
        if entry.fields.constrained {
            self.constraints(visitor, node, def.constraints_in(self.to), line, None);
        }
        if def.fields.is_empty() {
            return self.own_type(visitor, node, line, from, def);
        }
        let Value::Map(entries) = &node.value else {
            return visitor.mismatch(self, node, line, Expected::Mapping, to);
        };
        let from_def = if std::ptr::eq(from, to) {
            def
        } else {
            from.definition()
                .and_then(|from_name| self.tables.ty(from_name))
                .unwrap_or(def)
        };
        let object = Object {
            name,
            def,
            from_def,
            fields: entry.fields,
        };
        let mut outs = Vec::with_capacity(if V::GATHERS_ENTRIES { entries.len() } else { 0 });
        for entry in entries {
            let (key, out) = match visitor.field(self, entry, &object) {
                FieldStep::Drop => continue,
                FieldStep::Keep(out) => (entry.key.as_str(), out),
                FieldStep::Walk {
                    key,
                    from,
                    to,
                    constrained,
                    plain,
                } => (
                    key,
                    self.field(visitor, entry, key, (from, to), constrained, plain),
                ),
            };
            if V::GATHERS_ENTRIES {
                outs.push((key, entry.line, out));
            }
        }
        visitor.object(self, node, line, &object, outs)
    }

    /// Walks a value of `def`, a definition without fields, by its own type
    /// (`int-or-string`, `quantity`, `string(date-time)`); a definition
    /// whose own type is unknown or names another definition is not looked
    /// into (so aliases cannot loop).
    fn own_type<V: Visitor<'a>>(
        &mut self,
        visitor: &mut V,
        node: &'a Node,
        line: u32,
        from: &TypeExpr,
        def: &'a TypeGate,
    ) -> V::Out {
        let Some(to_own) = def.type_in(self.to) else {
            return visitor.leaf(self, node);
        };
        let from_own = from
            .definition()
            .and_then(|name| self.tables.ty(name))
            .and_then(|from_def| from_def.type_in(self.from))
            .unwrap_or(to_own);
        match (from_own, to_own) {
            (TypeExpr::Definition(_), _) | (_, TypeExpr::Definition(_)) => visitor.leaf(self, node),
            _ => self.value(visitor, node, line, from_own, to_own),
        }
    }

    /// Walks the value of one field: its enum, its constraints (unless it
    /// has none: `constrained`), its elements' enum, then the value itself
    /// under the field's type in each minor (`gates`: in `from`, in `to`).
    fn field<V: Visitor<'a>>(
        &mut self,
        visitor: &mut V,
        entry: &'a Entry,
        key: &'a str,
        gates: (&'a FieldGate, &'a FieldGate),
        constrained: bool,
        plain: bool,
    ) -> V::Out {
        let (from, to) = gates;
        // Most fields: no enum values, one type (the gate's other parts
        // are not read: they lie in other cache lines).
        let (from_type, to_type) = if plain && !constrained {
            (&to.ty, &to.ty)
        } else {
            self.field_values(visitor, entry, to, constrained);
            (from.type_in(self.from), to.type_in(self.to))
        };
        self.path.push(Step::Key(key));
        let out = self.value(visitor, &entry.value, entry.line, from_type, to_type);
        self.path.pop();
        out
    }

    /// The checks of a field's value before its type's: its enum, its
    /// constraints (unless it has none: `constrained`), its elements' enum.
    fn field_values<V: Visitor<'a>>(
        &mut self,
        visitor: &mut V,
        entry: &'a Entry,
        to: &'a FieldGate,
        constrained: bool,
    ) {
        let text = if to.values.is_empty() {
            None
        } else {
            values::enum_text(&entry.value.value, Some(to.type_in(self.to)))
        };
        if let Some(text) = text {
            let known_from = to.values_known_from;
            self.enum_value(
                visitor,
                &text,
                &to.values,
                known_from,
                entry.line,
                Some(&entry.key),
            );
        }
        if constrained {
            let constraints = to.constraints_in(self.to);
            self.constraints(
                visitor,
                &entry.value,
                constraints,
                entry.line,
                Some(&entry.key),
            );
            self.elements(visitor, entry, constraints);
        }
        if !to.element_values.is_empty() {
            self.path.push(Step::Key(&entry.key));
            let element_type = match to.type_in(self.to) {
                TypeExpr::Array(element) | TypeExpr::Map(element) => Some(&**element),
                _ => None,
            };
            for (step, text, line) in values::scalar_elements(&entry.value, element_type) {
                self.path.push(step);
                self.enum_value(
                    visitor,
                    &text,
                    &to.element_values,
                    to.values_known_from,
                    line,
                    None,
                );
                self.path.pop();
            }
            self.path.pop();
        }
    }

    /// Hands the visitor each constraint of `constraints` that `node`
    /// breaks; `last` is as for [`Visitor::refused`].
    fn constraints<V: Visitor<'a>>(
        &self,
        visitor: &mut V,
        node: &'a Node,
        constraints: &Constraints,
        line: u32,
        last: Option<&str>,
    ) {
        // A field constrained in some minor may have none in this one
        // (and `upgrade` does not say which fields have any).
        if constraints.is_empty() {
            return;
        }
        for verdict in constraints::verdicts(node, constraints) {
            visitor.constraint(self, last, line, verdict);
        }
    }

    /// Hands the visitor what the elements of the field `entry` break:
    /// each element's own constraints (`constraints.element`: a list's
    /// items, a map's values) and, in a CRD's types, the uniqueness its
    /// list type states ([`list_keys`]).
    fn elements<V: Visitor<'a>>(
        &mut self,
        visitor: &mut V,
        entry: &'a Entry,
        constraints: &Constraints,
    ) {
        let keyed = constraints.list_type.is_some() && self.validates_list_types();
        if constraints.element.is_none() && !keyed {
            return;
        }
        self.path.push(Step::Key(&entry.key));
        if let Some(element) = constraints.element.as_deref() {
            let elements: Vec<(Step<'a>, &'a Node)> = match &entry.value.value {
                Value::Seq(items) => items
                    .iter()
                    .enumerate()
                    .map(|(i, item)| (Step::Index(i), item))
                    .collect(),
                Value::Map(entries) => entries
                    .iter()
                    .map(|e| (Step::Key(&e.key), &e.value))
                    .collect(),
                _ => Vec::new(),
            };
            for (step, node) in elements {
                self.path.push(step);
                self.constraints(visitor, node, element, node.line, None);
                self.path.pop();
            }
        }
        if let (true, Value::Seq(items)) = (keyed, &entry.value.value) {
            for (index, message) in list_keys::duplicates(items, constraints) {
                self.path.push(Step::Index(index));
                visitor.constraint(self, None, items[index].line, Verdict::Broken(message));
                self.path.pop();
            }
        }
        self.path.pop();
    }

    /// True where the API server validates a list's `x-kubernetes-list-type`:
    /// in a CRD's types (added with the CRD, or an API of CRDs), not in a
    /// built-in's, which Go code validates.
    fn validates_list_types(&self) -> bool {
        self.custom || self.tables.dialect() == crate::gates::Dialect::CustomResources
    }

    /// Hands `text` to the visitor when the enum `values` (listed from
    /// `known_from`) refuses it in `to`, or accepts it as a value deprecated
    /// there.
    fn enum_value<V: Visitor<'a>>(
        &self,
        visitor: &mut V,
        text: &str,
        values: &'a BTreeMap<String, Gate>,
        known_from: Option<Version>,
        line: u32,
        last: Option<&str>,
    ) {
        if let Some(refusal) = values::refusal(text, values, self.to, known_from) {
            visitor.refused(self, last, line, text, refusal);
        } else if let Some(gate) = values
            .get(text)
            .filter(|gate| gate.is_deprecated_in(self.to))
        {
            visitor.deprecated_value(self, last, line, text, gate);
        }
    }

    /// True when a value of type `from` is walked into as one of type `to`:
    /// lists to lists and maps to maps (item by item), and definitions with
    /// fields on both sides (`v1beta3.FlowSchemaSpec` → `v1.FlowSchemaSpec`,
    /// field by field).
    pub fn same_shape(&self, from: &TypeExpr, to: &TypeExpr) -> bool {
        let object = |ty: &TypeExpr| {
            ty.definition()
                .and_then(|name| self.tables.ty(name))
                .is_some_and(|def| !def.fields.is_empty())
        };
        match (from, to) {
            (TypeExpr::Array(_), TypeExpr::Array(_)) | (TypeExpr::Map(_), TypeExpr::Map(_)) => true,
            _ => object(from) && object(to),
        }
    }
}
