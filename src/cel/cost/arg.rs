//! What a call's cost sees of its target and arguments ([`Arg`]), and the
//! sizes of a list's or map's entries ([`Entries`]): shared by the walk
//! over a rule (`estimate`) and the call costs (`calls`).

use super::est::Est;
use super::ty::Ty;
use cel::IdedExpr;

/// The sizes of a list's or map's entries.
#[derive(Clone, Copy, Debug)]
pub(super) struct Entries {
    pub list: bool,
    pub key: Est,
    pub value: Est,
}

impl Entries {
    pub(super) fn union(a: Option<Entries>, b: Option<Entries>) -> Option<Entries> {
        let (a, b) = (a?, b?);
        Some(Entries {
            list: a.list,
            key: a.key.union(b.key),
            value: a.value.union(b.value),
        })
    }
}

/// One argument (or the target) of a call, as a function's cost sees it.
pub(super) struct Arg<'a> {
    pub expr: &'a IdedExpr,
    pub path: Vec<String>,
    pub ty: Ty,
    /// The size computed for it, if any.
    pub size: Option<Est>,
}
