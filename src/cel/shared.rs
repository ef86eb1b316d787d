//! A document's lists and maps as CEL values that are cheap to copy:
//! cel-rust's own list and map behind an `Arc`. The interpreter copies a
//! value each time a comprehension binds an item (`self.all(l, …)`) and
//! each time a rule binds `self`; with these, a copy is a reference count,
//! and one conversion of a resource serves every rule at every node of it.
//!
//! Each delegates every operation to the list or map inside and presents
//! itself as that built-in (`as_builtin`), so functions and conversions
//! that look for cel-rust's own list or map find it.

use cel::common::traits::{Adder, Comparer, Container, Indexer, Iterable, Sizer, Zeroer};
use cel::common::types::{CelList, CelMap, Type, LIST_TYPE, MAP_TYPE};
use cel::common::value::{BuiltinRef, Val};
use std::sync::Arc;

/// A list shared by its copies.
#[derive(Debug, Clone)]
pub struct SharedList<'v>(pub Arc<CelList<'v>>);

/// A map shared by its copies.
#[derive(Debug, Clone)]
pub struct SharedMap<'v>(pub Arc<CelMap<'v>>);

macro_rules! delegate {
    ($wrapper:ident, $ty:expr, $variant:ident) => {
        impl<'x> Val for $wrapper<'x> {
            fn get_type(&self) -> &Type {
                &$ty
            }

            fn cel_type() -> &'static Type
            where
                Self: Sized,
            {
                &$ty
            }

            fn as_adder<'b, 'v>(&'b self) -> Option<&'b (dyn Adder + 'v)>
            where
                Self: 'v,
            {
                self.0.as_adder()
            }

            fn as_comparer(&self) -> Option<&dyn Comparer> {
                self.0.as_comparer()
            }

            fn as_container(&self) -> Option<&dyn Container> {
                self.0.as_container()
            }

            fn as_indexer<'b, 'v>(&'b self) -> Option<&'b (dyn Indexer + 'v)>
            where
                Self: 'v,
            {
                self.0.as_indexer()
            }

            fn as_iterable<'b, 'v>(&'b self) -> Option<&'b (dyn Iterable + 'v)>
            where
                Self: 'v,
            {
                self.0.as_iterable()
            }

            fn as_sizer(&self) -> Option<&dyn Sizer> {
                self.0.as_sizer()
            }

            fn as_zeroer(&self) -> Option<&dyn Zeroer> {
                self.0.as_zeroer()
            }

            fn equals(&self, other: &dyn Val) -> bool {
                match other.as_builtin() {
                    BuiltinRef::$variant(other) => self.0.equals(other),
                    _ => false,
                }
            }

            fn clone_as_boxed<'v>(&self) -> Box<dyn Val + 'v>
            where
                Self: 'v,
            {
                Box::new(self.clone())
            }

            fn as_builtin<'b, 'v>(&'b self) -> BuiltinRef<'b, 'v>
            where
                Self: 'v,
            {
                BuiltinRef::$variant(&self.0)
            }
        }
    };
}

delegate!(SharedList, LIST_TYPE, List);
delegate!(SharedMap, MAP_TYPE, Map);
