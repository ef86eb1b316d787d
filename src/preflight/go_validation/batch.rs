//! The batch kinds' checks (batch `validateJobSpec`, `ValidateJob`'s
//! selector rules, `validateCronJobSpec`, `ValidateJobTemplateSpec`): counts
//! not negative, the template restarts `OnFailure` or `Never`, per-index
//! limits only for `Indexed` jobs, pod failure policies, a CronJob's
//! schedule and time zone.

use super::cron;
use super::field_error::{
    has, int_at, invalid_int, invalid_str, items_at, map_at, nonnegative, not_supported, push,
    required, required_when_empty, str_at,
};
use super::pod::template_in_context;
use super::read::{get, line_of};
use super::{Broken, Scope, Table};
use crate::document::{Entry, Value};

/// The checks, by the definition of the object they read.
pub(super) const CHECKS: Table = &[
    ("io.k8s.api.batch.v1.JobSpec", job_spec),
    ("io.k8s.api.batch.v1.Job", job_selector),
    ("io.k8s.api.batch.v1.JobTemplateSpec", job_template),
    ("io.k8s.api.batch.v1.CronJobSpec", cron_job_spec),
    ("io.k8s.api.batch.v1.CronJob", cron_job_without_spec),
];

/// A CronJob without `spec` (absent or `null`): `ValidateCronJobCreate`
/// validates the empty spec, which has no schedule and a template without
/// containers or restart policy.
fn cron_job_without_spec(_: &Scope, entries: &[Entry], line: u32, out: &mut Vec<Broken>) {
    if has(entries, "spec") {
        return;
    }
    let line = line_of(entries, "spec", line);
    push(out, "spec.schedule".to_owned(), line, required(""));
    let template = "spec.jobTemplate.spec.template.spec.";
    push(out, format!("{template}containers"), line, required(""));
    push(
        out,
        format!("{template}restartPolicy"),
        line,
        required(RESTART_VALUES),
    );
}

/// `maxParallelismForIndexedJob`, `maxFailedIndexesForIndexedJob`.
const MAX_INDEXED: i64 = 100_000;

/// The message of a template that would restart `Always`.
const RESTART_VALUES: &str = "valid values: \"OnFailure\", \"Never\"";

/// `validateJobSpec`.
fn job_spec(_: &Scope, entries: &[Entry], line: u32, out: &mut Vec<Broken>) {
    for key in [
        "parallelism",
        "completions",
        "activeDeadlineSeconds",
        "backoffLimit",
        "ttlSecondsAfterFinished",
        "backoffLimitPerIndex",
        "maxFailedIndexes",
    ] {
        nonnegative(entries, key, "", line, out);
    }
    let at = |key: &str| line_of(entries, key, line);
    let per_index = int_at(entries, "backoffLimitPerIndex");
    let max_failed = int_at(entries, "maxFailedIndexes");
    if max_failed.is_some() && !has(entries, "backoffLimitPerIndex") {
        let message = required("when maxFailedIndexes is specified");
        push(
            out,
            "backoffLimitPerIndex".to_owned(),
            at("maxFailedIndexes"),
            message,
        );
    }
    let mode = str_at(entries, "completionMode");
    if mode == Some("Indexed") {
        // A Job without either count gets 1 of each (SetDefaults_Job).
        let defaulted = !has(entries, "completions") && !has(entries, "parallelism");
        let completions = int_at(entries, "completions").or(defaulted.then_some(1));
        if !has(entries, "completions") && !defaulted {
            let message = required("when completion mode is Indexed");
            push(out, "completions".to_owned(), at("completionMode"), message);
        }
        if let Some(parallelism) = int_at(entries, "parallelism").filter(|p| *p > MAX_INDEXED) {
            let message = invalid_int(
                parallelism,
                "must be less than or equal to 100000 when completion mode is Indexed",
            );
            push(out, "parallelism".to_owned(), at("parallelism"), message);
        }
        if let (Some(completions), Some(failed)) = (completions, max_failed) {
            if failed > completions {
                let message = invalid_int(failed, "must be less than or equal to completions");
                push(
                    out,
                    "maxFailedIndexes".to_owned(),
                    at("maxFailedIndexes"),
                    message,
                );
            }
        }
        if let Some(failed) = max_failed.filter(|failed| *failed > MAX_INDEXED) {
            let message = invalid_int(failed, "must be less than or equal to 100000");
            push(
                out,
                "maxFailedIndexes".to_owned(),
                at("maxFailedIndexes"),
                message,
            );
        }
    } else if mode.is_none_or(|mode| mode == "NonIndexed") {
        for (key, value) in [
            ("backoffLimitPerIndex", per_index),
            ("maxFailedIndexes", max_failed),
        ] {
            if let Some(value) = value {
                let message = invalid_int(value, "requires indexed completion mode");
                push(out, key.to_owned(), at(key), message);
            }
        }
    }
    if let Some(policy) = map_at(entries, "podFailurePolicy") {
        pod_failure_policy(entries, policy, at("podFailurePolicy"), out);
    }
    if has(entries, "successPolicy") && mode != Some("Indexed") {
        let message = "Invalid value: {}: requires indexed completion mode".to_owned();
        push(
            out,
            "successPolicy".to_owned(),
            at("successPolicy"),
            message,
        );
    } else if let Some(policy) = map_at(entries, "successPolicy") {
        // A Job without either count gets 1 of each (SetDefaults_Job).
        let defaulted = !has(entries, "completions") && !has(entries, "parallelism");
        let completions = int_at(entries, "completions").or(defaulted.then_some(1));
        success_policy(policy, completions, at("successPolicy"), out);
    }
    if let Some(replacement) = str_at(entries, "podReplacementPolicy") {
        if has(entries, "podFailurePolicy") && replacement != "Failed" {
            let message = not_supported(replacement, &["Failed"]);
            push(
                out,
                "podReplacementPolicy".to_owned(),
                at("podReplacementPolicy"),
                message,
            );
        }
    }
    restart_policy(entries, line, out);
    template_in_context(entries, "", &[], false, out);
}

/// The template's `restartPolicy`: `OnFailure` or `Never` (the default,
/// `Always`, is refused), `Never` with a pod failure policy.
fn restart_policy(entries: &[Entry], line: u32, out: &mut Vec<Broken>) {
    let spec = map_at(entries, "template").and_then(|t| map_at(t, "spec"));
    let policy = spec
        .and_then(|s| str_at(s, "restartPolicy"))
        .unwrap_or_default();
    let template_line = line_of(entries, "template", line);
    let line = spec.map_or(template_line, |s| {
        line_of(s, "restartPolicy", template_line)
    });
    let last = "template.spec.restartPolicy".to_owned();
    match policy {
        "" | "Always" => push(out, last, line, required(RESTART_VALUES)),
        "OnFailure" if has(entries, "podFailurePolicy") => {
            let message = invalid_str(
                policy,
                "only \"Never\" is supported when podFailurePolicy is specified",
            );
            push(out, last, line, message);
        }
        "OnFailure" | "Never" => {}
        other => push(
            out,
            last,
            line,
            not_supported(other, &["OnFailure", "Never"]),
        ),
    }
}

/// `validatePodFailurePolicy` and its rules.
fn pod_failure_policy(spec: &[Entry], policy: &[Entry], line: u32, out: &mut Vec<Broken>) {
    let template = map_at(spec, "template").and_then(|t| map_at(t, "spec"));
    let names: Vec<&str> = ["containers", "initContainers"]
        .iter()
        .flat_map(|list| template.map(|t| items_at(t, list)).unwrap_or_default())
        .filter_map(|c| c.as_map().and_then(|c| str_at(c, "name")))
        .collect();
    for (index, rule) in items_at(policy, "rules").iter().enumerate() {
        let Some(rule) = rule.as_map() else {
            continue;
        };
        let prefix = format!("podFailurePolicy.rules[{index}].");
        let rule_line = line_of(rule, "action", line);
        match str_at(rule, "action").unwrap_or_default() {
            "" => {
                let message =
                    required("valid values: [\"Count\" \"FailIndex\" \"FailJob\" \"Ignore\"]");
                push(out, format!("{prefix}action"), rule_line, message);
            }
            "FailIndex" if !has(spec, "backoffLimitPerIndex") => {
                let message =
                    invalid_str("FailIndex", "requires the backoffLimitPerIndex to be set");
                push(out, format!("{prefix}action"), rule_line, message);
            }
            // Another action is the enum's.
            _ => {}
        }
        let exit_codes = map_at(rule, "onExitCodes");
        let conditions = items_at(rule, "onPodConditions");
        if let Some(codes) = exit_codes {
            on_exit_codes(codes, &format!("{prefix}onExitCodes."), &names, line, out);
        }
        for (j, pattern) in conditions.iter().enumerate() {
            let Some(pattern) = pattern.as_map() else {
                continue;
            };
            if let Some(kind) = str_at(pattern, "type") {
                let line = line_of(pattern, "type", line);
                for message in crate::preflight::names::qualified_name(kind) {
                    let last = format!("{prefix}onPodConditions[{j}].type");
                    push(out, last, line, invalid_str(kind, &message));
                }
            }
            let last = format!("{prefix}onPodConditions[{j}].status");
            // SetDefaults_Job sets an empty status to `True` first.
            match str_at(pattern, "status") {
                Some(status) if !["", "False", "True", "Unknown"].contains(&status) => {
                    let message = not_supported(status, &["False", "True", "Unknown"]);
                    push(out, last, line_of(pattern, "status", line), message);
                }
                _ => {}
            }
        }
        let rule_path = prefix.trim_end_matches('.').to_owned();
        if exit_codes.is_some() && !conditions.is_empty() {
            let message =
                "Invalid value: specifying both OnExitCodes and OnPodConditions is not supported";
            push(out, rule_path, rule_line, message.to_owned());
        } else if exit_codes.is_none() && conditions.is_empty() {
            let message =
                "Invalid value: specifying one of OnExitCodes and OnPodConditions is required";
            push(out, rule_path, rule_line, message.to_owned());
        }
    }
}

/// `validateSuccessPolicy` of an `Indexed` Job: at least one rule, and
/// each rule's `succeededCount` not negative nor above the completions
/// (`succeededIndexes`' format is not read here).
fn success_policy(policy: &[Entry], completions: Option<i64>, line: u32, out: &mut Vec<Broken>) {
    let rules = items_at(policy, "rules");
    if rules.is_empty() {
        let message =
            required("at least one rules must be specified when the successPolicy is specified");
        push(
            out,
            "successPolicy.rules".to_owned(),
            line_of(policy, "rules", line),
            message,
        );
    }
    for (index, rule) in rules.iter().enumerate() {
        let Some(rule) = rule.as_map() else {
            continue;
        };
        let prefix = format!("successPolicy.rules[{index}].");
        if !has(rule, "succeededCount") && !has(rule, "succeededIndexes") {
            let message =
                required("at least one of succeededCount or succeededIndexes must be specified");
            push(
                out,
                prefix.trim_end_matches('.').to_owned(),
                rule_line(rule, line),
                message,
            );
        }
        let Some(count) = int_at(rule, "succeededCount") else {
            continue;
        };
        nonnegative(rule, "succeededCount", &prefix, line, out);
        if let Some(completions) = completions.filter(|completions| count > *completions) {
            let detail = format!(
                "must be less than or equal to {completions} (the number of specified completions)"
            );
            let line = line_of(rule, "succeededCount", line);
            push(
                out,
                format!("{prefix}succeededCount"),
                line,
                invalid_int(count, &detail),
            );
        }
    }
}

/// The line of a list item's first key, or `or`.
fn rule_line(rule: &[Entry], or: u32) -> u32 {
    rule.first().map_or(or, |entry| entry.line)
}

/// `validatePodFailurePolicyRuleOnExitCodes`.
fn on_exit_codes(codes: &[Entry], prefix: &str, names: &[&str], line: u32, out: &mut Vec<Broken>) {
    let operator = str_at(codes, "operator").unwrap_or_default();
    if let Some(name) = str_at(codes, "containerName") {
        if !names.contains(&name) {
            let message = invalid_str(
                name,
                "must be one of the container or initContainer names in the pod template",
            );
            push(
                out,
                format!("{prefix}containerName"),
                line_of(codes, "containerName", line),
                message,
            );
        }
    }
    let values = items_at(codes, "values");
    let values_line = line_of(codes, "values", line);
    if values.is_empty() {
        let message = "Invalid value: []: at least one value is required".to_owned();
        push(out, format!("{prefix}values"), values_line, message);
    }
    let mut seen: Vec<i64> = Vec::with_capacity(values.len());
    let mut ordered = true;
    for (index, value) in values.iter().enumerate() {
        let Value::Int(code) = value.value else {
            continue;
        };
        let last = format!("{prefix}values[{index}]");
        if operator == "In" && code == 0 {
            let message = invalid_int(0, "must not be 0 for the In operator");
            push(out, last.clone(), value.line, message);
        }
        if seen.contains(&code) {
            push(out, last, value.line, format!("Duplicate value: {code}"));
        }
        if seen.last().is_some_and(|previous| *previous > code) {
            ordered = false;
        }
        seen.push(code);
    }
    if !ordered {
        let shown: Vec<String> = seen.iter().map(ToString::to_string).collect();
        let message = format!("Invalid value: [{}]: must be ordered", shown.join(","));
        push(out, format!("{prefix}values"), values_line, message);
    }
}

/// The labels a generated selector may require: the job's name under
/// either label; the controller's UID is unknown before creation.
const JOB_NAME_LABELS: &[&str] = &["batch.kubernetes.io/job-name", "job-name"];
const GENERATED_LABELS: &[&str] = &[
    "batch.kubernetes.io/controller-uid",
    "batch.kubernetes.io/job-name",
    "controller-uid",
    "job-name",
];

/// `ValidateJobSpec`'s required selector with `manualSelector`, and
/// `validateGeneratedSelector`: without it, a selector of the user's must
/// select what the server generates (its name and UID labels).
fn job_selector(_: &Scope, entries: &[Entry], line: u32, out: &mut Vec<Broken>) {
    let Some(spec) = map_at(entries, "spec") else {
        return;
    };
    let manual = get(spec, "manualSelector").is_some_and(|m| m.value == Value::Bool(true));
    let selector = map_at(spec, "selector");
    let spec_line = line_of(entries, "spec", line);
    if manual {
        if selector.is_none() {
            push(out, "spec.selector".to_owned(), spec_line, required(""));
        }
        return;
    }
    let Some(selector) = selector else {
        return;
    };
    let name = map_at(entries, "metadata")
        .and_then(|m| str_at(m, "name"))
        .unwrap_or_default();
    let labels_match = map_at(selector, "matchLabels")
        .unwrap_or_default()
        .iter()
        .all(|label| {
            JOB_NAME_LABELS.contains(&label.key.as_str()) && label.value.as_str() == Some(name)
        });
    let expressions_match = items_at(selector, "matchExpressions").iter().all(|e| {
        e.as_map().is_some_and(|e| {
            str_at(e, "operator") == Some("Exists")
                && str_at(e, "key").is_some_and(|key| GENERATED_LABELS.contains(&key))
        })
    });
    if !(labels_match && expressions_match) {
        let line = line_of(spec, "selector", spec_line);
        let message = "Invalid value: {…}: `selector` not auto-generated".to_owned();
        push(out, "spec.selector".to_owned(), line, message);
    }
}

/// `ValidateJobTemplateSpec`: the selector is generated, and a template
/// without a spec has neither containers nor a restart policy the job
/// takes.
fn job_template(_: &Scope, entries: &[Entry], line: u32, out: &mut Vec<Broken>) {
    let Some(spec) = map_at(entries, "spec") else {
        let line = line_of(entries, "spec", line);
        push(
            out,
            "spec.template.spec.containers".to_owned(),
            line,
            required(""),
        );
        let message = required(RESTART_VALUES);
        push(
            out,
            "spec.template.spec.restartPolicy".to_owned(),
            line,
            message,
        );
        return;
    };
    if let Some(selector) = get(spec, "selector") {
        let message = "Invalid value: {…}: `selector` will be auto-generated".to_owned();
        push(out, "spec.selector".to_owned(), selector.line, message);
    }
    if let Some(manual) = get(spec, "manualSelector").filter(|m| m.value == Value::Bool(true)) {
        let message = "Unsupported value: true: supported values: \"nil\", \"false\"".to_owned();
        push(out, "spec.manualSelector".to_owned(), manual.line, message);
    }
}

/// `validateCronJobSpec`.
fn cron_job_spec(_: &Scope, entries: &[Entry], line: u32, out: &mut Vec<Broken>) {
    // An absent schedule is the schema's `required`; an empty one the Go
    // validation's.
    required_when_empty(entries, "schedule", "", line, out);
    if let Some(schedule) = str_at(entries, "schedule").filter(|s| !s.is_empty()) {
        let line = line_of(entries, "schedule", line);
        if let Some(error) = cron::parse_error(schedule) {
            push(
                out,
                "schedule".to_owned(),
                line,
                invalid_str(schedule, &error),
            );
        }
        if schedule.contains("TZ") {
            let message = invalid_str(
                schedule,
                "cannot use TZ or CRON_TZ in schedule, use timeZone field instead",
            );
            push(out, "schedule".to_owned(), line, message);
        }
    }
    for key in [
        "startingDeadlineSeconds",
        "successfulJobsHistoryLimit",
        "failedJobsHistoryLimit",
    ] {
        nonnegative(entries, key, "", line, out);
    }
    if let Some(zone) = str_at(entries, "timeZone") {
        if let Some(message) = time_zone_error(zone) {
            let line = line_of(entries, "timeZone", line);
            push(
                out,
                "timeZone".to_owned(),
                line,
                invalid_str(zone, &message),
            );
        }
    }
}

/// `validateTimeZone` without the time zone database: empty, a malformed
/// name, or `Local`.
fn time_zone_error(zone: &str) -> Option<String> {
    if zone.is_empty() {
        return Some("timeZone must be nil or non-empty string".to_owned());
    }
    let part_ok = |part: &str| {
        part != "."
            && part != ".."
            && !part.starts_with('-')
            && (1..=14).contains(&part.len())
            && part
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_' | b'+'))
    };
    if !zone.split('/').all(part_ok) {
        return Some(format!("unknown time zone {zone}"));
    }
    if zone.eq_ignore_ascii_case("Local") {
        return Some(
            "timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones"
                .to_owned(),
        );
    }
    None
}

#[cfg(test)]
mod tests {
    use super::super::tests::messages;

    const JOB: &str = "io.k8s.api.batch.v1.JobSpec";
    const TEMPLATE: &str =
        "template:\n  spec:\n    restartPolicy: Never\n    containers: [{name: a, image: b}]\n";

    #[test]
    fn job_spec_rules() {
        assert!(messages(JOB, TEMPLATE).is_empty());
        assert!(messages(JOB, &format!("{TEMPLATE}completionMode: Indexed\n")).is_empty());
        assert_eq!(
            messages(
                JOB,
                &format!("{TEMPLATE}completionMode: Indexed\nparallelism: 2\n")
            ),
            ["completions@5: Required value: when completion mode is Indexed"]
        );
        assert_eq!(
            messages(JOB, &format!("{TEMPLATE}backoffLimit: -1\n")),
            ["backoffLimit@5: Invalid value: -1: must be greater than or equal to 0"]
        );
        assert_eq!(
            messages(JOB, "template:\n  spec:\n    containers: [{name: a, image: b}]\n"),
            ["template.spec.restartPolicy@1: Required value: valid values: \"OnFailure\", \"Never\""]
        );
        assert_eq!(
            messages(JOB, &format!("{TEMPLATE}backoffLimitPerIndex: 1\n")),
            ["backoffLimitPerIndex@5: Invalid value: 1: requires indexed completion mode"]
        );
        let policy = "podFailurePolicy:\n  rules:\n  - action: FailJob\n    onExitCodes: {operator: In, values: [0, 2, 1]}\n";
        assert_eq!(
            messages(JOB, &format!("{TEMPLATE}{policy}")),
            [
                "podFailurePolicy.rules[0].onExitCodes.values[0]@8: Invalid value: 0: must not be 0 for the In operator",
                "podFailurePolicy.rules[0].onExitCodes.values@8: Invalid value: [0,2,1]: must be ordered"
            ]
        );
    }

    #[test]
    fn job_and_cron_job_rules() {
        let job = "metadata: {name: m}\nspec:\n  selector: {matchLabels: {a: b}}\n";
        assert_eq!(
            messages("io.k8s.api.batch.v1.Job", job),
            ["spec.selector@3: Invalid value: {…}: `selector` not auto-generated"]
        );
        let manual = "metadata: {name: m}\nspec:\n  manualSelector: true\n";
        assert_eq!(
            messages("io.k8s.api.batch.v1.Job", manual),
            ["spec.selector@2: Required value"]
        );
        assert_eq!(
            messages("io.k8s.api.batch.v1.JobTemplateSpec", "metadata: {}\n").len(),
            2
        );
        let status = "podFailurePolicy:\n  rules:\n  - action: Ignore\n    onPodConditions: [{type: DisruptionTarget, status: 'true'}]\n";
        assert_eq!(
            messages(JOB, &format!("{TEMPLATE}{status}")),
            ["podFailurePolicy.rules[0].onPodConditions[0].status@8: Unsupported value: \"true\": supported values: \"False\", \"True\", \"Unknown\""]
        );
        let cron = "io.k8s.api.batch.v1.CronJobSpec";
        assert_eq!(
            messages(cron, "schedule: 61 * * * *\n"),
            ["schedule@1: Invalid value: \"61 * * * *\": end of range (61) above maximum (59): 61"]
        );
        assert_eq!(
            messages(cron, "schedule: TZ=UTC 0 3 * * *\n"),
            ["schedule@1: Invalid value: \"TZ=UTC 0 3 * * *\": cannot use TZ or CRON_TZ in schedule, use timeZone field instead"]
        );
        assert_eq!(
            messages(cron, "schedule: '@daily'\ntimeZone: Bad Zone\n"),
            ["timeZone@2: Invalid value: \"Bad Zone\": unknown time zone Bad Zone"]
        );
        assert!(messages(cron, "schedule: '*/5 * * * *'\ntimeZone: Europe/Paris\n").is_empty());
    }

    #[test]
    fn success_policies_and_pod_condition_patterns() {
        let indexed = format!("{TEMPLATE}completionMode: Indexed\ncompletions: 3\n");
        assert_eq!(
            messages(JOB, &format!("{indexed}successPolicy: {{rules: []}}\n")),
            ["successPolicy.rules@7: Required value: at least one rules must be specified when the successPolicy is specified"]
        );
        let rules = format!("{indexed}successPolicy:\n  rules:\n  - succeededCount: -1\n  - succeededCount: 4\n  - {{}}\n");
        assert_eq!(
            messages(JOB, &rules),
            [
                "successPolicy.rules[0].succeededCount@9: Invalid value: -1: must be greater than or equal to 0",
                "successPolicy.rules[1].succeededCount@10: Invalid value: 4: must be less than or equal to 3 (the number of specified completions)",
                "successPolicy.rules[2]@7: Required value: at least one of succeededCount or succeededIndexes must be specified",
            ]
        );
        let conditions = format!("{TEMPLATE}podFailurePolicy:\n  rules:\n  - action: Ignore\n    onPodConditions: [{{type: 'DisruptionTarget ', status: ''}}]\n");
        assert_eq!(
            messages(JOB, &conditions),
            ["podFailurePolicy.rules[0].onPodConditions[0].type@8: Invalid value: \"DisruptionTarget \": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"]
        );
        assert_eq!(
            messages(
                "io.k8s.api.batch.v1.CronJobSpec",
                "schedule: ''\njobTemplate: {}\n"
            ),
            ["schedule@1: Required value"]
        );
    }
}
