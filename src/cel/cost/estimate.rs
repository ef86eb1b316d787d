//! cel-go's static cost estimate (`checker/cost.go`) over a rule's syntax
//! tree as cel-rust parses it (its macros expand to the same
//! comprehensions as cel-go's), with the sizes the API server's estimator
//! reads from the schema ([`Decl`]) and the Kubernetes libraries' call
//! costs ([`super::calls`]).
//!
//! Every value is tracked per expression id as cel-go tracks it: a path
//! from `self` through the schema (`self`, `spec`, `@items`, …) where one is
//! known, a size, the sizes of a list's or map's entries, and a type
//! ([`Ty`]). The walk recurses once per level of the tree: rules are
//! compiled only up to 64 levels (`rule::MAX_DEPTH`), and the arithmetic
//! saturates, so a hostile rule costs at most `u64::MAX`, never a crash.

use super::arg::{Arg, Entries};
use super::calls;
use super::decl::Decl;
use super::est::{Est, LIST_CREATE, MAP_CREATE, STRUCT_CREATE, UNKNOWN};
use super::ty::{self, Ty};
use cel::common::ast::{EntryExpr, Expr, LiteralValue};
use cel::IdedExpr;
/// The estimate's tables, keyed by expression id or name: foldhash, not
/// std's SipHash (a lookup or two per node of every rule).
type HashMap<K, V> = std::collections::HashMap<K, V, foldhash::fast::RandomState>;

/// The accumulator of cel-rust's (and cel-go's) macro expansions.
const ACCUMULATORS: [&str; 2] = ["@result", "__result__"];

/// The namespaces of functions spelled `namespace.function(…)`.
const NAMESPACES: [&str; 5] = ["sets", "strings", "format", "ip", "optional"];

/// The worst-case cost of `expression` with `self` (and `oldSelf`) of
/// type `root`: cel-go's `CostEstimate.Max`. `None` when the expression
/// selects a field the schema does not declare: the API server refuses
/// such a rule when it compiles it ("undefined field"), before any cost.
pub fn max_cost(expression: &IdedExpr, root: &Decl) -> Option<u64> {
    let mut coster = Coster {
        root,
        root_ty: Ty::of(root),
        paths: HashMap::default(),
        sizes: HashMap::default(),
        entries: HashMap::default(),
        types: HashMap::default(),
        locals: HashMap::default(),
        undeclared: false,
    };
    let cost = coster.cost(expression).max;
    (!coster.undeclared).then_some(cost)
}

/// A comprehension's variable.
struct Local {
    path: Vec<String>,
    size: Option<Est>,
    entries: Option<Entries>,
    ty: Ty,
}

struct Coster<'a> {
    root: &'a Decl,
    root_ty: Ty,
    paths: HashMap<u64, Vec<String>>,
    sizes: HashMap<u64, Est>,
    entries: HashMap<u64, Entries>,
    types: HashMap<u64, Ty>,
    locals: HashMap<String, Vec<Local>>,
    /// True once a field the schema does not declare is selected.
    undeclared: bool,
}

impl Coster<'_> {
    fn cost(&mut self, e: &IdedExpr) -> Est {
        let (cost, ty) = match &e.expr {
            Expr::Literal(literal) => (Est::fixed(0), literal_ty(literal)),
            Expr::Ident(name) => {
                let ty = match self.local(name) {
                    Some(local) => {
                        let (path, ty) = (local.path.clone(), local.ty.clone());
                        self.paths.insert(e.id, path);
                        ty
                    }
                    None => {
                        self.paths.insert(e.id, vec![name.clone()]);
                        if name == "self" || name == "oldSelf" {
                            self.root_ty.clone()
                        } else {
                            Ty::Dyn
                        }
                    }
                };
                (Est::fixed(1), ty)
            }
            Expr::Select(select) => {
                let operand = self.cost(&select.operand);
                if select.test {
                    // The API server counts presence tests as free
                    // (`PresenceTestHasCost(false)`).
                    (operand, Ty::Bool)
                } else {
                    let operand_ty = self.ty(&select.operand);
                    let mut path = self.path(&select.operand);
                    path.push(select.field.clone());
                    let ty = match &operand_ty {
                        Ty::Map(_, values) => (**values).clone(),
                        Ty::Object => match self.decl_at(&path) {
                            Some(decl) => Ty::of(&decl),
                            None => {
                                let operand_path = &path[..path.len() - 1];
                                self.undeclared |= self.decl_at(operand_path).is_some();
                                Ty::Dyn
                            }
                        },
                        _ => Ty::Dyn,
                    };
                    let select_cost = match operand_ty {
                        Ty::Map(..) | Ty::Object => 1,
                        _ => 0,
                    };
                    self.paths.insert(e.id, path);
                    (operand.add(Est::fixed(select_cost)), ty)
                }
            }
            Expr::Call(call) => self.call(e, &call.func_name, call.target.as_deref(), &call.args),
            Expr::List(list) => {
                let mut sum = Est::default();
                let mut item = Est {
                    min: if list.elements.is_empty() {
                        0
                    } else {
                        u64::MAX
                    },
                    max: 0,
                };
                let mut item_ty = Ty::Dyn;
                for element in &list.elements {
                    sum = sum.add(self.cost(element));
                    item = item.union(self.size_or_unknown(element));
                    item_ty = item_ty.or(self.ty(element));
                }
                self.entries.insert(
                    e.id,
                    Entries {
                        list: true,
                        key: Est::fixed(1),
                        value: item,
                    },
                );
                (
                    sum.add(Est::fixed(LIST_CREATE)),
                    Ty::List(Box::new(item_ty)),
                )
            }
            Expr::Map(map) => {
                let empty = map.entries.is_empty();
                let start = Est {
                    min: if empty { 0 } else { u64::MAX },
                    max: 0,
                };
                let (mut sum, mut keys, mut values) = (Est::default(), start, start);
                let (mut key_ty, mut value_ty) = (Ty::Dyn, Ty::Dyn);
                for entry in &map.entries {
                    if let EntryExpr::MapEntry(entry) = &entry.expr {
                        sum = sum.add(self.cost(&entry.key)).add(self.cost(&entry.value));
                        keys = keys.union(self.size_or_unknown(&entry.key));
                        values = values.union(self.size_or_unknown(&entry.value));
                        key_ty = key_ty.or(self.ty(&entry.key));
                        value_ty = value_ty.or(self.ty(&entry.value));
                    }
                }
                self.entries.insert(
                    e.id,
                    Entries {
                        list: false,
                        key: keys,
                        value: values,
                    },
                );
                let ty = Ty::Map(Box::new(key_ty), Box::new(value_ty));
                (sum.add(Est::fixed(MAP_CREATE)), ty)
            }
            Expr::Struct(object) => {
                let mut sum = Est::fixed(STRUCT_CREATE);
                for entry in &object.entries {
                    if let EntryExpr::StructField(field) = &entry.expr {
                        sum = sum.add(self.cost(&field.value));
                    }
                }
                (sum, Ty::Dyn)
            }
            Expr::Comprehension(comprehension) => self.comprehension(e, comprehension),
            Expr::Unspecified => (Est::default(), Ty::Dyn),
        };
        self.types.insert(e.id, ty);
        cost
    }

    fn comprehension(
        &mut self,
        e: &IdedExpr,
        c: &cel::common::ast::ComprehensionExpr,
    ) -> (Est, Ty) {
        let mut sum = self.cost(&c.iter_range).add(self.cost(&c.accu_init));
        let bind = matches!(&c.iter_range.expr, Expr::List(list) if list.elements.is_empty())
            && matches!(&c.loop_cond.expr, Expr::Literal(LiteralValue::Boolean(b)) if !**b)
            && !ACCUMULATORS.contains(&c.accu_var.as_str());
        // An empty list's element type comes from the step (below).
        let accu_ty = self.ty(&c.accu_init);
        self.push_local(&c.accu_var, &c.accu_init, accu_ty);
        if bind {
            sum = sum.add(self.cost(&c.result));
            self.pop_local(&c.accu_var);
            self.copy_sizes(e.id, c.result.id);
            return (sum, self.ty(&c.result));
        }
        self.push_iteration(c);
        let loop_cost = self.cost(&c.loop_cond);
        let step_cost = self.cost(&c.loop_step);
        self.pop_local(&c.iter_var);
        if let Some(second) = &c.iter_var2 {
            self.pop_local(second);
        }
        // The accumulator takes the type its step builds (a `map`'s list
        // of what its function gives).
        let step_ty = self.ty(&c.loop_step);
        if let Some(accu) = self.locals.get_mut(&c.accu_var).and_then(|s| s.last_mut()) {
            accu.ty = accu.ty.clone().or(step_ty);
        }
        sum = sum.add(self.cost(&c.result));
        self.pop_local(&c.accu_var);
        let range = self.size_or_unknown(&c.iter_range);
        sum = sum.add(range.multiply(step_cost.add(loop_cost)));
        match &c.accu_init.expr {
            Expr::Literal(_) => {
                if let Some(size) = self.size_of(&c.accu_init) {
                    self.sizes.insert(e.id, size);
                }
            }
            Expr::List(_) | Expr::Map(_) => {
                self.sizes.insert(e.id, range);
                if let Some(entries) = self.entries_of(&c.loop_step) {
                    self.entries.insert(e.id, entries);
                }
            }
            _ => {}
        }
        (sum, self.ty(&c.result))
    }

    /// Binds a comprehension's variables: a list's items (and indexes), a
    /// map's keys (and values), each with the path `@items`, `@keys`, ….
    fn push_iteration(&mut self, c: &cel::common::ast::ComprehensionExpr) {
        let range = &c.iter_range;
        let entries = self.entries_of(range);
        let range_ty = self.ty(range);
        let list = match entries {
            Some(entries) => entries.list,
            None => matches!(range_ty, Ty::List(_)),
        };
        let path = self.path(range);
        let with = |step: &str| {
            let mut path = path.clone();
            path.push(step.to_owned());
            path
        };
        let (key_size, value_size) = (entries.map(|e| e.key), entries.map(|e| e.value));
        match &c.iter_var2 {
            None => {
                let (size, step) = if list {
                    (value_size, "@items")
                } else {
                    (key_size, "@keys")
                };
                let ty = range_ty.iterated();
                self.bind(&c.iter_var, with(step), size, None, ty);
            }
            Some(second) => {
                let (key_step, value_step, key_ty) = if list {
                    ("@indices", "@items", Ty::Int)
                } else {
                    ("@keys", "@values", range_ty.iterated())
                };
                self.bind(&c.iter_var, with(key_step), key_size, None, key_ty);
                self.bind(
                    second,
                    with(value_step),
                    value_size,
                    None,
                    range_ty.element(),
                );
            }
        }
    }

    fn call(
        &mut self,
        e: &IdedExpr,
        name: &str,
        target: Option<&IdedExpr>,
        args: &[IdedExpr],
    ) -> (Est, Ty) {
        // `dyn(x)` costs 1 more than `x` and keeps its sizes.
        if name == "dyn" && target.is_none() && args.len() == 1 {
            let cost = self.cost(&args[0]).add(Est::fixed(1));
            self.copy_sizes(e.id, args[0].id);
            return (cost, Ty::Dyn);
        }
        // vergate rewrites `s.matches(re)` to a global call on `(s, re)`.
        let (name, target, args) = match (name, target) {
            (crate::cel::library::MATCHES, None) if args.len() == 2 => {
                ("matches", Some(&args[0]), &args[1..])
            }
            _ => (name, target, args),
        };
        // `sets.contains(a, b)` parses as a member call on `sets`.
        let qualified;
        let (name, target) = match target.map(|t| &t.expr) {
            Some(Expr::Ident(namespace))
                if NAMESPACES.contains(&namespace.as_str()) && self.local(namespace).is_none() =>
            {
                qualified = format!("{namespace}.{name}");
                (qualified.as_str(), None)
            }
            _ => (name, target),
        };
        let mut arg_costs = Vec::with_capacity(args.len());
        for arg in args {
            arg_costs.push(self.cost(arg));
        }
        let mut sum = Est::default();
        if let Some(target) = target {
            sum = sum.add(self.cost(target));
        }
        let target_node = target.map(|t| self.node(t));
        let arg_nodes: Vec<Arg<'_>> = args.iter().map(|a| self.node(a)).collect();
        let mut types: Vec<Ty> = target_node.iter().map(|t| t.ty.clone()).collect();
        types.extend(arg_nodes.iter().map(|a| a.ty.clone()));
        let result_ty = ty::result(name, &types);
        let mut fn_cost = Est {
            min: u64::MAX,
            max: 0,
        };
        let mut result_size: Option<Est> = None;
        for overload in calls::overloads(name, &arg_nodes) {
            let ctx = calls::Context {
                size: &|node: &Arg<'_>| self.node_size(node),
                entries: &|expr: &IdedExpr| self.entries_of(expr),
            };
            let estimate = calls::cost(
                &ctx,
                name,
                overload,
                target_node.as_ref(),
                &arg_nodes,
                &arg_costs,
            );
            fn_cost = fn_cost.union(estimate.cost);
            if let Some(size) = estimate.result_size {
                result_size = Some(result_size.map_or(size, |r| r.union(size)));
            }
            if let Some(entries) = estimate.entries {
                self.entries.insert(e.id, entries);
            }
            if matches!(
                overload,
                calls::Overload::IndexList | calls::Overload::IndexMap
            ) {
                if let Some(container) = args.first() {
                    result_size = self.entries_of(container).map(|entries| entries.value);
                    let step = if overload == calls::Overload::IndexList {
                        "@items"
                    } else {
                        "@values"
                    };
                    let mut path = self.path(container);
                    path.push(step.to_owned());
                    self.paths.insert(e.id, path);
                }
            }
            if result_size.is_none() {
                self.types.insert(e.id, result_ty.clone());
                result_size = self.size_of(e);
            }
        }
        if fn_cost.min == u64::MAX && fn_cost.max == 0 {
            fn_cost = Est::default();
        }
        if let Some(size) = result_size {
            self.sizes.insert(e.id, size);
        }
        (sum.add(fn_cost), result_ty)
    }

    fn node<'e>(&self, expr: &'e IdedExpr) -> Arg<'e> {
        let mut path = self.path(expr);
        if path
            .first()
            .is_some_and(|first| ACCUMULATORS.contains(&first.as_str()))
        {
            path.clear();
        }
        Arg {
            expr,
            path,
            ty: self.ty(expr),
            size: self.size_of(expr),
        }
    }

    /// The size of an argument: computed, else from the schema at its path.
    fn node_size(&self, node: &Arg<'_>) -> Est {
        node.size
            .or_else(|| self.schema_size(&node.path))
            .unwrap_or(UNKNOWN)
    }

    fn ty(&self, e: &IdedExpr) -> Ty {
        self.types.get(&e.id).cloned().unwrap_or(Ty::Dyn)
    }

    fn path(&self, e: &IdedExpr) -> Vec<String> {
        if let Expr::Ident(name) = &e.expr {
            if let Some(local) = self.local(name) {
                return local.path.clone();
            }
        }
        self.paths.get(&e.id).cloned().unwrap_or_default()
    }

    fn local(&self, name: &str) -> Option<&Local> {
        self.locals.get(name).and_then(|stack| stack.last())
    }

    fn bind(
        &mut self,
        name: &str,
        path: Vec<String>,
        size: Option<Est>,
        entries: Option<Entries>,
        ty: Ty,
    ) {
        self.locals.entry(name.to_owned()).or_default().push(Local {
            path,
            size,
            entries,
            ty,
        });
    }

    fn push_local(&mut self, name: &str, e: &IdedExpr, ty: Ty) {
        let (path, size, entries) = (self.path(e), self.size_of(e), self.entries_of(e));
        self.bind(name, path, size, entries, ty);
    }

    fn pop_local(&mut self, name: &str) {
        if let Some(stack) = self.locals.get_mut(name) {
            stack.pop();
        }
    }

    fn copy_sizes(&mut self, to: u64, from: u64) {
        if let Some(size) = self.sizes.get(&from).copied() {
            self.sizes.insert(to, size);
        }
        if let Some(entries) = self.entries.get(&from).copied() {
            self.entries.insert(to, entries);
        }
    }

    fn size_or_unknown(&self, e: &IdedExpr) -> Est {
        self.size_of(e).unwrap_or(UNKNOWN)
    }

    /// cel-go's `computeSize`: computed before, a literal's own, the
    /// schema's at the expression's path, 1 for a scalar type, or a
    /// comprehension variable's.
    fn size_of(&self, e: &IdedExpr) -> Option<Est> {
        if let Some(size) = self.sizes.get(&e.id) {
            return Some(*size);
        }
        if let Some(size) = literal_size(e) {
            return Some(size);
        }
        if let Some(size) = self.schema_size(&self.path(e)) {
            return Some(size);
        }
        if self.ty(e).is_scalar() {
            return Some(Est::fixed(1));
        }
        match &e.expr {
            Expr::Ident(name) => self.local(name).and_then(|local| local.size),
            _ => None,
        }
    }

    /// The API server's size estimator: `{0, max elements}` of the schema
    /// node at `path` (its first step is the variable, `self`).
    fn schema_size(&self, path: &[String]) -> Option<Est> {
        let (_, rest) = path.split_first()?;
        let decl = self.root.at(rest)?;
        Some(Est {
            min: 0,
            max: decl.max_elements,
        })
    }

    fn decl_at(&self, path: &[String]) -> Option<std::borrow::Cow<'_, Decl>> {
        let (_, rest) = path.split_first()?;
        self.root.at(rest)
    }

    fn entries_of(&self, e: &IdedExpr) -> Option<Entries> {
        if let Some(entries) = self.entries.get(&e.id) {
            return Some(*entries);
        }
        match &e.expr {
            Expr::Ident(name) => self.local(name).and_then(|local| local.entries),
            _ => None,
        }
    }
}

fn literal_ty(literal: &LiteralValue) -> Ty {
    match literal {
        LiteralValue::Boolean(_) => Ty::Bool,
        LiteralValue::Bytes(_) => Ty::Bytes,
        LiteralValue::Double(_) => Ty::Double,
        LiteralValue::Int(_) => Ty::Int,
        LiteralValue::Null => Ty::Null,
        LiteralValue::String(_) => Ty::String,
        LiteralValue::UInt(_) => Ty::Uint,
    }
}

/// cel-go's `computeExprSize`: a string literal's characters, a bytes
/// literal's bytes, 1 for other literals, a list's or map's entries.
fn literal_size(e: &IdedExpr) -> Option<Est> {
    let size = match &e.expr {
        Expr::Literal(LiteralValue::String(text)) => {
            AsRef::<str>::as_ref(&**text).chars().count() as u64
        }
        Expr::Literal(LiteralValue::Bytes(bytes)) => AsRef::<[u8]>::as_ref(&**bytes).len() as u64,
        Expr::Literal(_) => 1,
        Expr::List(list) => list.elements.len() as u64,
        Expr::Map(map) => map.entries.len() as u64,
        _ => return None,
    };
    Some(Est::fixed(size))
}
