//! autoscaling's checks (k8s.io/kubernetes `pkg/apis/autoscaling/validation`
//! `validateHorizontalPodAutoscalerSpec`), on a HorizontalPodAutoscaler of
//! `autoscaling/v2` or `v1` as the server holds it after defaulting
//! (`minReplicas` 1; a `behavior`'s rules filled from the defaults where
//! unset; v1's `targetCPUUtilizationPercentage` as a CPU metric).

use super::read::{entries, get, int, items, line_of, shown, text, Findings, Path};
use super::{Broken, Scope, Table};
use crate::document::{Entry, Node, Value};
use crate::preflight::names;
use crate::Version;
use vergate_core::support::quantity;

/// The checks, by the definition of the object they read.
pub(super) const CHECKS: Table = &[
    (
        "io.k8s.api.autoscaling.v2.HorizontalPodAutoscaler",
        autoscaler,
    ),
    (
        "io.k8s.api.autoscaling.v1.HorizontalPodAutoscaler",
        autoscaler_v1,
    ),
];

const METRIC_TYPES: [&str; 5] = [
    "ContainerResource",
    "External",
    "Object",
    "Pods",
    "Resource",
];

/// `validateHorizontalPodAutoscalerSpec`.
fn autoscaler(scope: &Scope, object: &[Entry], line: u32, out: &mut Vec<Broken>) {
    let found = &mut Findings { out };
    let root = Path::Root;
    let spec_path = root.key("spec");
    let spec = entries(get(object, "spec"));
    let spec_line = line_of(object, "spec", line);
    let at = |key| line_of(spec, key, spec_line);
    // Defaulted to 1 when unset (the HPAScaleToZero gate, alpha, is off).
    let min = int(spec, "minReplicas").unwrap_or(1);
    if min < 1 {
        let path = spec_path.key("minReplicas");
        found.invalid(
            path,
            at("minReplicas"),
            &min.to_string(),
            "must be greater than or equal to 1",
        );
    }
    let max = int(spec, "maxReplicas").unwrap_or(0);
    let max_path = spec_path.key("maxReplicas");
    if scope.target >= Version::new(1, 36) {
        if max == 0 {
            found.required(
                max_path,
                at("maxReplicas"),
                "must be set and greater than 0",
            );
        } else if max < 0 {
            found.invalid(
                max_path,
                at("maxReplicas"),
                &max.to_string(),
                "must be greater than or equal to 1",
            );
        }
    } else if max < 1 {
        found.invalid(
            max_path,
            at("maxReplicas"),
            &max.to_string(),
            "must be greater than 0",
        );
    }
    if max < min {
        found.invalid(
            max_path,
            at("maxReplicas"),
            &max.to_string(),
            "must be greater than or equal to `minReplicas`",
        );
    }
    let target = get(spec, "scaleTargetRef");
    let target_line = line_of(spec, "scaleTargetRef", spec_line);
    reference(
        target,
        target_line,
        spec_path.key("scaleTargetRef"),
        // ValidateAPIVersion came in 1.34; 1.33's server reads no apiVersion.
        (scope.target >= Version::new(1, 34)).then_some(false),
        found,
    );
    // v2's metrics; v1's CPU target becomes one Resource metric, and none
    // given is v2's default CPU metric: either way no Object or External.
    let metrics = items(get(spec, "metrics"));
    let metrics_path = spec_path.key("metrics");
    let mut scales_to_zero = false;
    for (index, metric) in metrics.iter().enumerate() {
        let kind = metric_spec(metric, metrics_path.index(index), found);
        scales_to_zero |= kind == "Object" || kind == "External";
    }
    if min == 0 && !scales_to_zero {
        found.forbidden(
            metrics_path,
            at("metrics"),
            "must specify at least one Object or External metric to support scaling to zero replicas",
        );
    }
    if let Some(behavior) = get(spec, "behavior") {
        let behavior_path = spec_path.key("behavior");
        let fields = entries(Some(behavior));
        for key in ["scaleUp", "scaleDown"] {
            if let Some(rules) = get(fields, key) {
                scaling_rules(rules, behavior_path.key(key), found);
            }
        }
    }
}

/// v1's: the spec's checks, and `targetCPUUtilizationPercentage` as the
/// server converts it, the target of a CPU metric (reported there).
fn autoscaler_v1(scope: &Scope, object: &[Entry], line: u32, out: &mut Vec<Broken>) {
    autoscaler(scope, object, line, out);
    let spec = entries(get(object, "spec"));
    let key = "targetCPUUtilizationPercentage";
    if let Some(target) = int(spec, key).filter(|target| *target < 1) {
        let root = Path::Root;
        let spec_path = root.key("spec");
        let metric = spec_path.key("metrics");
        let first = metric.index(0);
        let resource = first.key("resource");
        let path = resource.key("target");
        let line = line_of(spec, key, line_of(object, "spec", line));
        Findings { out }.invalid(
            path.key("averageUtilization"),
            line,
            &target.to_string(),
            "must be greater than 0",
        );
    }
}

/// `ValidateCrossVersionObjectReference`: a kind, a name, an apiVersion
/// with a group (`empty_group`: or without, as a metric's object may;
/// `None`: the apiVersion is not checked).
fn reference(
    node: Option<&Node>,
    line: u32,
    at: Path<'_>,
    empty_group: Option<bool>,
    found: &mut Findings<'_>,
) {
    let fields = entries(node);
    let line_at = |key| line_of(fields, key, line);
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
    let Some(empty_group) = empty_group else {
        return;
    };
    let api_version = text(fields, "apiVersion");
    // schema.ParseGroupVersion: `group/version`, a bare version, or
    // nothing (`""`, `/`), split by the one apiVersion split; more
    // slashes do not parse.
    let group = match api_version.matches('/').count() {
        0 | 1 => Some(crate::gates::GroupVersionKind::split_api_version(api_version).0),
        _ => None,
    };
    let problem = match group {
        None => Some(format!("unexpected GroupVersion string: {api_version}")),
        Some("") if !empty_group => Some("apiVersion must specify API group".to_owned()),
        Some(_) => None,
    };
    if let Some(problem) = problem {
        let shown = crate::walk::go_quoted(api_version);
        found.invalid(
            at.key("apiVersion"),
            line_at("apiVersion"),
            &shown,
            &problem,
        );
    }
}

/// `validateMetricSpec`; returns the metric's type.
fn metric_spec<'n>(metric: &'n Node, at: Path<'_>, found: &mut Findings<'_>) -> &'n str {
    let fields = entries(Some(metric));
    let line_at = |key| line_of(fields, key, metric.line);
    let kind = text(fields, "type");
    if kind.is_empty() {
        found.required(
            at.key("type"),
            line_at("type"),
            "must specify a metric source type",
        );
    }
    if !METRIC_TYPES.contains(&kind) {
        found.not_supported(at.key("type"), line_at("type"), kind, &METRIC_TYPES);
    }
    // Only the first source given (in this order) is validated.
    let sources = [
        "object",
        "external",
        "pods",
        "resource",
        "containerResource",
    ];
    let present: Vec<&str> = sources
        .into_iter()
        .filter(|key| get(fields, key).is_some())
        .collect();
    if let Some(first) = present.first() {
        let source = get(fields, first).unwrap_or(metric);
        metric_source(first, source, at.key(first), found);
    }
    let expected = match kind {
        "Object" => "object",
        "Pods" => "pods",
        "Resource" => "resource",
        "External" => "external",
        "ContainerResource" => "containerResource",
        _ => {
            found.not_supported(at.key("type"), line_at("type"), kind, &METRIC_TYPES);
            ""
        }
    };
    if !expected.is_empty() && get(fields, expected).is_none() {
        found.required(
            at.key(expected),
            line_at("type"),
            "must populate information for the given metric source",
        );
    }
    if present.len() != 1 {
        for other in present.iter().filter(|key| **key != expected) {
            found.forbidden(
                at.key(other),
                line_at(other),
                "must populate the given metric source only",
            );
        }
    }
    kind
}

/// The checks of one metric source (`validateObjectSource` and its kin).
fn metric_source(kind: &str, source: &Node, at: Path<'_>, found: &mut Findings<'_>) {
    let fields = entries(Some(source));
    let line_at = |key| line_of(fields, key, source.line);
    if kind == "object" {
        let described = get(fields, "describedObject");
        reference(
            described,
            line_at("describedObject"),
            at.key("describedObject"),
            Some(true),
            found,
        );
    }
    if matches!(kind, "object" | "external" | "pods") {
        let metric = entries(get(fields, "metric"));
        let name = text(metric, "name");
        let line = line_of(metric, "name", line_at("metric"));
        if name.is_empty() {
            found.required(
                at.key("metric").key("name"),
                line,
                "must specify a metric name",
            );
        } else {
            found.invalid_each(
                at.key("metric").key("name"),
                line,
                name,
                names::path_segment(name, false),
            );
        }
    }
    if kind == "containerResource" {
        for (key, what) in [
            ("name", "must specify a resource name"),
            ("container", "must specify a container"),
        ] {
            let value = text(fields, key);
            if value.is_empty() {
                found.required(at.key(key), line_at(key), what);
            } else if key == "container" {
                found.invalid_each(
                    at.key(key),
                    line_at(key),
                    value,
                    names::dns1123_label(value),
                );
            }
        }
    }
    if kind == "resource" && text(fields, "name").is_empty() {
        found.required(
            at.key("name"),
            line_at("name"),
            "must specify a resource name",
        );
    }
    let target_path = at.key("target");
    let target = entries(get(fields, "target"));
    let target_line = line_at("target");
    let has = |key| get(target, key).is_some();
    metric_target(target, target_line, target_path, found);
    let (value, average, utilization) =
        (has("value"), has("averageValue"), has("averageUtilization"));
    match kind {
        "object" if !value && !average => found.required(
            target_path.key("averageValue"),
            target_line,
            "must set either a target value or averageValue",
        ),
        "external" if !value && !average => found.required(
            target_path.key("averageValue"),
            target_line,
            "must set either a target value for metric or a per-pod target",
        ),
        "external" if value && average => found.forbidden(
            target_path.key("value"),
            target_line,
            "may not set both a target value for metric and a per-pod target",
        ),
        "pods" if !average => found.required(
            target_path.key("averageValue"),
            target_line,
            "must specify a positive target averageValue",
        ),
        "resource" | "containerResource" if !utilization && !average => found.required(
            target_path.key("averageUtilization"),
            target_line,
            "must set either a target raw value or a target utilization",
        ),
        "resource" | "containerResource" if utilization && average => found.forbidden(
            target_path.key("averageValue"),
            target_line,
            "may not set both a target raw value and a target utilization",
        ),
        _ => {}
    }
}

/// `validateMetricTarget`.
fn metric_target(target: &[Entry], line: u32, at: Path<'_>, found: &mut Findings<'_>) {
    let line_at = |key| line_of(target, key, line);
    let kind = text(target, "type");
    if kind.is_empty() {
        found.required(
            at.key("type"),
            line_at("type"),
            "must specify a metric target type",
        );
    }
    if !matches!(kind, "Utilization" | "Value" | "AverageValue") {
        let shown = crate::walk::go_quoted(kind);
        found.invalid(
            at.key("type"),
            line_at("type"),
            &shown,
            "must be either Utilization, Value, or AverageValue",
        );
    }
    for key in ["value", "averageValue"] {
        let node = get(target, key);
        if node.is_some_and(|node| !positive(node)) {
            found.invalid(at.key(key), line_at(key), &shown(node), "must be positive");
        }
    }
    if let Some(utilization) = int(target, "averageUtilization").filter(|value| *value < 1) {
        found.invalid(
            at.key("averageUtilization"),
            line_at("averageUtilization"),
            &utilization.to_string(),
            "must be greater than 0",
        );
    }
}

/// A quantity's sign is 1 (one that does not read is the walk's).
fn positive(node: &Node) -> bool {
    match &node.value {
        Value::Int(value) => *value > 0,
        Value::Float(text) | Value::String(text) => match quantity::parse_quantity(text.trim()) {
            Ok(parts) => {
                !parts.negative
                    && (parts
                        .whole
                        .bytes()
                        .chain(parts.fraction.bytes())
                        .any(|b| b != b'0'))
            }
            Err(_) => true,
        },
        _ => true,
    }
}

/// `validateScalingRules` of rules the user set (the defaults fill what
/// they leave unset: a `policies` list absent or `null`, not empty).
fn scaling_rules(rules: &Node, at: Path<'_>, found: &mut Findings<'_>) {
    let fields = entries(Some(rules));
    let line_at = |key| line_of(fields, key, rules.line);
    if let Some(window) = int(fields, "stabilizationWindowSeconds") {
        let path = at.key("stabilizationWindowSeconds");
        if window < 0 {
            found.invalid(
                path,
                line_at("stabilizationWindowSeconds"),
                &window.to_string(),
                "must be greater than or equal to zero",
            );
        }
        if window > 3600 {
            found.invalid(
                path,
                line_at("stabilizationWindowSeconds"),
                &window.to_string(),
                "must be less than or equal to 3600",
            );
        }
    }
    if let Some(select) = get(fields, "selectPolicy").and_then(Node::as_str) {
        if !matches!(select, "Disabled" | "Max" | "Min") {
            found.not_supported(
                at.key("selectPolicy"),
                line_at("selectPolicy"),
                select,
                &["Disabled", "Max", "Min"],
            );
        }
    }
    let policies_path = at.key("policies");
    let policies = get(fields, "policies");
    if policies.is_some() && items(policies).is_empty() {
        found.required(
            policies_path,
            line_at("policies"),
            "must specify at least one Policy",
        );
    }
    for (index, policy) in items(policies).iter().enumerate() {
        let at = policies_path.index(index);
        let fields = entries(Some(policy));
        let line_at = |key| line_of(fields, key, policy.line);
        let kind = text(fields, "type");
        if kind != "Pods" && kind != "Percent" {
            found.not_supported(at.key("type"), line_at("type"), kind, &["Percent", "Pods"]);
        }
        let value = int(fields, "value").unwrap_or(0);
        if value <= 0 {
            found.invalid(
                at.key("value"),
                line_at("value"),
                &value.to_string(),
                "must be greater than zero",
            );
        }
        let period = int(fields, "periodSeconds").unwrap_or(0);
        if period <= 0 {
            found.invalid(
                at.key("periodSeconds"),
                line_at("periodSeconds"),
                &period.to_string(),
                "must be greater than zero",
            );
        }
        if period > 1800 {
            found.invalid(
                at.key("periodSeconds"),
                line_at("periodSeconds"),
                &period.to_string(),
                "must be less than or equal to 1800",
            );
        }
    }
    if let Some(tolerance) = get(fields, "tolerance") {
        let negative = match &tolerance.value {
            Value::Int(value) => *value < 0,
            Value::Float(text) | Value::String(text) => quantity::parse_quantity(text.trim())
                .is_ok_and(|parts| parts.negative && !all_zero(&parts)),
            _ => false,
        };
        if negative {
            found.invalid(
                at.key("tolerance"),
                line_at("tolerance"),
                &shown(Some(tolerance)),
                "must be greater than or equal to 0",
            );
        }
    }
}

/// Whether a quantity's digits are all zero: `-0` is not negative.
fn all_zero(parts: &quantity::QuantityParts<'_>) -> bool {
    parts
        .whole
        .bytes()
        .chain(parts.fraction.bytes())
        .all(|b| b == b'0')
}

#[cfg(test)]
mod tests {
    use super::super::read::{found, found_at};

    const HPA: &str = "io.k8s.api.autoscaling.v2.HorizontalPodAutoscaler";
    const GOOD: &str = "spec:\n  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}\n  maxReplicas: 5\n  metrics: [{type: Resource, resource: {name: cpu, target: {type: Utilization, averageUtilization: 80}}}]\n";

    #[test]
    fn replicas_and_target() {
        assert!(found(HPA, GOOD).is_empty());
        let bad = "spec:\n  scaleTargetRef: {apiVersion: v1, kind: Deployment, name: web}\n  minReplicas: 0\n  maxReplicas: 0\n";
        assert_eq!(
            found(HPA, bad),
            [
                "spec.minReplicas@3: Invalid value: 0: must be greater than or equal to 1",
                "spec.maxReplicas@4: Required value: must be set and greater than 0",
                "spec.scaleTargetRef.apiVersion@2: Invalid value: \"v1\": apiVersion must specify API group",
                "spec.metrics@1: Forbidden: must specify at least one Object or External metric to support scaling to zero replicas",
            ]
        );
        // 1.33's server reads no apiVersion (ValidateAPIVersion is 1.34's).
        let no_group = "spec:\n  scaleTargetRef: {apiVersion: '', kind: Deployment, name: web}\n  maxReplicas: 2\n";
        assert!(found_at(HPA, 33, no_group).is_empty());
        assert_eq!(
            found_at(HPA, 34, no_group),
            ["spec.scaleTargetRef.apiVersion@2: Invalid value: \"\": apiVersion must specify API group"]
        );
        let v1 = "spec: {scaleTargetRef: {apiVersion: apps/v1, kind: D, name: w}, maxReplicas: 2, targetCPUUtilizationPercentage: 0}\n";
        assert_eq!(
            found("io.k8s.api.autoscaling.v1.HorizontalPodAutoscaler", v1),
            ["spec.metrics[0].resource.target.averageUtilization@1: Invalid value: 0: must be greater than 0"]
        );
        assert_eq!(
            found_at(HPA, 35, "spec: {scaleTargetRef: {apiVersion: apps/v1, kind: D, name: w}, maxReplicas: -1}\n"),
            [
                "spec.maxReplicas@1: Invalid value: -1: must be greater than 0",
                "spec.maxReplicas@1: Invalid value: -1: must be greater than or equal to `minReplicas`",
            ]
        );
    }

    #[test]
    fn metrics_and_behavior() {
        let bad = "spec:\n  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}\n  maxReplicas: 5\n  metrics: [{type: Resource, resource: {name: cpu, target: {type: utilization, averageUtilization: 0}}}]\n  behavior: {scaleDown: {policies: []}, scaleUp: {stabilizationWindowSeconds: -1, policies: [{type: Percent, value: 10, periodSeconds: 0}]}}\n";
        assert_eq!(
            found(HPA, bad),
            [
                "spec.metrics[0].resource.target.type@4: Invalid value: \"utilization\": must be either Utilization, Value, or AverageValue",
                "spec.metrics[0].resource.target.averageUtilization@4: Invalid value: 0: must be greater than 0",
                "spec.behavior.scaleUp.stabilizationWindowSeconds@5: Invalid value: -1: must be greater than or equal to zero",
                "spec.behavior.scaleUp.policies[0].periodSeconds@5: Invalid value: 0: must be greater than zero",
                "spec.behavior.scaleDown.policies@5: Required value: must specify at least one Policy",
            ]
        );
        let mut twice = found(HPA, &GOOD.replace("type: Resource", "type: resource"));
        twice.dedup();
        assert_eq!(twice, ["spec.metrics[0].type@4: Unsupported value: \"resource\": supported values: \"ContainerResource\", \"External\", \"Object\", \"Pods\", \"Resource\""]);
    }
}

#[cfg(test)]
mod api_version_tests {
    use super::super::read::found;

    /// `schema.ParseGroupVersion`: the one apiVersion split for none or one
    /// slash (`/` has no group), more slashes do not parse.
    #[test]
    fn the_target_api_version_parses_as_go_parses_it() {
        let hpa = |api_version: &str| {
            found(
                "io.k8s.api.autoscaling.v2.HorizontalPodAutoscaler",
                &format!("spec:\n  scaleTargetRef: {{apiVersion: '{api_version}', kind: D, name: w}}\n  maxReplicas: 2\n"),
            )
        };
        assert!(hpa("apps/v1").is_empty());
        assert_eq!(
            hpa("a/b/v1"),
            ["spec.scaleTargetRef.apiVersion@2: Invalid value: \"a/b/v1\": unexpected GroupVersion string: a/b/v1"]
        );
        assert_eq!(
            hpa("/"),
            ["spec.scaleTargetRef.apiVersion@2: Invalid value: \"/\": apiVersion must specify API group"]
        );
    }
}
