//! `metadata.finalizers` and `metadata.ownerReferences` as apimachinery's
//! `ValidateFinalizers` and `ValidateOwnerReferences` check them on
//! create, with core validation's `validateKubeFinalizerName` where the
//! kind's validation calls it, and apiextensions' finalizer warnings for
//! custom resources. Go writes these paths without an index
//! (`metadata.ownerReferences.uid`), save the kube finalizer check's.

use super::kinds::Meta;
use super::{error, invalid, warning};
use crate::document::{Entry, Node, Value};
use crate::preflight::names::{self, Words};
use crate::preflight::violation::Violation;
use crate::walk::go_quoted;

/// Finalizers that need no domain (`helper.IsStandardFinalizerName`).
const STANDARD: &[&str] = &["kubernetes", "orphan", "foregroundDeletion"];

/// The finalizers' violations: each a qualified name; without a `/`, a
/// standard one (an error where `meta` is core's, a warning for a custom
/// resource); not both `orphan` and `foregroundDeletion`.
pub(super) fn finalizers(
    list: &Node,
    meta: Meta,
    custom: bool,
    words: Words,
    out: &mut Vec<Violation>,
) {
    let Value::Seq(items) = &list.value else {
        return;
    };
    let texts: Vec<(&str, u32)> = items
        .iter()
        .filter_map(|item| item.as_str().map(|text| (text, item.line)))
        .collect();
    for (index, &(text, line)) in texts.iter().enumerate() {
        for message in names::qualified_name_in(text, words) {
            out.push(invalid("metadata.finalizers", line, text, &message));
        }
        if text.contains('/') || STANDARD.contains(&text) {
            continue;
        }
        if meta == Meta::Core {
            out.push(invalid(
                &format!("metadata.finalizers[{index}]"),
                line,
                text,
                "name is neither a standard finalizer name nor is it fully qualified",
            ));
        } else if custom {
            let path = if text.contains('.') {
                " including a path (/)"
            } else {
                ""
            };
            out.push(warning(
                "metadata.finalizers",
                line,
                format!(
                    "{}: prefer a domain-qualified finalizer name{path} to avoid accidental conflicts with other finalizer writers",
                    go_quoted(text)
                ),
            ));
        }
    }
    let has = |name: &str| texts.iter().any(|(text, _)| *text == name);
    if has("orphan") && has("foregroundDeletion") {
        let all: Vec<String> = texts.iter().map(|(text, _)| go_quoted(text)).collect();
        out.push(error(
            "metadata.finalizers",
            list.line,
            format!(
                "Invalid value: [{}]: finalizer orphan and foregroundDeletion cannot be both set",
                all.join(",")
            ),
        ));
    }
}

/// One owner reference's fields, empty when missing or not a string.
struct Owner<'n> {
    api_version: &'n str,
    kind: &'n str,
    name: &'n str,
    uid: &'n str,
    controller: Option<bool>,
    block: Option<bool>,
    line: u32,
}

impl<'n> Owner<'n> {
    fn read(node: &'n Node) -> Option<Owner<'n>> {
        let entries = node.as_map()?;
        let text = |key: &str| {
            find(entries, key)
                .and_then(|entry| entry.value.as_str())
                .unwrap_or("")
        };
        let flag = |key: &str| match find(entries, key).map(|entry| &entry.value.value) {
            Some(Value::Bool(flag)) => Some(*flag),
            _ => None,
        };
        Some(Owner {
            api_version: text("apiVersion"),
            kind: text("kind"),
            name: text("name"),
            uid: text("uid"),
            controller: flag("controller"),
            block: flag("blockOwnerDeletion"),
            line: node.line,
        })
    }

    /// The reference as Go's JSON writes an `OwnerReference`.
    fn json(&self) -> String {
        let mut text = format!(
            "{{\"apiVersion\":{},\"kind\":{},\"name\":{},\"uid\":{}",
            go_quoted(self.api_version),
            go_quoted(self.kind),
            go_quoted(self.name),
            go_quoted(self.uid)
        );
        for (key, flag) in [
            ("controller", self.controller),
            ("blockOwnerDeletion", self.block),
        ] {
            if let Some(flag) = flag {
                text.push_str(&format!(",\"{key}\":{flag}"));
            }
        }
        text.push('}');
        text
    }

    /// `schema.FromAPIVersionAndKind`'s version: empty for `""`, `"/"`,
    /// `"group/"` and more than one slash (which does not parse); else
    /// the one apiVersion split's.
    fn version(&self) -> &str {
        if self.api_version.matches('/').count() > 1 {
            return "";
        }
        crate::gates::GroupVersionKind::split_api_version(self.api_version).1
    }
}

/// The owner references' violations (`ValidateOwnerReferences`).
pub(super) fn owner_references(list: &Node, out: &mut Vec<Violation>) {
    let Value::Seq(items) = &list.value else {
        return;
    };
    let owners: Vec<Owner> = items.iter().filter_map(Owner::read).collect();
    let mut first_controller: Option<String> = None;
    for owner in &owners {
        let empty = [
            (
                "apiVersion",
                owner.version().is_empty(),
                owner.api_version,
                "version must not be empty",
            ),
            (
                "kind",
                owner.kind.is_empty(),
                owner.kind,
                "must not be empty",
            ),
            (
                "name",
                owner.name.is_empty(),
                owner.name,
                "must not be empty",
            ),
            ("uid", owner.uid.is_empty(), owner.uid, "must not be empty"),
        ];
        for (field, is_empty, value, message) in empty {
            if is_empty {
                out.push(invalid(
                    &format!("metadata.ownerReferences.{field}"),
                    owner.line,
                    value,
                    message,
                ));
            }
        }
        // BannedOwners: a core/v1 Event may not own anything.
        if owner.api_version == "v1" && owner.kind == "Event" {
            out.push(error(
                "metadata.ownerReferences",
                owner.line,
                format!(
                    "Invalid value: {}: /v1, Kind=Event is disallowed from being an owner",
                    owner.json()
                ),
            ));
        }
        if owner.controller == Some(true) {
            let current = format!("{}/{}", owner.kind, owner.name);
            match &first_controller {
                Some(first) => {
                    let all: Vec<String> = owners.iter().map(Owner::json).collect();
                    out.push(error(
                        "metadata.ownerReferences",
                        owner.line,
                        format!(
                            "Invalid value: [{}]: Only one reference can have Controller set to true. Found \"true\" in references for {first} and {current}",
                            all.join(",")
                        ),
                    ));
                }
                None => first_controller = Some(current),
            }
        }
    }
}

fn find<'n>(entries: &'n [Entry], key: &str) -> Option<&'n Entry> {
    entries.iter().find(|entry| entry.key == key)
}

#[cfg(test)]
mod tests {
    use super::Owner;

    /// `schema.ParseGroupVersion` as `FromAPIVersionAndKind` reads it: the
    /// one split for none or one slash, no version past that.
    #[test]
    fn an_owners_version_is_the_one_splits_up_to_one_slash() {
        let version = |api_version| {
            let owner = Owner {
                api_version,
                kind: "",
                name: "",
                uid: "",
                controller: None,
                block: None,
                line: 1,
            };
            owner.version().to_owned()
        };
        assert_eq!(version("apps/v1"), "v1");
        assert_eq!(version("v1"), "v1");
        assert_eq!(version("apps/"), "");
        assert_eq!(version("/"), "");
        assert_eq!(version(""), "");
        assert_eq!(version("a/b/v1"), "");
    }
}
