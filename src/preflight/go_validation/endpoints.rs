//! An EndpointSlice's checks (discovery `ValidateEndpointSlice`:
//! `validateEndpoints`, `validatePorts`): each endpoint has addresses of
//! the slice's type, ports have unique DNS-label names; and an Endpoints
//! object's (core `validateEndpointSubsets`): each subset has addresses,
//! each an IP outside the special ranges, ports in range.

use super::addresses::{endpoint_ip, legacy_ip, parse_sloppy, strict};
use super::field_error::{at, duplicate, invalid_raw, invalid_str, required};
use super::read::{get, go_text, items_at, line_of, Set};
use super::{Broken, Scope, Table};
use crate::document::Value;
use crate::document::{Entry, Node};
use crate::preflight::names::{dns1123_label, dns1123_subdomain, qualified_name};

/// The checks, by the definition of the object they read.
pub(super) const CHECKS: Table = &[
    ("io.k8s.api.discovery.v1.EndpointSlice", slice),
    ("io.k8s.api.core.v1.Endpoints", endpoints),
    ("io.k8s.api.discovery.v1.EndpointHints", hints),
];

/// discovery `maxZoneHints`.
const MAX_ZONE_HINTS: usize = 8;

/// discovery `validateHints`' zones: at most eight, each name once and a
/// label value (`forNodes`, behind a gate until 1.34, is not read here).
fn hints(_: &Scope, entries: &[Entry], line: u32, out: &mut Vec<Broken>) {
    let zones = items_at(entries, "forZones");
    if zones.len() > MAX_ZONE_HINTS {
        let message = format!(
            "Too many: {}: must have at most {MAX_ZONE_HINTS} items",
            zones.len()
        );
        out.push(at("forZones", line_of(entries, "forZones", line), message));
        return;
    }
    let mut seen: Vec<&str> = Vec::with_capacity(zones.len());
    for (index, zone) in zones.iter().enumerate() {
        let Some(zone) = zone.as_map() else {
            continue;
        };
        let Some(name) = go_text(zone, "name") else {
            continue;
        };
        let last = format!("forZones[{index}].name");
        let name_line = line_of(zone, "name", line);
        if seen.contains(&name) {
            out.push(at(last.clone(), name_line, duplicate(name)));
        } else {
            seen.push(name);
        }
        for message in crate::preflight::names::label_value(name) {
            out.push(at(last.clone(), name_line, invalid_str(name, &message)));
        }
    }
}

/// core `validateEndpointSubsets` (the port names' presence and form are
/// the refinements' `required_when_many` and the schema's).
fn endpoints(scope: &Scope, entries: &[Entry], line: u32, out: &mut Vec<Broken>) {
    for (index, subset) in items_at(entries, "subsets").iter().enumerate() {
        let Some(subset) = subset.as_map() else {
            continue;
        };
        let path = format!("subsets[{index}]");
        let ready = items_at(subset, "addresses");
        let not_ready = items_at(subset, "notReadyAddresses");
        if ready.is_empty() && not_ready.is_empty() {
            out.push(at(
                path.clone(),
                subset.first().map_or(line, |entry| entry.line),
                required("must specify `addresses` or `notReadyAddresses`"),
            ));
        }
        for (list, addresses) in [("addresses", ready), ("notReadyAddresses", not_ready)] {
            for (position, address) in addresses.iter().enumerate() {
                let at_path = format!("{path}.{list}[{position}]");
                endpoint_address(scope, &at_path, address, out);
            }
        }
        for (position, port) in items_at(subset, "ports").iter().enumerate() {
            let Some(port) = port.as_map() else {
                continue;
            };
            let at_path = format!("{path}.ports[{position}]");
            if let Some(Value::Int(number)) = get(port, "port").map(|node| &node.value) {
                if !(1..=65535).contains(number) {
                    out.push(at(
                        format!("{at_path}.port"),
                        line_of(port, "port", line),
                        invalid_raw(
                            &number.to_string(),
                            "must be between 1 and 65535, inclusive",
                        ),
                    ));
                }
            }
            if let Some(protocol) = get(port, "appProtocol").and_then(Node::as_str) {
                for message in qualified_name(protocol) {
                    out.push(at(
                        format!("{at_path}.appProtocol"),
                        line_of(port, "appProtocol", line),
                        invalid_str(protocol, &message),
                    ));
                }
            }
        }
    }
}

/// core `validateEndpointAddress`: the IP (as a legacy field, then
/// `ValidateEndpointIP`), the hostname a DNS label, the node name a
/// subdomain.
fn endpoint_address(scope: &Scope, path: &str, address: &Node, out: &mut Vec<Broken>) {
    let entries = address.as_map().unwrap_or(&[]);
    let Some(ip) = go_text(entries, "ip") else {
        return;
    };
    let ip_line = line_of(entries, "ip", address.line);
    let ip_path = format!("{path}.ip");
    for message in legacy_ip(ip, strict(scope.target)) {
        out.push(at(ip_path.clone(), ip_line, invalid_str(ip, message)));
    }
    if let Some(hostname) = get(entries, "hostname")
        .and_then(Node::as_str)
        .filter(|h| !h.is_empty())
    {
        for message in dns1123_label(hostname) {
            out.push(at(
                format!("{path}.hostname"),
                line_of(entries, "hostname", address.line),
                invalid_str(hostname, &message),
            ));
        }
    }
    if let Some(node) = get(entries, "nodeName").and_then(Node::as_str) {
        for message in dns1123_subdomain(node) {
            out.push(at(
                format!("{path}.nodeName"),
                line_of(entries, "nodeName", address.line),
                invalid_str(node, &message),
            ));
        }
    }
    for message in endpoint_ip(ip) {
        out.push(at(ip_path.clone(), ip_line, invalid_str(ip, &message)));
    }
}

/// discovery `ValidateEndpointSlice` (the endpoints and ports).
fn slice(scope: &Scope, entries: &[Entry], line: u32, out: &mut Vec<Broken>) {
    let kind = get(entries, "addressType")
        .and_then(Node::as_str)
        .unwrap_or("");
    for (index, endpoint) in items_at(entries, "endpoints").iter().enumerate() {
        let Some(endpoint) = endpoint.as_map() else {
            continue;
        };
        let addresses = items_at(endpoint, "addresses");
        let addresses_line = line_of(
            endpoint,
            "addresses",
            endpoint.first().map_or(line, |e| e.line),
        );
        if addresses.is_empty() {
            out.push(at(
                format!("endpoints[{index}].addresses"),
                addresses_line,
                required("must contain at least 1 address"),
            ));
        }
        for (position, address) in addresses.iter().enumerate() {
            if let Some(text) = address.as_str() {
                check_address(scope, kind, text, index, position, address.line, out);
            }
        }
        if let Some(hostname) = get(endpoint, "hostname").and_then(Node::as_str) {
            for message in dns1123_label(hostname) {
                out.push(at(
                    format!("endpoints[{index}].hostname"),
                    line_of(endpoint, "hostname", line),
                    invalid_str(hostname, &message),
                ));
            }
        }
    }
    let mut names = Set::default();
    for (index, port) in items_at(entries, "ports").iter().enumerate() {
        let Some(port) = port.as_map() else {
            continue;
        };
        let port_line = port.first().map_or(line, |entry| entry.line);
        let Some(name) = go_text(port, "name") else {
            continue;
        };
        let name_line = line_of(port, "name", port_line);
        // Written out only for a finding.
        let path = || format!("ports[{index}].name");
        if !name.is_empty() {
            for message in dns1123_label(name) {
                out.push(at(path(), name_line, invalid_str(name, &message)));
            }
        }
        if !names.insert(name) {
            out.push(at(path(), name_line, duplicate(name)));
        }
        if let Some(protocol) = get(port, "appProtocol").and_then(Node::as_str) {
            for message in qualified_name(protocol) {
                out.push(at(
                    format!("ports[{index}].appProtocol"),
                    line_of(port, "appProtocol", port_line),
                    invalid_str(protocol, &message),
                ));
            }
        }
    }
}

/// One address of an endpoint, read as the slice's `addressType` says.
fn check_address(
    scope: &Scope,
    kind: &str,
    address: &str,
    endpoint: usize,
    position: usize,
    line: u32,
    out: &mut Vec<Broken>,
) {
    // The paths, written out only for a finding.
    let path = || format!("endpoints[{endpoint}].addresses");
    let indexed = || format!("endpoints[{endpoint}].addresses[{position}]");
    let family = match kind {
        "IPv4" => legacy_ip(address, strict(scope.target)),
        // IPv6 addresses are read strictly (`IsValidIP`) at every minor.
        "IPv6" => legacy_ip(address, true),
        _ => return,
    };
    if !family.is_empty() {
        for message in family {
            out.push(at(indexed(), line, invalid_str(address, message)));
        }
        return;
    }
    let v6 = parse_sloppy(address).is_some_and(|ip| ip.is_ipv6());
    if kind == "IPv4" && v6 {
        out.push(at(
            path(),
            line,
            invalid_str(address, "must be an IPv4 address"),
        ));
    }
    if kind == "IPv6" && !v6 {
        out.push(at(
            path(),
            line,
            invalid_str(address, "must be an IPv6 address"),
        ));
    }
    for message in endpoint_ip(address) {
        out.push(at(indexed(), line, invalid_str(address, &message)));
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::messages_at;
    use crate::Version;

    fn check(yaml: &str) -> Vec<String> {
        messages_at(
            "io.k8s.api.discovery.v1.EndpointSlice",
            yaml,
            Version::new(1, 35),
        )
    }

    #[test]
    fn endpoints_and_ports() {
        assert!(check("addressType: IPv4\nendpoints:\n- addresses: [10.1.2.3]\nports:\n- {name: http, port: 80}\n").is_empty());
        assert_eq!(
            check("addressType: IPv4\nendpoints:\n- addresses: []\n"),
            ["endpoints[0].addresses@3: Required value: must contain at least 1 address"]
        );
        assert_eq!(
            check("addressType: IPv4\nendpoints:\n- addresses: [not-an-ip]\n"),
            ["endpoints[0].addresses[0]@3: Invalid value: \"not-an-ip\": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)"]
        );
        assert_eq!(
            check("addressType: IPv4\nports:\n- {name: http}\n- {name: http}\n"),
            ["ports[1].name@4: Duplicate value: \"http\""]
        );
        assert_eq!(
            check("addressType: FQDN\nports:\n- {name: Bad_Value}\n").len(),
            1
        );
    }

    #[test]
    fn endpoints_subsets() {
        let check =
            |yaml: &str| messages_at("io.k8s.api.core.v1.Endpoints", yaml, Version::new(1, 35));
        assert!(
            check("subsets:\n- addresses: [{ip: 10.1.2.3}]\n  ports: [{port: 80}]\n").is_empty()
        );
        assert_eq!(
            check("subsets:\n- ports: [{port: 80}]\n"),
            ["subsets[0]@2: Required value: must specify `addresses` or `notReadyAddresses`"]
        );
        assert_eq!(
            check("subsets:\n- addresses: [{ip: 127.0.0.1}]\n  ports: [{port: 0}]\n"),
            [
                "subsets[0].addresses[0].ip@2: Invalid value: \"127.0.0.1\": may not be in the loopback range (127.0.0.0/8, ::1/128)",
                "subsets[0].ports[0].port@3: Invalid value: 0: must be between 1 and 65535, inclusive"
            ]
        );
    }

    #[test]
    fn zone_hints() {
        let h = "io.k8s.api.discovery.v1.EndpointHints";
        assert_eq!(
            messages_at(h, "forZones: [{name: a}, {name: Bad_}, {name: a}]\n", Version::new(1, 35)),
            [
                "forZones[1].name@1: Invalid value: \"Bad_\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
                "forZones[2].name@1: Duplicate value: \"a\"",
            ]
        );
        let nine = format!("forZones: [{}]\n", ["{name: z}"; 9].join(", "));
        assert_eq!(
            messages_at(h, &nine, Version::new(1, 35)),
            ["forZones@1: Too many: 9: must have at most 8 items"]
        );
    }
}
