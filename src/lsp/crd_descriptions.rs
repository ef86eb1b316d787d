//! Descriptions of a custom resource's fields, from the `openAPIV3Schema`
//! of its CRD among the CRD texts a workspace's validator was built with
//! (the settings' `crds`, the open documents, the workspace's files).
//!
//! The schema is found the first time a hover asks for a group, version
//! and kind (the texts are parsed then, once per kind: no cost for a
//! workspace whose custom resources are never hovered), and kept. The
//! path of keys is followed through `properties`, `additionalProperties`
//! and `items`, so a field's description is the one its CRD writes at
//! that place.

use super::locate::Step;
use crate::document::Node;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// A group, version and kind.
type Key = (String, String, String);

/// The CRD texts of one validator, and the schemas found in them.
#[derive(Default)]
pub struct CrdDescriptions {
    texts: Vec<String>,
    schemas: Mutex<HashMap<Key, Option<Arc<Node>>>>,
}

impl CrdDescriptions {
    /// Over `texts` (each any number of documents; only CRDs are used).
    pub fn new(texts: Vec<String>) -> CrdDescriptions {
        CrdDescriptions {
            texts,
            schemas: Mutex::default(),
        }
    }

    /// True when a CRD among the texts has a schema for the resource.
    pub fn has(&self, api_version: &str, kind: &str) -> bool {
        self.schema(api_version, kind).is_some()
    }

    /// The description at `path` in the schema of `api_version` `kind`
    /// (an empty path: the resource's own).
    pub fn at(&self, api_version: &str, kind: &str, path: &[Step]) -> Option<String> {
        let schema = self.schema(api_version, kind)?;
        let mut node: &Node = &schema;
        for step in path {
            node = match step {
                Step::Key(key) => match node.get("properties").and_then(|p| p.get(key)) {
                    Some(property) => property,
                    None => node
                        .get("additionalProperties")
                        .filter(|a| a.as_map().is_some())?,
                },
                Step::Item => node.get("items")?,
            };
        }
        node.get("description")?
            .as_str()
            .map(str::trim)
            .filter(|text| !text.is_empty())
            .map(str::to_owned)
    }

    fn schema(&self, api_version: &str, kind: &str) -> Option<Arc<Node>> {
        // A custom resource's apiVersion always has a group.
        let (group, version) = crate::gates::GroupVersionKind::split_api_version(api_version);
        if group.is_empty() {
            return None;
        }
        let key = (group.to_owned(), version.to_owned(), kind.to_owned());
        let mut schemas = self
            .schemas
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        schemas
            .entry(key)
            .or_insert_with(|| find(&self.texts, group, version, kind).map(Arc::new))
            .clone()
    }
}

/// The first CRD among `texts` for `group` `kind` with a schema for
/// `version` (`spec.versions[].schema`, else v1beta1's `spec.validation`).
fn find(texts: &[String], group: &str, version: &str, kind: &str) -> Option<Node> {
    texts
        .iter()
        .filter(|text| text.contains(kind) && text.contains(group))
        .flat_map(|text| crate::document::parse(text).documents)
        .find_map(|document| {
            let spec = document.root.get("spec")?;
            let names = spec.get("names")?;
            if spec.get("group")?.as_str()? != group || names.get("kind")?.as_str()? != kind {
                return None;
            }
            let versions = match &spec.get("versions")?.value {
                crate::document::Value::Seq(versions) => versions,
                _ => return None,
            };
            let listed = versions
                .iter()
                .find(|v| v.get("name").and_then(Node::as_str) == Some(version))?;
            listed
                .get("schema")
                .or_else(|| spec.get("validation"))?
                .get("openAPIV3Schema")
                .cloned()
        })
}

/// A CRD with descriptions, for the tests of hover.
#[cfg(test)]
pub(crate) const GADGET_CRD: &str = "apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: gadgets.example.com
spec:
  group: example.com
  names: {kind: Gadget, plural: gadgets}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        description: A gadget of the shop.
        type: object
        properties:
          spec:
            type: object
            properties:
              parts:
                description: The parts it is made of.
                type: array
                items:
                  type: object
                  properties:
                    name: {type: string, description: The part's name.}
              labels:
                type: object
                additionalProperties: {type: string, description: One label.}
";

#[cfg(test)]
mod tests {
    use super::*;
    const CRD: &str = GADGET_CRD;

    #[test]
    fn a_path_through_properties_items_and_maps() {
        let crds = CrdDescriptions::new(vec!["not: a crd\n".into(), CRD.into()]);
        let at = |path: &[&str]| {
            let path: Vec<Step> = path
                .iter()
                .map(|step| match *step {
                    "-" => Step::Item,
                    key => Step::Key(key.to_owned()),
                })
                .collect();
            crds.at("example.com/v1", "Gadget", &path)
        };
        assert_eq!(at(&[]).as_deref(), Some("A gadget of the shop."));
        assert_eq!(
            at(&["spec", "parts"]).as_deref(),
            Some("The parts it is made of.")
        );
        assert_eq!(
            at(&["spec", "parts", "-", "name"]).as_deref(),
            Some("The part's name.")
        );
        assert_eq!(
            at(&["spec", "labels", "team"]).as_deref(),
            Some("One label.")
        );
        assert_eq!(at(&["spec"]), None);
        assert_eq!(at(&["spec", "nothing"]), None);
        assert!(crds.has("example.com/v1", "Gadget"));
        assert!(!crds.has("example.com/v2", "Gadget"));
        assert!(!crds.has("v1", "Gadget"));
    }
}
