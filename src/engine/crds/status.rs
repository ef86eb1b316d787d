//! What the `status` subresource of a served version (read on its schema
//! tree, `cel::schema::ServedSchema::status_reset`) means for findings:
//! the API server resets a custom resource's `status` on create there
//! (apiextensions' strategy drops it before validating), so nothing
//! under it is refused then, but what the request's decoding refuses
//! (an unknown field, with `fieldValidation=Strict`).

/// True when a finding at `path` lies under a custom resource's `status`
/// that the API server resets on create, and is none its decoding makes
/// (an unknown field).
pub(crate) fn reset_on_create(path: &str, unknown_field: bool) -> bool {
    let under = path == "status" || path.starts_with("status.") || path.starts_with("status[");
    under && !unknown_field
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn findings_under_status_are_dropped_but_unknown_fields() {
        assert!(reset_on_create("status", false));
        assert!(reset_on_create("status.addresses[0].type", false));
        assert!(!reset_on_create("status.colour", true));
        assert!(!reset_on_create("statuses", false));
        assert!(!reset_on_create("spec.status", false));
    }
}
