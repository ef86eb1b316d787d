//! The API server's static cost estimate of CRD validation rules, checked
//! against its own tables: apiextensions-apiserver's `TestCostEstimation`
//! (`pkg/apiserver/schema/cel/compilation_test.go`: each rule's estimated
//! cost on a schema without and with `maxItems`/`maxLength`/
//! `maxProperties`), translated case by case into JSON schemas.

use serde_json::{json, Value};
use vergate::cel::cost::rule_cost;

/// The per-call limit the table's "exceeds" cases compare with.
const COST_LIMIT: u64 = 1_000_000;

/// Expected cost: exact, or at least this much.
#[derive(Clone, Copy)]
enum Expect {
    Exactly(u64),
    AtLeast(u64),
    /// The table checks nothing (an expected cost of 0).
    Unchecked,
}

use Expect::*;

type Generator = Box<dyn Fn(Option<i64>) -> Value>;

struct Case {
    name: &'static str,
    schema: Generator,
    rule: &'static str,
    calc: Expect,
    set_max: i64,
    set: Expect,
}

fn with_rule(mut schema: Value, rule: &str) -> Value {
    schema["x-kubernetes-validations"] = json!([{ "rule": rule }]);
    schema
}

fn set(mut schema: Value, key: &str, max: Option<i64>) -> Value {
    if let Some(max) = max {
        schema[key] = json!(max);
    }
    schema
}

/// A schema of `ty` as the table names it (`duration`, `date`, `date-time`
/// are string formats; `int-or-string` is `x-kubernetes-int-or-string`).
fn scalar(ty: &str) -> Value {
    match ty {
        "duration" | "date" | "date-time" => json!({"type": "string", "format": ty}),
        "int-or-string" => json!({"x-kubernetes-int-or-string": true}),
        _ => json!({ "type": ty }),
    }
}

fn array(ty: &'static str) -> Generator {
    Box::new(move |max| {
        set(
            json!({"type": "array", "items": scalar(ty)}),
            "maxItems",
            max,
        )
    })
}

fn array_of_arrays(ty: &'static str) -> Generator {
    Box::new(move |max| {
        set(
            json!({"type": "array", "items": {"type": "array", "items": {"type": ty}}}),
            "maxItems",
            max,
        )
    })
}

fn object_with_required() -> Value {
    json!({
        "type": "object",
        "properties": {"required": {"type": "string"}, "optional": {"type": "string"}},
        "required": ["required"]
    })
}

fn object_array() -> Generator {
    Box::new(|max| {
        set(
            json!({"type": "array", "items": object_with_required()}),
            "maxItems",
            max,
        )
    })
}

fn map_array(ty: &'static str) -> Generator {
    Box::new(move |max| {
        set(
            json!({"type": "array", "items": {"type": "object", "additionalProperties": {"type": ty}}}),
            "maxItems",
            max,
        )
    })
}

fn map(ty: &'static str) -> Generator {
    Box::new(move |max| {
        set(
            json!({"type": "object", "additionalProperties": scalar(ty)}),
            "maxProperties",
            max,
        )
    })
}

fn map_of(item: Value) -> Generator {
    Box::new(move |max| {
        set(
            json!({"type": "object", "additionalProperties": item.clone()}),
            "maxProperties",
            max,
        )
    })
}

fn string() -> Generator {
    Box::new(|max| set(json!({"type": "string"}), "maxLength", max))
}

fn enumerated(values: &'static [&'static str]) -> Generator {
    Box::new(move |max| set(json!({"type": "string", "enum": values}), "maxLength", max))
}

fn bytes() -> Generator {
    Box::new(|max| {
        set(
            json!({"type": "string", "format": "byte"}),
            "maxLength",
            max,
        )
    })
}

fn nested_spec() -> Generator {
    Box::new(|max| {
        let values = set(json!({"type": "string"}), "maxLength", max);
        set(
            json!({"type": "object", "additionalProperties": values}),
            "maxProperties",
            max,
        )
    })
}

/// `genAllMaxNestedSpecWithRootRule` (`all: true`) and
/// `genOneMaxNestedSpecWithRootRule` (`all: false`).
fn nested_root(all: bool) -> Generator {
    Box::new(move |max| {
        let inner_max = if all { max } else { None };
        let values = set(object_with_required(), "maxProperties", inner_max);
        let items = set(
            json!({"type": "object", "additionalProperties": values}),
            "maxProperties",
            max,
        );
        set(
            json!({"type": "array", "items": items}),
            "maxItems",
            inner_max,
        )
    })
}

fn string_list() -> Generator {
    Box::new(|max| {
        let item = set(json!({"type": "string"}), "maxLength", max);
        set(
            json!({"type": "array", "x-kubernetes-list-type": "atomic", "items": item}),
            "maxItems",
            max,
        )
    })
}

fn replace_object() -> Generator {
    Box::new(|max| {
        json!({"type": "object", "properties": {
            "str": set(json!({"type": "string"}), "maxLength", max),
            "before": {"type": "string", "maxLength": 2},
            "after": {"type": "string", "maxLength": 4},
        }})
    })
}

fn split_object() -> Generator {
    Box::new(|max| {
        let text = set(json!({"type": "string"}), "maxLength", max);
        json!({"type": "object", "properties": {"str": text.clone(), "separator": text}})
    })
}

fn int_or_string() -> Generator {
    Box::new(|max| {
        set(
            json!({"x-kubernetes-int-or-string": true}),
            "maxLength",
            max,
        )
    })
}

#[rustfmt::skip]
fn table() -> Vec<Case> {
    let case = |name, schema, rule, calc, set_max, set| Case { name, schema, rule, calc, set_max, set };
    vec![
        case("number array with all", array("number"), "self.all(x, true)", Exactly(4718591), 10, Exactly(32)),
        case("string array with all", array("string"), "self.all(x, true)", Exactly(3145727), 20, Exactly(62)),
        case("boolean array with all", array("boolean"), "self.all(x, true)", Exactly(1887437), 5, Exactly(17)),
        case("array of number arrays with all", array_of_arrays("number"), "self.all(x, true)", Exactly(3145727), 100, Exactly(302)),
        case("array of objects with all", object_array(), "self.all(x, true)", Exactly(555128), 50, Exactly(152)),
        case("map of numbers with all", map("number"), "self.all(x, true)", Exactly(1348169), 10, Exactly(32)),
        case("map of numbers with has", map("number"), "has(self.x)", Unchecked, 100, Unchecked),
        case("map of strings with all", map("string"), "self.all(x, true)", Exactly(1179647), 3, Exactly(11)),
        case("map of strings with has", map("string"), "has(self.x)", Unchecked, 550, Unchecked),
        case("map of booleans with all", map("boolean"), "self.all(x, true)", Exactly(943718), 100, Exactly(302)),
        case("map of booleans with has", map("boolean"), "has(self.x)", Unchecked, 1024, Unchecked),
        case("string with contains", string(), "self.contains('test')", Exactly(314574), 10, Exactly(5)),
        case("string with startsWith", string(), "self.startsWith('test')", Exactly(2), 15, Exactly(2)),
        case("string with endsWith", string(), "self.endsWith('test')", Exactly(2), 30, Exactly(2)),
        case("concat string", string(), r#"size(self + "hello") > size("hello")"#, Exactly(314578), 4, Exactly(7)),
        case("index of array with numbers", array("number"), "self[1] == 0.0", Exactly(2), 5000, Exactly(2)),
        case("index of array with strings", array("string"), "self[1] == self[1]", Exactly(314577), 8, Exactly(314577)),
        case("O(n^2) loop with numbers", array("number"), "self.all(x, self.all(y, true))", AtLeast(COST_LIMIT), 10, Exactly(352)),
        case("O(n^3) loop with numbers", array("number"), "self.all(x, self.all(y, self.all(z, true)))", AtLeast(COST_LIMIT), 10, Exactly(3552)),
        case("regex matches simple", string(), r#"self.matches("x")"#, Exactly(314574), 50, Exactly(22)),
        case("regex matches empty string", string(), r#""".matches("(((((((((())))))))))[0-9]")"#, Exactly(7), 10, Exactly(7)),
        case("regex matches empty regex", string(), r#"self.matches("")"#, Exactly(1), 100, Exactly(1)),
        case("map of strings with value length", nested_spec(), "self.all(x, x.contains(self[x]))", Exactly(2752507), 10, Exactly(72)),
        case("set array maxLength to zero", array("number"), "self[3] == 0.0", Exactly(2), 0, Exactly(2)),
        case("set map maxLength to zero", map("number"), r#"self["x"] == 0.0"#, Exactly(2), 0, Exactly(2)),
        case("set string maxLength to zero", string(), r#"self == "x""#, Exactly(2), 0, Exactly(1)),
        case("set bytes maxLength to zero", bytes(), r#"self == b"x""#, Exactly(2), 0, Exactly(1)),
        case("set maxLength greater than estimated maxLength", array("number"), "self.all(x, x == 0.0)", Exactly(6291454), 3 * 1024 * 2048, Exactly(25165826)),
        case("nested types with root rule with all supporting maxLength", nested_root(true), r#"self.all(x, x["y"].required == "z")"#, Exactly(7340027), 10, Exactly(72)),
        case("nested types with root rule with one supporting maxLength", nested_root(false), r#"self.all(x, x["y"].required == "z")"#, Exactly(7340027), 10, Exactly(7340027)),
        case("int-or-string array with all", array("int-or-string"), "self.all(x, true)", Exactly(4718591), 10, Exactly(32)),
        case("index of array with int-or-strings", array("int-or-string"), "self[0] == 5", Exactly(3), 10, Exactly(3)),
        case("index of array with booleans", array("boolean"), "self[0] == false", Exactly(2), 25, Exactly(2)),
        case("index of array of objects", object_array(), "self[0] == null", Exactly(2), 422, Exactly(2)),
        case("index of array of array of numnbers", array_of_arrays("number"), "self[0][0] == -1.0", Exactly(3), 51, Exactly(3)),
        case("array of number maps with all", map_array("number"), "self.all(x, x.y == 25.2)", Exactly(6291452), 12, Exactly(74)),
        case("index of array of number maps", map_array("number"), "self[0].x > 2.0", Exactly(4), 3000, Exactly(4)),
        case("duration array with all", array("duration"), "self.all(x, true)", Exactly(2359295), 5, Exactly(17)),
        case("index of duration array", array("duration"), "self[0].getHours() == 2", Exactly(4), 525, Exactly(4)),
        case("date array with all", array("date"), "self.all(x, true)", Exactly(725936), 15, Exactly(47)),
        case("index of date array", array("date"), "self[2].getDayOfMonth() == 13", Exactly(4), 42, Exactly(4)),
        case("date-time array with all", array("date-time"), "self.all(x, true)", Exactly(428963), 25, Exactly(77)),
        case("index of date-time array", array("date-time"), "self[2].getMinutes() == 45", Exactly(4), 99, Exactly(4)),
        case("map of int-or-strings with all", map("int-or-string"), "self.all(x, true)", Exactly(1348169), 15, Exactly(47)),
        case("map of int-or-strings with has", map("int-or-string"), "has(self.x)", Unchecked, 5000, Unchecked),
        case("map of objects with all", map_of(object_with_required()), "self.all(x, true)", Exactly(428963), 20, Exactly(62)),
        case("map of objects with has", map_of(object_with_required()), "has(self.x)", Unchecked, 9001, Unchecked),
        case("map of number maps with all", map_of(json!({"type": "object", "additionalProperties": {"type": "number"}})), "self.all(x, true)", Exactly(1179647), 10, Exactly(32)),
        case("map of number maps with has", map_of(json!({"type": "object", "additionalProperties": {"type": "number"}})), "has(self.x)", Unchecked, 101, Unchecked),
        case("map of number arrays with all", map_of(json!({"type": "array", "items": {"type": "number"}})), "self.all(x, true)", Exactly(1179647), 25, Exactly(77)),
        case("map of number arrays with has", map_of(json!({"type": "array", "items": {"type": "number"}})), "has(self.x)", Unchecked, 40000, Unchecked),
        case("map of durations with all", map("duration"), "self.all(x, true)", Exactly(1048577), 5, Exactly(17)),
        case("map of durations with has", map("duration"), "has(self.x)", Unchecked, 256, Unchecked),
        case("map of dates with all", map("date"), "self.all(x, true)", Exactly(524288), 10, Exactly(32)),
        case("map of dates with has", map("date"), "has(self.x)", Unchecked, 65536, Unchecked),
        case("map of date-times with all", map("date-time"), "self.all(x, true)", Exactly(349526), 25, Exactly(77)),
        case("map of date-times with has", map("date-time"), "has(self.x)", Unchecked, 490, Unchecked),
        case("extended library regex find", string(), "self.find('[0-9]+') == ''", Exactly(629147), 10, Exactly(11)),
        case("extended library join", string_list(), "self.join(' ') == 'aa bb'", Exactly(329853068905), 10, Exactly(43)),
        case("extended library isSorted", string_list(), "self.isSorted() == true", Exactly(329854432052), 10, Exactly(52)),
        case("extended library replace", replace_object(), "self.str.replace(self.before, self.after) == 'does not matter'", Exactly(629154), 4, Exactly(12)),
        case("extended library split", split_object(), "self.str.split(self.separator) == []", Exactly(629160), 10, Exactly(22)),
        case("extended library lowerAscii", string(), "self.lowerAscii() == 'lower!'", Exactly(314575), 10, Exactly(6)),
        case("check cost of size call", map("integer"), "oldSelf.size() == self.size()", Exactly(5), 10, Exactly(5)),
        case("check cost of timestamp comparison", map("date-time"), r#"self["a"] == self["b"]"#, Exactly(8), 7, Exactly(8)),
        case("check cost of duration comparison", map("duration"), r#"self["c"] == self["d"]"#, Exactly(8), 42, Exactly(8)),
        case("enums with maxLength equals to the longest possible value", enumerated(&["A", "B", "C", "LongValue"]), "self.contains('A')", Exactly(2), 1000, Exactly(401)),
        case("IntOrString type with quantity rule", int_or_string(), "isQuantity(self)", Exactly(314574), 20, Exactly(9)),
    ]
}

fn judge(name: &str, which: &str, got: u64, expect: Expect) -> Option<String> {
    match expect {
        Exactly(want) if got != want => {
            Some(format!("{name} ({which}): expected {want}, got {got}"))
        }
        AtLeast(want) if got < want => Some(format!(
            "{name} ({which}): expected at least {want}, got {got}"
        )),
        _ => None,
    }
}

#[test]
fn upstream_cost_estimation_table() {
    let mut failures = Vec::new();
    let cases = table();
    for case in &cases {
        for (which, max, expect) in [
            ("calc", None, case.calc),
            ("set", Some(case.set_max), case.set),
        ] {
            let schema = with_rule((case.schema)(max), case.rule);
            match rule_cost(case.rule, &schema, false) {
                Ok(got) => failures.extend(judge(case.name, which, got, expect)),
                Err(err) => failures.push(format!("{} ({which}): {err}", case.name)),
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases differ:\n{}",
        failures.len(),
        cases.len() * 2,
        failures.join("\n")
    );
}

/// The errors `vergate::cel::cost::check` gives for `schema` (an
/// `openAPIV3Schema`), as the API server's field paths after
/// `spec.validation.openAPIV3Schema` with the error's first word.
fn limit_errors(schema: Value) -> Vec<String> {
    let mut found: Vec<String> = vergate::cel::cost::check(&schema)
        .into_iter()
        .map(|finding| {
            let word = finding
                .error
                .split(':')
                .next()
                .unwrap_or_default()
                .to_owned();
            format!("{word} spec.validation.openAPIV3Schema{}", finding.field)
        })
        .collect();
    found.sort();
    found
}

fn sorted(expected: &[&str]) -> Vec<String> {
    let mut expected: Vec<String> = expected.iter().map(|s| (*s).to_owned()).collect();
    expected.sort();
    expected
}

fn double_nested(list_max: Option<i64>, map_max: Option<i64>, key: Value) -> Value {
    let values = json!({"type": "object", "required": ["key"], "properties": {"key": key}});
    let items = set(
        json!({"type": "object", "additionalProperties": values}),
        "maxProperties",
        map_max,
    );
    let value = set(
        json!({"type": "array", "items": items, "x-kubernetes-validations": [
            {"rule": "self.all(x, x.all(y, x[y].key == x[y].key))"}
        ]}),
        "maxItems",
        list_max,
    );
    json!({"type": "object", "properties": {"value": value}})
}

/// apiextensions-apiserver's `validation_test.go` cases on the estimated
/// cost limits: the errors expected, by field path.
#[test]
fn upstream_limit_cases() {
    const RULE: &str = "Forbidden spec.validation.openAPIV3Schema.properties[value].x-kubernetes-validations[0].rule";
    const SCHEMA: &str = "Forbidden spec.validation.openAPIV3Schema";
    // forbid double-nested rule with no limit set
    assert_eq!(
        limit_errors(double_nested(None, None, json!({"type": "string"}))),
        sorted(&[RULE, RULE, SCHEMA])
    );
    // forbid double-nested rule with one limit set
    assert_eq!(
        limit_errors(double_nested(
            None,
            None,
            json!({"type": "string", "maxLength": 10})
        )),
        sorted(&[RULE, RULE, SCHEMA])
    );
    // allow double-nested rule with three limits set
    let key = json!({"type": "string", "maxLength": 10});
    assert!(limit_errors(double_nested(Some(10), Some(10), key)).is_empty());
    // allow double-nested rule with one limit set on outermost array
    assert!(limit_errors(double_nested(Some(4), None, json!({"type": "number"}))).is_empty());
    // check for cardinality of 1 under root object
    let integer = json!({"type": "object", "properties": {"value": {"type": "integer",
        "x-kubernetes-validations": [{"rule": "self < 1024"}]}}});
    assert!(limit_errors(integer).is_empty());
    // forbid validation rules where cost total exceeds total limit
    let keyword = json!([{"rule": "self.contains('keyword')"}]);
    let total = json!({"type": "object", "properties": {
        "list": {"type": "array", "maxItems": 100000, "items":
            {"type": "string", "maxLength": 5000, "x-kubernetes-validations": keyword}},
        "map": {"type": "object", "maxProperties": 1000, "additionalProperties":
            {"type": "string", "maxLength": 5000, "x-kubernetes-validations": keyword}},
        "field": {"type": "integer", "x-kubernetes-validations": [{"rule": "self > 50 && self < 100"}]},
    }});
    let list = "Forbidden spec.validation.openAPIV3Schema.properties[list].items.x-kubernetes-validations[0].rule";
    let map = "Forbidden spec.validation.openAPIV3Schema.properties[map].additionalProperties.x-kubernetes-validations[0].rule";
    assert_eq!(limit_errors(total), sorted(&[list, list, map, SCHEMA]));
    // messageExpression exceeding the per-expression limit
    const MESSAGE: &str = "Forbidden spec.validation.openAPIV3Schema.properties[f].x-kubernetes-validations[0].messageExpression";
    let message = |expression: &str| {
        json!({"type": "object", "properties": {"f": {"type": "array", "items": {"type": "string"},
            "x-kubernetes-validations": [{"rule": "true", "messageExpression": expression}]}}})
    };
    let eight = "self[0] + self[1] + self[2] + self[3] + self[4] + self[5] + self[6] + self[7]";
    assert_eq!(limit_errors(message(eight)), sorted(&[MESSAGE]));
    // ... and the per-CRD limit
    let three = "string(self[0]) + string(self[1]) + string(self[2])";
    assert_eq!(
        limit_errors(message(three)),
        sorted(&[MESSAGE, MESSAGE, SCHEMA])
    );
    // lowerAscii within the limit
    let lower = json!({"type": "object", "properties": {"f": {"type": "array", "maxItems": 5,
        "items": {"type": "string", "maxLength": 5}, "x-kubernetes-validations": [
            {"rule": "self.all(x, self.exists_one(y, x.lowerAscii() == y.lowerAscii()))"}]}}});
    assert!(limit_errors(lower).is_empty());
    // metadata.name and generateName are 253-character strings at the root
    let names = json!({"type": "object", "x-kubernetes-validations": [{"rule":
        "self.metadata.name.contains(self.metadata.name) && self.metadata.generateName.contains(self.metadata.generateName)"}]});
    assert!(limit_errors(names).is_empty());
}

/// The API server's words, factor included (`getCostErrorMessage`).
#[test]
fn budget_messages_match_the_api_server() {
    use vergate::cel::cost::limits::budget_message;
    let tail = "(try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)";
    assert_eq!(
        budget_message("estimated rule cost", 12_000_000, 10_000_000),
        format!("estimated rule cost exceeds budget by factor of 1.200000x {tail}")
    );
    assert_eq!(
        budget_message("estimated rule cost", 25_000_000, 10_000_000),
        format!("estimated rule cost exceeds budget by factor of 2.5x {tail}")
    );
    assert_eq!(
        budget_message("estimated rule cost", u64::MAX, 10_000_000),
        format!("estimated rule cost exceeds budget by factor of more than 100x {tail}")
    );
}

/// Hostile rules: long chains and deep nesting are bounded by the
/// compiler's limits; what compiles is estimated with saturating
/// arithmetic (never an overflow: at most `u64::MAX`).
#[test]
fn hostile_rules_are_estimated_without_overflow() {
    let list = json!({"type": "array", "items": {"type": "array", "items": {"type": "string"}}});
    // Twelve nested comprehensions over unbounded lists: far beyond u64.
    let nested = (0..12).fold("true".to_owned(), |inner, i| {
        format!("self.all(x{i}, {inner})")
    });
    assert_eq!(rule_cost(&nested, &list, false), Ok(u64::MAX));
    // A long concatenation of unbounded strings saturates the same way.
    let sum = format!("size(self[0][0]{}) > 0", " + self[0][0]".repeat(8));
    let cost = rule_cost(&sum, &list, false).unwrap();
    assert_eq!(
        cost, 13_841_227,
        "0.1 x (2 + 3 + … + 9) x 3,145,726 characters, rounded up per `+`"
    );
    let deep = format!("{}true{}", "(".repeat(200), ")".repeat(200));
    assert!(rule_cost(&deep, &list, false).is_err());
}

/// Gateway API's CRDs (two releases), which the API server accepts: every
/// rule is estimated (none left out for a field the schema lacks), and
/// each version stays within both limits.
#[test]
fn gateway_api_crds_stay_within_budget() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cel/gateway-api");
    let mut versions = 0;
    for release in ["v1.2.0", "v1.3.0"] {
        for file in ["gateways.yaml", "grpcroutes.yaml", "httproutes.yaml"] {
            let text = std::fs::read_to_string(dir.join(release).join(file)).unwrap();
            let crd: Value = serde_yaml_ng::from_str(&text).unwrap();
            for version in crd["spec"]["versions"].as_array().unwrap() {
                let schema = &version["schema"]["openAPIV3Schema"];
                let report = vergate::cel::cost::report(schema);
                let name = format!("{release}/{file} {}", version["name"]);
                assert!(report.findings.is_empty(), "{name}: {:#?}", report.findings);
                assert!(report.estimated > 5, "{name}: {report:?}");
                assert_eq!(report.skipped, 0, "{name}: {report:?}");
                assert!(report.total > 0 && report.total <= vergate::cel::cost::CRD_LIMIT);
                eprintln!(
                    "{name}: {} rules, largest {}, total {}",
                    report.estimated, report.largest, report.total
                );
                versions += 1;
            }
        }
    }
    assert!(versions >= 6);
}

/// k8s.io/apiserver's `pkg/cel/library/cost_test.go`: the estimated
/// maximum of each library call on literals (the cases whose sizes do not
/// come from that test's own size estimator, which sizes every string 12).
#[test]
fn upstream_library_cost_tables() {
    let url = "url('https:://kubernetes.io/')";
    let (ipv4, ipv6) = (
        "ip('192.168.0.1')",
        "ip('2001:db8:3333:4444:5555:6666:7777:8888')",
    );
    let (cidr4, cidr6) = ("cidr('192.168.0.0/16')", "cidr('2001:db8::/32')");
    let mut cases: Vec<(String, u64)> = Vec::new();
    let mut add = |expr: String, max: u64| cases.push((expr, max));
    // TestURLsCost
    for op in [
        ".getScheme()",
        ".getHostname()",
        ".getHost()",
        ".getPort()",
        ".getEscapedPath()",
        ".getQuery()",
    ] {
        add(format!("{url}{op}"), 4);
    }
    add(format!("{url} == url('https:://kubernetes.io/')"), 9);
    add(format!("{url} == url('http://x.b')"), 5);
    // TestIPCost
    for (ip, base) in [(ipv4, 2), (ipv6, 4)] {
        add(ip.to_owned(), base);
        for op in [
            ".family()",
            ".isUnspecified()",
            ".isLoopback()",
            ".isLinkLocalMulticast()",
            ".isLinkLocalUnicast()",
            ".isGlobalUnicast()",
        ] {
            add(format!("{ip}{op}"), base + 1);
        }
        add(format!("{ip} == ip('192.168.0.1')"), base + 3);
    }
    // TestIPIsCanonicalCost
    add("ip.isCanonical('192.168.0.1')".into(), 3);
    add(
        "ip.isCanonical('2001:db8:3333:4444:5555:6666:7777:8888')".into(),
        8,
    );
    add("ip.isCanonical('2001:db8::abcd')".into(), 3);
    // TestCIDRCost
    for cidr in [cidr4, cidr6] {
        add(cidr.to_owned(), 2);
        for op in [".ip()", ".prefixLength()", ".masked()"] {
            add(format!("{cidr}{op}"), 3);
        }
        add(format!("{cidr} == cidr('2001:db8::/32')"), 5);
    }
    for (op, plus) in [
        (".containsCIDR(cidr('192.0.0.0/30'))", 9),
        (".containsCIDR(cidr('192.168.0.0/16'))", 9),
        (".containsCIDR('192.0.0.0/30')", 9),
        (".containsCIDR('192.168.0.0/16')", 9),
        (".containsIP(ip('192.0.0.1'))", 5),
        (".containsIP(ip('192.169.0.1'))", 6),
        (".containsIP(ip('192.169.169.250'))", 6),
        (".containsIP('192.0.0.1')", 5),
        (".containsIP('192.169.0.1')", 6),
    ] {
        add(format!("{cidr4}{op}"), 2 + plus);
    }
    for (op, plus) in [
        (".containsCIDR(cidr('2001:db8::/126'))", 9),
        (".containsCIDR(cidr('2001:db8::/32'))", 9),
        (".containsCIDR('2001:db8::/126')", 9),
        (".containsCIDR('2001:db8::/32')", 9),
        (
            ".containsIP(ip('2001:db8:3333:4444:5555:6666:7777:8888'))",
            8,
        ),
        (".containsIP(ip('2001:db8::1'))", 6),
        (".containsIP('2001:db8:3333:4444:5555:6666:7777:8888')", 8),
        (".containsIP('2001:db8::1')", 6),
    ] {
        add(format!("{cidr6}{op}"), 2 + plus);
    }
    // TestStringLibrary
    for (expr, max) in [
        ("'ABCDEFGHIJ abcdefghij'.lowerAscii()", 3),
        (
            "'ABCDEFGHIJ abcdefghij'.lowerAscii() == 'abcdefghij ABCDEFGHIJ'.lowerAscii()",
            9,
        ),
        ("'ABCDEFGHIJ abcdefghij'.upperAscii()", 3),
        (
            "'ABCDEFGHIJ abcdefghij'.upperAscii() == 'abcdefghij ABCDEFGHIJ'.upperAscii()",
            9,
        ),
        ("strings.quote('ABCDEFGHIJ abcdefghij')", 3),
        (
            "strings.quote('ABCDEFGHIJ abcdefghij') == strings.quote('ABCDEFGHIJ abcdefghij')",
            11,
        ),
        ("'abc 123 def 123'.replace('123', '456')", 3),
        ("'abc 123 def 123'.replace('', 'x')", 3),
        ("'abc 123 def 123'.replace('123', '')", 3),
        ("'abc 123 def 123'.replace('123', '456', 1)", 3),
        ("'abc 123 def 123'.split(' ')", 3),
        ("'abc 123 def 123'.split(' ', 1)", 3),
        ("'abc 123 def 123'.substring(5)", 2),
        ("'abc 123 def 123'.substring(5, 8)", 2),
        ("'  abc 123 def 123  '.trim()", 2),
        ("'abc 123 def 123'.find('123')", 2),
        ("'abc 123 def 123'.findAll('123')", 2),
        ("'abc 123 def 123'.findAll('123', 1)", 2),
        // TestQuantityCost
        (r#"quantity("12Mi")"#, 1),
        (r#"isQuantity("20")"#, 1),
        (r#"isQuantity("20M")"#, 1),
        (r#"quantity("200M") == quantity("200M")"#, 3),
        (
            r#"quantity("200M") == quantity("0.2G") && quantity("0.2G") == quantity("200M")"#,
            6,
        ),
        (
            r#"quantity("2M") == quantity("0.002G") && quantity("2000k") == quantity("2M") && quantity("0.002G") == quantity("2000k")"#,
            9,
        ),
        (r#"quantity("50M").isLessThan(quantity("50Mi"))"#, 3),
        (r#"quantity("50Mi").isGreaterThan(quantity("50M"))"#, 3),
        (r#"quantity("200M").compareTo(quantity("0.2G")) > 0"#, 4),
        (
            r#"quantity("50k").add(quantity("20")) == quantity("50.02k")"#,
            5,
        ),
        (
            r#"quantity("50k").sub(quantity("20")) == quantity("49.98k")"#,
            5,
        ),
        (r#"quantity("50k").sub(20) == quantity("49980")"#, 4),
        (
            r#"quantity("50k").add(20).sub(quantity("100k")).asInteger() > 0"#,
            6,
        ),
        (
            r#"quantity("50k").add(20).sub(quantity("100k")).sub(-50000).asInteger() > 0"#,
            7,
        ),
        (r#"quantity("50k").asInteger() > 0"#, 3),
        (r#"quantity("50").isInteger()"#, 2),
        (r#"quantity("50.703k").asApproximateFloat() > 0.0"#, 3),
        // TestNameFormatCost
        (r#"format.named("dns1123subdomain")"#, 1),
        (
            r#"format.named("dns1123Subdomain").value().validate("my-name")"#,
            34,
        ),
        (
            r#"format.named("dns1123Label").value() == format.named("dns1123Label").value()"#,
            11,
        ),
        // TestSetsCost
        ("sets.contains([], [])", 21),
        ("sets.contains([1], [])", 21),
        ("sets.contains([1], [1])", 22),
        ("sets.contains([1], [1, 1])", 23),
        ("sets.contains([1, 2, 3, 4], [2, 3])", 29),
        ("sets.contains([1, 2], [2u, 2.0])", 25),
        ("sets.contains([[1], [2, 3]], [[2, 3.0]])", 53),
        ("!sets.contains([1], [1, 2])", 24),
        ("sets.equivalent([], [])", 21),
        ("sets.equivalent([1], [1, 1])", 25),
        ("sets.equivalent([1, 2, 3], [3u, 2.0, 1])", 39),
        ("sets.equivalent([[1.0], [2, 3]], [[1], [2, 3.0]])", 69),
        ("!sets.equivalent([1, 2], [2u, 2, 2.0])", 34),
        ("sets.intersects([1], [1])", 22),
        ("sets.intersects([1, 2], [2u, 2, 2.0])", 27),
        ("sets.intersects([[1], [2, 3]], [[1, 2], [2, 3.0]])", 65),
        ("!sets.intersects([], [])", 22),
        // TestSemverCost
        (r#"semver("1.0.0")"#, 1),
        (r#"semver("1234.56789012345.67890123456789")"#, 4),
        (r#"isSemver("1.0.0")"#, 1),
        (r#"isSemver("1234.56789012345.67890123456789")"#, 4),
        (r#"semver("1.2.3").major()"#, 2),
        (r#"semver("1.2.3").minor()"#, 2),
        (r#"semver("1.2.3").patch()"#, 2),
        (r#"semver("1.0.0").isLessThan(semver("1.1.0"))"#, 3),
        (r#"semver("1.1.0").isGreaterThan(semver("1.0.0"))"#, 3),
        (r#"semver("1.0.0").compareTo(semver("1.2.3"))"#, 3),
    ] {
        add(expr.to_owned(), max);
    }
    let object = json!({"type": "object"});
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|(expr, max)| match rule_cost(expr, &object, false) {
            Ok(got) if got == *max => None,
            Ok(got) => Some(format!("{expr}: expected {max}, got {got}")),
            Err(err) => Some(format!("{expr}: {err}")),
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} differ:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}
