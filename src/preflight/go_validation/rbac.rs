//! RBAC's checks (k8s.io/kubernetes `pkg/apis/rbac/validation`): a rule's
//! verbs, API groups and resources or non-resource URLs, a binding's
//! `roleRef` and subjects, a ClusterRole's aggregation selectors. The same
//! in 1.35 and 1.36.

use super::read::{entries, get, items, line_of, text, Findings, Path};
use super::selector::label_selector;
use super::{Broken, Scope, Table};
use crate::document::{Entry, Node};
use crate::preflight::names;

/// The checks, by the definition of the object they read.
pub(super) const CHECKS: Table = &[
    ("io.k8s.api.rbac.v1.Role", role),
    ("io.k8s.api.rbac.v1.ClusterRole", cluster_role),
    ("io.k8s.api.rbac.v1.RoleBinding", role_binding),
    (
        "io.k8s.api.rbac.v1.ClusterRoleBinding",
        cluster_role_binding,
    ),
];

const GROUP: &str = "rbac.authorization.k8s.io";

/// `ValidateRole`.
fn role(_: &Scope, entries: &[Entry], _: u32, out: &mut Vec<Broken>) {
    rules(entries, true, &mut Findings { out });
}

/// `ValidateClusterRole`: its rules, and an `aggregationRule` names at
/// least one valid selector.
fn cluster_role(_: &Scope, object: &[Entry], _: u32, out: &mut Vec<Broken>) {
    let found = &mut Findings { out };
    rules(object, false, found);
    let Some(aggregation) = get(object, "aggregationRule") else {
        return;
    };
    let root = Path::Root;
    let rule = root.key("aggregationRule");
    let selectors_path = rule.key("clusterRoleSelectors");
    let aggregation = entries(Some(aggregation));
    let selectors = items(get(aggregation, "clusterRoleSelectors"));
    let line = line_of(object, "aggregationRule", 0);
    if selectors.is_empty() {
        found.required(
            selectors_path,
            line,
            "at least one clusterRoleSelector required if aggregationRule is non-nil",
        );
    }
    for (index, selector) in selectors.iter().enumerate() {
        let at = selectors_path.index(index);
        // `LabelSelectorAsSelector` fails where the validation does.
        if label_selector(selector, at, selector.line, found) {
            found.invalid(at, selector.line, "null", "invalid label selector.");
        }
    }
}

/// `ValidatePolicyRule` of each rule (`namespaced`: a Role's).
fn rules(object: &[Entry], namespaced: bool, found: &mut Findings<'_>) {
    let root = Path::Root;
    let rules_path = root.key("rules");
    for (index, rule) in items(get(object, "rules")).iter().enumerate() {
        let at = rules_path.index(index);
        let fields = entries(Some(rule));
        let line = rule.line;
        let list = |key| items(get(fields, key));
        if list("verbs").is_empty() {
            let line = line_of(fields, "verbs", line);
            found.required(
                at.key("verbs"),
                line,
                "verbs must contain at least one value",
            );
        }
        let urls = list("nonResourceURLs");
        if !urls.is_empty() {
            let line = line_of(fields, "nonResourceURLs", line);
            let shown = super::read::shown(get(fields, "nonResourceURLs"));
            if namespaced {
                found.invalid(
                    at.key("nonResourceURLs"),
                    line,
                    &shown,
                    "namespaced rules cannot apply to non-resource URLs",
                );
            }
            let resourceful = ["apiGroups", "resources", "resourceNames"]
                .iter()
                .any(|key| !list(key).is_empty());
            if resourceful {
                found.invalid(
                    at.key("nonResourceURLs"),
                    line,
                    &shown,
                    "rules cannot apply to both regular resources and non-resource URLs",
                );
            }
            continue;
        }
        if list("apiGroups").is_empty() {
            let line = line_of(fields, "apiGroups", line);
            found.required(
                at.key("apiGroups"),
                line,
                "resource rules must supply at least one api group",
            );
        }
        if list("resources").is_empty() {
            let line = line_of(fields, "resources", line);
            found.required(
                at.key("resources"),
                line,
                "resource rules must supply at least one resource",
            );
        }
    }
}

/// `ValidateRoleBinding`.
fn role_binding(_: &Scope, object: &[Entry], line: u32, out: &mut Vec<Broken>) {
    binding(object, line, true, &mut Findings { out });
}

/// `ValidateClusterRoleBinding`.
fn cluster_role_binding(_: &Scope, object: &[Entry], line: u32, out: &mut Vec<Broken>) {
    binding(object, line, false, &mut Findings { out });
}

/// A binding's `roleRef` and subjects (`namespaced`: a RoleBinding's).
fn binding(object: &[Entry], line: u32, namespaced: bool, found: &mut Findings<'_>) {
    let root = Path::Root;
    let role_ref = root.key("roleRef");
    let reference = entries(get(object, "roleRef"));
    let ref_line = line_of(object, "roleRef", line);
    let at = |key| line_of(reference, key, ref_line);
    // The server defaults an empty `apiGroup` to RBAC's.
    let group = text(reference, "apiGroup");
    if !group.is_empty() && group != GROUP {
        found.not_supported(role_ref.key("apiGroup"), at("apiGroup"), group, &[GROUP]);
    }
    let kinds: &[&str] = if namespaced {
        &["Role", "ClusterRole"]
    } else {
        &["ClusterRole"]
    };
    let kind = text(reference, "kind");
    if !kinds.contains(&kind) {
        found.not_supported(role_ref.key("kind"), at("kind"), kind, kinds);
    }
    let name = text(reference, "name");
    if name.is_empty() {
        found.required(role_ref.key("name"), at("name"), "");
    } else {
        found.invalid_each(
            role_ref.key("name"),
            at("name"),
            name,
            names::path_segment(name, false),
        );
    }
    let subjects_path = root.key("subjects");
    for (index, subject) in items(get(object, "subjects")).iter().enumerate() {
        subject_rule(subject, subjects_path.index(index), namespaced, found);
    }
}

/// `ValidateRoleBindingSubject`, after the server's defaulting of
/// `apiGroup` by kind.
fn subject_rule(subject: &Node, path: Path<'_>, namespaced: bool, found: &mut Findings<'_>) {
    let fields = entries(Some(subject));
    let at = |key| line_of(fields, key, subject.line);
    let name = text(fields, "name");
    if name.is_empty() {
        found.required(path.key("name"), at("name"), "");
    }
    let group = text(fields, "apiGroup");
    match text(fields, "kind") {
        "ServiceAccount" => {
            if !name.is_empty() {
                let messages = names::dns1123_subdomain(name);
                found.invalid_each(path.key("name"), at("name"), name, messages);
            }
            if !group.is_empty() {
                found.not_supported(path.key("apiGroup"), at("apiGroup"), group, &[""]);
            }
            if !namespaced && text(fields, "namespace").is_empty() {
                found.required(path.key("namespace"), at("namespace"), "");
            }
        }
        "User" | "Group" => {
            if !group.is_empty() && group != GROUP {
                found.not_supported(path.key("apiGroup"), at("apiGroup"), group, &[GROUP]);
            }
        }
        kind => found.not_supported(
            path.key("kind"),
            at("kind"),
            kind,
            &["ServiceAccount", "User", "Group"],
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::super::read::found as messages;

    #[test]
    fn rules_need_verbs_groups_and_resources() {
        let role = "rules:\n- {apiGroups: [], resources: [pods], verbs: [get]}\n- {verbs: []}\n- {nonResourceURLs: [/healthz], verbs: [get]}\n";
        assert_eq!(
            messages("io.k8s.api.rbac.v1.Role", role),
            [
                "rules[0].apiGroups@2: Required value: resource rules must supply at least one api group",
                "rules[1].verbs@3: Required value: verbs must contain at least one value",
                "rules[1].apiGroups@3: Required value: resource rules must supply at least one api group",
                "rules[1].resources@3: Required value: resource rules must supply at least one resource",
                "rules[2].nonResourceURLs@4: Invalid value: [\"/healthz\"]: namespaced rules cannot apply to non-resource URLs",
            ]
        );
        let cluster = "rules:\n- {nonResourceURLs: [/healthz], resources: [pods], verbs: [get]}\naggregationRule: {clusterRoleSelectors: [{matchLabels: {bad key: x}}]}\n";
        let found = messages("io.k8s.api.rbac.v1.ClusterRole", cluster);
        assert_eq!(found[0], "rules[0].nonResourceURLs@2: Invalid value: [\"/healthz\"]: rules cannot apply to both regular resources and non-resource URLs");
        assert!(found[1].starts_with("aggregationRule.clusterRoleSelectors[0].matchLabels@3: Invalid value: \"bad key\": name part must consist"));
        assert_eq!(found[2], "aggregationRule.clusterRoleSelectors[0]@3: Invalid value: null: invalid label selector.");
        assert!(messages(
            "io.k8s.api.rbac.v1.ClusterRole",
            "rules:\n- {nonResourceURLs: [/healthz], verbs: [get]}\n"
        )
        .is_empty());
    }

    #[test]
    fn bindings_name_a_role_and_subjects() {
        let good = "roleRef: {kind: ClusterRole, name: view}\nsubjects:\n- {kind: User, name: jane}\n- {kind: ServiceAccount, name: web}\n";
        assert!(messages("io.k8s.api.rbac.v1.RoleBinding", good).is_empty());
        assert_eq!(
            messages("io.k8s.api.rbac.v1.ClusterRoleBinding", good),
            ["subjects[1].namespace@4: Required value"]
        );
        let bad = "roleRef: {apiGroup: x, kind: role, name: a/b}\nsubjects:\n- {kind: user, name: jane}\n- {kind: ServiceAccount, name: Bad_Name, apiGroup: x}\n";
        let found = messages("io.k8s.api.rbac.v1.RoleBinding", bad);
        assert_eq!(
            found[..4],
            [
                "roleRef.apiGroup@1: Unsupported value: \"x\": supported values: \"rbac.authorization.k8s.io\"",
                "roleRef.kind@1: Unsupported value: \"role\": supported values: \"Role\", \"ClusterRole\"",
                "roleRef.name@1: Invalid value: \"a/b\": may not contain '/'",
                "subjects[0].kind@3: Unsupported value: \"user\": supported values: \"ServiceAccount\", \"User\", \"Group\"",
            ]
        );
        assert!(found[4].starts_with(
            "subjects[1].name@4: Invalid value: \"Bad_Name\": a lowercase RFC 1123 subdomain"
        ));
        assert_eq!(
            found[5],
            "subjects[1].apiGroup@4: Unsupported value: \"x\": supported values: \"\""
        );
        assert_eq!(
            messages("io.k8s.api.rbac.v1.RoleBinding", "subjects: [{kind: Group}]\n"),
            [
                "roleRef.kind@1: Unsupported value: \"\": supported values: \"Role\", \"ClusterRole\"",
                "roleRef.name@1: Required value",
                "subjects[0].name@1: Required value",
            ]
        );
    }
}
