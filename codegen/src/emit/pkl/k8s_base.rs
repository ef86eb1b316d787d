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
//!   `definition_modules.rs`, `module.rs`).
//!
//! `Quantity` becomes `DataSize|Int|Float|String(<quantity>)` (`types.rs`).

use super::definition_modules::MinorLayout;
use super::paths::relative_path;
use super::templates;
use crate::error::Result;
use crate::model::{Convention, GatedModel, MinorModel};
use serde::Serialize;
use std::collections::BTreeMap;
use vergate_core::alias::{pkl_identifier, sanitize};
use vergate_core::Version;

pub use super::paths::{K8S_OBJECT, K8S_RESOURCE};

/// pkl-k8s's index of resource modules by kind and apiVersion.
const K8S_SCHEMA: &str = "k8sSchema";

/// True when `minor`'s objects are Kubernetes-style (it has ObjectMeta).
pub fn applies(minor: &MinorModel) -> bool {
    minor
        .definitions
        .values()
        .any(|definition| definition.convention == Some(Convention::ObjectMeta))
}

#[derive(Serialize)]
struct BaseData<'a> {
    api: &'a str,
    version: String,
    name: String,
    /// `K8sObject.Quantity`'s type, the one every Quantity field takes.
    quantity: &'static str,
}

#[derive(Serialize)]
struct ShortData<'a> {
    api: &'a str,
    version: String,
    name: String,
    kind: &'a str,
    api_version: String,
    target: String,
    extends: String,
}

#[derive(Serialize)]
struct SchemaData<'a> {
    api: &'a str,
    version: String,
    name: String,
    /// Kind → apiVersion → its module, or why the minor does not serve it.
    kinds: BTreeMap<String, BTreeMap<String, Template>>,
}

/// One entry of `k8sSchema.pkl`'s `resourceTemplates`.
#[derive(Serialize)]
#[serde(rename_all = "lowercase")]
enum Template {
    /// The resource module's path, relative to the minor.
    Module(String),
    /// A kind the minor does not serve: reading the entry fails with this
    /// (the absent kind's message), so a tool that looks a manifest's kind
    /// up (pkl-pantry's converter) says why rather than "cannot find".
    Absent(String),
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
/// the minor's directory: the bases, `k8sSchema.pkl`, and a thin module at
/// vergate's own path of each resource that lives at pkl-k8s's path.
pub fn files<'m>(
    api: &str,
    package: &str,
    model: &GatedModel,
    minor: &'m MinorModel,
    layout: &MinorLayout<'m>,
) -> Result<Vec<(String, Vec<u8>)>> {
    let version = minor.version;
    let base = |module: &str| BaseData {
        api,
        version: version.to_string(),
        name: module_name(package, version, module),
        quantity: super::types::QUANTITY_TYPE,
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
    let mut kinds: BTreeMap<String, BTreeMap<String, Template>> = BTreeMap::new();
    for (module, resource) in &layout.resources {
        kinds.entry(resource.kind.kind.clone()).or_default().insert(
            resource.kind.api_version(),
            Template::Module(format!("{module}.pkl")),
        );
        let Some(short) = &resource.short else {
            continue;
        };
        let data = ShortData {
            api,
            version: version.to_string(),
            name: module_name(package, version, short),
            kind: &resource.kind.kind,
            api_version: resource.kind.api_version(),
            target: format!("{module}.pkl"),
            extends: relative_path(short, module),
        };
        files.push((
            format!("{short}.pkl"),
            templates::render("k8s_path.pkl.tera", &data)?,
        ));
    }
    for absent in super::absent_kinds::absent_kinds(model, version, layout) {
        let name = module_name(package, version, &absent.path);
        files.push((
            format!("{}.pkl", absent.path),
            super::absent_kinds::module_text(api, &name, &absent),
        ));
        kinds
            .entry(absent.kind.kind.clone())
            .or_default()
            .entry(absent.kind.api_version())
            .or_insert(Template::Absent(absent.message));
    }
    let schema = SchemaData {
        api,
        version: version.to_string(),
        name: module_name(package, version, K8S_SCHEMA),
        kinds,
    };
    files.push((
        format!("{K8S_SCHEMA}.pkl"),
        templates::render("k8s_schema.pkl.tera", &schema)?,
    ));
    Ok(files)
}
