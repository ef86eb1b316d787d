//! The pod's and its containers' checks (core `ValidatePodSpec` and what
//! it calls).

use super::read::{get, line_of};
use super::{Broken, Scope, Table};
use crate::document::{Entry, Node, Value};

/// The checks, by the definition of the object they read.
pub(super) const CHECKS: Table = &[
    // core validateContainerCommon.
    ("io.k8s.api.core.v1.Container", image_required),
    ("io.k8s.api.core.v1.EphemeralContainer", image_required),
    // core validateSeccompProfileField.
    ("io.k8s.api.core.v1.SeccompProfile", localhost_profile),
];

/// A container names its image.
fn image_required(_: &Scope, entries: &[Entry], line: u32, out: &mut Vec<Broken>) {
    let image = get(entries, "image");
    let empty = match image.map(|node| &node.value) {
        None => true,
        Some(Value::String(text)) => text.is_empty(),
        // Another type is the walk's `wrong-type`.
        Some(_) => false,
    };
    if empty {
        out.push(Broken {
            last: "image".to_owned(),
            line: line_of(entries, "image", line),
            message: "Required value".to_owned(),
        });
    }
}

/// A `Localhost` seccomp profile names its `localhostProfile`.
fn localhost_profile(_: &Scope, entries: &[Entry], line: u32, out: &mut Vec<Broken>) {
    let localhost = get(entries, "type").and_then(Node::as_str) == Some("Localhost");
    if localhost && get(entries, "localhostProfile").is_none() {
        out.push(Broken {
            last: "localhostProfile".to_owned(),
            line,
            message: "Required value: must be set when seccomp type is Localhost".to_owned(),
        });
    }
}
