//! The size facts of a schema node as written, read in the tree's one pass
//! for the static cost estimate (`cel::cost`): the `type` and `format` as
//! written (the tree's [`super::Shape`] merges some), the bounds
//! `maxLength`, `maxItems` and `maxProperties`, the longest `enum` value,
//! whether the node is `required` by its parent, an embedded resource, and
//! declared without a bound.

use super::written::Written as Value;

/// `type` as written, when it is one the API server knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Written {
    Object,
    Array,
    String,
    Integer,
    Number,
    Boolean,
}

/// `format` as far as the cost estimate reads it (of a string).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Format {
    #[default]
    Other,
    Byte,
    Date,
    DateTime,
    Duration,
}

/// A bound (`maxLength`, `maxItems`, `maxProperties`) as written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Bound {
    #[default]
    Absent,
    /// An integer (a negative one counts as 0).
    Count(u64),
    /// Written, but not an integer.
    Unreadable,
}

impl Bound {
    fn read<V: Value>(schema: &V, key: &str) -> Bound {
        match schema.get(key) {
            None => Bound::Absent,
            Some(value) => value
                .integer()
                .map_or(Bound::Unreadable, |n| Bound::Count(n.max(0) as u64)),
        }
    }

    /// The bound, when it is an integer.
    pub fn count(self) -> Option<u64> {
        match self {
            Bound::Count(n) => Some(n),
            _ => None,
        }
    }

    /// True when the key is written, whatever its value.
    pub fn written(self) -> bool {
        self != Bound::Absent
    }
}

/// What the static cost estimate reads of one node.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Sizes {
    pub ty: Option<Written>,
    pub format: Format,
    /// `x-kubernetes-int-or-string: true`.
    pub int_or_string: bool,
    /// `x-kubernetes-embedded-resource: true`.
    pub embedded: bool,
    pub max_length: Bound,
    pub max_items: Bound,
    pub max_properties: Bound,
    /// The longest string of a non-empty `enum` (0 when none is a string).
    pub enum_max: Option<u64>,
    /// `enum` is written.
    pub has_enum: bool,
    /// `additionalProperties` is written (a schema or a boolean): the
    /// API server then bounds an object's children by `maxProperties`.
    pub additional_written: bool,
    /// `additionalProperties` is a schema.
    pub additional_schema: bool,
    /// Named in the parent's `required`.
    pub required: bool,
    /// A list, map or string declared without a bound (what a cost
    /// finding asks to bound).
    pub unbounded: bool,
}

impl Sizes {
    /// The facts of `schema` (a mapping); `required` is set by the parent.
    pub fn read<V: Value>(schema: &V) -> Sizes {
        let flag = |key: &str| schema.get(key).is_some_and(V::is_true);
        let ty = match schema.get("type").and_then(V::text) {
            Some("object") => Some(Written::Object),
            Some("array") => Some(Written::Array),
            Some("string") => Some(Written::String),
            Some("integer") => Some(Written::Integer),
            Some("number") => Some(Written::Number),
            Some("boolean") => Some(Written::Boolean),
            _ => None,
        };
        let format = match schema.get("format").and_then(V::text) {
            Some("byte") => Format::Byte,
            Some("date") => Format::Date,
            Some("date-time") => Format::DateTime,
            Some("duration") => Format::Duration,
            _ => Format::Other,
        };
        let enum_max = schema
            .get("enum")
            .map(V::items)
            .filter(|values| !values.is_empty())
            .map(|values| {
                values
                    .iter()
                    .filter_map(V::text)
                    .map(|value| value.len() as u64)
                    .max()
                    .unwrap_or(0)
            });
        let additional = schema.get("additionalProperties");
        let mut sizes = Sizes {
            ty,
            format,
            int_or_string: flag("x-kubernetes-int-or-string"),
            embedded: flag("x-kubernetes-embedded-resource"),
            max_length: Bound::read(schema, "maxLength"),
            max_items: Bound::read(schema, "maxItems"),
            max_properties: Bound::read(schema, "maxProperties"),
            enum_max,
            has_enum: schema.get("enum").is_some(),
            additional_written: additional.is_some(),
            additional_schema: additional.is_some_and(V::is_map),
            required: false,
            unbounded: false,
        };
        sizes.unbounded = sizes.declared_unbounded();
        sizes
    }

    /// A list without `maxItems`, a map without `maxProperties`, a string
    /// without `maxLength`, `enum` or a format of bounded size, an
    /// int-or-string without `maxLength`.
    fn declared_unbounded(&self) -> bool {
        match self.ty {
            Some(Written::Array) => !self.max_items.written(),
            Some(Written::Object) => self.additional_schema && !self.max_properties.written(),
            Some(Written::String) => {
                !self.max_length.written()
                    && !self.has_enum
                    && !matches!(
                        self.format,
                        Format::Date | Format::DateTime | Format::Duration
                    )
            }
            _ => self.int_or_string && !self.max_length.written(),
        }
    }

    /// The children's cardinality (`extractMaxElements`): `maxItems` of an
    /// array, `maxProperties` of an object with `additionalProperties`, 1
    /// for the rest; `None` when unbounded.
    pub fn max_elements(&self) -> Option<u64> {
        match self.ty {
            Some(Written::Object) if self.additional_written => self.max_properties.count(),
            Some(Written::Array) => self.max_items.count(),
            _ => Some(1),
        }
    }
}

/// The names in `schema`'s `required`.
pub fn required<V: Value>(schema: &V) -> Vec<&str> {
    schema
        .get("required")
        .map(|names| names.items().iter().filter_map(V::text).collect())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::{Bound, Sizes};
    use serde_json::json;

    #[test]
    fn bounds_as_written_and_what_is_unbounded() {
        let list = Sizes::read(&json!({"type": "array", "maxItems": -3}));
        assert_eq!((list.max_items, list.unbounded), (Bound::Count(0), false));
        assert!(Sizes::read(&json!({"type": "array"})).unbounded);
        let odd = Sizes::read(&json!({"type": "string", "maxLength": "ten"}));
        assert_eq!((odd.max_length.count(), odd.unbounded), (None, false));
        assert!(!Sizes::read(&json!({"type": "string", "enum": ["a"]})).unbounded);
        assert!(!Sizes::read(&json!({"type": "string", "format": "date"})).unbounded);
        assert!(Sizes::read(&json!({"x-kubernetes-int-or-string": true})).unbounded);
        let map = json!({"type": "object", "additionalProperties": {"type": "string"}});
        assert!(Sizes::read(&map).unbounded);
        // `additionalProperties: false` bounds the children by
        // `maxProperties` too (`extractMaxElements`), unbounded here.
        let closed = Sizes::read(&json!({"type": "object", "additionalProperties": false}));
        assert_eq!((closed.max_elements(), closed.unbounded), (None, false));
        assert_eq!(
            Sizes::read(&json!({"type": "object"})).max_elements(),
            Some(1)
        );
    }
}
