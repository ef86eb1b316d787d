//! A CRD and a custom resource of it, built from bytes: the `crd_rules`
//! fuzz target's input, and the cases `tests/fuzz_seeds.rs` runs through
//! `vergate check --crd` on the stable toolchain (both include this file).
//!
//! Two forms of input:
//! - the texts themselves: a CRD, then a line [`MARKER`], then the custom
//!   resources (the reproducers of /work/shared/reliability are seeds so);
//! - any other bytes, read as choices: properties of a few types, nested
//!   junctors (`allOf`, `anyOf`, `oneOf`, `not`; up to 80 deep, past the
//!   reader's 64), value validations, CEL rules (`x-kubernetes-validations`,
//!   with messages up to 64 KiB and message expressions), and values for
//!   them (lists of up to 8,191 items). Bytes run out as zeros.
//!
//! Sizes are bounded here (at most [`MAX_NODES`] schemas), so what a case
//! costs is the checker's doing.

use serde_json::{json, Map, Value};

/// The line between the CRD and the custom resources in the texts form.
pub const MARKER: &str = "\n#--- custom resources\n";

/// The most schemas a generated CRD holds.
pub const MAX_NODES: usize = 4000;

/// A CRD (YAML or JSON text) and its custom resources (YAML text).
pub struct Pair {
    pub crd: String,
    pub cr: String,
}

/// The pair `data` describes.
pub fn pair(data: &[u8]) -> Pair {
    if let Ok(text) = std::str::from_utf8(data) {
        if let Some((crd, cr)) = text.split_once(MARKER) {
            return Pair {
                crd: crd.to_owned(),
                cr: cr.to_owned(),
            };
        }
    }
    Generator {
        bytes: data,
        at: 0,
        nodes: 0,
    }
    .pair()
}

struct Generator<'a> {
    bytes: &'a [u8],
    at: usize,
    nodes: usize,
}

/// The kinds of property generated, each with its values.
#[derive(Clone, Copy)]
enum Kind {
    Text,
    Number,
    List,
    Object,
}

const PATTERNS: [&str; 5] = ["^a", "^[a-z]+$", "b$", "(a|b)*c", "^$"];
const FORMATS: [&str; 5] = ["ipv4", "ipv6", "cidr", "date-time", "uri"];
const WORDS: [&str; 6] = ["a", "abc", "IPAddress", "10.0.0.1", "", "zzz"];

impl Generator<'_> {
    fn byte(&mut self) -> u8 {
        let byte = self.bytes.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        byte
    }

    /// A choice among `n` (at least 1).
    fn pick(&mut self, n: usize) -> usize {
        usize::from(self.byte()) % n
    }

    fn pair(&mut self) -> Pair {
        let count = 1 + self.pick(3);
        let mut properties = Map::new();
        let mut values = Map::new();
        for index in 0..count {
            let kind = [Kind::Text, Kind::Number, Kind::List, Kind::Object][self.pick(4)];
            let name = format!("p{index}");
            properties.insert(name.clone(), self.property(kind));
            if self.pick(8) != 0 {
                values.insert(name, self.value(kind));
            }
        }
        let spec = json!({"type": "object", "properties": properties});
        let crd = json!({
            "apiVersion": "apiextensions.k8s.io/v1",
            "kind": "CustomResourceDefinition",
            "metadata": {"name": "widgets.fuzz.example.com"},
            "spec": {
                "group": "fuzz.example.com",
                "scope": "Namespaced",
                "names": {"kind": "Widget", "plural": "widgets", "singular": "widget", "listKind": "WidgetList"},
                "versions": [{
                    "name": "v1", "served": true, "storage": true,
                    "schema": {"openAPIV3Schema": {"type": "object", "properties": {"spec": spec}}}
                }]
            }
        });
        let cr = json!({
            "apiVersion": "fuzz.example.com/v1",
            "kind": "Widget",
            "metadata": {"name": "w", "namespace": "default"},
            "spec": values
        });
        Pair {
            crd: crd.to_string(),
            cr: cr.to_string(),
        }
    }

    /// A property's schema: its type, value validations, junctors, rules.
    fn property(&mut self, kind: Kind) -> Value {
        let mut schema = match kind {
            Kind::Text => json!({"type": "string"}),
            Kind::Number => json!({"type": "integer"}),
            Kind::List => {
                let mut items = json!({"type": "string"});
                self.decorate(&mut items, Kind::Text);
                json!({"type": "array", "items": items})
            }
            Kind::Object => {
                json!({"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "integer"}}})
            }
        };
        self.decorate(&mut schema, kind);
        schema
    }

    /// Adds junctors and CEL rules to `schema`, of a value of `kind`.
    fn decorate(&mut self, schema: &mut Value, kind: Kind) {
        if self.pick(2) == 0 {
            let depth = self.pick(81);
            let junctor = self.junctors(kind, depth);
            if let (Value::Object(schema), Value::Object(junctor)) = (&mut *schema, junctor) {
                schema.extend(junctor);
            }
        }
        if self.pick(2) == 0 {
            let rules: Vec<Value> = (0..1 + self.pick(3)).map(|_| self.rule(kind)).collect();
            schema["x-kubernetes-validations"] = Value::Array(rules);
        }
    }

    /// A schema of junctors nested `depth` deep, over value validations.
    fn junctors(&mut self, kind: Kind, depth: usize) -> Value {
        self.nodes += 1;
        if depth == 0 || self.nodes >= MAX_NODES {
            return self.validation(kind);
        }
        match self.pick(4) {
            3 => json!({"not": self.junctors(kind, depth - 1)}),
            which => {
                let name = ["allOf", "anyOf", "oneOf"][which];
                // Mostly one branch, so depth is reached within the budget.
                let count = if self.pick(4) == 0 {
                    2 + self.pick(3)
                } else {
                    1
                };
                let branches: Vec<Value> =
                    (0..count).map(|_| self.junctors(kind, depth - 1)).collect();
                json!({ name: branches })
            }
        }
    }

    /// One value validation a structural schema allows in a junctor.
    fn validation(&mut self, kind: Kind) -> Value {
        let n = self.pick(6);
        match kind {
            Kind::Text => match self.pick(5) {
                0 => json!({"minLength": n}),
                1 => json!({"maxLength": n}),
                2 => json!({"pattern": PATTERNS[self.pick(PATTERNS.len())]}),
                3 => {
                    json!({"enum": [WORDS[self.pick(WORDS.len())], WORDS[self.pick(WORDS.len())]]})
                }
                _ => json!({"format": FORMATS[self.pick(FORMATS.len())]}),
            },
            Kind::Number => match self.pick(3) {
                0 => json!({"minimum": n}),
                1 => json!({"maximum": n, "exclusiveMaximum": self.pick(2) == 0}),
                _ => json!({"enum": [n, n + 1]}),
            },
            Kind::List => match self.pick(2) {
                0 => json!({"maxItems": n}),
                _ => json!({"minItems": n}),
            },
            Kind::Object => match self.pick(2) {
                0 => {
                    let name = ["a", "b", "c"][self.pick(3)];
                    json!({ "required": [name] })
                }
                _ => json!({"properties": {"a": {"minLength": n}}}),
            },
        }
    }

    /// A CEL rule over a value of `kind`, with a message of any length.
    fn rule(&mut self, kind: Kind) -> Value {
        let n = self.pick(8);
        let rule = match kind {
            Kind::Text => [
                format!("self.size() > {n}"),
                "self.startsWith('a')".into(),
                "false".into(),
                "self.matches('^[a-z]+$')".into(),
                "self.split('a').size() < 3".into(),
            ][self.pick(5)]
            .clone(),
            Kind::Number => [
                format!("self > {n}"),
                "self % 2 == 0".into(),
                "false".into(),
            ][self.pick(3)]
            .clone(),
            Kind::List => [
                format!("self.size() < {n}"),
                "self.all(x, x.size() < 3)".into(),
                "self.map(x, x + x).size() == 0".into(),
                "self.exists(x, x == 'a')".into(),
            ][self.pick(4)]
            .clone(),
            Kind::Object => [
                "has(self.a)".into(),
                "self.a == 'x'".into(),
                format!("!has(self.b) || self.b > {n}"),
            ][self.pick(3)]
            .clone(),
        };
        let mut rule = json!({"rule": rule});
        match self.pick(4) {
            0 => {}
            1 => rule["message"] = json!("must hold"),
            2 => {
                // Up to 64 KiB: a long message on many items.
                let length = usize::from(self.byte()) << 8;
                rule["message"] = json!("m".repeat(length.max(1)));
            }
            _ => rule["messageExpression"] = json!("'bad: ' + string(self)"),
        }
        rule
    }

    /// A value of `kind` for the custom resource.
    fn value(&mut self, kind: Kind) -> Value {
        match kind {
            Kind::Text => json!(self.text()),
            Kind::Number => json!(i64::from(self.byte()) - 64),
            Kind::List => {
                // Up to 8,191 items.
                let count = (usize::from(self.byte()) << 5 | self.pick(32)) & 0x1fff;
                let item = self.text();
                let items: Vec<Value> = (0..count).map(|i| json!(format!("{item}{i}"))).collect();
                Value::Array(items)
            }
            Kind::Object => {
                let mut object = Map::new();
                if self.pick(2) == 0 {
                    object.insert("a".into(), json!(self.text()));
                }
                if self.pick(2) == 0 {
                    object.insert("b".into(), json!(self.byte()));
                }
                Value::Object(object)
            }
        }
    }

    /// A short text, or a long one of one letter.
    fn text(&mut self) -> String {
        match self.pick(4) {
            0 => "a".repeat(usize::from(self.byte()) << 4),
            _ => WORDS[self.pick(WORDS.len())].to_owned(),
        }
    }
}
