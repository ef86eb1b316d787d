//! A union that is its own member through other unions (`A: oneOf [B, …]`,
//! `B: oneOf [A, …]`) describes no value: decoding it would go round
//! forever. The loader refuses it, naming the cycle, as it refuses a cycle
//! of plain references.

use crate::error::{Error, Result};
use crate::model::{MinorModel, Schema};
use std::collections::BTreeSet;

/// Fails on the first union that reaches itself through union members
/// (and definitions that are only a reference).
pub fn check_union_cycles(model: &MinorModel) -> Result<()> {
    for start in model.definitions.values().filter(|d| d.union().is_some()) {
        // Depth-first over union members, each definition visited once, so
        // the work is bounded by the number of definitions.
        let mut stack = vec![(start.name.as_str(), vec![start.name.as_str()])];
        let mut visited = BTreeSet::new();
        while let Some((name, path)) = stack.pop() {
            let Some(definition) = model.definitions.get(name) else {
                continue;
            };
            let next: Vec<&str> = match &definition.schema {
                Schema::Union(union) => union
                    .members
                    .iter()
                    .filter_map(|member| match member {
                        Schema::Ref(target) => Some(target.as_str()),
                        _ => None,
                    })
                    .collect(),
                Schema::Ref(target) => vec![target.as_str()],
                _ => Vec::new(),
            };
            for target in next {
                if target == start.name {
                    return Err(Error::Spec {
                        path: start.source.path.clone(),
                        pointer: start.source.pointer.clone(),
                        message: format!(
                            "union {:?} is a member of itself ({} → {target}) with no object between: no value could be decoded; put an object between or remove the member",
                            start.name,
                            path.join(" → ")
                        ),
                    });
                }
                if visited.insert(target) {
                    let mut longer = path.clone();
                    longer.push(target);
                    stack.push((target, longer));
                }
            }
        }
    }
    Ok(())
}
