//! The gates of the CRDs that can be used together.

use super::{CustomResources, Unused};
use crate::engine::InputError;
use crate::Version;
use std::path::PathBuf;
use vergate_codegen::load::{build_minor, Document};
use vergate_codegen::model::{Dialect, GatedModel};

/// Where a CRD read for the check comes from.
pub(super) enum Origin {
    /// A file given as CRDs (its name).
    Given(String),
    /// A document among the inputs: the input's name and its lines.
    Input(String, std::ops::Range<u32>),
}

/// A CRD document read, with where it came from.
pub(super) struct Candidate {
    pub origin: Origin,
    pub path: PathBuf,
    pub document: Document,
}

/// The gates of every candidate that can be used together, and those
/// candidates. All of them together is tried first; when that fails (a CRD
/// whose schema does not convert, two different CRDs of one name), they
/// are added one by one in input order and each that fails is left out,
/// reported where it came from (a given file as an input error, a CRD
/// among the inputs at its document, naming the CRD that is used instead).
/// The loader's warnings are added to `warnings`.
pub(super) fn usable_index(
    api: &str,
    versions: &[Version],
    candidates: Vec<Candidate>,
    custom: &mut CustomResources,
    errors: &mut Vec<InputError>,
    warnings: &mut Vec<String>,
) -> (Option<crate::gates::GatesIndex>, Vec<(PathBuf, Document)>) {
    let (origins, documents): (Vec<Origin>, Vec<(PathBuf, Document)>) = candidates
        .into_iter()
        .map(|candidate| (candidate.origin, (candidate.path, candidate.document)))
        .unzip();
    if let Ok(index) = custom_resource_index(api, versions, &documents, warnings) {
        return (Some(index), documents);
    }
    let mut used: Vec<(PathBuf, Document)> = Vec::new();
    let mut index = None;
    for (origin, document) in origins.into_iter().zip(documents) {
        used.push(document);
        match custom_resource_index(api, versions, &used, warnings) {
            Ok(built) => index = Some(built),
            Err(err) => {
                used.pop();
                match origin {
                    Origin::Given(name) => errors.push(InputError {
                        file: name,
                        line: 0,
                        message: format!("not used: {err}"),
                    }),
                    Origin::Input(file, lines) => {
                        let instead = match &err {
                            vergate_codegen::Error::ConflictingDefinition { first, .. } => {
                                Some(first.as_path())
                            }
                            _ => None,
                        };
                        custom.unused.push(Unused::new(file, lines, instead, &err));
                    }
                }
            }
        }
    }
    (index, used)
}

/// The gates of the CRDs' custom resources, present in each of `versions`
/// (ascending, not empty) of the API `api`.
fn custom_resource_index(
    api: &str,
    versions: &[Version],
    documents: &[(PathBuf, Document)],
    warnings: &mut Vec<String>,
) -> Result<crate::gates::GatesIndex, vergate_codegen::Error> {
    let mut loaded = build_minor(versions[0], documents)?;
    Dialect::CustomResources.mark(&mut loaded.model);
    warnings.extend(loaded.warnings.iter().map(ToString::to_string));
    let minors = versions
        .iter()
        .map(|version| {
            let mut minor = loaded.model.clone();
            minor.version = *version;
            minor
        })
        .collect();
    let model = GatedModel::merge_as(api, Dialect::CustomResources, minors)?;
    Ok(model.gates_index())
}
