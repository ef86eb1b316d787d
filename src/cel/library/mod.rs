//! The CEL environment of the Kubernetes API server, per minor: every
//! function a rule can call, in one table ([`table::FUNCTIONS`]: its
//! library and so the minor it arrives in, its implementation, cost and
//! result type), and vergate's implementations of the Kubernetes
//! functions, registered on top of cel-rust's standard library and its
//! strings extension.
//!
//! **How to add a function:** add its row to [`table::FUNCTIONS`] and, when
//! vergate implements it, its implementation to `functions.rs` (`imp`);
//! see `table.rs`.

pub(crate) mod format;
mod functions;
mod net;
pub(crate) mod quantity;
mod semver;
pub mod table;
pub mod two_var;

pub use functions::{register, register_list_overloads, MATCHES};
pub use table::{Library, LIBRARIES};

use crate::Version;

/// The first minor that offers `function`, when a Kubernetes library adds
/// it (`None` for the standard library and for names no library lists).
/// A name several libraries add is offered from the earliest.
pub fn introduced_in(function: &str) -> Option<Version> {
    table::function(function).and_then(table::Function::since)
}

/// Why vergate does not evaluate `function`, when it does not: a rule
/// calling one is reported, not guessed.
pub fn unsupported(function: &str) -> Option<&'static str> {
    match table::function(function)?.implementation {
        table::Implementation::Unsupported(why) => Some(why),
        _ => None,
    }
}

/// How a rule names `function`: a two-variable comprehension's key list
/// (`@transformMap`) by its macro (`transformMap`).
pub fn display_name(function: &str) -> &str {
    function.strip_prefix('@').unwrap_or(function)
}

/// The library that adds `function` first, for messages.
pub fn library_of(function: &str) -> Option<&'static Library> {
    table::function(function)?
        .libraries
        .iter()
        .copied()
        .min_by_key(|library| library.since)
}

#[cfg(test)]
mod tests {
    use super::register;
    use crate::cel::rule::ENV;
    use cel::{Context, Value};
    use std::sync::Arc;

    /// `expression` compiled and planned as a rule is, then run.
    fn eval(expression: &str) -> Result<Value, String> {
        let program = ENV.compile(expression).map_err(|err| err.to_string())?;
        let planned = crate::cel::plan::plan(program.expression());
        let mut context = Context::with_env(Arc::clone(&ENV));
        register(&mut context);
        Value::resolve(&planned, &context).map_err(|err| err.to_string())
    }

    #[test]
    fn the_kubernetes_functions_answer_as_the_api_servers() {
        for expression in [
            "'abc'.find('b.') == 'bc'",
            "'a1b2c3'.findAll('[0-9]') == ['1', '2', '3']",
            "'a1b2c3'.findAll('[0-9]', 2) == ['1', '2']",
            "[1, 2, 3].isSorted() && ![3, 1].isSorted()",
            "[1, 2, 3].sum() == 6 && [3, 1, 2].min() == 1 && [3, 1, 2].max() == 3",
            "url('https://example.com:8443/a?b=c').getHost() == 'example.com:8443'",
            "url('https://example.com:8443/a?b=c').getQuery() == {'b': ['c']}",
            "isURL('/a/path') && !isURL('a/path')",
            "quantity('1Gi').isGreaterThan(quantity('1G'))",
            "quantity('1.5').add(1).asApproximateFloat() == 2.5",
            "quantity('2k').sub(quantity('1k')).asInteger() == 1000",
            "quantity('500m').compareTo(quantity('0.5')) == 0 && !isQuantity('1Qi')",
            "sets.contains([1, 2, 3], [2]) && sets.intersects([1], [1, 2]) && sets.equivalent([1, 2], [2, 1])",
            "ip('10.0.0.1').family() == 4 && ip('::1').isLoopback()",
            "cidr('10.0.0.0/8').containsIP('10.1.1.1') && cidr('10.0.0.0/8').containsIP(ip('10.1.1.1'))",
            "cidr('10.0.0.0/8').containsCIDR('10.2.0.0/16') && cidr('10.0.0.0/8').prefixLength() == 8",
            "cidr('10.1.2.3/8').masked() == cidr('10.0.0.0/8') && cidr('10.0.0.0/8').ip() == ip('10.0.0.0')",
            "ip.isCanonical('2001:db8::1') && !ip.isCanonical('2001:DB8::1') && isIP('1.2.3.4') && !isIP('1.2.3')",
            "format.dns1123Label().validate('Bad_Name').hasValue() && !format.dns1123Label().validate('good').hasValue()",
            "format.named('uuid').hasValue() && !format.named('nope').hasValue()",
            "'%s-%d'.format(['a', 1]) == 'a-1'",
            "'TacoCat'.lowerAscii() == 'tacocat' && 'a,b'.split(',') == ['a', 'b']",
            "[1, 2, 3].all(x, x > 0) && [1, 2].exists_one(x, x == 2)",
            "optional.of(1).orValue(2) == 1 && optional.none().orValue(2) == 2",
            "[1, 2, 1].indexOf(1) == 0 && [1, 2, 1].lastIndexOf(1) == 2 && [1].indexOf(3) == -1",
            "'abcb'.indexOf('b') == 1 && 'abcb'.lastIndexOf('b') == 3",
            "'abc'.matches('^a') && matches('abc', 'c$') && !'abc'.matches('^b')",
            "semver('1.2.3').major() == 1 && semver('1.2.3').minor() == 2 && semver('1.2.3').patch() == 3",
            "semver('1.2.3').isLessThan(semver('1.10.0')) && semver('2.0.0').isGreaterThan(semver('2.0.0-rc.1'))",
            "semver('1.0.0').compareTo(semver('1.0.0+build')) == 0 && semver('v1.0', true) == semver('1.0.0')",
            "isSemver('1.2.3') && !isSemver('v1.2') && isSemver('v1.2', true) && !isSemver('hello')",
            // Two-variable comprehensions (1.32): index or key, then value.
            "[1, 2, 3].all(i, v, v > i) && ![1, 2, 3].all(i, v, v > 1)",
            "{'a': 1, 'b': 2}.exists(k, v, k == 'b' && v == 2) && ![1].exists(i, v, i == 1)",
            "[1, 2, 2].existsOne(i, v, v == 1) && ![2, 2].existsOne(i, v, v == 2)",
            "[1, 2].transformList(i, v, v * 2 + i) == [2, 5]",
            "[1, 2, 3].transformList(i, v, i > 0, v) == [2, 3]",
            "{'a': 1}.transformMap(k, v, v + 1) == {'a': 2} && [5, 6].transformMap(i, v, v) == {0: 5, 1: 6}",
            "{'a': 1, 'b': 2}.transformMap(k, v, v > 1, k) == {'b': 'b'}",
            "{'a': 1, 'b': 2}.transformMapEntry(k, v, {v: k}) == {1: 'a', 2: 'b'}",
            "[[1], [2, 3]].all(i, l, l.all(j, x, x > i)) && [1].all(i, v, [2].all(j, w, w > v))",
            "[1, 2].all(x, x > 0) && [1, 2].exists_one(x, x == 2)",
        ] {
            assert_eq!(eval(expression), Ok(Value::Bool(true)), "{expression}");
        }
    }

    #[test]
    fn two_variable_comprehensions_refuse_what_cel_go_refuses() {
        let duplicate = eval("{'a': 1, 'b': 1}.transformMapEntry(k, v, {'x': v}) == {}");
        assert!(
            duplicate
                .as_ref()
                .is_err_and(|err| err.contains("insert failed: key x already exists")),
            "{duplicate:?}"
        );
        for expression in ["[1].all(1, v, true)", "[1].all(i, i, true)"] {
            assert!(ENV.compile(expression).is_err(), "{expression}");
        }
    }

    #[test]
    fn bad_input_is_an_evaluation_error_never_a_panic() {
        for expression in [
            "quantity('1Qi') == quantity('1')",
            "ip('not an ip') == ip('1.2.3.4')",
            "cidr('10.0.0.0/33').prefixLength() == 33",
            "url('no scheme') == url('/a')",
            "'a'.find('(') == ''",
            "[].min() == 1",
            "semver('1.2') == semver('1.2.0')",
            "semver('1.0.0').major() == 1 && semver('1').isLessThan(1)",
            "{'a': 1, 'b': 1}.transformMapEntry(k, v, {'x': v}) == {}",
            "1.all(i, v, true)",
        ] {
            assert!(eval(expression).is_err(), "{expression}");
        }
    }
}
