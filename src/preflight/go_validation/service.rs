//! A Service's checks (core `ValidateServiceCreate` → `validateService`,
//! `validateServicePort`, `ValidateServiceClusterIPsRelatedFields`,
//! `validateServiceExternalTrafficPolicy`,
//! `validateServiceTrafficDistribution`), read after the defaults the
//! server applies first (`SetDefaults_Service`: type `ClusterIP`, session
//! affinity `None`, protocol `TCP`, `externalTrafficPolicy` `Cluster` when
//! externally accessible; the create strategy copies `clusterIP` into an
//! empty `clusterIPs`). What the schema or a refinement already says (enum
//! values, port numbers and names, unique port names) is left to them.

use super::addresses::{endpoint_ip, legacy_cidr, legacy_ip, strict};
use super::field_error::{
    at, duplicate, forbidden, invalid_raw, invalid_str, json_list, not_supported, required,
};
use super::read::{entries_of, get, go_text, items_at, line_of, string_map, Set};
use super::{Broken, Scope, Table};
use crate::document::{Entry, Node, Value};
use crate::preflight::names::{dns1123_subdomain, label_value, qualified_name};
use crate::Version;

/// The checks, by the definition of the object they read.
pub(super) const CHECKS: Table = &[("io.k8s.api.core.v1.Service", service)];

/// `ServiceAffinity`'s most seconds (`MaxClientIPServiceAffinitySeconds`).
const MAX_AFFINITY_SECONDS: i64 = 86_400;

/// The values of `trafficDistribution` (feature gate
/// `PreferSameTrafficDistribution`, on by default from 1.34).
const TRAFFIC_DISTRIBUTIONS: &[&str] = &["PreferClose", "PreferSameZone", "PreferSameNode"];

/// Before 1.34 (the gate alpha and off in 1.33, absent before): only
/// `PreferClose`.
const TRAFFIC_DISTRIBUTIONS_BEFORE_1_34: &[&str] = &["PreferClose"];

/// The kubelet's port, which a LoadBalancer Service may not expose before
/// 1.33 (`ports.KubeletPort`; the check was removed in 1.33).
const KUBELET_PORT: i64 = 10_250;

/// The annotation the `loadBalancerSourceRanges` field replaced.
const SOURCE_RANGES_ANNOTATION: &str = "service.beta.kubernetes.io/load-balancer-source-ranges";

/// The Service's spec as the server validates it, after its defaults.
pub(super) struct Spec<'a> {
    pub(super) entries: &'a [Entry],
    pub(super) line: u32,
    kind: &'a str,
    /// `clusterIP` as written (`""` when absent).
    pub(super) cluster_ip: &'a str,
    pub(super) cluster_ips: Vec<&'a str>,
    pub(super) cluster_ips_line: u32,
}

impl Spec<'_> {
    fn headless(&self) -> bool {
        self.cluster_ips == ["None"]
    }

    /// The line of `key` in the spec, or the spec's.
    pub(super) fn line(&self, key: &str) -> u32 {
        line_of(self.entries, key, self.line)
    }
}

/// core `validateService` on create.
fn service(scope: &Scope, entries: &[Entry], line: u32, out: &mut Vec<Broken>) {
    let start = out.len();
    let spec_line = line_of(entries, "spec", line);
    let spec_entries = entries_of(entries, "spec");
    // Another type is the walk's `wrong-type`.
    let Some(kind) = go_text(spec_entries, "type") else {
        return;
    };
    let kind = if kind.is_empty() { "ClusterIP" } else { kind };
    let (cluster_ip, cluster_ips) = cluster_ips(spec_entries);
    let spec = Spec {
        entries: spec_entries,
        line: spec_line,
        kind,
        cluster_ips_line: line_of(
            spec_entries,
            "clusterIPs",
            line_of(spec_entries, "clusterIP", spec_line),
        ),
        cluster_ip,
        cluster_ips,
    };
    let ports = items_at(spec_entries, "ports");
    if ports.is_empty() && !spec.headless() && kind != "ExternalName" {
        out.push(at("spec.ports", spec.line("ports"), required("")));
    }
    kind_rules(&spec, out);
    for (index, port) in ports.iter().enumerate() {
        if let Some(port) = port.as_map() {
            port_rules(index, port, out);
        }
    }
    selector(&spec, out);
    session_affinity(&spec, out);
    if kind != "ExternalName" {
        cluster_ips_rules(scope, &spec, out);
    }
    external_ips(scope, &spec, out);
    if kind == "ClusterIP" {
        for (index, port) in ports.iter().enumerate() {
            let port = port.as_map().unwrap_or(&[]);
            if int(port, "nodePort").is_some_and(|value| value != 0) {
                out.push(at(
                    format!("spec.ports[{index}].nodePort"),
                    line_of(port, "nodePort", spec.line),
                    forbidden("may not be used when `type` is 'ClusterIP'"),
                ));
            }
        }
    }
    duplicate_ports(ports, spec.line, out);
    source_ranges(scope, &spec, entries, out);
    if kind != "LoadBalancer" {
        for key in ["allocateLoadBalancerNodePorts", "loadBalancerClass"] {
            if get(spec_entries, key).is_some() {
                out.push(at(
                    format!("spec.{key}"),
                    spec.line(key),
                    forbidden("may only be used when `type` is 'LoadBalancer'"),
                ));
            }
        }
    } else if let Some(class) = get(spec_entries, "loadBalancerClass").and_then(Node::as_str) {
        for message in qualified_name(class) {
            out.push(at(
                "spec.loadBalancerClass",
                spec.line("loadBalancerClass"),
                invalid_str(class, &message),
            ));
        }
    }
    traffic_policies(scope, &spec, out);
    if kind == "LoadBalancer" && scope.target < Version::new(1, 33) {
        kubelet_port(ports, spec.line, out);
    }
    // On create the REST layer settles the IP families first, and only
    // when the cluster IP fields pass their pre-validation
    // (`ValidateServiceClusterIPsRelatedFields`, the findings above).
    let prevalidated = ["spec.clusterIPs", "spec.ipFamilies", "spec.ipFamilyPolicy"];
    let prevalidation_failed = out[start..].iter().any(|broken| {
        prevalidated
            .iter()
            .any(|path| broken.last.starts_with(path))
    });
    if !prevalidation_failed && kind != "ExternalName" {
        super::service_families::on_cluster(&spec, out);
    }
}

/// `clusterIP` and `clusterIPs` as the create strategy leaves them
/// (`normalizeClusterIPs`: `clusterIP` alone fills an empty `clusterIPs`).
fn cluster_ips(spec: &[Entry]) -> (&str, Vec<&str>) {
    let cluster_ip = go_text(spec, "clusterIP").unwrap_or("");
    let mut cluster_ips: Vec<&str> = items_at(spec, "clusterIPs")
        .iter()
        .filter_map(Node::as_str)
        .collect();
    if !cluster_ip.is_empty() && cluster_ips.is_empty() {
        cluster_ips.push(cluster_ip);
    }
    (cluster_ip, cluster_ips)
}

/// An integer field, when it is one.
fn int(entries: &[Entry], key: &str) -> Option<i64> {
    match get(entries, key)?.value {
        Value::Int(value) => Some(value),
        _ => None,
    }
}

/// The rules of `LoadBalancer`, `NodePort` and `ExternalName` Services.
fn kind_rules(spec: &Spec, out: &mut Vec<Broken>) {
    match spec.kind {
        "LoadBalancer" | "NodePort" if spec.headless() => {
            let detail = format!("may not be set to 'None' for {} services", spec.kind);
            out.push(at(
                "spec.clusterIPs[0]",
                spec.cluster_ips_line,
                invalid_str("None", &detail),
            ));
        }
        "ExternalName" => {
            if !spec.cluster_ips.is_empty() {
                out.push(at(
                    "spec.clusterIPs",
                    spec.cluster_ips_line,
                    forbidden("may not be set for ExternalName services"),
                ));
            }
            if !items_at(spec.entries, "ipFamilies").is_empty() {
                out.push(at(
                    "spec.ipFamilies",
                    spec.line("ipFamilies"),
                    forbidden("may not be set for ExternalName services"),
                ));
            }
            if get(spec.entries, "ipFamilyPolicy").is_some() {
                out.push(at(
                    "spec.ipFamilyPolicy",
                    spec.line("ipFamilyPolicy"),
                    forbidden("may not be set for ExternalName services"),
                ));
            }
            let Some(name) = go_text(spec.entries, "externalName") else {
                return;
            };
            let name = name.strip_suffix('.').unwrap_or(name);
            let line = spec.line("externalName");
            if name.is_empty() {
                out.push(at("spec.externalName", line, required("")));
                return;
            }
            for message in dns1123_subdomain(name) {
                out.push(at("spec.externalName", line, invalid_str(name, &message)));
            }
        }
        _ => {}
    }
}

/// core `validateServicePort`, the part no refinement states: the
/// `appProtocol` is a qualified name.
fn port_rules(index: usize, port: &[Entry], out: &mut Vec<Broken>) {
    if let Some(protocol) = get(port, "appProtocol").and_then(Node::as_str) {
        let line = line_of(port, "appProtocol", 0);
        for message in qualified_name(protocol) {
            out.push(at(
                format!("spec.ports[{index}].appProtocol"),
                line,
                invalid_str(protocol, &message),
            ));
        }
    }
}

/// unversioned `ValidateLabels` of the selector: keys are qualified names,
/// values label values.
fn selector(spec: &Spec, out: &mut Vec<Broken>) {
    let line = spec.line("selector");
    for (key, value) in string_map(get(spec.entries, "selector")) {
        for message in qualified_name(key) {
            out.push(at("spec.selector", line, invalid_str(key, &message)));
        }
        for message in label_value(value) {
            out.push(at("spec.selector", line, invalid_str(value, &message)));
        }
    }
}

/// `validateClientIPAffinityConfig`: a `ClientIP` affinity's timeout, when
/// given (the server defaults a missing one), is within a day.
fn session_affinity(spec: &Spec, out: &mut Vec<Broken>) {
    if get(spec.entries, "sessionAffinity").and_then(Node::as_str) != Some("ClientIP") {
        return;
    }
    let config = entries_of(spec.entries, "sessionAffinityConfig");
    let client = entries_of(config, "clientIP");
    let Some(timeout) = int(client, "timeoutSeconds") else {
        return;
    };
    if timeout <= 0 || timeout > MAX_AFFINITY_SECONDS {
        out.push(at(
            "spec.sessionAffinityConfig.clientIP.timeoutSeconds",
            line_of(client, "timeoutSeconds", spec.line),
            invalid_raw(
                &timeout.to_string(),
                &format!("must be greater than 0 and less than {MAX_AFFINITY_SECONDS}"),
            ),
        ));
    }
}

/// `ValidateServiceClusterIPsRelatedFields` on create.
fn cluster_ips_rules(scope: &Scope, spec: &Spec, out: &mut Vec<Broken>) {
    let cluster_ip = spec.cluster_ip;
    let ips = &spec.cluster_ips;
    let line = spec.cluster_ips_line;
    if !cluster_ip.is_empty() && ips.first() != Some(&cluster_ip) {
        out.push(at(
            "spec.clusterIPs",
            line,
            invalid_raw(&json_list(ips), "first value must match `clusterIP`"),
        ));
    } else if cluster_ip.is_empty() && !ips.is_empty() {
        out.push(at(
            "spec.clusterIPs",
            line,
            invalid_raw(
                &json_list(ips),
                "must be empty when `clusterIP` is not specified",
            ),
        ));
    }
    let families = items_at(spec.entries, "ipFamilies");
    let mut seen = Set::default();
    for (index, family) in families.iter().enumerate() {
        let Some(family) = family.as_str() else {
            continue;
        };
        // Written out only for a finding.
        let path = || format!("spec.ipFamilies[{index}]");
        let family_line = families[index].line;
        // Another value is the schema enum's finding; `""` is in that enum
        // but not in the server's list.
        if family.is_empty() {
            out.push(at(
                path(),
                family_line,
                not_supported(family, &["IPv4", "IPv6"]),
            ));
        }
        if !seen.insert(family) {
            out.push(at(path(), family_line, duplicate(family)));
        }
    }
    let mut bad = false;
    for (index, ip) in ips.iter().enumerate() {
        if index == 0 && *ip == "None" {
            if ips.len() > 1 {
                bad = true;
                out.push(at(
                    "spec.clusterIPs",
                    line,
                    invalid_raw(&json_list(ips), "'None' must be the first and only value"),
                ));
            }
            continue;
        }
        for message in legacy_ip(ip, strict(scope.target)) {
            bad = true;
            out.push(at(
                format!("spec.clusterIPs[{index}]"),
                line,
                invalid_str(ip, message),
            ));
        }
    }
    if ips.len() > 2 {
        out.push(at(
            "spec.clusterIPs",
            line,
            invalid_raw(&json_list(ips), "may only hold up to 2 values"),
        ));
    }
    if bad {
        return;
    }
    let v6 = |ip: &str| super::addresses::parse_sloppy(ip).is_some_and(|ip| ip.is_ipv6());
    if ips.len() == 2 && v6(ips[0]) == v6(ips[1]) {
        out.push(at(
            "spec.clusterIPs",
            line,
            invalid_raw(
                &json_list(ips),
                "may specify no more than one IP for each IP family",
            ),
        ));
    }
    if spec.headless() {
        return;
    }
    for (index, (ip, family)) in ips.iter().zip(families).enumerate() {
        let expected = match family.as_str() {
            Some("IPv4") if v6(ip) => "IPv4",
            Some("IPv6") if !v6(ip) => "IPv6",
            _ => continue,
        };
        out.push(at(
            format!("spec.clusterIPs[{index}]"),
            line,
            invalid_str(
                ip,
                &format!("expected an {expected} value as indicated by `ipFamilies[{index}]`"),
            ),
        ));
    }
}

/// The external IPs read as IPs and are none of the special ranges.
fn external_ips(scope: &Scope, spec: &Spec, out: &mut Vec<Broken>) {
    for (index, ip) in items_at(spec.entries, "externalIPs").iter().enumerate() {
        let Some(text) = ip.as_str() else {
            continue;
        };
        // Written out only for a finding.
        let path = || format!("spec.externalIPs[{index}]");
        let errors = legacy_ip(text, strict(scope.target));
        if errors.is_empty() {
            for message in endpoint_ip(text) {
                out.push(at(path(), ip.line, invalid_str(text, &message)));
            }
        }
        for message in errors {
            out.push(at(path(), ip.line, invalid_str(text, message)));
        }
    }
}

/// No two ports alike by protocol and port, nor by protocol and node port.
fn duplicate_ports(ports: &[Node], line: u32, out: &mut Vec<Broken>) {
    let mut node_ports = Set::default();
    let mut seen = Set::default();
    for (index, port) in ports.iter().enumerate() {
        let Some(entries) = port.as_map() else {
            continue;
        };
        let protocol = get(entries, "protocol")
            .and_then(Node::as_str)
            .unwrap_or("TCP");
        let node_port = int(entries, "nodePort").unwrap_or(0);
        if node_port != 0 && !node_ports.insert((protocol, node_port)) {
            out.push(at(
                format!("spec.ports[{index}].nodePort"),
                line_of(entries, "nodePort", line),
                format!("Duplicate value: {node_port}"),
            ));
        }
        let number = int(entries, "port").unwrap_or(0);
        if !seen.insert((protocol, number)) {
            // Go's JSON of the key, a `ServicePort` in field order.
            let key = format!(
                "{{\"Name\":\"\",\"Protocol\":{},\"AppProtocol\":null,\"Port\":{number},\"TargetPort\":0,\"NodePort\":0}}",
                serde_json::Value::from(protocol)
            );
            out.push(at(
                format!("spec.ports[{index}]"),
                port.line,
                format!("Duplicate value: {key}"),
            ));
        }
    }
}

/// `loadBalancerSourceRanges` (or the annotation it replaced) only on a
/// `LoadBalancer`, each a CIDR.
fn source_ranges(scope: &Scope, spec: &Spec, object: &[Entry], out: &mut Vec<Broken>) {
    let ranges = items_at(spec.entries, "loadBalancerSourceRanges");
    let strict = strict(scope.target);
    if !ranges.is_empty() {
        // The server's path spells the field with a capital L.
        let path = "spec.LoadBalancerSourceRanges";
        if spec.kind != "LoadBalancer" {
            out.push(at(
                path,
                spec.line("loadBalancerSourceRanges"),
                forbidden("may only be used when `type` is 'LoadBalancer'"),
            ));
        }
        for (index, range) in ranges.iter().enumerate() {
            let Some(value) = range.as_str() else {
                continue;
            };
            let value = value.trim();
            for message in legacy_cidr(value, strict) {
                out.push(at(
                    format!("{path}[{index}]"),
                    range.line,
                    invalid_str(value, message),
                ));
            }
        }
        return;
    }
    let annotations = entries_of(entries_of(object, "metadata"), "annotations");
    let Some(value) = get(annotations, SOURCE_RANGES_ANNOTATION).and_then(Node::as_str) else {
        return;
    };
    let path = format!("metadata.annotations[{SOURCE_RANGES_ANNOTATION}]");
    let line = line_of(annotations, SOURCE_RANGES_ANNOTATION, spec.line);
    if spec.kind != "LoadBalancer" {
        out.push(at(
            path.clone(),
            line,
            forbidden("may only be used when `type` is 'LoadBalancer'"),
        ));
    }
    let value = value.trim();
    if value.is_empty() {
        return;
    }
    for cidr in value.split(',').map(str::trim) {
        for message in legacy_cidr(cidr, strict) {
            out.push(at(path.clone(), line, invalid_str(cidr, message)));
        }
    }
}

/// `validateServiceExternalTrafficPolicy`, `validateServiceTrafficDistribution`.
fn traffic_policies(scope: &Scope, spec: &Spec, out: &mut Vec<Broken>) {
    let accessible = matches!(spec.kind, "LoadBalancer" | "NodePort")
        || !items_at(spec.entries, "externalIPs").is_empty();
    let policy = get(spec.entries, "externalTrafficPolicy")
        .and_then(Node::as_str)
        .unwrap_or("");
    if !accessible && !policy.is_empty() {
        out.push(at(
            "spec.externalTrafficPolicy",
            spec.line("externalTrafficPolicy"),
            invalid_str(policy, "may only be set for externally-accessible services"),
        ));
    }
    let health = int(spec.entries, "healthCheckNodePort").unwrap_or(0);
    let needs_health = spec.kind == "LoadBalancer" && policy == "Local";
    if !needs_health && health != 0 {
        out.push(at(
            "spec.healthCheckNodePort",
            spec.line("healthCheckNodePort"),
            invalid_raw(&health.to_string(), "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'"),
        ));
    }
    if let Some(distribution) = get(spec.entries, "trafficDistribution").and_then(Node::as_str) {
        let supported = if scope.target >= Version::new(1, 34) {
            TRAFFIC_DISTRIBUTIONS
        } else {
            TRAFFIC_DISTRIBUTIONS_BEFORE_1_34
        };
        if !supported.contains(&distribution) {
            out.push(at(
                "spec.trafficDistribution",
                spec.line("trafficDistribution"),
                not_supported(distribution, supported),
            ));
        }
    }
}

/// `ValidateService` before 1.33: a LoadBalancer's port may not be the
/// kubelet's.
fn kubelet_port(ports: &[Node], line: u32, out: &mut Vec<Broken>) {
    for (index, port) in ports.iter().enumerate() {
        let fields = port.as_map().unwrap_or(&[]);
        if int(fields, "port") == Some(KUBELET_PORT) {
            out.push(at(
                format!("spec.ports[{index}]"),
                line_of(fields, "port", line),
                invalid_raw(
                    &KUBELET_PORT.to_string(),
                    "may not expose port 10250 externally since it is used by kubelet",
                ),
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::messages_at;
    use crate::Version;

    const SERVICE: &str = "io.k8s.api.core.v1.Service";

    fn at_136(yaml: &str) -> Vec<String> {
        messages_at(SERVICE, yaml, Version::new(1, 36))
    }

    #[test]
    fn traffic_distribution_and_the_kubelet_port_per_minor() {
        let same_zone = "spec:\n  trafficDistribution: PreferSameZone\n  ports: [{port: 80}]\n";
        assert!(at_136(same_zone).is_empty());
        assert_eq!(
            messages_at(SERVICE, same_zone, Version::new(1, 33)),
            ["spec.trafficDistribution@2: Unsupported value: \"PreferSameZone\": supported values: \"PreferClose\""]
        );
        let kubelet = "spec:\n  type: LoadBalancer\n  ports:\n  - port: 10250\n";
        assert_eq!(
            messages_at(SERVICE, kubelet, Version::new(1, 32)),
            ["spec.ports[0]@4: Invalid value: 10250: may not expose port 10250 externally since it is used by kubelet"]
        );
        assert!(messages_at(SERVICE, kubelet, Version::new(1, 33)).is_empty());
    }

    #[test]
    fn ports_are_required_unless_headless_or_external_name() {
        assert_eq!(at_136("spec: {}\n"), ["spec.ports@1: Required value"]);
        assert_eq!(
            at_136("metadata: {name: a}\n"),
            ["spec.ports@1: Required value"]
        );
        assert!(at_136("spec: {clusterIP: None}\n").is_empty());
        assert!(at_136("spec: {type: ExternalName, externalName: db.example.com.}\n").is_empty());
        assert_eq!(
            at_136("spec: {type: ExternalName}\n"),
            ["spec.externalName@1: Required value"]
        );
    }

    #[test]
    fn cluster_ips_and_families() {
        let ports = "  ports: [{port: 80}]\n";
        assert_eq!(
            at_136(&format!("spec:\n  type: LoadBalancer\n  clusterIP: None\n{ports}")),
            ["spec.clusterIPs[0]@3: Invalid value: \"None\": may not be set to 'None' for LoadBalancer services"]
        );
        assert_eq!(
            at_136(&format!("spec:\n  clusterIP: none\n{ports}")),
            ["spec.clusterIPs[0]@2: Invalid value: \"none\": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)"]
        );
        assert_eq!(
            at_136(&format!("spec:\n  ipFamilies: [IPv4, IPv4]\n{ports}")),
            ["spec.ipFamilies[1]@2: Duplicate value: \"IPv4\""]
        );
        assert_eq!(
            at_136(&format!("spec:\n  ipFamilies: [IPv4, '']\n{ports}")),
            ["spec.ipFamilies[1]@2: Unsupported value: \"\": supported values: \"IPv4\", \"IPv6\""]
        );
        // Leading zeros: sloppy in 1.35, strict from 1.36.
        let zeros = format!("spec:\n  clusterIP: 010.0.0.1\n{ports}");
        assert!(messages_at(SERVICE, &zeros, Version::new(1, 35)).is_empty());
        assert_eq!(at_136(&zeros).len(), 1);
    }

    #[test]
    fn ports_policies_and_affinity() {
        assert_eq!(
            at_136("spec:\n  ports:\n  - {port: 80, nodePort: 30000}\n"),
            ["spec.ports[0].nodePort@3: Forbidden: may not be used when `type` is 'ClusterIP'"]
        );
        assert_eq!(
            at_136("spec:\n  ports:\n  - {port: 80}\n  - {port: 80, name: b}\n"),
            ["spec.ports[1]@4: Duplicate value: {\"Name\":\"\",\"Protocol\":\"TCP\",\"AppProtocol\":null,\"Port\":80,\"TargetPort\":0,\"NodePort\":0}"]
        );
        assert_eq!(
            at_136("spec:\n  externalTrafficPolicy: Local\n  ports: [{port: 80}]\n"),
            ["spec.externalTrafficPolicy@2: Invalid value: \"Local\": may only be set for externally-accessible services"]
        );
        assert!(at_136(
            "spec:\n  type: NodePort\n  externalTrafficPolicy: Local\n  ports: [{port: 80}]\n"
        )
        .is_empty());
        assert_eq!(
            at_136("spec:\n  sessionAffinity: ClientIP\n  sessionAffinityConfig: {clientIP: {timeoutSeconds: 0}}\n  ports: [{port: 80}]\n"),
            ["spec.sessionAffinityConfig.clientIP.timeoutSeconds@3: Invalid value: 0: must be greater than 0 and less than 86400"]
        );
        assert_eq!(
            at_136("spec:\n  trafficDistribution: PREFERCLOSE\n  ports: [{port: 80}]\n"),
            ["spec.trafficDistribution@2: Unsupported value: \"PREFERCLOSE\": supported values: \"PreferClose\", \"PreferSameZone\", \"PreferSameNode\""]
        );
        assert_eq!(
            at_136("spec:\n  loadBalancerSourceRanges: [not-a-cidr]\n  type: LoadBalancer\n  ports: [{port: 80}]\n"),
            ["spec.LoadBalancerSourceRanges[0]@2: Invalid value: \"not-a-cidr\": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)"]
        );
        assert_eq!(
            at_136("spec:\n  selector: {'bad key': x}\n  ports: [{port: 80}]\n").len(),
            1
        );
        assert_eq!(
            at_136("spec:\n  ports: [{port: 80, appProtocol: bad proto}]\n").len(),
            1
        );
    }
}
