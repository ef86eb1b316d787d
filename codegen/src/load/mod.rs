//! Spec loading: one minor's spec files (OpenAPI 2 or 3, JSON or YAML) into a
//! [`MinorModel`], and every present minor of an API in parallel.

mod document;
mod openapi;

pub use document::{parse, Document};
pub use openapi::{check_definition_name, escape_pointer, RENAMED_FROM};

use crate::api::{Api, PresentMinor};
use crate::error::{Error, Result, Warning};
use crate::model::{MinorModel, Schema};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A loaded minor and the warnings its specs gave.
#[derive(Debug)]
pub struct LoadedMinor {
    pub model: MinorModel,
    pub files: Vec<PathBuf>,
    pub warnings: Vec<Warning>,
}

/// Loads every present minor of `api`, verifying each spec's digest, using
/// up to one thread per core.
pub fn load_api(api: &Api) -> Result<Vec<LoadedMinor>> {
    let minors = api.present_minors()?;
    if minors.is_empty() {
        return Err(Error::Config {
            path: api.dir.clone(),
            message: "no v<X.Y> spec directories; add one per minor (see README)".into(),
        });
    }
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(minors.len());
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results: Vec<(usize, Result<LoadedMinor>)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut done = Vec::new();
                    let mut buffer = Vec::new();
                    loop {
                        let index = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(minor) = minors.get(index) else {
                            break;
                        };
                        done.push((index, load_minor_into(api, minor, &mut buffer)));
                    }
                    done
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|worker| worker.join().expect("a loader thread panicked"))
            .collect()
    });
    let mut ordered: Vec<Option<Result<LoadedMinor>>> = (0..minors.len()).map(|_| None).collect();
    for (index, result) in results {
        ordered[index] = Some(result);
    }
    ordered
        .into_iter()
        .map(|slot| slot.expect("every minor was loaded"))
        .collect()
}

/// Loads one present minor of `api`: reads, verifies and parses its files.
pub fn load_minor(api: &Api, minor: &PresentMinor) -> Result<LoadedMinor> {
    load_minor_into(api, minor, &mut Vec::new())
}

/// [`load_minor`], reading each file into `buffer` (a loader thread reuses
/// one buffer for all its minors: no fresh pages for each 3.5 MB spec).
fn load_minor_into(api: &Api, minor: &PresentMinor, buffer: &mut Vec<u8>) -> Result<LoadedMinor> {
    let files = api.spec_files(minor)?;
    let mut documents = Vec::with_capacity(files.len());
    for path in &files {
        let read_error = |source| Error::Io {
            path: path.clone(),
            action: "reading the spec",
            source,
        };
        buffer.clear();
        std::fs::File::open(path)
            .and_then(|mut file| std::io::Read::read_to_end(&mut file, buffer))
            .map_err(read_error)?;
        api.verify(minor.version, path, buffer)?;
        documents.push((path.clone(), parse(path, buffer)?));
    }
    build_minor(minor.version, &documents)
}

/// Builds a minor's model from its parsed documents. A definition repeated in
/// several files must be identical in each.
pub fn build_minor(
    version: crate::Version,
    documents: &[(PathBuf, Document)],
) -> Result<LoadedMinor> {
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
                        second: path.clone(),
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
        for definition in converted.definitions {
            model
                .definitions
                .insert(definition.name.clone(), definition);
        }
    }
    check_alias_cycles(&model)?;
    warnings.sort();
    Ok(LoadedMinor {
        model,
        files: documents.iter().map(|(path, _)| path.clone()).collect(),
        warnings,
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
