//! Security contexts (core `ValidateSecurityContext`,
//! `validatePodSpecSecurityContext`, `validateSeccompProfileField`): user
//! and group IDs in range, `privileged` with no privilege escalation, a
//! seccomp profile's path only for `Localhost`.

use super::super::field_error::{int_at, invalid_int, items_at, push, str_at};
use super::super::read::{get, line_of};
use super::super::{Broken, Scope, Table};
use crate::document::{Entry, Value};
use crate::walk::go_quoted;

/// The checks, by the definition of the object they read.
pub(in crate::preflight::go_validation) const CHECKS: Table = &[
    ("io.k8s.api.core.v1.SeccompProfile", seccomp_profile),
    ("io.k8s.api.core.v1.SecurityContext", container_context),
    ("io.k8s.api.core.v1.PodSecurityContext", pod_context),
];

/// `IsValidUserID` / `IsValidGroupID`: 0 to MaxInt32.
const ID_RANGE: std::ops::RangeInclusive<i64> = 0..=2_147_483_647;

/// Their message.
const ID_MESSAGE: &str = "must be between 0 and 2147483647, inclusive";

/// `localhostProfile` exactly when the type is `Localhost`.
fn seccomp_profile(_: &Scope, entries: &[Entry], line: u32, out: &mut Vec<Broken>) {
    let kind = str_at(entries, "type");
    let path = get(entries, "localhostProfile");
    if kind == Some("Localhost") {
        if path.is_none() {
            let message = "Required value: must be set when seccomp type is Localhost".to_owned();
            push(out, "localhostProfile".to_owned(), line, message);
        }
    } else if let Some(path) = path {
        // Go prints the profile struct as the invalid value.
        let message = format!(
            "Invalid value: {{\"Type\":{},\"LocalhostProfile\":{}}}: can only be set when seccomp type is Localhost",
            go_quoted(kind.unwrap_or_default()),
            go_quoted(path.as_str().unwrap_or_default())
        );
        push(out, "localhostProfile".to_owned(), path.line, message);
    }
}

/// Pushes the ID range error of `key`.
fn id_in_range(entries: &[Entry], key: &str, line: u32, out: &mut Vec<Broken>) {
    if let Some(id) = int_at(entries, key).filter(|id| !ID_RANGE.contains(id)) {
        let line = line_of(entries, key, line);
        push(out, key.to_owned(), line, invalid_int(id, ID_MESSAGE));
    }
}

/// A container's security context.
fn container_context(_: &Scope, entries: &[Entry], line: u32, out: &mut Vec<Broken>) {
    id_in_range(entries, "runAsUser", line, out);
    id_in_range(entries, "runAsGroup", line, out);
    let flag = |key| get(entries, key).map(|node| &node.value);
    if flag("allowPrivilegeEscalation") != Some(&Value::Bool(false)) {
        return;
    }
    if flag("privileged") == Some(&Value::Bool(true)) {
        let message = "Invalid value: {\"Privileged\":true,\"AllowPrivilegeEscalation\":false}: cannot set `allowPrivilegeEscalation` to false and `privileged` to true".to_owned();
        push(out, String::new(), line, message);
    }
    let adds = get(entries, "capabilities")
        .and_then(|node| node.as_map())
        .map(|caps| items_at(caps, "add"))
        .unwrap_or_default();
    for add in adds {
        if add.as_str() == Some("CAP_SYS_ADMIN") {
            let message = "Invalid value: {\"AllowPrivilegeEscalation\":false}: cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN".to_owned();
            push(out, String::new(), line, message);
        }
    }
}

/// A pod's security context: its IDs.
fn pod_context(_: &Scope, entries: &[Entry], line: u32, out: &mut Vec<Broken>) {
    for key in ["runAsUser", "runAsGroup", "fsGroup"] {
        id_in_range(entries, key, line, out);
    }
    for (index, group) in items_at(entries, "supplementalGroups").iter().enumerate() {
        if let Value::Int(id) = group.value {
            if !ID_RANGE.contains(&id) {
                let last = format!("supplementalGroups[{index}]");
                push(out, last, group.line, invalid_int(id, ID_MESSAGE));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::tests::messages;

    #[test]
    fn security_rules() {
        let s = "io.k8s.api.core.v1.SeccompProfile";
        assert_eq!(
            messages(s, "type: Localhost\n"),
            ["localhostProfile@1: Required value: must be set when seccomp type is Localhost"]
        );
        assert_eq!(
            messages(s, "type: RuntimeDefault\nlocalhostProfile: x.json\n"),
            ["localhostProfile@2: Invalid value: {\"Type\":\"RuntimeDefault\",\"LocalhostProfile\":\"x.json\"}: can only be set when seccomp type is Localhost"]
        );
        assert_eq!(
            messages("io.k8s.api.core.v1.PodSecurityContext", "runAsUser: -1\n"),
            ["runAsUser@1: Invalid value: -1: must be between 0 and 2147483647, inclusive"]
        );
        let c = "io.k8s.api.core.v1.SecurityContext";
        assert_eq!(
            messages(c, "privileged: true\nallowPrivilegeEscalation: false\n").len(),
            1
        );
        assert!(messages(c, "privileged: true\n").is_empty());
    }
}
