//! Kubernetes-style objects in Pkl as pkl-k8s's users know them. In a minor
//! whose objects carry ObjectMeta, the subtree also holds:
//!
//! - `K8sObject.pkl`: an open base whose output renders YAML (JSON with
//!   `-f json`) and a `DataSize` as a Kubernetes quantity (`100.mib` →
//!   `100Mi`); `K8sResource.pkl`: the abstract base with `apiVersion` and
//!   `kind` that every resource module of the minor extends;
//! - pkl-k8s's module path for each resource (`api/core/v1/Service.pkl`,
//!   `api/apps/v1/Deployment.pkl`, from the definition name), a thin module
//!   extending vergate's own (`core/Service.pkl`): no class body twice;
//! - the classes pkl-k8s makes modules of their own (`owners.rs`) are
//!   object modules at pkl-k8s's paths
//!   (`apimachinery/pkg/apis/meta/v1/ObjectMeta.pkl`, `api/core/v1/PodSpec.pkl`;
//!   `layout.rs`, `module.rs`).
//!
//! `Quantity` becomes `DataSize|Int|Float|String(<quantity>)` (`types.rs`).

use super::layout::MinorLayout;
use super::owners::Owners;
use super::paths::{pkl_k8s_path, relative_path};
use super::templates;
use crate::error::Result;
use crate::model::{MinorModel, OBJECT_META};
use serde::Serialize;
use std::collections::BTreeMap;
use vergate_core::alias::{pkl_identifier, sanitize};
use vergate_core::Version;

/// The abstract base of every resource module (a module path of the minor).
pub const K8S_RESOURCE: &str = "K8sResource";

/// The open base of K8sResource, which holds the output renderer.
pub const K8S_OBJECT: &str = "K8sObject";

/// True when `minor`'s objects are Kubernetes-style (it has ObjectMeta).
pub fn applies(minor: &MinorModel) -> bool {
    minor.definitions.contains_key(OBJECT_META)
}

#[derive(Serialize)]
struct BaseData<'a> {
    api: &'a str,
    version: String,
    name: String,
}

#[derive(Serialize)]
struct PathData<'a> {
    api: &'a str,
    version: String,
    name: String,
    kind: &'a str,
    api_version: String,
    target: String,
    path: String,
    extends: String,
    imports: Vec<AliasImport>,
    aliases: Vec<TypeAlias>,
}

/// `import "<path>" as <alias>` of a thin module.
#[derive(Serialize)]
struct AliasImport {
    path: String,
    alias: String,
}

/// `typealias <name> = <alias>.<name>`: a class pkl-k8s defines inside the
/// resource's module (`Deployment.DeploymentSpec`).
#[derive(Serialize)]
struct TypeAlias {
    name: String,
    target: String,
}

/// The module clause's name of `module` in `package`'s minor `version`.
fn module_name(package: &str, version: Version, module: &str) -> String {
    let mut parts = vec![sanitize(package), version.ident()];
    parts.extend(module.split('/').map(sanitize));
    parts
        .iter()
        .map(|part| pkl_identifier(part).into_owned())
        .collect::<Vec<_>>()
        .join(".")
}

/// The base modules and pkl-k8s paths of one minor, by path relative to
/// the minor's directory. A pkl-k8s path that is already a module of the
/// subtree is left out.
pub fn files<'m>(
    api: &str,
    package: &str,
    minor: &'m MinorModel,
    layout: &MinorLayout<'m>,
    owners: &Owners,
) -> Result<Vec<(String, Vec<u8>)>> {
    let version = minor.version;
    let base = |module: &str| BaseData {
        api,
        version: version.to_string(),
        name: module_name(package, version, module),
    };
    let mut files = vec![
        (
            format!("{K8S_OBJECT}.pkl"),
            templates::render("k8s_object.pkl.tera", &base(K8S_OBJECT))?,
        ),
        (
            format!("{K8S_RESOURCE}.pkl"),
            templates::render("k8s_resource.pkl.tera", &base(K8S_RESOURCE))?,
        ),
    ];
    for (module, resource) in &layout.resources {
        let Some(path) = pkl_k8s_path(&resource.definition.name) else {
            continue;
        };
        if layout.resources.contains_key(&path)
            || layout.type_modules.contains_key(&path)
            || layout.object_modules.contains_key(&path)
        {
            continue;
        }
        let mut imports: BTreeMap<&str, String> = BTreeMap::new();
        let mut aliases = Vec::new();
        for (_, types, member) in layout.nested_in(owners, &resource.definition.name) {
            let alias = imports
                .entry(types)
                .or_insert_with(|| format!("types_{}", sanitize(types)));
            aliases.push(TypeAlias {
                name: pkl_identifier(member).into_owned(),
                target: format!("{alias}.{}", pkl_identifier(member)),
            });
        }
        let data = PathData {
            api,
            version: version.to_string(),
            name: module_name(package, version, &path),
            kind: &resource.kind.kind,
            api_version: resource.kind.api_version(),
            target: format!("{module}.pkl"),
            path: format!("{path}.pkl"),
            extends: relative_path(&path, module),
            imports: imports
                .into_iter()
                .map(|(types, alias)| AliasImport {
                    path: relative_path(&path, types),
                    alias,
                })
                .collect(),
            aliases,
        };
        files.push((
            format!("{path}.pkl"),
            templates::render("k8s_path.pkl.tera", &data)?,
        ));
    }
    Ok(files)
}
