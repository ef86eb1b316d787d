//! Every attribute key the front door reads, named once.

use std::fmt;
use syn::{Ident, Path};

/// An attribute or argument name.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Symbol(pub &'static str);

/// `minors = "1.28..=1.36"` or `minors = ["1.28", "1.30"]` on the module.
pub const MINORS: Symbol = Symbol("minors");
/// `rename_all = "camelCase"` on the module: how field names become wire names.
pub const RENAME_ALL: Symbol = Symbol("rename_all");
pub const INTRODUCED_IN: Symbol = Symbol("introduced_in");
pub const REMOVED_IN: Symbol = Symbol("removed_in");
pub const DEPRECATED_IN: Symbol = Symbol("deprecated_in");
/// `#[stage(alpha = "1.30", beta = "1.31", ga = "1.33")]`
pub const STAGE: Symbol = Symbol("stage");
pub const ALPHA: Symbol = Symbol("alpha");
pub const BETA: Symbol = Symbol("beta");
pub const GA: Symbol = Symbol("ga");
/// `#[feature_gate("ServiceTrafficDistribution")]`
pub const FEATURE_GATE: Symbol = Symbol("feature_gate");
/// `#[reference("https://kep.k8s.io/4444")]`
pub const REFERENCE: Symbol = Symbol("reference");
/// `#[renamed(from = "oldName", in = "1.31")]`: the wire name before a minor.
pub const RENAMED: Symbol = Symbol("renamed");
pub const FROM: Symbol = Symbol("from");
pub const IN: Symbol = Symbol("in");
/// `#[rename("wireName")]`: the wire name, when the naming rule does not give it.
pub const RENAME: Symbol = Symbol("rename");

/// The gate attributes, in the order messages list them.
pub const GATES: [Symbol; 6] = [
    INTRODUCED_IN,
    REMOVED_IN,
    DEPRECATED_IN,
    STAGE,
    FEATURE_GATE,
    REFERENCE,
];

/// Every attribute vergate reads on types, fields and variants.
pub const ALL: [Symbol; 8] = [
    INTRODUCED_IN,
    REMOVED_IN,
    DEPRECATED_IN,
    STAGE,
    FEATURE_GATE,
    REFERENCE,
    RENAMED,
    RENAME,
];

/// Attributes kept as written on versioned types (their fields and variants
/// keep only `doc`).
pub const KEPT_ON_TYPES: [&str; 7] = ["doc", "derive", "allow", "warn", "deny", "expect", "forbid"];

impl Symbol {
    /// The symbol the path is, if it is one of [`ALL`].
    pub fn of(path: &Path) -> Option<Symbol> {
        let ident = path.get_ident()?;
        ALL.into_iter().find(|symbol| ident == symbol.0)
    }
}

impl PartialEq<Symbol> for Ident {
    fn eq(&self, symbol: &Symbol) -> bool {
        self == symbol.0
    }
}

impl PartialEq<Symbol> for Path {
    fn eq(&self, symbol: &Symbol) -> bool {
        self.is_ident(symbol.0)
    }
}

impl fmt::Display for Symbol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

/// `` `a`, `b` or `c` `` for messages.
pub fn list(symbols: &[Symbol]) -> String {
    let names: Vec<String> = symbols.iter().map(|s| format!("`{s}`")).collect();
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => names.join(""),
    }
}
