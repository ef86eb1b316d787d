//! **The one table of CEL functions** ([`FUNCTIONS`]): each function a
//! CRD rule can call by name, with its receiver style, the libraries that
//! add it (and so the minor it arrives in), how vergate implements it,
//! its cost, and its result type. It drives everything that knows a
//! function by name:
//!
//! - registration: [`super::register`] adds each [`Implementation::Vergate`]
//!   row to a cel-rust context;
//! - the libraries a target offers: [`super::introduced_in`],
//!   [`super::library_of`], [`super::unsupported`];
//! - the estimated cost (`cost::calls`) and the runtime cost
//!   (`cost::actual`): both `match` on the row's [`Cost`], exhaustively;
//! - the result type the cost model infers (`cost::ty`), from [`Returns`];
//! - which calls are sized at runtime ([`is_sized`]).
//!
//! **How to add a function:** add its row here, with its cost (a new
//! [`Cost`] variant needs its formula in `cost/calls.rs` and
//! `cost/actual.rs`: the compiler asks for both), and, for vergate's own,
//! its implementation in `functions.rs` (`imp`). The tests below fail for a
//! row whose implementation does not register, or a name given twice.
//! Operators (`_+_`, `_[_]`, …) are cel-go's and stay in `cost/`.

use super::functions::{imp, MATCHES};
use crate::Version;
use cel::Context;
use std::collections::HashMap;
use std::sync::LazyLock;

/// One library of the API server's CEL environment.
#[derive(Debug, PartialEq, Eq)]
pub struct Library {
    /// As docs/cli.md names it.
    pub name: &'static str,
    /// The first minor whose base environment has it (k8s.io/apiserver
    /// `pkg/cel/environment/base.go`).
    pub since: Version,
}

const fn minor(minor: u32) -> Version {
    Version::new(1, minor)
}

pub const STRINGS: Library = Library {
    name: "strings (cel-go ext.Strings v0)",
    since: minor(0),
};
pub const URLS: Library = Library {
    name: "URLs",
    since: minor(0),
};
pub const REGEX: Library = Library {
    name: "regex",
    since: minor(0),
};
pub const LISTS: Library = Library {
    name: "lists",
    since: minor(0),
};
pub const OPTIONAL: Library = Library {
    name: "optional types",
    since: minor(28),
};
pub const QUANTITY: Library = Library {
    name: "quantity",
    since: minor(28),
};
pub const STRINGS_V2: Library = Library {
    name: "strings (cel-go ext.Strings v2: format, quote)",
    since: minor(29),
};
pub const SETS: Library = Library {
    name: "sets (cel-go ext.Sets)",
    since: minor(29),
};
pub const IP: Library = Library {
    name: "IP and CIDR",
    since: minor(30),
};
pub const FORMAT: Library = Library {
    name: "format",
    since: minor(31),
};
pub const TWO_VAR: Library = Library {
    name: "two-variable comprehensions (cel-go ext.TwoVarComprehensions)",
    since: minor(32),
};
pub const SEMVER: Library = Library {
    name: "semver",
    since: minor(33),
};

/// The libraries of the API server's CEL environment, in the order they
/// arrived. cel-go's standard library is in every minor and not listed.
pub const LIBRARIES: &[&Library] = &[
    &STRINGS,
    &URLS,
    &REGEX,
    &LISTS,
    &OPTIONAL,
    &QUANTITY,
    &STRINGS_V2,
    &SETS,
    &IP,
    &FORMAT,
    &TWO_VAR,
    &SEMVER,
];

/// How a rule calls a function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// `quantity('1')`, `sets.contains(a, b)`.
    Global,
    /// `'a'.lowerAscii()`.
    Member,
    /// Either (`size(x)`, `x.size()`; `ip('1.2.3.4')`, `cidr.ip()`).
    Both,
}

/// Adds vergate's implementation of a function to a context, under the
/// row's name; true when added.
pub type Register = fn(&mut Context<'static, 'static>, &'static str) -> bool;

/// Who implements a function.
#[derive(Clone, Copy)]
pub enum Implementation {
    /// cel-rust: its standard library and strings extension, or an
    /// overload vergate declares on the environment (`rule::ENV`: the
    /// lists library's `indexOf`).
    CelRust,
    /// vergate, registered on each context (`functions.rs`).
    Vergate(Register),
    /// A macro that expands when a rule parses (`two_var.rs`).
    Macro,
    /// Not evaluated: a rule calling it is reported, with the reason.
    Unsupported(&'static str),
    /// A cel-go function no CRD environment offers, costed as cel-go costs
    /// it: a rule calling it does not evaluate (an unknown function).
    CostOnly,
}

/// What a call costs, estimated (`cost/calls.rs`) and when it runs
/// (`cost/actual.rs`), as k8s.io/apiserver `pkg/cel/library/cost.go` and
/// cel-go's `checker/cost.go` and `interpreter/runtimecost.go` count it.
/// "The text" is the string argument (or the target of a member call).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cost {
    /// 1.
    One,
    /// Its text parsed: walked once (`quantity`, `cidr`, `isIP`, …).
    Parse,
    /// `url`: its text walked once, the URL its size.
    Url,
    /// Its target copied (`lowerAscii`, `substring`, `trim`): walked once.
    CopyText,
    /// The lists library (`isSorted`, `sum`, `indexOf`, …): each item, a
    /// string item walked; a string target walked.
    ListItems,
    /// `includes`: as [`Cost::ListItems`] at runtime; 1 estimated.
    Includes,
    Replace,
    Split,
    Join,
    /// `find`, `findAll`: the text times the pattern.
    Find,
    /// `ip`: its text parsed; 1 for a CIDR's address.
    Ip,
    /// `ip.isCanonical`: its text walked twice.
    IpCanonical,
    ContainsIp,
    ContainsCidr,
    /// `validate`: the value times the format's largest pattern.
    Validate,
    /// `sets.*`: the two lists' sizes multiplied (twice for `equivalent`).
    Sets {
        twice: bool,
    },
    Slice,
    Range,
    Reverse,
    Flatten,
    Distinct,
    Sort,
    SortByKeys,
    /// `jsonpatch.escapeKey`: its text walked at runtime; 1 estimated.
    EscapeKey,
    /// `contains` on strings: the text times the part.
    StringContains,
    /// `startsWith`, `endsWith`: the argument walked.
    PrefixSuffix,
    /// `matches`: the text times the pattern.
    Matches,
    /// `bytes(string)`.
    ToBytes,
    /// `string(bytes)`.
    ToString,
    /// `'…'.format(list)`: the format string walked.
    Format,
    /// `strings.quote`.
    Quote,
}

impl Cost {
    /// True when what a call costs at runtime depends on its values: the
    /// call is then made through a sized call (`cel/sized.rs`).
    pub const fn is_sized(self) -> bool {
        !matches!(self, Cost::One)
    }
}

/// What a function returns, for the cost model's types (`cost/ty.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Returns {
    Bool,
    Int,
    Uint,
    Double,
    String,
    Bytes,
    Duration,
    Timestamp,
    /// A list of strings.
    Strings,
    /// A URL's query: a map of strings to lists of strings.
    Query,
    /// A library type: `quantity`, `ip`, `cidr`, `url`, `semver`, `format`.
    Opaque(&'static str),
    /// The target's items' type (`sum`, `min`, `max`).
    Element,
    /// The target's own type (`value()`: optionals are typed as what they hold).
    Same,
    /// Not known without a type checker.
    Dyn,
}

/// One CEL function.
pub struct Function {
    /// As a rule names it (`sets.contains`; `@all` for a two-variable
    /// macro).
    pub name: &'static str,
    pub style: Style,
    /// The libraries that add it, the earliest decides when it arrives;
    /// none for cel-go's standard library (every minor) and for the
    /// functions no CRD environment offers.
    pub libraries: &'static [&'static Library],
    pub implementation: Implementation,
    pub cost: Cost,
    pub returns: Returns,
}

impl Function {
    /// The first minor whose API server offers it, when a Kubernetes
    /// library adds it.
    pub fn since(&self) -> Option<Version> {
        self.libraries.iter().map(|library| library.since).min()
    }

    /// The name the function is called by at runtime: `matches` calls are
    /// rewritten to [`MATCHES`].
    pub fn runtime_name(&self) -> &'static str {
        if self.name == "matches" {
            MATCHES
        } else {
            self.name
        }
    }
}

use Cost as C;
use Implementation::{CelRust, CostOnly, Macro, Unsupported, Vergate};
use Returns as R;
use Style::{Both, Global, Member};

const fn row(
    name: &'static str,
    style: Style,
    libraries: &'static [&'static Library],
    implementation: Implementation,
    cost: Cost,
    returns: Returns,
) -> Function {
    Function {
        name,
        style,
        libraries,
        implementation,
        cost,
        returns,
    }
}

/// cel-go's standard library: in every minor.
const STD: &[&Library] = &[];

/// Every CEL function a rule can call by name (operators aside).
#[rustfmt::skip]
pub const FUNCTIONS: &[Function] = &[
    // cel-go's standard library (cel-rust's).
    row("size", Both, STD, CelRust, C::One, R::Int),
    row("int", Global, STD, CelRust, C::One, R::Int),
    row("uint", Global, STD, CelRust, C::One, R::Uint),
    row("double", Global, STD, CelRust, C::One, R::Double),
    row("string", Global, STD, CelRust, C::ToString, R::String),
    row("bytes", Global, STD, CelRust, C::ToBytes, R::Bytes),
    row("duration", Global, STD, CelRust, C::One, R::Duration),
    row("timestamp", Global, STD, CelRust, C::One, R::Timestamp),
    row("dyn", Global, STD, CelRust, C::One, R::Dyn),
    row("type", Global, STD, CelRust, C::One, R::Dyn),
    row("contains", Member, STD, CelRust, C::StringContains, R::Bool),
    row("startsWith", Member, STD, CelRust, C::PrefixSuffix, R::Bool),
    row("endsWith", Member, STD, CelRust, C::PrefixSuffix, R::Bool),
    row("matches", Both, STD, Vergate(imp::matches), C::Matches, R::Bool),
    row("getDate", Member, STD, CelRust, C::One, R::Int),
    row("getDayOfMonth", Member, STD, CelRust, C::One, R::Int),
    row("getDayOfWeek", Member, STD, CelRust, C::One, R::Int),
    row("getDayOfYear", Member, STD, CelRust, C::One, R::Int),
    row("getFullYear", Member, STD, CelRust, C::One, R::Int),
    row("getHours", Member, STD, CelRust, C::One, R::Int),
    row("getMilliseconds", Member, STD, CelRust, C::One, R::Int),
    row("getMinutes", Member, STD, CelRust, C::One, R::Int),
    row("getMonth", Member, STD, CelRust, C::One, R::Int),
    row("getSeconds", Member, STD, CelRust, C::One, R::Int),
    // Strings (cel-rust's strings extension).
    row("charAt", Member, &[&STRINGS], CelRust, C::One, R::String),
    row("indexOf", Member, &[&STRINGS, &LISTS], CelRust, C::ListItems, R::Int),
    row("lastIndexOf", Member, &[&STRINGS, &LISTS], CelRust, C::ListItems, R::Int),
    row("lowerAscii", Member, &[&STRINGS], CelRust, C::CopyText, R::String),
    row("upperAscii", Member, &[&STRINGS], CelRust, C::CopyText, R::String),
    row("replace", Member, &[&STRINGS], CelRust, C::Replace, R::String),
    row("split", Member, &[&STRINGS], CelRust, C::Split, R::Strings),
    row("substring", Member, &[&STRINGS], CelRust, C::CopyText, R::String),
    row("trim", Member, &[&STRINGS], CelRust, C::CopyText, R::String),
    row("join", Member, &[&STRINGS], CelRust, C::Join, R::String),
    row("format", Member, &[&STRINGS_V2], CelRust, C::Format, R::String),
    row("strings.quote", Global, &[&STRINGS_V2], CelRust, C::Quote, R::String),
    // URLs.
    row("url", Global, &[&URLS], Vergate(imp::url), C::Url, R::Opaque("url")),
    row("isURL", Global, &[&URLS], Vergate(imp::is_url), C::One, R::Bool),
    row("getScheme", Member, &[&URLS], Vergate(imp::get_scheme), C::One, R::String),
    row("getHost", Member, &[&URLS], Vergate(imp::get_host), C::One, R::String),
    row("getHostname", Member, &[&URLS], Vergate(imp::get_hostname), C::One, R::String),
    row("getPort", Member, &[&URLS], Vergate(imp::get_port), C::One, R::String),
    row("getEscapedPath", Member, &[&URLS], Vergate(imp::get_escaped_path), C::One, R::String),
    row("getQuery", Member, &[&URLS], Vergate(imp::get_query), C::One, R::Query),
    // Regex.
    row("find", Member, &[&REGEX], Vergate(imp::find), C::Find, R::String),
    row("findAll", Member, &[&REGEX], Vergate(imp::find_all), C::Find, R::Strings),
    // Lists.
    row("isSorted", Member, &[&LISTS], Vergate(imp::is_sorted), C::ListItems, R::Bool),
    row("sum", Member, &[&LISTS], Vergate(imp::sum), C::ListItems, R::Element),
    row("min", Member, &[&LISTS], Vergate(imp::min), C::ListItems, R::Element),
    row("max", Member, &[&LISTS], Vergate(imp::max), C::ListItems, R::Element),
    // Optional types (cel-rust's).
    row("optional.of", Global, &[&OPTIONAL], CelRust, C::One, R::Dyn),
    row("optional.none", Global, &[&OPTIONAL], CelRust, C::One, R::Dyn),
    row("optional.ofNonZeroValue", Global, &[&OPTIONAL], CelRust, C::One, R::Dyn),
    row("hasValue", Member, &[&OPTIONAL], CelRust, C::One, R::Bool),
    row("value", Member, &[&OPTIONAL], CelRust, C::One, R::Same),
    row("orValue", Member, &[&OPTIONAL], CelRust, C::One, R::Dyn),
    row("or", Member, &[&OPTIONAL], CelRust, C::One, R::Dyn),
    // Quantity (its comparisons serve semver too).
    row("quantity", Global, &[&QUANTITY], Vergate(imp::quantity), C::Parse, R::Opaque("quantity")),
    row("isQuantity", Global, &[&QUANTITY], Vergate(imp::is_quantity), C::Parse, R::Bool),
    row("sign", Member, &[&QUANTITY], Vergate(imp::sign), C::One, R::Int),
    row("isGreaterThan", Member, &[&QUANTITY, &SEMVER], Vergate(imp::is_greater_than), C::One, R::Bool),
    row("isLessThan", Member, &[&QUANTITY, &SEMVER], Vergate(imp::is_less_than), C::One, R::Bool),
    row("compareTo", Member, &[&QUANTITY, &SEMVER], Vergate(imp::compare_to), C::One, R::Int),
    row("add", Member, &[&QUANTITY], Vergate(imp::add_quantity), C::One, R::Opaque("quantity")),
    row("sub", Member, &[&QUANTITY], Vergate(imp::sub_quantity), C::One, R::Opaque("quantity")),
    row("asInteger", Member, &[&QUANTITY], Vergate(imp::as_integer), C::One, R::Int),
    row("isInteger", Member, &[&QUANTITY], Vergate(imp::is_integer), C::One, R::Bool),
    row("asApproximateFloat", Member, &[&QUANTITY], Vergate(imp::as_approximate_float), C::One, R::Double),
    // Sets.
    row("sets.contains", Global, &[&SETS], Vergate(imp::sets_contains), C::Sets { twice: false }, R::Bool),
    row("sets.equivalent", Global, &[&SETS], Vergate(imp::sets_equivalent), C::Sets { twice: true }, R::Bool),
    row("sets.intersects", Global, &[&SETS], Vergate(imp::sets_intersects), C::Sets { twice: false }, R::Bool),
    // IP and CIDR.
    row("ip", Both, &[&IP], Vergate(imp::ip), C::Ip, R::Opaque("ip")),
    row("isIP", Global, &[&IP], Vergate(imp::is_ip), C::Parse, R::Bool),
    row("ip.isCanonical", Global, &[&IP], Vergate(imp::ip_is_canonical), C::IpCanonical, R::Bool),
    row("family", Member, &[&IP], Vergate(imp::family), C::One, R::Int),
    row("isUnspecified", Member, &[&IP], Vergate(imp::is_unspecified), C::One, R::Bool),
    row("isLoopback", Member, &[&IP], Vergate(imp::is_loopback), C::One, R::Bool),
    row("isLinkLocalMulticast", Member, &[&IP], Vergate(imp::is_link_local_multicast), C::One, R::Bool),
    row("isLinkLocalUnicast", Member, &[&IP], Vergate(imp::is_link_local_unicast), C::One, R::Bool),
    row("isGlobalUnicast", Member, &[&IP], Vergate(imp::is_global_unicast), C::One, R::Bool),
    row("cidr", Global, &[&IP], Vergate(imp::cidr), C::Parse, R::Opaque("cidr")),
    row("isCIDR", Global, &[&IP], Vergate(imp::is_cidr), C::Parse, R::Bool),
    row("containsIP", Member, &[&IP], Vergate(imp::contains_ip), C::ContainsIp, R::Bool),
    row("containsCIDR", Member, &[&IP], Vergate(imp::contains_cidr), C::ContainsCidr, R::Bool),
    row("prefixLength", Member, &[&IP], Vergate(imp::prefix_length), C::One, R::Int),
    row("masked", Member, &[&IP], Vergate(imp::masked), C::One, R::Opaque("cidr")),
    // Format.
    row("format.named", Global, &[&FORMAT], Vergate(imp::format_named), C::One, R::Opaque("format")),
    row("validate", Member, &[&FORMAT], Vergate(imp::validate), C::Validate, R::Dyn),
    row("format.dns1123Label", Global, &[&FORMAT], Vergate(imp::format_constant), C::One, R::Opaque("format")),
    row("format.dns1123Subdomain", Global, &[&FORMAT], Vergate(imp::format_constant), C::One, R::Opaque("format")),
    row("format.dns1035Label", Global, &[&FORMAT], Vergate(imp::format_constant), C::One, R::Opaque("format")),
    row("format.qualifiedName", Global, &[&FORMAT], Vergate(imp::format_constant), C::One, R::Opaque("format")),
    row("format.dns1123LabelPrefix", Global, &[&FORMAT], Vergate(imp::format_constant), C::One, R::Opaque("format")),
    row("format.dns1123SubdomainPrefix", Global, &[&FORMAT], Vergate(imp::format_constant), C::One, R::Opaque("format")),
    row("format.dns1035LabelPrefix", Global, &[&FORMAT], Vergate(imp::format_constant), C::One, R::Opaque("format")),
    row("format.labelValue", Global, &[&FORMAT], Vergate(imp::format_constant), C::One, R::Opaque("format")),
    row("format.uri", Global, &[&FORMAT], Vergate(imp::format_constant), C::One, R::Opaque("format")),
    row("format.uuid", Global, &[&FORMAT], Vergate(imp::format_constant), C::One, R::Opaque("format")),
    row("format.byte", Global, &[&FORMAT], Vergate(imp::format_constant), C::One, R::Opaque("format")),
    row("format.date", Global, &[&FORMAT], Vergate(imp::format_constant), C::One, R::Opaque("format")),
    row("format.datetime", Global, &[&FORMAT], Vergate(imp::format_constant), C::One, R::Opaque("format")),
    // Two-variable comprehensions: how `two_var::used` names the macros.
    row("@all", Member, &[&TWO_VAR], Macro, C::One, R::Dyn),
    row("@exists", Member, &[&TWO_VAR], Macro, C::One, R::Dyn),
    row("@existsOne", Member, &[&TWO_VAR], Macro, C::One, R::Dyn),
    row("@transformList", Member, &[&TWO_VAR], Macro, C::One, R::Dyn),
    row("@transformMap", Member, &[&TWO_VAR], Macro, C::One, R::Dyn),
    row("@transformMapEntry", Member, &[&TWO_VAR], Macro, C::One, R::Dyn),
    // Semver.
    row("semver", Global, &[&SEMVER], Vergate(imp::semver), C::Parse, R::Opaque("semver")),
    row("isSemver", Global, &[&SEMVER], Vergate(imp::is_semver), C::Parse, R::Bool),
    row("major", Member, &[&SEMVER], Vergate(imp::major), C::One, R::Int),
    row("minor", Member, &[&SEMVER], Vergate(imp::minor), C::One, R::Int),
    row("patch", Member, &[&SEMVER], Vergate(imp::patch), C::One, R::Int),
    // Not evaluated, with the reason.
    row("authorizer", Global, STD, Unsupported("the authorizer library needs a live API server"), C::One, R::Dyn),
    row("reverse", Member, STD, Unsupported("cel-go strings v3, which no Kubernetes minor offers"), C::Reverse, R::Dyn),
    // cel-go's lists extension v3 and Kubernetes' JSON patch library:
    // costed, not offered to CRD rules.
    row("slice", Member, STD, CostOnly, C::Slice, R::Dyn),
    row("flatten", Member, STD, CostOnly, C::Flatten, R::Dyn),
    row("lists.range", Global, STD, CostOnly, C::Range, R::Dyn),
    row("distinct", Member, STD, CostOnly, C::Distinct, R::Dyn),
    row("sort", Member, STD, CostOnly, C::Sort, R::Dyn),
    row("@sortByAssociatedKeys", Member, STD, CostOnly, C::SortByKeys, R::Dyn),
    row("includes", Member, STD, CostOnly, C::Includes, R::Dyn),
    row("jsonpatch.escapeKey", Global, STD, CostOnly, C::EscapeKey, R::Dyn),
];

/// The rows by name, and by the name they run under ([`MATCHES`]).
static BY_NAME: LazyLock<HashMap<&'static str, &'static Function>> = LazyLock::new(|| {
    let mut by_name = HashMap::with_capacity(FUNCTIONS.len() + 1);
    for function in FUNCTIONS {
        by_name.insert(function.name, function);
        by_name.insert(function.runtime_name(), function);
    }
    by_name
});

/// The row of `name` (as a rule names it, or as it runs).
pub fn function(name: &str) -> Option<&'static Function> {
    BY_NAME.get(name).copied()
}

/// True when a call of `name` costs what its values make it cost, and so
/// is made through a sized call.
pub fn is_sized(name: &str) -> bool {
    function(name).is_some_and(|function| function.cost.is_sized())
}

/// The names of the sized calls, as they run (`cel/sized.rs`, `charges.rs`).
pub static SIZED_CALLS: LazyLock<Vec<&'static str>> = LazyLock::new(|| {
    FUNCTIONS
        .iter()
        .filter(|function| function.cost.is_sized())
        .map(Function::runtime_name)
        .collect()
});

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cel::rule::ENV;
    use std::sync::Arc;

    #[test]
    fn each_function_is_declared_once() {
        let mut names: Vec<&str> = FUNCTIONS.iter().map(|function| function.name).collect();
        names.sort_unstable();
        let count = names.len();
        names.dedup();
        assert_eq!(names.len(), count, "a name has two rows");
    }

    /// Each of vergate's own functions registers under its name; none is
    /// shadowed by one of cel-rust's (which would keep cel-rust's meaning).
    #[test]
    fn each_implementation_registers() {
        for function in FUNCTIONS {
            if let Implementation::Vergate(register) = function.implementation {
                let mut context = Context::with_env(Arc::clone(&ENV));
                assert!(register(&mut context, function.name), "{}", function.name);
            }
        }
    }

    /// Each function cel-rust is to implement resolves: calling it is
    /// never an undeclared reference (only, at most, a wrong overload).
    #[test]
    fn each_cel_rust_function_is_declared() {
        let mut context = Context::with_env(Arc::clone(&ENV));
        crate::cel::library::register(&mut context);
        for function in FUNCTIONS {
            if !matches!(function.implementation, Implementation::CelRust) {
                continue;
            }
            let call = match function.style {
                Style::Member => format!("'a'.{}()", function.name),
                Style::Global | Style::Both => format!("{}()", function.name),
            };
            let program = ENV
                .compile(&call)
                .unwrap_or_else(|err| panic!("{call}: {err}"));
            let outcome = cel::Value::resolve(program.expression(), &context);
            assert!(
                !matches!(outcome, Err(cel::ExecutionError::UndeclaredReference(_))),
                "{call}: {outcome:?}"
            );
        }
    }

    #[test]
    fn every_named_format_has_a_row() {
        for name in crate::cel::library::format::NAMES {
            let function = function(&format!("format.{name}"));
            assert!(function.is_some_and(|f| f.libraries == [&FORMAT]), "{name}");
        }
        for name in crate::cel::library::two_var::MACROS {
            assert!(
                function(name).is_some_and(|f| f.libraries == [&TWO_VAR]),
                "{name}"
            );
        }
    }
}
