//! Unions in the walk: a value of a union definition (gates.json's
//! `union`) is handed to [`Visitor::union`](super::Visitor::union), which
//! decides how to look into it; [`Walk::branch`] lets a visitor try the
//! value against each member on a walk of its own, at the same path.

use super::Walk;

impl<'a> Walk<'a> {
    /// A walk at the same place as this one, for trying a value against a
    /// union's member without touching this walk.
    pub fn branch(&self) -> Walk<'a> {
        Walk {
            tables: self.tables,
            from: self.from,
            to: self.to,
            path: self.path.clone(),
            custom: self.custom,
        }
    }
}
