//! Which pkl-k8s module each Kubernetes class belongs to, so that a file
//! written for pkl-k8s finds every module it imports
//! (`@k8s/apimachinery/pkg/apis/meta/v1/ObjectMeta.pkl`,
//! `@k8s/api/core/v1/PodSpec.pkl`) and every class where it names it
//! (`PodSpec.Container`, `Deployment.DeploymentSpec`).
//!
//! pkl-k8s's rule, over the references of a minor and every minor before it
//! (so a class that is a module stays one in later minors, and adding a
//! minor leaves the packages of the earlier ones as they were):
//!
//! - a resource (a definition served as a kind) is a module of its own;
//! - so is a class api.toml's `pkl_own_modules` names, and a class nothing
//!   refers to;
//! - any other class lives in the module of the classes that refer to it
//!   when they all live in one module of its own directory (group and
//!   version), and is a module of its own otherwise.
//!
//! Only classes (objects with properties) of Kubernetes' own names
//! (`io.k8s.…`) take part; a reference from anything else (a typealias, a
//! union) makes the class a module of its own, but for a union written out
//! where it is used (JSONSchemaPropsOrArray), whose members count as
//! referred to by its users. A cycle that the rule cannot
//! settle (a class reached again while its home is being found) makes the
//! classes on it modules of their own.

use crate::model::naming::namespace_of;
use crate::model::{kubernetes, Convention, Definition, GatedModel, MinorModel, Schema};
use std::collections::{BTreeMap, BTreeSet};
use vergate_core::Version;

/// The home module of each class, by definition name: itself when it is a
/// module of its own, else the class whose module holds it.
#[derive(Clone, Debug, Default)]
pub struct Owners {
    owner: BTreeMap<String, String>,
}

impl Owners {
    /// Applies the rule to the minors of `model` up to `version`;
    /// `own_modules` are the classes that are modules of their own
    /// regardless (api.toml's `pkl_own_modules`).
    pub fn up_to(model: &GatedModel, version: Version, own_modules: &[String]) -> Owners {
        let mut classes: BTreeSet<&str> = BTreeSet::new();
        let mut resources: BTreeSet<&str> = BTreeSet::new();
        let mut others: BTreeSet<&str> = BTreeSet::new();
        let mut referrers: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
        for minor in model.minors.range(..=version).map(|(_, minor)| minor) {
            for definition in minor.definitions.values() {
                let name = definition.name.as_str();
                if definition.convention == Some(Convention::SchemaOr) {
                    others.insert(name);
                    continue;
                }
                if is_class(definition) && kubernetes::is_own_name(name) {
                    classes.insert(name);
                    if super::paths::served_kind(definition).is_some() {
                        resources.insert(name);
                    }
                } else {
                    others.insert(name);
                }
                for target in definition
                    .references()
                    .into_iter()
                    .flat_map(|target| through(minor, target))
                {
                    if target != name {
                        referrers.entry(target).or_default().insert(name);
                    }
                }
            }
        }
        // A name that is a class in one minor and not in another is left
        // where the types modules put it.
        classes.retain(|name| !others.contains(name));
        let mut finder = Finder {
            classes: &classes,
            resources: &resources,
            own: own_modules.iter().map(String::as_str).collect(),
            referrers: &referrers,
            found: BTreeMap::new(),
            visiting: BTreeSet::new(),
        };
        for name in &classes {
            finder.home(name);
        }
        Owners {
            owner: finder
                .found
                .into_iter()
                .map(|(name, home)| (name.to_owned(), home.to_owned()))
                .collect(),
        }
    }

    /// True when `name` is a class that is a Pkl module of its own.
    pub fn is_module(&self, name: &str) -> bool {
        self.owner.get(name).is_some_and(|home| home == name)
    }

    /// The home of class `name`: itself when it is a module of its own,
    /// else the class whose module holds it.
    pub fn home_of(&self, name: &str) -> Option<&str> {
        self.owner.get(name).map(String::as_str)
    }

    /// The classes that live inside `module`'s module (not itself), sorted.
    pub fn members_of<'s>(&'s self, module: &'s str) -> impl Iterator<Item = &'s str> + 's {
        self.owner
            .iter()
            .filter(move |(name, home)| *home == module && *name != module)
            .map(|(name, _)| name.as_str())
    }

    /// How many classes are modules of their own.
    pub fn module_count(&self) -> usize {
        self.owner
            .iter()
            .filter(|(name, home)| name == home)
            .count()
    }
}

/// `target`'s references when it is a JSONSchemaProps-or union, which is
/// written out where it is used (`types.rs`), so that its members count as
/// referred to from there; else `target`.
fn through<'a>(minor: &'a MinorModel, target: &'a str) -> Vec<&'a str> {
    match minor.definitions.get(target) {
        Some(union) if union.convention == Some(Convention::SchemaOr) => union.references(),
        _ => vec![target],
    }
}

/// An object with properties: a Pkl class (not a typealias).
fn is_class(definition: &Definition) -> bool {
    matches!(&definition.schema, Schema::Object(object) if !object.properties.is_empty())
}

struct Finder<'a> {
    classes: &'a BTreeSet<&'a str>,
    resources: &'a BTreeSet<&'a str>,
    own: BTreeSet<&'a str>,
    referrers: &'a BTreeMap<&'a str, BTreeSet<&'a str>>,
    found: BTreeMap<&'a str, &'a str>,
    visiting: BTreeSet<&'a str>,
}

impl<'a> Finder<'a> {
    /// The home of class `name`; `None` when `name` is not a class (its
    /// referrers then make a class a module of its own) or is being found
    /// (a cycle).
    fn home(&mut self, name: &'a str) -> Option<&'a str> {
        if let Some(home) = self.found.get(name) {
            return Some(home);
        }
        if !self.classes.contains(name) || !self.visiting.insert(name) {
            return None;
        }
        let home = self.decide(name);
        self.visiting.remove(name);
        self.found.insert(name, home);
        Some(home)
    }

    fn decide(&mut self, name: &'a str) -> &'a str {
        if self.resources.contains(name) || self.own.contains(name) {
            return name;
        }
        let Some(referrers) = self.referrers.get(name) else {
            return name;
        };
        let mut shared: Option<&'a str> = None;
        for referrer in referrers {
            match self.home(referrer) {
                Some(home) if shared.is_none_or(|shared| shared == home) => shared = Some(home),
                _ => return name,
            }
        }
        match shared {
            Some(home) if namespace_of(home) == namespace_of(name) => home,
            _ => name,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{MinorModel, ObjectSchema, Property};
    use vergate_core::gates::GroupVersionKind;

    fn class(name: &str, refs: &[&str]) -> Definition {
        let mut object = ObjectSchema::default();
        object
            .properties
            .insert("x".into(), Property::new(Schema::Boolean));
        for (index, target) in refs.iter().enumerate() {
            object.properties.insert(
                format!("r{index}"),
                Property::new(Schema::Ref((*target).into())),
            );
        }
        Definition::new(name, Schema::Object(object))
    }

    fn resource(name: &str, refs: &[&str]) -> Definition {
        let mut definition = class(name, refs);
        let object = definition.object_mut().unwrap();
        for key in ["apiVersion", "kind"] {
            object
                .properties
                .insert(key.into(), Property::new(Schema::String { format: None }));
        }
        definition.kinds = vec![GroupVersionKind {
            group: "apps".into(),
            version: "v1".into(),
            kind: name.rsplit('.').next().unwrap().into(),
        }];
        definition
    }

    fn owners(definitions: Vec<Definition>, own: &[&str]) -> Owners {
        let mut minor = MinorModel::new(Version::new(1, 0));
        for definition in definitions {
            minor
                .definitions
                .insert(definition.name.clone(), definition);
        }
        let model = GatedModel::merge("t", vec![minor]).unwrap();
        let own: Vec<String> = own.iter().map(|s| (*s).to_owned()).collect();
        Owners::up_to(&model, Version::new(1, 0), &own)
    }

    const APPS: &str = "io.k8s.api.apps.v1.";
    const CORE: &str = "io.k8s.api.core.v1.";

    #[test]
    fn classes_live_in_the_one_module_of_their_directory_that_uses_them() {
        let n = |group: &str, short: &str| format!("{group}{short}");
        let owners = owners(
            vec![
                resource(&n(APPS, "Deployment"), &[&n(APPS, "DeploymentSpec")]),
                class(&n(APPS, "DeploymentSpec"), &[&n(CORE, "PodTemplateSpec")]),
                resource(&n(CORE, "Pod"), &[&n(CORE, "PodSpec")]),
                class(&n(CORE, "PodTemplateSpec"), &[&n(CORE, "PodSpec")]),
                class(
                    &n(CORE, "PodSpec"),
                    &[&n(CORE, "Container"), &n(CORE, "EnvVar")],
                ),
                class(&n(CORE, "Container"), &[&n(CORE, "EnvVar")]),
                class(&n(CORE, "EnvVar"), &[]),
            ],
            &[&n(CORE, "EnvVar")],
        );
        assert!(owners.is_module(&n(APPS, "Deployment")));
        assert!(!owners.is_module(&n(APPS, "DeploymentSpec")));
        assert_eq!(
            owners
                .members_of(&n(APPS, "Deployment"))
                .collect::<Vec<_>>(),
            [n(APPS, "DeploymentSpec")]
        );
        // Referred to from another directory: a module of its own.
        assert!(owners.is_module(&n(CORE, "PodTemplateSpec")));
        // Referred to by a resource and a module: a module of its own.
        assert!(owners.is_module(&n(CORE, "PodSpec")));
        assert_eq!(
            owners.members_of(&n(CORE, "PodSpec")).collect::<Vec<_>>(),
            [n(CORE, "Container")]
        );
        // Named in pkl_own_modules.
        assert!(owners.is_module(&n(CORE, "EnvVar")));
        assert_eq!(owners.module_count(), 5);
    }

    /// A later minor's references decide its own package only: the
    /// earlier minors' packages stay as they were.
    #[test]
    fn later_minors_leave_earlier_homes_alone() {
        let spec = "io.k8s.api.apps.v1.DeploymentSpec";
        let mut old = MinorModel::new(Version::new(1, 0));
        let mut new = MinorModel::new(Version::new(1, 1));
        for definition in [
            resource("io.k8s.api.apps.v1.Deployment", &[spec]),
            class(spec, &[]),
        ] {
            old.definitions
                .insert(definition.name.clone(), definition.clone());
            new.definitions.insert(definition.name.clone(), definition);
        }
        let user = resource("io.k8s.api.batch.v1.Job", &[spec]);
        new.definitions.insert(user.name.clone(), user);
        let model = GatedModel::merge("t", vec![old, new]).unwrap();
        assert!(!Owners::up_to(&model, Version::new(1, 0), &[]).is_module(spec));
        assert!(Owners::up_to(&model, Version::new(1, 1), &[]).is_module(spec));
    }

    #[test]
    fn cycles_and_foreign_names_end() {
        let owners = owners(
            vec![
                class("io.k8s.api.x.v1.A", &["io.k8s.api.x.v1.B"]),
                class("io.k8s.api.x.v1.B", &["io.k8s.api.x.v1.A"]),
                class("com.example.v1.C", &[]),
            ],
            &[],
        );
        assert!(owners.is_module("io.k8s.api.x.v1.A") || owners.is_module("io.k8s.api.x.v1.B"));
        assert!(!owners.is_module("com.example.v1.C"));
    }
}
