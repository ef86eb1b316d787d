//! Custom resources checked against their CustomResourceDefinitions.
//!
//! The CRDs (files given as CRDs, or documents among the inputs) are read
//! by the code generator's own loader (`vergate_codegen::load`, the CRD
//! input format of `spec_files`) into a minor model, merged into a gated
//! model and turned into gates by the very function that writes gates.json
//! (`GatedModel::gates_index`): no second converter, and no emitter (nor
//! tera). Their types join the API's gate tables, present in every minor of
//! it, and preflight's one walker checks custom resources like any other
//! kind. What is kept here is what only a CRD knows: which versions it
//! lists but does not serve, and its schema's tree (`cel::schema`), with
//! its CEL rules, junctors and defaults.
//!
//! - `read`: CRD texts read into the loader's documents, and the cost
//!   warnings of a given file;
//! - `copies`: which CRD documents among the inputs are copies of another;
//! - `index`: the gates of the CRDs that can be used together;
//! - `refused`: the CRDs the API server refuses on create (a pattern Go
//!   does not compile, a type OpenAPI lacks), whose custom resources
//!   cannot be created; `cost`: a CRD among the inputs refused for its
//!   rules' estimated cost too;
//! - `rules`: the schema tree of each served version, read once: its
//!   rules, junctors, defaults, `nullable`s and `status` subresource;
//! - `status`: which findings the reset of `status` on create drops;
//! - `nulls`: the `null`s the API server drops from a custom resource,
//!   as the tree's `nullable`s and defaults say;
//! - `load`: [`CrdLoader`], which gathers the texts and builds all of it.

mod copies;
mod cost;
mod index;
mod load;
mod nulls;
mod read;
pub(crate) mod refused;
mod rules;
mod status;

pub use load::{CrdLoader, CrdReport};

use crate::cel::{SchemaNode, ServedSchema};
use crate::document::Node;
use crate::tables::GateTables;
use crate::Version;
use std::collections::{HashMap, HashSet};
use std::path::Path;
use vergate_codegen::load::CrdVersions;
use vergate_core::gates::GroupVersionKind;

/// A group, version and kind, the key of the tables of served versions.
type Key = (String, String, String);

/// The CRDs in use, for what the gate tables cannot say, and the CRDs
/// among the inputs that are not used.
#[derive(Default)]
pub(crate) struct CustomResources {
    crds: Vec<CrdVersions>,
    /// The schema tree of each served version, read once: what its CEL
    /// rules, logical junctors (`allOf`, `anyOf`, `oneOf`, `not`),
    /// defaults and `null`s read.
    schemas: HashMap<Key, ServedSchema>,
    /// The kinds of `schemas`: most documents of a run are no custom
    /// resource, and build no key.
    kinds: HashSet<String>,
    /// True when a schema of `schemas` has rules or junctors
    /// ([`ServedSchema::is_checked`]): most runs have none.
    any_checked: bool,
    /// True when a schema of `schemas` has the `status` subresource.
    any_status_reset: bool,
    /// The rules of the API's own gates (a regen of CRDs), built per type
    /// and minor as documents ask for them.
    gate_rules: crate::cel::GateRules,
    /// CRDs among the inputs left out: the input's name, the lines of the
    /// document, and why.
    unused: Vec<Unused>,
    /// CRDs read that the API server refuses on create.
    refused: Vec<refused::RefusedCrd>,
}

/// A CRD among the inputs that is not used.
struct Unused {
    file: String,
    lines: std::ops::Range<u32>,
    message: String,
}

impl Unused {
    /// The CRD at `lines` of input `file`, left out for `why`; `instead`
    /// is the file of the CRD its custom resources are checked against.
    fn new(
        file: String,
        lines: std::ops::Range<u32>,
        instead: Option<&Path>,
        why: impl std::fmt::Display,
    ) -> Unused {
        let used = match instead {
            Some(first) => format!(
                "its custom resources are checked against the CRD in {}",
                first.display()
            ),
            None => "its custom resources are not checked against it".to_owned(),
        };
        Unused {
            file,
            lines,
            message: format!("this CRD is not used ({used}): {why}"),
        }
    }
}

impl CustomResources {
    /// The key of the custom resource `root`'s served version, when a
    /// schema of its kind was read.
    fn key_of(&self, root: &Node) -> Option<Key> {
        let gvk = group_version_kind(root)?;
        self.kinds.contains(gvk.2).then(|| owned(gvk))
    }

    /// Adds the served versions' schema trees, each read once.
    fn extend_schemas(&mut self, schemas: HashMap<Key, ServedSchema>) {
        for ((_, _, kind), schema) in &schemas {
            self.kinds.insert(kind.clone());
            self.any_checked |= schema.is_checked();
            self.any_status_reset |= schema.status_reset;
        }
        self.schemas.extend(schemas);
    }

    /// Why the CRD document at `line` of input `file` is not used, when it
    /// is one that is left out.
    pub fn not_used(&self, file: &str, line: u32) -> Option<&str> {
        self.unused
            .iter()
            .find(|unused| unused.file == file && unused.lines.contains(&line))
            .map(|unused| unused.message.as_str())
    }

    /// The schema of the custom resource `root`'s CRD version, when it
    /// has CEL rules or junctors.
    pub fn schema_for(&self, root: &Node) -> Option<&ServedSchema> {
        // Most runs have no CRD with rules: no key built for every document.
        if !self.any_checked {
            return None;
        }
        self.schemas
            .get(&self.key_of(root)?)
            .filter(|schema| schema.is_checked())
    }

    /// The CEL rules of the API's own type of `root` in `minor`, when its
    /// gates have any (a regen of CRDs checked with `--api`).
    pub fn gate_rules_for(
        &self,
        tables: &GateTables,
        root: &Node,
        minor: Version,
    ) -> Option<std::sync::Arc<Option<SchemaNode>>> {
        if !tables.has_rules() {
            return None;
        }
        let (group, version, kind) = group_version_kind(root)?;
        let name = tables.types_for_gvk(group, version, kind).next()?;
        Some(self.gate_rules.for_type(tables, name, minor))
    }

    /// The custom resource `root` as the API server decodes it, when that
    /// differs: without the `null`s its CRD's schema does not allow and
    /// does not default (see `nulls`).
    pub fn without_nulls(&self, root: &Node) -> Option<Node> {
        if self.schemas.is_empty() {
            return None;
        }
        let key = self.key_of(root)?;
        if !nulls::holds_null(root) {
            return None;
        }
        let schema = self.schemas.get(&key)?;
        nulls::pruned(&schema.tree, root)
    }

    /// True when a finding at `path` (of `rule`) of the custom resource
    /// `root` is about its `status`, which the API server resets on create
    /// (its CRD has the `status` subresource): only an unknown field there
    /// is refused, by the request's decoding.
    pub fn status_ignored(&self, root: &Node, path: &str, rule: crate::preflight::Rule) -> bool {
        if !self.any_status_reset
            || !status::reset_on_create(path, rule == crate::preflight::Rule::UnknownField)
        {
            return false;
        }
        self.key_of(root)
            .and_then(|key| self.schemas.get(&key))
            .is_some_and(|schema| schema.status_reset)
    }

    /// When `root` is a custom resource of a CRD the API server refuses on
    /// create (so it serves no such kind): the line of its apiVersion and
    /// the message, with the server's reasons.
    pub fn refused(&self, root: &Node) -> Option<(u32, String)> {
        if self.refused.is_empty() {
            return None;
        }
        let crd = self.refused.iter().find(|crd| refused::is_of(crd, root))?;
        let api_version = root.get("apiVersion")?;
        Some((api_version.line, crd.message(api_version.as_str()?)))
    }

    /// When `root` is a custom resource of a version its CRD lists but does
    /// not serve: the line of its apiVersion and the message naming the
    /// served versions.
    pub fn unserved(&self, root: &Node) -> Option<(u32, String)> {
        let api_version = root.get("apiVersion")?;
        let (group, version, kind) = group_version_kind(root)?;
        let crd = self
            .crds
            .iter()
            .find(|crd| crd.group == group && crd.kind == kind)?;
        if crd.served.iter().any(|served| served == version) {
            return None;
        }
        let listed = if crd.unserved.iter().any(|unserved| unserved == version) {
            "lists but does not serve"
        } else {
            "does not list"
        };
        let served: Vec<String> = crd
            .served
            .iter()
            .map(|served| format!("{group}/{served}"))
            .collect();
        let fix = match served.as_slice() {
            [] => "it serves no version".to_owned(),
            [one] => format!("use apiVersion {one}"),
            several => format!("use one of the served: {}", several.join(", ")),
        };
        Some((
            api_version.line,
            format!(
                "{group}/{version} {kind}: the CRD {} {listed} version {version}; {fix}",
                crd.name
            ),
        ))
    }
}

/// The group, version and kind of the custom resource `root` (`None` for
/// a core kind, whose `apiVersion` has no group).
fn group_version_kind(root: &Node) -> Option<(&str, &str, &str)> {
    let kind = root.get("kind")?.as_str()?;
    let api_version = root.get("apiVersion")?.as_str()?;
    match GroupVersionKind::split_api_version(api_version) {
        ("", _) => None,
        (group, version) => Some((group, version, kind)),
    }
}

/// `gvk` as the key of the tables of served versions.
fn owned((group, version, kind): (&str, &str, &str)) -> Key {
    (group.to_owned(), version.to_owned(), kind.to_owned())
}
