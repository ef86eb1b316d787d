//! Where each kind is served: its plural (the URL path segment) and whether
//! it lives in a namespace, read from the spec's `paths` as k8s-openapi does.
//! Kubernetes marks each operation with `x-kubernetes-group-version-kind`;
//! the collection path of a kind is
//! `/api/v1/pods`, `/apis/<group>/<version>/<plural>`, or the same under
//! `namespaces/{namespace}/` for a namespaced kind. Item paths (`/{name}`)
//! agree; subresources (`/{name}/status`) and watch paths are not the kind's
//! own and are skipped.
//!
//! A Kubernetes-style API whose spec lacks the extension (an aggregated API
//! server's, KubeVirt's) still says which types are kinds: the request body
//! of a collection's POST (create) and of an item's PUT (replace) is the
//! kind served there, in the group and version of the path. [`kinds_of`]
//! reads those; `load::build_minor` checks each body's definition
//! ([`not_a_kind`]) and marks it. Where an operation of the path has the
//! extension, the extension is the answer and the body is not read.

use crate::model::ResourcePath;
use serde::de::IgnoredAny;
use serde::{Deserialize, Deserializer};
use std::collections::BTreeMap;
use vergate_core::gates::GroupVersionKind;

/// The operations of one path item, as far as they name a kind.
#[derive(Deserialize, Default)]
pub(super) struct PathItem {
    get: Option<Operation>,
    post: Option<Operation>,
    put: Option<Operation>,
    patch: Option<Operation>,
    delete: Option<Operation>,
}

#[derive(Deserialize)]
struct Operation {
    #[serde(rename = "x-kubernetes-group-version-kind")]
    gvk: Option<Gvk>,
    /// Kubernetes' verb (`post`, `put`, `connect`, …), when given.
    #[serde(rename = "x-kubernetes-action", default)]
    action: Lenient<String>,
    /// OpenAPI 2's parameters, one of them `in: body`.
    #[serde(default)]
    parameters: Lenient<Vec<Lenient<Parameter>>>,
    /// OpenAPI 3's body.
    #[serde(rename = "requestBody", default)]
    request_body: Lenient<RequestBody>,
}

#[derive(Deserialize)]
struct Gvk {
    #[serde(default)]
    group: String,
    version: String,
    kind: String,
}

#[derive(Deserialize)]
struct Parameter {
    #[serde(rename = "in", default)]
    location: Lenient<String>,
    #[serde(default)]
    schema: Lenient<SchemaRef>,
}

#[derive(Deserialize)]
struct RequestBody {
    #[serde(default)]
    content: Lenient<BTreeMap<String, Lenient<MediaType>>>,
}

#[derive(Deserialize)]
struct MediaType {
    #[serde(default)]
    schema: Lenient<SchemaRef>,
}

#[derive(Deserialize)]
struct SchemaRef {
    #[serde(rename = "$ref", default)]
    reference: Lenient<String>,
}

/// A value read when it has the expected shape and skipped (as `None`)
/// otherwise: the parts of `paths` read only to find kinds must not make a
/// spec unreadable that vergate read before, whatever they hold.
pub(super) struct Lenient<T>(Option<T>);

impl<T> Default for Lenient<T> {
    fn default() -> Self {
        Lenient(None)
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Lenient<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Either<T> {
            Read(T),
            Skipped(IgnoredAny),
        }
        Ok(Lenient(match Either::deserialize(deserializer)? {
            Either::Read(value) => Some(value),
            Either::Skipped(_) => None,
        }))
    }
}

impl Operation {
    /// The definition its request body refers to (`#/definitions/<name>` or
    /// `#/components/schemas/<name>`).
    fn body_definition(&self) -> Option<String> {
        let from_parameters = self.parameters.0.iter().flatten().find_map(|parameter| {
            let parameter = parameter.0.as_ref()?;
            (parameter.location.0.as_deref() == Some("body"))
                .then(|| parameter.schema.0.as_ref()?.reference.0.clone())
                .flatten()
        });
        let from_body = || {
            let content = self.request_body.0.as_ref()?.content.0.as_ref()?;
            // `application/json` first, then any other media type.
            let json = content.get("application/json").into_iter();
            json.chain(content.values())
                .find_map(|media| media.0.as_ref()?.schema.0.as_ref()?.reference.0.clone())
        };
        let reference = from_parameters.or_else(from_body)?;
        let name = reference
            .strip_prefix("#/definitions/")
            .or_else(|| reference.strip_prefix("#/components/schemas/"))?;
        (!name.is_empty() && !name.contains('/'))
            .then(|| vergate_core::json_pointer::unescape(name).into_owned())
    }
}

/// The resource path of every kind `paths` serves. A namespaced kind is
/// also listed across namespaces (`/apis/apps/v1/deployments`): any path
/// under `namespaces/{namespace}/` makes it namespaced. Of two plurals, the
/// first in path order is kept.
pub(super) fn resources_of(
    paths: &BTreeMap<String, PathItem>,
) -> BTreeMap<GroupVersionKind, ResourcePath> {
    let mut out = BTreeMap::new();
    for (path, item) in paths {
        let Some(gvk) = item.gvk() else {
            continue;
        };
        let Some(resource) = resource_path(path, &gvk.group, &gvk.version) else {
            continue;
        };
        let known = out
            .entry(GroupVersionKind {
                group: gvk.group.clone(),
                version: gvk.version.clone(),
                kind: gvk.kind.clone(),
            })
            .or_insert_with(|| resource.clone());
        known.namespaced |= resource.namespaced;
    }
    out
}

impl PathItem {
    fn operations(&self) -> [&Option<Operation>; 5] {
        [&self.get, &self.post, &self.put, &self.patch, &self.delete]
    }

    /// The kind the first operation with the extension names.
    fn gvk(&self) -> Option<&Gvk> {
        self.operations()
            .into_iter()
            .flatten()
            .find_map(|operation| operation.gvk.as_ref())
    }
}

/// A kind told by a path alone: the definition a collection's POST or an
/// item's PUT takes as its body, served in the path's group and version.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathKind {
    /// The body's definition name.
    pub definition: String,
    pub group: String,
    pub version: String,
    pub resource: ResourcePath,
    /// The JSON pointer of the first operation that told it
    /// (`/paths/~1apis~1…/post`), for messages.
    pub pointer: String,
}

/// The kinds `paths` tells by request bodies alone, in path order, one per
/// definition, group and version (a namespaced kind's paths agree on its
/// scope as in [`resources_of`]). Paths with the extension are left to it.
pub(super) fn kinds_of(paths: &BTreeMap<String, PathItem>) -> Vec<PathKind> {
    let mut out: Vec<PathKind> = Vec::new();
    for (path, item) in paths {
        if item.gvk().is_some() {
            continue;
        }
        let Some(served) = served(path) else {
            continue;
        };
        // Create on the collection, replace on the item.
        let (operation, verb) = if served.item {
            (&item.put, "put")
        } else {
            (&item.post, "post")
        };
        let Some(operation) = operation else {
            continue;
        };
        if operation
            .action
            .0
            .as_deref()
            .is_some_and(|action| action != verb)
        {
            continue;
        }
        let Some(definition) = operation.body_definition() else {
            continue;
        };
        let known = out.iter_mut().find(|kind| {
            kind.definition == definition
                && kind.group == served.group
                && kind.version == served.version
        });
        match known {
            Some(known) => known.resource.namespaced |= served.resource.namespaced,
            None => out.push(PathKind {
                definition,
                group: served.group.to_owned(),
                version: served.version.to_owned(),
                resource: served.resource,
                pointer: format!("/paths/{}/{verb}", vergate_core::json_pointer::escape(path)),
            }),
        }
    }
    out
}

/// Why the definition a path's body names is no kind, if it is not: a
/// Kubernetes object has `apiVersion` and `kind`; a list (`<Kind>List` with
/// `items`) is what a collection answers with, never a kind of its own; the
/// options of a delete (`DeleteOptions`) are a request, not an object.
pub(super) fn not_a_kind(
    short_name: &str,
    properties: Option<&BTreeMap<String, crate::model::Property>>,
) -> Option<&'static str> {
    let Some(properties) = properties else {
        return Some("it is not an object");
    };
    if !properties.contains_key("apiVersion") || !properties.contains_key("kind") {
        return Some("it has no `apiVersion` and `kind`, which every Kubernetes object has");
    }
    if short_name.ends_with("List") && properties.contains_key("items") {
        return Some("it is a list (`items`), what a collection answers with");
    }
    if short_name == "DeleteOptions" {
        return Some("it is the options of a delete, not an object");
    }
    None
}

/// A collection or item path of the Kubernetes shape.
struct Served<'p> {
    group: &'p str,
    version: &'p str,
    resource: ResourcePath,
    /// True for `…/{plural}/{name}`.
    item: bool,
}

/// The group, version and the rest of a path under `/api/<version>/`
/// (the core group, `""`) or `/apis/<group>/<version>/`.
fn split(path: &str) -> Option<(&str, &str, Vec<&str>)> {
    let mut segments = path.strip_prefix('/')?.split('/');
    let (group, version) = match segments.next()? {
        "api" => ("", segments.next()?),
        "apis" => (segments.next()?, segments.next()?),
        _ => return None,
    };
    Some((group, version, segments.collect()))
}

/// The plural, scope and whether it is an item path, of the rest of a
/// collection or item path; `None` for a subresource, a watch or another
/// shape.
fn own(rest: &[&str]) -> Option<(ResourcePath, bool)> {
    let plural = |segments: &[&str]| match segments {
        [plural] if !plural.is_empty() && !plural.starts_with('{') => {
            Some(((*plural).to_owned(), false))
        }
        [plural, "{name}"] if !plural.is_empty() && !plural.starts_with('{') => {
            Some(((*plural).to_owned(), true))
        }
        _ => None,
    };
    let (plural, namespaced, item) = match rest {
        ["namespaces", "{namespace}", tail @ ..] => {
            let (plural, item) = plural(tail)?;
            (plural, true, item)
        }
        ["watch", ..] => return None,
        segments => {
            let (plural, item) = plural(segments)?;
            (plural, false, item)
        }
    };
    Some((ResourcePath { plural, namespaced }, item))
}

/// The path's group, version, plural and scope when it is a collection or
/// item path whose group and version are literal (`/apis/{group}/…` is not).
fn served(path: &str) -> Option<Served<'_>> {
    let (group, version, rest) = split(path)?;
    let literal = |segment: &str| !segment.is_empty() && !segment.contains(['{', '}']);
    if !literal(version)
        || !(group.is_empty() || literal(group))
        || !crate::model::naming::is_api_version(version)
    {
        return None;
    }
    let (resource, item) = own(&rest)?;
    Some(Served {
        group,
        version,
        resource,
        item,
    })
}

/// The plural and scope a collection or item path gives, or `None` for a
/// path of another shape (a subresource, a watch, another group's prefix).
fn resource_path(path: &str, group: &str, version: &str) -> Option<ResourcePath> {
    let (path_group, path_version, rest) = split(path)?;
    if path_group != group || path_version != version {
        return None;
    }
    own(&rest).map(|(resource, _)| resource)
}

#[cfg(test)]
mod tests {
    use super::resource_path;

    fn read(path: &str, group: &str) -> Option<(String, bool)> {
        resource_path(path, group, "v1").map(|r| (r.plural, r.namespaced))
    }

    #[test]
    fn collections_and_items_give_the_plural_and_scope() {
        let pods = Some(("pods".to_owned(), true));
        assert_eq!(read("/api/v1/namespaces/{namespace}/pods", ""), pods);
        assert_eq!(read("/api/v1/namespaces/{namespace}/pods/{name}", ""), pods);
        let namespaces = Some(("namespaces".to_owned(), false));
        assert_eq!(read("/api/v1/namespaces", ""), namespaces);
        assert_eq!(read("/api/v1/namespaces/{name}", ""), namespaces);
        assert_eq!(
            read("/apis/apps/v1/namespaces/{namespace}/deployments", "apps"),
            Some(("deployments".to_owned(), true))
        );
        assert_eq!(
            read(
                "/apis/rbac.authorization.k8s.io/v1/clusterroles/{name}",
                "rbac.authorization.k8s.io"
            ),
            Some(("clusterroles".to_owned(), false))
        );
    }

    #[test]
    fn subresources_watches_and_other_prefixes_give_nothing() {
        assert_eq!(
            read("/api/v1/namespaces/{namespace}/pods/{name}/status", ""),
            None
        );
        assert_eq!(read("/api/v1/namespaces/{name}/finalize", ""), None);
        assert_eq!(read("/api/v1/watch/namespaces/{namespace}/pods", ""), None);
        assert_eq!(read("/apis/apps/v1/deployments", ""), None);
        assert_eq!(read("/api/v1/{name}", ""), None);
    }
}

#[cfg(test)]
mod path_kinds {
    use super::{kinds_of, PathItem};
    use std::collections::BTreeMap;

    fn kinds(paths: serde_json::Value) -> Vec<(String, String, String, String, bool)> {
        let paths: BTreeMap<String, PathItem> = serde_json::from_value(paths).unwrap();
        kinds_of(&paths)
            .into_iter()
            .map(|kind| {
                (
                    kind.definition,
                    kind.group,
                    kind.version,
                    kind.resource.plural,
                    kind.resource.namespaced,
                )
            })
            .collect()
    }

    fn body(reference: &str) -> serde_json::Value {
        serde_json::json!({"parameters": [
            {"name": "body", "in": "body", "schema": {"$ref": reference}},
            {"$ref": "#/parameters/namespace"}
        ]})
    }

    #[test]
    fn collection_posts_and_item_puts_name_their_body_as_a_kind() {
        let found = kinds(serde_json::json!({
            "/apis/kubevirt.io/v1/namespaces/{namespace}/virtualmachines": {
                "post": body("#/definitions/v1.VirtualMachine")
            },
            "/apis/kubevirt.io/v1/namespaces/{namespace}/virtualmachines/{name}": {
                "put": body("#/definitions/v1.VirtualMachine")
            },
            "/apis/migrations.kubevirt.io/v1alpha1/migrationpolicies/{name}": {
                "put": body("#/definitions/v1alpha1.MigrationPolicy")
            },
            "/api/v1/namespaces/{namespace}/widgets": {
                "post": {"requestBody": {"content": {"application/json": {
                    "schema": {"$ref": "#/components/schemas/io.example.v1.Widget"}
                }}}}
            }
        }));
        let kind = |definition: &str, group: &str, version: &str, plural: &str, namespaced| {
            (
                definition.to_owned(),
                group.to_owned(),
                version.to_owned(),
                plural.to_owned(),
                namespaced,
            )
        };
        assert_eq!(
            found,
            [
                kind("io.example.v1.Widget", "", "v1", "widgets", true),
                kind(
                    "v1.VirtualMachine",
                    "kubevirt.io",
                    "v1",
                    "virtualmachines",
                    true
                ),
                kind(
                    "v1alpha1.MigrationPolicy",
                    "migrations.kubevirt.io",
                    "v1alpha1",
                    "migrationpolicies",
                    false
                ),
            ]
        );
    }

    #[test]
    fn subresources_other_verbs_the_extension_and_odd_shapes_tell_nothing() {
        let found = kinds(serde_json::json!({
            // A subresource's body is another type.
            "/apis/subresources.kubevirt.io/v1/namespaces/{namespace}/virtualmachineinstances/{name}/pause": {
                "put": body("#/definitions/v1.PauseOptions")
            },
            // A delete's body, a PUT on a collection, a POST on an item.
            "/apis/example.com/v1/widgets": {
                "delete": body("#/definitions/DeleteOptions"),
                "put": body("#/definitions/v1.Widget")
            },
            "/apis/example.com/v1/widgets/{name}": {"post": body("#/definitions/v1.Widget")},
            // An action that is not the verb's.
            "/apis/example.com/v1/gadgets": {
                "post": {"x-kubernetes-action": "connect", "parameters": [
                    {"in": "body", "schema": {"$ref": "#/definitions/v1.Gadget"}}
                ]}
            },
            // The extension answers for its path.
            "/apis/apps/v1/namespaces/{namespace}/deployments": {
                "post": {
                    "x-kubernetes-group-version-kind": {"group": "apps", "version": "v1", "kind": "Deployment"},
                    "parameters": [{"in": "body", "schema": {"$ref": "#/definitions/Other"}}]
                }
            },
            // Templated group or version, a version that is none, watches,
            // remote references and bodies of unexpected shapes.
            "/apis/{group}/v1/things": {"post": body("#/definitions/v1.Thing")},
            "/apis/example.com/latest/things": {"post": body("#/definitions/v1.Thing")},
            "/apis/example.com/v1/watch/things": {"post": body("#/definitions/v1.Thing")},
            "/apis/example.com/v2/things": {"post": body("other.json#/definitions/Thing")},
            "/apis/example.com/v3/things": {"post": {"parameters": "body"}},
            "/apis/example.com/v4/things": {"post": {"parameters": [{"in": 7, "schema": true}]}},
            "/apis/example.com/v5/things": {"post": {"requestBody": {"content": {"application/json": {"schema": true}}}}}
        }));
        assert_eq!(found, []);
    }
}
