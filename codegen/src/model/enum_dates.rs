//! Honest enum dates. A spec may start listing a field's enum values long
//! after the field exists (Kubernetes lists them from 1.34): the values were
//! accepted before, only not written down. So the first listing does not
//! make them new. For such a field:
//!
//! - `values_known_from` is the first minor whose spec lists the values;
//! - the values of that listing are carried back to the contiguous earlier
//!   minors in which the field has the same type and the same description
//!   (the generated `Possible enum values:` list left out), their
//!   `introduced_in` marked inferred. Where the description differs, the
//!   list may differ too, so those minors (and any before them) stay open.

use super::lifecycle::{FieldLifecycle, Lifecycle, TypeLifecycle};
use super::schema::MinorModel;
use std::collections::BTreeMap;
use vergate_core::gates::Inferred;
use vergate_core::Version;

/// The description without the generated list of enum values.
fn own_prose(description: &str) -> &str {
    description
        .split("\n\nPossible enum values:")
        .next()
        .unwrap_or(description)
}

/// Sets `values_known_from` and carries the first listing back, for every
/// field of `types` older than its enum list (see the module's doc).
pub fn date_enum_values(
    types: &mut BTreeMap<String, TypeLifecycle>,
    by_version: &BTreeMap<Version, MinorModel>,
) {
    for (type_name, ty) in types.iter_mut() {
        for (field_name, field) in ty.fields.iter_mut() {
            let description = |version: Version| {
                by_version
                    .get(&version)?
                    .definitions
                    .get(type_name)?
                    .object()?
                    .properties
                    .get(field_name)
                    .map(|property| own_prose(property.description.as_deref().unwrap_or("")))
            };
            date_field(field, description);
        }
    }
}

/// Dates one field's values; `description` gives its prose in a minor.
fn date_field<'d>(field: &mut FieldLifecycle, description: impl Fn(Version) -> Option<&'d str>) {
    let first_listed = field
        .values
        .values()
        .chain(field.element_values.values())
        .filter_map(Lifecycle::introduced_in)
        .min();
    let Some(listed) = first_listed else {
        return;
    };
    let earlier: Vec<Version> = field
        .lifecycle
        .presence
        .iter()
        .filter(|version| *version < listed)
        .collect();
    if earlier.is_empty() {
        return;
    }
    field.values_known_from = Some(listed);
    let (Some(prose), Some(ty)) = (description(listed), field.type_by_minor.get(&listed)) else {
        return;
    };
    let same: Vec<Version> = earlier
        .iter()
        .rev()
        .take_while(|version| {
            description(**version) == Some(prose) && field.type_by_minor.get(version) == Some(ty)
        })
        .copied()
        .collect();
    if same.is_empty() {
        return;
    }
    for values in [&mut field.values, &mut field.element_values] {
        for value in values.values_mut() {
            if value.is_present_in(listed) {
                for version in &same {
                    value.presence.insert(*version);
                }
                value.inferred.insert(Inferred::IntroducedIn);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn v(minor: u32) -> Version {
        Version::new(1, minor)
    }

    /// A string field present from 1.28, its values listed from 1.34.
    fn field(values: &[(&str, u32)]) -> FieldLifecycle {
        let mut field = FieldLifecycle::default();
        for minor in 28..=35 {
            field.lifecycle.presence.insert(v(minor));
            field
                .type_by_minor
                .insert(v(minor), "string".parse().unwrap());
        }
        for (value, from) in values {
            let lifecycle = field.values.entry((*value).to_owned()).or_default();
            for minor in *from..=35 {
                lifecycle.presence.insert(v(minor));
            }
        }
        field
    }

    #[test]
    fn the_first_listing_goes_back_while_the_description_is_the_same() {
        let mut pull = field(&[("Always", 34), ("Never", 34), ("Later", 35)]);
        let prose: BTreeMap<Version, &str> = (28..=35)
            .map(|minor| {
                (
                    v(minor),
                    if minor < 31 {
                        "old words"
                    } else {
                        "One of Always, Never."
                    },
                )
            })
            .collect();
        date_field(&mut pull, |version| prose.get(&version).copied());
        assert_eq!(pull.values_known_from, Some(v(34)));
        let always = &pull.values["Always"];
        assert_eq!(always.introduced_in(), Some(v(31)));
        assert!(always.inferred.contains(&Inferred::IntroducedIn));
        // A value that arrives after the first listing keeps its own date.
        let later = &pull.values["Later"];
        assert_eq!(later.introduced_in(), Some(v(35)));
        assert!(later.inferred.is_empty());
    }

    #[test]
    fn a_changed_description_leaves_earlier_minors_open() {
        let mut policy = field(&[("A", 34)]);
        date_field(&mut policy, |version| {
            Some(if version < v(34) { "before" } else { "after" })
        });
        assert_eq!(policy.values_known_from, Some(v(34)));
        assert_eq!(policy.values["A"].introduced_in(), Some(v(34)));
        assert!(policy.values["A"].inferred.is_empty());
    }

    #[test]
    fn a_field_as_old_as_its_list_is_left_alone() {
        let mut listed = field(&[("A", 28)]);
        date_field(&mut listed, |_| Some("same"));
        assert_eq!(listed.values_known_from, None);
        assert!(listed.values["A"].inferred.is_empty());
    }
}
