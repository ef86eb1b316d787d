//! networking.k8s.io's checks (k8s.io/kubernetes
//! `pkg/apis/networking/validation`): an Ingress's rules, paths, backends
//! and TLS hosts, an IngressClass's controller and parameters, a
//! NetworkPolicy's selectors, ports and IP blocks.

use super::read::{entries, get, int, items, line_of, shown, text, Findings, Path};
use super::selector::label_selector;
use super::{Broken, Scope, Table};
use crate::document::{Entry, Node, Value};
use crate::preflight::names;
use crate::walk::{go_quoted, CrdFormat};
use crate::Version;
use std::net::IpAddr;

/// The checks, by the definition of the object they read.
pub(super) const CHECKS: Table = &[
    ("io.k8s.api.networking.v1.Ingress", ingress),
    ("io.k8s.api.networking.v1.IngressClass", ingress_class),
    ("io.k8s.api.networking.v1.NetworkPolicy", network_policy),
];

/// `ValidateIngressCreate`: `ValidateIngressSpec`, and the
/// `kubernetes.io/ingress.class` annotation agrees with `ingressClassName`.
fn ingress(scope: &Scope, object: &[Entry], line: u32, out: &mut Vec<Broken>) {
    let found = &mut Findings { out };
    let root = Path::Root;
    let spec_path = root.key("spec");
    let spec = entries(get(object, "spec"));
    let spec_line = line_of(object, "spec", line);
    let rules = items(get(spec, "rules"));
    let default_backend = get(spec, "defaultBackend");
    if rules.is_empty() && default_backend.is_none() {
        let shown = shown(get(spec, "rules"));
        let detail = "either `defaultBackend` or `rules` must be specified";
        found.invalid(spec_path, spec_line, &shown, detail);
    }
    if let Some(backend) = default_backend {
        self::backend(scope, backend, spec_path.key("defaultBackend"), found);
    }
    let rules_path = spec_path.key("rules");
    for (index, rule) in rules.iter().enumerate() {
        ingress_rule(scope, rule, rules_path.index(index), found);
    }
    let tls_path = spec_path.key("tls");
    for (index, tls) in items(get(spec, "tls")).iter().enumerate() {
        let at = tls_path.index(index);
        let fields = entries(Some(tls));
        let hosts_path = at.key("hosts");
        for (index, host) in items(get(fields, "hosts")).iter().enumerate() {
            // A host of another type is the walk's `wrong-type`.
            if let Some(text) = host.as_str() {
                found.invalid_each(hosts_path.index(index), host.line, text, host_rule(text));
            }
        }
        let secret = text(fields, "secretName");
        if !secret.is_empty() {
            let line = line_of(fields, "secretName", tls.line);
            found.invalid_each(
                at.key("secretName"),
                line,
                secret,
                names::dns1123_subdomain(secret),
            );
        }
    }
    let class_name = get(spec, "ingressClassName").and_then(Node::as_str);
    if let Some(class) = class_name {
        let line = line_of(spec, "ingressClassName", spec_line);
        found.invalid_each(
            spec_path.key("ingressClassName"),
            line,
            class,
            names::dns1123_subdomain(class),
        );
    }
    let metadata = entries(get(object, "metadata"));
    let annotations = entries(get(metadata, "annotations"));
    let annotation = annotations
        .iter()
        .rev()
        .find(|entry| entry.key == "kubernetes.io/ingress.class");
    if let (Some(annotation), Some(class)) = (annotation, class_name) {
        let value = annotation.value.as_str().unwrap_or("");
        if value != class {
            let path = root.key("annotations");
            found.invalid(
                path.key("kubernetes.io/ingress.class"),
                annotation.line,
                &go_quoted(value),
                "must match `ingressClassName` when both are specified",
            );
        }
    }
}

/// A host: a wildcard subdomain (`*.example.com`) when it holds `*`, else
/// a DNS-1123 subdomain.
fn host_rule(host: &str) -> Vec<String> {
    if host.contains('*') {
        wildcard_subdomain(host)
    } else {
        names::dns1123_subdomain(host)
    }
}

/// Go's `IsWildcardDNS1123Subdomain`.
fn wildcard_subdomain(host: &str) -> Vec<String> {
    let mut errors = Vec::new();
    if host.len() > names::DNS1123_SUBDOMAIN_MAX {
        errors.push(format!(
            "must be no more than {} characters",
            names::DNS1123_SUBDOMAIN_MAX
        ));
    }
    let valid = host.strip_prefix("*.").is_some_and(|rest| {
        names::dns1123_subdomain(rest)
            .iter()
            .all(|m| m.starts_with("must be no more"))
    });
    if !valid {
        errors.push("a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character (e.g. '*.example.com', regex used for validation is '\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')".to_owned());
    }
    errors
}

/// Whether `text` is an IP address as `netutils.ParseIPSloppy` reads one.
fn is_ip(text: &str) -> bool {
    let ipv4 = CrdFormat::supported("ipv4", None).is_some_and(|f| f.accepts(text));
    let ipv6 = CrdFormat::supported("ipv6", None).is_some_and(|f| f.accepts(text));
    ipv4 || ipv6
}

/// `validateIngressRules` for one rule: its host, then its HTTP paths.
fn ingress_rule(scope: &Scope, rule: &Node, path: Path<'_>, found: &mut Findings<'_>) {
    let fields = entries(Some(rule));
    let host = text(fields, "host");
    if !host.is_empty() {
        let line = line_of(fields, "host", rule.line);
        if is_ip(host) {
            found.invalid(
                path.key("host"),
                line,
                &go_quoted(host),
                "must be a DNS name, not an IP address",
            );
        }
        found.invalid_each(path.key("host"), line, host, host_rule(host));
    }
    let Some(http) = get(fields, "http") else {
        return;
    };
    let http_path = path.key("http");
    let http_fields = entries(Some(http));
    let paths = items(get(http_fields, "paths"));
    let paths_path = http_path.key("paths");
    if paths.is_empty() {
        let line = line_of(http_fields, "paths", http.line);
        found.required(paths_path, line, "");
    }
    for (index, item) in paths.iter().enumerate() {
        http_path_rule(scope, item, paths_path.index(index), found);
    }
}

/// `validateHTTPIngressPath`.
fn http_path_rule(scope: &Scope, item: &Node, at: Path<'_>, found: &mut Findings<'_>) {
    let fields = entries(Some(item));
    let Some(path_type) = get(fields, "pathType").and_then(Node::as_str) else {
        if get(fields, "pathType").is_none() {
            found.required(at.key("pathType"), item.line, "pathType must be specified");
        }
        return;
    };
    let path = text(fields, "path");
    let line = line_of(fields, "path", item.line);
    let mut invalid = |detail: &str| found.invalid(at.key("path"), line, &go_quoted(path), detail);
    match path_type {
        "Exact" | "Prefix" => {
            if !path.starts_with('/') {
                invalid("must be an absolute path");
            }
            for sequence in ["//", "/./", "/../", "%2f", "%2F"] {
                if path.contains(sequence) {
                    invalid(&format!("must not contain '{sequence}'"));
                }
            }
            for suffix in ["/..", "/."] {
                if path.ends_with(suffix) {
                    invalid(&format!("cannot end with '{suffix}'"));
                }
            }
        }
        "ImplementationSpecific" => {
            if !path.is_empty() && !path.starts_with('/') {
                invalid("must be an absolute path");
            }
        }
        other => {
            let line = line_of(fields, "pathType", item.line);
            let supported = ["Exact", "ImplementationSpecific", "Prefix"];
            found.not_supported(at.key("pathType"), line, other, &supported);
        }
    }
    let backend = get(fields, "backend");
    let empty = Node::new(Value::Map(Vec::new()));
    self::backend(scope, backend.unwrap_or(&empty), at.key("backend"), found);
}

/// `validateIngressBackend`: a service (named, with a port name or
/// number) or a resource, not both.
fn backend(scope: &Scope, backend: &Node, at: Path<'_>, found: &mut Findings<'_>) {
    let fields = entries(Some(backend));
    let line = backend.line;
    match (get(fields, "resource"), get(fields, "service")) {
        (Some(_), Some(_)) => {
            found.invalid(
                at,
                line,
                "\"\"",
                "cannot set both resource and service backends",
            );
        }
        (Some(resource), None) => {
            let fields = entries(Some(resource));
            let at = at.key("resource");
            if let Some(group) = get(fields, "apiGroup").and_then(Node::as_str) {
                let line = line_of(fields, "apiGroup", resource.line);
                found.invalid_each(
                    at.key("apiGroup"),
                    line,
                    group,
                    names::dns1123_subdomain(group),
                );
            }
            for key in ["kind", "name"] {
                let value = text(fields, key);
                let line = line_of(fields, key, resource.line);
                if value.is_empty() {
                    found.required(at.key(key), line, "");
                } else {
                    found.invalid_each(at.key(key), line, value, names::path_segment(value, false));
                }
            }
        }
        (None, Some(service)) => {
            let fields = entries(Some(service));
            let service_path = at.key("service");
            let name = text(fields, "name");
            let name_line = line_of(fields, "name", service.line);
            if name.is_empty() {
                found.required(service_path.key("name"), name_line, "");
            } else {
                // The RelaxedServiceNameValidation gate, beta and on from
                // 1.36, relaxes a DNS-1035 label to a DNS-1123 label.
                let messages = if scope.target >= Version::new(1, 36) {
                    names::dns1123_label(name)
                } else {
                    names::dns1035_label(name)
                };
                found.invalid_each(service_path.key("name"), name_line, name, messages);
            }
            let port = entries(get(fields, "port"));
            let port_line = line_of(fields, "port", service.line);
            let port_name = text(port, "name");
            let number = int(port, "number").unwrap_or(0);
            let port_path = service_path.key("port");
            match (!port_name.is_empty(), number != 0) {
                (true, true) => {
                    found.invalid(at, line, "\"\"", "cannot set both port name & port number")
                }
                (true, false) => {
                    let line = line_of(port, "name", port_line);
                    found.invalid_each(
                        port_path.key("name"),
                        line,
                        port_name,
                        port_name_rule(port_name),
                    );
                }
                (false, true) => {
                    if !(1..=65535).contains(&number) {
                        let line = line_of(port, "number", port_line);
                        found.invalid(
                            port_path.key("number"),
                            line,
                            &number.to_string(),
                            "must be between 1 and 65535, inclusive",
                        );
                    }
                }
                (false, false) => found.required(at, line, "port name or number is required"),
            }
        }
        (None, None) => found.invalid(at, line, "\"\"", "resource or service backend is required"),
    }
}

/// Go's `IsValidPortName`: an IANA service name.
pub(super) fn port_name_rule(name: &str) -> Vec<String> {
    let mut errors = Vec::new();
    if name.len() > 15 {
        errors.push("must be no more than 15 characters".to_owned());
    }
    let bytes = name.as_bytes();
    let charset = |b: &u8| b.is_ascii_lowercase() || b.is_ascii_digit() || *b == b'-';
    if bytes.is_empty() || !bytes.iter().all(charset) {
        errors.push(
            "must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)".to_owned(),
        );
    }
    if !bytes.iter().any(u8::is_ascii_lowercase) {
        errors.push("must contain at least one letter (a-z)".to_owned());
    }
    if name.contains("--") {
        errors.push("must not contain consecutive hyphens".to_owned());
    }
    if name.starts_with('-') || name.ends_with('-') {
        errors.push("must not begin or end with a hyphen".to_owned());
    }
    errors
}

/// `validateIngressClassSpec` and its parameters reference.
fn ingress_class(_: &Scope, object: &[Entry], line: u32, out: &mut Vec<Broken>) {
    let found = &mut Findings { out };
    let root = Path::Root;
    let spec_path = root.key("spec");
    let spec = entries(get(object, "spec"));
    let spec_line = line_of(object, "spec", line);
    let controller = text(spec, "controller");
    let controller_path = spec_path.key("controller");
    let controller_line = line_of(spec, "controller", spec_line);
    if controller.len() > 250 {
        found.too_long(controller_path, controller_line, 250);
    }
    domain_prefixed_path(controller, controller_path, controller_line, found);
    let Some(parameters) = get(spec, "parameters") else {
        return;
    };
    let at = spec_path.key("parameters");
    let fields = entries(Some(parameters));
    let line_at = |key| line_of(fields, key, parameters.line);
    if let Some(group) = get(fields, "apiGroup").and_then(Node::as_str) {
        found.invalid_each(
            at.key("apiGroup"),
            line_at("apiGroup"),
            group,
            names::dns1123_subdomain(group),
        );
    }
    for key in ["kind", "name"] {
        let value = text(fields, key);
        if value.is_empty() {
            found.required(at.key(key), line_at(key), "");
        } else {
            found.invalid_each(
                at.key(key),
                line_at(key),
                value,
                names::path_segment(value, false),
            );
        }
    }
    let Some(scope) = get(fields, "scope").and_then(Node::as_str) else {
        found.required(at.key("scope"), line_at("scope"), "");
        return;
    };
    let namespace = get(fields, "namespace").and_then(Node::as_str);
    match scope {
        "Namespace" => match namespace {
            None => found.required(
                at.key("namespace"),
                line_at("namespace"),
                "`parameters.scope` is set to 'Namespace'",
            ),
            Some(namespace) => found.invalid_each(
                at.key("namespace"),
                line_at("namespace"),
                namespace,
                names::dns1123_label(namespace),
            ),
        },
        "Cluster" => {
            if namespace.is_some() {
                found.forbidden(
                    at.key("namespace"),
                    line_at("namespace"),
                    "`parameters.scope` is set to 'Cluster'",
                );
            }
        }
        other => found.not_supported(
            at.key("scope"),
            line_at("scope"),
            other,
            &["Cluster", "Namespace"],
        ),
    }
}

/// Go's `IsDomainPrefixedPath`: `host/path`, the host a DNS-1123
/// subdomain, the path of URL characters.
fn domain_prefixed_path(value: &str, at: Path<'_>, line: u32, found: &mut Findings<'_>) {
    if value.is_empty() {
        found.required(at, line, "");
        return;
    }
    let Some((host, path)) = value
        .split_once('/')
        .filter(|(h, p)| !h.is_empty() && !p.is_empty())
    else {
        found.invalid(
            at,
            line,
            &go_quoted(value),
            "must be a domain-prefixed path (such as \"acme.io/foo\")",
        );
        return;
    };
    found.invalid_each(at, line, host, names::dns1123_subdomain(host));
    let url_char = |b: u8| b.is_ascii_alphanumeric() || b"/-._~%!$&'()*+,;=:".contains(&b);
    if !path.bytes().all(url_char) {
        found.invalid(
            at,
            line,
            &go_quoted(path),
            "Invalid path (regex used for validation is '[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+')",
        );
    }
}

/// `ValidateNetworkPolicySpec`.
fn network_policy(scope: &Scope, object: &[Entry], line: u32, out: &mut Vec<Broken>) {
    let found = &mut Findings { out };
    let root = Path::Root;
    let spec_path = root.key("spec");
    let spec = entries(get(object, "spec"));
    let spec_line = line_of(object, "spec", line);
    if let Some(selector) = get(spec, "podSelector") {
        label_selector(selector, spec_path.key("podSelector"), selector.line, found);
    }
    for (direction, peers) in [("ingress", "from"), ("egress", "to")] {
        let direction_path = spec_path.key(direction);
        for (index, rule) in items(get(spec, direction)).iter().enumerate() {
            let at = direction_path.index(index);
            let fields = entries(Some(rule));
            let ports_path = at.key("ports");
            for (index, port) in items(get(fields, "ports")).iter().enumerate() {
                policy_port(scope, port, ports_path.index(index), found);
            }
            let peers_path = at.key(peers);
            for (index, peer) in items(get(fields, peers)).iter().enumerate() {
                policy_peer(peer, peers_path.index(index), found);
            }
        }
    }
    let types = items(get(spec, "policyTypes"));
    let types_path = spec_path.key("policyTypes");
    if types.len() > 2 {
        let line = line_of(spec, "policyTypes", spec_line);
        found.invalid(
            types_path,
            line,
            &shown(get(spec, "policyTypes")),
            "may not specify more than two policyTypes",
        );
        return;
    }
    for (index, policy_type) in types.iter().enumerate() {
        let value = policy_type.as_str().unwrap_or("");
        if value != "Ingress" && value != "Egress" {
            found.not_supported(
                types_path.index(index),
                policy_type.line,
                value,
                &["Ingress", "Egress"],
            );
        }
    }
}

/// `ValidateNetworkPolicyPort`. An `endPort` below `port` shows `port`'s
/// value before 1.37 and its own from 1.37.
fn policy_port(scope: &Scope, port: &Node, at: Path<'_>, found: &mut Findings<'_>) {
    let fields = entries(Some(port));
    let line_at = |key| line_of(fields, key, port.line);
    if let Some(protocol) = get(fields, "protocol").and_then(Node::as_str) {
        if !matches!(protocol, "TCP" | "UDP" | "SCTP") {
            found.not_supported(
                at.key("protocol"),
                line_at("protocol"),
                protocol,
                &["TCP", "UDP", "SCTP"],
            );
        }
    }
    let end_port = int(fields, "endPort");
    match get(fields, "port").map(|node| &node.value) {
        Some(Value::Int(number)) => {
            if !(1..=65535).contains(number) {
                found.invalid(
                    at.key("port"),
                    line_at("port"),
                    &number.to_string(),
                    "must be between 1 and 65535, inclusive",
                );
            }
            if let Some(end) = end_port {
                if end < *number {
                    let shown = if scope.target >= crate::Version::new(1, 37) {
                        end
                    } else {
                        *number
                    };
                    found.invalid(
                        at.key("endPort"),
                        line_at("endPort"),
                        &shown.to_string(),
                        "must be greater than or equal to `port`",
                    );
                }
                if !(1..=65535).contains(&end) {
                    found.invalid(
                        at.key("endPort"),
                        line_at("endPort"),
                        &end.to_string(),
                        "must be between 1 and 65535, inclusive",
                    );
                }
            }
        }
        Some(Value::String(name)) => {
            if let Some(end) = end_port {
                found.invalid(
                    at.key("endPort"),
                    line_at("endPort"),
                    &end.to_string(),
                    "may not be specified when `port` is non-numeric",
                );
            }
            found.invalid_each(at.key("port"), line_at("port"), name, port_name_rule(name));
        }
        _ => {
            if let Some(end) = end_port {
                found.invalid(
                    at.key("endPort"),
                    line_at("endPort"),
                    &end.to_string(),
                    "may not be specified when `port` is not specified",
                );
            }
        }
    }
}

/// `ValidateNetworkPolicyPeer`: one kind of peer, an IP block alone.
fn policy_peer(peer: &Node, at: Path<'_>, found: &mut Findings<'_>) {
    let fields = entries(Some(peer));
    let mut peers = 0;
    for key in ["podSelector", "namespaceSelector"] {
        if let Some(selector) = get(fields, key) {
            peers += 1;
            label_selector(selector, at.key(key), selector.line, found);
        }
    }
    let block = get(fields, "ipBlock");
    if let Some(block) = block {
        peers += 1;
        ip_block(block, at.key("ipBlock"), found);
    }
    if peers == 0 {
        found.required(at, peer.line, "must specify a peer");
    } else if peers > 1 && block.is_some() {
        found.forbidden(
            at,
            peer.line,
            "may not specify both ipBlock and another peer",
        );
    }
}

const CIDR_MESSAGE: &str = "must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)";

/// `ValidateIPBlock`: a CIDR, and exceptions strictly inside it.
fn ip_block(block: &Node, at: Path<'_>, found: &mut Findings<'_>) {
    let fields = entries(Some(block));
    let cidr = text(fields, "cidr");
    let line = line_of(fields, "cidr", block.line);
    if cidr.is_empty() {
        found.required(at.key("cidr"), line, "");
        return;
    }
    let is_cidr = |text: &str| CrdFormat::supported("cidr", None).is_some_and(|f| f.accepts(text));
    if !is_cidr(cidr) {
        found.invalid(at.key("cidr"), line, &go_quoted(cidr), CIDR_MESSAGE);
        return;
    }
    let network = network(cidr);
    let except_path = at.key("except");
    for (index, except) in items(get(fields, "except")).iter().enumerate() {
        let Some(text) = except.as_str() else {
            continue;
        };
        if !is_cidr(text) {
            found.invalid(
                except_path.index(index),
                except.line,
                &go_quoted(text),
                CIDR_MESSAGE,
            );
            continue;
        }
        // Both read strictly (a sloppy form with leading zeros is left).
        if let (Some(outer), Some(inner)) = (network, self::network(text)) {
            if !strict_subset(outer, inner) {
                found.invalid(
                    except_path.index(index),
                    except.line,
                    &go_quoted(text),
                    "must be a strict subset of `cidr`",
                );
            }
        }
    }
}

/// A CIDR as an address and a prefix length, when it reads strictly.
fn network(text: &str) -> Option<(IpAddr, u32)> {
    let (address, prefix) = text.split_once('/')?;
    Some((address.parse().ok()?, prefix.parse().ok()?))
}

/// `inner`'s address lies in `outer` and its prefix is longer.
fn strict_subset(outer: (IpAddr, u32), inner: (IpAddr, u32)) -> bool {
    let masked = |address: IpAddr, prefix: u32| -> Option<u128> {
        match address {
            IpAddr::V4(v4) => Some(u128::from(
                u32::from(v4).checked_shr(32 - prefix.min(32)).unwrap_or(0),
            )),
            IpAddr::V6(v6) => Some(
                u128::from(v6)
                    .checked_shr(128 - prefix.min(128))
                    .unwrap_or(0),
            ),
        }
    };
    let same_family = outer.0.is_ipv4() == inner.0.is_ipv4();
    same_family && outer.1 < inner.1 && masked(outer.0, outer.1) == masked(inner.0, outer.1)
}

#[cfg(test)]
mod tests {
    use super::super::read::{found, found_at};

    const INGRESS: &str = "io.k8s.api.networking.v1.Ingress";

    #[test]
    fn ingress_rules_paths_and_backends() {
        let good = "spec:\n  rules:\n  - host: shop.example.com\n    http:\n      paths: [{path: /, pathType: Prefix, backend: {service: {name: web, port: {number: 80}}}}]\n";
        assert!(found(INGRESS, good).is_empty());
        assert_eq!(
            found(INGRESS, "spec: {rules: []}\n"),
            ["spec@1: Invalid value: []: either `defaultBackend` or `rules` must be specified"]
        );
        let bad = "spec:\n  rules:\n  - host: 10.0.0.1\n    http:\n      paths: [{path: shop, pathType: Prefix, backend: {service: {name: web, port: {}}}}]\n";
        assert_eq!(
            found(INGRESS, bad),
            [
                "spec.rules[0].host@3: Invalid value: \"10.0.0.1\": must be a DNS name, not an IP address",
                "spec.rules[0].http.paths[0].path@5: Invalid value: \"shop\": must be an absolute path",
                "spec.rules[0].http.paths[0].backend@5: Required value: port name or number is required",
            ]
        );
        let both =
            "spec: {defaultBackend: {service: {name: 1web, port: {name: http, number: 80}}}}\n";
        assert_eq!(found_at(INGRESS, 36, both).len(), 1);
        let at_35 = found_at(INGRESS, 35, both);
        assert!(at_35[0].starts_with(
            "spec.defaultBackend.service.name@1: Invalid value: \"1web\": a DNS-1035 label"
        ));
        assert_eq!(
            at_35[1],
            "spec.defaultBackend@1: Invalid value: \"\": cannot set both port name & port number"
        );
    }

    #[test]
    fn ingress_classes_name_a_controller() {
        const CLASS: &str = "io.k8s.api.networking.v1.IngressClass";
        assert!(found(CLASS, "spec: {controller: example.com/ingress}\n").is_empty());
        assert_eq!(
            found(CLASS, "spec: {}\n"),
            ["spec.controller@1: Required value"]
        );
        assert_eq!(
            found(CLASS, "spec: {controller: nginx}\n"),
            ["spec.controller@1: Invalid value: \"nginx\": must be a domain-prefixed path (such as \"acme.io/foo\")"]
        );
        assert_eq!(
            found(CLASS, "spec: {controller: a.io/b, parameters: {kind: K, name: p, scope: Cluster, namespace: x}}\n"),
            ["spec.parameters.namespace@1: Forbidden: `parameters.scope` is set to 'Cluster'"]
        );
    }

    #[test]
    fn network_policy_ports_peers_and_blocks() {
        const POLICY: &str = "io.k8s.api.networking.v1.NetworkPolicy";
        let bad = "spec:\n  podSelector: {matchExpressions: [{key: app, operator: Equals}]}\n  ingress:\n  - ports: [{port: http, endPort: 90}, {port: 90, endPort: 80}]\n    from: [{ipBlock: {cidr: 10.0.0.0/16, except: [10.1.0.0/24, 10.0.1.0/24]}}, {ipBlock: {cidr: 10.0.0.0/33}}, {}]\n";
        assert_eq!(
            found(POLICY, bad),
            [
                "spec.podSelector.matchExpressions[0].operator@2: Invalid value: \"Equals\": not a valid selector operator",
                "spec.ingress[0].ports[0].endPort@4: Invalid value: 90: may not be specified when `port` is non-numeric",
                "spec.ingress[0].ports[1].endPort@4: Invalid value: 90: must be greater than or equal to `port`",
                "spec.ingress[0].from[0].ipBlock.except[0]@5: Invalid value: \"10.1.0.0/24\": must be a strict subset of `cidr`",
                "spec.ingress[0].from[1].ipBlock.cidr@5: Invalid value: \"10.0.0.0/33\": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)",
                "spec.ingress[0].from[2]@5: Required value: must specify a peer",
            ]
        );
        // From 1.37 the server shows the end port's own value.
        let below = "spec:\n  podSelector: {}\n  ingress:\n  - ports: [{port: 90, endPort: 80}]\n";
        assert_eq!(
            found_at(POLICY, 37, below),
            ["spec.ingress[0].ports[0].endPort@4: Invalid value: 80: must be greater than or equal to `port`"]
        );
    }
}
