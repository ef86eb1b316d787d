//! A Kubernetes `v1` `List` (what `kubectl get -o yaml` prints): each item
//! converted as a document of its own, as `check` reads each item
//! (`preflight::check`), with paths below `items[i]`.

use super::{convert, Change, Conversion};
use crate::document::{Node, Value};
use crate::preflight::{DocumentError, Identity};
use crate::tables::GateTables;
use crate::Version;

/// The items of `root` when it is a `v1` `List` of no known type, the
/// test `check` applies.
pub(super) fn items<'n>(identity: &Identity, root: &'n Node) -> Option<&'n [Node]> {
    if identity.type_name.is_some() || identity.api_version != "v1" || identity.kind != "List" {
        return None;
    }
    match root.get("items").map(|node| &node.value) {
        Some(Value::Seq(items)) => Some(items),
        _ => None,
    }
}

/// Converts each item of a list; the list is refused when an item is
/// (its error named `items[i]: …`). The conversion's `from` is the newest
/// of its items' (`to` for an empty list), so a plain upgrade refuses a
/// list holding an item written for a newer minor.
pub(super) fn convert_items(
    tables: &GateTables,
    root: &Node,
    items: &[Node],
    from: Option<Version>,
    to: Version,
) -> Result<Conversion, DocumentError> {
    let mut converted = Vec::with_capacity(items.len());
    let mut changes = Vec::new();
    let mut newest_from: Option<Version> = None;
    for (index, item) in items.iter().enumerate() {
        let conversion = convert(tables, item, from, to).map_err(|err| DocumentError {
            line: err.line,
            message: format!("items[{index}]: {}", err.message),
        })?;
        newest_from = Some(newest_from.map_or(conversion.from, |f| f.max(conversion.from)));
        changes.extend(conversion.changes.into_iter().map(|change| Change {
            path: if change.path.is_empty() {
                format!("items[{index}]")
            } else {
                format!("items[{index}].{}", change.path)
            },
            ..change
        }));
        converted.push(conversion.document);
    }
    let mut document = root.clone();
    if let Some(node) = document.get_mut("items") {
        node.value = Value::Seq(converted);
    }
    changes.sort_by_key(|change| change.line);
    Ok(Conversion {
        from: newest_from.or(from).unwrap_or(to),
        to,
        document,
        changes,
    })
}
