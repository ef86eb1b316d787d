//! Static gate tables: the lifecycle of every field and enum value of one
//! versioned type, as `static` data that generated code embeds (the derive
//! macro writes one [`TypeTable`] per type) and the runtime preflight reads
//! without parsing anything.

use crate::gates::Stage;
use crate::Version;

/// The gates of one type and of everything in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TypeTable {
    /// The type's name (`ServiceSpec`).
    pub name: &'static str,
    /// The type's own gate.
    pub gate: StaticGate,
    /// Its fields, sorted by wire name.
    pub fields: &'static [FieldEntry],
    /// Its enum values, sorted by wire value.
    pub values: &'static [ValueEntry],
}

impl TypeTable {
    /// The entry of the field with wire name `wire`.
    pub fn field(&self, wire: &str) -> Option<&'static FieldEntry> {
        self.fields.iter().find(|field| field.wire == wire)
    }

    /// The wire names of the fields present in `version`.
    pub fn fields_in(&self, version: Version) -> impl Iterator<Item = &'static str> {
        self.fields
            .iter()
            .filter(move |field| field.gate.is_present_in(version))
            .map(|field| field.wire)
    }
}

/// One field: its Rust name, its wire name and its gate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FieldEntry {
    /// The Rust field name (`traffic_distribution`).
    pub rust: &'static str,
    /// The name on the wire (`trafficDistribution`).
    pub wire: &'static str,
    pub gate: StaticGate,
    /// The previous wire name and the minor the current one starts in.
    pub renamed_from: Option<(&'static str, Version)>,
}

/// One enum value: its Rust variant name, its wire value and its gate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ValueEntry {
    pub rust: &'static str,
    pub wire: &'static str,
    pub gate: StaticGate,
}

/// A lifecycle as static data; the same keys as [`Gate`](crate::gates::Gate).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StaticGate {
    pub introduced_in: Version,
    /// The first minor after its last presence; `None` if present in the newest.
    pub removed_in: Option<Version>,
    /// The exact minors it is present in, only when presence has a gap.
    pub present_in: Option<&'static [Version]>,
    pub deprecated_in: Option<Version>,
    /// Its stage by the minor each stage starts in, ascending.
    pub stage: &'static [(Version, Stage)],
    pub feature_gate: Option<&'static str>,
    /// A reference such as a KEP URL.
    pub reference: Option<&'static str>,
}

impl StaticGate {
    /// True when the item is present in `version`.
    pub fn is_present_in(&self, version: Version) -> bool {
        crate::gate_admits(
            version,
            self.introduced_in,
            self.removed_in,
            self.present_in,
        )
    }

    /// True when the item is deprecated in `version`.
    pub fn is_deprecated_in(&self, version: Version) -> bool {
        self.deprecated_in.is_some_and(|since| version >= since)
    }

    /// The stage in force in `version`, if stages are known.
    pub fn stage_in(&self, version: Version) -> Option<Stage> {
        self.stage
            .iter()
            .take_while(|(since, _)| *since <= version)
            .last()
            .map(|(_, stage)| *stage)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const fn v(minor: u32) -> Version {
        Version::new(1, minor)
    }

    static TABLE: TypeTable = TypeTable {
        name: "ServiceSpec",
        gate: StaticGate {
            introduced_in: v(28),
            removed_in: None,
            present_in: None,
            deprecated_in: None,
            stage: &[],
            feature_gate: None,
            reference: None,
        },
        fields: &[FieldEntry {
            rust: "traffic_distribution",
            wire: "trafficDistribution",
            gate: StaticGate {
                introduced_in: v(30),
                removed_in: Some(v(35)),
                present_in: None,
                deprecated_in: Some(v(33)),
                stage: &[(v(30), Stage::Alpha), (v(31), Stage::Beta)],
                feature_gate: Some("ServiceTrafficDistribution"),
                reference: None,
            },
            renamed_from: None,
        }],
        values: &[],
    };

    #[test]
    fn lookups() {
        let field = TABLE.field("trafficDistribution").unwrap();
        assert!(!field.gate.is_present_in(v(29)));
        assert!(field.gate.is_present_in(v(34)));
        assert!(!field.gate.is_present_in(v(35)));
        assert!(field.gate.is_deprecated_in(v(33)));
        assert_eq!(field.gate.stage_in(v(29)), None);
        assert_eq!(field.gate.stage_in(v(32)), Some(Stage::Beta));
        assert_eq!(TABLE.fields_in(v(29)).count(), 0);
        assert_eq!(
            TABLE.fields_in(v(30)).collect::<Vec<_>>(),
            ["trafficDistribution"]
        );
    }
}
