//! What of `self` a node's rules read, found once from their syntax trees,
//! so that [`super::passed`] keys a pass by that part of the value alone.
//!
//! A rule's verdict depends only on what it reads. Two routes whose filters
//! differ in a header's value but agree in `type` and in which fields are
//! set give every filter rule (`!(has(self.urlRewrite) && self.type !=
//! 'URLRewrite')`) the same verdict. The part read is a tree of paths from
//! `self`:
//!
//! - a path used as a value (`self.type == 'Exact'`, `f(self.x)`) is read
//!   whole;
//! - a presence test (`has(self.a.b)`) reads whether `b` is set, and `a`'s
//!   presence and kind on the way;
//! - `size(p)` reads how many items (or entries) `p` has;
//! - a comprehension over a path (`self.filters.all(f, …)`) and an item
//!   picked by a number (`self[0]`) read each item as the body reads its
//!   variable, and how many there are.
//!
//! Anything else is read whole: a rule that passes `self` to a function,
//! names a field through an escaped name (`__namespace__`) or ranges over a
//! map reads its whole node. The encoding of a path that is absent, or of
//! another kind than the reads expect, says so, so two values that differ
//! where a rule looks never share a key.

use crate::document::{Node, Value as Doc};
use cel::common::ast::{operators, Expr, IdedExpr, LiteralValue};
use std::collections::BTreeMap;

/// The deepest syntax tree followed; rules are bounded far below it when
/// they compile (64 levels), so this only guards the recursion.
const MAX_DEPTH: usize = 256;

/// The part of a value its rules read (see the module's doc).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reads {
    /// Read as a whole: the value's full encoding.
    whole: bool,
    /// How many items or entries it has.
    length: bool,
    /// Fields of a map read below it, by name.
    fields: BTreeMap<String, Reads>,
    /// Each item of a list, read this way (and how many there are).
    each: Option<Box<Reads>>,
}

/// One step of a path from `self`.
#[derive(Clone, Debug)]
enum Step {
    Field(String),
    Each,
}

impl Reads {
    /// The reads of all of `rules` together (the programs that compiled),
    /// read without the plan's cost instrumentation (which changes the
    /// shapes read here, never what a rule reads).
    pub fn of_rules<'r>(rules: impl IntoIterator<Item = &'r IdedExpr>) -> Reads {
        let rules: Vec<IdedExpr> = rules
            .into_iter()
            .map(super::charges::uninstrumented)
            .collect();
        let mut scan = Scan {
            variables: vec![("self", Some(Vec::new()))],
            counting: None,
            reads: Reads::default(),
        };
        for rule in &rules {
            scan.visit(rule, 0);
        }
        scan.reads
    }

    /// Everything, as a value read whole.
    pub fn whole() -> Reads {
        Reads {
            whole: true,
            ..Reads::default()
        }
    }

    fn at(&mut self, path: &[Step]) -> &mut Reads {
        let mut at = self;
        for step in path {
            if at.whole {
                break;
            }
            at = match step {
                Step::Field(name) => at.fields.entry(name.clone()).or_default(),
                Step::Each => at.each.get_or_insert_with(Box::default),
            };
        }
        at
    }

    fn read_whole(&mut self, path: &[Step]) {
        let at = self.at(path);
        *at = Reads {
            whole: true,
            ..Reads::default()
        };
    }

    /// Only whether the value is there (and its kind).
    fn presence_only(&self) -> bool {
        !self.whole && !self.length && self.fields.is_empty() && self.each.is_none()
    }

    /// Appends the encoding of what these reads see of `node` (`None`:
    /// absent) to `out`, through `whole` for what is read whole; false once
    /// `out` passes `limit` bytes.
    pub fn encode(
        &self,
        node: Option<&Node>,
        out: &mut Vec<u8>,
        limit: usize,
        whole: &dyn Fn(&Node, &mut Vec<u8>) -> bool,
    ) -> bool {
        if out.len() > limit {
            return false;
        }
        let Some(node) = node else {
            out.push(b'a');
            return true;
        };
        if self.whole {
            return whole(node, out);
        }
        match &node.value {
            Doc::Map(entries) if self.each.is_none() => {
                out.push(b'M');
                if self.length {
                    out.extend_from_slice(&(entries.len() as u64).to_le_bytes());
                }
                for (name, reads) in &self.fields {
                    // Every entry of the name: a document with a key twice
                    // is keyed by all of them.
                    let mut found = entries.iter().filter(|entry| entry.key == name.as_str());
                    let Some(first) = found.next() else {
                        out.push(b'a');
                        continue;
                    };
                    if !reads.encode(Some(&first.value), out, limit, whole) {
                        return false;
                    }
                    for entry in found {
                        out.push(b'+');
                        if !reads.encode(Some(&entry.value), out, limit, whole) {
                            return false;
                        }
                    }
                }
                out.len() <= limit
            }
            Doc::Seq(items) if self.fields.is_empty() => {
                out.push(b'L');
                out.extend_from_slice(&(items.len() as u64).to_le_bytes());
                if let Some(each) = &self.each {
                    for item in items {
                        if !each.encode(Some(item), out, limit, whole) {
                            return false;
                        }
                    }
                }
                out.len() <= limit
            }
            _ if self.presence_only() => {
                out.push(match &node.value {
                    Doc::Null => b'n',
                    Doc::Bool(_) => b'b',
                    Doc::Int(_) => b'i',
                    Doc::Float(_) => b'f',
                    Doc::String(_) => b's',
                    Doc::Seq(_) => b'l',
                    Doc::Map(_) => b'm',
                });
                true
            }
            // A scalar read by field or size, a map ranged over: whole.
            _ => whole(node, out),
        }
    }
}

/// The walk over rules' syntax trees that finds their [`Reads`].
struct Scan<'e> {
    /// The names in scope, innermost last: the path a variable stands for,
    /// or `None` for one that is no path from `self` (an accumulator).
    variables: Vec<(&'e str, Option<Vec<Step>>)>,
    /// The accumulator of the comprehension whose step is being read, when
    /// only the size of its result is used (`self.filter(f, …).size()`):
    /// the items it collects are counted, not read.
    counting: Option<&'e str>,
    reads: Reads,
}

impl<'e> Scan<'e> {
    /// The path from `self` that `expr` is, if it is one.
    fn path(&mut self, expr: &'e IdedExpr, depth: usize) -> Option<Vec<Step>> {
        if depth > MAX_DEPTH {
            self.reads.whole = true;
            return None;
        }
        match &expr.expr {
            Expr::Ident(name) => self
                .variables
                .iter()
                .rev()
                .find(|(variable, _)| variable == name)
                .and_then(|(_, path)| path.clone()),
            Expr::Select(select) if !select.test => {
                let operand = self.path(&select.operand, depth + 1)?;
                self.field(operand, &select.field)
            }
            Expr::Call(call)
                if call.target.is_none()
                    && call.args.len() == 2
                    && matches!(
                        call.func_name.as_str(),
                        operators::INDEX | operators::OPT_INDEX | operators::OPT_SELECT
                    ) =>
            {
                let operand = self.path(&call.args[0], depth + 1)?;
                match &call.args[1].expr {
                    Expr::Literal(LiteralValue::String(name)) => self.field(operand, name.inner()),
                    Expr::Literal(LiteralValue::Int(_) | LiteralValue::UInt(_)) => {
                        let mut path = operand;
                        path.push(Step::Each);
                        Some(path)
                    }
                    _ => None,
                }
            }
            // The plan's wrapping of a bare name under a presence test.
            Expr::Call(call)
                if call.target.is_none()
                    && call.func_name == operators::CONDITIONAL
                    && call.args.len() == 3
                    && matches!(
                        call.args[0].expr,
                        Expr::Literal(LiteralValue::Boolean(ref flag)) if *flag.inner()
                    )
                    && call.args[1] == call.args[2] =>
            {
                self.path(&call.args[1], depth + 1)
            }
            _ => None,
        }
    }

    /// `path` and then the field `name`; an escaped name (`__dot__`) reads
    /// `path` whole, since the document's key differs from the name.
    fn field(&mut self, mut path: Vec<Step>, name: &str) -> Option<Vec<Step>> {
        if name.contains("__") {
            self.reads.read_whole(&path);
            return None;
        }
        path.push(Step::Field(name.to_owned()));
        Some(path)
    }

    /// The list added in `accu + [item]`, when `accu` is the accumulator
    /// of a counted comprehension.
    fn counted_item(
        &self,
        call: &'e cel::common::ast::CallExpr,
    ) -> Option<&'e cel::common::ast::ListExpr> {
        let accumulator = self.counting?;
        match (call.func_name.as_str(), &call.target, call.args.as_slice()) {
            (operators::ADD, None, [accu, list]) => match (&accu.expr, &list.expr) {
                (Expr::Ident(name), Expr::List(list)) if name == accumulator => Some(list),
                _ => None,
            },
            _ => None,
        }
    }

    /// A comprehension: its variable stands for each item of the range
    /// when the range is a path; `counted` when only the size of its
    /// result is used.
    fn comprehension(
        &mut self,
        c: &'e cel::common::ast::ComprehensionExpr,
        depth: usize,
        counted: bool,
    ) {
        let outer = self.counting.take();
        self.visit(&c.accu_init, depth + 1);
        let range = match c.iter_var2 {
            None => self.path(&c.iter_range, depth + 1),
            // Two variables bind keys or indexes too: read whole.
            Some(_) => None,
        };
        let item = match range {
            Some(mut path) => {
                path.push(Step::Each);
                self.reads.at(&path);
                Some(path)
            }
            None => {
                self.visit(&c.iter_range, depth + 1);
                None
            }
        };
        let bound = self.variables.len();
        self.variables.push((&c.iter_var, item));
        if let Some(second) = &c.iter_var2 {
            self.variables.push((second, None));
        }
        self.variables.push((&c.accu_var, None));
        self.counting = counted.then_some(c.accu_var.as_str());
        self.visit(&c.loop_cond, depth + 1);
        self.visit(&c.loop_step, depth + 1);
        self.counting = None;
        self.variables.truncate(bound);
        self.variables.push((&c.accu_var, None));
        self.visit(&c.result, depth + 1);
        self.variables.truncate(bound);
        self.counting = outer;
    }

    fn visit(&mut self, expr: &'e IdedExpr, depth: usize) {
        if depth > MAX_DEPTH {
            self.reads.whole = true;
            return;
        }
        if let Some(path) = self.path(expr, depth) {
            self.reads.read_whole(&path);
            return;
        }
        match &expr.expr {
            Expr::Select(select) if select.test => match self.path(&select.operand, depth + 1) {
                Some(operand) => {
                    if let Some(path) = self.field(operand, &select.field) {
                        self.reads.at(&path);
                    }
                }
                None => self.visit(&select.operand, depth + 1),
            },
            Expr::Select(select) => self.visit(&select.operand, depth + 1),
            Expr::Call(call) => {
                let sized = match (call.func_name.as_str(), &call.target, call.args.as_slice()) {
                    ("size", Some(target), []) => Some(&**target),
                    ("size", None, [arg]) => Some(arg),
                    _ => None,
                };
                if let Some(sized) = sized {
                    if let Some(path) = self.path(sized, depth + 1) {
                        self.reads.at(&path).length = true;
                        return;
                    }
                    if let Expr::Comprehension(comprehension) = &sized.expr {
                        self.comprehension(comprehension, depth + 1, true);
                        return;
                    }
                }
                if let Some(list) = self.counted_item(call) {
                    // `accu + [item]` of a counted comprehension: the item
                    // is there, whatever it holds.
                    for element in &list.elements {
                        match self.path(element, depth + 1) {
                            Some(path) => {
                                self.reads.at(&path);
                            }
                            None => self.visit(element, depth + 1),
                        }
                    }
                    return;
                }
                if let Some(target) = &call.target {
                    self.visit(target, depth + 1);
                }
                for arg in &call.args {
                    self.visit(arg, depth + 1);
                }
            }
            Expr::Comprehension(comprehension) => {
                self.comprehension(comprehension, depth + 1, false)
            }
            Expr::List(list) => {
                for element in &list.elements {
                    self.visit(element, depth + 1);
                }
            }
            Expr::Map(map) => {
                for entry in &map.entries {
                    if let cel::common::ast::EntryExpr::MapEntry(entry) = &entry.expr {
                        self.visit(&entry.key, depth + 1);
                        self.visit(&entry.value, depth + 1);
                    }
                }
            }
            Expr::Struct(structure) => {
                for entry in &structure.entries {
                    if let cel::common::ast::EntryExpr::StructField(field) = &entry.expr {
                        self.visit(&field.value, depth + 1);
                    }
                }
            }
            Expr::Ident(_) | Expr::Literal(_) | Expr::Unspecified => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Reads;
    use crate::cel::rule::CompiledRule;
    use crate::document::parse;

    fn reads(rules: &[&str]) -> Reads {
        let compiled: Vec<CompiledRule> = rules
            .iter()
            .map(|rule| {
                CompiledRule::compile(&serde_json::json!({ "rule": rule })).expect("a rule")
            })
            .collect();
        Reads::of_rules(
            compiled
                .iter()
                .map(|rule| rule.program.as_ref().expect("compiles")),
        )
    }

    fn key(reads: &Reads, text: &str) -> Vec<u8> {
        let parsed = parse(text);
        let mut out = Vec::new();
        let whole = |node: &crate::document::Node, out: &mut Vec<u8>| {
            out.extend_from_slice(format!("{:?}", node.value).as_bytes());
            true
        };
        assert!(reads.encode(Some(&parsed.documents[0].root), &mut out, 4096, &whole));
        out
    }

    fn same(reads: &Reads, a: &str, b: &str) -> bool {
        key(reads, a) == key(reads, b)
    }

    #[test]
    fn presence_and_fields_read_only_what_the_rule_names() {
        let filter = reads(&[
            "!(has(self.urlRewrite) && self.type != 'URLRewrite')",
            "!(!has(self.urlRewrite) && self.type == 'URLRewrite')",
        ]);
        let a =
            "{type: RequestHeaderModifier, requestHeaderModifier: {set: [{name: a, value: '1'}]}}";
        let b =
            "{type: RequestHeaderModifier, requestHeaderModifier: {set: [{name: b, value: '2'}]}}";
        assert!(same(&filter, a, b));
        for other in [
            "{type: URLRewrite, requestHeaderModifier: {}}",
            "{type: RequestHeaderModifier, urlRewrite: {}}",
            "{requestHeaderModifier: {}}",
            "{type: [RequestHeaderModifier]}",
            "[]",
        ] {
            assert!(!same(&filter, a, other), "{other}");
        }
    }

    #[test]
    fn comprehensions_and_numbered_items_read_each_item() {
        let rule = reads(&["self.exists_one(f, f.type == 'URLRewrite')"]);
        assert!(same(&rule, "[{type: A, x: 1}]", "[{type: A, x: 2}]"));
        assert!(!same(&rule, "[{type: A}]", "[{type: B}]"));
        assert!(!same(&rule, "[{type: A}]", "[{type: A}, {type: A}]"));
        // `filter` keeps the items themselves, read whole, unless only
        // how many it keeps is used.
        let counted = reads(&["self.filter(f, f.type == 'URLRewrite').size() <= 1"]);
        assert!(same(&counted, "[{type: A, x: 1}]", "[{type: A, x: 2}]"));
        assert!(!same(&counted, "[{type: A}]", "[{type: B}]"));
        let kept = reads(&["self.filter(f, f.type == 'URLRewrite') == []"]);
        assert!(!same(&kept, "[{type: A, x: 1}]", "[{type: A, x: 2}]"));
        let inner = reads(&["self.filter(f, f.items.filter(g, g.set).all(g, g.set)).size() < 2"]);
        assert!(!same(
            &inner,
            "[{items: [{set: true, x: 1}]}]",
            "[{items: [{set: true, x: 2}]}]"
        ));
        let first = reads(&["(self.size() > 0 ? self[0].matches.size() : 0) <= 8"]);
        assert!(same(
            &first,
            "[{matches: [1, 2], n: a}]",
            "[{matches: [3, 4], n: b}]"
        ));
        assert!(!same(&first, "[{matches: [1, 2]}]", "[{matches: [1]}]"));
        // A size read of a string reads the string.
        let text = reads(&["size(self.name) < 5"]);
        assert!(!same(&text, "{name: ab}", "{name: cd}"));
        assert!(same(&text, "{name: ab, x: 1}", "{name: ab, x: 2}"));
    }

    #[test]
    fn what_cannot_be_followed_is_read_whole() {
        for rule in [
            "self == {'a': 1}",
            "self.all(k, k.startsWith('x'))",
            "has(self.__namespace__)",
            "self.x.all(i, j, i < 3)",
        ] {
            let found = reads(&[rule]);
            assert!(!same(&found, "{a: 1, x: [1]}", "{a: 1, x: [2]}"), "{rule}");
        }
        // A variable of the rule's own shadows nothing it does not bind.
        let shadow = reads(&["self.items.all(self, self.count > 0)"]);
        assert!(!same(
            &shadow,
            "{items: [{count: 1}]}",
            "{items: [{count: 2}]}"
        ));
        assert!(same(
            &shadow,
            "{items: [{count: 1}], other: 1}",
            "{items: [{count: 1}], other: 2}"
        ));
        assert_eq!(reads(&["self"]), Reads::whole());
    }
}
