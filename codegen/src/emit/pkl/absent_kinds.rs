//! Kinds that explain their absence: in a minor that does not serve a kind
//! other minors serve (or the API served before the corpus' first minor),
//! pkl-k8s's path of that kind is a module that fails on use with the
//! API server's words: `flowcontrol.apiserver.k8s.io/v1beta2 FlowSchema is
//! not served in 1.30 (removed in 1.29); use flowcontrol.apiserver.k8s.io/v1
//! FlowSchema`, or `… (introduced in 1.33)` for a kind that comes later.
//! The module extends `K8sResource.pkl` and fixes `apiVersion` to that
//! error, which every rendering reads first; `metadata`, `spec`, `status`
//! and `data` are open (`Dynamic`), so the user's own lines never fail
//! before it.

use super::definition_modules::MinorLayout;
use super::escape::pkl_string;
use super::paths::{pkl_k8s_path, relative_path};
use crate::model::GatedModel;
use std::collections::BTreeMap;
use vergate_core::gates::{api_lifecycle_in, GroupVersionKind};
use vergate_core::Version;

/// One absent kind: pkl-k8s's module path (without `.pkl`), the kind, and
/// the message a use of it fails with.
pub struct AbsentKind {
    pub path: String,
    pub kind: GroupVersionKind,
    pub message: String,
}

/// The kinds `version` does not serve that another minor, or the API before
/// the corpus, does; one per pkl-k8s path no module of the minor has.
pub fn absent_kinds(model: &GatedModel, version: Version, layout: &MinorLayout) -> Vec<AbsentKind> {
    let taken = |path: &str| {
        layout.resources.contains_key(path)
            || layout.type_modules.contains_key(path)
            || layout.object_modules.contains_key(path)
            || layout
                .resources
                .values()
                .any(|resource| resource.short.as_deref() == Some(path))
    };
    // Where pkl-k8s puts each group's modules, learned from the
    // definitions: `apiextensions.k8s.io` → `apiextensions-apiserver/pkg/apis/apiextensions`.
    let mut group_dirs: BTreeMap<&str, String> = BTreeMap::new();
    let mut found: BTreeMap<String, AbsentKind> = BTreeMap::new();
    for (name, ty) in &model.types {
        let [kind] = ty.kinds.iter().collect::<Vec<_>>()[..] else {
            continue;
        };
        let Some(path) = pkl_k8s_path(name) else {
            continue;
        };
        if let Some((dir, _)) = path
            .rsplit_once('/')
            .and_then(|(dir, _)| dir.rsplit_once('/'))
        {
            group_dirs
                .entry(kind.group.as_str())
                .or_insert_with(|| dir.to_owned());
        }
        let presence = &ty.lifecycle.presence;
        if presence.contains(version) || presence.first().is_none() || taken(&path) {
            continue;
        }
        let reason = match presence.iter().rfind(|v| *v < version) {
            Some(last) => {
                let removed = model.versions.iter().find(|v| **v > last).copied();
                removed.map(|removed| format!("removed in {removed}"))
            }
            None => presence
                .first()
                .map(|first| format!("introduced in {first}")),
        };
        let stated =
            api_lifecycle_in(&ty.api_lifecycle, version).and_then(|said| said.replacement.clone());
        let replacement = served_instead(layout, kind, stated.as_ref())
            .filter(|_| reason.as_deref().is_some_and(|r| r.starts_with("removed")));
        found.insert(
            path.clone(),
            AbsentKind {
                path,
                message: message(kind, version, reason.as_deref(), replacement.as_ref()),
                kind: kind.clone(),
            },
        );
    }
    for retired in &model.retired_kinds {
        let kind = &retired.kind;
        let dir = group_dirs
            .get(kind.group.as_str())
            .cloned()
            .unwrap_or_else(|| {
                let short = kind.group.split('.').next().unwrap_or("core");
                format!("api/{}", if short.is_empty() { "core" } else { short })
            });
        let path = format!("{dir}/{}/{}", kind.version, kind.kind);
        if taken(&path) || found.contains_key(&path) {
            continue;
        }
        let reason = retired
            .lifecycle
            .removed
            .map(|removed| format!("removed in {removed}"));
        found.insert(
            path.clone(),
            AbsentKind {
                path,
                message: message(
                    kind,
                    version,
                    reason.as_deref(),
                    served_instead(layout, kind, retired.lifecycle.replacement.as_ref()).as_ref(),
                ),
                kind: kind.clone(),
            },
        );
    }
    found.into_values().collect()
}

/// The kind to use instead in the minor of `layout`: the preferred served
/// version there of the stated replacement's kind (flowcontrol's v1beta2
/// names v1beta3, itself deprecated for v1), else the stated replacement
/// when the minor serves it.
fn served_instead(
    layout: &MinorLayout,
    kind: &GroupVersionKind,
    stated: Option<&GroupVersionKind>,
) -> Option<GroupVersionKind> {
    let target = stated.unwrap_or(kind);
    let preferred = layout.resources.values().find(|resource| {
        resource.preferred
            && resource.kind.group == target.group
            && resource.kind.kind == target.kind
    });
    match preferred {
        Some(resource) => Some(resource.kind.clone()),
        None => stated
            .filter(|stated| layout.resources.values().any(|r| r.kind == *stated))
            .cloned(),
    }
}

/// `<apiVersion> <Kind> is not served in <minor> (<reason>); use <apiVersion> <Kind>`.
fn message(
    kind: &GroupVersionKind,
    version: Version,
    reason: Option<&str>,
    replacement: Option<&GroupVersionKind>,
) -> String {
    let mut message = format!(
        "{} {} is not served in {version}",
        kind.api_version(),
        kind.kind
    );
    if let Some(reason) = reason {
        message.push_str(&format!(" ({reason})"));
    }
    if let Some(replacement) = replacement {
        message.push_str(&format!(
            "; use {} {}",
            replacement.api_version(),
            replacement.kind
        ));
    }
    message
}

/// The module text of one absent kind in `package`'s minor `version`.
pub fn module_text(api: &str, name: &str, absent: &AbsentKind) -> Vec<u8> {
    format!(
        "// Generated by `cargo xtask regen` from upstream-specs/{api}; do not edit.\n\
         /// {}.\n\
         open module {name}\n\n\
         extends {}\n\n\
         local const message = {}\n\n\
         fixed apiVersion: String = throw(message)\n\n\
         fixed kind: String = {}\n\n\
         metadata: Dynamic?\n\n\
         spec: Dynamic?\n\n\
         status: Dynamic?\n\n\
         data: Dynamic?\n",
        absent.message,
        pkl_string(&relative_path(&absent.path, super::paths::K8S_RESOURCE)),
        pkl_string(&absent.message),
        pkl_string(&absent.kind.kind),
    )
    .into_bytes()
}
