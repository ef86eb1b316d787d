//! A Service's IP families against the cluster's service ranges: the REST
//! layer's `initIPFamilyFields`, which runs on create before the strategy
//! validates anything (`pkg/registry/core/service/storage/alloc.go`).
//!
//! `check` judges for a default cluster: kube-apiserver's default
//! `--service-cluster-ip-range` (10.0.0.0/24) serves IPv4 alone, as the
//! server reference runs. On such a cluster a Service that asks for IPv6
//! (in `ipFamilies`, or by an IPv6 `clusterIPs` entry) or that requires
//! dual-stack is refused; `PreferDualStack` with one family is not.

use super::field_error::{at, invalid_raw, invalid_str, json_list};
use super::read::{entries_of, get, items_at};
use super::service::Spec;
use super::Broken;
use crate::document::Node;

/// The families a default cluster's service range serves.
const CLUSTER_FAMILIES: &[&str] = &["IPv4"];

/// `initIPFamilyFields` on create, for a default cluster, of a Service
/// whose spec is no `ExternalName` and passed the cluster IP fields'
/// pre-validation (`service.rs` calls it then).
pub(super) fn on_cluster(service: &Spec, out: &mut Vec<Broken>) {
    let spec = service.entries;
    let (cluster_ip, cluster_ips) = (service.cluster_ip, service.cluster_ips.as_slice());
    let ips_line = service.cluster_ips_line;
    let families = items_at(spec, "ipFamilies");
    let headless_selectorless = cluster_ip == "None" && entries_of(spec, "selector").is_empty();
    // A pointer in Go: absent or `null` is nil, defaulted here.
    let written_policy = get(spec, "ipFamilyPolicy").and_then(Node::as_str);
    let policy = written_policy.unwrap_or(if headless_selectorless {
        "RequireDualStack"
    } else {
        "SingleStack"
    });
    // The pre-validation also refuses a family or a policy outside its
    // set (there the schema's enum or the closed sets say so).
    let families_known = families.iter().all(|family| {
        family
            .as_str()
            .is_none_or(|name| matches!(name, "IPv4" | "IPv6"))
    });
    let policy_known = matches!(
        policy,
        "SingleStack" | "PreferDualStack" | "RequireDualStack"
    );
    if !families_known || !policy_known {
        return;
    }
    let policy_line = service.line("ipFamilyPolicy");
    let before = out.len();
    if policy == "SingleStack" {
        for (count, what) in [
            (cluster_ips.len(), "cluster IPs"),
            (families.len(), "IP families"),
        ] {
            if count == 2 {
                out.push(at(
                    "spec.ipFamilyPolicy",
                    policy_line,
                    invalid_str(
                        policy,
                        &format!("must be 'RequireDualStack' or 'PreferDualStack' when multiple {what} are specified"),
                    ),
                ));
            }
        }
    }
    // A cluster IP past the families written gives its own family, which
    // the cluster must serve.
    for (index, ip) in cluster_ips.iter().enumerate().skip(families.len()) {
        if *ip == "None" {
            break;
        }
        let Some(family) = family_of(ip) else {
            continue;
        };
        if !CLUSTER_FAMILIES.contains(&family) {
            out.push(at(
                format!("spec.clusterIPs[{index}]"),
                ips_line,
                invalid_raw(
                    &json_list(cluster_ips),
                    &format!("{family} is not configured on this cluster"),
                ),
            ));
        }
    }
    // The server stops at the first of these steps that finds anything,
    // and a headless Service without a selector may ask for any family.
    if out.len() > before || headless_selectorless {
        return;
    }
    if policy == "RequireDualStack" && CLUSTER_FAMILIES.len() < 2 {
        out.push(at(
            "spec.ipFamilyPolicy",
            policy_line,
            invalid_str(
                policy,
                "this cluster is not configured for dual-stack services",
            ),
        ));
    }
    for (index, family) in families.iter().enumerate() {
        let Some(name) = family.as_str() else {
            continue;
        };
        if !CLUSTER_FAMILIES.contains(&name) {
            out.push(at(
                format!("spec.ipFamilies[{index}]"),
                family.line,
                invalid_str(name, "not configured on this cluster"),
            ));
        }
    }
}

/// An IP's family as `netutils` reads it, when it is an IP.
fn family_of(ip: &str) -> Option<&'static str> {
    let parsed = super::addresses::parse_sloppy(ip)?;
    Some(if parsed.is_ipv6() { "IPv6" } else { "IPv4" })
}

#[cfg(test)]
mod tests {
    use super::super::tests::messages;

    /// What this module says of a Service with `spec` (and one port).
    fn families(spec: &str) -> Vec<String> {
        messages(
            "io.k8s.api.core.v1.Service",
            &format!("spec:\n{spec}  ports: [{{port: 80}}]\n"),
        )
        .into_iter()
        .filter(|m| m.contains("configured") || m.contains("when multiple"))
        .collect()
    }

    #[test]
    fn a_second_family_is_not_configured_on_a_default_cluster() {
        assert_eq!(
            families("  ipFamilyPolicy: PreferDualStack\n  ipFamilies: [IPv4, IPv6]\n"),
            ["spec.ipFamilies[1]@3: Invalid value: \"IPv6\": not configured on this cluster"]
        );
        assert_eq!(
            families("  ipFamilyPolicy: RequireDualStack\n"),
            ["spec.ipFamilyPolicy@2: Invalid value: \"RequireDualStack\": this cluster is not configured for dual-stack services"]
        );
        assert!(families("  ipFamilyPolicy: PreferDualStack\n  ipFamilies: [IPv4]\n").is_empty());
        assert!(families("  type: ClusterIP\n").is_empty());
    }

    #[test]
    fn an_ipv6_cluster_ip_names_its_family() {
        assert_eq!(
            families("  clusterIP: fd00::10\n"),
            ["spec.clusterIPs[0]@2: Invalid value: [\"fd00::10\"]: IPv6 is not configured on this cluster"]
        );
    }

    #[test]
    fn two_families_need_a_dual_stack_policy_and_some_services_allocate_nothing() {
        assert_eq!(
            families("  ipFamilies: [IPv4, IPv6]\n"),
            ["spec.ipFamilyPolicy@1: Invalid value: \"SingleStack\": must be 'RequireDualStack' or 'PreferDualStack' when multiple IP families are specified"]
        );
        assert!(families(
            "  type: ExternalName\n  externalName: a.example\n  ipFamilyPolicy: RequireDualStack\n"
        )
        .iter()
        .all(|m| !m.contains("dual-stack services")));
        // A family or policy outside its set stops the server before.
        assert!(families("  ipFamilies: [IPv4, IPv5]\n").is_empty());
        assert!(families("  ipFamilyPolicy: Dual\n  ipFamilies: [IPv6]\n").is_empty());
        // Headless without a selector: any family, dual-stack by default.
        assert!(families("  clusterIP: None\n  ipFamilies: [IPv6]\n").is_empty());
    }
}
