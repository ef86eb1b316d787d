//! The CEL environment of the Kubernetes API server, per minor: which
//! libraries each minor offers ([`LIBRARIES`], from k8s.io/apiserver's
//! `pkg/cel/environment/base.go`), and the Kubernetes extension functions
//! registered on top of cel-rust's standard library and its strings
//! extension.
//!
//! **How to add a function:** implement it in the module of its library,
//! register it in [`register`], and list its name under its library in
//! [`LIBRARIES`] (a name not listed there is reported as unsupported).

mod format;
mod functions;
mod net;
mod quantity;

pub use functions::register;

use crate::Version;

/// One library of the API server's CEL environment.
pub struct Library {
    /// As docs/cli.md names it.
    pub name: &'static str,
    /// The first minor whose base environment has it.
    pub since: Version,
    /// The functions (and macros) it adds that a rule can name.
    pub functions: &'static [&'static str],
}

const fn minor(minor: u32) -> Version {
    Version::new(1, minor)
}

/// The libraries of the API server's CEL environment, with the minor that
/// introduced each (k8s.io/apiserver `pkg/cel/environment/base.go`). The
/// standard library's functions are cel-rust's and are not listed.
pub const LIBRARIES: &[Library] = &[
    Library {
        name: "strings (cel-go ext.Strings v0)",
        since: minor(0),
        functions: &[
            "charAt",
            "indexOf",
            "lastIndexOf",
            "lowerAscii",
            "upperAscii",
            "replace",
            "split",
            "substring",
            "trim",
            "join",
        ],
    },
    Library {
        name: "URLs",
        since: minor(0),
        functions: &[
            "url",
            "isURL",
            "getScheme",
            "getHost",
            "getHostname",
            "getPort",
            "getEscapedPath",
            "getQuery",
        ],
    },
    Library {
        name: "regex",
        since: minor(0),
        functions: &["find", "findAll"],
    },
    Library {
        name: "lists",
        since: minor(0),
        functions: &["isSorted", "sum", "min", "max", "indexOf", "lastIndexOf"],
    },
    Library {
        name: "optional types",
        since: minor(28),
        functions: &[
            "optional.of",
            "optional.none",
            "optional.ofNonZeroValue",
            "hasValue",
            "value",
            "orValue",
            "or",
        ],
    },
    Library {
        name: "quantity",
        since: minor(28),
        functions: &[
            "quantity",
            "isQuantity",
            "sign",
            "isGreaterThan",
            "isLessThan",
            "compareTo",
            "add",
            "sub",
            "asInteger",
            "isInteger",
            "asApproximateFloat",
        ],
    },
    Library {
        name: "strings (cel-go ext.Strings v2: format, quote)",
        since: minor(29),
        functions: &["format", "strings.quote"],
    },
    Library {
        name: "sets (cel-go ext.Sets)",
        since: minor(29),
        functions: &["sets.contains", "sets.equivalent", "sets.intersects"],
    },
    Library {
        name: "IP and CIDR",
        since: minor(30),
        functions: &[
            "ip",
            "isIP",
            "ip.isCanonical",
            "family",
            "isUnspecified",
            "isLoopback",
            "isLinkLocalMulticast",
            "isLinkLocalUnicast",
            "isGlobalUnicast",
            "cidr",
            "isCIDR",
            "containsIP",
            "containsCIDR",
            "prefixLength",
            "masked",
        ],
    },
    Library {
        name: "format",
        since: minor(31),
        functions: &[
            "format.named",
            "validate",
            "format.dns1123Label",
            "format.dns1123Subdomain",
            "format.dns1035Label",
            "format.qualifiedName",
            "format.dns1123LabelPrefix",
            "format.dns1123SubdomainPrefix",
            "format.dns1035LabelPrefix",
            "format.labelValue",
            "format.uri",
            "format.uuid",
            "format.byte",
            "format.date",
            "format.datetime",
        ],
    },
];

/// Functions of the API server's environment vergate does not evaluate:
/// a rule calling one is reported, not guessed.
pub const UNSUPPORTED: &[(&str, &str)] = &[
    (
        "authorizer",
        "the authorizer library needs a live API server",
    ),
    (
        "transformList",
        "two-variable comprehensions (1.32) are not in cel-rust 0.15",
    ),
    (
        "transformMap",
        "two-variable comprehensions (1.32) are not in cel-rust 0.15",
    ),
    (
        "transformMapEntry",
        "two-variable comprehensions (1.32) are not in cel-rust 0.15",
    ),
    (
        "reverse",
        "cel-go strings v3, which no Kubernetes minor offers",
    ),
    (
        "semver",
        "the semver library (1.33) is not implemented by vergate",
    ),
    (
        "isSemver",
        "the semver library (1.33) is not implemented by vergate",
    ),
];

/// The first minor that offers `function`, when a Kubernetes library adds
/// it (`None` for the standard library and for names no library lists).
/// A name several libraries add is offered from the earliest.
pub fn introduced_in(function: &str) -> Option<Version> {
    LIBRARIES
        .iter()
        .filter(|library| library.functions.contains(&function))
        .map(|library| library.since)
        .min()
}

/// The library that adds `function` first, for messages.
pub fn library_of(function: &str) -> Option<&'static Library> {
    LIBRARIES
        .iter()
        .filter(|library| library.functions.contains(&function))
        .min_by_key(|library| library.since)
}
