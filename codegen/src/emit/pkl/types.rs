//! Type mapping: the Pkl type of a schema, a property (with its
//! constraints, lifecycle checks and optionality) and a definition's
//! typealias. Every special rule of a type (Kubernetes' Quantity and
//! Duration) is here, in one place.

use super::builder::Builder;
use super::definition_modules::Location;
use super::escape::pkl_string;
use super::rules::Checks;
use crate::error::Result;
use crate::model::{Convention, Definition, Property, Schema};
use vergate_core::alias::pkl_identifier;

/// A Kubernetes quantity in Pkl: a `DataSize` (rendered `100Mi`), a number,
/// or a string in the quantity grammar (`250m`, `1.5Gi`, `2e3`).
pub(super) const QUANTITY_TYPE: &str = r##"DataSize|Int|Float|String(matches(Regex(#"[+-]?(\d+(\.\d*)?|\.\d+)(Ki|Mi|Gi|Ti|Pi|Ei|m|k|M|G|T|P|E|[eE][+-]?\d+)?"#)))"##;

impl Builder<'_, '_> {
    pub(super) fn property_type(
        &self,
        property: &Property,
        required: bool,
        from: &Definition,
        checks: &Checks,
    ) -> Result<String> {
        let ty = match &property.schema {
            Schema::Array(item) if !property.element_enum_values.is_empty() => format!(
                "Listing<{}>",
                self.type_expr(item, &property.element_enum_values, from)?
            ),
            Schema::Map(value) if !property.element_enum_values.is_empty() => format!(
                "Mapping<String, {}>",
                self.type_expr(value, &property.element_enum_values, from)?
            ),
            schema => self.type_expr(schema, &property.enum_values, from)?,
        };
        // A reference to an int-or-string definition takes its constraints
        // as the int-or-string itself would.
        let minor = &self.subtree.model.minors[&self.subtree.version];
        let schema = match property.schema.referenced() {
            Some(name)
                if !property.keywords.is_empty()
                    && minor
                        .definitions
                        .get(name)
                        .is_some_and(|d| matches!(d.schema, Schema::IntOrString)) =>
            {
                &Schema::IntOrString
            }
            _ => &property.schema,
        };
        let ty = super::constraints::constrained(
            ty,
            schema,
            &crate::model::constraints::constraints_of(&property.keywords),
        );
        let ty = if checks.value.is_empty() {
            ty
        } else {
            format!("({ty})({})", checks.value.join(", "))
        };
        let ty = if required || ty == "Any" {
            ty
        } else if is_union(&ty) {
            format!("({ty})?")
        } else {
            format!("{ty}?")
        };
        // Checks of the property whatever its value, null included (a
        // cross-field rule).
        Ok(if checks.whole.is_empty() {
            ty
        } else {
            format!("({ty})({})", checks.whole.join(", "))
        })
    }

    /// The right-hand side of a definition's typealias.
    pub(super) fn alias_target(
        &self,
        schema: &Schema,
        enum_values: &[String],
        from: &Definition,
    ) -> Result<String> {
        if self.subtree.k8s_base && from.convention == Some(Convention::Quantity) {
            return Ok(QUANTITY_TYPE.to_owned());
        }
        match schema {
            Schema::Object(object) => match &object.additional {
                Some(values) => Ok(format!(
                    "Mapping<String, {}>",
                    self.type_expr(values, &[], from)?
                )),
                None => Ok("Dynamic".into()),
            },
            Schema::Union(_) if from.convention == Some(Convention::SchemaOr) => {
                self.schema_or(&from.name, from)
            }
            Schema::Union(union) => {
                let minor = &self.subtree.model.minors[&self.subtree.version];
                super::union::union_type(union, minor, |member| self.type_expr(member, &[], from))
            }
            other => self.type_expr(other, enum_values, from),
        }
    }

    pub(super) fn type_expr(
        &self,
        schema: &Schema,
        enum_values: &[String],
        from: &Definition,
    ) -> Result<String> {
        Ok(match schema {
            Schema::Integer { .. } | Schema::Number { .. } | Schema::Boolean | Schema::Any
                if !enum_values.is_empty() =>
            {
                super::enum_type::constrained(&self.type_expr(schema, &[], from)?, enum_values)
            }
            Schema::Boolean => "Boolean".into(),
            Schema::Integer { format } if format.as_deref() == Some("int32") => "Int32".into(),
            Schema::Integer { .. } => "Int".into(),
            Schema::Number { .. } => "Number".into(),
            Schema::String { .. } if !enum_values.is_empty() => enum_values
                .iter()
                .map(|value| pkl_string(value))
                .collect::<Vec<_>>()
                .join("|"),
            // Kubernetes-style objects render a Duration as Go writes it
            // (`K8sObject.pkl`), so a duration field takes one too.
            Schema::String { format }
                if self.subtree.k8s_base && format.as_deref() == Some("duration") =>
            {
                "Duration|String".into()
            }
            Schema::String { .. } => "String".into(),
            Schema::IntOrString => "Int|String".into(),
            Schema::Array(items) => format!("Listing<{}>", self.type_expr(items, &[], from)?),
            Schema::Map(values) => {
                format!("Mapping<String, {}>", self.type_expr(values, &[], from)?)
            }
            Schema::Object(_) => "Dynamic".into(),
            // Unions are definitions of their own (a typealias, see
            // `alias_target`), never inline.
            Schema::Union(_) | Schema::Any => "Any".into(),
            Schema::Ref(name) if self.is_schema_or(name) => self.schema_or(name, from)?,
            Schema::Ref(name) if self.writes_out(name) => {
                let minor = &self.subtree.model.minors[&self.subtree.version];
                let definition = &minor.definitions[name.as_str()];
                self.alias_target(&definition.schema, &[], definition)?
            }
            Schema::Ref(name) => match self.locate(name, from)? {
                Location::Member { module, name } if *module == self.module => {
                    pkl_identifier(name).into_owned()
                }
                Location::Member { module, name } => {
                    format!("{}.{}", self.alias(module), pkl_identifier(name))
                }
                Location::Module { module } if *module == self.module => "module".into(),
                Location::Module { module } => self.alias(module),
            },
        })
    }
}

impl Builder<'_, '_> {
    /// True when `name` is a definition of the minor marked
    /// [`Convention::SchemaOr`].
    fn is_schema_or(&self, name: &str) -> bool {
        let minor = &self.subtree.model.minors[&self.subtree.version];
        minor
            .definitions
            .get(name)
            .is_some_and(|definition| definition.convention == Some(Convention::SchemaOr))
    }

    /// True when a reference to `name` is written as its type rather than
    /// its typealias: with pkl-k8s's layout, a plain typealias (`Time =
    /// String`, `FieldsV1 = Mapping<String, Any>`) of a types module other
    /// than this one. A types module names the classes of its namespace,
    /// so importing it would load every module of the namespace; written
    /// out, the plain type costs nothing and renders the same.
    pub(super) fn writes_out(&self, name: &str) -> bool {
        if !self.subtree.k8s_base {
            return false;
        }
        let layout = &self.subtree.layout;
        let Some(Location::Member { module, .. }) = layout.locations.get(name) else {
            return false;
        };
        if *module == self.module || !layout.type_modules.contains_key(module) {
            return false;
        }
        let minor = &self.subtree.model.minors[&self.subtree.version];
        minor.definitions.get(name).is_some_and(is_plain_alias)
    }

    /// A JSONSchemaProps-or-something union written out where it is used,
    /// the JSONSchemaProps the default member (`*JSONSchemaProps|Boolean`),
    /// as pkl-k8s writes it: reflection over the property (pkl-pantry's
    /// converter) then sees the classes, where a typealias would hide them.
    fn schema_or(&self, name: &str, from: &Definition) -> Result<String> {
        let minor = &self.subtree.model.minors[&self.subtree.version];
        let Some(union) = minor.definitions.get(name).and_then(Definition::union) else {
            return Ok("Any".into());
        };
        let mut members = Vec::with_capacity(union.members.len());
        for (index, member) in union.members.iter().enumerate() {
            let ty = self.type_expr(member, &[], from)?;
            members.push(if index == 0 { format!("*{ty}") } else { ty });
        }
        Ok(members.join("|"))
    }
}

/// True when `definition` is a typealias of a plain Pkl type: a string
/// (not a duration), `Any`, or a free-form object or map of strings or
/// anything, with no enum, constraint or convention.
fn is_plain_alias(definition: &Definition) -> bool {
    if definition.convention.is_some()
        || !definition.enum_values.is_empty()
        || !definition.keywords.is_empty()
    {
        return false;
    }
    let plain_value = |schema: &Schema| matches!(schema, Schema::Any | Schema::String { .. });
    match &definition.schema {
        Schema::String { format } => format.as_deref() != Some("duration"),
        Schema::Any => true,
        Schema::Object(object) => {
            object.properties.is_empty() && object.additional.as_deref().is_none_or(plain_value)
        }
        _ => false,
    }
}

/// True when a Pkl type is a union at its top level (`"a"|"b"`, not
/// `Listing<"a"|"b">`), so that `?` needs parentheses around it.
fn is_union(ty: &str) -> bool {
    let mut depth = 0usize;
    let mut quoted = false;
    let mut chars = ty.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' if quoted => {
                chars.next();
            }
            '"' => quoted = !quoted,
            '<' | '(' if !quoted => depth += 1,
            '>' | ')' if !quoted => depth = depth.saturating_sub(1),
            '|' if !quoted && depth == 0 => return true,
            _ => {}
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::is_union;

    #[test]
    fn only_top_level_unions_need_parentheses() {
        assert!(is_union(r#""a"|"b""#));
        assert!(is_union("Int|String"));
        assert!(!is_union(r#"Listing<"a"|"b">"#));
        assert!(!is_union(r#""a|b""#));
        assert!(!is_union(r#""a\"|b""#));
        assert!(is_union(r#""<"|"b""#));
    }
}
