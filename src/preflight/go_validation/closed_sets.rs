//! The closed sets of values the API server's Go validation holds fields
//! to (`field.NotSupported`, and the few `field.Invalid` of an enum), for
//! the minors whose published OpenAPI has no `enum`: the specs of 1.33 and
//! older list none at all, nor does 1.37's (the v1.37.0 tag's
//! swagger.json, recorded byte-identical from its server), so the schema's
//! check (`value-not-available`) can only carry another minor's values
//! over, as a warning, while the server refuses such a value at every
//! minor. 1.34–1.36's specs list these enums and the schema's check
//! reports them, so these run outside that range only ([`applies`]).
//!
//! Each set is the one of k8s.io/kubernetes v1.33.0 `pkg/apis/*/validation`
//! (unchanged from 1.28 to 1.37 unless a check says otherwise), in the
//! order the server prints it: Go's `sets.List` sorts, a literal list does
//! not.

use super::field_error::{
    invalid_str, items_at, not_supported, push, required, required_when_empty, str_at,
};
use super::read::{get, line_of};
use super::{Broken, Scope, Table};
use crate::document::Entry;
use crate::walk::go_quoted;
use crate::Version;

/// The first minor whose published spec lists the enums these checks hold
/// (upstream-specs: no `enum` in 1.28–1.33, 102 fields with one in 1.34).
pub(super) const SCHEMA_ENUMS_FROM: Version = Version::new(1, 34);

/// The last minor whose published spec lists them (1.37's swagger.json has
/// no `enum` at all). A new minor's spec is to be checked for `enum` before
/// this moves.
pub(super) const SCHEMA_ENUMS_UNTIL: Version = Version::new(1, 36);

/// The checks, by the definition of the object they read.
pub(super) const CHECKS: Table = &[
    ("io.k8s.api.core.v1.Container", container),
    ("io.k8s.api.core.v1.ContainerPort", protocol),
    ("io.k8s.api.core.v1.PodSpec", pod_spec),
    ("io.k8s.api.core.v1.Toleration", toleration),
    ("io.k8s.api.core.v1.HostPathVolumeSource", host_path),
    ("io.k8s.api.core.v1.AppArmorProfile", app_armor),
    ("io.k8s.api.core.v1.SeccompProfile", seccomp),
    ("io.k8s.api.core.v1.NodeSelectorRequirement", node_selector),
    ("io.k8s.api.core.v1.ServiceSpec", service_spec),
    ("io.k8s.api.core.v1.ServicePort", protocol),
    ("io.k8s.api.core.v1.PersistentVolumeClaimSpec", volume_mode),
    ("io.k8s.api.core.v1.PersistentVolumeSpec", volume_spec),
    ("io.k8s.api.apps.v1.DeploymentStrategy", deployment_strategy),
    (
        "io.k8s.api.apps.v1.DaemonSetUpdateStrategy",
        daemon_set_strategy,
    ),
    ("io.k8s.api.apps.v1.StatefulSetSpec", pod_management),
    ("io.k8s.api.batch.v1.JobSpec", completion_mode),
    ("io.k8s.api.batch.v1.CronJobSpec", concurrency),
    ("io.k8s.api.batch.v1.PodFailurePolicyRule", failure_action),
    ("io.k8s.api.discovery.v1.EndpointSlice", address_type),
    ("io.k8s.api.discovery.v1.EndpointPort", endpoint_protocol),
];

/// `supportedPortProtocols` (core and discovery), sorted.
const PROTOCOLS: &[&str] = &["SCTP", "TCP", "UDP"];

/// What the server does with an empty string there.
#[derive(Clone, Copy)]
enum Empty {
    /// Defaulted before validation, or one of the set: nothing to say.
    Accepted,
    /// Not defaulted (a pointer to `""`): not one of the set.
    Unsupported,
}

/// Whether the target's server validates with these sets while the spec
/// has no enum for them.
fn applies(scope: &Scope) -> bool {
    scope.target < SCHEMA_ENUMS_FROM || scope.target > SCHEMA_ENUMS_UNTIL
}

/// One closed set: the field, its values in the server's order, and what
/// an empty string is there.
struct Set {
    key: &'static str,
    values: &'static [&'static str],
    empty: Empty,
}

/// A set whose empty string is defaulted (or one of the set).
const fn set(key: &'static str, values: &'static [&'static str]) -> Set {
    Set {
        key,
        values,
        empty: Empty::Accepted,
    }
}

/// A set whose empty string is refused (a pointer the server does not
/// default when it is `""`).
const fn strict_set(key: &'static str, values: &'static [&'static str]) -> Set {
    Set {
        key,
        values,
        empty: Empty::Unsupported,
    }
}

/// Pushes `field.NotSupported` for each of `sets` whose string is not one
/// of its values.
fn closed(entries: &[Entry], line: u32, sets: &[Set], out: &mut Vec<Broken>) {
    for set in sets {
        let Some(value) = str_at(entries, set.key) else {
            continue;
        };
        let empty_accepted = value.is_empty() && matches!(set.empty, Empty::Accepted);
        if empty_accepted || set.values.contains(&value) {
            continue;
        }
        let line = line_of(entries, set.key, line);
        push(
            out,
            set.key.to_owned(),
            line,
            not_supported(value, set.values),
        );
    }
}

/// core `validatePullPolicy` and `validateContainers`'
/// `terminationMessagePolicy` (both defaulted when empty).
fn container(scope: &Scope, entries: &[Entry], line: u32, out: &mut Vec<Broken>) {
    if !applies(scope) {
        return;
    }
    const SETS: &[Set] = &[
        set("imagePullPolicy", &["Always", "IfNotPresent", "Never"]),
        set(
            "terminationMessagePolicy",
            &["File", "FallbackToLogsOnError"],
        ),
    ];
    closed(entries, line, SETS, out);
}

/// core `validateContainerPorts` and `validateServicePort`: the protocol
/// (defaulted to TCP when empty).
fn protocol(scope: &Scope, entries: &[Entry], line: u32, out: &mut Vec<Broken>) {
    if applies(scope) {
        closed(entries, line, &[set("protocol", PROTOCOLS)], out);
    }
}

/// core `validateDNSPolicy`, `validateRestartPolicy` (both defaulted when
/// empty) and `validateInitContainerRestartPolicy`: an init container's
/// restart policy may only be `Always` (from 1.29, when the
/// SidecarContainers gate is on by default; off, 1.28 drops the field).
/// From 1.35 (ContainerRestartRules on by default) any container's may be
/// one of `validateContainerRestartPolicy`'s sorted set.
fn pod_spec(scope: &Scope, entries: &[Entry], line: u32, out: &mut Vec<Broken>) {
    if !applies(scope) {
        return;
    }
    const SETS: &[Set] = &[
        set(
            "dnsPolicy",
            &["ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"],
        ),
        set("restartPolicy", &["Always", "OnFailure", "Never"]),
    ];
    closed(entries, line, SETS, out);
    if scope.target < Version::new(1, 29) {
        return;
    }
    if scope.target >= CONTAINER_RESTART_RULES {
        const POLICIES: &[&str] = &["Always", "Never", "OnFailure"];
        container_policies(entries, "containers", POLICIES, out);
        container_policies(entries, "initContainers", POLICIES, out);
    } else {
        container_policies(entries, "initContainers", &["Always"], out);
    }
}

/// The first minor whose server validates every container's restart policy
/// (the ContainerRestartRules gate, beta and on by default from 1.35).
const CONTAINER_RESTART_RULES: Version = Version::new(1, 35);

/// Pushes `field.NotSupported` for each container of the list at `key`
/// whose `restartPolicy` is not one of `values`.
fn container_policies(entries: &[Entry], key: &str, values: &[&str], out: &mut Vec<Broken>) {
    for (index, container) in items_at(entries, key).iter().enumerate() {
        let Some(fields) = container.as_map() else {
            continue;
        };
        if let Some(policy) = str_at(fields, "restartPolicy").filter(|p| !values.contains(p)) {
            let line = line_of(fields, "restartPolicy", container.line);
            let last = format!("{key}[{index}].restartPolicy");
            push(out, last, line, not_supported(policy, values));
        }
    }
}

/// core `ValidateTolerations`: the operator (empty means `Equal`) and the
/// effect (empty matches every effect).
fn toleration(scope: &Scope, entries: &[Entry], line: u32, out: &mut Vec<Broken>) {
    if !applies(scope) {
        return;
    }
    const SETS: &[Set] = &[
        set("operator", &["Equal", "Exists"]),
        set("effect", &["NoSchedule", "PreferNoSchedule", "NoExecute"]),
    ];
    closed(entries, line, SETS, out);
}

/// core `validateHostPathType` (`""` is one of the set).
fn host_path(scope: &Scope, entries: &[Entry], line: u32, out: &mut Vec<Broken>) {
    if !applies(scope) {
        return;
    }
    const TYPES: &[&str] = &[
        "",
        "BlockDevice",
        "CharDevice",
        "Directory",
        "DirectoryOrCreate",
        "File",
        "FileOrCreate",
        "Socket",
    ];
    closed(entries, line, &[set("type", TYPES)], out);
}

/// The profile types of AppArmor and seccomp, in the server's order.
const PROFILE_TYPES: &[&str] = &["Localhost", "RuntimeDefault", "Unconfined"];

/// core `ValidateAppArmorProfileField`'s type (the field is GA from 1.30):
/// an empty type is `Required`.
fn app_armor(scope: &Scope, entries: &[Entry], line: u32, out: &mut Vec<Broken>) {
    if applies(scope) {
        profile_type(
            entries,
            line,
            "type is required when appArmorProfile is set",
            out,
        );
    }
}

/// core `validateSeccompProfileType`: an empty type is `Required`.
fn seccomp(scope: &Scope, entries: &[Entry], line: u32, out: &mut Vec<Broken>) {
    if applies(scope) {
        profile_type(
            entries,
            line,
            "type is required when seccompProfile is set",
            out,
        );
    }
}

/// A profile's type: one of [`PROFILE_TYPES`], `Required` with `detail`
/// when empty.
fn profile_type(entries: &[Entry], line: u32, detail: &str, out: &mut Vec<Broken>) {
    if required_when_empty(entries, "type", detail, line, out) {
        return;
    }
    closed(entries, line, &[set("type", PROFILE_TYPES)], out);
}

/// core `ValidateNodeSelectorRequirement`'s operator: `field.Invalid`, not
/// a list of values.
fn node_selector(scope: &Scope, entries: &[Entry], line: u32, out: &mut Vec<Broken>) {
    if !applies(scope) {
        return;
    }
    let operators = ["In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt"];
    if let Some(operator) = str_at(entries, "operator").filter(|op| !operators.contains(op)) {
        let line = line_of(entries, "operator", line);
        let message = invalid_str(operator, "not a valid selector operator");
        push(out, "operator".to_owned(), line, message);
    }
}

/// core `ValidateService`'s sets: the type and session affinity (both
/// defaulted when empty), the external traffic policy of an externally
/// accessible service (defaulted there; elsewhere its own rule), the
/// internal one, the IP family policy and each IP family (`""` refused).
fn service_spec(scope: &Scope, entries: &[Entry], line: u32, out: &mut Vec<Broken>) {
    if !applies(scope) {
        return;
    }
    const SETS: &[Set] = &[
        set(
            "type",
            &["ClusterIP", "ExternalName", "LoadBalancer", "NodePort"],
        ),
        set("sessionAffinity", &["ClientIP", "None"]),
        // A pointer defaulted only when absent: `""` is refused.
        strict_set("internalTrafficPolicy", &["Cluster", "Local"]),
        // A pointer never defaulted on create before validation: `""` is
        // refused (`ValidateServiceClusterIPsRelatedFields`).
        strict_set(
            "ipFamilyPolicy",
            &["PreferDualStack", "RequireDualStack", "SingleStack"],
        ),
    ];
    closed(entries, line, SETS, out);
    let kind = str_at(entries, "type").unwrap_or("ClusterIP");
    let external =
        matches!(kind, "NodePort" | "LoadBalancer") || !items_at(entries, "externalIPs").is_empty();
    if external {
        let policy = set("externalTrafficPolicy", &["Cluster", "Local"]);
        closed(entries, line, &[policy], out);
    }
    for (index, family) in items_at(entries, "ipFamilies").iter().enumerate() {
        let Some(value) = family.as_str() else {
            continue;
        };
        if !matches!(value, "IPv4" | "IPv6") {
            let message = not_supported(value, &["IPv4", "IPv6"]);
            push(out, format!("ipFamilies[{index}]"), family.line, message);
        }
    }
}

/// `supportedVolumeModes`: a claim's or a volume's mode (`""` is not
/// defaulted: only an absent mode is).
fn volume_mode(scope: &Scope, entries: &[Entry], line: u32, out: &mut Vec<Broken>) {
    if applies(scope) {
        let modes = strict_set("volumeMode", &["Block", "Filesystem"]);
        closed(entries, line, &[modes], out);
    }
}

/// core `ValidatePersistentVolumeSpec`: the reclaim policy (when set) and
/// the volume mode.
fn volume_spec(scope: &Scope, entries: &[Entry], line: u32, out: &mut Vec<Broken>) {
    if !applies(scope) {
        return;
    }
    let policies = set(
        "persistentVolumeReclaimPolicy",
        &["Delete", "Recycle", "Retain"],
    );
    closed(entries, line, &[policies], out);
    volume_mode(scope, entries, line, out);
}

/// apps `ValidateDeploymentStrategy`'s other types: the server prints the
/// whole strategy. Before 1.34 as Go's `%#v` of its internal type (a given
/// `rollingUpdate` is a pointer, shown as the server's address would be,
/// unknown here); from 1.34 apimachinery prints a struct as its JSON
/// ([`strategy_json`]).
fn deployment_strategy(scope: &Scope, entries: &[Entry], line: u32, out: &mut Vec<Broken>) {
    let types = StrategyTypes {
        supported: &["Recreate", "RollingUpdate"],
        go_type: "apps.DeploymentStrategy",
        rolling_type: "apps.RollingUpdateDeployment",
    };
    strategy(scope, entries, line, &types, out);
}

/// `ValidateDaemonSetUpdateStrategy`: a type other than its two is
/// refused with the whole strategy as the value.
fn daemon_set_strategy(scope: &Scope, entries: &[Entry], line: u32, out: &mut Vec<Broken>) {
    let types = StrategyTypes {
        supported: &["RollingUpdate", "OnDelete"],
        go_type: "apps.DaemonSetUpdateStrategy",
        rolling_type: "apps.RollingUpdateDaemonSet",
    };
    strategy(scope, entries, line, &types, out);
}

/// A workload's strategy: its types in the server's order, and the
/// internal Go types its message prints before 1.34.
struct StrategyTypes {
    supported: &'static [&'static str],
    go_type: &'static str,
    rolling_type: &'static str,
}

/// `field.NotSupported(fldPath, strategy, validValues)` for a strategy
/// whose `type` is none of `types.supported` (`""` is defaulted before).
fn strategy(
    scope: &Scope,
    entries: &[Entry],
    line: u32,
    types: &StrategyTypes,
    out: &mut Vec<Broken>,
) {
    if !applies(scope) {
        return;
    }
    let Some(kind) = str_at(entries, "type").filter(|kind| !kind.is_empty()) else {
        return;
    };
    if types.supported.contains(&kind) {
        return;
    }
    let rolling = get(entries, "rollingUpdate").and_then(|node| node.as_map());
    let value = if scope.target >= Version::new(1, 34) {
        let Some(json) = strategy_json(kind, rolling) else {
            return;
        };
        json
    } else {
        let pointer = if rolling.is_some() { "0x…" } else { "nil" };
        format!(
            "{}{{Type:{}, RollingUpdate:(*{})({pointer})}}",
            types.go_type,
            go_quoted(kind),
            types.rolling_type
        )
    };
    let supported: Vec<String> = types
        .supported
        .iter()
        .map(|value| go_quoted(value))
        .collect();
    let message = format!(
        "Unsupported value: {value}: supported values: {}",
        supported.join(", ")
    );
    push(out, String::new(), line_of(entries, "type", line), message);
}

/// The internal `apps.DeploymentStrategy` as Go's `json.Marshal` writes it
/// (no JSON tags on internal types: Go's field names; an absent
/// `maxUnavailable` or `maxSurge` is the zero `IntOrString`, `0`, since
/// only a `RollingUpdate` strategy is defaulted). `None` when a count is
/// neither an integer nor a string (decoding refuses it first).
fn strategy_json(kind: &str, rolling: Option<&[Entry]>) -> Option<String> {
    let mut out = format!("{{\"Type\":{},\"RollingUpdate\":", go_json_string(kind));
    match rolling {
        None => out.push_str("null"),
        Some(fields) => {
            out.push_str("{\"MaxUnavailable\":");
            int_or_string_json(get(fields, "maxUnavailable"), &mut out)?;
            out.push_str(",\"MaxSurge\":");
            int_or_string_json(get(fields, "maxSurge"), &mut out)?;
            out.push('}');
        }
    }
    out.push('}');
    Some(out)
}

/// An `IntOrString` as its `MarshalJSON` writes it (absent or `null`: 0).
fn int_or_string_json(node: Option<&crate::document::Node>, out: &mut String) -> Option<()> {
    use crate::document::Value;
    match node.map(|node| &node.value) {
        None | Some(Value::Null) => out.push('0'),
        Some(Value::Int(value)) => out.push_str(&value.to_string()),
        Some(Value::String(text)) => out.push_str(&go_json_string(text)),
        Some(_) => return None,
    }
    Some(())
}

/// A string as Go's `json.Marshal` writes it: JSON's escapes, and `<`,
/// `>`, `&`, U+2028 and U+2029 as `\u` escapes (Go's HTML-safe default).
fn go_json_string(value: &str) -> String {
    let json = serde_json::to_string(value).unwrap_or_default();
    if !json.contains(['<', '>', '&', '\u{2028}', '\u{2029}']) {
        return json;
    }
    let mut out = String::with_capacity(json.len() + 8);
    for c in json.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    out
}

/// apps `ValidateStatefulSetSpec`'s pod management policy (defaulted when
/// empty): `field.Invalid`.
fn pod_management(scope: &Scope, entries: &[Entry], line: u32, out: &mut Vec<Broken>) {
    if !applies(scope) {
        return;
    }
    let key = "podManagementPolicy";
    let Some(policy) = str_at(entries, key) else {
        return;
    };
    if !matches!(policy, "" | "OrderedReady" | "Parallel") {
        let message = invalid_str(policy, "must be 'OrderedReady' or 'Parallel'");
        push(out, key.to_owned(), line_of(entries, key, line), message);
    }
}

/// batch `validateJobSpec`'s completion mode (`""` is not defaulted).
fn completion_mode(scope: &Scope, entries: &[Entry], line: u32, out: &mut Vec<Broken>) {
    if applies(scope) {
        let modes = strict_set("completionMode", &["NonIndexed", "Indexed"]);
        closed(entries, line, &[modes], out);
    }
}

/// batch `validateConcurrencyPolicy` (defaulted to `Allow` when empty).
fn concurrency(scope: &Scope, entries: &[Entry], line: u32, out: &mut Vec<Broken>) {
    if applies(scope) {
        let policies = set("concurrencyPolicy", &["Allow", "Forbid", "Replace"]);
        closed(entries, line, &[policies], out);
    }
}

/// batch `validatePodFailurePolicyRule`'s action (an empty one is its own
/// `Required`, reported elsewhere).
fn failure_action(scope: &Scope, entries: &[Entry], line: u32, out: &mut Vec<Broken>) {
    if applies(scope) {
        let actions = set("action", &["Count", "FailIndex", "FailJob", "Ignore"]);
        closed(entries, line, &[actions], out);
    }
}

/// discovery `validateAddressType`: required, and one of the set.
fn address_type(scope: &Scope, entries: &[Entry], line: u32, out: &mut Vec<Broken>) {
    if !applies(scope) {
        return;
    }
    let key = "addressType";
    match get(entries, key).map(|node| (node.as_str(), node.line)) {
        Some((Some(""), at)) => push(out, key.to_owned(), at, required("")),
        Some((Some(_), _)) => {
            let types = strict_set(key, &["FQDN", "IPv4", "IPv6"]);
            closed(entries, line, &[types], out);
        }
        _ => {}
    }
}

/// discovery `validatePorts`' protocol (defaulted to TCP when absent; a
/// pointer, so `""` is refused).
fn endpoint_protocol(scope: &Scope, entries: &[Entry], line: u32, out: &mut Vec<Broken>) {
    if applies(scope) {
        closed(entries, line, &[strict_set("protocol", PROTOCOLS)], out);
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::messages_at;
    use crate::Version;

    const OLD: Version = Version::new(1, 33);
    const NEW: Version = Version::new(1, 35);

    /// The findings at 1.33 and at 1.35 (none there: the schema's enum).
    fn both(definition: &str, yaml: &str) -> (Vec<String>, Vec<String>) {
        (
            messages_at(definition, yaml, OLD),
            messages_at(definition, yaml, NEW),
        )
    }

    #[test]
    fn containers_and_ports_hold_their_sets_before_the_spec_lists_them() {
        let (old, new) = both(
            "io.k8s.api.core.v1.Container",
            "name: web\nimage: nginx\nimagePullPolicy: always\nterminationMessagePolicy: Bad\n",
        );
        assert_eq!(
            old,
            [
                "imagePullPolicy@3: Unsupported value: \"always\": supported values: \"Always\", \"IfNotPresent\", \"Never\"",
                "terminationMessagePolicy@4: Unsupported value: \"Bad\": supported values: \"File\", \"FallbackToLogsOnError\"",
            ]
        );
        assert!(!new.iter().any(|m| m.contains("Unsupported")), "{new:?}");
        let ok = "name: web\nimage: nginx\nimagePullPolicy: ''\nterminationMessagePolicy: File\n";
        assert!(messages_at("io.k8s.api.core.v1.Container", ok, OLD).is_empty());
        let (old, new) = both(
            "io.k8s.api.core.v1.ContainerPort",
            "containerPort: 80\nprotocol: tcp\n",
        );
        assert_eq!(
            old,
            ["protocol@2: Unsupported value: \"tcp\": supported values: \"SCTP\", \"TCP\", \"UDP\""]
        );
        assert!(new.is_empty());
    }

    /// 1.37's spec lists no enum again: the sets hold there, as at 1.33.
    #[test]
    fn the_sets_hold_again_where_the_1_37_spec_lists_no_enum() {
        const V137: Version = Version::new(1, 37);
        let container = "name: web\nimage: nginx\nimagePullPolicy: always\n";
        assert_eq!(
            messages_at("io.k8s.api.core.v1.Container", container, V137),
            ["imagePullPolicy@3: Unsupported value: \"always\": supported values: \"Always\", \"IfNotPresent\", \"Never\""]
        );
        let at_136 = messages_at(
            "io.k8s.api.core.v1.Container",
            container,
            Version::new(1, 36),
        );
        assert!(
            !at_136.iter().any(|m| m.contains("Unsupported")),
            "{at_136:?}"
        );
        let slice = "addressType: IPv5\nendpoints: []\n";
        assert_eq!(
            messages_at("io.k8s.api.discovery.v1.EndpointSlice", slice, V137),
            ["addressType@1: Unsupported value: \"IPv5\": supported values: \"FQDN\", \"IPv4\", \"IPv6\""]
        );
    }

    /// From 1.34 the server prints a strategy as its JSON (Go's field
    /// names, an absent count as the zero `IntOrString`).
    #[test]
    fn a_1_37_strategy_reads_as_its_json() {
        const V137: Version = Version::new(1, 37);
        let definition = "io.k8s.api.apps.v1.DeploymentStrategy";
        assert_eq!(
            messages_at(definition, "type: rollingupdate\n", V137),
            ["@1: Unsupported value: {\"Type\":\"rollingupdate\",\"RollingUpdate\":null}: supported values: \"Recreate\", \"RollingUpdate\""]
        );
        let rolling = "type: rollingupdate\nrollingUpdate: {maxSurge: '25%'}\n";
        assert_eq!(
            messages_at(definition, rolling, V137),
            ["@1: Unsupported value: {\"Type\":\"rollingupdate\",\"RollingUpdate\":{\"MaxUnavailable\":0,\"MaxSurge\":\"25%\"}}: supported values: \"Recreate\", \"RollingUpdate\""]
        );
        assert_eq!(super::go_json_string("a<b&"), "\"a\\u003cb\\u0026\"");
    }

    /// From 1.35 (ContainerRestartRules on) every container's restart
    /// policy is one of three, in Go's sorted order.
    #[test]
    fn restart_policies_of_containers_at_1_37() {
        let spec = "containers:\n- {name: a, image: b, restartPolicy: Sometimes}\ninitContainers:\n- {name: i, image: b, restartPolicy: OnFailure}\n- {name: j, image: b, restartPolicy: ''}\n";
        assert_eq!(
            messages_at("io.k8s.api.core.v1.PodSpec", spec, Version::new(1, 37)),
            [
                "containers[0].restartPolicy@2: Unsupported value: \"Sometimes\": supported values: \"Always\", \"Never\", \"OnFailure\"",
                "initContainers[1].restartPolicy@5: Unsupported value: \"\": supported values: \"Always\", \"Never\", \"OnFailure\"",
            ]
        );
    }

    #[test]
    fn pod_spec_policies_and_init_containers() {
        let spec = "containers: [{name: a, image: b}]\ndnsPolicy: default\nrestartPolicy: always\ninitContainers:\n- name: i\n  image: b\n  restartPolicy: OnFailure\n";
        let (old, new) = both("io.k8s.api.core.v1.PodSpec", spec);
        assert_eq!(
            old,
            [
                "dnsPolicy@2: Unsupported value: \"default\": supported values: \"ClusterFirstWithHostNet\", \"ClusterFirst\", \"Default\", \"None\"",
                "restartPolicy@3: Unsupported value: \"always\": supported values: \"Always\", \"OnFailure\", \"Never\"",
                "initContainers[0].restartPolicy@7: Unsupported value: \"OnFailure\": supported values: \"Always\"",
            ]
        );
        assert!(!new.iter().any(|m| m.contains("Unsupported")), "{new:?}");
        // 1.28 drops an init container's restartPolicy (SidecarContainers off).
        let at_128 = messages_at("io.k8s.api.core.v1.PodSpec", spec, Version::new(1, 28));
        assert_eq!(at_128.len(), 2, "{at_128:?}");
    }

    #[test]
    fn tolerations_host_paths_and_selectors() {
        let (old, new) = both(
            "io.k8s.api.core.v1.Toleration",
            "key: k\noperator: EQUAL\neffect: noschedule\n",
        );
        assert_eq!(
            old,
            [
                "operator@2: Unsupported value: \"EQUAL\": supported values: \"Equal\", \"Exists\"",
                "effect@3: Unsupported value: \"noschedule\": supported values: \"NoSchedule\", \"PreferNoSchedule\", \"NoExecute\"",
            ]
        );
        assert!(new.iter().all(|m| !m.contains("Unsupported")), "{new:?}");
        assert_eq!(
            messages_at("io.k8s.api.core.v1.HostPathVolumeSource", "path: /x\ntype: directory\n", OLD),
            ["type@2: Unsupported value: \"directory\": supported values: \"\", \"BlockDevice\", \"CharDevice\", \"Directory\", \"DirectoryOrCreate\", \"File\", \"FileOrCreate\", \"Socket\""]
        );
        assert!(messages_at(
            "io.k8s.api.core.v1.HostPathVolumeSource",
            "path: /x\ntype: ''\n",
            OLD
        )
        .is_empty());
        let (old, new) = both(
            "io.k8s.api.core.v1.NodeSelectorRequirement",
            "key: k\noperator: Inx\nvalues: [a]\n",
        );
        assert_eq!(
            old,
            ["operator@2: Invalid value: \"Inx\": not a valid selector operator"]
        );
        assert!(new.is_empty());
        assert_eq!(
            messages_at("io.k8s.api.core.v1.AppArmorProfile", "type: RUNTIMEDEFAULT\n", OLD),
            ["type@1: Unsupported value: \"RUNTIMEDEFAULT\": supported values: \"Localhost\", \"RuntimeDefault\", \"Unconfined\""]
        );
    }

    #[test]
    fn services_claims_and_volumes() {
        let spec = "type: nodeport\nsessionAffinity: none\nexternalTrafficPolicy: local\ninternalTrafficPolicy: CLUSTER\nipFamilyPolicy: single\nipFamilies: [IPv4, '']\nports: [{port: 80, protocol: tcp}]\n";
        let (old, new) = both("io.k8s.api.core.v1.ServiceSpec", spec);
        assert_eq!(
            old,
            [
                "type@1: Unsupported value: \"nodeport\": supported values: \"ClusterIP\", \"ExternalName\", \"LoadBalancer\", \"NodePort\"",
                "sessionAffinity@2: Unsupported value: \"none\": supported values: \"ClientIP\", \"None\"",
                "internalTrafficPolicy@4: Unsupported value: \"CLUSTER\": supported values: \"Cluster\", \"Local\"",
                "ipFamilyPolicy@5: Unsupported value: \"single\": supported values: \"PreferDualStack\", \"RequireDualStack\", \"SingleStack\"",
                "ipFamilies[1]@6: Unsupported value: \"\": supported values: \"IPv4\", \"IPv6\"",
            ],
            "a ClusterIP type's external policy is another rule's"
        );
        assert!(new.iter().all(|m| !m.contains("Unsupported")), "{new:?}");
        let node_port = "type: NodePort\nexternalTrafficPolicy: LOCAL\n";
        assert_eq!(
            messages_at("io.k8s.api.core.v1.ServiceSpec", node_port, OLD),
            ["externalTrafficPolicy@2: Unsupported value: \"LOCAL\": supported values: \"Cluster\", \"Local\""]
        );
        let claim = "accessModes: [ReadWriteOnce]\nvolumeMode: ''\n";
        assert_eq!(
            messages_at("io.k8s.api.core.v1.PersistentVolumeClaimSpec", claim, OLD),
            ["volumeMode@2: Unsupported value: \"\": supported values: \"Block\", \"Filesystem\""]
        );
        assert!(
            messages_at("io.k8s.api.core.v1.PersistentVolumeClaimSpec", claim, NEW)
                .iter()
                .all(|m| !m.contains("Unsupported"))
        );
        let volume = "capacity: {storage: 1Gi}\naccessModes: [ReadWriteOnce]\nhostPath: {path: /x}\npersistentVolumeReclaimPolicy: Keep\n";
        let old = messages_at("io.k8s.api.core.v1.PersistentVolumeSpec", volume, OLD);
        assert!(
            old.contains(&"persistentVolumeReclaimPolicy@4: Unsupported value: \"Keep\": supported values: \"Delete\", \"Recycle\", \"Retain\"".to_owned()),
            "{old:?}"
        );
    }

    #[test]
    fn workloads_jobs_and_slices() {
        let (old, new) = both(
            "io.k8s.api.apps.v1.DeploymentStrategy",
            "type: rollingupdate\n",
        );
        assert_eq!(
            old,
            ["@1: Unsupported value: apps.DeploymentStrategy{Type:\"rollingupdate\", RollingUpdate:(*apps.RollingUpdateDeployment)(nil)}: supported values: \"Recreate\", \"RollingUpdate\""]
        );
        assert!(new.is_empty());
        let (old, new) = both(
            "io.k8s.api.apps.v1.DaemonSetUpdateStrategy",
            "type: Bad_Value\nrollingUpdate: {maxUnavailable: 1}\n",
        );
        assert_eq!(
            old,
            ["@1: Unsupported value: apps.DaemonSetUpdateStrategy{Type:\"Bad_Value\", RollingUpdate:(*apps.RollingUpdateDaemonSet)(0x…)}: supported values: \"RollingUpdate\", \"OnDelete\""]
        );
        assert!(new.is_empty());
        assert!(both(
            "io.k8s.api.apps.v1.DaemonSetUpdateStrategy",
            "type: OnDelete\n"
        )
        .0
        .is_empty());
        assert_eq!(
            messages_at("io.k8s.api.apps.v1.StatefulSetSpec", "podManagementPolicy: Sequential\n", OLD)
                .iter()
                .filter(|m| m.starts_with("podManagementPolicy"))
                .collect::<Vec<_>>(),
            ["podManagementPolicy@1: Invalid value: \"Sequential\": must be 'OrderedReady' or 'Parallel'"]
        );
        assert_eq!(
            messages_at("io.k8s.api.batch.v1.CronJobSpec", "schedule: '* * * * *'\nconcurrencyPolicy: forbid\n", OLD)
                .iter()
                .filter(|m| m.starts_with("concurrencyPolicy"))
                .collect::<Vec<_>>(),
            ["concurrencyPolicy@2: Unsupported value: \"forbid\": supported values: \"Allow\", \"Forbid\", \"Replace\""]
        );
        assert_eq!(
            messages_at("io.k8s.api.batch.v1.PodFailurePolicyRule", "action: Retry\n", OLD),
            ["action@1: Unsupported value: \"Retry\": supported values: \"Count\", \"FailIndex\", \"FailJob\", \"Ignore\""]
        );
        let slice = "addressType: ''\nendpoints: []\n";
        assert_eq!(
            messages_at("io.k8s.api.discovery.v1.EndpointSlice", slice, OLD),
            ["addressType@1: Required value"]
        );
        let (old, new) = both(
            "io.k8s.api.discovery.v1.EndpointSlice",
            "addressType: IPv5\nendpoints: []\n",
        );
        assert_eq!(
            old,
            ["addressType@1: Unsupported value: \"IPv5\": supported values: \"FQDN\", \"IPv4\", \"IPv6\""]
        );
        assert!(new.iter().all(|m| !m.contains("Unsupported")), "{new:?}");
        assert_eq!(
            messages_at("io.k8s.api.discovery.v1.EndpointPort", "port: 80\nprotocol: tcp\n", OLD),
            ["protocol@2: Unsupported value: \"tcp\": supported values: \"SCTP\", \"TCP\", \"UDP\""]
        );
    }

    #[test]
    fn profiles_and_internal_traffic_policy() {
        let (old, new) = both(
            "io.k8s.api.core.v1.SeccompProfile",
            "type: runtimedefault\n",
        );
        assert_eq!(
            old,
            ["type@1: Unsupported value: \"runtimedefault\": supported values: \"Localhost\", \"RuntimeDefault\", \"Unconfined\""]
        );
        assert!(new.is_empty());
        let (old, _) = both("io.k8s.api.core.v1.AppArmorProfile", "type: ''\n");
        assert_eq!(
            old,
            ["type@1: Required value: type is required when appArmorProfile is set"]
        );
        let (old, _) = both(
            "io.k8s.api.core.v1.ServiceSpec",
            "internalTrafficPolicy: ''\nports: [{port: 80}]\n",
        );
        assert_eq!(
            old,
            ["internalTrafficPolicy@1: Unsupported value: \"\": supported values: \"Cluster\", \"Local\""]
        );
    }
}
