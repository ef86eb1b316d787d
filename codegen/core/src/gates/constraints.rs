//! Value constraints of a field or type (`pattern`, `minimum`, `maxLength`,
//! …) as gates.json writes them, under the names JSON Schema 2020-12 gives
//! them: OpenAPI 3.0's boolean `exclusiveMinimum: true` is already folded
//! into the numeric form (`exclusiveMinimum: 0`).

/// A number bound (`minimum`, `multipleOf`, …). Written as an integer when
/// it is one (`65535`, not `65535.0`).
#[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
pub struct Number(pub f64);

impl std::fmt::Display for Number {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.as_integer() {
            Some(integer) => write!(f, "{integer}"),
            None => write!(f, "{}", self.0),
        }
    }
}

impl Number {
    /// The value as an integer, when it is one that `f64` holds exactly.
    pub fn as_integer(self) -> Option<i64> {
        const EXACT: f64 = 9_007_199_254_740_992.0; // 2^53
        (self.0.fract() == 0.0 && self.0.abs() <= EXACT).then_some(self.0 as i64)
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Number {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.as_integer() {
            Some(integer) => serializer.serialize_i64(integer),
            None => serializer.serialize_f64(self.0),
        }
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Number {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        f64::deserialize(deserializer).map(Number)
    }
}

/// The constraints on one value. Every key is optional; an empty set is
/// left out of gates.json.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct Constraints {
    /// A regular expression the string must match somewhere (unanchored,
    /// as in JSON Schema).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub pattern: Option<String>,
    /// The smallest number allowed.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub minimum: Option<Number>,
    /// The largest number allowed.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub maximum: Option<Number>,
    /// Numbers must be greater than this.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub exclusive_minimum: Option<Number>,
    /// Numbers must be less than this.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub exclusive_maximum: Option<Number>,
    /// Numbers must be a multiple of this.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub multiple_of: Option<Number>,
    /// The fewest characters (Unicode scalar values) of a string.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub min_length: Option<u64>,
    /// The most characters of a string.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub max_length: Option<u64>,
    /// The fewest items of a list.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub min_items: Option<u64>,
    /// The most items of a list.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub max_items: Option<u64>,
    /// True when a list's items must differ from each other.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "std::ops::Not::not")
    )]
    pub unique_items: bool,
    /// The fewest entries of a map or object.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub min_properties: Option<u64>,
    /// The most entries of a map or object.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub max_properties: Option<u64>,
    /// CEL validation rules (a CRD's `x-kubernetes-validations`), each run
    /// with `self` bound to the value.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    pub rules: Vec<ValidationRule>,
    /// What makes a list's items unique (`x-kubernetes-list-type`: `set`,
    /// or `map` by [`Constraints::list_map_keys`]); `atomic` is not kept.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub list_type: Option<ListType>,
    /// The keys of a `map` list (`x-kubernetes-list-map-keys`), in order.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    pub list_map_keys: Vec<String>,
    /// The constraints on each element of a list (its `items`) or map (its
    /// `additionalProperties`) when the element is no definition of its
    /// own (`hostnames: [string, maxLength 253]`).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub element: Option<Box<Constraints>>,
}

/// A list's `x-kubernetes-list-type` that constrains its items.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum ListType {
    /// Items unique as wholes.
    Set,
    /// Items unique by their map keys.
    Map,
}

impl ListType {
    /// The list type `x-kubernetes-list-type` names (`set`, `map`); `None`
    /// for `atomic` and anything else.
    pub fn parse(text: &str) -> Option<ListType> {
        match text {
            "set" => Some(ListType::Set),
            "map" => Some(ListType::Map),
            _ => None,
        }
    }
}

/// One CEL validation rule, as a CRD's `x-kubernetes-validations` states
/// it (`rule`, and what the API server says when it fails).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct ValidationRule {
    /// The CEL expression.
    pub rule: String,
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub message: Option<String>,
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub message_expression: Option<String>,
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub field_path: Option<String>,
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub reason: Option<String>,
}

impl ValidationRule {
    /// The rule and its message, for documentation: `` `rule`: message ``.
    pub fn describe(&self) -> String {
        match self
            .message
            .as_deref()
            .or(self.message_expression.as_deref())
        {
            Some(message) => format!("`{}`: {message}", self.rule),
            None => format!("`{}`", self.rule),
        }
    }
}

impl Constraints {
    /// True when nothing is constrained (asked of every field a check
    /// walks, so field by field rather than against a default).
    #[inline]
    pub fn is_empty(&self) -> bool {
        let Constraints {
            pattern,
            minimum,
            maximum,
            exclusive_minimum,
            exclusive_maximum,
            multiple_of,
            min_length,
            max_length,
            min_items,
            max_items,
            unique_items,
            min_properties,
            max_properties,
            rules,
            list_type,
            list_map_keys,
            element,
        } = self;
        pattern.is_none()
            && minimum.is_none()
            && maximum.is_none()
            && exclusive_minimum.is_none()
            && exclusive_maximum.is_none()
            && multiple_of.is_none()
            && min_length.is_none()
            && max_length.is_none()
            && min_items.is_none()
            && max_items.is_none()
            && !unique_items
            && min_properties.is_none()
            && max_properties.is_none()
            && rules.is_empty()
            && list_type.is_none()
            && list_map_keys.is_empty()
            && element.is_none()
    }
}

#[cfg(all(test, feature = "serde"))]
mod tests {
    use super::*;

    #[test]
    fn written_with_json_schema_names_and_integral_numbers() {
        let constraints = Constraints {
            pattern: Some("^[a-z]+$".into()),
            maximum: Some(Number(65535.0)),
            exclusive_minimum: Some(Number(0.5)),
            max_length: Some(63),
            unique_items: true,
            ..Constraints::default()
        };
        let json = serde_json::to_string(&constraints).unwrap();
        assert_eq!(
            json,
            r#"{"pattern":"^[a-z]+$","maximum":65535,"exclusiveMinimum":0.5,"maxLength":63,"uniqueItems":true}"#
        );
        let back: Constraints = serde_json::from_str(&json).unwrap();
        assert_eq!(back, constraints);
        assert!(Constraints::default().is_empty());
        assert_eq!(
            serde_json::to_string(&Constraints::default()).unwrap(),
            "{}"
        );
    }
}
