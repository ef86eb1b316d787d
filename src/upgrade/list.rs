//! A Kubernetes `v1` `List` (what `kubectl get -o yaml` prints): each item
//! converted as a document of its own, as `check` reads each item
//! (`preflight::check`), with paths below `items[i]`.
//!
//! A typed list (`FlowSchemaList`, any kind named `…List` with `items`) is
//! converted as its type says, and its items with it. An item that names
//! its own `apiVersion` and `kind` is what kubectl applies under those
//! names (apimachinery gives the list's apiVersion only to items that name
//! neither), so such an item is converted again as a document of its own:
//! otherwise the list would move on and the item keep an apiVersion the
//! target no longer serves.

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

/// Converts again, each as a document, the items of the typed list `root`
/// (converted into `document`) that name their own `apiVersion` and
/// `kind`; their changes join `changes` under `items[i]`. Nothing happens
/// for a document that is not a typed list.
pub(super) fn convert_own_items(
    tables: &GateTables,
    identity: &Identity,
    root: &Node,
    document: &mut Node,
    changes: &mut Vec<Change>,
    from: Version,
    to: Version,
) -> Result<(), DocumentError> {
    if !identity.kind.ends_with("List") {
        return Ok(());
    }
    let Some(Value::Seq(items)) = root.get("items").map(|node| &node.value) else {
        return Ok(());
    };
    let Some(Value::Seq(converted)) = document.get_mut("items").map(|node| &mut node.value) else {
        return Ok(());
    };
    // Only the items before a refusal left the converted list unchanged in
    // length: an item is matched to its conversion by index.
    if converted.len() != items.len() {
        return Ok(());
    }
    for (index, item) in items.iter().enumerate() {
        let names_itself = ["apiVersion", "kind"].iter().all(|key| {
            matches!(
                item.get(key).map(|node| &node.value),
                Some(Value::String(_))
            )
        });
        if !names_itself {
            continue;
        }
        let conversion = convert(tables, item, Some(from), to).map_err(|err| DocumentError {
            line: err.line,
            message: format!("items[{index}]: {}", err.message),
        })?;
        // The list's own conversion already reported this item's fields as
        // those of its type: its changes are the item's now.
        let prefix = format!("items[{index}]");
        let below = format!("{prefix}.");
        changes.retain(|change| change.path != prefix && !change.path.starts_with(&below));
        changes.extend(conversion.changes.into_iter().map(|change| Change {
            path: if change.path.is_empty() {
                prefix.clone()
            } else {
                format!("{prefix}.{}", change.path)
            },
            ..change
        }));
        converted[index] = conversion.document;
    }
    Ok(())
}
