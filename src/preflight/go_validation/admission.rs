//! admissionregistration's checks (k8s.io/kubernetes
//! `pkg/apis/admissionregistration/validation`): a webhook configuration's
//! webhooks (fully qualified unique names, rules, side effects, timeouts,
//! a URL or a service, review versions), and a ValidatingAdmissionPolicy's
//! and its binding's match rules, validations, parameters and actions,
//! after the server's defaults (failure and match policies, selectors).
//! CEL expressions are not compiled here.

use super::read::{entries, get, int, items, line_of, shown, text, Findings, Path};
use super::selector::label_selector;
use super::{Broken, Scope, Table};
use crate::document::{Entry, Node};
use crate::preflight::names;
use crate::walk::go_quoted;

/// The checks, by the definition of the object they read.
pub(super) const CHECKS: Table = &[
    (
        "io.k8s.api.admissionregistration.v1.ValidatingWebhookConfiguration",
        validating_webhooks,
    ),
    (
        "io.k8s.api.admissionregistration.v1.MutatingWebhookConfiguration",
        mutating_webhooks,
    ),
    (
        "io.k8s.api.admissionregistration.v1.ValidatingAdmissionPolicy",
        policy,
    ),
    (
        "io.k8s.api.admissionregistration.v1beta1.ValidatingAdmissionPolicy",
        policy,
    ),
    (
        "io.k8s.api.admissionregistration.v1.ValidatingAdmissionPolicyBinding",
        binding,
    ),
    (
        "io.k8s.api.admissionregistration.v1beta1.ValidatingAdmissionPolicyBinding",
        binding,
    ),
];

/// `ValidateValidatingWebhookConfiguration`.
fn validating_webhooks(_: &Scope, object: &[Entry], _: u32, out: &mut Vec<Broken>) {
    webhooks(object, false, &mut Findings { out });
}

/// `ValidateMutatingWebhookConfiguration`.
fn mutating_webhooks(_: &Scope, object: &[Entry], _: u32, out: &mut Vec<Broken>) {
    webhooks(object, true, &mut Findings { out });
}

/// Each webhook, its review versions, and names unique.
fn webhooks(object: &[Entry], mutating: bool, found: &mut Findings<'_>) {
    let root = Path::Root;
    let hooks_path = root.key("webhooks");
    let mut seen: Vec<&str> = Vec::new();
    for (index, hook) in items(get(object, "webhooks")).iter().enumerate() {
        let at = hooks_path.index(index);
        let fields = entries(Some(hook));
        webhook(fields, hook.line, mutating, at, found);
        let versions = items(get(fields, "admissionReviewVersions"));
        let line = line_of(fields, "admissionReviewVersions", hook.line);
        review_versions(
            versions,
            line,
            get(fields, "admissionReviewVersions"),
            at.key("admissionReviewVersions"),
            found,
        );
        let name = text(fields, "name");
        if !name.is_empty() {
            if seen.contains(&name) {
                found.duplicate(
                    at.key("name"),
                    line_of(fields, "name", hook.line),
                    &go_quoted(name),
                );
            } else {
                seen.push(name);
            }
        }
    }
}

/// `validateValidatingWebhook` / `validateMutatingWebhook`.
fn webhook(fields: &[Entry], line: u32, mutating: bool, at: Path<'_>, found: &mut Findings<'_>) {
    let line_at = |key| line_of(fields, key, line);
    // IsFullyQualifiedName.
    let name = text(fields, "name");
    let subdomain = names::dns1123_subdomain(name);
    if name.is_empty() {
        found.required(at.key("name"), line_at("name"), "");
    } else if !subdomain.is_empty() {
        found.invalid(
            at.key("name"),
            line_at("name"),
            &go_quoted(name),
            &subdomain.join(","),
        );
    } else if name.split('.').count() < 3 {
        found.invalid(
            at.key("name"),
            line_at("name"),
            &go_quoted(name),
            "should be a domain with at least three segments separated by dots",
        );
    }
    let rules_path = at.key("rules");
    for (index, rule) in items(get(fields, "rules")).iter().enumerate() {
        rule_with_operations(
            entries(Some(rule)),
            rule.line,
            rules_path.index(index),
            &OPERATIONS,
            found,
        );
    }
    enumerated(
        fields,
        "failurePolicy",
        &["Fail", "Ignore"],
        at,
        line,
        found,
    );
    enumerated(
        fields,
        "matchPolicy",
        &["Equivalent", "Exact"],
        at,
        line,
        found,
    );
    match get(fields, "sideEffects").and_then(Node::as_str) {
        None => found.required(
            at.key("sideEffects"),
            line_at("sideEffects"),
            "must specify one of None, NoneOnDryRun",
        ),
        Some(effects) => {
            if effects != "None" && effects != "NoneOnDryRun" {
                found.not_supported(
                    at.key("sideEffects"),
                    line_at("sideEffects"),
                    effects,
                    &["None", "NoneOnDryRun"],
                );
            }
        }
    }
    if let Some(timeout) = int(fields, "timeoutSeconds").filter(|t| !(1..=30).contains(t)) {
        found.invalid(
            at.key("timeoutSeconds"),
            line_at("timeoutSeconds"),
            &timeout.to_string(),
            "the timeout value must be between 1 and 30 seconds",
        );
    }
    for key in ["namespaceSelector", "objectSelector"] {
        if let Some(selector) = get(fields, key) {
            label_selector(selector, at.key(key), selector.line, found);
        }
    }
    if mutating {
        enumerated(
            fields,
            "reinvocationPolicy",
            &["IfNeeded", "Never"],
            at,
            line,
            found,
        );
    }
    let config = entries(get(fields, "clientConfig"));
    let config_path = at.key("clientConfig");
    let config_line = line_at("clientConfig");
    match (
        get(config, "url").and_then(Node::as_str),
        get(config, "service"),
    ) {
        (Some(url), None) => webhook_url(
            url,
            config_path.key("url"),
            line_of(config, "url", config_line),
            found,
        ),
        (None, Some(service)) => webhook_service(service, config_path.key("service"), found),
        _ => found.required(
            config_path,
            config_line,
            "exactly one of url or service is required",
        ),
    }
}

/// A string field, when set, one of `supported`.
fn enumerated(
    fields: &[Entry],
    key: &str,
    supported: &[&str],
    at: Path<'_>,
    line: u32,
    found: &mut Findings<'_>,
) {
    if let Some(value) = get(fields, key).and_then(Node::as_str) {
        if !supported.contains(&value) {
            found.not_supported(at.key(key), line_of(fields, key, line), value, supported);
        }
    }
}

/// `validateAdmissionReviewVersions`: some, unique DNS-1035 labels, one
/// of them known to the server.
fn review_versions(
    versions: &[Node],
    line: u32,
    node: Option<&Node>,
    at: Path<'_>,
    found: &mut Findings<'_>,
) {
    if versions.is_empty() {
        found.required(at, line, "must specify one of v1, v1beta1");
        return;
    }
    let mut seen: Vec<&str> = Vec::new();
    let mut known = false;
    for (index, version) in versions.iter().enumerate() {
        let text = version.as_str().unwrap_or("");
        if seen.contains(&text) {
            found.invalid(
                at.index(index),
                version.line,
                &go_quoted(text),
                "duplicate version",
            );
            continue;
        }
        seen.push(text);
        found.invalid_each(
            at.index(index),
            version.line,
            text,
            names::dns1035_label(text),
        );
        known |= text == "v1" || text == "v1beta1";
    }
    if !known {
        found.invalid(
            at,
            line,
            &shown(node),
            "must include at least one of v1, v1beta1",
        );
    }
}

/// The operations a webhook's rule may name.
const OPERATIONS: [&str; 5] = ["*", "CONNECT", "CREATE", "DELETE", "UPDATE"];

/// `validateRuleWithOperations` and `validateRule` (subresources allowed).
fn rule_with_operations(
    rule: &[Entry],
    line: u32,
    at: Path<'_>,
    operations: &[&str],
    found: &mut Findings<'_>,
) {
    let line_at = |key| line_of(rule, key, line);
    let list = |key| items(get(rule, key));
    let texts = |key| {
        list(key)
            .iter()
            .map(|node| node.as_str().unwrap_or(""))
            .collect::<Vec<_>>()
    };
    let given = texts("operations");
    if given.is_empty() {
        found.required(at.key("operations"), line_at("operations"), "");
    }
    if given.len() > 1 && given.contains(&"*") {
        found.invalid(
            at.key("operations"),
            line_at("operations"),
            &shown(get(rule, "operations")),
            "if '*' is present, must not specify other operations",
        );
    }
    for (index, operation) in given.iter().enumerate() {
        if !operations.contains(operation) {
            found.not_supported(
                at.key("operations").index(index),
                line_at("operations"),
                operation,
                operations,
            );
        }
    }
    for (key, what) in [("apiGroups", "API groups"), ("apiVersions", "API versions")] {
        let values = texts(key);
        if values.is_empty() {
            found.required(at.key(key), line_at(key), "");
        }
        if values.len() > 1 && values.contains(&"*") {
            found.invalid(
                at.key(key),
                line_at(key),
                &shown(get(rule, key)),
                &format!("if '*' is present, must not specify other {what}"),
            );
        }
        if key == "apiVersions" {
            for (index, _) in values.iter().enumerate().filter(|(_, v)| v.is_empty()) {
                found.required(at.key(key).index(index), line_at(key), "");
            }
        }
    }
    resources(
        &texts("resources"),
        get(rule, "resources"),
        line_at("resources"),
        at.key("resources"),
        found,
    );
    if let Some(scope) = get(rule, "scope").and_then(Node::as_str) {
        if !matches!(scope, "*" | "Cluster" | "Namespaced") {
            found.not_supported(
                at.key("scope"),
                line_at("scope"),
                scope,
                &["*", "Cluster", "Namespaced"],
            );
        }
    }
}

/// `validateResources`: some, none empty, wildcards not beside what they
/// cover.
fn resources(
    resources: &[&str],
    node: Option<&Node>,
    line: u32,
    at: Path<'_>,
    found: &mut Findings<'_>,
) {
    if resources.is_empty() {
        found.required(at, line, "");
    }
    let mut wildcard_subresources: Vec<&str> = Vec::new();
    let mut wildcard_resources: Vec<&str> = Vec::new();
    let (mut double, mut single, mut plain) = (false, false, false);
    for (index, resource) in resources.iter().enumerate() {
        if resource.is_empty() {
            found.required(at.index(index), line, "");
            continue;
        }
        double |= *resource == "*/*";
        single |= *resource == "*";
        let Some((res, sub)) = resource.split_once('/') else {
            plain = *resource != "*";
            continue;
        };
        if wildcard_subresources.contains(&res) {
            found.invalid(
                at.index(index),
                line,
                &go_quoted(resource),
                &format!("if '{res}/*' is present, must not specify {resource}"),
            );
        }
        if wildcard_resources.contains(&sub) {
            found.invalid(
                at.index(index),
                line,
                &go_quoted(resource),
                &format!("if '*/{sub}' is present, must not specify {resource}"),
            );
        }
        if sub == "*" {
            wildcard_subresources.push(res);
        }
        if res == "*" {
            wildcard_resources.push(sub);
        }
    }
    if resources.len() > 1 && double {
        found.invalid(
            at,
            line,
            &shown(node),
            "if '*/*' is present, must not specify other resources",
        );
    }
    if single && plain {
        found.invalid(
            at,
            line,
            &shown(node),
            "if '*' is present, must not specify other resources without subresources",
        );
    }
}

/// `ValidateWebhookURL`, https forced: a scheme, a host, no user, query or
/// fragment (a URL Go cannot parse is left).
fn webhook_url(url: &str, at: Path<'_>, line: u32, found: &mut Findings<'_>) {
    const FORM: &str = "; desired format: https://host[/path]";
    let (rest, fragment) = url.split_once('#').unwrap_or((url, ""));
    let (rest, query) = rest.split_once('?').unwrap_or((rest, ""));
    let scheme_end = rest.find(':').filter(|end| {
        let scheme = &rest[..*end];
        scheme.starts_with(|c: char| c.is_ascii_alphabetic())
            && scheme
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'))
    });
    let (scheme, rest) = match scheme_end {
        Some(end) => (rest[..end].to_ascii_lowercase(), &rest[end + 1..]),
        None => (String::new(), rest),
    };
    let authority = rest
        .strip_prefix("//")
        .map(|after| after.split('/').next().unwrap_or(""));
    let (user, host) = match authority {
        Some(authority) => match authority.rsplit_once('@') {
            Some((user, host)) => (Some(user), host),
            None => (None, authority),
        },
        None => (None, ""),
    };
    if scheme != "https" {
        found.invalid(
            at,
            line,
            &go_quoted(&scheme),
            &format!("'https' is the only allowed URL scheme{FORM}"),
        );
    }
    if host.is_empty() {
        found.invalid(at, line, "\"\"", &format!("host must be specified{FORM}"));
    }
    if let Some(user) = user {
        found.invalid(
            at,
            line,
            &go_quoted(user),
            "user information is not permitted in the URL",
        );
    }
    if !fragment.is_empty() {
        found.invalid(
            at,
            line,
            &go_quoted(fragment),
            "fragments are not permitted in the URL",
        );
    }
    if !query.is_empty() {
        found.invalid(
            at,
            line,
            &go_quoted(query),
            "query parameters are not permitted in the URL",
        );
    }
}

/// `ValidateWebhookService`: a name, a namespace, a port (443 when
/// unset), a path of DNS-1123 subdomain segments.
fn webhook_service(service: &Node, at: Path<'_>, found: &mut Findings<'_>) {
    let fields = entries(Some(service));
    let line_at = |key| line_of(fields, key, service.line);
    for key in ["name", "namespace"] {
        if text(fields, key).is_empty() {
            found.required(at.key(key), line_at(key), "");
        }
    }
    let port = int(fields, "port").unwrap_or(443);
    if !(1..=65535).contains(&port) {
        found.invalid(
            at.key("port"),
            line_at("port"),
            &port.to_string(),
            "port is not valid: must be between 1 and 65535, inclusive",
        );
    }
    let Some(path) = get(fields, "path").and_then(Node::as_str) else {
        return;
    };
    if path == "/" || path.is_empty() {
        return;
    }
    let (path_at, line, shown) = (at.key("path"), line_at("path"), go_quoted(path));
    if path == "//" {
        found.invalid(path_at, line, &shown, "segment[0] may not be empty");
        return;
    }
    if !path.starts_with('/') {
        found.invalid(path_at, line, &shown, "must start with a '/'");
    }
    let inner = path.get(1..).unwrap_or("");
    let inner = inner.strip_suffix('/').unwrap_or(inner);
    for (index, step) in inner.split('/').enumerate() {
        if step.is_empty() {
            found.invalid(
                path_at,
                line,
                &shown,
                &format!("segment[{index}] may not be empty"),
            );
            continue;
        }
        for failure in names::dns1123_subdomain(step) {
            found.invalid(
                path_at,
                line,
                &shown,
                &format!("segment[{index}]: {failure}"),
            );
        }
    }
}

/// `validateValidatingAdmissionPolicySpec`, CEL aside: the match
/// constraints name resource rules, some validations or audit
/// annotations, each validation's reason known.
fn policy(_: &Scope, object: &[Entry], line: u32, out: &mut Vec<Broken>) {
    let found = &mut Findings { out };
    let root = Path::Root;
    let spec_path = root.key("spec");
    let spec = entries(get(object, "spec"));
    let spec_line = line_of(object, "spec", line);
    let line_at = |key| line_of(spec, key, spec_line);
    enumerated(
        spec,
        "failurePolicy",
        &["Fail", "Ignore"],
        spec_path,
        spec_line,
        found,
    );
    match get(spec, "matchConstraints") {
        None => found.required(
            spec_path.key("matchConstraints"),
            line_at("matchConstraints"),
            "",
        ),
        Some(constraints) => {
            let at = spec_path.key("matchConstraints");
            match_resources(constraints, at, found);
            if items(get(entries(Some(constraints)), "resourceRules")).is_empty() {
                found.required(at.key("resourceRules"), constraints.line, "");
            }
        }
    }
    let validations = items(get(spec, "validations"));
    if validations.is_empty() && items(get(spec, "auditAnnotations")).is_empty() {
        let detail = "validations or auditAnnotations must contain at least one item";
        found.required(spec_path.key("validations"), line_at("validations"), detail);
        found.required(
            spec_path.key("auditAnnotations"),
            line_at("auditAnnotations"),
            detail,
        );
        return;
    }
    let validations_path = spec_path.key("validations");
    for (index, validation) in validations.iter().enumerate() {
        let fields = entries(Some(validation));
        let at = validations_path.index(index);
        if text(fields, "expression").trim().is_empty() {
            found.required(
                at.key("expression"),
                line_of(fields, "expression", validation.line),
                "",
            );
        }
        let supported = ["Forbidden", "Invalid", "RequestEntityTooLarge"];
        if let Some(reason) = get(fields, "reason").and_then(Node::as_str) {
            if !supported.contains(&reason) {
                found.not_supported(
                    at.key("reason"),
                    line_of(fields, "reason", validation.line),
                    reason,
                    &supported,
                );
            }
        }
    }
}

/// `validateMatchResources` after defaulting (the match policy and the
/// selectors are defaulted when unset).
fn match_resources(node: &Node, at: Path<'_>, found: &mut Findings<'_>) {
    let fields = entries(Some(node));
    enumerated(
        fields,
        "matchPolicy",
        &["Equivalent", "Exact"],
        at,
        node.line,
        found,
    );
    for key in ["namespaceSelector", "objectSelector"] {
        if let Some(selector) = get(fields, key) {
            label_selector(selector, at.key(key), selector.line, found);
        }
    }
    for key in ["resourceRules", "excludeResourceRules"] {
        let rules_path = at.key(key);
        for (index, rule) in items(get(fields, key)).iter().enumerate() {
            let rule_at = rules_path.index(index);
            let rule_fields = entries(Some(rule));
            let mut seen: Vec<&str> = Vec::new();
            let names_path = rule_at.key("resourceNames");
            for (index, name) in items(get(rule_fields, "resourceNames")).iter().enumerate() {
                let name_text = name.as_str().unwrap_or("");
                let name_at = names_path.index(index);
                found.invalid_each(
                    name_at,
                    name.line,
                    name_text,
                    names::path_segment(name_text, false),
                );
                if seen.contains(&name_text) {
                    found.duplicate(name_at, name.line, &go_quoted(name_text));
                } else {
                    seen.push(name_text);
                }
            }
            rule_with_operations(rule_fields, rule.line, rule_at, &OPERATIONS, found);
        }
    }
}

/// `validateValidatingAdmissionPolicyBindingSpec`.
fn binding(_: &Scope, object: &[Entry], line: u32, out: &mut Vec<Broken>) {
    let found = &mut Findings { out };
    let root = Path::Root;
    let spec_path = root.key("spec");
    let spec = entries(get(object, "spec"));
    let spec_line = line_of(object, "spec", line);
    let line_at = |key| line_of(spec, key, spec_line);
    let name = text(spec, "policyName");
    if name.is_empty() {
        found.required(spec_path.key("policyName"), line_at("policyName"), "");
    } else {
        found.invalid_each(
            spec_path.key("policyName"),
            line_at("policyName"),
            name,
            names::dns1123_subdomain(name),
        );
    }
    if let Some(reference) = get(spec, "paramRef") {
        param_ref(reference, spec_path.key("paramRef"), found);
    }
    if let Some(resources) = get(spec, "matchResources") {
        match_resources(resources, spec_path.key("matchResources"), found);
    }
    let actions_path = spec_path.key("validationActions");
    let actions = items(get(spec, "validationActions"));
    let mut seen: Vec<&str> = Vec::new();
    for (index, action) in actions.iter().enumerate() {
        let value = action.as_str().unwrap_or("");
        let supported = ["Audit", "Deny", "Warn"];
        if !supported.contains(&value) {
            found.not_supported(actions_path.index(index), action.line, value, &supported);
        }
        if seen.contains(&value) {
            found.duplicate(actions_path.index(index), action.line, &go_quoted(value));
        }
        seen.push(value);
    }
    let actions_line = line_at("validationActions");
    if seen.contains(&"Deny") && seen.contains(&"Warn") {
        found.invalid(actions_path, actions_line, &shown(get(spec, "validationActions")), "must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)");
    }
    if seen.is_empty() {
        found.required(
            actions_path,
            actions_line,
            "at least one validation action is required",
        );
    }
}

/// `validateParamRef`: a name or a selector, and what to do without the
/// parameter.
fn param_ref(reference: &Node, at: Path<'_>, found: &mut Findings<'_>) {
    let fields = entries(Some(reference));
    let line_at = |key| line_of(fields, key, reference.line);
    let name = text(fields, "name");
    let selector = get(fields, "selector");
    if !name.is_empty() {
        found.invalid_each(
            at.key("name"),
            line_at("name"),
            name,
            names::path_segment(name, false),
        );
        if selector.is_some() {
            found.forbidden(
                at.key("name"),
                line_at("name"),
                "name and selector are mutually exclusive",
            );
        }
    }
    if let Some(selector) = selector {
        label_selector(selector, at.key("selector"), selector.line, found);
        if !name.is_empty() {
            found.forbidden(
                at.key("selector"),
                line_at("selector"),
                "name and selector are mutually exclusive",
            );
        }
    }
    if name.is_empty() && selector.is_none() {
        found.required(
            at,
            reference.line,
            "one of name or selector must be specified",
        );
    }
    match text(fields, "parameterNotFoundAction") {
        "" => found.required(
            at.key("parameterNotFoundAction"),
            line_at("parameterNotFoundAction"),
            "",
        ),
        "Deny" | "Allow" => {}
        other => found.not_supported(
            at.key("parameterNotFoundAction"),
            line_at("parameterNotFoundAction"),
            other,
            &["Deny", "Allow"],
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::super::read::found;

    const HOOKS: &str = "io.k8s.api.admissionregistration.v1.ValidatingWebhookConfiguration";

    #[test]
    fn webhooks_names_effects_and_clients() {
        let good = "webhooks:\n- name: check.example.com\n  clientConfig: {url: \"https://hook.example.com/validate\"}\n  rules: [{apiGroups: [\"\"], apiVersions: [v1], operations: [CREATE], resources: [pods]}]\n  sideEffects: None\n  admissionReviewVersions: [v1]\n";
        assert!(found(HOOKS, good).is_empty());
        let bad = "webhooks:\n- name: check\n  clientConfig: {url: \"http://hook.example.com/validate\"}\n  rules: [{apiGroups: [], apiVersions: [v1], operations: [CREATE], resources: [pods]}]\n  sideEffects: Some\n  timeoutSeconds: 31\n  admissionReviewVersions: [v9]\n- name: check\n  clientConfig: {service: {name: s, namespace: ns}}\n  sideEffects: None\n  admissionReviewVersions: [v1, v1]\n";
        assert_eq!(
            found(HOOKS, bad),
            [
                "webhooks[0].name@2: Invalid value: \"check\": should be a domain with at least three segments separated by dots",
                "webhooks[0].rules[0].apiGroups@4: Required value",
                "webhooks[0].sideEffects@5: Unsupported value: \"Some\": supported values: \"None\", \"NoneOnDryRun\"",
                "webhooks[0].timeoutSeconds@6: Invalid value: 31: the timeout value must be between 1 and 30 seconds",
                "webhooks[0].clientConfig.url@3: Invalid value: \"http\": 'https' is the only allowed URL scheme; desired format: https://host[/path]",
                "webhooks[0].admissionReviewVersions@7: Invalid value: [\"v9\"]: must include at least one of v1, v1beta1",
                "webhooks[1].name@8: Invalid value: \"check\": should be a domain with at least three segments separated by dots",
                "webhooks[1].admissionReviewVersions[1]@11: Invalid value: \"v1\": duplicate version",
                "webhooks[1].name@8: Duplicate value: \"check\"",
            ]
        );
    }

    #[test]
    fn policies_and_bindings() {
        const POLICY: &str = "io.k8s.api.admissionregistration.v1.ValidatingAdmissionPolicy";
        let policy = "spec:\n  matchConstraints: {resourceRules: [{apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}]}\n  validations: [{expression: 'true', reason: INVALID}]\n";
        assert_eq!(
            found(POLICY, policy),
            ["spec.validations[0].reason@3: Unsupported value: \"INVALID\": supported values: \"Forbidden\", \"Invalid\", \"RequestEntityTooLarge\""]
        );
        const BINDING: &str =
            "io.k8s.api.admissionregistration.v1.ValidatingAdmissionPolicyBinding";
        let binding = "spec:\n  policyName: Bad_Value\n  paramRef: {name: p, parameterNotFoundAction: Denyx}\n  validationActions: [Deny, Deny]\n";
        let messages = found(BINDING, binding);
        assert!(messages[0].starts_with(
            "spec.policyName@2: Invalid value: \"Bad_Value\": a lowercase RFC 1123 subdomain"
        ));
        assert_eq!(
            messages[1..],
            [
                "spec.paramRef.parameterNotFoundAction@3: Unsupported value: \"Denyx\": supported values: \"Deny\", \"Allow\"",
                "spec.validationActions[1]@4: Duplicate value: \"Deny\"",
            ]
        );
    }
}
