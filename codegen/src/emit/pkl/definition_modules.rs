//! Where every definition lives inside a minor's subtree `v<X.Y>/`.
//!
//! - **Types modules**: one per definition namespace, named by its last two
//!   segments when the last is an API version (`io.k8s.api.core.v1` →
//!   `core/v1.pkl`), by its last segment otherwise
//!   (`io.k8s.apimachinery.pkg.api.resource` → `resource.pkl`). Namespaces
//!   that would share a path take more segments until they do not. Paths are
//!   chosen over every minor at once, so a namespace has the same path in
//!   every subtree.
//! - **Resource modules**: a definition served as exactly one kind, with
//!   `apiVersion` and `kind` properties, is a module of its own. The
//!   preferred served version of a kind (GA over beta over alpha, higher
//!   first) lives at `<group>/<Kind>.pkl`; the others at
//!   `<group>/<version>/<Kind>.pkl` (`autoscaling/v1/HorizontalPodAutoscaler.pkl`).
//! - **Object modules** (Kubernetes-style APIs): a class that pkl-k8s makes
//!   a module of its own ([`super::owners`]) lives at pkl-k8s's path
//!   (`apimachinery/pkg/apis/meta/v1/ObjectMeta.pkl`); its types module
//!   keeps a typealias of the same name to it, so both names work. A class
//!   pkl-k8s keeps inside such a module (or a resource's) is written there
//!   (`Service.ServiceSpec`, `PodSpec.Container`); its types module keeps
//!   a typealias to it.

use super::owners::Owners;
use super::paths::{pkl_k8s_path, served_kind};
use crate::error::{Error, Result};
use crate::model::naming::{self, namespace_of, namespace_segments, version_priority, versioned};
use crate::model::{Definition, GatedModel, MinorModel};
use std::collections::{BTreeMap, BTreeSet};
use vergate_core::gates::GroupVersionKind;
use vergate_core::VersionSet;

/// Where a definition is found in one minor's subtree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Location {
    /// A class or typealias `name` inside the types module `module`.
    Member { module: String, name: String },
    /// The resource module `module` itself (its module class).
    Module { module: String },
}

impl Location {
    /// The module path (relative to `v<X.Y>/`, without `.pkl`).
    pub fn module(&self) -> &str {
        match self {
            Location::Member { module, .. } | Location::Module { module } => module,
        }
    }
}

/// The namespace paths of a whole API, the same for every minor.
#[derive(Clone, Debug)]
pub struct NamespacePaths {
    paths: BTreeMap<String, String>,
    /// The minors in which each namespace defines something.
    presence: BTreeMap<String, VersionSet>,
}

impl NamespacePaths {
    /// Chooses a module path for every namespace any minor defines.
    pub fn new(model: &GatedModel) -> NamespacePaths {
        let namespaces: BTreeSet<&str> = model.types.keys().map(|n| namespace_of(n)).collect();
        let split: Vec<Vec<&str>> = namespaces.iter().map(|ns| namespace_segments(ns)).collect();
        let mut take: Vec<usize> = split
            .iter()
            .map(|segments| if versioned(segments).is_some() { 2 } else { 1 })
            .collect();
        loop {
            let paths: Vec<String> = split
                .iter()
                .zip(&take)
                .map(|(s, n)| join_last(s, *n))
                .collect();
            let mut seen: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
            for (index, path) in paths.iter().enumerate() {
                seen.entry(path).or_default().push(index);
            }
            let mut grew = false;
            for group in seen.values().filter(|g| g.len() > 1) {
                for &index in group {
                    if take[index] < split[index].len() {
                        take[index] += 1;
                        grew = true;
                    }
                }
            }
            if !grew {
                let paths = namespaces
                    .iter()
                    .zip(paths)
                    .map(|(ns, path)| ((*ns).to_owned(), path))
                    .collect();
                let mut presence: BTreeMap<String, VersionSet> = BTreeMap::new();
                for (name, ty) in &model.types {
                    presence
                        .entry(namespace_of(name).to_owned())
                        .or_default()
                        .extend(ty.lifecycle.presence.iter());
                }
                return NamespacePaths { paths, presence };
            }
        }
    }

    /// The minors in which `namespace` defines something.
    pub fn presence(&self, namespace: &str) -> VersionSet {
        self.presence.get(namespace).cloned().unwrap_or_default()
    }

    /// The types module of a definition's namespace.
    pub fn module_of(&self, definition_name: &str) -> &str {
        &self.paths[namespace_of(definition_name)]
    }
}

/// One minor's modules and where each of its definitions is.
#[derive(Debug)]
pub struct MinorLayout<'m> {
    /// Types modules by path, each with its classes and typealiases.
    pub type_modules: BTreeMap<String, Vec<&'m Definition>>,
    /// Resource modules by path.
    pub resources: BTreeMap<String, Resource<'m>>,
    /// Object modules by path: classes that are modules of their own.
    pub object_modules: BTreeMap<String, &'m Definition>,
    /// Every definition's location, by definition name.
    pub locations: BTreeMap<&'m str, Location>,
}

/// A resource module: the definition and the kind it is served as.
#[derive(Debug)]
pub struct Resource<'m> {
    pub definition: &'m Definition,
    pub kind: &'m GroupVersionKind,
    /// True when this is the preferred served version of the kind.
    pub preferred: bool,
    /// vergate's own path of a resource that lives at pkl-k8s's path
    /// (`apps/Deployment` for `api/apps/v1/Deployment`): a thin module
    /// there extends it, so both names work.
    pub short: Option<String>,
}

impl<'m> MinorLayout<'m> {
    /// Places every definition of `minor`; the classes `owners` makes
    /// modules of their own become object modules. With `pkl_k8s_paths`
    /// (Kubernetes-style objects), a resource of Kubernetes' own names
    /// lives at pkl-k8s's path, where reflection over it (pkl-pantry's
    /// converter, `k8sSchema.pkl`) finds its properties.
    pub fn new(
        minor: &'m MinorModel,
        paths: &NamespacePaths,
        owners: &Owners,
        pkl_k8s_paths: bool,
    ) -> Result<MinorLayout<'m>> {
        let mut type_modules: BTreeMap<String, Vec<&Definition>> = BTreeMap::new();
        let mut object_modules: BTreeMap<String, &Definition> = BTreeMap::new();
        let mut locations = BTreeMap::new();
        // Resources grouped by (directory, kind), to pick the preferred version.
        let mut kinds: BTreeMap<(String, &str), Vec<ServedVersion<'m>>> = BTreeMap::new();
        for definition in minor.definitions.values() {
            let module = paths.module_of(&definition.name);
            match served_kind(definition) {
                Some(kind) => {
                    let (dir, version) = match module.rsplit_once('/') {
                        Some((dir, last)) if naming::is_api_version(last) => (dir, last),
                        _ => (module, ""),
                    };
                    kinds
                        .entry((dir.to_owned(), kind.kind.as_str()))
                        .or_default()
                        .push((version.to_owned(), definition, kind));
                }
                None => {
                    type_modules
                        .entry(module.to_owned())
                        .or_default()
                        .push(definition);
                    let own_path = pkl_k8s_path(&definition.name)
                        .filter(|_| owners.is_module(&definition.name));
                    let location = match own_path {
                        Some(path) => {
                            object_modules.insert(path.clone(), definition);
                            Location::Module { module: path }
                        }
                        None => Location::Member {
                            module: module.to_owned(),
                            name: definition.short_name().to_owned(),
                        },
                    };
                    locations.insert(definition.name.as_str(), location);
                }
            }
        }
        let mut resources = BTreeMap::new();
        for ((dir, kind), mut versions) in kinds {
            versions.sort_by_key(|(version, ..)| std::cmp::Reverse(version_priority(version)));
            for (index, (version, definition, gvk)) in versions.into_iter().enumerate() {
                let preferred = index == 0;
                let short = if preferred || version.is_empty() {
                    format!("{dir}/{kind}")
                } else {
                    format!("{dir}/{version}/{kind}")
                };
                let (module, short) = match pkl_k8s_path(&definition.name) {
                    Some(path) if pkl_k8s_paths && path != short => (path, Some(short)),
                    _ => (short, None),
                };
                if resources.contains_key(&module)
                    || type_modules.contains_key(&module)
                    || object_modules.contains_key(&module)
                {
                    return Err(Error::Spec {
                        path: definition.source.path.clone(),
                        pointer: definition.source.pointer.clone(),
                        message: format!(
                            "minor {}: {} would be the Pkl module {module}.pkl, which another definition already is; \
                             two kinds of one group directory need different versions",
                            minor.version, definition.name
                        ),
                    });
                }
                locations.insert(
                    definition.name.as_str(),
                    Location::Module {
                        module: module.clone(),
                    },
                );
                resources.insert(
                    module,
                    Resource {
                        definition,
                        kind: gvk,
                        preferred,
                        short,
                    },
                );
            }
        }
        let taken = |path: &String| {
            resources.contains_key(path)
                || type_modules.contains_key(path)
                || object_modules.contains_key(path)
        };
        if let Some(resource) = resources
            .values()
            .find(|resource| resource.short.as_ref().is_some_and(taken))
        {
            let definition = resource.definition;
            return Err(Error::Spec {
                path: definition.source.path.clone(),
                pointer: definition.source.pointer.clone(),
                message: format!(
                    "minor {}: {}'s short path {}.pkl is already another module",
                    minor.version,
                    definition.name,
                    resource.short.as_deref().unwrap_or_default()
                ),
            });
        }
        if let Some((path, definition)) = object_modules
            .iter()
            .find(|(path, _)| type_modules.contains_key(*path))
        {
            return Err(Error::Spec {
                path: definition.source.path.clone(),
                pointer: definition.source.pointer.clone(),
                message: format!(
                    "minor {}: {} would be the Pkl module {path}.pkl, which a types module already is",
                    minor.version, definition.name
                ),
            });
        }
        if pkl_k8s_paths {
            nest_in_homes(&type_modules, owners, &mut locations);
        }
        Ok(MinorLayout {
            type_modules,
            resources,
            object_modules,
            locations,
        })
    }

    /// The classes pkl-k8s keeps inside the module of `name` (`owners`'
    /// members of it) that this minor has, in name order, each as
    /// (definition name, the module its class is written in, member name):
    /// `PodSpec.Container`. With pkl-k8s's paths that module is `name`'s
    /// own ([`nest_in_homes`]).
    pub fn nested_in<'s>(
        &'s self,
        owners: &'s Owners,
        name: &'s str,
    ) -> impl Iterator<Item = (&'s str, &'s str, &'s str)> + 's {
        owners
            .members_of(name)
            .filter_map(|member| match self.locations.get(member)? {
                Location::Member {
                    module,
                    name: short,
                } => Some((member, module.as_str(), short.as_str())),
                Location::Module { .. } => None,
            })
    }

    /// Every module path of the subtree, sorted.
    pub fn modules(&self) -> Vec<&str> {
        let mut all: Vec<&str> = self
            .type_modules
            .keys()
            .chain(self.resources.keys())
            .chain(self.object_modules.keys())
            .map(String::as_str)
            .collect();
        all.sort_unstable();
        all
    }
}

/// Places each class that pkl-k8s keeps inside another's module
/// ([`Owners`]) in that module, when the home is a module at pkl-k8s's path:
/// `ServiceSpec` is written in `api/core/v1/Service.pkl`, `Container` in
/// `api/core/v1/PodSpec.pkl`. A file importing a resource then loads the
/// modules of what it reaches, not the whole types module of its
/// namespace (which keeps a typealias of each, for vergate's own names).
fn nest_in_homes<'m>(
    type_modules: &BTreeMap<String, Vec<&'m Definition>>,
    owners: &Owners,
    locations: &mut BTreeMap<&'m str, Location>,
) {
    for definition in type_modules.values().flatten() {
        let name = definition.name.as_str();
        let Some(home) = owners.home_of(name).filter(|home| *home != name) else {
            continue;
        };
        let Some(Location::Module { module }) = locations.get(home) else {
            continue;
        };
        let inside = Location::Member {
            module: module.clone(),
            name: definition.short_name().to_owned(),
        };
        locations.insert(name, inside);
    }
}

/// One served version of a kind: (version segment, definition, kind).
type ServedVersion<'m> = (String, &'m Definition, &'m GroupVersionKind);

fn join_last(segments: &[&str], n: usize) -> String {
    let start = segments.len().saturating_sub(n);
    let path = segments[start..].join("/");
    if path.is_empty() {
        "types".to_owned()
    } else {
        path
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn namespace_paths() {
        use crate::model::{Definition, MinorModel, Schema};
        let mut minor = MinorModel::new(vergate_core::Version::new(1, 0));
        for name in [
            "io.k8s.api.core.v1.Pod",
            "io.k8s.api.apps.v1.Deployment",
            "io.k8s.apimachinery.pkg.api.resource.Quantity",
            "io.k8s.api.resource.v1.ResourceClaim",
            "a.x.core.v1.Other",
            "Bare",
        ] {
            minor
                .definitions
                .insert(name.into(), Definition::new(name, Schema::Any));
        }
        let model = GatedModel::merge("t", vec![minor]).unwrap();
        let paths = NamespacePaths::new(&model);
        assert_eq!(paths.module_of("io.k8s.api.apps.v1.Deployment"), "apps/v1");
        assert_eq!(paths.module_of("io.k8s.api.core.v1.Pod"), "api/core/v1");
        assert_eq!(paths.module_of("a.x.core.v1.Other"), "x/core/v1");
        assert_eq!(
            paths.module_of("io.k8s.apimachinery.pkg.api.resource.Quantity"),
            "resource"
        );
        assert_eq!(
            paths.module_of("io.k8s.api.resource.v1.ResourceClaim"),
            "resource/v1"
        );
        assert_eq!(paths.module_of("Bare"), "types");
    }
}
