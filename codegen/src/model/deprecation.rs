//! Deprecation inferred from prose. Upstream specs often say a field is
//! deprecated only in its description; gates inferred this way are marked
//! `inferred` in gates.json.

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

#[cfg(test)]
mod tests {
    use super::description_says_deprecated as says;

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
}
