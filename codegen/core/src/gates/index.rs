//! The gates index itself: [`GatesIndex`] and the gates of types, fields
//! and values, with the helpers that read them (the `index` feature).

use super::*;
use crate::Version;
use std::collections::BTreeMap;

/// The whole index of one API.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct GatesIndex {
    /// The API's name from api.toml (`kubernetes`).
    pub api: String,
    /// The API's dialect from api.toml: what the runtime checks depends on
    /// it, never on the name. Left out when it is Kubernetes'
    /// ([`Dialect::unwritten`]).
    #[cfg_attr(
        feature = "serde",
        serde(
            default = "Dialect::unwritten",
            skip_serializing_if = "Dialect::is_unwritten"
        )
    )]
    pub dialect: Dialect,
    /// Every minor of the corpus, ascending.
    pub versions: Vec<Version>,
    /// The minors api.toml marks deprecated, with the note saying why or what
    /// to do (`"end of upstream support; upgrade with vergate upgrade"`).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "BTreeMap::is_empty")
    )]
    pub deprecated_versions: BTreeMap<Version, String>,
    /// Each feature gate's history, from the API's own table (Kubernetes'
    /// feature-gate pages), by gate name: what a default cluster does with
    /// a field behind the gate in each minor.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "BTreeMap::is_empty")
    )]
    pub feature_gates: BTreeMap<String, FeatureGateHistory>,
    /// Kinds the API served before the corpus' first minor, from its
    /// published lifecycle (Kubernetes' `extensions/v1beta1 Ingress`),
    /// sorted by apiVersion and kind.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    pub retired_kinds: Vec<RetiredKind>,
    /// Every type by its definition name.
    pub types: BTreeMap<String, TypeGate>,
}

impl GatesIndex {
    /// Whether a cluster of `version` that sets no feature gates has the
    /// field of `gate` on. The feature-gate table decides where it knows
    /// the gate in that minor; otherwise the field's stage does, by
    /// Kubernetes' rule for fields (alpha off, beta and GA on).
    pub fn enabled_by_default(&self, gate: &Gate, version: Version) -> bool {
        default_on(
            &self.feature_gates,
            gate.feature_gate.as_deref(),
            gate.stage_in(version),
            version,
        )
    }
}

/// Whether a default cluster of `version` has on the field guarded by
/// `feature_gate` at `stage` (see [`GatesIndex::enabled_by_default`]).
pub fn default_on(
    table: &BTreeMap<String, FeatureGateHistory>,
    feature_gate: Option<&str>,
    stage: Option<Stage>,
    version: Version,
) -> bool {
    let known = feature_gate
        .and_then(|name| table.get(name))
        .and_then(|history| gate_state_in(history, version));
    match known {
        Some(state) => state.default,
        None => stage != Some(Stage::Alpha),
    }
}

/// The lifecycle keys shared by types, fields and enum values.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Gate {
    /// The first minor it is present in (the corpus' first minor when it is
    /// there from the start).
    pub introduced_in: Version,
    /// The first minor after its last presence; `None` if present in the newest.
    pub removed_in: Option<Version>,
    /// The exact minors it is present in, only when presence has a gap.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub present_in: Option<Vec<Version>>,
    /// The first minor in which it is deprecated.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub deprecated_in: Option<Version>,
    /// Its stage by the minor each stage starts in (`{"1.30": "alpha"}`).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "BTreeMap::is_empty")
    )]
    pub stage: BTreeMap<Version, Stage>,
    /// The feature gate that guards it while it is not GA.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub feature_gate: Option<String>,
    /// The other feature gates its description names: a second gate it
    /// requires, or gates that change its behaviour or allowed values
    /// (never used to refuse it). Always read from prose.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    pub related_feature_gates: Vec<String>,
    /// A reference such as a KEP URL.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub reference: Option<String>,
    /// Which of the keys above were inferred from prose (descriptions) rather
    /// than read from the specs' structure or from annotations.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    pub inferred: Vec<Inferred>,
}

/// A lifecycle key whose value can be inferred from prose. Declared in the
/// alphabetical order of the keys, so a sorted set of them is written in
/// the order gates.json has always had.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Inferred {
    /// `deprecated_in`, from a description that says the item is deprecated.
    DeprecatedIn,
    /// `feature_gate`, from a description that says the item requires it.
    FeatureGate,
    /// `introduced_in`, for an enum value carried back to minors whose spec
    /// does not list the enum yet (see `values_known_from`).
    IntroducedIn,
    /// `stage`, from a description that gives the item's stage beside its
    /// gate (a GA stage also from the minor whose description stops naming
    /// the gate).
    Stage,
}

impl Inferred {
    /// The key as gates.json writes it (`deprecated_in`).
    pub fn key(self) -> &'static str {
        match self {
            Inferred::DeprecatedIn => "deprecated_in",
            Inferred::FeatureGate => "feature_gate",
            Inferred::IntroducedIn => "introduced_in",
            Inferred::Stage => "stage",
        }
    }
}

/// Compares with the key, so `inferred == ["deprecated_in"]` reads as in gates.json.
impl PartialEq<&str> for Inferred {
    fn eq(&self, other: &&str) -> bool {
        self.key() == *other
    }
}

impl Gate {
    /// True when the item is present in `version`.
    pub fn is_present_in(&self, version: Version) -> bool {
        crate::gate_admits(
            version,
            self.introduced_in,
            self.removed_in,
            self.present_in.as_deref(),
        )
    }

    /// True when the item is deprecated in `version`.
    pub fn is_deprecated_in(&self, version: Version) -> bool {
        self.deprecated_in.is_some_and(|since| version >= since)
    }

    /// The stage in force in `version`, if stages are known.
    pub fn stage_in(&self, version: Version) -> Option<Stage> {
        in_force(&self.stage, version).copied()
    }
}

/// The entry of a history kept by the minor each entry starts in (stages,
/// a gate's states, a kind's lifecycle statements) that is in force in
/// `version`: the one at or before it; `None` before the first.
pub fn in_force<T>(history: &BTreeMap<Version, T>, version: Version) -> Option<&T> {
    // Most histories are empty: asked of every field a check walks.
    if history.is_empty() {
        return None;
    }
    history
        .range(..=version)
        .next_back()
        .map(|(_, entry)| entry)
}

/// A type's gate, its fields' gates and its enum values' gates.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(from = "super::flat::FlatTypeGate"))]
pub struct TypeGate {
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub gate: Gate,
    /// The type's own type when it is not an object with fields, in the
    /// newest minor it is present in (`int-or-string`, `string(date-time)`,
    /// `quantity`, `string` for an enum); `None` for objects.
    #[cfg_attr(
        feature = "serde",
        serde(default, rename = "type", skip_serializing_if = "Option::is_none")
    )]
    pub ty: Option<TypeExpr>,
    /// The type by the minor it starts in, only when it changes.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "BTreeMap::is_empty")
    )]
    pub type_history: BTreeMap<Version, TypeExpr>,
    /// The (group, version, kind) triples this type is served as.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    pub kinds: Vec<GroupVersionKind>,
    /// Gates of the type's properties, by wire name.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "BTreeMap::is_empty")
    )]
    pub fields: BTreeMap<String, FieldGate>,
    /// Gates of the type's own enum values, when the type is an enum.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "BTreeMap::is_empty")
    )]
    pub values: BTreeMap<String, Gate>,
    /// The constraints on the type's own value (a `pattern` of a string
    /// type, …) in the newest minor it is present in.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Constraints::is_empty")
    )]
    pub constraints: Constraints,
    /// The constraints by the minor they start in, only when they change.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "BTreeMap::is_empty")
    )]
    pub constraints_history: BTreeMap<Version, Constraints>,
    /// True when an object of this type accepts fields beyond `fields`
    /// (`additionalProperties`, or a CRD's
    /// `x-kubernetes-preserve-unknown-fields`) in the newest minor it is
    /// present in: `check --strict` reports no unknown field in it.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "std::ops::Not::not")
    )]
    pub open: bool,
    /// What to tell a user of the deprecated type (a CRD version's
    /// `deprecationWarning`), when its spec says.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub deprecation_warning: Option<String>,
    /// For a served kind of a prerelease apiVersion: what each minor's API
    /// server says of it (introduced, deprecated, removed, replacement), by
    /// the minor whose statement it is, only where the statement changes
    /// (k8s.io/api's prerelease-lifecycle files).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "BTreeMap::is_empty")
    )]
    pub api_lifecycle: BTreeMap<Version, ApiLifecycle>,
    /// The members and discriminator, when the type is a union (`oneOf` /
    /// `anyOf`); its own [`TypeGate::ty`] is then `any`.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub union: Option<UnionGate>,
    /// The cross-field rules the API server applies to an object of this
    /// type (the refinements overlay's `[[rules]]`).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    pub rules: Vec<CrossFieldRule>,
}

impl TypeGate {
    /// The type's own type in `version` (see [`TypeGate::ty`]).
    pub fn type_in(&self, version: Version) -> Option<&TypeExpr> {
        if self.type_history.is_empty() {
            return self.ty.as_ref();
        }
        self.type_history
            .range(..=version)
            .next_back()
            .map(|(_, ty)| ty)
            .or(self.ty.as_ref())
    }

    /// The constraints on the type's own value in `version`.
    pub fn constraints_in(&self, version: Version) -> &Constraints {
        constraints_in(&self.constraints, &self.constraints_history, version)
    }

    /// True when the type's own value has constraints in some minor.
    pub fn is_constrained(&self) -> bool {
        any_constraints(&self.constraints, &self.constraints_history)
    }

    /// What the API server of `version` says of the kind, when its
    /// project publishes it (see [`TypeGate::api_lifecycle`]).
    pub fn api_lifecycle_in(&self, version: Version) -> Option<&ApiLifecycle> {
        api_lifecycle_in(&self.api_lifecycle, version)
    }
}

/// The constraints in force in `version`: the history's entry at or
/// before it, else the newest.
fn constraints_in<'c>(
    newest: &'c Constraints,
    history: &'c BTreeMap<Version, Constraints>,
    version: Version,
) -> &'c Constraints {
    if history.is_empty() {
        return newest;
    }
    history
        .range(..=version)
        .next_back()
        .map_or(newest, |(_, constraints)| constraints)
}

/// True when `newest` or an entry of `history` constrains anything.
fn any_constraints(newest: &Constraints, history: &BTreeMap<Version, Constraints>) -> bool {
    !newest.is_empty() || history.values().any(|constraints| !constraints.is_empty())
}

/// A field's gate plus what changes about it from minor to minor.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(from = "super::flat::FlatFieldGate"))]
pub struct FieldGate {
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub gate: Gate,
    /// The field's type in the newest minor it is present in.
    #[cfg_attr(feature = "serde", serde(rename = "type"))]
    pub ty: TypeExpr,
    /// The minors in which the field is required.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    pub required_in: Vec<Version>,
    /// The minors in which the field's type differs from its previous presence.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    pub type_changed_in: Vec<Version>,
    /// The type by the minor it starts in, only when it changes.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "BTreeMap::is_empty")
    )]
    pub type_history: BTreeMap<Version, TypeExpr>,
    /// The field's previous wire name, when it was renamed.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub renamed_from: Option<Rename>,
    /// Gates of the field's enum values.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "BTreeMap::is_empty")
    )]
    pub values: BTreeMap<String, Gate>,
    /// Gates of the enum values of each element, when the field is a list
    /// whose items or a map whose values are an enum. One key for both,
    /// named after Go's "element type" of `[]T` and `map[string]T`: the
    /// field's `type` says which it is, and a reader checks values the
    /// same way for both. (`item_values`, its name while only lists had
    /// it, is still read.)
    #[cfg_attr(
        feature = "serde",
        serde(
            default,
            alias = "item_values",
            skip_serializing_if = "BTreeMap::is_empty"
        )
    )]
    pub element_values: BTreeMap<String, Gate>,
    /// The first minor whose spec lists the field's enum values, when the
    /// field is older than the list (Kubernetes lists enums from 1.34). A
    /// value whose `introduced_in` is inferred was carried back from this
    /// listing to earlier minors whose description of the field is the
    /// same; a value introduced in this very minor may be older.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub values_known_from: Option<Version>,
    /// The constraints on the field's value (`pattern`, `maxLength`, …) in
    /// the newest minor it is present in.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Constraints::is_empty")
    )]
    pub constraints: Constraints,
    /// The constraints by the minor they start in, only when they change
    /// (a `maxLength` raised in 1.31: two entries).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "BTreeMap::is_empty")
    )]
    pub constraints_history: BTreeMap<Version, Constraints>,
}

impl FieldGate {
    /// The constraints on the field's value in `version`.
    pub fn constraints_in(&self, version: Version) -> &Constraints {
        constraints_in(&self.constraints, &self.constraints_history, version)
    }

    /// True when the field's value has constraints in some minor.
    pub fn is_constrained(&self) -> bool {
        any_constraints(&self.constraints, &self.constraints_history)
    }

    /// True when the field is required in `version`.
    pub fn is_required_in(&self, version: Version) -> bool {
        self.required_in.contains(&version)
    }

    /// The field's type in `version`.
    pub fn type_in(&self, version: Version) -> &TypeExpr {
        // Most fields keep their type: asked of every field a check walks.
        if self.type_history.is_empty() {
            return &self.ty;
        }
        self.type_history
            .range(..=version)
            .next_back()
            .map_or(&self.ty, |(_, ty)| ty)
    }
}

/// A rename: the field had wire name `from` before minor `in`.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Rename {
    /// The previous wire name.
    pub from: String,
    /// The first minor with the new name.
    #[cfg_attr(feature = "serde", serde(rename = "in"))]
    pub in_version: Version,
}

/// The kind of a CustomResourceDefinition.
pub const CRD_KIND: &str = "CustomResourceDefinition";

/// The apiVersion of the CustomResourceDefinitions the API server serves.
pub const CRD_API_VERSION: &str = "apiextensions.k8s.io/v1";

/// True when a document's `apiVersion` and `kind` name a
/// CustomResourceDefinition (`apiextensions.k8s.io/v1`): the one test of
/// "is this document a CRD?".
pub fn is_crd(api_version: Option<&str>, kind: Option<&str>) -> bool {
    api_version == Some(CRD_API_VERSION) && kind == Some(CRD_KIND)
}

/// One (group, version, kind) a type is served as; the core group is `""`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct GroupVersionKind {
    pub group: String,
    pub version: String,
    pub kind: String,
}

impl GroupVersionKind {
    /// The group and version of an `apiVersion`: `("apps", "v1")` for
    /// `apps/v1`, `("", "v1")` for the core group's `v1`. The one place an
    /// apiVersion is split.
    pub fn split_api_version(api_version: &str) -> (&str, &str) {
        api_version.rsplit_once('/').unwrap_or(("", api_version))
    }

    /// The group, version and kind a document's `apiVersion` and `kind`
    /// name.
    pub fn parse(api_version: &str, kind: &str) -> GroupVersionKind {
        let (group, version) = GroupVersionKind::split_api_version(api_version);
        GroupVersionKind {
            group: group.to_owned(),
            version: version.to_owned(),
            kind: kind.to_owned(),
        }
    }

    /// The `apiVersion` a document of this kind carries: `apps/v1`, or `v1`
    /// for the core group.
    pub fn api_version(&self) -> String {
        if self.group.is_empty() {
            self.version.clone()
        } else {
            format!("{}/{}", self.group, self.version)
        }
    }
}

/// The values of an enum (a type's or field's `values`, a field's
/// `element_values`) that `version` lists, in order. Empty when it lists
/// none: the field is then open in that minor.
pub fn values_listed_in(values: &BTreeMap<String, Gate>, version: Version) -> Vec<&str> {
    values
        .iter()
        .filter(|(_, gate)| gate.is_present_in(version))
        .map(|(value, _)| value.as_str())
        .collect()
}

/// Enum values as messages show them: comma-separated, the empty value as
/// `""`.
pub fn show_values(values: &[&str]) -> String {
    values
        .iter()
        .map(|value| if value.is_empty() { "\"\"" } else { value })
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> Version {
        s.parse().unwrap()
    }

    #[test]
    fn listed_values_and_how_they_show() {
        let gate = |from: &str, to: Option<&str>| Gate {
            introduced_in: v(from),
            removed_in: to.map(v),
            ..Gate::default()
        };
        let values = BTreeMap::from([
            (String::new(), gate("1.34", None)),
            ("IPv4".to_owned(), gate("1.34", None)),
            ("IPv5".to_owned(), gate("1.34", Some("1.35"))),
        ]);
        assert!(values_listed_in(&values, v("1.33")).is_empty());
        assert_eq!(values_listed_in(&values, v("1.34")), ["", "IPv4", "IPv5"]);
        assert_eq!(values_listed_in(&values, v("1.35")), ["", "IPv4"]);
        assert_eq!(
            show_values(&values_listed_in(&values, v("1.35"))),
            "\"\", IPv4"
        );
    }

    #[test]
    fn presence_from_gate() {
        let gate = Gate {
            introduced_in: v("1.30"),
            removed_in: Some(v("1.33")),
            ..Gate::default()
        };
        assert!(!gate.is_present_in(v("1.29")));
        assert!(gate.is_present_in(v("1.30")));
        assert!(gate.is_present_in(v("1.32")));
        assert!(!gate.is_present_in(v("1.33")));
        let gappy = Gate {
            introduced_in: v("1.28"),
            present_in: Some(vec![v("1.28"), v("1.30")]),
            ..Gate::default()
        };
        assert!(!gappy.is_present_in(v("1.29")));
    }

    #[cfg(feature = "serde")]
    #[test]
    fn round_trip_keeps_removed_in_null() {
        let mut fields = BTreeMap::new();
        fields.insert(
            "trafficDistribution".to_owned(),
            FieldGate {
                gate: Gate {
                    introduced_in: v("1.30"),
                    ..Gate::default()
                },
                ty: "string".parse().unwrap(),
                ..FieldGate::default()
            },
        );
        let ty = TypeGate {
            gate: Gate {
                introduced_in: v("1.28"),
                ..Gate::default()
            },
            fields,
            ..TypeGate::default()
        };
        let json = serde_json::to_value(&ty).unwrap();
        assert_eq!(json["removed_in"], serde_json::Value::Null);
        assert_eq!(
            json["fields"]["trafficDistribution"]["introduced_in"],
            "1.30"
        );
        let back: TypeGate = serde_json::from_value(json).unwrap();
        assert_eq!(back, ty);
    }

    #[test]
    fn stage_in_force() {
        let mut gate = Gate::default();
        gate.stage.insert(v("1.30"), Stage::Alpha);
        gate.stage.insert(v("1.31"), Stage::Beta);
        gate.stage.insert(v("1.33"), Stage::Ga);
        assert_eq!(gate.stage_in(v("1.29")), None);
        assert_eq!(gate.stage_in(v("1.32")), Some(Stage::Beta));
        assert_eq!(gate.stage_in(v("1.36")), Some(Stage::Ga));
    }

    #[cfg(feature = "serde")]
    #[test]
    fn element_values_are_written_so_and_read_under_their_old_name_too() {
        let old = r#"{"introduced_in": "1.28", "removed_in": null, "type": "[]string",
            "item_values": {"IPv4": {"introduced_in": "1.34", "removed_in": null}}}"#;
        let field: FieldGate = serde_json::from_str(old).unwrap();
        assert_eq!(field.element_values["IPv4"].introduced_in, v("1.34"));
        let json = serde_json::to_value(&field).unwrap();
        assert!(json.get("item_values").is_none());
        assert_eq!(
            json["element_values"]["IPv4"]["introduced_in"],
            serde_json::json!("1.34")
        );
    }
}
