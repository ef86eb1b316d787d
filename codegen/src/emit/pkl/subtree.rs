//! What the modules of one minor's subtree share ([`Subtree`]) and the
//! template data of one module ([`ModuleData`]).

use super::definition_modules::{MinorLayout, NamespacePaths};
use super::gate::Gate;
use super::items::Items;
use super::owners::Owners;
use crate::model::GatedModel;
use serde::Serialize;
use vergate_core::Version;

/// What every module of one minor's subtree shares.
pub struct Subtree<'a> {
    pub model: &'a GatedModel,
    pub version: Version,
    pub layout: &'a MinorLayout<'a>,
    pub paths: &'a NamespacePaths,
    /// The Pkl package name (`k8s`).
    pub package: &'a str,
    /// The annotation class in shared.pkl (`K8sVersion`).
    pub annotation_class: &'a str,
    /// When documents carry their own minor (api.toml's
    /// `document_version_field`), the field that holds it: a resource module
    /// fixes it to this minor instead of the group/version.
    pub document_version_field: Option<&'a str>,
    /// Kubernetes-style objects (the minor has ObjectMeta): resource modules
    /// are open and extend the minor's `K8sResource.pkl` (`k8s_base.rs`).
    pub k8s_base: bool,
    /// Which module each class lives in, as pkl-k8s has it (empty unless
    /// `k8s_base`).
    pub owners: &'a Owners,
}

/// The template data of one module.
#[derive(Debug, Hash, Serialize)]
pub struct ModuleData {
    pub api: String,
    pub version: String,
    pub doc: String,
    pub gate: Gate,
    /// The `module` clause's name (`k8s.v1_34.core.Service`).
    pub name: String,
    /// `open module`: users may extend it.
    pub open: bool,
    /// The module it extends (a relative path), if any.
    pub extends: Option<String>,
    pub imports: Vec<Import>,
    /// The annotation to write gates with (`shared.K8sVersion`).
    pub annotation: String,
    /// The module's properties, typealiases and classes as Pkl text
    /// ([`Items::text`]): the template writes the head and imports, and
    /// this after them.
    pub items: String,
}

/// `import "<path>" as <alias>`.
#[derive(Debug, Hash, Serialize)]
pub struct Import {
    pub path: String,
    pub alias: String,
}

impl Subtree<'_> {
    /// The path every import header names a module by (`@k8s/v1.34/core/v1.pkl`),
    /// which the aliases are computed from.
    pub(super) fn canonical(&self, module: &str) -> String {
        format!("@{}/{}/{module}.pkl", self.package, self.version.dir_name())
    }
}

impl ModuleData {
    pub(super) fn with_items(mut self, items: &Items) -> ModuleData {
        self.items = items.text(&self.annotation);
        self
    }
}
