//! The CEL types the cost model needs, inferred without a type checker
//! (cel-rust has none): from the schema for `self` and what is selected
//! from it, from literals, and from what each function returns. Where a
//! type cannot be known it is `Dyn`, and the estimator then takes every
//! overload the call could resolve to, as cel-go's checker does for a
//! `dyn` argument (the conservative choice: the largest cost).

use super::decl::{Decl, Kind};
use crate::cel::library::table::{self, Returns};

/// A CEL type, as far as costs depend on it.
#[derive(Clone, Debug, PartialEq)]
pub enum Ty {
    Bool,
    Int,
    Uint,
    Double,
    String,
    Bytes,
    Duration,
    Timestamp,
    Null,
    List(Box<Ty>),
    Map(Box<Ty>, Box<Ty>),
    /// An object of the schema (a CEL message type: selecting costs 1).
    Object,
    /// A Kubernetes library type: `quantity`, `ip`, `cidr`, `url`,
    /// `semver`, `format`, or an optional.
    Opaque(&'static str),
    Dyn,
}

impl Ty {
    /// The type of values of `decl`.
    pub fn of(decl: &Decl) -> Ty {
        match &decl.kind {
            Kind::Object(_) | Kind::Value(_) => Ty::Object,
            Kind::List(items) => Ty::List(Box::new(Ty::of(items))),
            Kind::Map(values) => Ty::Map(Box::new(Ty::String), Box::new(Ty::of(values))),
            Kind::String => Ty::String,
            Kind::Bytes => Ty::Bytes,
            Kind::Int => Ty::Int,
            Kind::Double => Ty::Double,
            Kind::Bool => Ty::Bool,
            Kind::Duration => Ty::Duration,
            Kind::Timestamp => Ty::Timestamp,
            Kind::Dyn => Ty::Dyn,
        }
    }

    /// True for the types cel-go sizes as 1 without a schema (`isScalar`).
    pub fn is_scalar(&self) -> bool {
        matches!(
            self,
            Ty::Bool | Ty::Double | Ty::Duration | Ty::Int | Ty::Timestamp | Ty::Uint
        )
    }

    /// The element type of a list, the key type of a map (what a
    /// comprehension's single variable takes).
    pub fn iterated(&self) -> Ty {
        match self {
            Ty::List(items) => (**items).clone(),
            Ty::Map(keys, _) => (**keys).clone(),
            _ => Ty::Dyn,
        }
    }

    /// What indexing or selecting on a value of this type gives.
    pub fn element(&self) -> Ty {
        match self {
            Ty::List(inner) | Ty::Map(_, inner) => (**inner).clone(),
            _ => Ty::Dyn,
        }
    }

    /// The more precise of two types of one value.
    pub fn or(self, other: Ty) -> Ty {
        match (&self, &other) {
            (Ty::Dyn, _) => other,
            (Ty::List(inner), Ty::List(_)) if **inner == Ty::Dyn => other,
            _ => self,
        }
    }
}

/// What the function or operator `name` returns, given its target's and
/// arguments' types (the first is the target for a member call): an
/// operator's by cel-go's rules, a function's from its row of the function
/// table ([`crate::cel::library::table`]); `Dyn` for a name it lacks (no
/// API server compiles a rule calling one).
pub fn result(name: &str, types: &[Ty]) -> Ty {
    let first = types.first().cloned().unwrap_or(Ty::Dyn);
    let second = types.get(1).cloned().unwrap_or(Ty::Dyn);
    match name {
        "@in"
        | "_==_"
        | "_!=_"
        | "_<_"
        | "_<=_"
        | "_>_"
        | "_>=_"
        | "!_"
        | "_&&_"
        | "_||_"
        | "@not_strictly_false" => Ty::Bool,
        "_[_]" => first.element(),
        "_+_" => first.or(second),
        "-_" | "_-_" | "_*_" | "_/_" | "_%_" => first,
        "_?_:_" => second.or(types.get(2).cloned().unwrap_or(Ty::Dyn)),
        name => match table::function(name) {
            Some(function) => returned(function.returns, first),
            None => Ty::Dyn,
        },
    }
}

/// The type a function's [`Returns`] gives, its target's type `first`.
fn returned(returns: Returns, first: Ty) -> Ty {
    match returns {
        Returns::Bool => Ty::Bool,
        Returns::Int => Ty::Int,
        Returns::Uint => Ty::Uint,
        Returns::Double => Ty::Double,
        Returns::String => Ty::String,
        Returns::Bytes => Ty::Bytes,
        Returns::Duration => Ty::Duration,
        Returns::Timestamp => Ty::Timestamp,
        Returns::Strings => Ty::List(Box::new(Ty::String)),
        Returns::Query => Ty::Map(
            Box::new(Ty::String),
            Box::new(Ty::List(Box::new(Ty::String))),
        ),
        Returns::Opaque(name) => Ty::Opaque(name),
        Returns::Element => first.element(),
        Returns::Same => first,
        Returns::Dyn => Ty::Dyn,
    }
}
