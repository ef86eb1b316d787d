//! The values each rule of a schema node has passed on, so that the same
//! value met again (the same path match, filter or parent reference in many
//! routes of a repository) is not evaluated again.
//!
//! A rule's verdict is a function of its node's value alone: the value is
//! converted from the document by the node's schema (types, defaults), the
//! rule and the schema belong to the node, and every CEL function vergate
//! offers is deterministic. So a rule that passed on a value passes on an
//! equal one. Only passes are kept (a failure is evaluated again, to word
//! and place its report), keyed by the part of the value the node's rules
//! read ([`Reads`]: a filter's `type` and which fields are set, not its
//! header values), encoded in full (compared byte for byte, never by hash
//! alone), and the target minor. The memory is
//! bounded per value ([`MAX_KEY`]: a larger value is evaluated every time),
//! per node ([`MAX_VALUES`]) and in all ([`MAX_BYTES`]: 32 MiB).

use super::reads::Reads;
use crate::document::{Node, Value as Doc};
use crate::Version;
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// The longest value encoding kept, in bytes: small nodes (an item of a
/// list, a path match) repeat; large ones rarely do, and encoding them
/// costs more than it saves.
const MAX_KEY: usize = 512;

/// The most values kept per schema node; past it, the node keeps what it
/// has and learns nothing new.
const MAX_VALUES: usize = 4096;

/// The most bytes of keys kept in all, across every node of every CRD.
const MAX_BYTES: usize = 32 << 20;

/// The bytes of keys kept so far.
static KEPT: AtomicUsize = AtomicUsize::new(0);

/// The passes of one schema node's rules: per value, a bit per rule (the
/// node's first 64 rules; any after them are always evaluated) and what
/// the rules that passed cost (the API server runs them again and spends
/// it from the object's budget).
#[derive(Debug)]
pub struct Passed {
    values: Mutex<Values>,
    /// What of the node's value its rules read: the part keyed.
    reads: Reads,
}

impl Default for Passed {
    /// Passes keyed by the whole value.
    fn default() -> Passed {
        Passed::new(Reads::whole())
    }
}

type Values = HashMap<Box<[u8]>, (u64, u64), foldhash::fast::RandomState>;

impl Passed {
    /// The passes of rules that read `reads` of their node's value.
    pub fn new(reads: Reads) -> Passed {
        Passed {
            values: Mutex::default(),
            reads,
        }
    }

    /// The passes of `rules` (those that compiled read their part).
    pub fn for_rules(rules: &[std::sync::Arc<super::rule::CompiledRule>]) -> Passed {
        Passed::new(Reads::of_rules(
            rules.iter().filter_map(|rule| rule.program.as_ref().ok()),
        ))
    }

    /// The key of `node`'s value at `target`: the part the rules read;
    /// `None` when its encoding would pass [`MAX_KEY`].
    pub fn key(&self, node: &Node, target: Option<Version>) -> Option<Key> {
        let mut bytes = Vec::with_capacity(64);
        match target {
            Some(target) => {
                bytes.push(1);
                bytes.extend_from_slice(&target.major().to_le_bytes());
                bytes.extend_from_slice(&target.minor().to_le_bytes());
            }
            None => bytes.push(0),
        }
        let fits = self.reads.encode(Some(node), &mut bytes, MAX_KEY, &encode);
        (fits && bytes.len() <= MAX_KEY).then_some(Key { bytes })
    }

    /// The rules (as bits of their index) that passed on the value `key`
    /// encodes, and their runtime cost: one lookup for all the node's
    /// rules.
    pub fn lookup(&self, key: &Key) -> (u64, u64) {
        self.values
            .lock()
            .ok()
            .and_then(|passed| passed.get(key.bytes.as_slice()).copied())
            .unwrap_or((0, 0))
    }

    /// Remembers that the rules of `rules` (bits of their index) passed on
    /// the value `key` encodes, at a runtime cost of `cost`.
    pub fn record(&self, key: Key, rules: u64, cost: u64) {
        if rules == 0 {
            return;
        }
        if let Ok(mut passed) = self.values.lock() {
            if let Some((known, known_cost)) = passed.get_mut(key.bytes.as_slice()) {
                // Only rules not known yet were run for this record.
                if rules & !*known != 0 {
                    *known |= rules;
                    *known_cost = known_cost.saturating_add(cost);
                }
                return;
            }
            let size = key.bytes.len();
            if passed.len() >= MAX_VALUES || KEPT.fetch_add(size, Ordering::Relaxed) > MAX_BYTES {
                return;
            }
            passed.insert(key.bytes.into_boxed_slice(), (rules, cost));
        }
    }
}

/// The bit of rule `index` in [`Passed`]'s sets (none past the 64th).
pub fn bit(index: usize) -> u64 {
    u32::try_from(index)
        .ok()
        .and_then(|index| 1u64.checked_shl(index))
        .unwrap_or(0)
}

/// A node's value encoded for [`Passed`]: the target minor, then the part
/// of the value read (tagged, lengths before contents).
pub struct Key {
    bytes: Vec<u8>,
}

/// Appends `node`'s encoding to `out`; false once `out` passes [`MAX_KEY`].
/// Each value is written with its tag and each text with its length, so
/// two different values never encode alike.
fn encode(node: &Node, out: &mut Vec<u8>) -> bool {
    encode_at(node, out, 0)
}

/// The deepest value encoded: a deeper one is not kept (its rules run).
const MAX_DEPTH: usize = 64;

fn encode_at(node: &Node, out: &mut Vec<u8>, depth: usize) -> bool {
    if out.len() > MAX_KEY || depth > MAX_DEPTH {
        return false;
    }
    match &node.value {
        Doc::Null => out.push(b'n'),
        Doc::Bool(flag) => out.extend_from_slice(&[b'b', u8::from(*flag)]),
        Doc::Int(integer) => {
            out.push(b'i');
            out.extend_from_slice(&integer.to_le_bytes());
        }
        Doc::Float(text) => text_of(b'f', text, out),
        Doc::String(text) => text_of(b's', text, out),
        Doc::Seq(items) => {
            out.push(b'l');
            out.extend_from_slice(&(items.len() as u64).to_le_bytes());
            for item in items {
                if !encode_at(item, out, depth + 1) {
                    return false;
                }
            }
        }
        Doc::Map(entries) => {
            out.push(b'm');
            out.extend_from_slice(&(entries.len() as u64).to_le_bytes());
            for entry in entries {
                text_of(b'k', &entry.key, out);
                if !encode_at(&entry.value, out, depth + 1) {
                    return false;
                }
            }
        }
    }
    out.len() <= MAX_KEY
}

fn text_of(tag: u8, text: &str, out: &mut Vec<u8>) {
    out.push(tag);
    out.extend_from_slice(&(text.len() as u64).to_le_bytes());
    out.extend_from_slice(text.as_bytes());
}

#[cfg(test)]
mod tests {
    use super::{bit, Key, Passed};
    use crate::document::parse;

    fn key(text: &str) -> Key {
        let parsed = parse(text);
        let root = &parsed.documents[0].root;
        Passed::default()
            .key(root, Some(crate::Version::new(1, 31)))
            .expect("small")
    }

    #[test]
    fn only_an_equal_value_finds_a_pass() {
        let passed = Passed::default();
        passed.record(key("{type: Exact, value: /a}"), bit(0) | bit(2), 7);
        assert_eq!(passed.lookup(&key("{type: Exact, value: /a}")), (0b101, 7));
        passed.record(key("{type: Exact, value: /a}"), bit(1), 3);
        assert_eq!(passed.lookup(&key("{type: Exact, value: /a}")), (0b111, 10));
        // A pass known already adds no cost.
        passed.record(key("{type: Exact, value: /a}"), bit(1), 3);
        assert_eq!(passed.lookup(&key("{type: Exact, value: /a}")), (0b111, 10));
        for other in [
            "{type: Exact, value: /b}",
            "{type: Exact}",
            "{type: Exact, value: /a, x: 1}",
            "{type: Exact, value: [/a]}",
            "{type: Exactvalue, '': /a}",
            "{type: '1', value: /a}",
        ] {
            assert_eq!(passed.lookup(&key(other)), (0, 0), "{other}");
        }
        // Nor has the rule passed at another minor.
        let parsed = parse("{type: Exact, value: /a}");
        let at_30 =
            Passed::default().key(&parsed.documents[0].root, Some(crate::Version::new(1, 30)));
        assert_eq!(passed.lookup(&at_30.unwrap()), (0, 0));
        // A large value is not kept; rules past the 64th have no bit.
        let large = format!("{{value: {}}}", "a".repeat(600));
        assert!(Passed::default()
            .key(&parse(&large).documents[0].root, None)
            .is_none());
        assert_eq!(bit(63), 1 << 63);
        assert_eq!(bit(64), 0);
    }
}
