//! API Priority and Fairness' checks of a FlowSchema (k8s.io/kubernetes
//! `pkg/apis/flowcontrol/validation`, `ValidateFlowSchemaSpec` and what
//! it calls): the matching precedence, the distinguisher method, the
//! priority level's name, and each rule's subjects, resource and
//! non-resource rules. The same at 1.28–1.37, in every served version
//! (v1beta2 until 1.28, v1beta3 until 1.31, v1 from 1.29); the status is
//! reset on create, so it is not checked. Not ported: the fixed specs of
//! the mandatory `exempt` and `catch-all` schemas.

use super::read::{entries, get, items, line_of, text, Findings, Path};
use super::{Broken, Scope, Table};
use crate::document::{Entry, Node, Value};
use crate::preflight::names;
use crate::walk::go_quoted;

/// The checks, by the definition of the object they read.
pub(super) const CHECKS: Table = &[
    ("io.k8s.api.flowcontrol.v1.FlowSchema", flow_schema),
    ("io.k8s.api.flowcontrol.v1beta3.FlowSchema", flow_schema),
    ("io.k8s.api.flowcontrol.v1beta2.FlowSchema", flow_schema),
];

/// `flowcontrol.FlowSchemaMaxMatchingPrecedence`.
const MAX_MATCHING_PRECEDENCE: i64 = 10_000;

/// `supportedDistinguisherMethods`, sorted as the server lists them.
const DISTINGUISHER_METHODS: &[&str] = &["ByNamespace", "ByUser"];

/// `supportedSubjectKinds`, sorted.
const SUBJECT_KINDS: &[&str] = &["Group", "ServiceAccount", "User"];

/// `supportedVerbs`, sorted.
const VERBS: &[&str] = &[
    "create",
    "delete",
    "deletecollection",
    "get",
    "list",
    "patch",
    "proxy",
    "update",
    "watch",
];

/// `nsErrIntro`: what a namespace's name messages start with.
const NAMESPACE_INTRO: &str = "each member of this list must be '*' or a DNS-1123 label; ";

/// `ValidateFlowSchema` on create, after the server's defaulting (a
/// `matchingPrecedence` of 0 or none becomes 1000).
fn flow_schema(_: &Scope, object: &[Entry], line: u32, out: &mut Vec<Broken>) {
    let found = &mut Findings { out };
    let name = text(entries(get(object, "metadata")), "name");
    let root = Path::Root;
    let spec_path = root.key("spec");
    let spec = entries(get(object, "spec"));
    let spec_line = line_of(object, "spec", line);
    let at = |key| line_of(spec, key, spec_line);
    // A value beyond int32 is a decoding error the walk reports.
    let precedence = match get(spec, "matchingPrecedence").map(|node| &node.value) {
        Some(Value::Int(value)) if i32::try_from(*value).is_ok() => *value,
        _ => 0,
    };
    if precedence != 0 {
        let precedence_path = spec_path.key("matchingPrecedence");
        let shown = precedence.to_string();
        if precedence < 0 {
            found.invalid(
                precedence_path,
                at("matchingPrecedence"),
                &shown,
                "must be a positive value",
            );
        }
        if precedence > MAX_MATCHING_PRECEDENCE {
            found.invalid(
                precedence_path,
                at("matchingPrecedence"),
                &shown,
                &format!("must not be greater than {MAX_MATCHING_PRECEDENCE}"),
            );
        }
        if precedence == 1 && name != "exempt" {
            found.invalid(
                precedence_path,
                at("matchingPrecedence"),
                &shown,
                "only the schema named 'exempt' may have matchingPrecedence 1",
            );
        }
    }
    if let Some(method) = get(spec, "distinguisherMethod") {
        let method_type = text(entries(Some(method)), "type");
        if !DISTINGUISHER_METHODS.contains(&method_type) {
            // The server shows the whole struct (`%#v`).
            let shown = format!(
                "flowcontrol.FlowDistinguisherMethod{{Type:{}}}",
                go_quoted(method_type)
            );
            let line = line_of(entries(Some(method)), "type", method.line);
            let method_path = spec_path.key("distinguisherMethod");
            not_supported_shown(
                found,
                method_path.key("type"),
                line,
                &shown,
                DISTINGUISHER_METHODS,
            );
        }
    }
    let level = entries(get(spec, "priorityLevelConfiguration"));
    let level_field = spec_path.key("priorityLevelConfiguration");
    let level_path = level_field.key("name");
    let level_name = text(level, "name");
    let level_line = line_of(level, "name", at("priorityLevelConfiguration"));
    if level_name.is_empty() {
        found.required(level_path, level_line, "must reference a priority level");
    } else {
        let messages = names::dns1123_subdomain(level_name);
        found.invalid_each(level_path, level_line, level_name, messages);
    }
    let rules_path = spec_path.key("rules");
    for (index, rule) in items(get(spec, "rules")).iter().enumerate() {
        rule_with_subjects(rule, rules_path.index(index), found);
    }
}

/// `ValidateFlowSchemaPolicyRulesWithSubjects`.
fn rule_with_subjects(rule: &Node, path: Path<'_>, found: &mut Findings<'_>) {
    let fields = entries(Some(rule));
    let at = |key| line_of(fields, key, rule.line);
    let subjects = items(get(fields, "subjects"));
    let subjects_path = path.key("subjects");
    if subjects.is_empty() {
        found.required(
            subjects_path,
            at("subjects"),
            "subjects must contain at least one value",
        );
    }
    for (index, subject) in subjects.iter().enumerate() {
        subject_rule(subject, subjects_path.index(index), found);
    }
    let resource_rules = items(get(fields, "resourceRules"));
    let non_resource_rules = items(get(fields, "nonResourceRules"));
    if resource_rules.is_empty() && non_resource_rules.is_empty() {
        found.required(
            path,
            rule.line,
            "at least one of resourceRules and nonResourceRules has to be non-empty",
        );
    }
    let resource_path = path.key("resourceRules");
    for (index, resource_rule) in resource_rules.iter().enumerate() {
        resource_policy_rule(resource_rule, resource_path.index(index), found);
    }
    let non_resource_path = path.key("nonResourceRules");
    for (index, non_resource_rule) in non_resource_rules.iter().enumerate() {
        non_resource_policy_rule(non_resource_rule, non_resource_path.index(index), found);
    }
}

/// `ValidateFlowSchemaSubject` and the three kinds' own checks.
fn subject_rule(subject: &Node, path: Path<'_>, found: &mut Findings<'_>) {
    let fields = entries(Some(subject));
    let at = |key| line_of(fields, key, subject.line);
    let member = |key| get(fields, key);
    let kind = text(fields, "kind");
    // Each kind's member, and the two members the kind forbids.
    let (own, others): (&str, [(&str, &str); 2]) = match kind {
        "ServiceAccount" => ("serviceAccount", [("user", "User"), ("group", "Group")]),
        "User" => (
            "user",
            [("serviceAccount", "ServiceAccount"), ("group", "Group")],
        ),
        "Group" => (
            "group",
            [("serviceAccount", "ServiceAccount"), ("user", "User")],
        ),
        _ => {
            found.not_supported(path.key("kind"), at("kind"), kind, SUBJECT_KINDS);
            return;
        }
    };
    let own_path = path.key(own);
    match member(own) {
        None => found.required(
            own_path,
            at(own),
            &format!("{own} is required when subject kind is '{kind}'"),
        ),
        Some(node) if kind == "ServiceAccount" => service_account(node, own_path, found),
        Some(node) => {
            let fields = entries(Some(node));
            if text(fields, "name").is_empty() {
                let line = line_of(fields, "name", node.line);
                found.required(own_path.key("name"), line, "");
            }
        }
    }
    for (key, kind) in others {
        if member(key).is_some() {
            found.forbidden(
                path.key(key),
                at(key),
                &format!("{key} is forbidden when subject kind is not '{kind}'"),
            );
        }
    }
}

/// `ValidateServiceAccountSubject`: a name (`*` or a subdomain) and a
/// namespace (a label).
fn service_account(node: &Node, path: Path<'_>, found: &mut Findings<'_>) {
    let fields = entries(Some(node));
    let at = |key| line_of(fields, key, node.line);
    let name = text(fields, "name");
    if name.is_empty() {
        found.required(path.key("name"), at("name"), "");
    } else if name != "*" {
        let messages = names::dns1123_subdomain(name);
        found.invalid_each(path.key("name"), at("name"), name, messages);
    }
    let namespace = text(fields, "namespace");
    if namespace.is_empty() {
        found.required(
            path.key("namespace"),
            at("namespace"),
            "must specify namespace for service account",
        );
    } else {
        let messages = names::dns1123_label(namespace);
        found.invalid_each(path.key("namespace"), at("namespace"), namespace, messages);
    }
}

/// `field.NotSupported` of a value the server shows with `%#v` (a list,
/// a struct) rather than quoted.
fn not_supported_shown(
    found: &mut Findings<'_>,
    path: Path<'_>,
    line: u32,
    shown: &str,
    supported: &[&str],
) {
    let mut message = format!("Unsupported value: {shown}: supported values: ");
    for (index, value) in supported.iter().enumerate() {
        if index > 0 {
            message.push_str(", ");
        }
        message.push_str(&go_quoted(value));
    }
    found.out.push(Broken {
        last: path.text(),
        line,
        message,
    });
}

/// A list of strings as Go holds it (an item of another type is the
/// walk's finding; it reads as `""`).
fn strings(node: Option<&Node>) -> Vec<&str> {
    items(node)
        .iter()
        .map(|item| item.as_str().unwrap_or(""))
        .collect()
}

/// A string list as `%#v` shows it: `[]string{"a", "b"}`.
fn go_list(values: &[&str]) -> String {
    let quoted: Vec<String> = values.iter().map(|value| go_quoted(value)).collect();
    format!("[]string{{{}}}", quoted.join(", "))
}

/// The verbs of a resource or non-resource rule: at least one, `*` alone,
/// or only the supported ones.
fn verbs(fields: &[Entry], line: u32, path: Path<'_>, found: &mut Findings<'_>) {
    let verbs = strings(get(fields, "verbs"));
    let path = path.key("verbs");
    let line = line_of(fields, "verbs", line);
    if verbs.is_empty() {
        found.required(path, line, "verbs must contain at least one value");
    } else if verbs.contains(&"*") {
        if verbs.len() > 1 {
            found.invalid(
                path,
                line,
                &go_list(&verbs),
                "if '*' is present, must not specify other verbs",
            );
        }
    } else if verbs.iter().any(|verb| !VERBS.contains(verb)) {
        not_supported_shown(found, path, line, &go_list(&verbs), VERBS);
    }
}

/// `ValidateFlowSchemaResourcePolicyRule`.
fn resource_policy_rule(rule: &Node, path: Path<'_>, found: &mut Findings<'_>) {
    let fields = entries(Some(rule));
    let at = |key| line_of(fields, key, rule.line);
    verbs(fields, rule.line, path, found);
    for (key, what) in [("apiGroups", "api group"), ("resources", "resource")] {
        let values = strings(get(fields, key));
        if values.is_empty() {
            found.required(
                path.key(key),
                at(key),
                &format!("resource rules must supply at least one {what}"),
            );
        } else if values.len() > 1 && values.contains(&"*") {
            found.invalid(
                path.key(key),
                at(key),
                &go_list(&values),
                &format!("if '*' is present, must not specify other {what}s"),
            );
        }
    }
    let namespaces = strings(get(fields, "namespaces"));
    let namespaces_path = path.key("namespaces");
    let cluster_scope = matches!(
        get(fields, "clusterScope").map(|node| &node.value),
        Some(Value::Bool(true))
    );
    if namespaces.is_empty() && !cluster_scope {
        found.required(
            namespaces_path,
            at("namespaces"),
            "resource rules that are not cluster scoped must supply at least one namespace",
        );
    } else if namespaces.contains(&"*") {
        if namespaces.len() > 1 {
            found.invalid(
                namespaces_path,
                at("namespaces"),
                &go_list(&namespaces),
                "if '*' is present, must not specify other namespaces",
            );
        }
    } else {
        let nodes = items(get(fields, "namespaces"));
        for (index, (namespace, node)) in namespaces.iter().zip(nodes).enumerate() {
            for message in names::dns1123_label(namespace) {
                found.invalid(
                    namespaces_path.index(index),
                    node.line,
                    &go_quoted(namespace),
                    &format!("{NAMESPACE_INTRO}{message}"),
                );
            }
        }
    }
}

/// `ValidateFlowSchemaNonResourcePolicyRule`.
fn non_resource_policy_rule(rule: &Node, path: Path<'_>, found: &mut Findings<'_>) {
    let fields = entries(Some(rule));
    verbs(fields, rule.line, path, found);
    let urls = strings(get(fields, "nonResourceURLs"));
    let urls_path = path.key("nonResourceURLs");
    let line = line_of(fields, "nonResourceURLs", rule.line);
    if urls.is_empty() {
        found.required(
            urls_path,
            line,
            "nonResourceURLs must contain at least one value",
        );
    } else if urls.contains(&"*") {
        if urls.len() > 1 {
            found.invalid(
                urls_path,
                line,
                &go_list(&urls),
                "if '*' is present, must not specify other non-resource URLs",
            );
        }
    } else {
        let nodes = items(get(fields, "nonResourceURLs"));
        for (index, (url, node)) in urls.iter().zip(nodes).enumerate() {
            if let Some(detail) = non_resource_url(url) {
                found.invalid(urls_path.index(index), node.line, &go_quoted(url), detail);
            }
        }
    }
}

/// `ValidateNonResourceURLPath`: what is wrong with `path`, if anything.
fn non_resource_url(path: &str) -> Option<&'static str> {
    if path.is_empty() {
        return Some("must not be empty");
    }
    if path == "/" {
        return None;
    }
    if !path.starts_with('/') {
        return Some("must start with slash");
    }
    if path.contains(' ') {
        return Some("must not contain white-space");
    }
    if path.contains("//") {
        return Some("must not contain double slash");
    }
    let wildcards = path.bytes().filter(|byte| *byte == b'*').count();
    if wildcards > 1 || (wildcards == 1 && !path.ends_with("/*")) {
        return Some("wildcard can only do suffix matching");
    }
    None
}

#[cfg(test)]
mod tests {
    use super::super::read::found_at;

    const V1BETA3: &str = "io.k8s.api.flowcontrol.v1beta3.FlowSchema";
    const V1: &str = "io.k8s.api.flowcontrol.v1.FlowSchema";

    /// A valid schema, with `spec` replaced by `spec`.
    fn schema(spec: &str) -> String {
        format!("apiVersion: flowcontrol.apiserver.k8s.io/v1beta3\nkind: FlowSchema\nmetadata:\n  name: ci\nspec:\n{spec}")
    }

    const VALID: &str = "  matchingPrecedence: 500
  priorityLevelConfiguration:
    name: workload-low
  distinguisherMethod:
    type: ByUser
  rules:
  - subjects:
    - kind: ServiceAccount
      serviceAccount:
        name: runner
        namespace: ci
    - kind: Group
      group:
        name: system:authenticated
    resourceRules:
    - verbs: [get, list]
      apiGroups: ['*']
      resources: ['*']
      namespaces: ['*']
    nonResourceRules:
    - verbs: ['*']
      nonResourceURLs: [/healthz, /apis/*]
";

    #[test]
    fn a_valid_schema_passes_at_every_version() {
        for minor in [28, 31, 36] {
            assert!(found_at(V1BETA3, minor, &schema(VALID)).is_empty());
            assert!(found_at(V1, minor, &schema(VALID)).is_empty());
        }
    }

    #[test]
    fn a_spec_without_a_priority_level_is_refused() {
        assert_eq!(
            found_at(V1BETA3, 31, "kind: FlowSchema\nmetadata:\n  name: ci\n"),
            ["spec.priorityLevelConfiguration.name@1: Required value: must reference a priority level"]
        );
    }

    #[test]
    fn matching_precedence_is_within_one_and_ten_thousand() {
        let spec = VALID.replace("matchingPrecedence: 500", "matchingPrecedence: 2147483647");
        assert_eq!(
            found_at(V1BETA3, 31, &schema(&spec)),
            ["spec.matchingPrecedence@6: Invalid value: 2147483647: must not be greater than 10000"]
        );
        let spec = VALID.replace("matchingPrecedence: 500", "matchingPrecedence: -2");
        assert_eq!(
            found_at(V1, 31, &schema(&spec)),
            ["spec.matchingPrecedence@6: Invalid value: -2: must be a positive value"]
        );
        let spec = VALID.replace("matchingPrecedence: 500", "matchingPrecedence: 1");
        assert_eq!(
            found_at(V1, 31, &schema(&spec)),
            ["spec.matchingPrecedence@6: Invalid value: 1: only the schema named 'exempt' may have matchingPrecedence 1"]
        );
        // 0 is defaulted to 1000.
        let spec = VALID.replace("matchingPrecedence: 500", "matchingPrecedence: 0");
        assert!(found_at(V1, 31, &schema(&spec)).is_empty());
    }

    #[test]
    fn distinguisher_method_and_subject_kind_are_closed_sets() {
        let spec = VALID
            .replace("type: ByUser", "type: BYUSER")
            .replace("kind: Group", "kind: 'Group '");
        assert_eq!(
            found_at(V1BETA3, 31, &schema(&spec)),
            [
                "spec.distinguisherMethod.type@10: Unsupported value: flowcontrol.FlowDistinguisherMethod{Type:\"BYUSER\"}: supported values: \"ByNamespace\", \"ByUser\"",
                "spec.rules[0].subjects[1].kind@17: Unsupported value: \"Group \": supported values: \"Group\", \"ServiceAccount\", \"User\"",
            ]
        );
    }

    #[test]
    fn a_service_account_subject_needs_its_namespace() {
        let spec = VALID.replace("namespace: ci", "namespace: ''");
        assert_eq!(
            found_at(V1BETA3, 31, &schema(&spec)),
            ["spec.rules[0].subjects[0].serviceAccount.namespace@16: Required value: must specify namespace for service account"]
        );
        let spec = VALID.replace(
            "      serviceAccount:\n        name: runner\n        namespace: ci\n",
            "      user:\n        name: x\n",
        );
        assert_eq!(
            found_at(V1BETA3, 31, &schema(&spec)),
            [
                "spec.rules[0].subjects[0].serviceAccount@13: Required value: serviceAccount is required when subject kind is 'ServiceAccount'",
                "spec.rules[0].subjects[0].user@14: Forbidden: user is forbidden when subject kind is not 'User'",
            ]
        );
    }

    #[test]
    fn resource_rules_need_resources_and_take_star_alone() {
        let spec = VALID
            .replace("resources: ['*']", "resources: []")
            .replace("namespaces: ['*']", "namespaces: ['*', '*']");
        assert_eq!(
            found_at(V1BETA3, 31, &schema(&spec)),
            [
                "spec.rules[0].resourceRules[0].resources@23: Required value: resource rules must supply at least one resource",
                "spec.rules[0].resourceRules[0].namespaces@24: Invalid value: []string{\"*\", \"*\"}: if '*' is present, must not specify other namespaces",
            ]
        );
        let spec = VALID
            .replace("namespaces: ['*']", "namespaces: [Bad_Value]")
            .replace("verbs: [get, list]", "verbs: [get, fetch]");
        assert_eq!(
            found_at(V1BETA3, 31, &schema(&spec)),
            [
                "spec.rules[0].resourceRules[0].verbs@21: Unsupported value: []string{\"get\", \"fetch\"}: supported values: \"create\", \"delete\", \"deletecollection\", \"get\", \"list\", \"patch\", \"proxy\", \"update\", \"watch\"",
                "spec.rules[0].resourceRules[0].namespaces[0]@24: Invalid value: \"Bad_Value\": each member of this list must be '*' or a DNS-1123 label; a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
            ]
        );
    }

    #[test]
    fn non_resource_urls_are_paths_with_a_suffix_wildcard() {
        let spec = VALID.replace("[/healthz, /apis/*]", "[/healthz, aaa, /a//b, /a*/b]");
        assert_eq!(
            found_at(V1BETA3, 31, &schema(&spec)),
            [
                "spec.rules[0].nonResourceRules[0].nonResourceURLs[1]@27: Invalid value: \"aaa\": must start with slash",
                "spec.rules[0].nonResourceRules[0].nonResourceURLs[2]@27: Invalid value: \"/a//b\": must not contain double slash",
                "spec.rules[0].nonResourceRules[0].nonResourceURLs[3]@27: Invalid value: \"/a*/b\": wildcard can only do suffix matching",
            ]
        );
    }

    #[test]
    fn a_rule_needs_subjects_and_some_rules() {
        let spec = "  priorityLevelConfiguration:\n    name: p\n  rules:\n  - subjects: []\n";
        assert_eq!(
            found_at(V1, 31, &schema(spec)),
            [
                "spec.rules[0].subjects@9: Required value: subjects must contain at least one value",
                "spec.rules[0]@9: Required value: at least one of resourceRules and nonResourceRules has to be non-empty",
            ]
        );
    }
}
