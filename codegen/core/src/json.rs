//! A JSON value ([`Value`]) whose text is serde_json's, byte for byte: the
//! JSON model of the code generator's JSON Schema converter, which the
//! derive macro runs at compile time.
//!
//! - [`Value`]'s `Display` writes compact text as serde_json's
//!   `Value::to_string` does: object keys sorted by their bytes, strings
//!   escaped as serde_json escapes them ([`push_string`]), floats written by
//!   zmij, serde_json's own formatter;
//! - [`parse`] reads a text into the value serde_json's `from_str::<Value>`
//!   reads (`-0` is `-0.0`, `1e2` the float `100.0`), and refuses what it
//!   refuses, nesting deeper than its limit ([`MAX_DEPTH`]) included; it
//!   never panics, whatever the text;
//! - [`to_value`] is serde's serialization into a value, as
//!   serde_json's `to_value` makes it (the gates of `x-vergate` are
//!   [`crate::gates`]' types serialized so, as in gates.json).
//!
//! Why not serde_json itself: it depends on memchr unconditionally, and the
//! proc macro would bring both into every plugin crate's build. Why not
//! miniserde (dtolnay's small serde without memchr, whose compact writer
//! and float formatter are serde_json's): its value has no equality, which
//! the converter's null and enum rules compare values with, no way in from
//! serde, which the gate keyword needs, reads `-0` as `0`, and accepts any
//! nesting where serde_json stops; matching serde_json would have meant a
//! layer over it as large as this module.
//!
//! Floats are read correctly rounded (Rust's own reader), as serde_json
//! reads them with its `float_roundtrip` feature; its default reader rounds
//! twice, and may end one unit in the last place away, where a number has
//! more than 15 significant digits or a power of ten past 1e22 (the specs'
//! bounds, shortest forms such as `0.5`, read the same either way).

mod map_key;
mod number;
mod parse;
mod to_value;
mod value;
mod write;

pub use number::Number;
pub use parse::{parse, MAX_DEPTH};
pub use to_value::{to_value, Error};
pub use value::{Object, Value};
pub use write::push_string;
