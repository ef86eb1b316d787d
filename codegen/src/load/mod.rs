//! Spec loading: one minor's spec files (OpenAPI 2 or 3, JSON or YAML) into a
//! [`MinorModel`], and every present minor of an API in parallel.

mod cache;
mod compose;
mod crd;
mod document;
pub mod facts;
mod openapi;
mod resources;
mod union_cycles;
mod yaml;

pub use cache::LoadCache;
pub use crd::{
    from_documents as crds_from_documents, holds_crd, parse as parse_crds, CrdVersions,
    OBJECT_META, OBJECT_META_SOURCE, STATUS_SUBRESOURCE, VALUE_VALIDATIONS,
};
pub use document::Document;
pub use openapi::{check_definition_name, RENAMED_FROM};
pub use resources::PathKind;

use crate::api::{Api, PresentMinor};
use crate::error::{Error, Result, Warning};
use crate::model::{MinorModel, Schema};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A loaded minor and the warnings its specs gave.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
pub struct LoadedMinor {
    pub model: MinorModel,
    pub files: Vec<PathBuf>,
    pub warnings: Vec<Warning>,
}

/// Loads every present minor of `api`, verifying each spec's digest, on
/// every core.
pub fn load_api(api: &Api) -> Result<Vec<LoadedMinor>> {
    load_api_cached(api, None)
}

/// [`load_api`], taking from `cache` the minors whose specs are as they
/// were when it recorded them, and recording the others in it.
pub fn load_api_cached(api: &Api, cache: Option<&LoadCache>) -> Result<Vec<LoadedMinor>> {
    let minors = api.present_minors()?;
    if minors.is_empty() {
        return Err(Error::Config {
            path: api.dir.clone(),
            message: "no v<X.Y> spec directories; add one per minor (see README)".into(),
        });
    }
    // Every unrecorded file at once, not the first a minor meets.
    crate::record::require_recorded(api)?;
    // The minors the cache surely lacks (the one just added) go first: they
    // cost ten times a cached one, and last they would keep a thread busy
    // alone at the end.
    let mut queue: Vec<usize> = (0..minors.len()).collect();
    if let Some(cache) = cache {
        queue.sort_by_key(|&index| cache.holds(minors[index].version));
    }
    let loaded = crate::parallel::map_each(&queue, |&index| {
        // Taken out while in use, so a thread that starts another minor
        // meanwhile gets a fresh buffer instead of a conflict.
        let mut buffer = SPEC_BUFFER.take();
        let loaded = load_cached(api, &minors[index], cache, &mut buffer);
        SPEC_BUFFER.set(buffer);
        loaded
    });
    let mut ordered: Vec<Option<Result<LoadedMinor>>> = (0..minors.len()).map(|_| None).collect();
    for (index, result) in queue.into_iter().zip(loaded) {
        ordered[index] = Some(result);
    }
    ordered
        .into_iter()
        .map(|slot| slot.expect("every minor was loaded"))
        .collect()
}

thread_local! {
    /// The buffer a thread reads spec files into, kept for its next minor:
    /// no fresh pages for each 3.5 MB spec.
    static SPEC_BUFFER: std::cell::Cell<Vec<u8>> = const { std::cell::Cell::new(Vec::new()) };
}

/// Loads one present minor of `api`: reads, verifies and parses its files.
pub fn load_minor(api: &Api, minor: &PresentMinor) -> Result<LoadedMinor> {
    load_minor_into(api, minor, &mut Vec::new())
}

/// One minor from `cache`, or loaded and recorded there.
fn load_cached(
    api: &Api,
    minor: &PresentMinor,
    cache: Option<&LoadCache>,
    buffer: &mut Vec<u8>,
) -> Result<LoadedMinor> {
    let Some(cache) = cache else {
        return load_minor_into(api, minor, buffer);
    };
    let files = api.spec_files(minor)?;
    if let Some(loaded) = cache.lookup(api, minor, &files) {
        return Ok(loaded);
    }
    let loaded = load_files(api, minor, &files, buffer)?;
    cache.remember(api, minor, &files, &loaded);
    Ok(loaded)
}

/// [`load_minor`], reading each file into `buffer`.
fn load_minor_into(api: &Api, minor: &PresentMinor, buffer: &mut Vec<u8>) -> Result<LoadedMinor> {
    let files = api.spec_files(minor)?;
    load_files(api, minor, &files, buffer)
}

fn load_files(
    api: &Api,
    minor: &PresentMinor,
    files: &[PathBuf],
    buffer: &mut Vec<u8>,
) -> Result<LoadedMinor> {
    let mut documents = Vec::with_capacity(files.len());
    for path in files {
        let read_error = |source| Error::io(path, "reading the spec", source);
        buffer.clear();
        std::fs::File::open(path)
            .and_then(|mut file| std::io::Read::read_to_end(&mut file, buffer))
            .map_err(read_error)?;
        api.verify(minor.version, path, buffer)?;
        documents.push((path.clone(), parse(path, buffer)?));
    }
    let mut loaded = build_minor(minor.version, &documents)?;
    crate::model::mark(api.dialect, &mut loaded.model);
    Ok(loaded)
}

/// Parses a spec file's bytes: the one place an input format is chosen. A
/// `.yaml`/`.yml` file that holds CustomResourceDefinitions is read as CRDs
/// (`crd.rs`), any other as an OpenAPI document, YAML or JSON by its
/// extension (`document.rs`).
pub fn parse(path: &Path, bytes: &[u8]) -> Result<Document> {
    let is_yaml = path
        .extension()
        .and_then(|ext| ext.to_str())
        .is_some_and(|ext| ext.eq_ignore_ascii_case("yaml") || ext.eq_ignore_ascii_case("yml"));
    if is_yaml && crd::holds_crd(bytes) {
        return crd::parse(path, bytes);
    }
    document::parse_openapi(path, bytes, is_yaml)
}

/// Builds a minor's model from its parsed documents. A definition repeated in
/// several files must be identical in each.
pub fn build_minor(
    version: crate::Version,
    documents: &[(PathBuf, Document)],
) -> Result<LoadedMinor> {
    let object_meta = crd::needs_object_meta(documents).then(|| {
        (
            PathBuf::from(OBJECT_META_SOURCE),
            crd::object_meta_document(),
        )
    });
    let documents: Vec<(&PathBuf, &Document)> = documents
        .iter()
        .chain(&object_meta)
        .map(|(path, document)| (path, document))
        .collect();
    // Which file each definition comes from, refusing differing duplicates.
    let mut owner: BTreeMap<String, (usize, &Value)> = BTreeMap::new();
    for (index, (path, document)) in documents.iter().enumerate() {
        let definitions = definitions_of(path, document)?;
        for (name, value) in definitions {
            match owner.get(name) {
                Some((first, previous)) if *previous != value => {
                    return Err(Error::ConflictingDefinition {
                        name: name.clone(),
                        version,
                        first: documents[*first].0.clone(),
                        second: (*path).clone(),
                    });
                }
                Some(_) => {}
                None => {
                    owner.insert(name.clone(), (index, value));
                }
            }
        }
    }
    let all_names: BTreeSet<String> = owner.keys().cloned().collect();
    let mut model = MinorModel::new(version);
    let mut warnings = Vec::new();
    let mut compositions = Vec::new();
    for (index, (path, document)) in documents.iter().enumerate() {
        let names: Vec<&str> = owner
            .iter()
            .filter(|(_, (owner_index, _))| *owner_index == index)
            .map(|(name, _)| name.as_str())
            .collect();
        let converted = openapi::convert(
            path,
            &document.root,
            document.definitions_pointer,
            &names,
            &all_names,
        )?;
        warnings.extend(converted.warnings);
        compositions.extend(converted.compositions);
        for mut definition in converted.definitions {
            definition.deprecation_warning =
                document.deprecation_warnings.get(&definition.name).cloned();
            if let [kind] = definition.kinds.as_slice() {
                definition.resource = documents
                    .iter()
                    .find_map(|(_, document)| document.resources.get(kind))
                    .cloned();
            }
            model
                .definitions
                .insert(definition.name.clone(), definition);
        }
    }
    check_alias_cycles(&model)?;
    warnings.extend(compose::apply(&mut model.definitions, compositions)?);
    warnings.extend(mark_path_kinds(&mut model, &documents));
    union_cycles::check_union_cycles(&model)?;
    warnings.sort();
    Ok(LoadedMinor {
        model,
        files: documents
            .iter()
            .filter(|(path, _)| path.as_os_str() != OBJECT_META_SOURCE)
            .map(|(path, _)| (*path).clone())
            .collect(),
        warnings,
    })
}

/// Marks the kinds only the request bodies of `paths` tell
/// (`resources::kinds_of`), once the definitions are composed. The
/// extension wins: a definition it gives kinds, or a kind it gives another
/// definition, is left as it is. A body that is no kind is a warning.
fn mark_path_kinds(model: &mut MinorModel, documents: &[(&PathBuf, &Document)]) -> Vec<Warning> {
    let mut warnings = Vec::new();
    let mut served: BTreeSet<crate::model::GroupVersionKind> = model
        .definitions
        .values()
        .flat_map(|definition| definition.kinds.iter().cloned())
        .collect();
    let mut marked: BTreeSet<String> = BTreeSet::new();
    for (path, document) in documents {
        for found in &document.path_kinds {
            let warn = |message: String| Warning {
                path: (*path).clone(),
                pointer: found.pointer.clone(),
                message,
            };
            let Some(definition) = model.definitions.get_mut(&found.definition) else {
                continue;
            };
            if !definition.kinds.is_empty() && !marked.contains(&found.definition) {
                continue;
            }
            let short_name = crate::model::naming::short_name(&found.definition);
            let properties = definition.object().map(|object| &object.properties);
            if let Some(reason) = resources::not_a_kind(short_name, properties) {
                warnings.push(warn(format!(
                    "the request body {:?} is not taken as a kind: {reason}",
                    found.definition
                )));
                continue;
            }
            let gvk = crate::model::GroupVersionKind {
                group: found.group.clone(),
                version: found.version.clone(),
                kind: short_name.to_owned(),
            };
            if !served.insert(gvk.clone()) {
                warnings.push(warn(format!(
                    "the request body {:?} is not taken as kind {} {}: another definition is that kind",
                    found.definition,
                    gvk.api_version(),
                    gvk.kind
                )));
                continue;
            }
            definition.kinds.push(gvk);
            definition.resource = match definition.kinds.len() {
                1 => Some(found.resource.clone()),
                _ => None,
            };
            marked.insert(found.definition.clone());
        }
    }
    warnings
}

/// Marks the kinds api.toml's `[kinds]` lists, in every minor that has the
/// definition and gives it no kind of its own. A listed definition no minor
/// has is an error naming the key.
pub fn mark_configured_kinds(minors: &mut [MinorModel], api: &Api) -> Result<()> {
    for (name, api_version) in &api.config.kinds {
        let (group, version) = api_version.rsplit_once('/').unwrap_or(("", api_version));
        let mut found = false;
        for minor in minors.iter_mut() {
            let Some(definition) = minor.definitions.get_mut(name) else {
                continue;
            };
            found = true;
            if definition.kinds.is_empty() {
                definition.kinds.push(crate::model::GroupVersionKind {
                    group: group.to_owned(),
                    version: version.to_owned(),
                    kind: crate::model::naming::short_name(name).to_owned(),
                });
            }
        }
        if !found {
            return Err(Error::Config {
                path: api.dir.join(crate::api::API_TOML),
                message: format!(
                    "[kinds] lists {name:?}, which no minor defines; give a definition name of the specs"
                ),
            });
        }
    }
    Ok(())
}

/// The warning for an API none of whose minors has a kind: without kinds
/// there are no per-kind schemas, Pkl resource modules or `Resource`
/// impls, and `vergate check --api` refuses the API.
pub fn no_kinds_warning(minors: &[MinorModel], api: &Api) -> Option<Warning> {
    let has_kinds = minors
        .iter()
        .any(|minor| minor.definitions.values().any(|d| !d.kinds.is_empty()));
    (!has_kinds).then(|| Warning {
        path: api.dir.join(crate::api::API_TOML),
        pointer: String::new(),
        message: format!(
            "{} has no kinds: no operation has `x-kubernetes-group-version-kind` and no path \
             `/apis/<group>/<version>/[namespaces/{{namespace}}/]<plural>` takes a POST or PUT body `$ref`, \
             so there are no per-kind schemas, Pkl resource modules or `Resource` impls, and \
             `vergate check --api` refuses the API. List its kinds in api.toml under `[kinds]`, \
             as `\"<definition name>\" = \"<group>/<version>\"`",
            api.name()
        ),
    })
}

fn definitions_of<'d>(
    path: &Path,
    document: &'d Document,
) -> Result<&'d serde_json::Map<String, Value>> {
    let value = document
        .root
        .pointer(document.definitions_pointer)
        .unwrap_or(&Value::Null);
    value.as_object().ok_or_else(|| Error::Spec {
        path: path.to_owned(),
        pointer: document.definitions_pointer.to_owned(),
        message: format!(
            "expected an object that maps definition names to schemas, found {}",
            openapi::kind_of(value)
        ),
    })
}

/// A definition that is only a `$ref` to another, which is only a `$ref`
/// back, names no type at all.
fn check_alias_cycles(model: &MinorModel) -> Result<()> {
    for start in model.definitions.values() {
        let mut seen = vec![start.name.as_str()];
        let mut current = start;
        while let Schema::Ref(target) = &current.schema {
            if seen.contains(&target.as_str()) {
                return Err(Error::Spec {
                    path: start.source.path.clone(),
                    pointer: start.source.pointer.clone(),
                    message: format!(
                        "definition {:?} is a cycle of references ({} → {target}) that never reaches a type",
                        start.name,
                        seen.join(" → ")
                    ),
                });
            }
            seen.push(target);
            match model.definitions.get(target) {
                Some(next) => current = next,
                None => break,
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;
