//! The gate tables of one API, ready for lookups: each type's gates plus
//! the kind lookups preflight, upgrade and diff need.
//!
//! A type is read when first asked for where the index allows it: the
//! embedded Kubernetes index ([`crate::embedded`]) hands over each type's
//! lines unread, so a check that touches forty kinds reads their types,
//! not all 960 (reading them all was most of the CLI's start-up).

use crate::gates::{
    Dialect, FeatureGateHistory, FeatureGateState, FieldGate, Gate, GatesIndex, GroupVersionKind,
    RetiredKind, TypeGate,
};
use crate::Version;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// An API's type gates and its kind lookups.
#[derive(Debug)]
pub struct GateTables {
    api: String,
    /// What the runtime checks depends on (gates.json's `dialect`).
    dialect: Dialect,
    versions: Vec<Version>,
    deprecated_versions: BTreeMap<Version, String>,
    /// Each feature gate's published history (gates.json's `feature_gates`).
    feature_gates: BTreeMap<String, FeatureGateHistory>,
    /// Kinds the API served before its first minor (gates.json's
    /// `retired_kinds`).
    retired_kinds: Vec<RetiredKind>,
    /// The groups the API itself serves or served: of its own kinds in any
    /// minor and of its retired kinds. Custom resources added from CRDs
    /// ([`GateTables::insert_custom`]) are not in it.
    own_groups: HashSet<String, Hasher>,
    /// The types of custom resources added from CRDs.
    custom: HashSet<String, Hasher>,
    types: HashMap<String, Slot, Hasher>,
    /// `kind` → every `(gvk, type)` serving it (a kind is served by a few
    /// group/versions at most, so this answers `(group, version, kind)`
    /// lookups too).
    by_kind: HashMap<String, Vec<(GroupVersionKind, String)>, Hasher>,
    /// True when a type of the index (not a custom one) has CEL validation
    /// rules in some minor: a regen of CRDs ([`GateTables::has_rules`]).
    has_rules: bool,
}

/// True when `ty` or one of its fields has CEL rules in some minor.
fn has_rules(ty: &TypeGate) -> bool {
    let any = |constraints: &crate::gates::Constraints,
               history: &BTreeMap<Version, crate::gates::Constraints>| {
        !constraints.rules.is_empty() || history.values().any(|c| !c.rules.is_empty())
    };
    any(&ty.constraints, &ty.constraints_history)
        || ty
            .fields
            .values()
            .any(|field| any(&field.constraints, &field.constraints_history))
}

/// The tables' hasher: a check looks a type up by name for every object it
/// walks, and the keys are the index's own names.
type Hasher = foldhash::fast::RandomState;

/// One type's gate: read already, or its text and the reader that turns it
/// into the gate the first time it is asked for.
/// Boxed: a slot is a few words, so the table of 960 is small to build.
#[derive(Debug)]
enum Slot {
    Read(Box<Typed>),
    Unread {
        text: &'static str,
        read: fn(&'static str) -> TypeGate,
        cell: OnceLock<Box<Typed>>,
    },
}

impl Slot {
    fn get(&self) -> &Typed {
        match self {
            Slot::Read(ty) => ty,
            Slot::Unread { text, read, cell } => {
                if let Some(typed) = cell.get() {
                    return typed;
                }
                // Read outside the cell: a thread asking for a type another
                // is reading reads it too rather than wait (at the start of
                // a check, every thread needs the same few types at once);
                // the first reading stored stands.
                let typed = Typed::read(read(text));
                cell.get_or_init(|| typed)
            }
        }
    }
}

/// A type's fields as a check looks for them: every key of every object
/// it walks by name (hashed, where a B-tree's string comparisons cost
/// more), and the few fields required in some minor (most types have
/// none), so that an object is checked for those, not for every field.
#[derive(Debug)]
pub struct FieldIndex<'t> {
    pub by_name: HashMap<&'t str, IndexedField<'t>, Hasher>,
    /// In name order.
    pub required: Vec<RequiredField<'t>>,
    /// True when the type's own value has constraints in some minor.
    pub constrained: bool,
}

/// A field as a check looks it up.
#[derive(Clone, Copy, Debug)]
pub struct IndexedField<'t> {
    pub gate: &'t FieldGate,
    /// True when the field has value constraints in some minor (most have
    /// none, and a check need not look at them field by field).
    pub constrained: bool,
    /// The minor a field with a plain gate arrived in: one never removed,
    /// deprecated or staged (most fields). A check answers such a field
    /// from here, in the table's own slot, without reading its gate: a
    /// field gate is several cache lines, and reading them for every field
    /// of every document cost more time than the comparisons themselves.
    pub plain_since: Option<Version>,
    /// True when the field has no enum values (of its own or of its
    /// elements) and keeps one type in every minor: the walk reads its
    /// type alone.
    pub plain_value: bool,
}

impl<'t> IndexedField<'t> {
    fn new(field: &'t FieldGate) -> IndexedField<'t> {
        let gate = &field.gate;
        let plain = gate.removed_in.is_none()
            && gate.present_in.is_none()
            && gate.deprecated_in.is_none()
            && gate.stage.is_empty();
        IndexedField {
            gate: field,
            constrained: field.is_constrained(),
            plain_since: plain.then_some(gate.introduced_in),
            plain_value: field.values.is_empty()
                && field.element_values.is_empty()
                && field.type_history.is_empty(),
        }
    }

    /// True when the field's gate is plain and admits `target`: present,
    /// not deprecated, no stage to be off.
    pub fn plainly_in(&self, target: Version) -> bool {
        self.plain_since.is_some_and(|since| target >= since)
    }
}

/// A field required in some minor, as a check looks for it.
#[derive(Clone, Copy, Debug)]
pub struct RequiredField<'t> {
    pub name: &'t str,
    pub gate: &'t FieldGate,
    /// The first and the last minor the field is required in, when it is
    /// required in every minor between them (of one major), as most are:
    /// answered without reading the gate's list.
    span: Option<(Version, Version)>,
}

impl<'t> RequiredField<'t> {
    fn new(name: &'t str, gate: &'t FieldGate) -> RequiredField<'t> {
        let minors = &gate.required_in;
        let span = match (minors.first(), minors.last()) {
            (Some(&first), Some(&last))
                if first.major() == last.major()
                    && minors.windows(2).all(|pair| {
                        pair[0].major() == pair[1].major()
                            && pair[0].minor().checked_add(1) == Some(pair[1].minor())
                    }) =>
            {
                Some((first, last))
            }
            _ => None,
        };
        RequiredField { name, gate, span }
    }

    /// True when the field is required in `target`.
    pub fn is_required_in(&self, target: Version) -> bool {
        match self.span {
            Some((first, last)) => first <= target && target <= last,
            None => self.gate.is_required_in(target),
        }
    }
}

self_cell::self_cell!(
    /// A type's gate and its [`FieldIndex`].
    struct Typed {
        owner: TypeGate,
        #[covariant]
        dependent: FieldIndex,
    }
    impl {Debug}
);

impl Typed {
    fn read(gate: TypeGate) -> Box<Typed> {
        Box::new(Typed::new(gate, |gate| FieldIndex {
            by_name: gate
                .fields
                .iter()
                .map(|(name, field)| (name.as_str(), IndexedField::new(field)))
                .collect(),
            required: gate
                .fields
                .iter()
                .filter(|(_, field)| !field.required_in.is_empty())
                .map(|(name, field)| RequiredField::new(name, field))
                .collect(),
            constrained: gate.is_constrained(),
        }))
    }

    fn gate(&self) -> &TypeGate {
        self.borrow_owner()
    }
}

/// A type as the document walker looks it up.
#[derive(Clone, Copy, Debug)]
pub struct TypeEntry<'t> {
    /// Its definition name, as the tables hold it.
    pub name: &'t str,
    pub gate: &'t TypeGate,
    /// Its fields as a check looks for them.
    pub fields: &'t FieldIndex<'t>,
}

/// A type given to [`GateTables::lazy`]: its name, the kinds it is served
/// as, and its text with the function that reads it.
pub struct UnreadType {
    pub name: String,
    pub kinds: Vec<GroupVersionKind>,
    pub text: &'static str,
    pub read: fn(&'static str) -> TypeGate,
}

impl GateTables {
    /// Reads `gates.json`, or `<dir>/gates.json` when `path` is a directory
    /// (a generated API tree such as `generated/kubernetes`).
    pub fn load(path: &Path) -> Result<GateTables, TablesError> {
        let file = if path.is_dir() {
            path.join("gates.json")
        } else {
            path.to_owned()
        };
        let text = std::fs::read(&file).map_err(|source| TablesError::Io {
            path: file.clone(),
            source,
        })?;
        let index: GatesIndex =
            serde_json::from_slice(&text).map_err(|source| TablesError::Json {
                path: file.clone(),
                source,
            })?;
        if index.versions.is_empty() {
            return Err(TablesError::NoVersions { path: file });
        }
        Ok(GateTables::from_index(index))
    }

    /// Builds the lookups over an index read from anywhere (gates.json, or
    /// tables a build step produced).
    pub fn from_index(index: GatesIndex) -> GateTables {
        let mut tables = GateTables::empty(index.api, index.versions, index.deprecated_versions)
            .with_dialect(index.dialect)
            .with_feature_gates(index.feature_gates)
            .with_retired_kinds(index.retired_kinds);
        tables.has_rules = index.types.values().any(has_rules);
        for (name, ty) in index.types {
            tables.insert(name, ty);
        }
        tables
    }

    /// True when a type of the API's own index has CEL validation rules
    /// (`constraints.rules`) in some minor: `check` then runs them. The
    /// embedded Kubernetes index has none (it is read lazily and not
    /// scanned), nor do custom types added from CRDs count (`check --crd`
    /// runs their rules from the CRDs themselves).
    pub fn has_rules(&self) -> bool {
        self.has_rules
    }

    /// The tables of an API of `dialect`.
    pub fn with_dialect(mut self, dialect: Dialect) -> GateTables {
        self.dialect = dialect;
        self
    }

    /// The API's dialect: what the runtime checks depends on it (never on
    /// the API's name).
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// The tables with the API's feature-gate table.
    pub fn with_feature_gates(
        mut self,
        feature_gates: BTreeMap<String, FeatureGateHistory>,
    ) -> GateTables {
        self.feature_gates = feature_gates;
        self
    }

    /// The tables with the kinds the API served before its first minor.
    pub fn with_retired_kinds(mut self, retired_kinds: Vec<RetiredKind>) -> GateTables {
        for retired in &retired_kinds {
            self.own_groups.insert(retired.kind.group.clone());
        }
        self.retired_kinds = retired_kinds;
        self
    }

    /// The kind of `(group, version, kind)` the API served before its first
    /// minor, if it did.
    pub fn retired_kind(&self, group: &str, version: &str, kind: &str) -> Option<&RetiredKind> {
        self.retired_kinds.iter().find(|retired| {
            retired.kind.group == group
                && retired.kind.version == version
                && retired.kind.kind == kind
        })
    }

    /// True when the API itself serves or served `group` (a custom
    /// resource's group added from a CRD is not the API's).
    pub fn is_own_group(&self, group: &str) -> bool {
        self.own_groups.contains(group)
    }

    /// Whether a cluster of `version` that sets no feature gates keeps the
    /// item of `gate` (see [`GatesIndex::enabled_by_default`]).
    pub fn enabled_by_default(&self, gate: &Gate, version: Version) -> bool {
        crate::gates::default_on(
            &self.feature_gates,
            gate.feature_gate.as_deref(),
            gate.stage_in(version),
            version,
        )
    }

    /// The state of feature gate `name` in `version`, where the table
    /// knows it.
    pub fn feature_gate_in(&self, name: &str, version: Version) -> Option<FeatureGateState> {
        self.feature_gates
            .get(name)
            .and_then(|history| crate::gates::gate_state_in(history, version))
    }

    /// Tables whose types are read when first asked for (see [`UnreadType`]).
    pub fn lazy(
        api: String,
        versions: Vec<Version>,
        deprecated_versions: BTreeMap<Version, String>,
        types: Vec<UnreadType>,
    ) -> GateTables {
        let mut tables = GateTables::empty(api, versions, deprecated_versions);
        tables.types.reserve(types.len());
        for ty in types {
            for gvk in &ty.kinds {
                tables.own_groups.insert(gvk.group.clone());
            }
            tables.index_kinds(&ty.name, &ty.kinds);
            let slot = Slot::Unread {
                text: ty.text,
                read: ty.read,
                cell: OnceLock::new(),
            };
            tables.types.insert(ty.name, slot);
        }
        tables
    }

    fn empty(
        api: String,
        versions: Vec<Version>,
        deprecated_versions: BTreeMap<Version, String>,
    ) -> GateTables {
        GateTables {
            api,
            dialect: Dialect::default(),
            versions,
            deprecated_versions,
            feature_gates: BTreeMap::new(),
            retired_kinds: Vec::new(),
            own_groups: HashSet::default(),
            custom: HashSet::default(),
            types: HashMap::default(),
            by_kind: HashMap::default(),
            has_rules: false,
        }
    }

    /// Adds (or replaces) the API's own type `name`; its kinds' groups are
    /// the API's.
    pub fn insert(&mut self, name: String, ty: TypeGate) {
        for gvk in &ty.kinds {
            self.own_groups.insert(gvk.group.clone());
        }
        self.insert_type(name, ty);
    }

    /// Adds (or replaces) the type `name` of a custom resource, as
    /// `vergate check --crd` does: its kinds are checked by it, but its
    /// group does not become the API's (other kinds of the group stay
    /// custom resources without a CRD).
    pub fn insert_custom(&mut self, name: String, ty: TypeGate) {
        self.custom.insert(name.clone());
        self.insert_type(name, ty);
    }

    /// True when `name` is a custom resource's type added from a CRD: its
    /// lifecycle is its CRD's, not the API's minors'.
    pub fn is_custom(&self, name: &str) -> bool {
        // Most checks have no CRD: no name hashed for every object walked.
        !self.custom.is_empty() && self.custom.contains(name)
    }

    fn insert_type(&mut self, name: String, ty: TypeGate) {
        if let Some(old) = self.types.remove(&name) {
            let old_kinds = old.get().gate().kinds.clone();
            for gvk in &old_kinds {
                if let Some(served) = self.by_kind.get_mut(&gvk.kind) {
                    served.retain(|(_, other)| *other != name);
                }
            }
        }
        self.index_kinds(&name, &ty.kinds);
        self.types.insert(name, Slot::Read(Typed::read(ty)));
    }

    fn index_kinds(&mut self, name: &str, kinds: &[GroupVersionKind]) {
        for gvk in kinds {
            self.by_kind
                .entry(gvk.kind.clone())
                .or_default()
                .push((gvk.clone(), name.to_owned()));
        }
    }

    /// True when the tables hold a type of this name.
    pub fn contains(&self, name: &str) -> bool {
        self.types.contains_key(name)
    }

    /// Every type with its name, in name order (each one read).
    pub fn types(&self) -> Vec<(&str, &TypeGate)> {
        let mut types: Vec<(&str, &TypeGate)> = self
            .types
            .iter()
            .map(|(name, slot)| (name.as_str(), slot.get().gate()))
            .collect();
        types.sort_unstable_by_key(|(name, _)| *name);
        types
    }

    /// Every `(group, version, kind)` some type is served as, by type name
    /// (a deterministic order, whatever the hash maps do).
    pub fn kinds(&self) -> Vec<&GroupVersionKind> {
        let mut buckets: Vec<(&String, &Vec<(GroupVersionKind, String)>)> =
            self.by_kind.iter().collect();
        buckets.sort_unstable_by_key(|(kind, _)| *kind);
        let mut served: Vec<(&str, &GroupVersionKind)> = buckets
            .into_iter()
            .flat_map(|(_, served)| served.iter().map(|(gvk, name)| (name.as_str(), gvk)))
            .collect();
        served.sort_by_key(|(name, _)| *name);
        served.into_iter().map(|(_, gvk)| gvk).collect()
    }

    /// The API's name.
    pub fn api(&self) -> &str {
        &self.api
    }

    /// The API's minors, ascending.
    pub fn versions(&self) -> &[Version] {
        &self.versions
    }

    /// The note of each minor the API deprecates (an end of support).
    pub fn deprecated_versions(&self) -> &BTreeMap<Version, String> {
        &self.deprecated_versions
    }

    /// True when `version` is one of the API's minors.
    pub fn has_version(&self, version: Version) -> bool {
        self.versions.binary_search(&version).is_ok()
    }

    /// The minors as `1.9, 1.10, …` for messages.
    pub fn versions_text(&self) -> String {
        let shown: Vec<String> = self.versions().iter().map(ToString::to_string).collect();
        shown.join(", ")
    }

    /// A type by definition name.
    pub fn ty(&self, name: &str) -> Option<&TypeGate> {
        self.types.get(name).map(|slot| slot.get().gate())
    }

    /// A type by definition name, with the name as the tables hold it.
    pub fn ty_entry(&self, name: &str) -> Option<TypeEntry<'_>> {
        self.types.get_key_value(name).map(|(name, slot)| {
            let typed = slot.get();
            TypeEntry {
                name,
                gate: typed.gate(),
                fields: typed.borrow_dependent(),
            }
        })
    }

    /// The types served as `(group, version, kind)`, in the order they
    /// were added.
    pub fn types_for_gvk<'t>(
        &'t self,
        group: &'t str,
        version: &'t str,
        kind: &str,
    ) -> impl Iterator<Item = &'t str> + 't {
        self.types_for_kind(kind)
            .iter()
            .filter(move |(gvk, _)| gvk.group == group && gvk.version == version)
            .map(|(_, name)| name.as_str())
    }

    /// Every `(gvk, type)` serving `kind`, in any group and version.
    pub fn types_for_kind(&self, kind: &str) -> &[(GroupVersionKind, String)] {
        self.by_kind.get(kind).map_or(&[], Vec::as_slice)
    }

    /// The best served replacement for `kind` in `version`: a group/version
    /// whose type is present in `version`, preferring `group`, then the most
    /// stable API version (`v1` over `v1beta3` over `v1alpha1`).
    pub fn served_kind(
        &self,
        group: &str,
        kind: &str,
        version: Version,
    ) -> Option<&GroupVersionKind> {
        self.types_for_kind(kind)
            .iter()
            .filter(|(_, name)| self.ty(name).is_some_and(|t| t.gate.is_present_in(version)))
            .max_by_key(|(gvk, _)| (gvk.group == group, api_version_rank(&gvk.version)))
            .map(|(gvk, _)| gvk)
    }
}

/// Orders Kubernetes-style API versions: `v1alpha1 < v1beta1 < v1 < v2alpha1`.
fn api_version_rank(version: &str) -> (u32, u32, u32) {
    let rest = version.strip_prefix('v').unwrap_or(version);
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let major = rest[..digits].parse().unwrap_or(0);
    let tail = &rest[digits..];
    let (stage, number) = if let Some(n) = tail.strip_prefix("alpha") {
        (0, n)
    } else if let Some(n) = tail.strip_prefix("beta") {
        (1, n)
    } else {
        (2, "")
    };
    (major, stage, number.parse().unwrap_or(0))
}

/// Why the gate tables cannot be read.
#[derive(Debug)]
pub enum TablesError {
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    Json {
        path: PathBuf,
        source: serde_json::Error,
    },
    NoVersions {
        path: PathBuf,
    },
}

impl fmt::Display for TablesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TablesError::Io { path, source } => write!(
                f,
                "{}: cannot read the gates index: {source}; point --api at a generated API directory (e.g. generated/demo) or run `cargo xtask regen`",
                path.display()
            ),
            TablesError::Json { path, source } => write!(
                f,
                "{}: not a gates index: {source}; regenerate it with `cargo xtask regen`",
                path.display()
            ),
            TablesError::NoVersions { path } => {
                write!(f, "{}: the gates index lists no versions", path.display())
            }
        }
    }
}

impl std::error::Error for TablesError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plain_gate_is_present_undeprecated_and_unstaged() {
        let v = |minor| Version::new(1, minor);
        let plain = Gate {
            introduced_in: v(30),
            ..Gate::default()
        };
        let gates = [
            plain.clone(),
            Gate {
                removed_in: Some(v(33)),
                ..plain.clone()
            },
            Gate {
                deprecated_in: Some(v(32)),
                ..plain.clone()
            },
            Gate {
                present_in: Some(vec![v(30), v(32)]),
                ..plain.clone()
            },
            Gate {
                stage: [(v(30), crate::gates::Stage::Beta)].into(),
                ..plain
            },
        ];
        for gate in gates {
            let field = FieldGate {
                gate,
                ..FieldGate::default()
            };
            let indexed = IndexedField::new(&field);
            for target in (26..40).map(v) {
                let gate = &field.gate;
                let plainly = gate.is_present_in(target)
                    && !gate.is_deprecated_in(target)
                    && gate.stage.is_empty();
                if indexed.plainly_in(target) {
                    assert!(plainly, "{gate:?} at {target}");
                }
            }
        }
        assert!(IndexedField::new(&FieldGate {
            gate: Gate {
                introduced_in: v(30),
                ..Gate::default()
            },
            ..FieldGate::default()
        })
        .plainly_in(v(30)));
    }

    #[test]
    fn a_required_span_answers_as_the_gates_list() {
        let v = |minor| Version::new(1, minor);
        for required_in in [
            vec![v(30), v(31), v(32)],
            vec![v(30), v(32)],
            vec![v(28)],
            vec![Version::new(1, 36), Version::new(2, 0)],
            vec![Version::new(1, u32::MAX), Version::new(1, 0)],
        ] {
            let gate = FieldGate {
                required_in,
                ..FieldGate::default()
            };
            let field = RequiredField::new("a", &gate);
            for target in (26..40).map(v).chain([Version::new(2, 0)]) {
                assert_eq!(
                    field.is_required_in(target),
                    gate.is_required_in(target),
                    "{:?} at {target}",
                    gate.required_in
                );
            }
        }
    }

    #[test]
    fn api_versions_rank_by_stability() {
        let mut versions = vec!["v1beta3", "v1", "v1alpha1", "v2beta1", "v1beta1"];
        versions.sort_by_key(|v| api_version_rank(v));
        assert_eq!(
            versions,
            ["v1alpha1", "v1beta1", "v1beta3", "v1", "v2beta1"]
        );
    }
}
