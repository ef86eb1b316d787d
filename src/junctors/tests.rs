//! Junctors as kube-openapi evaluates them, on Gateway API's address
//! schema (as the CRD reader rewrites it) and on small schemas per junctor.

use super::*;
use serde_json::json;
use vergate_codegen::load::VALUE_VALIDATIONS;

/// `schema` read into its tree, as a served version's.
fn read(schema: &serde_json::Value) -> ServedSchema {
    ServedSchema::read(schema, "crd.yaml: CRD t version v1".to_owned())
}

/// The junctors' findings on `root`, defaulted first by the same tree.
fn run(schema: &ServedSchema, root: &Node, minor: Option<Version>) -> Vec<Violation> {
    let defaulted = defaults::apply(&schema.tree, root);
    super::check(schema, &defaulted.root, defaulted.cut.as_ref(), minor)
}

/// Gateway API's `spec.addresses` items (v1.3.0), as `load/crd.rs`
/// rewrites them: the junctors under `x-vergate-value-validations`.
fn gateway() -> ServedSchema {
    let item = json!({
        "type": "object",
        "properties": {
            "type": {"type": "string", "default": "IPAddress", "maxLength": 253, "minLength": 1},
            "value": {"type": "string", "maxLength": 253}
        },
        VALUE_VALIDATIONS: {"oneOf": [
            {"properties": {
                "type": {"enum": ["IPAddress"]},
                "value": {VALUE_VALIDATIONS: {"anyOf": [{"format": "ipv4"}, {"format": "ipv6"}]}}
            }},
            {"properties": {"type": {VALUE_VALIDATIONS: {"not": {"enum": ["IPAddress"]}}}}}
        ]}
    });
    let schema = json!({
        "type": "object",
        "properties": {"spec": {"type": "object", "properties": {
            "addresses": {"type": "array", "items": item}
        }}}
    });
    read(&schema)
}

fn check(junctors: &ServedSchema, yaml: &str) -> Vec<String> {
    let parsed = crate::document::parse(yaml);
    let root = &parsed.documents[0].root;
    run(junctors, root, Some(Version::new(1, 31)))
        .into_iter()
        .map(|violation| format!("{}: {}", violation.line, violation.message))
        .collect()
}

#[test]
fn an_ip_address_that_is_none_fails_as_on_the_api_server() {
    let found = check(
        &gateway(),
        "spec:\n  addresses:\n  - {type: IPAddress, value: 1.2.3.4:8080}\n",
    );
    assert_eq!(
        found,
        [
            "3: Invalid value: \"\": \"spec.addresses[0]\" must validate one and only one schema (oneOf). Found none valid",
            "3: Invalid value: \"\": \"spec.addresses[0].value\" must validate at least one schema (anyOf)",
            "3: Invalid value: \"1.2.3.4:8080\": spec.addresses[0].value in body must be of type ipv4: \"1.2.3.4:8080\"",
        ]
    );
}

#[test]
fn addresses_of_either_branch_pass() {
    let junctors = gateway();
    for good in [
        "{type: IPAddress, value: 1.2.3.4}",
        "{type: IPAddress, value: '1111:2222:3333:4444::'}",
        "{type: Hostname, value: foo.bar}",
        "{type: NamedAddress, value: anything}",
        // `type` defaults to IPAddress.
        "{value: 10.0.0.1}",
    ] {
        let found = check(&junctors, &format!("spec:\n  addresses:\n  - {good}\n"));
        assert!(found.is_empty(), "{good}: {found:?}");
    }
}

#[test]
fn the_default_is_applied_before_the_junctors() {
    let found = check(&gateway(), "spec:\n  addresses:\n  - {value: foo.bar}\n");
    assert!(
        found
            .iter()
            .any(|f| f.contains("must be of type ipv4: \"foo.bar\"")),
        "{found:?}"
    );
}

fn one(junctors: serde_json::Value) -> ServedSchema {
    let schema = json!({"type": "object", "properties": {
        "spec": {"type": "object", "properties": {
            "a": {"type": "string"}, "b": {"type": "string"}
        }, VALUE_VALIDATIONS: junctors}
    }});
    read(&schema)
}

#[test]
fn one_of_with_two_valid_branches_says_so() {
    let junctors = one(json!({"oneOf": [{"required": ["a"]}, {"required": ["b"]}]}));
    assert_eq!(
        check(&junctors, "spec: {a: x, b: y}\n"),
        ["1: Invalid value: \"\": \"spec\" must validate one and only one schema (oneOf). Found 2 valid alternatives"]
    );
    assert!(check(&junctors, "spec: {a: x}\n").is_empty());
    let none = check(&junctors, "spec: {}\n");
    assert_eq!(none.len(), 2, "{none:?}");
    assert!(none[1].ends_with("Required value"), "{none:?}");
}

#[test]
fn all_of_and_not() {
    let all = one(json!({"allOf": [{"required": ["a"]}, {"required": ["b"]}]}));
    let found = check(&all, "spec: {a: x}\n");
    assert_eq!(
        found.last().map(String::as_str),
        Some("1: Invalid value: \"\": \"spec\" must validate all the schemas (allOf)"),
        "{found:?}"
    );
    let none = check(&all, "spec: {}\n");
    assert!(
        none.last().unwrap().ends_with("(allOf). None validated"),
        "{none:?}"
    );
    let not = one(json!({"not": {"required": ["a"]}}));
    assert_eq!(
        check(&not, "spec: {a: x}\n"),
        ["1: Invalid value: \"\": \"spec\" must not validate the schema (not)"]
    );
    assert!(check(&not, "spec: {b: x}\n").is_empty());
}

#[test]
fn value_validations_in_branches_use_the_servers_words() {
    let junctors = one(json!({"anyOf": [
        {"properties": {"a": {"enum": ["x", "y"]}}},
        {"properties": {"a": {"pattern": "^z+$", "maxLength": 2}}}
    ]}));
    let found = check(&junctors, "spec: {a: zzz}\n");
    assert!(
        found
            .iter()
            .any(|f| f.contains("Unsupported value: \"zzz\": supported values: \"x\", \"y\"")),
        "{found:?}"
    );
    assert!(check(&junctors, "spec: {a: zz}\n").is_empty());
}

#[test]
fn a_schema_without_junctors_has_nothing_to_check() {
    assert!(
        !read(&json!({"type": "object", "properties": {"a": {"type": "string"}}})).is_checked()
    );
}

#[test]
fn a_schema_nested_past_the_bound_warns_where_junctors_were_cut() {
    let mut schema = json!({"type": "string", VALUE_VALIDATIONS: {"not": {"enum": ["x"]}}});
    for _ in 0..=MAX_DEPTH {
        schema = json!({"type": "object", "properties": {"a": schema}});
    }
    let served = read(&schema);
    let cut = served.junctors_cut.as_deref().expect("cut");
    assert_eq!(cut.matches(".properties.a").count(), MAX_DEPTH + 1);
    let parsed = crate::document::parse("a: {}\n");
    let found = run(&served, &parsed.documents[0].root, None);
    assert!(
        found[0]
            .message
            .contains("the schema nests deeper than 64 levels"),
        "{found:?}"
    );
}

#[test]
fn junctors_read_the_value_defaulted_once() {
    // `b` is laid by the default of `a`'s property, inside `a`'s own
    // default: the junctor sees both, as on the API server.
    let schema = json!({"type": "object", "properties": {"a": {
        "type": "object",
        "default": {},
        "properties": {"b": {"type": "string", "default": "x"}},
        VALUE_VALIDATIONS: {"not": {"required": ["b"]}}
    }}});
    let served = read(&schema);
    let parsed = crate::document::parse("c: 1\n");
    let found = run(&served, &parsed.documents[0].root, None);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].line, 1);
}

#[test]
fn junctors_nested_too_deep_are_cut_with_a_warning() {
    let mut branch = json!({"required": ["a"]});
    for _ in 0..70 {
        branch = json!({VALUE_VALIDATIONS: {"allOf": [branch]}});
    }
    let junctors = one(json!({"allOf": [branch]}));
    let parsed = crate::document::parse("spec: {a: x}\n");
    let violations = run(&junctors, &parsed.documents[0].root, None);
    assert!(
        violations
            .iter()
            .any(|v| !v.severity.is_error() && v.message.contains("not all checked")),
        "{violations:?}"
    );
}

#[test]
fn a_document_past_the_visit_budget_is_cut_with_a_warning() {
    // 8 branches an item, 20 000 items: past the budget of visits.
    let branches: Vec<serde_json::Value> = (0..8)
        .map(|i| json!({"required": [format!("f{i}")]}))
        .collect();
    let schema = json!({"type": "object", "properties": {"items": {
        "type": "array",
        "items": {"type": "object", VALUE_VALIDATIONS: {"anyOf": branches}}
    }}});
    let junctors = read(&schema);
    let yaml = format!("items:\n{}", "- {}\n".repeat(20_000));
    let parsed = crate::document::parse(&yaml);
    let violations = run(&junctors, &parsed.documents[0].root, None);
    let errors = violations.iter().filter(|v| v.severity.is_error()).count();
    // Items checked before the budget ran out fail (no field is there);
    // none is judged after it.
    assert!(errors > 1000 && errors < 20_000 * 2, "{errors}");
    assert!(
        violations
            .iter()
            .any(|v| !v.severity.is_error() && v.message.contains("not all checked")),
        "{}",
        violations.len()
    );
}

#[test]
fn large_defaults_on_many_items_are_cut_with_a_warning() {
    let big = "x".repeat(1 << 20);
    let schema = json!({"type": "object", "properties": {"items": {
        "type": "array",
        VALUE_VALIDATIONS: {"not": {"required": ["never"]}},
        "items": {"type": "object", "properties": {"a": {"type": "string", "default": big}}}
    }}});
    let junctors = read(&schema);
    let yaml = format!("items:\n{}", "- {}\n".repeat(100));
    let parsed = crate::document::parse(&yaml);
    let violations = run(&junctors, &parsed.documents[0].root, None);
    assert!(
        violations
            .iter()
            .any(|v| !v.severity.is_error() && v.message.contains("MiB of defaults")),
        "{violations:?}"
    );
}
