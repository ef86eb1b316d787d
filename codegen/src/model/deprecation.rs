//! Deprecation inferred from prose. Upstream specs often say a field is
//! deprecated only in its description; gates inferred this way are marked
//! `inferred` in gates.json. A description that lists its enum values may
//! say that one *value* is deprecated; [`prose_deprecations`] tells the two
//! apart.

use std::collections::BTreeSet;

/// True when a description says that the thing it describes is deprecated.
///
/// It looks for the phrasings upstream specs use (`Deprecated:`,
/// `Deprecated.`, `(Deprecated)`, `DEPRECATED`, "this field is deprecated",
/// "is the deprecated field", "now is deprecated") and ignores mentions of
/// some other deprecated thing ("the annotation is deprecated").
pub fn description_says_deprecated(description: &str) -> bool {
    const MARKERS: [&str; 4] = ["Deprecated:", "Deprecated.", "(Deprecated)", "DEPRECATED"];
    const PHRASES: [&str; 5] = [
        "this field is deprecated",
        "this field was deprecated",
        "this field has been deprecated",
        "is the deprecated field",
        "now is deprecated",
    ];
    if MARKERS.iter().any(|marker| description.contains(marker)) {
        return true;
    }
    let lower = description.to_ascii_lowercase();
    PHRASES.iter().any(|phrase| lower.contains(phrase))
}

/// What a description says is deprecated: the thing it describes, and which
/// of its enum values.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ProseDeprecations {
    /// The field (or type) itself is deprecated.
    pub itself: bool,
    /// These enum values are deprecated.
    pub values: BTreeSet<String>,
}

/// Splits `description` into the parts about each of the enum `values` and
/// the rest, and reads deprecation prose in each part for what it is about.
///
/// The parts about a value are the forms Kubernetes uses:
/// - a line of the generated list, `` - `"Unknown"` means … Deprecated: … ``;
/// - an inline bullet, `* FQDN: Represents … (Deprecated) …`, up to the next
///   bullet or paragraph;
/// - a value named in a sentence, `… and Recycle (deprecated).`
///
/// and the one operators' CRDs use, a value in backticks before a colon,
/// `` `LegacyRC2`: Deprecated. ``, up to the next such part or paragraph.
///
/// Only names among `values` (the enum's values in any minor) count, so a
/// bullet such as `* Note: this field is deprecated` stays the field's.
pub fn prose_deprecations(description: &str, values: &BTreeSet<String>) -> ProseDeprecations {
    let mut found = ProseDeprecations::default();
    let mut rest = String::with_capacity(description.len());
    let mut kept_from = 0;
    for part in value_parts(description, values) {
        rest.push_str(&description[kept_from..part.start]);
        kept_from = part.end;
        if description_says_deprecated(&description[part.body..part.end]) {
            found.values.insert(part.value.to_owned());
        }
    }
    rest.push_str(&description[kept_from..]);
    for value in values {
        for named in [
            format!("`{value}` (deprecated)"),
            format!("{value} (deprecated)"),
        ] {
            let lower = rest.to_ascii_lowercase();
            let spelt = named.trim_end_matches(" (deprecated)");
            let Some(at) = lower
                .match_indices(&named.to_ascii_lowercase())
                .find_map(|(at, _)| {
                    let before = rest[..at].chars().next_back();
                    (before.is_none_or(|c| !c.is_alphanumeric()) && rest[at..].starts_with(spelt))
                        .then_some(at)
                })
            else {
                continue;
            };
            found.values.insert(value.clone());
            rest.replace_range(at..at + named.len(), value);
            break;
        }
    }
    found.itself = description_says_deprecated(&rest);
    found
}

/// One part of a description about one enum value: `start..end` in the
/// description, its prose from `body`.
struct ValuePart<'a> {
    value: &'a str,
    start: usize,
    body: usize,
    end: usize,
}

/// The parts of `description` about one of `values`, in order, each up to
/// the next part or paragraph.
fn value_parts<'a>(description: &'a str, values: &BTreeSet<String>) -> Vec<ValuePart<'a>> {
    let mut markers: Vec<(usize, usize, &str)> = Vec::new();
    for (at, opening) in description.match_indices("- `\"") {
        let name_start = at + opening.len();
        if let Some(len) = description[name_start..].find("\"`") {
            markers.push((
                at,
                name_start + len + 2,
                &description[name_start..name_start + len],
            ));
        }
    }
    for (at, opening) in description.match_indices("* ") {
        if description[..at]
            .chars()
            .next_back()
            .is_some_and(|c| !c.is_whitespace())
        {
            continue;
        }
        let name_start = at + opening.len();
        if let Some(len) = description[name_start..].find(':') {
            markers.push((
                at,
                name_start + len + 1,
                &description[name_start..name_start + len],
            ));
        }
    }
    for value in values {
        let named = format!("`{value}`:");
        for (at, _) in description.match_indices(&named) {
            markers.push((
                at,
                at + named.len(),
                &description[at + 1..at + 1 + value.len()],
            ));
        }
    }
    markers.retain(|(_, _, name)| values.contains(*name));
    markers.sort_unstable();
    // A marker inside another's name (a value spelt with `* ` in it) is
    // part of that name, not a part of its own.
    let mut name_ends = 0;
    markers.retain(|&(start, body, _)| {
        let own = start >= name_ends;
        if own {
            name_ends = body;
        }
        own
    });
    let mut parts = Vec::with_capacity(markers.len());
    for (index, &(start, body, value)) in markers.iter().enumerate() {
        let next = markers.get(index + 1).map_or(description.len(), |m| m.0);
        let paragraph = description[body..]
            .find("\n\n")
            .map_or(description.len(), |len| body + len);
        parts.push(ValuePart {
            value,
            start,
            body,
            end: next.min(paragraph),
        });
    }
    parts
}

#[cfg(test)]
mod tests {
    use super::description_says_deprecated as says;
    use super::prose_deprecations;
    use std::collections::BTreeSet;

    #[test]
    fn upstream_phrasings() {
        assert!(says("Deprecated: selfLink is a legacy read-only field"));
        assert!(says(
            "Holds the volume. Deprecated: AzureDisk is deprecated."
        ));
        assert!(says("Deprecated. Not all kubelets will set this field"));
        assert!(says(
            "Name of the thing. (Deprecated) The controller only sets it"
        ));
        assert!(says(
            "deprecatedCount is the deprecated field assuring compatibility"
        ));
        assert!(says("This field is deprecated, and will be removed"));
        assert!(says("DEPRECATED - use foo instead"));
        assert!(says("the field is never populated, and now is deprecated."));
    }

    #[test]
    fn mentions_of_other_deprecated_things_do_not_count() {
        assert!(!says(
            "The annotation is officially deprecated, for compatibility reasons"
        ));
        assert!(!says("deprecationWarning overrides the default warning"));
        assert!(!says("Recycle (deprecated). Recycle must be supported"));
        assert!(!says("A plain description."));
        assert!(!says(
            "deprecated indicates this version of the resource API is deprecated."
        ));
    }

    fn values(names: &[&str]) -> BTreeSet<String> {
        names.iter().map(|name| name.to_string()).collect()
    }

    fn deprecated(description: &str, names: &[&str]) -> (bool, Vec<String>) {
        let found = prose_deprecations(description, &values(names));
        (found.itself, found.values.into_iter().collect())
    }

    #[test]
    fn a_line_of_the_enum_list_deprecates_its_value() {
        // PodStatus.phase, 1.34.
        let phase = "The phase of a Pod.\n\nPossible enum values:\n - `\"Failed\"` means that all containers terminated.\n - `\"Unknown\"` means that the state could not be obtained. Deprecated: It isn't being set since 2015 (74da3b1)\n - `\"Running\"` means bound.";
        let names = ["Failed", "Running", "Unknown"];
        assert_eq!(deprecated(phase, &names), (false, vec!["Unknown".into()]));
        // Without the enum's values the prose is the field's, as before.
        assert_eq!(deprecated(phase, &[]), (true, vec![]));
    }

    #[test]
    fn an_inline_bullet_deprecates_its_value_up_to_the_paragraph() {
        // EndpointSlice.addressType, 1.33 (no enum list) and 1.34 (one after).
        let bullets = "addressType specifies the type. The following address types are currently supported: * IPv4: Represents an IPv4 Address. * IPv6: Represents an IPv6 Address. * FQDN: Represents a Fully Qualified Domain Name. (Deprecated) The EndpointSlice controller only generates slices of addressType \"IPv4\" and \"IPv6\".";
        let names = ["FQDN", "IPv4", "IPv6"];
        assert_eq!(deprecated(bullets, &names), (false, vec!["FQDN".into()]));
        let listed = format!("{bullets}\n\nPossible enum values:\n - `\"FQDN\"` represents a FQDN.\n - `\"IPv4\"` represents an IPv4 Address.");
        assert_eq!(deprecated(&listed, &names), (false, vec!["FQDN".into()]));
        // A paragraph after the bullets is the field's again.
        let after = format!("{bullets}\n\nDeprecated: use addressTypes.");
        assert_eq!(deprecated(&after, &names), (true, vec!["FQDN".into()]));
    }

    #[test]
    fn a_value_named_deprecated_in_a_sentence() {
        // PersistentVolumeSpec.persistentVolumeReclaimPolicy.
        let policy = "Valid options are Retain (default), Delete (default for dynamic), and Recycle (deprecated). Recycle must be supported by the plugin.";
        let names = ["Delete", "Recycle", "Retain"];
        assert_eq!(deprecated(policy, &names), (false, vec!["Recycle".into()]));
        // Only a whole name counts: "cle" is not "Recycle".
        assert_eq!(deprecated(policy, &["cle"]), (false, vec![]));
        assert_eq!(
            deprecated("Use Foo (Deprecated) or Bar.", &["Foo", "Bar"]),
            (false, vec!["Foo".into()])
        );
    }

    #[test]
    fn a_value_in_backticks_before_a_colon_is_that_values_part() {
        // The form operators' CRDs use for each value of an enum.
        let modes = "Mode of the release channel.\n\n`Stable`: the supported builds.\n`LegacyRC2`: Deprecated. Kept for old clusters.\n`Canary`: nightly builds.";
        let names = ["Canary", "LegacyRC2", "Stable"];
        assert_eq!(deprecated(modes, &names), (false, vec!["LegacyRC2".into()]));
        let inline = "One of `Stable`: supported, `LegacyRC2`: Deprecated.";
        assert_eq!(
            deprecated(inline, &names),
            (false, vec!["LegacyRC2".into()])
        );
        // A value in backticks marked deprecated in a sentence.
        assert_eq!(
            deprecated("Use `Stable` or `LegacyRC2` (deprecated).", &names),
            (false, vec!["LegacyRC2".into()])
        );
        // The field's own deprecation after the values is still the field's.
        let field = format!("{modes}\n\nDeprecated: use channel instead.");
        assert_eq!(deprecated(&field, &names), (true, vec!["LegacyRC2".into()]));
    }

    #[test]
    fn values_spelt_like_markers_do_not_overlap() {
        let odd = ["a * b", "b", "- `\"c\"`"];
        for text in [
            "* a * b: x (Deprecated)",
            "* a * b: - `\"c\"` x",
            "- `\"- `\"c\"`\"` Deprecated: y",
        ] {
            let _ = deprecated(text, &odd);
        }
        assert_eq!(
            deprecated("* a * b: old (Deprecated)", &odd),
            (false, vec!["a * b".into()])
        );
    }

    #[test]
    fn field_prose_next_to_a_value_list_stays_the_fields() {
        // NodeStatus.phase, 1.34: the field is deprecated, its values are not.
        let phase = "NodePhase is the observed phase. The field is never populated, and now is deprecated.\n\nPossible enum values:\n - `\"Pending\"` means created.\n - `\"Running\"` means configured.";
        assert_eq!(deprecated(phase, &["Pending", "Running"]), (true, vec![]));
        // A bullet that names no value of the enum is the field's prose.
        assert_eq!(
            deprecated("Modes: * Note: this field is deprecated.", &["A"]),
            (true, vec![])
        );
    }
}
