//! `vergate check` on values of unions (the demo's Notifier, 1.11 and
//! 1.12): a discriminator picks the member, an untagged union must match a
//! member (a oneOf exactly one), and each refusal names what was tried.

mod support;

use support::cli::{code, stderr, stdout, vergate};

const DEMO: &str = "generated/demo";

#[test]
fn values_of_every_member_pass() {
    let out = vergate(&["check", "--api", DEMO, "tests/cli/unions/good.yaml"]);
    assert_eq!(stdout(&out), "");
    assert!(
        stderr(&out).contains("checked 2 documents against demo: 0 errors, 0 warnings"),
        "{}",
        stderr(&out)
    );
    assert_eq!(code(&out), 0);
}

#[test]
fn each_refusal_names_the_members_tried() {
    let file = "tests/cli/unions/bad.yaml";
    let out = vergate(&["check", "--api", DEMO, file]);
    let expected = [
        r#"7: Notifier deploys: spec.channel.type: value "webhook" picks Webhook, which is not a member of Channel in 1.11 (introduced in 1.12; known in 1.11: email, slack)"#,
        r#"10: Notifier deploys: spec.fallback.via: value "pager" names no member of Fallback (known in 1.11: dev.shipyard.notify.v1.Pager, dev.shipyard.notify.v1.Sms)"#,
        "11: Notifier deploys: spec.retries: matches no member of NotifierSpecRetries in 1.11; as integer(int32): expected an integer (integer(int32) in 1.11), found a list; as string: expected a string (string in 1.11), found a list; as NotifierSpecRetriesOption3: expected a mapping (NotifierSpecRetriesOption3 in 1.11), found a list",
        "12: Notifier deploys: spec.priority: matches no member of NotifierSpecPriority in 1.11; as integer: expected an integer (integer in 1.11), found a boolean; as string: expected a string (string in 1.11), found a boolean",
        r#"19: Notifier builds: spec.channel.type: missing: Channel picks its member by "type" (in 1.12 one of: email, slack, webhook)"#,
        "21: Notifier builds: spec.fallback.number: missing: required in 1.12",
        "23: Notifier builds: spec.retries: matches no member of NotifierSpecRetries in 1.12; as integer(int32): expected an integer (integer(int32) in 1.12), found a mapping; as string: expected a string (string in 1.12), found a mapping; as NotifierSpecRetriesOption3: spec.retries.max: expected an integer (integer(int32) in 1.12), found a string",
        "25: Notifier builds: spec.delay: matches 2 members of NotifierSpecDelay (integer, number); oneOf accepts a value that matches exactly one",
        "26: Notifier builds: spec.priority: matches no member of NotifierSpecPriority in 1.12; as integer: expected an integer (integer in 1.12), found 1.5; as string: expected a string (string in 1.12), found a number",
    ]
    .map(|line| format!("{file}:{line}\n"))
    .concat();
    assert_eq!(stdout(&out), expected);
    assert!(stderr(&out).contains("checked 2 documents against demo: 9 errors, 0 warnings"));
    assert_eq!(code(&out), 1);
}
